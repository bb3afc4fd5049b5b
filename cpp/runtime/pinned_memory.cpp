#include "runtime/pinned_memory.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

PinnedMemory::PinnedMemory(size_t nbytes) : nbytes_(nbytes) {
  require_device();
  if (nbytes == 0) return;
  const cudaError_t st = cudaHostAlloc(&ptr_, nbytes, cudaHostAllocPortable);
  if (st == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw OutOfMemoryError("Out of pinned host memory allocating " + with_thousands(nbytes) +
                           " bytes (cudaHostAlloc failed).");
  }
  check_cuda(st, "cudaHostAlloc");
}

PinnedMemory::~PinnedMemory() {
  if (ptr_ && cudaFreeHost(ptr_) != cudaSuccess) cudaGetLastError();
}

void* GrowingPinnedBuffer::get(size_t nbytes) {
  nbytes = std::max<size_t>(nbytes, 1);
  if (!mem_ || mem_->nbytes() < nbytes) {
    mem_.reset();  // cudaFreeHost waits for the device
    mem_ = std::make_unique<PinnedMemory>(nbytes);
  }
  return mem_->ptr();
}

bool is_pinned_host_pointer(const void* ptr) {
  if (device_count() == 0) return false;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, ptr) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

}  // namespace gpuarr
