// Inverse, and solution of a x = b for up to 8 columns, of small real matrices (n <= 64) in
// one kernel: a group of N threads a matrix (N the power of two >= n, at least 4), thread r
// holding row r (and b's row r after it) in registers, the matrix padded to N x N with the
// identity. Elimination with partial pivoting: at step k the pivot is the largest |a[i][k]|
// among the rows not yet chosen (the candidates and their values are getrf's at the same
// step) and its row is broadcast. The inverse is Gauss-Jordan's (every other row
// eliminates column k); the solve eliminates below the pivot only and then substitutes
// back, as getrf + getrs, whose residual is backward stable where Gauss-Jordan's grows with
// the condition number. The rows are never swapped: step k's pivot thread is remembered,
// and the store undoes the interchanges (row k of the inverse, or of x, is in the thread
// chosen at step k; the inverse's column c in the register of the step that chose thread
// c). Groups of up to 32 threads are lanes of a warp (32 / N matrices a warp) and exchange
// values by shuffles; a group of 64 is a block of two warps, which exchange through shared
// memory. cuBLAS's getrfBatched + getriBatched spend 84 us on 1024 32x32 float32 matrices
// on an H200 (tools/probes/batched_inverse.cu); this is n^2 broadcasts, n^2 FMAs and n
// divisions a thread, the matrix read and written once through shared memory.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"
#include "ops/device_types.cuh"
#include "ops/linalg_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"

namespace gpuarr::linalg_detail {
namespace {

constexpr unsigned kFullWarp = 0xffffffffu;

// Threads a block: four warps of groups, or the one group of 64 (its tile of 64 x 65
// float64 is 33 KB).
template <int N> constexpr int kBlockThreads = N <= 32 ? 128 : N;

// The larger (mag, p) of two, the lower p on ties.
template <class T> __device__ void keep_larger(T& mag, int& p, T other_mag, int other_p) {
  if (other_mag > mag || (other_mag == mag && other_p < p)) {
    mag = other_mag;
    p = other_p;
  }
}

// The group's collective operations. Lanes of one warp: shuffles of width N.
template <class T, int N, int kRow, bool kInWarp = (N <= 32)> struct Group {
  int group;  // the group's index in its warp
  __device__ void sync() const { __syncwarp(); }
  __device__ bool any(bool v) const {
    const unsigned bits = (N == 32 ? kFullWarp : (1u << N) - 1u) << (group * N);
    return (__ballot_sync(kFullWarp, v) & bits) != 0;
  }
  __device__ void argmax(T& mag, int& p) const {
#pragma unroll
    for (int off = N / 2; off > 0; off >>= 1)
      keep_larger(mag, p, __shfl_xor_sync(kFullWarp, mag, off, N),
                  __shfl_xor_sync(kFullWarp, p, off, N));
  }
  template <int kFrom = 0> __device__ void share_pivot_row(const T (&)[kRow], bool) const {}
  __device__ T pivot_entry(const T (&row)[kRow], int j, int p) const {
    return __shfl_sync(kFullWarp, row[j], p, N);
  }
};

// A block of two warps (N = 64): the warps' pivot candidates and the pivot row through
// shared memory, a barrier after each write.
template <class T, int N, int kRow> struct Group<T, N, kRow, false> {
  static_assert(N == 64, "a block group is two warps");
  int group;
  T* candidate_mag;    // [2]
  int* candidate_row;  // [2]
  T* pivot_row;        // [kRow]
  __device__ void sync() const { __syncthreads(); }
  __device__ bool any(bool v) const { return __syncthreads_or(v) != 0; }
  __device__ void argmax(T& mag, int& p) const {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
      keep_larger(mag, p, __shfl_xor_sync(kFullWarp, mag, off),
                  __shfl_xor_sync(kFullWarp, p, off));
    const int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0) {
      candidate_mag[warp] = mag;
      candidate_row[warp] = p;
    }
    __syncthreads();
    mag = candidate_mag[0];
    p = candidate_row[0];
    keep_larger(mag, p, candidate_mag[1], candidate_row[1]);
  }
  // Every thread has read the candidates and last step's pivot row before the pivot
  // thread writes this step's entries from kFrom on, which the barrier then publishes.
  template <int kFrom = 0>
  __device__ void share_pivot_row(const T (&row)[kRow], bool is_pivot) const {
    if (is_pivot) {
#pragma unroll
      for (int j = kFrom; j < kRow; ++j) pivot_row[j] = row[j];
    }
    __syncthreads();
  }
  __device__ T pivot_entry(const T (&)[kRow], int j, int) const { return pivot_row[j]; }
};

// K = 0: the inverse of each matrix of `a` into `out`. K > 0: the solution of a x = b, b
// holding k <= K columns (C-contiguous, batch x n x k), into `out` (the same layout); the
// rows carry b's columns after the matrix's, and only the columns after the pivot's are
// eliminated (those before are zero in every row but their pivot's).
template <class T, int N, int K>
__global__ void __launch_bounds__(kBlockThreads<N>)
    small_gauss_jordan_kernel(const T* __restrict__ a, const T* __restrict__ b,
                              T* __restrict__ out, int* __restrict__ info, int64_t batch, int n,
                              int k_cols) {
  constexpr int kThreads = kBlockThreads<N>;
  constexpr int kGroups = kThreads / N;  // matrices a block
  constexpr int kPitch = N + 1;          // odd: a column's elements in distinct banks
  constexpr int kRow = N + K;
  __shared__ T tiles[kGroups][N * kPitch];
  __shared__ unsigned char chosen_at[kGroups][N];  // the pivot thread of each step
  __shared__ T candidate_mag[2];
  __shared__ int candidate_row[2];
  __shared__ T pivot_row[N > 32 ? kRow : 1];
  const int g = threadIdx.x / N, r = threadIdx.x % N;
  Group<T, N, kRow> grp;
  grp.group = (threadIdx.x % 32) / N;
  if constexpr (N > 32) {
    grp.candidate_mag = candidate_mag;
    grp.candidate_row = candidate_row;
    grp.pivot_row = pivot_row;
  }
  const int64_t m = int64_t(blockIdx.x) * kGroups + g;
  const bool live = m < batch;
  T* tile = tiles[g];
  unsigned char* order = chosen_at[g];
  const int nn = n * n;
  // The matrix's elements in memory order (consecutive threads, consecutive addresses).
  if (live) {
    const T* src = a + m * nn;
    for (int e = r; e < nn; e += N) {
      const int i = e / n;
      tile[i * kPitch + (e - i * n)] = src[e];
    }
  }
  grp.sync();
  T row[kRow];
  bool nan_seen = false;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    row[j] = live && r < n && j < n ? tile[r * kPitch + j] : T(r == j ? 1 : 0);
    nan_seen |= isnan(row[j]);
  }
#pragma unroll
  for (int c = 0; c < K; ++c)
    row[N + c] = live && r < n && c < k_cols ? b[(m * n + r) * k_cols + c] : T(0);
  const bool has_nan = grp.any(nan_seen);
  bool used = false;
  int my_step = 0;
  int first_zero = 0;
#pragma unroll
  for (int k = 0; k < N; ++k) {
    // The pivot: the largest magnitude among the unused rows, the lowest row on ties (a
    // NaN counts as 0 so that every thread agrees; the matrix then gives NaN anyway).
    T mag = fabs(row[k]);
    if (isnan(mag)) mag = T(0);
    if (used) mag = T(-1);
    int p = r;
    grp.argmax(mag, p);
    const bool is_pivot = r == p;
    grp.share_pivot_row(row, is_pivot);
    const T pivot = grp.pivot_entry(row, k, p);
    if (pivot == T(0) && first_zero == 0) first_zero = k + 1;
    if (r == 0) order[k] = static_cast<unsigned char>(p);
    // The multiplier by division and the pivot row unscaled, as getrf's elimination: the
    // rows not yet chosen then hold getrf's trailing matrix, and exact cancellations (a row
    // a multiple of another) leave getrf's exact zero pivot.
    if constexpr (K == 0) {
      const T inv = T(1) / pivot;
      const T l = is_pivot ? T(0) : row[k] / pivot;
#pragma unroll
      for (int j = 0; j < kRow; ++j) {
        if (j == k) continue;
        const T pj = grp.pivot_entry(row, j, p);
        row[j] = is_pivot ? pj * inv : row[j] - l * pj;
      }
      row[k] = is_pivot ? inv : -l;
    } else {
      // Only the rows below the pivot (not chosen yet) eliminate: the pivot's and those
      // chosen before keep U's rows.
      const bool below = !used && !is_pivot;
      const T l = below ? row[k] / pivot : T(0);
#pragma unroll
      for (int j = k + 1; j < kRow; ++j) {
        const T pj = grp.pivot_entry(row, j, p);
        if (below) row[j] -= l * pj;
      }
    }
    if (is_pivot) {
      used = true;
      my_step = k;
    }
  }
  grp.sync();
  if constexpr (K > 0) {
    // Back substitution, x's rows from the last: step k's row divides its b part by its
    // pivot, and the rows chosen before it subtract their column k times that x row.
    // Gauss-Jordan's elimination above the pivot would leave a residual growing with the
    // condition number; this is getrs's, backward stable.
#pragma unroll
    for (int k = N - 1; k >= 0; --k) {
      if (k < n) {
        grp.sync();  // every thread has read the last step's shared row
        const int p = order[k];
        const bool is_pivot = r == p;
        if (is_pivot) {
#pragma unroll
          for (int c = 0; c < K; ++c) row[N + c] /= row[k];
        }
        grp.template share_pivot_row<N>(row, is_pivot);
#pragma unroll
        for (int c = 0; c < K; ++c) {
          const T xc = grp.pivot_entry(row, N + c, p);
          if (my_step < k) row[N + c] -= row[k] * xc;
        }
      }
    }
  }
  const bool fill_nan = has_nan || first_zero != 0;
  if constexpr (K > 0) {
    // Row k of x is b's part of the row chosen at step k.
    if (live && r < n) {
      const int at = fill_nan ? r : my_step;
      if (at < n) {
#pragma unroll
        for (int c = 0; c < K; ++c)
          if (c < k_cols) out[(m * n + at) * k_cols + c] = fill_nan ? T(NAN) : row[N + c];
      }
    }
  } else {
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
    grp.sync();
    if (live) {
      T* dst = out + m * nn;
      for (int e = r; e < nn; e += N) {
        const int i = e / n;
        dst[e] = tile[i * kPitch + (e - i * n)];
      }
    }
  }
  if (live && info && r == 0) info[m] = has_nan ? 0 : first_zero;
}

template <class T, int N, int K>
void launch_width(const char* a, const char* b, char* out, int* info, int64_t batch, int64_t n,
                  int64_t k, cudaStream_t stream) {
  constexpr int64_t kPerBlock = kBlockThreads<N> / N;
  const int64_t blocks = (batch + kPerBlock - 1) / kPerBlock;
  if (blocks > INT32_MAX) throw ValueError("linalg: too many matrices in one batch");
  small_gauss_jordan_kernel<T, N, K>
      <<<static_cast<unsigned>(blocks), kBlockThreads<N>, 0, stream>>>(
          reinterpret_cast<const T*>(a), reinterpret_cast<const T*>(b),
          reinterpret_cast<T*>(out), info, batch, static_cast<int>(n), static_cast<int>(k));
  check_launch("small_gauss_jordan_kernel");
}

template <class T, int K>
void launch_typed(const char* a, const char* b, char* out, int* info, int64_t batch, int64_t n,
                  int64_t k, cudaStream_t stream) {
  switch (small_matrix_group_width(n)) {
    case 4: launch_width<T, 4, K>(a, b, out, info, batch, n, k, stream); break;
    case 8: launch_width<T, 8, K>(a, b, out, info, batch, n, k, stream); break;
    case 16: launch_width<T, 16, K>(a, b, out, info, batch, n, k, stream); break;
    case 32: launch_width<T, 32, K>(a, b, out, info, batch, n, k, stream); break;
    default:
      // Not built where use_small_solve declines it (its registers would spill).
      if constexpr (std::is_same_v<T, double> && K > 1)
        throw ValueError("solve: outside the one-kernel solve's sizes");
      else
        launch_width<T, 64, K>(a, b, out, info, batch, n, k, stream);
      break;
  }
}

template <int K>
void launch_dtype(DType t, const char* a, const char* b, char* out, int* info, int64_t batch,
                  int64_t n, int64_t k, cudaStream_t stream) {
  if (t == DType::Float32) launch_typed<float, K>(a, b, out, info, batch, n, k, stream);
  else if (t == DType::Float64) launch_typed<double, K>(a, b, out, info, batch, n, k, stream);
  else throw TypeError("linalg: the one-kernel inverse and solve take float32 or float64");
}

}  // namespace

void launch_small_inverse(DType t, const char* a, char* out, int* info, int64_t batch,
                          int64_t n, cudaStream_t stream) {
  if (batch == 0 || n == 0) return;
  if (!use_small_inverse(n, t, OwnLuMode::Rule))
    throw ValueError("inv: the one-kernel inverse takes float32/float64 and n <= 64");
  launch_dtype<0>(t, a, nullptr, out, info, batch, n, 0, stream);
}

void launch_small_solve(DType t, const char* a, const char* b, char* out, int* info,
                        int64_t batch, int64_t n, int64_t k, cudaStream_t stream) {
  if (batch == 0 || n == 0 || k == 0) return;
  if (!use_small_solve(n, k, t, OwnLuMode::Rule)) throw ValueError("solve: outside the one-kernel solve's sizes");
  if (k == 1) launch_dtype<1>(t, a, b, out, info, batch, n, k, stream);
  else launch_dtype<kSmallSolveMaxColumns>(t, a, b, out, info, batch, n, k, stream);
}

}  // namespace gpuarr::linalg_detail
