#include "runtime/pinned_memory.hpp"

#include <cuda_runtime_api.h>

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
