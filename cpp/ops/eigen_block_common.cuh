// Helpers shared by the one-block-per-matrix eigen kernels (eigen_jacobi.cu,
// eigen_tridiag.cu, eigen_tridiag_vectors.cu): block-wide reductions through a 34-double
// shared scratch, the eigenvalue order used for the final sort, float limits, and the
// once-per-device opt-in to the large dynamic shared memory.
#pragma once
#include <algorithm>
#include <cuda_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <mutex>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace eigen_detail {

// Sum of v over the block; red: 34 doubles of shared memory. Contains __syncthreads (every
// thread of the block must call it), and the first one orders it after earlier uses of red.
__device__ __forceinline__ double block_sum(double v, double* red) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int nwarps = (blockDim.x + 31) >> 5;
  __syncthreads();  // red[] may still be read from the previous call
  if (lane == 0) red[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nwarps ? red[lane] : 0.0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) red[32] = v;
  }
  __syncthreads();
  return red[32];
}

__device__ __forceinline__ double block_max(double v, double* red) {
  for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_down_sync(0xffffffffu, v, o));
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int nwarps = (blockDim.x + 31) >> 5;
  __syncthreads();
  if (lane == 0) red[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nwarps ? red[lane] : 0.0;
    for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_down_sync(0xffffffffu, v, o));
    if (lane == 0) red[32] = v;
  }
  __syncthreads();
  return red[32];
}

// Strict total order for the final sort: numbers ascending, NaN last, ties by index.
template <class T>
__device__ __forceinline__ bool rank_less(T dj, int j, T di, int i) {
  const bool nj = isnan(dj), ni = isnan(di);
  if (nj || ni) return (nj && ni) ? (j < i) : ni;
  return dj < di || (dj == di && j < i);
}

template <class T>
struct Limits;
template <>
struct Limits<float> {
  static __device__ __forceinline__ float eps() { return FLT_EPSILON; }
  static __device__ __forceinline__ float tiny() { return FLT_MIN; }
};
template <>
struct Limits<double> {
  static __device__ __forceinline__ double eps() { return DBL_EPSILON; }
  static __device__ __forceinline__ double tiny() { return DBL_MIN; }
};

__device__ __forceinline__ int tri(int i) { return (i * (i + 1)) >> 1; }

// Loads the read triangle of column-major cm (M[i][j] = cm[j*n + i]; the symmetric (i, j),
// i >= j, is M[i][j] for UPLO='L' and M[j][i] for 'U') into the packed lower triangle A,
// one warp per row; adds to `bad` (1.0) when a value is not finite and keeps the largest
// |value| in `amax`. The caller's block_sum of `bad` is the barrier after the load.
template <class T>
__device__ __forceinline__ void load_packed_lower(const T* cm, int n, bool lower, T* A,
                                                  int warp, int nwarps, int lane, double& bad,
                                                  double& amax) {
  for (int i = warp; i < n; i += nwarps) {
    for (int j = lane; j <= i; j += 32) {
      const T val = lower ? cm[size_t(j) * n + i] : cm[size_t(i) * n + j];
      A[tri(i) + j] = val;
      const double av = fabs(double(val));
      if (!(av <= DBL_MAX)) bad = 1.0;
      else amax = fmax(amax, av);
    }
  }
}

// One Householder step's update of the trailing block (rows/columns o.., size L) of the
// packed lower triangle A, as LAPACK's sytd2: p = tau A22 v (one warp per row: the packed
// row up to the diagonal, then column i below it), K = tau/2 v'p, w = p - K v,
// A22 -= v w' + w v' (lower triangle only). v must be complete before the call; the caller
// puts a barrier after it.
template <class T>
__device__ void householder_sym_update(T* A, const T* v, T* p, double tau, int o, int L,
                                       double* red) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int nwarps = (blockDim.x + 31) >> 5;
  double vp_local = 0.0;
  for (int i = warp; i < L; i += nwarps) {
    const int gi = o + i;
    const T* row = A + tri(gi) + o;
    T s = T(0);
    for (int j = lane; j < L; j += 32) {
      const T aij = j <= i ? row[j] : A[tri(o + j) + gi];
      s += aij * v[j];
    }
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) {
      const T pi = T(tau) * s;
      p[i] = pi;
      vp_local += double(v[i]) * double(pi);
    }
  }
  const double vp = block_sum(vp_local, red);  // (p is complete after its barriers)
  const T K = T(0.5 * tau * vp);
  for (int i = warp; i < L; i += nwarps) {
    T* row = A + tri(o + i) + o;
    const T vi = v[i], wi = p[i] - K * vi;
    for (int j = lane; j <= i; j += 32) {
      const T vj = v[j], wj = p[j] - K * vj;
      row[j] -= vi * wj + wi * vj;
    }
  }
}

// Opts `Kernel` in to the device's maximum dynamic shared memory when `smem` needs it, once
// per device (each kernel instantiation keeps its own lock and mask of devices done).
template <auto Kernel>
void opt_in_smem(size_t smem) {
  if (smem <= 48 * 1024) return;
  static std::mutex mu;
  static uint64_t done_mask = 0;
  const int dev = current_device();
  std::lock_guard<std::mutex> lock(mu);
  if (dev >= 64 || !(done_mask & (uint64_t(1) << dev))) {
    int optin = 0;
    GPUARR_CUDA_CHECK(
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    GPUARR_CUDA_CHECK(
        cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
    if (dev < 64) done_mask |= uint64_t(1) << dev;
  }
}

// One block per matrix: launch(b0, nb) for the batch in grids of at most 2^31 - 1 blocks
// (the x dimension's limit).
template <class Launch>
void for_each_block_grid(int64_t batch, Launch&& launch) {
  constexpr int64_t kMaxGrid = 0x7fffffff;
  for (int64_t b0 = 0; b0 < batch; b0 += kMaxGrid)
    launch(b0, static_cast<unsigned>(std::min<int64_t>(batch - b0, kMaxGrid)));
}

}  // namespace eigen_detail
}  // namespace gpuarr
