// Own Householder QR for small real matrices: one block per matrix, one launch for the
// whole batch, producing Q and R (modes 'reduced', 'complete') or R alone (mode 'r')
// directly; cuSOLVER's geqrf + orgqr chain costs several launches and workspace queries
// for a 64 x 64 matrix. Conventions of LAPACK's dlarfg/dgeqr2/dorg2r, so that R's signs
// are NumPy's: H_j = I - tau v v^T, v[j] = 1, beta = -sign(alpha) * ||(alpha, x)||,
// tau = (beta - alpha) / beta, x /= (alpha - beta); tau = 0 (H = I) when x == 0.
//
// A 64 x 64 QR is a chain of 64 dependent steps, so the time is the latency of one step.
// Each column is held in registers by TPC = 1, 2 or 4 adjacent lanes (16 rows each, rows
// >= m zero): v^T a_c is 16 FMAs per lane and a shuffle sum over the TPC lanes, with the
// reflector read from shared memory; a step costs one __syncthreads. The same pass that
// applies reflector j also sums the squares below row j + 1 and picks row j + 1 of every
// column, so forming reflector j + 1 needs no further reduction. Reflector j is stored
// zero-padded above row j, so the loops run over all rows with no index tests, and every
// lane runs every step (lanes with nothing to do apply a zero update): the shuffles stay
// convergent. (One warp per column with a shuffle sum per column per step and the column
// norm in double measured 0.14 ms at 64 x 64.) Q is then built backwards as
// dorg2r does (Q = H_0 ... H_{k-1} I[:, :mc]; H_j leaves e_c unchanged for j > c, as
// v_j is zero above row j), with no synchronisation: every reflector is in shared memory.
#include <algorithm>
#include <type_traits>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"
#include "ops/array_ops.hpp"
#include "ops/linalg.hpp"
#include "ops/linalg_common.cuh"
#include "ops/strided.cuh"
#include "runtime/config.hpp"
#include "runtime/cuda_check.hpp"

namespace gpuarr {

using namespace linalg_detail;

namespace {

constexpr int kRowsPerLane = 16;

// Sum over the TPC adjacent lanes that hold one column (every lane of the warp calls it).
template <int TPC, class T>
__device__ __forceinline__ T column_sum(T v) {
#pragma unroll
  for (int o = 1; o < TPC; o <<= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// A 16-byte shared-memory load of a reflector: 4 floats or 2 doubles.
template <class T> struct Vec16;
template <> struct Vec16<float> { using type = float4; static constexpr int width = 4; };
template <> struct Vec16<double> { using type = double2; static constexpr int width = 2; };

template <class T>
__device__ __forceinline__ void load_rows(const T* __restrict__ v, T (&x)[kRowsPerLane]) {
  using V = typename Vec16<T>::type;
  constexpr int W = Vec16<T>::width;
#pragma unroll
  for (int i0 = 0; i0 < kRowsPerLane; i0 += W) {
    const V p = *reinterpret_cast<const V*>(v + i0);
    if constexpr (W == 4) {
      x[i0] = p.x; x[i0 + 1] = p.y; x[i0 + 2] = p.z; x[i0 + 3] = p.w;
    } else {
      x[i0] = p.x; x[i0 + 1] = p.y;
    }
  }
}

// col -= active * tau * v (v^T col) over this lane's rows r0.. of the column; v is reflector j
// in shared memory. Returns this column's (sum of squares below row `next`, row `next`) of
// the updated column, summed over the column's lanes.
template <int TPC, class T>
__device__ __forceinline__ void apply_reflector(const T* __restrict__ v, T tau, bool active,
                                                T (&col)[kRowsPerLane], int r0, int next,
                                                T* ss_below, T* at_next) {
  T x[kRowsPerLane];
  load_rows(v + r0, x);
  T part[4] = {};  // four independent sums: the dot product is not one long dependent chain
#pragma unroll
  for (int i = 0; i < kRowsPerLane; ++i) part[i & 3] += x[i] * col[i];
  const T s = column_sum<TPC>((part[0] + part[1]) + (part[2] + part[3]));
  const T f = active ? tau * s : T(0);
  T sq[4] = {}, pick = T(0);
#pragma unroll
  for (int i = 0; i < kRowsPerLane; ++i) {
    col[i] -= x[i] * f;
    if (r0 + i > next) sq[i & 3] += col[i] * col[i];
    if (r0 + i == next) pick = col[i];
  }
  *ss_below = column_sum<TPC>((sq[0] + sq[1]) + (sq[2] + sq[3]));
  *at_next = column_sum<TPC>(pick);
}

// Sum of squares below row j of the column, in double (float's squares overflow beyond
// ~1.8e19 and lose all digits below ~1e-19; LAPACK scales instead). Only the TPC lanes of
// column j run this: the shuffles name just those lanes.
template <int TPC, class T>
__device__ double squares_below_in_double(const T (&col)[kRowsPerLane], int r0, int j) {
  double ss = 0.0;
#pragma unroll
  for (int i = 0; i < kRowsPerLane; ++i) {
    if (r0 + i > j) ss += static_cast<double>(col[i]) * static_cast<double>(col[i]);
  }
  const int lane = threadIdx.x & 31;
  const unsigned group = ((1u << TPC) - 1u) << (lane & ~(TPC - 1));
#pragma unroll
  for (int o = 1; o < TPC; o <<= 1) ss += __shfl_xor_sync(group, ss, o);
  return ss;
}

// Reflector j from column j (its TPC lanes): writes v (zero above row j, 1 at row j) and
// tau, and leaves beta in row j of col (R's diagonal). Rows below j of col are left as they
// were: R is written from rows <= c only. ss, alpha: the squares below row j and row j.
template <int TPC, class T>
__device__ __forceinline__ void make_reflector(T (&col)[kRowsPerLane], int r0, int j, T ss,
                                               T alpha, T* __restrict__ v, T* __restrict__ tau) {
  double sum = static_cast<double>(ss);
  if constexpr (std::is_same_v<T, float>) {
    if (!(ss >= 1e-30f && ss <= 1e30f)) sum = squares_below_in_double<TPC>(col, r0, j);
  }
  if (sum == 0.0) {  // also j == m - 1: H = I, beta = alpha
#pragma unroll
    for (int i = 0; i < kRowsPerLane; ++i) v[r0 + i] = (r0 + i == j) ? T(1) : T(0);
    if (r0 == 0) *tau = T(0);
    return;
  }
  // ||(alpha, x)|| in double (the double sum of squares is unscaled: float64 inputs beyond
  // ~1e154 would overflow it; small QR of such values is not a use case worth a scaled pass).
  const double a = static_cast<double>(alpha);
  double beta = sqrt(a * a + sum);
  if (a >= 0.0) beta = -beta;
  const T scal = static_cast<T>(1.0 / (a - beta));
#pragma unroll
  for (int i = 0; i < kRowsPerLane; ++i) {
    const int r = r0 + i;
    v[r] = (r < j) ? T(0) : (r == j ? T(1) : col[i] * scal);
    if (r == j) col[i] = static_cast<T>(beta);
  }
  if (r0 == 0) *tau = static_cast<T>((beta - a) / beta);
}

// a: C-contiguous (batch, m, n). q: C-contiguous (batch, m, mc) (mc == 0: none).
// r: C-contiguous (batch, rrows, n), upper triangular (rows >= min(m, n) zero).
// blockDim.x: max(n, mc) * TPC rounded up to a warp; lanes c * TPC .. c * TPC + TPC - 1
// hold column c, lane c * TPC + s rows 16 s .. 16 s + 15.
template <class T, int TPC>
__global__ void __launch_bounds__(kQrSmallMaxDim * 4) qr_small_kernel(
    const T* __restrict__ a, int m, int n, int mc, int rrows, T* __restrict__ q,
    T* __restrict__ r) {
  constexpr int ROWS = kRowsPerLane * TPC;
  __shared__ __align__(16) T reflectors[ROWS * ROWS];  // reflector j at j * ROWS
  __shared__ T taus[ROWS];
  const int k = min(m, n);
  const int64_t b = blockIdx.x;
  const int c = threadIdx.x / TPC;
  const int r0 = (threadIdx.x % TPC) * kRowsPerLane;

  T col[kRowsPerLane];
  const T* src = a + b * int64_t(m) * n;
#pragma unroll
  for (int i = 0; i < kRowsPerLane; ++i) {
    col[i] = (c < n && r0 + i < m) ? src[int64_t(r0 + i) * n + c] : T(0);
  }
  // Squares below row 0 and row 0 of every column (the reflector inputs of step 0).
  T ss, alpha;
  {
    T sq[4] = {}, pick = T(0);
#pragma unroll
    for (int i = 0; i < kRowsPerLane; ++i) {
      if (r0 + i > 0) sq[i & 3] += col[i] * col[i];
      if (r0 + i == 0) pick = col[i];
    }
    ss = column_sum<TPC>((sq[0] + sq[1]) + (sq[2] + sq[3]));
    alpha = column_sum<TPC>(pick);
  }
  for (int j = 0; j < k; ++j) {
    // Column j has had reflectors 0..j-1 applied (by its own lanes, in earlier steps).
    if (c == j) make_reflector<TPC>(col, r0, j, ss, alpha, reflectors + j * ROWS, taus + j);
    __syncthreads();
    apply_reflector<TPC>(reflectors + j * ROWS, taus[j], c > j && c < n, col, r0, j + 1, &ss,
                         &alpha);
  }
  if (c < n) {
    T* ro = r + b * int64_t(rrows) * n;
#pragma unroll
    for (int i = 0; i < kRowsPerLane; ++i) {
      const int row = r0 + i;
      if (row < rrows) ro[int64_t(row) * n + c] = (row <= c) ? col[i] : T(0);
    }
  }
  if (mc == 0) return;  // block-uniform
  // Every reflector was written before the last step's __syncthreads.
#pragma unroll
  for (int i = 0; i < kRowsPerLane; ++i) col[i] = (r0 + i == c) ? T(1) : T(0);
  for (int j = k - 1; j >= 0; --j) {
    T unused_ss, unused_pick;
    apply_reflector<TPC>(reflectors + j * ROWS, taus[j], c < mc, col, r0, ROWS, &unused_ss,
                         &unused_pick);
  }
  if (c < mc) {
    T* qo = q + b * int64_t(m) * mc;
#pragma unroll
    for (int i = 0; i < kRowsPerLane; ++i) {
      if (r0 + i < m) qo[int64_t(r0 + i) * mc + c] = col[i];
    }
  }
}

template <class T, int TPC>
void launch_qr_small_lanes(const T* src, int64_t batch, int m, int n, int mc, int rrows, T* q,
                           T* r, cudaStream_t stream) {
  const int threads = 32 * ((std::max(n, mc) * TPC + 31) / 32);
  qr_small_kernel<T, TPC><<<static_cast<unsigned>(batch), threads, 0, stream>>>(
      src, m, n, mc, rrows, q, r);
  check_launch("qr_small_kernel");
}

template <class T>
void launch_qr_small(const NDArray& src, int64_t batch, int64_t m, int64_t n, int64_t mc,
                     int64_t rrows, NDArray* q, NDArray& r, cudaStream_t stream) {
  const T* a = reinterpret_cast<const T*>(src.data());
  T* qp = q ? reinterpret_cast<T*>(q->data()) : nullptr;
  T* rp = reinterpret_cast<T*>(r.data());
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), mci = static_cast<int>(mc),
            rri = static_cast<int>(rrows);
  switch (qr_small_rows_tile(m)) {
    case 16: launch_qr_small_lanes<T, 1>(a, batch, mi, ni, mci, rri, qp, rp, stream); break;
    case 32: launch_qr_small_lanes<T, 2>(a, batch, mi, ni, mci, rri, qp, rp, stream); break;
    default: launch_qr_small_lanes<T, 4>(a, batch, mi, ni, mci, rri, qp, rp, stream); break;
  }
}

}  // namespace

bool linalg_qr_small(const NDArray& a, bool complete, bool want_q, NDArray* q, NDArray* r) {
  if (a.ndim() < 2) return false;
  if (a.dtype != DType::Float32 && a.dtype != DType::Float64) return false;
  const int64_t m = a.shape[a.ndim() - 2], n = a.shape.back();
  const int64_t k = std::min(m, n);
  const int64_t rows = (complete && m > n) ? m : k;  // Q's columns = R's rows
  const int64_t mc = want_q ? rows : 0;
  const int64_t rrows = want_q ? rows : k;
  const int64_t batch = batch_count(a);
  if (!use_qr_small(m, n, mc, batch, false, config::qr_own_max_n.get())) return false;
  const NDArray src = a.c_contiguous() ? a : copy_array(a, a.dtype, 'C');
  Dims r_shape = batch_shape(a);
  r_shape.push_back(rrows);
  r_shape.push_back(n);
  *r = empty_array(r_shape, a.dtype, 'C');
  if (want_q) {
    Dims q_shape = batch_shape(a);
    q_shape.push_back(m);
    q_shape.push_back(mc);
    *q = empty_array(q_shape, a.dtype, 'C');
  }
  const cudaStream_t stream = stream_for(*r);
  if (a.dtype == DType::Float32) {
    launch_qr_small<float>(src, batch, m, n, mc, rrows, want_q ? q : nullptr, *r, stream);
  } else {
    launch_qr_small<double>(src, batch, m, n, mc, rrows, want_q ? q : nullptr, *r, stream);
  }
  return true;
}

}  // namespace gpuarr
