// Own Householder QR for small real matrices: one block per matrix, one launch for the
// whole batch, producing Q and R (modes 'reduced', 'complete') or R alone (mode 'r')
// directly; cuSOLVER's geqrf + orgqr chain costs several launches and workspace queries
// for a 64 x 64 matrix. Conventions of LAPACK's dlarfg/dgeqr2/dorg2r, so that R's signs
// are NumPy's: H_j = I - tau v v^T, v[j] = 1, beta = -sign(alpha) * ||(alpha, x)||,
// tau = (beta - alpha) / beta, x /= (alpha - beta); tau = 0 (H = I) when x == 0.
//
// The matrix lives in shared memory, column-major with an odd leading dimension ld
// (core/linalg_plan: qr_small_ld). Step j: warps take the trailing columns c > j
// (one warp per column: lanes over rows, a shuffle sum for v^T a_c), and the warp that
// updates column j + 1 also forms reflector j + 1 right away (look-ahead), so a step costs
// one __syncthreads. Q is then built backwards as dorg2r does (Q = H_0 ... H_{k-1} I[:, :mc],
// H_j touching only columns >= j of the partial product).
#include <algorithm>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"
#include "ops/array_ops.hpp"
#include "ops/linalg.hpp"
#include "ops/linalg_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

using namespace linalg_detail;

namespace {

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Reflector of column j (warp-collective: all 32 lanes of one warp). x = A[:, j], rows
// j..m-1; writes beta to x[j], v (rows > j) over x, tau[j].
template <class T>
__device__ void make_reflector(T* A, T* tau, int m, int ld, int j, int lane) {
  T* x = A + j * ld;
  const double alpha = static_cast<double>(x[j]);
  double ss = 0.0;
  for (int i = j + 1 + lane; i < m; i += 32) {
    const double t = static_cast<double>(x[i]);
    ss += t * t;
  }
  ss = warp_sum(ss);  // every lane has the sum
  __syncwarp();
  if (ss == 0.0) {  // also j == m - 1: H = I, beta = alpha (x[j] unchanged)
    if (lane == 0) tau[j] = T(0);
    __syncwarp();
    return;
  }
  // ||(alpha, x)|| in double (ss is already an unscaled double sum: inputs beyond ~1e154
  // would overflow it; small QR of such values is not a use case worth a scaled pass).
  double beta = sqrt(alpha * alpha + ss);
  if (alpha >= 0.0) beta = -beta;
  const double scal = 1.0 / (alpha - beta);
  for (int i = j + 1 + lane; i < m; i += 32) x[i] = static_cast<T>(static_cast<double>(x[i]) * scal);
  if (lane == 0) {
    x[j] = static_cast<T>(beta);
    tau[j] = static_cast<T>((beta - alpha) / beta);
  }
  __syncwarp();
}

// col[j..m) -= tau * v * (v^T col[j..m)), v = (1, A[j+1..m, j]) (warp-collective).
template <class T>
__device__ __forceinline__ void apply_reflector(const T* v, T t, T* col, int m, int j, int lane) {
  T s = T(0);
  for (int i = j + lane; i < m; i += 32) s += (i == j ? T(1) : v[i]) * col[i];
  s = warp_sum(s);
  const T f = t * s;
  for (int i = j + lane; i < m; i += 32) col[i] -= (i == j ? T(1) : v[i]) * f;
  __syncwarp();
}

// a: C-contiguous (batch, m, n). q: C-contiguous (batch, m, mc) (mc == 0: none).
// r: C-contiguous (batch, rrows, n), upper triangular (rows >= min(m, n) zero).
template <class T>
__global__ void __launch_bounds__(1024) qr_small_kernel(const T* __restrict__ a, int m, int n, int mc, int rrows,
                                T* __restrict__ q, T* __restrict__ r) {
  extern __shared__ __align__(16) unsigned char qr_smem[];
  const int ld = m | 1;
  const int k = min(m, n);
  T* A = reinterpret_cast<T*>(qr_smem);  // ld * n
  T* tau = A + ld * n;                   // k
  T* Q = tau + k;                        // ld * mc
  const int64_t b = blockIdx.x;
  const int tid = threadIdx.x, nthreads = blockDim.x;
  const int lane = tid & 31, warp = tid >> 5, nwarps = nthreads >> 5;

  const T* src = a + b * int64_t(m) * n;
  for (int e = tid; e < m * n; e += nthreads) {
    const int i = e / n, c = e - i * n;
    A[i + c * ld] = src[e];
  }
  __syncthreads();
  if (warp == 0) make_reflector(A, tau, m, ld, 0, lane);
  __syncthreads();
  for (int j = 0; j < k; ++j) {
    const T tj = tau[j];
    const T* v = A + j * ld;
    // Warp 0 takes column j + 1 alone (it then forms reflector j + 1: the critical path);
    // the other warps share the rest. One warp: all columns.
    const int first = nwarps > 1 ? (warp == 0 ? j + 1 : j + 1 + warp) : j + 1;
    const int step = nwarps > 1 ? (warp == 0 ? n : nwarps - 1) : 1;
    for (int c = first; c < n; c += step) {
      if (tj != T(0)) apply_reflector(v, tj, A + c * ld, m, j, lane);
      if (c == j + 1 && c < k) make_reflector(A, tau, m, ld, c, lane);  // look-ahead
    }
    __syncthreads();
  }

  if (mc > 0) {
    for (int e = tid; e < ld * mc; e += nthreads) {
      const int c = e / ld, i = e - c * ld;
      Q[e] = (i == c) ? T(1) : T(0);
    }
    __syncthreads();
    for (int j = k - 1; j >= 0; --j) {
      const T tj = tau[j];  // block-uniform
      if (tj != T(0)) {
        const T* v = A + j * ld;
        for (int c = j + warp; c < mc; c += nwarps) apply_reflector(v, tj, Q + c * ld, m, j, lane);
      }
      __syncthreads();
    }
    T* qo = q + b * int64_t(m) * mc;
    for (int e = tid; e < m * mc; e += nthreads) {
      const int i = e / mc, c = e - i * mc;
      qo[e] = Q[i + c * ld];
    }
  }
  T* ro = r + b * int64_t(rrows) * n;
  for (int e = tid; e < rrows * n; e += nthreads) {
    const int i = e / n, c = e - i * n;
    ro[e] = (i <= c) ? A[i + c * ld] : T(0);
  }
}

int64_t qr_own_max_n() {
  static const int64_t v = [] {
    const char* s = std::getenv("GPUARR_QR_OWN_MAX_N");
    return (s && *s) ? std::atoll(s) : kQrOwnDefaultMaxN;
  }();
  return v;
}

template <class T>
void launch_qr_small(const NDArray& src, int64_t batch, int64_t m, int64_t n, int64_t mc,
                     int64_t rrows, NDArray* q, NDArray& r, cudaStream_t stream) {
  const size_t smem = qr_small_smem_bytes(m, n, mc, sizeof(T));
  if (smem > 48 * 1024) {
    static int set_bytes[kMaxDevices] = {};  // the opt-in already granted per device
    const int dev = current_device();
    if (static_cast<size_t>(set_bytes[dev]) < smem) {
      GPUARR_CUDA_CHECK(cudaFuncSetAttribute(qr_small_kernel<T>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(kQrSmallMaxSmem)));
      set_bytes[dev] = static_cast<int>(kQrSmallMaxSmem);
    }
  }
  const int64_t cols = std::max<int64_t>(std::max<int64_t>(n - 1, mc), 1);
  const int threads = 32 * static_cast<int>(std::min<int64_t>(cols, 32));
  qr_small_kernel<T><<<static_cast<unsigned>(batch), threads, smem, stream>>>(
      reinterpret_cast<const T*>(src.data()), static_cast<int>(m), static_cast<int>(n),
      static_cast<int>(mc), static_cast<int>(rrows),
      q ? reinterpret_cast<T*>(q->data()) : nullptr, reinterpret_cast<T*>(r.data()));
  check_launch("qr_small_kernel");
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
  if (!use_qr_small(m, n, mc, batch, a.itemsize(), false, qr_own_max_n())) return false;
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
