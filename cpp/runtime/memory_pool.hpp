// gpuarr's device memory pool: CUDA's stream-ordered allocator on a per-device
// cudaMemPool whose release threshold is raised so that freed blocks are reused rather
// than returned to the driver at every synchronization.
#pragma once
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gpuarr {

class MemoryPool {
 public:
  static MemoryPool& for_device(int device);

  // Raises OutOfMemoryError (after freeing cached blocks and retrying once).
  void* allocate(size_t nbytes, cudaStream_t stream);
  void deallocate(void* ptr, size_t nbytes, cudaStream_t stream) noexcept;

  size_t used_bytes() const { return used_.load(std::memory_order_relaxed); }
  size_t total_bytes() const;  // reserved from the driver, in use or cached
  void free_all_blocks();      // waits for the device, then trims the cache
  void set_limit(size_t bytes) { limit_.store(bytes); }  // 0: no limit
  size_t limit() const { return limit_.load(); }
  int device() const { return device_; }

 private:
  explicit MemoryPool(int device);
  [[noreturn]] void throw_oom(size_t nbytes, const char* why) const;

  int device_;
  cudaMemPool_t pool_ = nullptr;
  std::atomic<size_t> used_{0};
  std::atomic<size_t> limit_{0};
};

}  // namespace gpuarr
