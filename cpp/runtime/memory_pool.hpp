// gpuarr's device memory pool: CUDA's stream-ordered allocator on a per-device
// cudaMemPool whose release threshold is raised so that freed blocks are reused rather
// than returned to the driver at every synchronization. In front of it, a per-stream cache
// of small blocks (<= 1 MiB, core/small_block_cache.hpp) takes the CUDA calls off the
// per-op path; GPUARR_SMALL_BLOCK_CACHE=0 turns it off.
#pragma once
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/small_block_cache.hpp"

namespace gpuarr {

class MemoryPool {
 public:
  static MemoryPool& for_device(int device);
  // The pool of `device` if one was created, else nullptr (creates nothing).
  static MemoryPool* existing(int device);

  // Raises OutOfMemoryError (after freeing cached blocks and retrying once). `*small` says
  // whether the block was taken in the small-block cache's size class (pass it back to
  // deallocate).
  void* allocate(size_t nbytes, cudaStream_t stream, bool* small = nullptr);
  void deallocate(void* ptr, size_t nbytes, cudaStream_t stream, bool small = false) noexcept;

  size_t used_bytes() const { return used_.load(std::memory_order_relaxed); }
  size_t total_bytes() const;  // reserved from the driver, in use or cached
  void free_all_blocks();      // flushes the small-block cache, waits for the device, trims
  void set_limit(size_t bytes) { limit_.store(bytes); }  // 0: no limit
  size_t limit() const { return limit_.load(); }
  int device() const { return device_; }

  // Small-block cache.
  bool small_cache_enabled() const { return small_enabled_.load(std::memory_order_relaxed); }
  void set_small_cache_enabled(bool on);  // off: flushes it
  size_t small_cache_bytes() const { return small_.cached_bytes(); }
  size_t small_cache_blocks() const { return small_.cached_blocks(); }
  void flush_small_cache() noexcept;                        // every stream's blocks
  void flush_small_cache(cudaStream_t stream) noexcept;     // one stream's blocks

 private:
  explicit MemoryPool(int device);
  [[noreturn]] void throw_oom(size_t nbytes, const char* why) const;
  void* allocate_from_pool(size_t bytes, size_t requested, cudaStream_t stream);

  int device_;
  cudaMemPool_t pool_ = nullptr;
  std::atomic<size_t> used_{0};
  std::atomic<size_t> limit_{0};
  std::atomic<bool> small_enabled_{true};
  SmallBlockCache small_;
};

// Called when a stream handle is about to be destroyed (or forgotten): returns the blocks
// cached for it to CUDA's pool, in its order, so that a later stream with the same handle
// value never receives them.
void release_stream_blocks(cudaStream_t stream, int device) noexcept;

}  // namespace gpuarr
