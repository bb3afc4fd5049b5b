#include "runtime/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/config.hpp"

namespace gpuarr {
namespace {

class ThreadPool {
 public:
  explicit ThreadPool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  // Workers are detached at exit: joining them from a static destructor can deadlock
  // when the process exits from a thread.
  ~ThreadPool() {
    for (auto& t : threads_) t.detach();
  }

  void run(int n, const std::function<void(int)>& task) {
    std::lock_guard<std::mutex> serial(run_mutex_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = &task;
      n_tasks_ = n;
      next_.store(0);
      remaining_ = n;
      ++generation_;
    }
    cv_.notify_all();
    drain(task, n);
    std::unique_lock<std::mutex> lock(mutex_);
    // Waiting for active_ too guarantees no worker still holds this task when we return.
    done_cv_.wait(lock, [this] { return remaining_ == 0 && active_ == 0; });
    task_ = nullptr;
  }

 private:
  void drain(const std::function<void(int)>& task, int n) {
    int finished = 0;
    for (int i; (i = next_.fetch_add(1)) < n;) {
      task(i);
      ++finished;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    remaining_ -= finished;
    if (remaining_ == 0 && active_ == 0) done_cv_.notify_all();
  }

  void work() {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* task;
      int n;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (!task_) continue;
        task = task_;
        n = n_tasks_;
        ++active_;
      }
      drain(*task, n);
      std::lock_guard<std::mutex> lock(mutex_);
      --active_;
      if (remaining_ == 0 && active_ == 0) done_cv_.notify_all();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex run_mutex_, mutex_;
  std::condition_variable cv_, done_cv_;
  const std::function<void(int)>* task_ = nullptr;
  int n_tasks_ = 0;
  std::atomic<int> next_{0};
  int remaining_ = 0;
  int active_ = 0;
  uint64_t generation_ = 0;
};

int configured_threads() {
  if (const int64_t n = config::transfer_threads.get(); n > 0) return static_cast<int>(n);
  const int hw = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, std::min(hw, 16));
}

ThreadPool& pool() {
  // Intentionally leaked (see ~ThreadPool).
  static ThreadPool* p = new ThreadPool(transfer_threads() - 1);
  return *p;
}

}  // namespace

int transfer_threads() {
  static const int n = configured_threads();
  return n;
}

void parallel_for(int n, const std::function<void(int)>& task) {
  if (n <= 1 || transfer_threads() == 1) {
    for (int i = 0; i < n; ++i) task(i);
    return;
  }
  pool().run(n, task);
}

void parallel_memcpy(void* dst, const void* src, size_t nbytes) {
  constexpr size_t kMinPerThread = 1 << 20;
  const int parts = static_cast<int>(
      std::max<size_t>(1, std::min<size_t>(transfer_threads(), nbytes / kMinPerThread)));
  if (parts == 1) {
    std::memcpy(dst, src, nbytes);
    return;
  }
  // Split at absolute destination addresses that are multiples of 2 MiB (a transparent huge
  // page) when the parts are that large, else of 4 KiB: no two threads then fault the same
  // page of a fresh destination, which is what bounds copies into new NumPy arrays.
  const uintptr_t base = reinterpret_cast<uintptr_t>(dst);
  const size_t per_raw = (nbytes + parts - 1) / parts;
  const size_t align = per_raw >= (size_t(2) << 20) ? (size_t(2) << 20) : 4096;
  auto boundary = [&](int i) -> size_t {
    if (i <= 0) return 0;
    if (i >= parts) return nbytes;
    const uintptr_t target = base + per_raw * i;
    const size_t b = static_cast<size_t>(((target + align - 1) & ~uintptr_t(align - 1)) - base);
    return std::min(b, nbytes);
  };
  parallel_for(parts, [&](int i) {
    const size_t begin = boundary(i), end = boundary(i + 1);
    if (end > begin) {
      std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin,
                  end - begin);
    }
  });
}

}  // namespace gpuarr
