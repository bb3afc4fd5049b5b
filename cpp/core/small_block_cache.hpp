// Host-side bookkeeping of gpuarr's small-block cache (no CUDA here, unit-tested on the CPU).
//
// A block of at most kMaxBlockBytes freed on stream S is kept in S's free list, by size
// class, instead of being returned to CUDA's stream-ordered pool; an allocation of that
// class on the same stream takes it back with no CUDA call. That is safe by stream order:
// everything the previous owner enqueued on S runs before anything the next owner enqueues
// on S (the same argument that lets cudaMallocAsync reuse a block freed on its own stream).
// Blocks are never handed to another stream. Streams are opaque keys (the cudaStream_t
// value); the owner flushes a stream's list before that handle can be destroyed/reused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace gpuarr {

class SmallBlockCache {
 public:
  static constexpr size_t kMinBlockBytes = 256;
  static constexpr size_t kMaxBlockBytes = size_t(1) << 20;  // 1 MiB
  // 256 B, then four classes per octave (<= 25 % padding) up to 1 MiB.
  static constexpr int kNumClasses = 1 + 4 * 12;

  // Class of a request of n bytes, 1 <= n <= kMaxBlockBytes.
  static int size_class(size_t n) {
    if (n <= kMinBlockBytes) return 0;
    int p = 63 - __builtin_clzll(static_cast<unsigned long long>(n - 1));  // 2^p < n <= 2^(p+1)
    const size_t step = size_t(1) << (p - 2);
    const size_t k = (n + step - 1) / step;  // 5..8
    return 1 + (p - 8) * 4 + static_cast<int>(k - 5);
  }
  // Bytes allocated for class c (>= every request of that class).
  static size_t class_bytes(int c) {
    if (c == 0) return kMinBlockBytes;
    const int p = 8 + (c - 1) / 4;
    const size_t k = 5 + static_cast<size_t>((c - 1) % 4);
    return k << (p - 2);
  }

  explicit SmallBlockCache(size_t max_total_bytes = size_t(64) << 20,
                           size_t max_blocks_per_class = 64)
      : max_total_(max_total_bytes), max_per_class_(max_blocks_per_class) {}
  SmallBlockCache(const SmallBlockCache&) = delete;
  SmallBlockCache& operator=(const SmallBlockCache&) = delete;

  // A cached block of class `cls` last freed on `stream`, or nullptr.
  void* pop(uintptr_t stream, int cls);
  // Keeps `ptr` (of class `cls`, freed on `stream`); false when the cache is full and the
  // caller must free the block itself.
  bool push(uintptr_t stream, int cls, void* ptr);
  // Removes and returns every cached block as (stream, ptr), for the caller to free.
  std::vector<std::pair<uintptr_t, void*>> take_all();
  // Removes and returns the blocks cached for one stream.
  std::vector<void*> take_stream(uintptr_t stream);

  size_t cached_bytes() const;
  size_t cached_blocks() const;
  size_t max_total_bytes() const { return max_total_; }

 private:
  struct PerStream {
    uintptr_t stream;
    std::vector<void*> lists[kNumClasses];
  };
  PerStream* find(uintptr_t stream);  // caller holds mutex_

  mutable std::mutex mutex_;
  std::vector<PerStream*> streams_;  // few streams: a linear search beats hashing
  size_t max_total_;
  size_t max_per_class_;
  size_t total_bytes_ = 0;
  size_t total_blocks_ = 0;
};

}  // namespace gpuarr
