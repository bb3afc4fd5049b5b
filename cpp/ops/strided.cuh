// Launching elementwise kernels over strided views: N operands share one shape, each
// with its own byte strides; dimensions are coalesced on the host first so that most
// launches index one contiguous dimension.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/layout.hpp"
#include "runtime/cuda_check.hpp"

namespace gpuarr {

// Dimensions one launch indexes; problems with more (after coalescing) are split into
// several launches over the outer dimensions.
constexpr int kKernelDims = 16;

template <int N>
struct StridedArgs {
  int ndim;
  int64_t shape[kKernelDims];
  int64_t strides[N][kKernelDims];
  char* data[N];
};

template <int N>
__device__ __forceinline__ void element_offsets(const StridedArgs<N>& a, int64_t i,
                                                int64_t (&off)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
  for (int d = a.ndim - 1; d >= 0; --d) {
    const int64_t n = a.shape[d];
    const int64_t idx = i % n;
    i /= n;
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += idx * a.strides[k][d];
  }
}

// The same with 32-bit index arithmetic (several times cheaper than 64-bit division), for
// problems whose element count fits in 32 bits.
template <int N>
__device__ __forceinline__ void element_offsets32(const StridedArgs<N>& a, uint32_t i,
                                                  int64_t (&off)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
  for (int d = a.ndim - 1; d >= 0; --d) {
    const uint32_t n = static_cast<uint32_t>(a.shape[d]);
    const uint32_t q = i / n;
    const int64_t idx = static_cast<int64_t>(i - q * n);
    i = q;
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += idx * a.strides[k][d];
  }
}

// A 16-byte element (complex128) moved as two 8-byte words: views may be only 8-aligned.
struct alignas(8) Word16 {
  uint64_t lo, hi;
};

inline dim3 grid_for(int64_t n, int threads) {
  const int64_t blocks = std::min<int64_t>((n + threads - 1) / threads, int64_t(1) << 20);
  return dim3(static_cast<unsigned>(std::max<int64_t>(blocks, 1)));
}

// Calls launch(args, n_elements) for each piece of the problem. `shape` and `strides`
// must already be coalesced.
template <int N, class Launch>
void for_each_launch(const Dims& shape, const std::array<const Dims*, N>& strides,
                     const std::array<char*, N>& data, Launch&& launch) {
  const int nd = static_cast<int>(shape.size());
  const int outer = std::max(0, nd - kKernelDims);
  StridedArgs<N> args{};
  args.ndim = nd - outer;
  for (int d = 0; d < args.ndim; ++d) {
    args.shape[d] = shape[outer + d];
    for (int k = 0; k < N; ++k) args.strides[k][d] = (*strides[k])[outer + d];
  }
  int64_t inner = 1;
  for (int d = 0; d < args.ndim; ++d) inner *= args.shape[d];
  int64_t outer_count = 1;
  for (int d = 0; d < outer; ++d) outer_count *= shape[d];
  for (int64_t o = 0; o < outer_count; ++o) {
    int64_t rem = o;
    for (int k = 0; k < N; ++k) args.data[k] = data[k];
    for (int d = outer - 1; d >= 0; --d) {
      const int64_t idx = rem % shape[d];
      rem /= shape[d];
      for (int k = 0; k < N; ++k) args.data[k] += idx * (*strides[k])[d];
    }
    launch(args, inner);
  }
}

inline void check_launch(const char* kernel) {
  check_cuda(cudaGetLastError(), kernel);
}

}  // namespace gpuarr
