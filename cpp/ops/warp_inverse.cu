// Inverse of small real matrices (n <= 32) in one kernel: a group of N lanes a matrix (N the
// power of two >= n, at least 4; 32 / N matrices a warp), lane r holding row r in registers,
// the matrix padded to N x N with the identity. Gauss-Jordan elimination in place with
// partial pivoting: at step k the pivot is the largest |a[i][k]| among the rows not yet
// chosen (the candidates and their values are getrf's at the same step), its row is
// broadcast by shuffles, and every other row eliminates column k. The rows are never
// swapped: step k's pivot lane is remembered, and the store undoes the interchanges (row
// k of the inverse is in the lane chosen at step k, column c in the register of the step
// that chose lane c). cuBLAS's getrfBatched + getriBatched spend 84 us on 1024 32x32
// float32 matrices on an H200 (tools/probes/batched_inverse.cu); this is n^2 shuffles and
// n^2 FMAs and n divisions a lane, the matrix read and written once through shared memory.
#include <cmath>
#include <cstdint>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"
#include "ops/device_types.cuh"
#include "ops/linalg_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"

namespace gpuarr::linalg_detail {
namespace {

constexpr int kWarpInverseThreads = 128;
constexpr unsigned kFullWarp = 0xffffffffu;

template <class T, int N>
__global__ void __launch_bounds__(kWarpInverseThreads)
    warp_inverse_kernel(const T* __restrict__ in, T* __restrict__ out, int* __restrict__ info,
                        int64_t batch, int n) {
  constexpr int kGroups = 32 / N;  // matrices a warp
  constexpr int kWarps = kWarpInverseThreads / 32;
  constexpr int kPitch = N + 1;  // odd: a column's elements in distinct banks
  __shared__ T tiles[kWarps][kGroups][N * kPitch];
  __shared__ unsigned char chosen_at[kWarps][kGroups][N];  // the pivot lane of each step
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int group = lane / N, r = lane % N;
  const int64_t m = (int64_t(blockIdx.x) * kWarps + warp) * kGroups + group;
  const bool live = m < batch;
  T* tile = tiles[warp][group];
  unsigned char* order = chosen_at[warp][group];
  const int nn = n * n;
  // The matrix's elements in memory order (consecutive lanes, consecutive addresses).
  if (live) {
    const T* src = in + m * nn;
    for (int e = r; e < nn; e += N) {
      const int i = e / n;
      tile[i * kPitch + (e - i * n)] = src[e];
    }
  }
  __syncwarp();
  T row[N];
  bool nan_seen = false;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    row[j] = live && r < n && j < n ? tile[r * kPitch + j] : T(r == j ? 1 : 0);
    nan_seen |= isnan(row[j]);
  }
  const unsigned group_bits = (N == 32 ? kFullWarp : (1u << N) - 1u) << (group * N);
  const bool has_nan = (__ballot_sync(kFullWarp, nan_seen) & group_bits) != 0;
  bool used = false;
  int my_step = 0;
  int first_zero = 0;
#pragma unroll
  for (int k = 0; k < N; ++k) {
    // The pivot: the largest magnitude among the unused rows, the lowest lane on ties (a
    // NaN counts as 0 so that every lane agrees; the matrix then gives NaN anyway).
    T mag = fabs(row[k]);
    if (isnan(mag)) mag = T(0);
    if (used) mag = T(-1);
    int p = r;
#pragma unroll
    for (int off = N / 2; off > 0; off >>= 1) {
      const T other_mag = __shfl_xor_sync(kFullWarp, mag, off, N);
      const int other_p = __shfl_xor_sync(kFullWarp, p, off, N);
      if (other_mag > mag || (other_mag == mag && other_p < p)) {
        mag = other_mag;
        p = other_p;
      }
    }
    const T pivot = __shfl_sync(kFullWarp, row[k], p, N);
    if (pivot == T(0) && first_zero == 0) first_zero = k + 1;
    const T inv = T(1) / pivot;
    const bool is_pivot = r == p;
    if (is_pivot) {
      used = true;
      my_step = k;
    }
    if (r == 0) order[k] = static_cast<unsigned char>(p);
    // The multiplier by division and the pivot row unscaled, as getrf's elimination: the
    // rows not yet chosen then hold getrf's trailing matrix, and exact cancellations (a row
    // a multiple of another) leave getrf's exact zero pivot.
    const T l = is_pivot ? T(0) : row[k] / pivot;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      if (j == k) continue;
      const T pj = __shfl_sync(kFullWarp, row[j], p, N);
      row[j] = is_pivot ? pj * inv : row[j] - l * pj;
    }
    row[k] = is_pivot ? inv : -l;
  }
  __syncwarp();
  const bool fill_nan = has_nan || first_zero != 0;
  if (fill_nan) {
    if (r < n)
      for (int j = 0; j < n; ++j) tile[r * kPitch + j] = T(NAN);
  } else if (my_step < n) {
    // Non-singular: the real rows are chosen at steps < n, padding rows after.
#pragma unroll
    for (int s = 0; s < N; ++s) {
      const int c = order[s];
      if (c < n) tile[my_step * kPitch + c] = row[s];
    }
  }
  __syncwarp();
  if (live) {
    T* dst = out + m * nn;
    for (int e = r; e < nn; e += N) {
      const int i = e / n;
      dst[e] = tile[i * kPitch + (e - i * n)];
    }
    if (info && r == 0) info[m] = has_nan ? 0 : first_zero;
  }
}

template <class T, int N>
void launch_width(const char* in, char* out, int* info, int64_t batch, int64_t n,
                  cudaStream_t stream) {
  constexpr int64_t kPerBlock = (kWarpInverseThreads / 32) * (32 / N);
  const int64_t blocks = (batch + kPerBlock - 1) / kPerBlock;
  if (blocks > INT32_MAX) throw ValueError("inv: too many matrices in one batch");
  warp_inverse_kernel<T, N><<<static_cast<unsigned>(blocks), kWarpInverseThreads, 0, stream>>>(
      reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), info, batch,
      static_cast<int>(n));
  check_launch("warp_inverse_kernel");
}

template <class T>
void launch_typed(const char* in, char* out, int* info, int64_t batch, int64_t n,
                  cudaStream_t stream) {
  switch (warp_inverse_width(n)) {
    case 4: launch_width<T, 4>(in, out, info, batch, n, stream); break;
    case 8: launch_width<T, 8>(in, out, info, batch, n, stream); break;
    case 16: launch_width<T, 16>(in, out, info, batch, n, stream); break;
    default: launch_width<T, 32>(in, out, info, batch, n, stream); break;
  }
}

}  // namespace

void launch_warp_inverse(DType t, const char* in, char* out, int* info, int64_t batch,
                         int64_t n, cudaStream_t stream) {
  if (batch == 0 || n == 0) return;
  if (n > kWarpInverseMaxN) throw ValueError("inv: the one-kernel inverse takes n <= 32");
  if (t == DType::Float32) launch_typed<float>(in, out, info, batch, n, stream);
  else if (t == DType::Float64) launch_typed<double>(in, out, info, batch, n, stream);
  else throw TypeError("inv: the one-kernel inverse takes float32 or float64");
}

}  // namespace gpuarr::linalg_detail
