#include "runtime/memory_pool.hpp"

#include <array>
#include <atomic>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/config.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/memory.hpp"
#include "runtime/stream.hpp"

namespace gpuarr {

namespace {
// Never destroyed: arrays may still be freed while the process exits.
std::array<std::atomic<MemoryPool*>, kMaxDevices> g_pools{};
std::mutex g_pools_mutex;

// cudaStreamPerThread names a different stream in every thread: never a cache key.
bool cacheable_stream(cudaStream_t s) { return s != cudaStreamPerThread; }
uintptr_t stream_key(cudaStream_t s) { return reinterpret_cast<uintptr_t>(s); }
}  // namespace

MemoryPool& MemoryPool::for_device(int device) {
  auto& slot = g_pools[static_cast<size_t>(device)];
  if (MemoryPool* p = slot.load(std::memory_order_acquire)) return *p;  // the per-op path
  std::lock_guard<std::mutex> lock(g_pools_mutex);
  MemoryPool* p = slot.load(std::memory_order_relaxed);
  if (!p) {
    p = new MemoryPool(device);
    slot.store(p, std::memory_order_release);
  }
  return *p;
}

MemoryPool* MemoryPool::existing(int device) {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  return g_pools[static_cast<size_t>(device)].load(std::memory_order_acquire);
}

MemoryPool::MemoryPool(int device)
    : device_(device), small_enabled_(config::small_block_cache.get()) {
  DeviceGuard guard(device);
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  GPUARR_CUDA_CHECK(cudaMemPoolCreate(&pool_, &props));
  uint64_t keep_everything = std::numeric_limits<uint64_t>::max();
  GPUARR_CUDA_CHECK(
      cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &keep_everything));
}

void MemoryPool::throw_oom(size_t nbytes, const char* why) const {
  std::string msg = "Out of memory allocating " + with_thousands(nbytes) +
                    " bytes (allocated so far: " + with_thousands(used_bytes()) + " bytes";
  if (limit()) msg += ", limit set to: " + with_thousands(limit()) + " bytes";
  msg += ", pool total: " + with_thousands(total_bytes()) + " bytes" + why + ").";
  throw OutOfMemoryError(msg);
}

void* MemoryPool::allocate_from_pool(size_t bytes, size_t requested, cudaStream_t stream) {
  void* ptr = nullptr;
  cudaError_t st = cudaMallocFromPoolAsync(&ptr, bytes, pool_, stream);
  if (st == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    free_all_blocks();  // the small-block cache first, then CUDA's pool
    st = cudaMallocFromPoolAsync(&ptr, bytes, pool_, stream);
    if (st == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw_oom(requested, "; cached blocks were freed before retrying");
    }
  }
  check_cuda(st, "cudaMallocFromPoolAsync");
  return ptr;
}

void* MemoryPool::allocate(size_t nbytes, cudaStream_t stream, bool* small) {
  if (small) *small = false;
  if (nbytes == 0) return nullptr;
  const size_t lim = limit();
  if (lim && used_bytes() + nbytes > lim) throw_oom(nbytes, "");
  void* ptr = nullptr;
  if (small && nbytes <= SmallBlockCache::kMaxBlockBytes && small_cache_enabled() &&
      cacheable_stream(stream)) {
    const int cls = SmallBlockCache::size_class(nbytes);
    ptr = small_.pop(stream_key(stream), cls);  // freed earlier on this stream: no CUDA call
    if (!ptr) ptr = allocate_from_pool(SmallBlockCache::class_bytes(cls), nbytes, stream);
    *small = true;
  } else {
    ptr = allocate_from_pool(nbytes, nbytes, stream);
  }
  used_.fetch_add(nbytes, std::memory_order_relaxed);
  return ptr;
}

void MemoryPool::deallocate(void* ptr, size_t nbytes, cudaStream_t stream, bool small) noexcept {
  if (!ptr) return;
  used_.fetch_sub(nbytes, std::memory_order_relaxed);
  if (small && small_cache_enabled() && cacheable_stream(stream)) {
    try {
      if (small_.push(stream_key(stream), SmallBlockCache::size_class(nbytes), ptr)) return;
    } catch (...) {  // std::bad_alloc growing a list: free it the ordinary way
    }
  }
  // A failure here (interpreter shutdown after the driver unloaded) cannot be reported.
  if (cudaFreeAsync(ptr, stream) != cudaSuccess) cudaGetLastError();
}

void MemoryPool::set_small_cache_enabled(bool on) {
  small_enabled_.store(on, std::memory_order_relaxed);
  if (!on) flush_small_cache();
}

void MemoryPool::flush_small_cache() noexcept {
  try {
    auto blocks = small_.take_all();
    if (blocks.empty()) return;
    DeviceGuard guard(device_);  // the legacy stream (key 0) is the current device's
    for (const auto& [key, ptr] : blocks) {
      if (cudaFreeAsync(ptr, reinterpret_cast<cudaStream_t>(key)) != cudaSuccess) cudaGetLastError();
    }
  } catch (...) {  // no device any more (interpreter exit): nothing to give back
  }
}

void MemoryPool::flush_small_cache(cudaStream_t stream) noexcept {
  try {
    auto blocks = small_.take_stream(stream_key(stream));
    if (blocks.empty()) return;
    DeviceGuard guard(device_);
    for (void* ptr : blocks) {
      if (cudaFreeAsync(ptr, stream) != cudaSuccess) cudaGetLastError();
    }
  } catch (...) {
  }
}

void release_stream_blocks(cudaStream_t stream, int device) noexcept {
  if (device >= 0) {
    if (MemoryPool* p = MemoryPool::existing(device)) p->flush_small_cache(stream);
    return;
  }
  for (int d = 0; d < kMaxDevices; ++d) {
    if (MemoryPool* p = MemoryPool::existing(d)) p->flush_small_cache(stream);
  }
}

size_t MemoryPool::total_bytes() const {
  uint64_t reserved = 0;
  GPUARR_CUDA_CHECK(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &reserved));
  return static_cast<size_t>(reserved);
}

void MemoryPool::free_all_blocks() {
  flush_small_cache();
  DeviceGuard guard(device_);
  // Frees enqueued on streams complete only when the device reaches them.
  GPUARR_CUDA_CHECK(cudaDeviceSynchronize());
  GPUARR_CUDA_CHECK(cudaMemPoolTrimTo(pool_, 0));
}

namespace {

// Pool memory keeps its stream alive so that it can be freed in that stream's order.
class PoolMemory final : public Memory {
 public:
  PoolMemory(void* ptr, size_t nbytes, int device, std::shared_ptr<Stream> stream,
             MemoryPool* pool, bool small)
      : Memory(ptr, nbytes, device), stream_(std::move(stream)), pool_(pool), small_(small) {}
  ~PoolMemory() override {
    forget_deferred_work();
    pool_->deallocate(ptr_, nbytes_, stream_ ? stream_->handle() : nullptr, small_);
  }

 private:
  std::shared_ptr<Stream> stream_;
  MemoryPool* pool_;
  bool small_;
};

}  // namespace

std::shared_ptr<Memory> allocate_device_memory(size_t nbytes) {
  const int device = current_device();
  MemoryPool& pool = MemoryPool::for_device(device);
  const auto& stream = current_stream_ptr(device);
  bool small = false;
  void* ptr = pool.allocate(nbytes, stream ? stream->handle() : nullptr, &small);
  return std::make_shared<PoolMemory>(ptr, nbytes, device, stream, &pool, small);
}

}  // namespace gpuarr
