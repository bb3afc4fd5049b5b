// eigh/eigvalsh and eig/eigvals on cuSOLVER (and the Jacobi kernel of eigen_jacobi.cu).
//
// Layout: the input is copied once, in the compute dtype, as a batch of column-major n x n
// matrices (a C-order copy of the transposed view), which is what cuSOLVER reads; so UPLO
// maps directly to the fill mode and the eigenvectors come back column-major (one more
// transposing copy gives NumPy's C-order (..., n, n) with vectors as columns).
// cusolverDnXsyevBatched (cuSOLVER >= 11.7.1) and cusolverDnXgeev (>= 11.7.0) are looked up
// in the loaded libcusolver (runtime/cuda_libraries) and used only where it has them.
#include <cusolverDn.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"
#include "core/promotion.hpp"
#include "ops/array_ops.hpp"
#include "ops/device_types.cuh"
#include "ops/eigen.hpp"
#include "ops/kernels.hpp"
#include "ops/linalg_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/cuda_libraries.hpp"
#include "runtime/cusolver_handle.hpp"
#include "runtime/device.hpp"
#include "runtime/memory.hpp"
#include "runtime/pinned_memory.hpp"

namespace gpuarr {
// The transposed view of a stack of matrices (the eigenvectors of column-major output), and
// that view copied in C order (dtype `t`): column-major matrices for cuSOLVER from C-order
// input, and C-order results from column-major output.
NDArray swap_last_two_axes(const NDArray& a) {
  NDArray view = a;
  const int64_t nd = view.ndim();
  std::swap(view.shape[nd - 2], view.shape[nd - 1]);
  std::swap(view.strides[nd - 2], view.strides[nd - 1]);
  return view;
}

NDArray transpose_copy(const NDArray& a, DType t) {
  return copy_array(swap_last_two_axes(a), t, 'C');
}

namespace {

// ---- routines found at run time -------------------------------------------------------
using XsyevBatchedBufferSizeFn = cusolverStatus_t (*)(
    cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t, int64_t,
    cudaDataType, const void*, int64_t, cudaDataType, const void*, cudaDataType, size_t*,
    size_t*, int64_t);
using XsyevBatchedFn = cusolverStatus_t (*)(
    cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cublasFillMode_t, int64_t,
    cudaDataType, void*, int64_t, cudaDataType, void*, cudaDataType, void*, size_t, void*,
    size_t, int*, int64_t);
using XgeevBufferSizeFn = cusolverStatus_t (*)(
    cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t,
    cudaDataType, const void*, int64_t, cudaDataType, const void*, cudaDataType, const void*,
    int64_t, cudaDataType, const void*, int64_t, cudaDataType, size_t*, size_t*);
using XgeevFn = cusolverStatus_t (*)(
    cusolverDnHandle_t, cusolverDnParams_t, cusolverEigMode_t, cusolverEigMode_t, int64_t,
    cudaDataType, void*, int64_t, cudaDataType, void*, cudaDataType, void*, int64_t,
    cudaDataType, void*, int64_t, cudaDataType, void*, size_t, void*, size_t, int*);

struct RuntimeRoutines {
  XsyevBatchedBufferSizeFn xsyev_batched_buffer = nullptr;
  XsyevBatchedFn xsyev_batched = nullptr;
  XgeevBufferSizeFn xgeev_buffer = nullptr;
  XgeevFn xgeev = nullptr;
};

void* find_symbol(const char* name) {
  return cuda_library_find_function(CudaLibrary::cusolver, name);
}

const RuntimeRoutines& routines() {
  static const RuntimeRoutines r = [] {
    RuntimeRoutines out;
    out.xsyev_batched_buffer = reinterpret_cast<XsyevBatchedBufferSizeFn>(
        find_symbol("cusolverDnXsyevBatched_bufferSize"));
    out.xsyev_batched = reinterpret_cast<XsyevBatchedFn>(find_symbol("cusolverDnXsyevBatched"));
    out.xgeev_buffer =
        reinterpret_cast<XgeevBufferSizeFn>(find_symbol("cusolverDnXgeev_bufferSize"));
    out.xgeev = reinterpret_cast<XgeevFn>(find_symbol("cusolverDnXgeev"));
    // Symbols may exist but be unusable when the library is older than the routine.
    if (cusolver_version() < 110701) out.xsyev_batched = nullptr;
    if (cusolver_version() < 110700) out.xgeev = nullptr;
    return out;
  }();
  return r;
}

cudaDataType cuda_type(DType t) {
  switch (t) {
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}

// ---- small kernels --------------------------------------------------------------------
// out = 1 if any imag part of the complex array w (n entries) is nonzero (or NaN).
template <class R>
__global__ void any_imag_kernel(const Complex<R>* __restrict__ w, int64_t n, int* out) {
  int found = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    found |= !(w[i].im == R(0));
  }
  found = __syncthreads_or(found);
  if (found && threadIdx.x == 0) atomicOr(out, 1);
}

// Right eigenvectors of a real matrix from LAPACK's storage (column-major VR per matrix):
// real eigenvalue j: VR[:, j]; pair (j, j+1) with im(w_j) > 0: VR[:, j] +/- i VR[:, j+1].
// Writes v (batch, n, n) in C order (vectors as columns), complex.
template <class R>
__global__ void assemble_eigvecs_kernel(const R* __restrict__ vr,
                                        const Complex<R>* __restrict__ w,
                                        Complex<R>* __restrict__ v, int64_t batch, int64_t n) {
  const int64_t total = batch * n * n;
  for (int64_t idx = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const int64_t b = idx / (n * n);
    const int64_t rem = idx - b * n * n;
    const int64_t row = rem / n, j = rem - row * n;
    const R* m = vr + b * n * n;
    const R im = w[b * n + j].im;
    Complex<R> out;
    if (im > R(0) && j + 1 < n) {
      out.re = m[j * n + row];
      out.im = m[(j + 1) * n + row];
    } else if (im < R(0) && j > 0) {
      out.re = m[(j - 1) * n + row];
      out.im = -m[j * n + row];
    } else {
      out.re = m[j * n + row];
      out.im = R(0);
    }
    v[idx] = out;
  }
}

int flag_readback(const std::shared_ptr<Memory>& flag_mem, cudaStream_t stream) {
  int flag = 0;
  read_small_device_bytes(&flag, flag_mem->ptr(), sizeof(int), stream);
  return flag;
}

std::shared_ptr<Memory> zeroed_flag(cudaStream_t stream) {
  auto mem = allocate_device_memory(sizeof(int));
  GPUARR_CUDA_CHECK(cudaMemsetAsync(mem->ptr(), 0, sizeof(int), stream));
  return mem;
}

// Workspace sizes cached per (method, n, batch, dtype, jobz, uplo).
using WsKey = std::tuple<int, int64_t, int64_t, int, int, int, int>;
std::mutex g_ws_mutex;
std::map<WsKey, std::pair<size_t, size_t>>& ws_cache() {
  static auto* c = new std::map<WsKey, std::pair<size_t, size_t>>();
  return *c;
}

template <class F>
std::pair<size_t, size_t> cached_ws(const WsKey& key, F&& query) {
  {
    std::lock_guard<std::mutex> lock(g_ws_mutex);
    auto it = ws_cache().find(key);
    if (it != ws_cache().end()) return it->second;
  }
  const std::pair<size_t, size_t> sz = query();
  std::lock_guard<std::mutex> lock(g_ws_mutex);
  ws_cache()[key] = sz;
  return sz;
}

int current_device_key() { return current_device(); }

// ---- syevjBatched -------------------------------------------------------------------------
struct SyevjParams {
  syevjInfo_t p = nullptr;
  SyevjParams() {
    GPUARR_CUSOLVER_CHECK(cusolverDnCreateSyevjInfo(&p));
    GPUARR_CUSOLVER_CHECK(cusolverDnXsyevjSetSortEig(p, 1));
  }
};
syevjInfo_t syevj_params() {
  static SyevjParams* s = new SyevjParams();  // never destroyed (exit order)
  return s->p;
}

void run_syevj_batched(cusolverDnHandle_t h, DType t, cusolverEigMode_t jobz,
                       cublasFillMode_t uplo, int n, void* A, void* W, int* info, int batch,
                       cudaStream_t) {
  syevjInfo_t params = syevj_params();
  const WsKey key{1, n, batch, int(t), int(jobz), int(uplo), current_device_key()};
  const auto ws = cached_ws(key, [&] {
    int lwork = 0;
    switch (t) {
      case DType::Float32:
        GPUARR_CUSOLVER_CHECK(cusolverDnSsyevjBatched_bufferSize(
            h, jobz, uplo, n, static_cast<float*>(A), n, static_cast<float*>(W), &lwork, params, batch));
        break;
      case DType::Float64:
        GPUARR_CUSOLVER_CHECK(cusolverDnDsyevjBatched_bufferSize(
            h, jobz, uplo, n, static_cast<double*>(A), n, static_cast<double*>(W), &lwork, params, batch));
        break;
      case DType::Complex64:
        GPUARR_CUSOLVER_CHECK(cusolverDnCheevjBatched_bufferSize(
            h, jobz, uplo, n, static_cast<cuComplex*>(A), n, static_cast<float*>(W), &lwork, params, batch));
        break;
      default:
        GPUARR_CUSOLVER_CHECK(cusolverDnZheevjBatched_bufferSize(
            h, jobz, uplo, n, static_cast<cuDoubleComplex*>(A), n, static_cast<double*>(W), &lwork, params, batch));
        break;
    }
    return std::pair<size_t, size_t>(size_t(lwork), 0);
  });
  const int lwork = static_cast<int>(ws.first);
  auto work = allocate_device_memory(std::max<size_t>(size_t(lwork) * itemsize(t), 16));
  switch (t) {
    case DType::Float32:
      GPUARR_CUSOLVER_CHECK(cusolverDnSsyevjBatched(
          h, jobz, uplo, n, static_cast<float*>(A), n, static_cast<float*>(W),
          static_cast<float*>(work->ptr()), lwork, info, params, batch));
      break;
    case DType::Float64:
      GPUARR_CUSOLVER_CHECK(cusolverDnDsyevjBatched(
          h, jobz, uplo, n, static_cast<double*>(A), n, static_cast<double*>(W),
          static_cast<double*>(work->ptr()), lwork, info, params, batch));
      break;
    case DType::Complex64:
      GPUARR_CUSOLVER_CHECK(cusolverDnCheevjBatched(
          h, jobz, uplo, n, static_cast<cuComplex*>(A), n, static_cast<float*>(W),
          static_cast<cuComplex*>(work->ptr()), lwork, info, params, batch));
      break;
    default:
      GPUARR_CUSOLVER_CHECK(cusolverDnZheevjBatched(
          h, jobz, uplo, n, static_cast<cuDoubleComplex*>(A), n, static_cast<double*>(W),
          static_cast<cuDoubleComplex*>(work->ptr()), lwork, info, params, batch));
      break;
  }
}

// Before cuSOLVER: per matrix of the column-major batch, whether the triangle it reads holds
// a NaN or inf (cuSOLVER's Jacobi returns finite garbage there; NumPy gives NaN), and, for
// complex input, the diagonal's imaginary parts set to 0 (LAPACK's heevd ignores them).
// Over the whole grid (one block per matrix would run one block over 16M elements at
// n = 4096: ~20 ms of a latency-bound loop with 64-bit division). Grid (batch, column
// groups); each warp walks one column of the read triangle (contiguous in the column-major
// copy, so a warp's loads are coalesced); bad[] must be zeroed first.
template <class R, int C>
__global__ void eigh_prepare_grid_kernel(R* a, int64_t n, bool lower, int* bad) {
  const int64_t b = blockIdx.x;
  R* m = a + b * n * n * C;
  const int lane = threadIdx.x & 31;
  const int64_t warps = blockDim.x >> 5;
  int found = 0;
  for (int64_t c = blockIdx.y * warps + (threadIdx.x >> 5); c < n; c += gridDim.y * warps) {
    const int64_t r0 = lower ? c : 0, r1 = lower ? n : c + 1;  // rows [r0, r1) of column c
    R* col = m + c * n * C;
    for (int64_t r = r0 + lane; r < r1; r += 32) {
#pragma unroll
      for (int k = 0; k < C; ++k) found |= !isfinite(col[r * C + k]);
      if (C == 2 && r == c) col[r * C + 1] = R(0);
    }
  }
  // Every lane of a warp shares c, so the warp is converged here.
  if (__any_sync(0xffffffffu, found) && lane == 0) bad[b] = 1;
}

// After cuSOLVER: NaN eigenvalues (and vectors) for the matrices flagged above.
template <class R, int C>
__global__ void eigh_poison_grid_kernel(const int* bad, R* w, R* v, int64_t n) {
  const int64_t b = blockIdx.x;
  if (!bad[b]) return;
  const R nan = R(NAN);
  const int64_t t = blockIdx.y * int64_t(blockDim.x) + threadIdx.x;
  const int64_t stride = int64_t(gridDim.y) * blockDim.x;
  for (int64_t i = t; i < n; i += stride) w[b * n + i] = nan;
  if (v) {
    for (int64_t i = t; i < n * n * C; i += stride) v[b * n * n * C + i] = nan;
  }
}

// Host workspace of the 64-bit API: pinned (one buffer per thread, grown on demand and kept;
// every caller waits for the device before returning, so the next call can reuse it) or
// pageable.
class HostWorkspace {
 public:
  // Declared where it must outlive the solver's asynchronous use (up to the info readback).
  void* get(size_t nbytes, bool pinned) {
    if (pinned) {
      thread_local GrowingPinnedBuffer cache;
      return cache.get(nbytes);
    }
    pageable_.resize(std::max<size_t>(nbytes, 1));
    return pageable_.data();
  }

 private:
  std::vector<char> pageable_;
};

// A cached workspace query (device bytes, host bytes) and the device workspace for it.
struct Workspace {
  size_t dev_bytes = 0, host_bytes = 0;
  std::shared_ptr<Memory> dev;
};
template <class F>
Workspace make_workspace(const WsKey& key, F&& query) {
  Workspace ws;
  const auto sz = cached_ws(key, std::forward<F>(query));
  ws.dev_bytes = sz.first;
  ws.host_bytes = sz.second;
  ws.dev = allocate_device_memory(std::max<size_t>(sz.first, 16));
  return ws;
}

template <class F> void with_real_layout(DType t, F&& f) {
  switch (t) {
    case DType::Float32: return f(float{}, std::integral_constant<int, 1>{});
    case DType::Float64: return f(double{}, std::integral_constant<int, 1>{});
    case DType::Complex64: return f(float{}, std::integral_constant<int, 2>{});
    default: return f(double{}, std::integral_constant<int, 2>{});
  }
}

}  // namespace

bool xsyev_batched_available() {
  const auto& r = routines();
  return r.xsyev_batched && r.xsyev_batched_buffer;
}
bool xgeev_available() {
  const auto& r = routines();
  return r.xgeev && r.xgeev_buffer;
}

EighAvailability eigh_availability() {
  static std::mutex mu;
  static std::map<int, size_t> limits;
  const int dev = current_device();
  size_t lim = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = limits.find(dev);
    if (it == limits.end()) {
      int optin = 0;
      GPUARR_CUDA_CHECK(
          cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
      it = limits.emplace(dev, size_t(optin)).first;
    }
    lim = it->second;
  }
  return EighAvailability{xsyev_batched_available(), lim, compute_capability(dev)};
}

EighResult eigh_solve(const NDArray& a_in, bool lower, bool compute_v, EigMethod requested) {
  const SquareStack st = check_square_stack(a_in.shape);
  const DType ct = eigen_compute_dtype(a_in.dtype);
  const DType out_t = eigen_result_dtype(a_in.dtype);
  const DType wt = real_dtype(ct), out_wt = real_dtype(out_t);
  const int64_t n = st.n, batch = st.batch;
  Dims w_shape = st.batch_shape;
  w_shape.push_back(n);

  EighResult res;
  if (batch == 0 || n == 0) {
    res.w = empty_array(w_shape, out_wt, 'C');
    if (compute_v) res.v = empty_array(a_in.shape, out_t, 'C');
    res.method = requested == EigMethod::Auto ? EigMethod::Syevd : requested;
    return res;
  }
  const EigMethod method =
      choose_eigh_method(requested, n, batch, ct, compute_v, eigh_availability());
  res.method = method;
  if (method == EigMethod::TridiagDC) return eigh_dc_solve(a_in, lower, compute_v);

  // Column-major copy in the compute dtype: C order of the transposed view.
  NDArray cm = transpose_copy(a_in, ct);
  const cudaStream_t stream = stream_for(cm);
  NDArray w = empty_array(w_shape, wt, 'C');

  if (method == EigMethod::Own || method == EigMethod::OwnJacobi) {
    NDArray v;
    if (compute_v) v = empty_array(a_in.shape, ct, 'C');
    if (method == EigMethod::Own && !compute_v) {
      launch_tridiag_eigvals(cm.data(), w.data(), batch, n, ct, lower, stream);
    } else {
      launch_jacobi_eigh(cm.data(), w.data(), compute_v ? v.data() : nullptr, batch, n, ct,
                         lower, stream);
    }
    res.w = (out_wt == wt) ? w : copy_array(w, out_wt, 'C');
    if (compute_v) res.v = (out_t == ct) ? v : copy_array(v, out_t, 'C');
    return res;
  }

  CusolverHandles h = cusolver_handle(stream);
  const cusolverEigMode_t jobz = compute_v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  auto info_mem = allocate_device_memory(sizeof(int) * size_t(2 * batch));
  int* info = static_cast<int*>(info_mem->ptr());
  int* bad = info + batch;
  // info and bad together (the grid kernel only sets bad[b] to 1).
  GPUARR_CUDA_CHECK(cudaMemsetAsync(info, 0, sizeof(int) * size_t(2 * batch), stream));
  const unsigned grid_batch = static_cast<unsigned>(batch);  // batch < 2**31 matrices
  // Column groups per matrix: 8 warps a block, one column a warp; enough blocks to fill the
  // GPU at one large matrix, few for many small ones.
  const unsigned col_groups = static_cast<unsigned>(std::min<int64_t>((n + 7) / 8, 65535));
  with_real_layout(ct, [&](auto r, auto c) {
    using R = decltype(r);
    eigh_prepare_grid_kernel<R, decltype(c)::value><<<dim3(grid_batch, col_groups), 256, 0,
                                                      stream>>>(
        reinterpret_cast<R*>(cm.data()), n, lower, bad);
    check_launch("eigh_prepare_kernel");
  });
  const cudaDataType cta = cuda_type(ct), ctw = cuda_type(wt);
  HostWorkspace host_ws;  // lives until the readback below
  const bool host_pinned = false;  // syevd's host workspace is pageable; Xgeev's pinned

  if (method == EigMethod::Syevj) {
    for (int64_t b0 = 0; b0 < batch; b0 += (1 << 30)) {
      const int nb = static_cast<int>(std::min<int64_t>(batch - b0, 1 << 30));
      run_syevj_batched(h.handle, ct, jobz, uplo, static_cast<int>(n),
                        cm.data() + b0 * n * n * cm.itemsize(), w.data() + b0 * n * w.itemsize(),
                        info + b0, nb, stream);
    }
  } else if (method == EigMethod::XsyevBatched) {
    const auto& r = routines();
    const WsKey key{2, n, batch, int(ct), int(jobz), int(uplo), current_device_key()};
    Workspace ws = make_workspace(key, [&] {
      size_t d = 0, hb = 0;
      GPUARR_CUSOLVER_CHECK(r.xsyev_batched_buffer(h.handle, h.params, jobz, uplo, n, cta,
                                                   cm.data(), n, ctw, w.data(), cta, &d, &hb,
                                                   batch));
      return std::pair<size_t, size_t>(d, hb);
    });
    void* hptr = host_ws.get(ws.host_bytes, host_pinned);
    GPUARR_CUSOLVER_CHECK(r.xsyev_batched(h.handle, h.params, jobz, uplo, n, cta, cm.data(), n,
                                          ctw, w.data(), cta, ws.dev->ptr(), ws.dev_bytes,
                                          hptr, ws.host_bytes, info, batch));
  } else {  // Syevd (64-bit API), one call per matrix
    const WsKey key{3, n, 1, int(ct), int(jobz), int(uplo), current_device_key()};
    Workspace ws = make_workspace(key, [&] {
      size_t d = 0, hb = 0;
      GPUARR_CUSOLVER_CHECK(cusolverDnXsyevd_bufferSize(h.handle, h.params, jobz, uplo, n, cta,
                                                        cm.data(), n, ctw, w.data(), cta, &d,
                                                        &hb));
      return std::pair<size_t, size_t>(d, hb);
    });
    void* hptr = host_ws.get(ws.host_bytes, host_pinned);
    const int64_t mat_bytes = n * n * cm.itemsize(), w_bytes = n * w.itemsize();
    for (int64_t b = 0; b < batch; ++b) {
      GPUARR_CUSOLVER_CHECK(cusolverDnXsyevd(h.handle, h.params, jobz, uplo, n, cta,
                                             cm.data() + b * mat_bytes, n, ctw,
                                             w.data() + b * w_bytes, cta, ws.dev->ptr(),
                                             ws.dev_bytes, hptr, ws.host_bytes, info + b));
    }
  }
  with_real_layout(ct, [&](auto r, auto c) {
    using R = decltype(r);
    R* vptr = compute_v ? reinterpret_cast<R*>(cm.data()) : nullptr;
    const unsigned groups = static_cast<unsigned>(
        std::min<int64_t>((n * n * decltype(c)::value + 255) / 256, 1024));
    eigh_poison_grid_kernel<R, decltype(c)::value><<<dim3(grid_batch, groups), 256, 0,
                                                     stream>>>(
        bad, reinterpret_cast<R*>(w.data()), vptr, n);
    check_launch("eigh_poison_kernel");
  });
  // One small readback: any nonzero info (also waits for the host workspace's last use).
  // Not for syevjBatched, which has no host workspace and whose only failure is Jacobi
  // stopping at its sweep limit (100) above the tolerance: its result is then returned as
  // it stands, as the own Jacobi kernel's is at its limit. The readback's wait would cost a
  // queue of small batched calls ~30 us each (the host's next call no longer overlaps
  // the GPU); NaN and inf input is flagged and poisoned above without it.
  if (method != EigMethod::Syevj) {
    res.failed = linalg_detail::any_info_nonzero(info, batch, stream);
  }
  res.w = (out_wt == wt) ? w : copy_array(w, out_wt, 'C');
  // The eigenvectors are the columns of cm's column-major matrices: their transposed view
  // (F order in the last two axes, as CuPy's and PyTorch's eigh return them) needs no copy.
  if (compute_v) res.v = (out_t == ct) ? swap_last_two_axes(cm) : transpose_copy(cm, out_t);
  return res;
}

EigResult eig_solve(const NDArray& a_in, bool compute_v) {
  const SquareStack st = check_square_stack(a_in.shape);
  const DType ct = eigen_compute_dtype(a_in.dtype);
  const DType out_t = eigen_result_dtype(a_in.dtype);
  const bool real_in = !is_complex(ct);
  const DType wct = complex_dtype(real_dtype(ct));  // complex eigenvalues in compute precision
  const int64_t n = st.n, batch = st.batch;
  Dims w_shape = st.batch_shape;
  w_shape.push_back(n);

  EigResult res;
  if (batch == 0 || n == 0) {
    // NumPy: real input gives real (empty) results.
    res.w = empty_array(w_shape, out_t, 'C');
    if (compute_v) res.v = empty_array(a_in.shape, out_t, 'C');
    return res;
  }
  if (!xgeev_available()) {
    // The binding checks first and raises NotImplementedError; this is the backstop.
    throw std::runtime_error(
        "eig/eigvals need cusolverDnXgeev (cuSOLVER >= 11.7.0, CUDA 12.6); the installed "
        "cuSOLVER does not have it");
  }
  const auto& r = routines();
  NDArray cm = transpose_copy(a_in, ct);
  const cudaStream_t stream = stream_for(cm);
  NDArray w = empty_array(w_shape, wct, 'C');
  NDArray vr;
  if (compute_v) vr = empty_array(a_in.shape, ct, 'C');  // column-major per matrix
  CusolverHandles h = cusolver_handle(stream);
  const cusolverEigMode_t jobvr = compute_v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cudaDataType cta = cuda_type(ct), ctw = cuda_type(wct);
  // VL (never computed) and, for eigvals, VR get a valid n x n pointer that is never
  // written, in case a cuSOLVER version checks them for null: a buffer of their own (as
  // CuPy).
  std::shared_ptr<Memory> vr_scratch;
  char* v_base = nullptr;
  int64_t v_step = 0;  // bytes between matrices of v_base
  const int64_t mat_bytes = n * n * cm.itemsize(), w_bytes = n * w.itemsize();
  if (compute_v) {
    v_base = vr.data();
    v_step = mat_bytes;
  } else {
    vr_scratch = allocate_device_memory(size_t(mat_bytes));
    v_base = static_cast<char*>(vr_scratch->ptr());
  }
  const WsKey key{4, n, 1, int(ct), int(jobvr), 0, current_device_key()};
  Workspace ws = make_workspace(key, [&] {
    size_t d = 0, hb = 0;
    GPUARR_CUSOLVER_CHECK(r.xgeev_buffer(h.handle, h.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr,
                                         n, cta, cm.data(), n, ctw, w.data(), cta, v_base, n,
                                         cta, v_base, n, cta, &d, &hb));
    return std::pair<size_t, size_t>(d, hb);
  });
  HostWorkspace host_ws;  // lives until the readback below
  void* hptr = host_ws.get(ws.host_bytes, true);  // pinned, as CuPy
  auto info_mem = allocate_device_memory(sizeof(int) * size_t(batch));
  int* info = static_cast<int*>(info_mem->ptr());
  GPUARR_CUDA_CHECK(cudaMemsetAsync(info, 0, sizeof(int) * size_t(batch), stream));
  for (int64_t b = 0; b < batch; ++b) {
    char* vptr = v_base + b * v_step;
    GPUARR_CUSOLVER_CHECK(r.xgeev(h.handle, h.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n, cta,
                                  cm.data() + b * mat_bytes, n, ctw, w.data() + b * w_bytes,
                                  cta, vptr, n, cta, vptr, n, cta, ws.dev->ptr(), ws.dev_bytes,
                                  hptr, ws.host_bytes, info + b));
  }
  res.failed = linalg_detail::any_info_nonzero(info, batch, stream);

  if (!real_in) {
    res.w = w;
    if (compute_v) res.v = transpose_copy(vr, ct);
    return res;
  }
  // Real input: real results when every eigenvalue is real (NumPy's rule over the whole
  // batch), one small readback.
  auto flag = zeroed_flag(stream);
  const int64_t count = w.size();
  const int threads = 256;
  const unsigned blocks = std::min<unsigned>(grid_for(count, threads).x, 1024);
  const bool is64 = ct == DType::Float64;
  if (is64) {
    any_imag_kernel<double><<<blocks, threads, 0, stream>>>(
        reinterpret_cast<const Complex<double>*>(w.data()), count, static_cast<int*>(flag->ptr()));
  } else {
    any_imag_kernel<float><<<blocks, threads, 0, stream>>>(
        reinterpret_cast<const Complex<float>*>(w.data()), count, static_cast<int*>(flag->ptr()));
  }
  check_launch("any_imag_kernel");
  const bool complex_result = flag_readback(flag, stream) != 0;
  const DType real_out = out_t;  // float16 input -> float16 results (computed in float32)
  if (!complex_result) {
    NDArray re = w;  // the real parts: a strided view of the complex array
    re.dtype = ct;
    re.strides = contiguous_strides(w.shape, w.itemsize(), 'C');
    res.w = copy_array(re, real_out, 'C');
    if (compute_v) res.v = transpose_copy(vr, real_out);
    return res;
  }
  const DType cout_t = complex_dtype(real_out);
  res.w = (cout_t == wct) ? w : copy_array(w, cout_t, 'C');
  if (compute_v) {
    NDArray v = empty_array(a_in.shape, wct, 'C');
    const int64_t total = v.size();
    const unsigned vb = std::min<unsigned>(grid_for(total, threads).x, 65535);
    if (is64) {
      assemble_eigvecs_kernel<double><<<vb, threads, 0, stream>>>(
          reinterpret_cast<const double*>(vr.data()),
          reinterpret_cast<const Complex<double>*>(w.data()),
          reinterpret_cast<Complex<double>*>(v.data()), batch, n);
    } else {
      assemble_eigvecs_kernel<float><<<vb, threads, 0, stream>>>(
          reinterpret_cast<const float*>(vr.data()),
          reinterpret_cast<const Complex<float>*>(w.data()),
          reinterpret_cast<Complex<float>*>(v.data()), batch, n);
    }
    check_launch("assemble_eigvecs_kernel");
    res.v = (cout_t == wct) ? v : copy_array(v, cout_t, 'C');
  }
  return res;
}

}  // namespace gpuarr
