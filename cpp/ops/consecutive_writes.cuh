// Kernels that write a C-contiguous result kCopyUnroll<W> consecutive elements a thread
// (the one-pass concatenation, numpy.pad): the thread gathers its elements, then stores
// them as one 16-byte store where the result's address allows it. A thread finds its first
// element's place once and steps through the rest, where an element a thread with its own
// index division left such kernels bound by their instructions (67% of the copy bandwidth).
#pragma once
#include <cstdint>

#include "ops/device_types.cuh"
#include "ops/strided.cuh"

namespace gpuarr {

// The grid-stride walk over `total` elements of `out`: gather(e0, v) fills v.v[u] for the
// elements e0 + u below total, then they are stored.
template <class W, class Gather>
__device__ __forceinline__ void write_consecutive(char* out, bool aligned, uint32_t total,
                                                  Gather&& gather) {
  constexpr int U = kCopyUnroll<W>;
  const int64_t step = int64_t(gridDim.x) * blockDim.x * U;
  for (int64_t e0 = (blockIdx.x * int64_t(blockDim.x) + threadIdx.x) * U; e0 < total;
       e0 += step) {
    VecOf<W, U> v;
    gather(e0, v);
    if (aligned && e0 + U <= total) {
      reinterpret_cast<VecOf<W, U>*>(out)[e0 / U] = v;
    } else {
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (e0 + u < total) reinterpret_cast<W*>(out)[e0 + u] = v.v[u];
    }
  }
}

// Whether `out` takes a thread's elements as one store (write_consecutive's `aligned`).
template <class W>
bool consecutive_store_aligned(const char* out) {
  return reinterpret_cast<uintptr_t>(out) % alignof(VecOf<W, kCopyUnroll<W>>) == 0;
}

// The grid of `threads`-thread blocks that gives each thread one group of `total`.
template <class W>
dim3 consecutive_grid(int64_t total, int threads) {
  return grid_for((total + kCopyUnroll<W> - 1) / kCopyUnroll<W>, threads);
}

}  // namespace gpuarr
