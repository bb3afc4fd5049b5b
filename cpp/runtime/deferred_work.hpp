// Work whose launch is put off until its result is needed, so that a chain of operations
// (sqrt(a - b + c) on large arrays) can run as one pass over memory instead of one pass per
// operation.
//
// What keeps the results those of eager evaluation:
// - Deferred work writes one fresh memory (its output) and reads others (its inputs). It is
//   launched, on the stream that was current when it was deferred, before anyone gets the
//   address of either (Memory::ptr): a reader of the output gets the result, and a later
//   write to an input is ordered after the read.
// - Every point where gpuarr's stream order meets another order launches all deferred work
//   first: a stream switch, a synchronize, an event record or wait.
// - Memory whose address has left gpuarr (Memory::shared_outside) is never an input.
// - Work whose output dies unread is never launched: nobody could observe it.
#pragma once
#include <memory>
#include <vector>

#include "runtime/memory.hpp"

namespace gpuarr {

class DeferredWork {
 public:
  virtual ~DeferredWork() = default;
  // Enqueues the work; `output` is the output memory's address.
  virtual void launch(void* output) = 0;

 private:
  friend struct DeferredRegistry;
  const Memory* output_ = nullptr;  // set by defer_work
  bool launched_ = false;
};

// Defers `work`, which writes `output` (fresh memory nobody else has seen) and reads `inputs`.
void defer_work(const std::shared_ptr<Memory>& output, std::shared_ptr<DeferredWork> work,
                const std::vector<std::shared_ptr<Memory>>& inputs);

// The deferred work that will write `m`, or null.
std::shared_ptr<DeferredWork> deferred_producer(const Memory& m);

// Launches all deferred work now (stream switches, synchronization, events).
void launch_all_deferred_work();

}  // namespace gpuarr
