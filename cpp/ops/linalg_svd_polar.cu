// svd of one real matrix as a polar decomposition and eigh (core/qdwh_schedule.hpp and
// use_svd_polar in core/linalg_plan.hpp): A = U_p H by QDWH's fixed steps (QR-based through
// geqrf/orgqr, Cholesky-based through potrf and two trsm), H = U_p^T A symmetrised, eigh of
// H = V diag(w) V^T, then U = U_p V with the order reversed (NumPy's descending singular
// values; a w rounded below 0 counts as 0). Where s_min <= N eps s_max (rank-deficient A, whose polar factor maps the null
// space to zero), a QR of U completes its last columns. Everything is queued on the stream;
// the singular values are read back once, for NumPy's non-convergence error and that test.
//
// Layout, as the gesvd route's (SvdPlan): the tall matrix X (M x N, M >= N) is column-major
// A (M = m, N = n) or, transposed, column-major A^T (M = n, N = m); X = U' S V'^T, with U'
// in `ubuf` (C-order (N, M): column-major U') and V' in `vtbuf` (C-order (N, N): V' by rows).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"
#include "core/promotion.hpp"
#include "core/qdwh_schedule.hpp"
#include "ops/array_ops.hpp"
#include "ops/cublas_typed.cuh"
#include "ops/eigen.hpp"
#include "ops/kernels.hpp"
#include "ops/linalg.hpp"
#include "ops/linalg_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cublas_handle.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/cusolver_handle.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

using namespace linalg_detail;

namespace {

// ---- kernels ----
constexpr int kThreads = 256;

inline unsigned blocks_for(int64_t n) {
  return static_cast<unsigned>(std::min<int64_t>((n + kThreads - 1) / kThreads, 65535));
}

// out = x / ||x||_F (1 for a zero matrix), the sum of squares accumulated in double.
template <class T>
__global__ void sum_squares_kernel(const T* x, int64_t n, double* total) {
  double s = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    s += double(x[i]) * double(x[i]);
  for (int d = 16; d > 0; d >>= 1) s += __shfl_down_sync(0xffffffffu, s, d);
  if (threadIdx.x % 32 == 0) atomicAdd(total, s);
}
template <class T>
__global__ void scale_by_norm_kernel(const T* x, int64_t n, const double* total, T* out) {
  const double norm = sqrt(*total);
  const T inv = norm > 0 ? T(1 / norm) : T(1);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = x[i] * inv;
}

// y ((M + N) x N, column-major, ld M + N) = [sc * u; I], u column-major M x N.
template <class T>
__global__ void stack_identity_kernel(const T* u, int64_t m, int64_t n, T sc, T* y) {
  const int64_t ld = m + n;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < ld * n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t r = i % ld, c = i / ld;
    y[i] = r < m ? sc * u[r + c * m] : (r - m == c ? T(1) : T(0));
  }
}

// From eigh's ascending w and V (C-order, eigenvectors as columns) and W = U_p V
// (column-major M x N): s = w reversed, descending, with negative values (H is positive
// semi-definite: only rounding of the order of eps ||A|| makes one negative) as 0, which
// keeps the order; ubuf (C-order (N, M)) row i = W's column N-1-i; vtbuf (C-order (N, N))
// row c = V's row c reversed. vtbuf and ubuf may be null (no vectors).
template <class T>
__global__ void order_svd_kernel(const T* w, const T* v, const T* wm, int64_t m, int64_t n,
                                 T* s, T* ubuf, T* vtbuf) {
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  const int64_t t0 = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  for (int64_t i = t0; i < n; i += stride)  // a NaN stays (the non-convergence test reads it)
    s[i] = w[n - 1 - i] < T(0) ? T(0) : w[n - 1 - i];
  if (ubuf) {
    for (int64_t i = t0; i < n * m; i += stride) {
      const int64_t row = i / m, r = i % m;
      ubuf[i] = wm[r + (n - 1 - row) * m];
    }
  }
  if (vtbuf) {
    for (int64_t i = t0; i < n * n; i += stride) {
      const int64_t c = i / n, k = i % n;
      vtbuf[i] = v[c * n + (n - 1 - k)];
    }
  }
}

// ubuf (C-order (N, M), column-major M x N) = q with column i's sign that of R's i-th
// diagonal element (h: geqrf's column-major output, R on and above the diagonal).
template <class T>
__global__ void signed_q_kernel(const T* q, const T* h, int64_t m, int64_t n, T* ubuf) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n * m;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t col = i / m;
    ubuf[i] = h[col + col * m] < T(0) ? -q[i] : q[i];
  }
}

template <class T>
void svd_polar_typed(const NDArray& x, int64_t mm, int64_t nn, bool compute_uv, NDArray& s_out,
                     NDArray& ubuf, NDArray& vtbuf, cudaStream_t stream) {
  const DType dt = x.dtype;
  const int m = static_cast<int>(mm), n = static_cast<int>(nn);
  const T* a = reinterpret_cast<const T*>(x.data());
  cublasHandle_t hb = cublas_handle(stream);

  // U = A / ||A||_F: singular values in (0, 1].
  NDArray u_nd = empty_array({nn, mm}, dt, 'C');
  T* u = reinterpret_cast<T*>(u_nd.data());
  // The norm's sum of squares, then potrf's info (unread: a NaN shows in the values).
  auto scratch = allocate_device_memory(2 * sizeof(double));
  double* total = static_cast<double*>(scratch->ptr());
  int* info = reinterpret_cast<int*>(total + 1);
  GPUARR_CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(double), stream));
  sum_squares_kernel<T><<<blocks_for(mm * nn), kThreads, 0, stream>>>(a, mm * nn, total);
  check_launch("sum_squares_kernel");
  scale_by_norm_kernel<T><<<blocks_for(mm * nn), kThreads, 0, stream>>>(a, mm * nn, total, u);
  check_launch("scale_by_norm_kernel");

  const double eps = sizeof(T) == 4 ? double(FLT_EPSILON) : DBL_EPSILON;
  NDArray y_nd, z_nd, xs_nd;
  for (const QdwhStep& st : qdwh_schedule(eps)) {
    const T keep = T(st.b / st.c);
    if (st.qr) {
      // [sqrt(c) U; I] = Q R; U <- (b/c) U + (a - b/c)/sqrt(c) Q1 Q2^T.
      if (!y_nd.memory) y_nd = empty_array({nn, mm + nn}, dt, 'C');
      T* y = reinterpret_cast<T*>(y_nd.data());
      stack_identity_kernel<T><<<blocks_for((mm + nn) * nn), kThreads, 0, stream>>>(
          u, mm, nn, T(std::sqrt(st.c)), y);
      check_launch("stack_identity_kernel");
      auto [h, tau] = linalg_qr_raw(swap_last2(y_nd));
      const NDArray q = linalg_qr_q(h, tau, nn);  // C-order (N, M + N): column-major Q
      const T* qd = reinterpret_cast<const T*>(q.data());
      GPUARR_CUBLAS_CHECK(gemm(hb, CUBLAS_OP_N, CUBLAS_OP_T, m, n, n,
                               T((st.a - st.b / st.c) / std::sqrt(st.c)), qd, m + n, qd + m,
                               m + n, keep, u, m));
    } else {
      // Z = I + c U^T U = L L^T; U <- (b/c) U + (a - b/c) U L^-T L^-1.
      if (!z_nd.memory) {
        z_nd = empty_array({nn, nn}, dt, 'C');
        xs_nd = empty_array({nn, mm}, dt, 'C');
      }
      T* z = reinterpret_cast<T*>(z_nd.data());
      T* xs = reinterpret_cast<T*>(xs_nd.data());
      launch_identity(z_nd.data(), 1, nn, dt, stream);
      GPUARR_CUBLAS_CHECK(syrk_lower_t(hb, n, m, T(st.c), u, m, T(1), z, n));
      // Z is positive definite for finite input; a NaN shows in the singular values.
      potrf_each(CUBLAS_FILL_MODE_LOWER, nn, dt, z_nd.data(), 1, 0, info, stream);
      GPUARR_CUDA_CHECK(
          cudaMemcpyAsync(xs, u, mm * nn * sizeof(T), cudaMemcpyDeviceToDevice, stream));
      GPUARR_CUBLAS_CHECK(trsm(hb, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                               CUBLAS_DIAG_NON_UNIT, m, n, z, n, xs, m));
      GPUARR_CUBLAS_CHECK(trsm(hb, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, m, n, z, n, xs, m));
      GPUARR_CUBLAS_CHECK(geam(hb, CUBLAS_OP_N, CUBLAS_OP_N, m, n, keep, u, m,
                               T(st.a - st.b / st.c), xs, m, u, m));
    }
  }

  // H = U_p^T A, symmetrised; eigh.
  NDArray h_nd = empty_array({nn, nn}, dt, 'C');
  NDArray hs_nd = empty_array({nn, nn}, dt, 'C');
  T* hm = reinterpret_cast<T*>(h_nd.data());
  GPUARR_CUBLAS_CHECK(gemm(hb, CUBLAS_OP_T, CUBLAS_OP_N, n, n, m, T(1), u, m, a, m, T(0), hm, n));
  GPUARR_CUBLAS_CHECK(geam(hb, CUBLAS_OP_N, CUBLAS_OP_T, n, n, T(0.5), hm, n, T(0.5), hm, n,
                           reinterpret_cast<T*>(hs_nd.data()), n));
  EighResult eig = eigh_solve_dispatch(hs_nd, true, compute_uv, EigMethod::Auto);
  if (eig.failed) throw LinAlgError("SVD did not converge");
  T* s = reinterpret_cast<T*>(s_out.data());
  const T* w = reinterpret_cast<const T*>(eig.w.data());
  if (!compute_uv) {
    order_svd_kernel<T><<<blocks_for(nn), kThreads, 0, stream>>>(w, nullptr, nullptr, mm, nn, s,
                                                                  nullptr, nullptr);
    check_launch("order_svd_kernel");
  } else {
    const NDArray v = eig.v.c_contiguous() ? eig.v : copy_array(eig.v, dt, 'C');
    const T* vd = reinterpret_cast<const T*>(v.data());
    // W = U_p V (V's C-order buffer is column-major V^T).
    NDArray w_nd = empty_array({nn, mm}, dt, 'C');
    GPUARR_CUBLAS_CHECK(gemm(hb, CUBLAS_OP_N, CUBLAS_OP_T, m, n, n, T(1), u, m, vd, n, T(0),
                             reinterpret_cast<T*>(w_nd.data()), m));
    order_svd_kernel<T><<<blocks_for(std::max(mm, nn) * nn), kThreads, 0, stream>>>(
        w, vd, reinterpret_cast<const T*>(w_nd.data()), mm, nn, s,
        reinterpret_cast<T*>(ubuf.data()), reinterpret_cast<T*>(vtbuf.data()));
    check_launch("order_svd_kernel");
  }
  // NumPy's non-convergence error for NaN/inf input, and the rank test, on the values.
  std::vector<T> host(static_cast<size_t>(nn));
  read_small_device_bytes(host.data(), s, host.size() * sizeof(T), stream);
  for (T v : host)
    if (!std::isfinite(v)) throw LinAlgError("SVD did not converge");
  if (compute_uv && double(host.back()) <= double(nn) * eps * double(host.front())) {
    auto [h, tau] = linalg_qr_raw(swap_last2(ubuf));
    const NDArray q = linalg_qr_q(h, tau, nn);
    signed_q_kernel<T><<<blocks_for(mm * nn), kThreads, 0, stream>>>(
        reinterpret_cast<const T*>(q.data()), reinterpret_cast<const T*>(h.data()), mm, nn,
        reinterpret_cast<T*>(ubuf.data()));
    check_launch("signed_q_kernel");
  }
}

}  // namespace

void linalg_svd_polar(const NDArray& x, int64_t mm, int64_t nn, bool compute_uv, NDArray& s,
                      NDArray& ubuf, NDArray& vtbuf, cudaStream_t stream) {
  if (x.dtype == DType::Float32)
    svd_polar_typed<float>(x, mm, nn, compute_uv, s, ubuf, vtbuf, stream);
  else if (x.dtype == DType::Float64)
    svd_polar_typed<double>(x, mm, nn, compute_uv, s, ubuf, vtbuf, stream);
  else
    throw TypeError("linalg_svd_polar: float32 or float64 expected");
}

}  // namespace gpuarr
