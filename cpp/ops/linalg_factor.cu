// Cholesky (Xpotrf), QR (Xgeqrf + orgqr/ungqr) and SVD (Xgesvd), one cuSOLVER call per
// matrix of the batch, workspaces from the pool and their sizes cached per shape.
// singular_values (used by linalg.norm) is the no-vectors SVD here: one implementation.
#include <vector>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"
#include "core/promotion.hpp"
#include "ops/array_ops.hpp"
#include "ops/linalg.hpp"
#include "ops/linalg_common.cuh"
#include "ops/products.hpp"
#include "ops/shape_ops.hpp"
#include "ops/strided.cuh"
#include "runtime/config.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/cusolver_handle.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

using namespace linalg_detail;

namespace {

void check_compute_dtype(const NDArray& a) {
  if (a.dtype == DType::Float16) throw TypeError("array type float16 is unsupported in linalg");
  if (!is_float(a.dtype) && !is_complex(a.dtype)) throw TypeError("linalg: compute dtype expected");
  if (a.ndim() < 2) {
    throw LinAlgError(std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
}

// A view of the first `rows` of the second-to-last dim.
NDArray leading_rows(NDArray a, int64_t rows) {
  a.shape[a.ndim() - 2] = rows;
  return a;
}

// ---- typed orgqr / ungqr (no 64-bit X API) ----
template <class T>
cusolverStatus_t orgqr_buffer(cusolverDnHandle_t h, int m, int n, int k, T* a, int lda,
                              const T* tau, int* lwork) {
  if constexpr (std::is_same_v<T, float>) return cusolverDnSorgqr_bufferSize(h, m, n, k, a, lda, tau, lwork);
  else if constexpr (std::is_same_v<T, double>) return cusolverDnDorgqr_bufferSize(h, m, n, k, a, lda, tau, lwork);
  else if constexpr (std::is_same_v<T, cuComplex>) return cusolverDnCungqr_bufferSize(h, m, n, k, a, lda, tau, lwork);
  else return cusolverDnZungqr_bufferSize(h, m, n, k, a, lda, tau, lwork);
}
template <class T>
cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, T* a, int lda, const T* tau,
                       T* work, int lwork, int* info) {
  if constexpr (std::is_same_v<T, float>) return cusolverDnSorgqr(h, m, n, k, a, lda, tau, work, lwork, info);
  else if constexpr (std::is_same_v<T, double>) return cusolverDnDorgqr(h, m, n, k, a, lda, tau, work, lwork, info);
  else if constexpr (std::is_same_v<T, cuComplex>) return cusolverDnCungqr(h, m, n, k, a, lda, tau, work, lwork, info);
  else return cusolverDnZungqr(h, m, n, k, a, lda, tau, work, lwork, info);
}

void check_int32(int64_t v, const char* what) {
  if (v > INT32_MAX) throw ValueError(std::string("linalg: ") + what + " too large for cuSOLVER");
}

// ---- typed potrfBatched (many small Cholesky factorizations in one call) ----
template <class T>
cusolverStatus_t potrf_batched(cusolverDnHandle_t h, cublasFillMode_t fill, int n, void** a,
                               int* info, int batch) {
  if constexpr (std::is_same_v<T, float>)
    return cusolverDnSpotrfBatched(h, fill, n, reinterpret_cast<float**>(a), n, info, batch);
  else if constexpr (std::is_same_v<T, double>)
    return cusolverDnDpotrfBatched(h, fill, n, reinterpret_cast<double**>(a), n, info, batch);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cusolverDnCpotrfBatched(h, fill, n, reinterpret_cast<cuComplex**>(a), n, info, batch);
  else
    return cusolverDnZpotrfBatched(h, fill, n, reinterpret_cast<cuDoubleComplex**>(a), n, info,
                                   batch);
}

// ---- typed gesvdjBatched (Jacobi SVD of many matrices up to 32 x 32 in one call) ----
template <class T> struct RealOf { using type = T; };
template <> struct RealOf<cuComplex> { using type = float; };
template <> struct RealOf<cuDoubleComplex> { using type = double; };

template <class T>
cusolverStatus_t gesvdj_batched_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz, int m,
                                       int n, const T* a, const typename RealOf<T>::type* s,
                                       const T* u, const T* v, int* lwork, gesvdjInfo_t p,
                                       int batch) {
  if constexpr (std::is_same_v<T, float>)
    return cusolverDnSgesvdjBatched_bufferSize(h, jobz, m, n, a, m, s, u, m, v, n, lwork, p, batch);
  else if constexpr (std::is_same_v<T, double>)
    return cusolverDnDgesvdjBatched_bufferSize(h, jobz, m, n, a, m, s, u, m, v, n, lwork, p, batch);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cusolverDnCgesvdjBatched_bufferSize(h, jobz, m, n, a, m, s, u, m, v, n, lwork, p, batch);
  else
    return cusolverDnZgesvdjBatched_bufferSize(h, jobz, m, n, a, m, s, u, m, v, n, lwork, p, batch);
}
template <class T>
cusolverStatus_t gesvdj_batched(cusolverDnHandle_t h, cusolverEigMode_t jobz, int m, int n,
                                T* a, typename RealOf<T>::type* s, T* u, T* v, T* work,
                                int lwork, int* info, gesvdjInfo_t p, int batch) {
  if constexpr (std::is_same_v<T, float>)
    return cusolverDnSgesvdjBatched(h, jobz, m, n, a, m, s, u, m, v, n, work, lwork, info, p, batch);
  else if constexpr (std::is_same_v<T, double>)
    return cusolverDnDgesvdjBatched(h, jobz, m, n, a, m, s, u, m, v, n, work, lwork, info, p, batch);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cusolverDnCgesvdjBatched(h, jobz, m, n, a, m, s, u, m, v, n, work, lwork, info, p, batch);
  else
    return cusolverDnZgesvdjBatched(h, jobz, m, n, a, m, s, u, m, v, n, work, lwork, info, p, batch);
}

// Negates the imaginary parts of `count` complex numbers stored as (re, im) pairs of R.
template <class R>
__global__ void conj_inplace_kernel(R* data, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    data[2 * i + 1] = -data[2 * i + 1];
  }
}

struct GesvdjInfoGuard {
  gesvdjInfo_t p = nullptr;
  GesvdjInfoGuard() { GPUARR_CUSOLVER_CHECK(cusolverDnCreateGesvdjInfo(&p)); }
  ~GesvdjInfoGuard() {
    if (p) cusolverDnDestroyGesvdjInfo(p);
  }
};

// Many small matrices (m, n <= 32): one gesvdjBatched call. Column-major A (the
// C-contiguous copy of A's transposed view) gives full U (m x m) and V (n x n, not V^H):
// u = swap_last2(ubuf), vh = conj(vbuf) read C-contiguously (= V^H), reduced modes as
// leading-column / leading-row views.
SvdParts svd_jacobi_batched(const NDArray& a, bool full_matrices, bool compute_uv) {
  const int64_t nd = a.ndim();
  const int64_t m = a.shape[nd - 2], n = a.shape[nd - 1];
  const int64_t k = std::min(m, n);
  const int64_t batch = batch_count(a);
  const DType rt = real_dtype(a.dtype);
  NDArray work = copy_array(swap_last2(a), a.dtype, 'C');  // (.., n, m): column-major A
  Dims s_shape = batch_shape(a);
  s_shape.push_back(k);
  SvdParts out;
  out.s = empty_array(s_shape, rt, 'C');
  NDArray ubuf, vbuf;
  {  // gesvdjBatched writes U and V even for CUSOLVER_EIG_MODE_NOVECTOR: always give them
    Dims us = batch_shape(a), vs = batch_shape(a);
    us.push_back(m);
    us.push_back(m);
    vs.push_back(n);
    vs.push_back(n);
    ubuf = empty_array(us, a.dtype, 'C');
    vbuf = empty_array(vs, a.dtype, 'C');
  }
  const cudaStream_t stream = stream_for(work);
  CusolverHandles h = cusolver_handle(stream);
  const cusolverEigMode_t jobz = compute_uv ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  GesvdjInfoGuard params;
  GPUARR_CUSOLVER_CHECK(cusolverDnXgesvdjSetSortEig(params.p, 1));  // descending, as NumPy
  auto info_mem = allocate_device_memory(static_cast<size_t>(batch) * sizeof(int));
  int* info = static_cast<int*>(info_mem->ptr());
  dispatch_lapack(a.dtype, [&](auto* tp) {
    using T = std::remove_pointer_t<decltype(tp)>;
    using R = typename RealOf<T>::type;
    T* A = reinterpret_cast<T*>(work.data());
    R* S = reinterpret_cast<R*>(out.s.data());
    T* U = reinterpret_cast<T*>(ubuf.data());
    T* V = reinterpret_cast<T*>(vbuf.data());
    int lwork = 0;
    GPUARR_CUSOLVER_CHECK(gesvdj_batched_buffer<T>(h.handle, jobz, static_cast<int>(m),
                                                   static_cast<int>(n), A, S, U, V, &lwork,
                                                   params.p, static_cast<int>(batch)));
    auto ws = allocate_device_memory(std::max<size_t>(static_cast<size_t>(lwork) * sizeof(T), 16));
    GPUARR_CUSOLVER_CHECK(gesvdj_batched<T>(h.handle, jobz, static_cast<int>(m),
                                            static_cast<int>(n), A, S, U, V,
                                            static_cast<T*>(ws->ptr()), lwork, info, params.p,
                                            static_cast<int>(batch)));
    if constexpr (!std::is_same_v<T, R>) {
      if (compute_uv) {
        const int64_t count = vbuf.size();
        conj_inplace_kernel<R><<<grid_for(count, 256), 256, 0, stream>>>(
            reinterpret_cast<R*>(vbuf.data()), count);
        check_launch("conj_inplace_kernel");
      }
    }
  });
  const FiniteCheck svals{out.s.data(), rt, k, 1, k};
  if (count_positive_info(info, batch, stream, &svals) > 0)
    throw LinAlgError("SVD did not converge");
  if (compute_uv) {
    out.u = swap_last2(ubuf);  // (.., m, m)
    out.vh = vbuf;             // (.., n, n) = V^H after the conjugation
    if (!full_matrices) {
      out.u.shape[nd - 1] = k;   // leading k columns (a view)
      out.vh.shape[nd - 2] = k;  // leading k rows (a view)
    }
  }
  return out;
}

}  // namespace

namespace linalg_detail {

void potrf_each(cublasFillMode_t fill, int64_t n, DType dtype, char* a, int64_t batch,
                int64_t mat_bytes, int* info, cudaStream_t stream) {
  CusolverHandles h = cusolver_handle(stream);
  const cudaDataType ct = cuda_type(dtype);
  auto [dev_bytes, host_bytes] = cached_workspace(
      {current_device(), fill == CUBLAS_FILL_MODE_LOWER ? kPotrfL : kPotrfU, n, n, 0,
       static_cast<int>(dtype)},
      [&] {
        size_t d = 0, hb = 0;
        GPUARR_CUSOLVER_CHECK(cusolverDnXpotrf_bufferSize(h.handle, h.params, fill, n, ct, a, n,
                                                          ct, &d, &hb));
        return std::make_pair(d, hb);
      });
  auto ws = allocate_device_memory(std::max<size_t>(dev_bytes, 16));
  void* host_ws = host_workspace(host_bytes);  // kept alive: no stream sync
  for (int64_t i = 0; i < batch; ++i) {
    GPUARR_CUSOLVER_CHECK(cusolverDnXpotrf(h.handle, h.params, fill, n, ct, a + i * mat_bytes, n,
                                           ct, ws->ptr(), dev_bytes, host_ws, host_bytes,
                                           info + i));
  }
}

}  // namespace linalg_detail

NDArray linalg_cholesky(const NDArray& a, bool upper) {
  check_compute_dtype(a);
  const int64_t n = a.shape.back();
  if (a.shape[a.ndim() - 2] != n) throw LinAlgError("Last 2 dimensions of the array must be square");
  const int64_t batch = batch_count(a);
  const bool batched = use_cholesky_batched(n, batch);
  // Xpotrf in LOWER mode takes 0.4-0.5 times its UPPER mode's time (n = 64 to 4096, float32
  // and float64, H200): NumPy's lower factor goes through column-major A (the C-contiguous
  // copy of A's transposed view), whose LOWER mode reads A's lower triangle and leaves
  // column-major L, read back C-contiguously by a transposing copy.
  const bool columns = !upper && !batched;
  // Otherwise column-major M = A^T (= conj(A) for Hermitian A): potrf(UPPER) reads M's upper
  // triangle (A's lower) and gives M = U^H U, so A = U^T conj(U): L = U^T, which is U's
  // buffer read C-contiguously. potrf(LOWER) likewise gives the upper factor of A from A's
  // upper triangle.
  NDArray work = copy_array(columns ? swap_last2(a) : a, a.dtype, 'C');
  if (batch == 0 || n == 0) return work;
  const cudaStream_t stream = stream_for(work);
  const cublasFillMode_t fill =
      upper || columns ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  CusolverHandles h = cusolver_handle(stream);
  auto info_mem = allocate_device_memory(static_cast<size_t>(batch) * sizeof(int));
  int* info = static_cast<int*>(info_mem->ptr());
  const int64_t mat_bytes = n * n * work.itemsize();
  if (batched) {
    std::shared_ptr<Memory> ptrs_mem;
    void** ptrs = device_pointer_array(ptrs_mem, work.data(), mat_bytes, batch, stream);
    dispatch_lapack(a.dtype, [&](auto* tp) {
      using T = std::remove_pointer_t<decltype(tp)>;
      GPUARR_CUSOLVER_CHECK(potrf_batched<T>(h.handle, fill, static_cast<int>(n), ptrs, info,
                                             static_cast<int>(batch)));
    });
  } else {
    potrf_each(fill, n, a.dtype, work.data(), batch, mat_bytes, info, stream);
  }
  if (columns) work = copy_array(swap_last2(work), a.dtype, 'C');
  // Zero the triangle potrf left untouched (NumPy returns a clean triangular factor).
  launch_triangle(work.data(), work.data(), nullptr, batch, n, n, 0, /*lower=*/!upper,
                  work.itemsize(), stream);
  if (count_positive_info(info, batch, stream) > 0)
    throw LinAlgError("Matrix is not positive definite");
  return work;
}

std::pair<NDArray, NDArray> linalg_qr_raw(const NDArray& a) {
  check_compute_dtype(a);
  const int64_t m = a.shape[a.ndim() - 2], n = a.shape.back();
  const int64_t k = std::min(m, n);
  // C-contiguous (.., n, m) == column-major A (m x n, lda m).
  NDArray h = copy_array(swap_last2(a), a.dtype, 'C');
  Dims tau_shape = batch_shape(a);
  tau_shape.push_back(k);
  NDArray tau = empty_array(tau_shape, a.dtype, 'C');
  const int64_t batch = batch_count(a);
  if (batch == 0 || k == 0) return {h, tau};
  const cudaStream_t stream = stream_for(h);
  CusolverHandles hd = cusolver_handle(stream);
  const cudaDataType ct = cuda_type(a.dtype);
  auto [dev_bytes, host_bytes] = cached_workspace(
      {current_device(), kGeqrf, m, n, 0, static_cast<int>(a.dtype)}, [&] {
        size_t d = 0, hb = 0;
        GPUARR_CUSOLVER_CHECK(cusolverDnXgeqrf_bufferSize(hd.handle, hd.params, m, n, ct,
                                                          h.data(), m, ct, tau.data(), ct, &d,
                                                          &hb));
        return std::make_pair(d, hb);
      });
  const size_t ws_bytes = (std::max<size_t>(dev_bytes, 16) + 15) / 16 * 16;
  auto ws = allocate_device_memory(ws_bytes + sizeof(int));
  int* info = reinterpret_cast<int*>(static_cast<char*>(ws->ptr()) + ws_bytes);
  void* host_ws = host_workspace(host_bytes);  // kept alive: no stream sync
  const int64_t mat_bytes = m * n * h.itemsize();
  const int64_t tau_bytes = k * tau.itemsize();
  for (int64_t i = 0; i < batch; ++i) {
    GPUARR_CUSOLVER_CHECK(cusolverDnXgeqrf(hd.handle, hd.params, m, n, ct,
                                           h.data() + i * mat_bytes, m, ct,
                                           tau.data() + i * tau_bytes, ct, ws->ptr(), dev_bytes,
                                           host_ws, host_bytes, info));
  }
  return {h, tau};
}

NDArray linalg_qr_q(const NDArray& h, const NDArray& tau, int64_t mc) {
  // h: C-contiguous (.., n, m) (column-major m x n); q: C-contiguous (.., mc, m).
  const int64_t nd = h.ndim();
  const int64_t n = h.shape[nd - 2], m = h.shape[nd - 1];
  const int64_t k = tau.shape.back();
  Dims q_shape = batch_shape(h);
  q_shape.push_back(mc);
  q_shape.push_back(m);
  NDArray q = empty_array(q_shape, h.dtype, 'C');
  const int64_t batch = batch_count(h);
  if (batch == 0 || m == 0 || mc == 0) return swap_last2(q);
  const cudaStream_t stream = stream_for(q);
  if (mc > n) {
    const char zero[16] = {};
    fill_array(q, zero);
  }
  const int64_t cols = std::min(n, mc);
  if (cols > 0) assign_array(leading_rows(q, cols), leading_rows(h, cols));
  if (k == 0) {  // no reflectors (n == 0, complete mode: mc == m): Q is the identity
    launch_identity(q.data(), batch, m, q.dtype, stream);
    return swap_last2(q);
  }
  check_int32(m, "matrix size");
  check_int32(mc, "matrix size");
  CusolverHandles hd = cusolver_handle(stream);
  const int64_t mat_bytes = mc * m * q.itemsize();
  const int64_t tau_bytes = k * tau.itemsize();
  dispatch_lapack(h.dtype, [&](auto* tp) {
    using T = std::remove_pointer_t<decltype(tp)>;
    auto [lwork_bytes, unused] = cached_workspace(
        {current_device(), kOrgqr, m, mc, k, static_cast<int>(h.dtype)}, [&] {
          int lwork = 0;
          GPUARR_CUSOLVER_CHECK(orgqr_buffer<T>(hd.handle, static_cast<int>(m),
                                                static_cast<int>(mc), static_cast<int>(k),
                                                reinterpret_cast<T*>(q.data()),
                                                static_cast<int>(m),
                                                reinterpret_cast<const T*>(tau.data()), &lwork));
          return std::make_pair(static_cast<size_t>(lwork) * sizeof(T), size_t(0));
        });
    (void)unused;
    const size_t ws_bytes = (std::max<size_t>(lwork_bytes, 16) + 15) / 16 * 16;
    auto ws = allocate_device_memory(ws_bytes + sizeof(int));
    int* info = reinterpret_cast<int*>(static_cast<char*>(ws->ptr()) + ws_bytes);
    const int lwork = static_cast<int>(lwork_bytes / sizeof(T));
    for (int64_t i = 0; i < batch; ++i) {
      GPUARR_CUSOLVER_CHECK(orgqr<T>(hd.handle, static_cast<int>(m), static_cast<int>(mc),
                                     static_cast<int>(k),
                                     reinterpret_cast<T*>(q.data() + i * mat_bytes),
                                     static_cast<int>(m),
                                     reinterpret_cast<const T*>(tau.data() + i * tau_bytes),
                                     static_cast<T*>(ws->ptr()), lwork, info));
    }
  });
  return swap_last2(q);
}

SvdParts linalg_svd(const NDArray& a, bool full_matrices, bool compute_uv) {
  check_compute_dtype(a);
  const int64_t nd = a.ndim();
  const int64_t m = a.shape[nd - 2], n = a.shape[nd - 1];
  const int64_t k = std::min(m, n);
  if (k == 0) throw ValueError("linalg_svd: empty matrices are handled by the caller");
  if (use_svd_jacobi_batched(m, n, batch_count(a))) return svd_jacobi_batched(a, full_matrices, compute_uv);
  // gesvd wants rows >= cols (column-major): see SvdPlan (core/linalg_plan.hpp).
  const SvdPlan plan = plan_svd(a.shape, full_matrices);
  const bool transposed = plan.transposed;
  const NDArray work = transposed ? copy_array(a, a.dtype, 'C')
                                  : copy_array(swap_last2(a), a.dtype, 'C');
  const int64_t mm = plan.mm, nn = plan.nn, uc = plan.uc;
  const DType rt = real_dtype(a.dtype);
  const int64_t batch = batch_count(a);
  SvdParts out;
  out.s = empty_array(plan.s_shape, rt, 'C');
  NDArray ubuf, vtbuf;
  if (compute_uv) {
    ubuf = empty_array(plan.ubuf_shape, a.dtype, 'C');    // column-major mm x uc
    vtbuf = empty_array(plan.vtbuf_shape, a.dtype, 'C');  // column-major nn x nn
    if (transposed) {
      out.u = vtbuf;  // C-contiguous VT'^T = conj(V') = U (m x m)
      out.vh = ubuf;  // C-contiguous U'^T = Vh (uc x n)
    } else {
      out.u = swap_last2(ubuf);
      out.vh = swap_last2(vtbuf);
    }
  }
  if (batch == 0) return out;
  const cudaStream_t stream = stream_for(work);
  if (use_svd_polar(m, n, batch, a.dtype == DType::Float32 || a.dtype == DType::Float64,
                    full_matrices, compute_uv, config::svd_polar_min_n.get())) {
    linalg_svd_polar(work, mm, nn, compute_uv, out.s, ubuf, vtbuf, stream);
    return out;
  }
  CusolverHandles h = cusolver_handle(stream);
  const cudaDataType ct = cuda_type(a.dtype), rct = cuda_type(rt);
  const signed char jobu = compute_uv ? (full_matrices ? 'A' : 'S') : 'N';
  const signed char jobvt = compute_uv ? 'A' : 'N';
  void* u0 = compute_uv ? static_cast<void*>(ubuf.data()) : nullptr;
  void* v0 = compute_uv ? static_cast<void*>(vtbuf.data()) : nullptr;
  const int64_t ldu = compute_uv ? mm : 1, ldvt = compute_uv ? nn : 1;
  auto [dev_bytes, host_bytes] = cached_workspace(
      {current_device(), kGesvd, mm, nn, jobu * 256 + jobvt, static_cast<int>(a.dtype)}, [&] {
        size_t d = 0, hb = 0;
        GPUARR_CUSOLVER_CHECK(cusolverDnXgesvd_bufferSize(
            h.handle, h.params, jobu, jobvt, mm, nn, ct, work.data(), mm, rct, out.s.data(), ct,
            u0, ldu, ct, v0, ldvt, ct, &d, &hb));
        return std::make_pair(d, hb);
      });
  auto ws = allocate_device_memory(std::max<size_t>(dev_bytes, 16));
  auto info_mem = allocate_device_memory(static_cast<size_t>(batch) * sizeof(int));
  int* info = static_cast<int*>(info_mem->ptr());
  void* host_ws = host_workspace(host_bytes);  // kept alive: no stream sync
  const int64_t a_bytes = mm * nn * work.itemsize();
  const int64_t s_bytes = k * out.s.itemsize();
  const int64_t u_bytes = mm * uc * work.itemsize();
  const int64_t v_bytes = nn * nn * work.itemsize();
  for (int64_t i = 0; i < batch; ++i) {
    char* ui = compute_uv ? ubuf.data() + i * u_bytes : nullptr;
    char* vi = compute_uv ? vtbuf.data() + i * v_bytes : nullptr;
    GPUARR_CUSOLVER_CHECK(cusolverDnXgesvd(
        h.handle, h.params, jobu, jobvt, mm, nn, ct, work.data() + i * a_bytes, mm, rct,
        out.s.data() + i * s_bytes, ct, ui, ldu, ct, vi, ldvt, ct, ws->ptr(), dev_bytes,
        host_ws, host_bytes, info + i));
  }
  // NaN/inf input: NumPy reports non-convergence; so do non-finite singular values here.
  const FiniteCheck svals{out.s.data(), rt, k, 1, k};
  if (count_positive_info(info, batch, stream, &svals) > 0)
    throw LinAlgError("SVD did not converge");
  return out;
}

NDArray singular_values(const NDArray& a_in) {
  if (a_in.ndim() < 2) throw ValueError("singular_values needs a matrix");
  DType t = a_in.dtype;
  if (t == DType::Float16) throw TypeError("array type float16 is unsupported in linalg");
  if (!is_float(t) && !is_complex(t)) t = DType::Float64;
  const int64_t nd = a_in.ndim();
  const int64_t k = std::min(a_in.shape[nd - 2], a_in.shape[nd - 1]);
  if (k == 0) {
    Dims s_shape = batch_shape(a_in);
    s_shape.push_back(0);
    return empty_array(s_shape, real_dtype(t), 'C');
  }
  const NDArray a = a_in.dtype == t ? a_in : copy_array(a_in, t, 'C');
  return linalg_svd(a, false, false).s;
}

}  // namespace gpuarr
