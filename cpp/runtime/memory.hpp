// Device memory that arrays and their views share. Subclasses say how it is released:
// back to gpuarr's stream-ordered pool, or to a foreign owner (DLPack, CUDA array
// interface) in the interop layer.
#pragma once
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <memory>

namespace gpuarr {

class Stream;

class Memory {
 public:
  Memory(void* ptr, size_t nbytes, int device) : ptr_(ptr), nbytes_(nbytes), device_(device) {}
  virtual ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  // The device address. Anyone asking for it may read or write the memory, so deferred
  // work that writes it, or reads it, is launched first (runtime/deferred_work.hpp).
  void* ptr() const {
    if (deferred_.load(std::memory_order_acquire)) launch_deferred_work();
    return ptr_;
  }
  // The address without launching deferred work: for the deferred work itself.
  void* raw_ptr() const { return ptr_; }
  size_t nbytes() const { return nbytes_; }
  int device() const { return device_; }

  // True once the address has left gpuarr (DLPack, __cuda_array_interface__, .data) or the
  // memory came from another library: it may then change outside gpuarr's stream order,
  // so no work reading it is deferred.
  bool shared_outside() const { return shared_outside_.load(std::memory_order_relaxed); }
  void mark_shared_outside() const { shared_outside_.store(true, std::memory_order_relaxed); }

  // For runtime/deferred_work.cpp: whether deferred work writes or reads this memory.
  void set_deferred_flag(bool on) const { deferred_.store(on, std::memory_order_release); }
  bool has_deferred_flag() const { return deferred_.load(std::memory_order_acquire); }

 protected:
  // Subclasses call this first in their destructors, before the memory is released:
  // deferred work writing it is then dropped before the address can be reused.
  void forget_deferred_work() const;

  void* ptr_;
  size_t nbytes_;
  int device_;

 private:
  void launch_deferred_work() const;
  mutable std::atomic<bool> deferred_{false};
  mutable std::atomic<bool> shared_outside_{false};
};

// Allocates `nbytes` on the current device in the current stream's order; freed in the
// same stream's order when the last view dies.
std::shared_ptr<Memory> allocate_device_memory(size_t nbytes);

}  // namespace gpuarr
