#include "runtime/deferred_work.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace gpuarr {

namespace {
struct Entry {
  std::shared_ptr<DeferredWork> producer;            // writes this memory; null when none
  std::vector<std::weak_ptr<DeferredWork>> readers;  // deferred work reading this memory
};
}  // namespace

// One lock for all deferred work: launching one piece launches others (its inputs'
// producers, the other readers of memory it reads), so the lock is recursive. Work
// removed from the registry is kept alive until the lock is released, so that the memory
// its destruction frees never re-enters the registry half-way through a change.
struct DeferredRegistry {
  using Map = std::unordered_map<const Memory*, Entry>;
  using KeepAlive = std::vector<std::shared_ptr<DeferredWork>>;

  static std::recursive_mutex& mutex() {
    static auto* m = new std::recursive_mutex();
    return *m;
  }
  static Map& map() {
    static auto* r = new Map();
    return *r;
  }
  static std::atomic<int64_t>& pending() {
    static std::atomic<int64_t> n{0};
    return n;
  }

  // Launches the producer of `m`, then every deferred reader of `m`. Lock held.
  static void launch_for(const Memory& m, KeepAlive& keep) {
    Map& reg = map();
    auto it = reg.find(&m);
    if (it == reg.end()) {
      m.set_deferred_flag(false);
      return;
    }
    std::shared_ptr<DeferredWork> producer = std::move(it->second.producer);
    std::vector<std::weak_ptr<DeferredWork>> readers = std::move(it->second.readers);
    reg.erase(it);
    m.set_deferred_flag(false);
    if (producer) {
      pending().fetch_sub(1, std::memory_order_relaxed);
      if (!producer->launched_) {
        producer->launched_ = true;
        // Its inputs' addresses come from Memory::ptr, which launches their own producers.
        producer->launch(m.raw_ptr());
      }
      keep.push_back(std::move(producer));
    }
    for (auto& w : readers) {
      std::shared_ptr<DeferredWork> r = w.lock();
      // Not launched yet: its output's entry still owns it, so that memory is alive.
      if (r && !r->launched_) launch_for(*r->output_, keep);
      if (r) keep.push_back(std::move(r));
    }
  }

  static void forget(const Memory& m, KeepAlive& keep) {
    Map& reg = map();
    auto it = reg.find(&m);
    if (it == reg.end()) return;
    if (it->second.producer) {
      pending().fetch_sub(1, std::memory_order_relaxed);
      keep.push_back(std::move(it->second.producer));
    }
    reg.erase(it);
    m.set_deferred_flag(false);
  }

  static void add(const std::shared_ptr<Memory>& output, std::shared_ptr<DeferredWork> work,
                  const std::vector<std::shared_ptr<Memory>>& inputs) {
    Map& reg = map();
    work->output_ = output.get();
    for (const auto& in : inputs) {
      Entry& e = reg[in.get()];
      // Readers whose output died unread are gone: keep the list short.
      if (e.readers.size() >= 8) {
        e.readers.erase(std::remove_if(e.readers.begin(), e.readers.end(),
                                       [](const auto& w) { return w.expired(); }),
                        e.readers.end());
      }
      e.readers.push_back(work);
      in->set_deferred_flag(true);
    }
    reg[output.get()].producer = std::move(work);
    pending().fetch_add(1, std::memory_order_relaxed);
    output->set_deferred_flag(true);
  }
};

Memory::~Memory() { forget_deferred_work(); }

void Memory::forget_deferred_work() const {
  if (!deferred_.load(std::memory_order_acquire)) return;
  DeferredRegistry::KeepAlive keep;  // destroyed after the unlock
  std::lock_guard<std::recursive_mutex> lock(DeferredRegistry::mutex());
  DeferredRegistry::forget(*this, keep);
  // `keep` dies here, still under the lock: the recursive lock lets the memory it frees
  // forget its own entries.
}

void Memory::launch_deferred_work() const {
  DeferredRegistry::KeepAlive keep;
  std::lock_guard<std::recursive_mutex> lock(DeferredRegistry::mutex());
  DeferredRegistry::launch_for(*this, keep);
}

void defer_work(const std::shared_ptr<Memory>& output, std::shared_ptr<DeferredWork> work,
                const std::vector<std::shared_ptr<Memory>>& inputs) {
  std::lock_guard<std::recursive_mutex> lock(DeferredRegistry::mutex());
  DeferredRegistry::add(output, std::move(work), inputs);
}

std::shared_ptr<DeferredWork> deferred_producer(const Memory& m) {
  if (!m.has_deferred_flag()) return nullptr;
  std::lock_guard<std::recursive_mutex> lock(DeferredRegistry::mutex());
  auto it = DeferredRegistry::map().find(&m);
  return it == DeferredRegistry::map().end() ? nullptr : it->second.producer;
}

void launch_all_deferred_work() {
  if (DeferredRegistry::pending().load(std::memory_order_relaxed) == 0) return;
  DeferredRegistry::KeepAlive keep;
  std::lock_guard<std::recursive_mutex> lock(DeferredRegistry::mutex());
  auto& reg = DeferredRegistry::map();
  for (;;) {
    auto it = std::find_if(reg.begin(), reg.end(),
                           [](const auto& kv) { return kv.second.producer != nullptr; });
    if (it == reg.end()) break;
    DeferredRegistry::launch_for(*it->first, keep);
  }
}

}  // namespace gpuarr
