// Small device-to-host reads (item(), printing a scalar, small get()): a one-block kernel
// writes the bytes into mapped pinned host memory. On the H100 this returns sooner than a
// copy-engine cudaMemcpyAsync, whose round trip costs about 7.6 us for 8 bytes.
#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>

#include "ops/kernels.hpp"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

__global__ void readback_kernel(const unsigned char* __restrict__ src, unsigned char* dst,
                                int64_t n) {
  const bool aligned = (reinterpret_cast<uintptr_t>(src) % 8 == 0) &&
                       (reinterpret_cast<uintptr_t>(dst) % 8 == 0);
  int64_t done = 0;
  if (aligned) {
    const int64_t words = n / 8;
    for (int64_t i = threadIdx.x; i < words; i += blockDim.x) {
      reinterpret_cast<uint64_t*>(dst)[i] = reinterpret_cast<const uint64_t*>(src)[i];
    }
    done = words * 8;
  }
  for (int64_t i = done + threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
}

struct ReadbackArea {
  std::mutex mutex;
  unsigned char* host = nullptr;
  unsigned char* device_view = nullptr;
};

ReadbackArea& readback_area(int device) {
  static std::array<ReadbackArea*, kMaxDevices> areas{};  // leaked: used until exit
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto& a = areas[static_cast<size_t>(device)];
  if (!a) {
    auto* area = new ReadbackArea();
    GPUARR_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&area->host), kSmallReadbackBytes,
                                    cudaHostAllocMapped | cudaHostAllocPortable));
    GPUARR_CUDA_CHECK(
        cudaHostGetDevicePointer(reinterpret_cast<void**>(&area->device_view), area->host, 0));
    a = area;
  }
  return *a;
}

}  // namespace

void read_small_device_bytes(void* dst, const void* src, size_t nbytes, cudaStream_t stream) {
  ReadbackArea& area = readback_area(current_device());
  std::lock_guard<std::mutex> lock(area.mutex);
  readback_kernel<<<1, 128, 0, stream>>>(static_cast<const unsigned char*>(src),
                                         area.device_view, static_cast<int64_t>(nbytes));
  check_launch("readback_kernel");
  GPUARR_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::memcpy(dst, area.host, nbytes);
}

}  // namespace gpuarr
