// Small device-to-host reads (item(), printing a scalar, small get()): a one-block kernel
// writes the bytes into mapped pinned memory, then a sequence number, which the host spins
// on briefly before falling back to cudaStreamSynchronize. On the H100 this cut item()
// from ~11.5 to ~9.4 us (docs/decisions.md). Uploads stay on cudaMemcpyAsync: the same
// trick for them (a ring of mapped segments read by a kernel) measured slower.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <mutex>

#include "ops/kernels.hpp"
#include "ops/strided.cuh"
#include "runtime/config.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

__global__ void readback_kernel(const unsigned char* __restrict__ src, unsigned char* dst,
                                int64_t n, volatile unsigned long long* flag,
                                unsigned long long seq) {
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
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) *flag = seq;
}

struct ReadbackArea {
  std::mutex mutex;
  unsigned char* readback = nullptr;
  volatile unsigned long long* flag = nullptr;
  unsigned char* readback_device_view = nullptr;
  unsigned long long* flag_device_view = nullptr;
  unsigned long long seq = 0;
};

void* mapped_alloc(size_t n) {
  void* p = nullptr;
  GPUARR_CUDA_CHECK(cudaHostAlloc(&p, n, cudaHostAllocMapped | cudaHostAllocPortable));
  return p;
}

template <class T>
T* device_view(T* host) {
  void* d = nullptr;
  GPUARR_CUDA_CHECK(cudaHostGetDevicePointer(
      &d, const_cast<void*>(static_cast<const volatile void*>(host)), 0));
  return static_cast<T*>(d);
}

ReadbackArea& area_for(int device) {
  static std::array<ReadbackArea*, kMaxDevices> areas{};  // leaked: used until exit
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto& a = areas[static_cast<size_t>(device)];
  if (!a) {
    auto* area = new ReadbackArea();
    area->readback = static_cast<unsigned char*>(mapped_alloc(kSmallReadbackBytes));
    area->flag = static_cast<volatile unsigned long long*>(mapped_alloc(64));
    *area->flag = 0;
    area->readback_device_view = device_view(area->readback);
    area->flag_device_view = const_cast<unsigned long long*>(device_view(area->flag));
    a = area;
  }
  return *a;
}

}  // namespace

void read_small_device_bytes(void* dst, const void* src, size_t nbytes, cudaStream_t stream) {
  static const int64_t spin_us = config::readback_spin_us.get();
  ReadbackArea& area = area_for(current_device());
  std::lock_guard<std::mutex> lock(area.mutex);
  const unsigned long long seq = ++area.seq;
  readback_kernel<<<1, 128, 0, stream>>>(static_cast<const unsigned char*>(src),
                                         area.readback_device_view,
                                         static_cast<int64_t>(nbytes), area.flag_device_view, seq);
  check_launch("readback_kernel");
  bool seen = false;
  if (spin_us > 0) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(spin_us);
    for (int i = 0;; ++i) {
      if (*area.flag == seq) {
        seen = true;
        break;
      }
      _mm_pause();
      if ((i & 63) == 63 && std::chrono::steady_clock::now() > deadline) break;
    }
  }
  // Long queues (or a failed kernel) end up here: wait properly and report errors.
  if (!seen) GPUARR_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::memcpy(dst, area.readback, nbytes);
}

}  // namespace gpuarr
