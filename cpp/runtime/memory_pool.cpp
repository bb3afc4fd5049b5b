#include "runtime/memory_pool.hpp"

#include <array>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/memory.hpp"
#include "runtime/stream.hpp"

namespace gpuarr {

MemoryPool& MemoryPool::for_device(int device) {
  // Never destroyed: arrays may still be freed while the process exits.
  static std::array<MemoryPool*, kMaxDevices> pools{};
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto& p = pools[static_cast<size_t>(device)];
  if (!p) p = new MemoryPool(device);
  return *p;
}

MemoryPool::MemoryPool(int device) : device_(device) {
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

void* MemoryPool::allocate(size_t nbytes, cudaStream_t stream) {
  if (nbytes == 0) return nullptr;
  const size_t lim = limit();
  if (lim && used_bytes() + nbytes > lim) throw_oom(nbytes, "");
  void* ptr = nullptr;
  cudaError_t st = cudaMallocFromPoolAsync(&ptr, nbytes, pool_, stream);
  if (st == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    free_all_blocks();
    st = cudaMallocFromPoolAsync(&ptr, nbytes, pool_, stream);
    if (st == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw_oom(nbytes, "; cached blocks were freed before retrying");
    }
  }
  check_cuda(st, "cudaMallocFromPoolAsync");
  used_.fetch_add(nbytes, std::memory_order_relaxed);
  return ptr;
}

void MemoryPool::deallocate(void* ptr, size_t nbytes, cudaStream_t stream) noexcept {
  if (!ptr) return;
  // A failure here (interpreter shutdown after the driver unloaded) cannot be reported.
  if (cudaFreeAsync(ptr, stream) != cudaSuccess) cudaGetLastError();
  used_.fetch_sub(nbytes, std::memory_order_relaxed);
}

size_t MemoryPool::total_bytes() const {
  uint64_t reserved = 0;
  GPUARR_CUDA_CHECK(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &reserved));
  return static_cast<size_t>(reserved);
}

void MemoryPool::free_all_blocks() {
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
             MemoryPool* pool)
      : Memory(ptr, nbytes, device), stream_(std::move(stream)), pool_(pool) {}
  ~PoolMemory() override {
    pool_->deallocate(ptr_, nbytes_, stream_ ? stream_->handle() : nullptr);
  }

 private:
  std::shared_ptr<Stream> stream_;
  MemoryPool* pool_;
};

}  // namespace

std::shared_ptr<Memory> allocate_device_memory(size_t nbytes) {
  const int device = current_device();
  MemoryPool& pool = MemoryPool::for_device(device);
  const auto& stream = current_stream_ptr(device);
  void* ptr = pool.allocate(nbytes, stream ? stream->handle() : nullptr);
  return std::make_shared<PoolMemory>(ptr, nbytes, device, stream, &pool);
}

}  // namespace gpuarr
