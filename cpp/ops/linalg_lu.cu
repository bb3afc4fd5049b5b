// LU-based linalg: det, slogdet, inv, solve, plus the helpers of linalg_common.cuh.
//
// The C-contiguous copy of A is, per matrix, column-major A^T; its LU gives
// det(A^T) = det(A), inv(A^T) = inv(A)^T (so the column-major inverse read back
// C-contiguously is inv(A)), and getrs with op T solves A x = b.
//
// Routine choice (core/linalg_plan, with the device's core/routing_thresholds): many small
// matrices go through cuBLAS's batched LU (getrfBatched + getriBatched / getrsBatched), one
// kernel for the whole batch, except inv and solve (up to 8 columns) of real matrices up to
// 64 x 64, which are one Gauss-Jordan kernel of ours (ops/small_gauss_jordan.cu). det/slogdet use cuBLAS getrfBatched
// for small matrices even one at a time: they then need only the cuBLAS handle, not the
// cuSOLVER one, whose creation costs a large part of a first det in a fresh process.
// Larger ones: cusolverDnXgetrf per matrix, or for float32/float64 our blocked LU
// (ops/lu_blocked.cuh, faster at every n it supports); inv then solves U X = L^-1 P^T I
// with two cuBLAS trsm, solve with Xgetrs.
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"
#include "core/promotion.hpp"
#include "ops/array_ops.hpp"
#include "ops/device_types.cuh"
#include "ops/kernels.hpp"
#include "ops/linalg.hpp"
#include "ops/linalg_common.cuh"
#include "ops/lu_blocked.cuh"
#include "ops/strided.cuh"
#include "runtime/config.hpp"
#include "runtime/cublas_handle.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/cusolver_handle.hpp"
#include "runtime/device.hpp"
#include "runtime/device_routing.hpp"

namespace gpuarr {
namespace linalg_detail {
namespace {

// out[i] = base + i * stride, then out[count + i] = base2 + i * stride2 where base2 is set.
__global__ void pointer_array_kernel(void** out, char* base, int64_t stride, char* base2,
                                     int64_t stride2, int64_t count) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = base + i * stride;
    if (base2) out[count + i] = base2 + i * stride2;
  }
}

template <class T>
__device__ bool is_finite_value(T v) {
  if constexpr (std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>) {
    return isfinite(v.re) && isfinite(v.im);
  } else {
    return isfinite(v);
  }
}

// out[0]: the info[i] > 0 count plus the non-finite vals[b * bstride + j * estride]
// (j < count); out[1], where `flags` is set: the count of its nonzero entries (batch).
template <class T>
__global__ void count_failed_kernel(const int* info, int64_t batch, const T* vals,
                                    int64_t bstride, int64_t estride, int64_t count,
                                    const int* flags, int* out) {
  __shared__ int partial[2][256];
  int c = 0, f = 0;
  for (int64_t i = threadIdx.x; i < batch; i += blockDim.x) {
    c += info[i] > 0 ? 1 : 0;
    if (flags) f += flags[i] != 0 ? 1 : 0;
  }
  if (vals) {
    const int64_t total = batch * count;
    for (int64_t i = threadIdx.x; i < total; i += blockDim.x) {
      const int64_t b = i / count, j = i % count;
      c += is_finite_value(vals[b * bstride + j * estride]) ? 0 : 1;
    }
  }
  partial[0][threadIdx.x] = c;
  partial[1][threadIdx.x] = f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      partial[0][threadIdx.x] += partial[0][threadIdx.x + s];
      partial[1][threadIdx.x] += partial[1][threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    out[0] = partial[0][0];
    if (flags) out[1] = partial[1][0];
  }
}

void launch_count_failed(const int* info, int64_t batch, const FiniteCheck* check,
                         const int* flags, int* out, cudaStream_t stream) {
  if (!check || !check->data) {
    count_failed_kernel<float><<<1, 256, 0, stream>>>(info, batch, nullptr, 0, 0, 0, flags, out);
  } else {
    dispatch_dtype(check->dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>) {
        count_failed_kernel<T><<<1, 256, 0, stream>>>(
            info, batch, reinterpret_cast<const T*>(check->data), check->batch_stride,
            check->elem_stride, check->count, flags, out);
      } else {
        throw TypeError("count_failed: unsupported dtype");
      }
    });
  }
  check_launch("count_failed_kernel");
}

// out = 1 (out zeroed first) if any info[i] is nonzero.
__global__ void any_nonzero_kernel(const int* __restrict__ info, int64_t n, int* out) {
  int found = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    found |= (info[i] != 0);
  }
  found = __syncthreads_or(found);
  if (found && threadIdx.x == 0) atomicOr(out, 1);
}

template <class T>
__device__ T one_value();
template <> __device__ float one_value<float>() { return 1.0f; }
template <> __device__ double one_value<double>() { return 1.0; }
template <> __device__ complex64_t one_value<complex64_t>() { return {1.0f, 0.0f}; }
template <> __device__ complex128_t one_value<complex128_t>() { return {1.0, 0.0}; }

template <class T>
__global__ void identity_kernel(T* data, int64_t total, int64_t n) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < total;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t j = e % n;
    const int64_t i = (e / n) % n;
    data[e] = i == j ? one_value<T>() : T{};
  }
}

}  // namespace

void** device_pointer_array(std::shared_ptr<Memory>& storage, char* base, int64_t stride_bytes,
                            int64_t count, cudaStream_t stream, char* base2,
                            int64_t stride2_bytes) {
  const int64_t arrays = base2 ? 2 : 1;
  storage = allocate_device_memory(static_cast<size_t>(std::max<int64_t>(count, 1) * arrays) *
                                   sizeof(void*));
  void** out = static_cast<void**>(storage->ptr());
  pointer_array_kernel<<<grid_for(count, 256), 256, 0, stream>>>(out, base, stride_bytes, base2,
                                                                 stride2_bytes, count);
  check_launch("pointer_array_kernel");
  return out;
}

int64_t count_positive_info(const int* info, int64_t count, cudaStream_t stream,
                            const FiniteCheck* check, const int* flags, int64_t* flagged) {
  auto counts = allocate_device_memory(2 * sizeof(int));
  launch_count_failed(info, count, check, flags, static_cast<int*>(counts->ptr()), stream);
  int host[2] = {0, 0};
  read_small_device_bytes(host, counts->ptr(), (flags ? 2 : 1) * sizeof(int), stream);
  if (flagged) *flagged = flags ? host[1] : 0;
  return host[0];
}

bool any_info_nonzero(const int* info, int64_t count, cudaStream_t stream) {
  auto flag = allocate_device_memory(sizeof(int));
  GPUARR_CUDA_CHECK(cudaMemsetAsync(flag->ptr(), 0, sizeof(int), stream));
  if (count > 0) {
    const dim3 grid(std::min(grid_for(count, 256).x, 1024u));
    any_nonzero_kernel<<<grid, 256, 0, stream>>>(info, count, static_cast<int*>(flag->ptr()));
    check_launch("any_nonzero_kernel");
  }
  int host = 0;
  read_small_device_bytes(&host, flag->ptr(), sizeof(int), stream);
  return host != 0;
}

namespace {
// A ring of pinned int pairs per device for PendingInfoCount (a slot is reused only after
// 4096 later calls, and every call waits for its slot before returning).
constexpr int kInfoSlots = 4096;
int* info_slot() {
  static std::mutex mutex;
  static int* rings[kMaxDevices] = {};
  static unsigned counters[kMaxDevices] = {};
  const int dev = current_device();
  std::lock_guard<std::mutex> lock(mutex);
  if (!rings[dev]) {
    void* p = nullptr;
    GPUARR_CUDA_CHECK(cudaHostAlloc(&p, 2 * kInfoSlots * sizeof(int), cudaHostAllocPortable));
    rings[dev] = static_cast<int*>(p);  // kept until exit
  }
  return rings[dev] + 2 * (counters[dev]++ % kInfoSlots);
}
}  // namespace

std::unique_ptr<PendingInfoCount> enqueue_info_count(const int* info, int64_t count,
                                                     cudaStream_t stream,
                                                     const FiniteCheck* check,
                                                     const int* flags) {
  auto p = std::make_unique<PendingInfoCount>();
  p->device_count = allocate_device_memory(2 * sizeof(int));
  int* dcount = static_cast<int*>(p->device_count->ptr());
  launch_count_failed(info, count, check, flags, dcount, stream);
  p->host_slot = info_slot();
  p->has_flags = flags != nullptr;
  GPUARR_CUDA_CHECK(cudaMemcpyAsync(p->host_slot, dcount, (flags ? 2 : 1) * sizeof(int),
                                    cudaMemcpyDeviceToHost, stream));
  GPUARR_CUDA_CHECK(cudaEventCreateWithFlags(&p->event, cudaEventDisableTiming));
  GPUARR_CUDA_CHECK(cudaEventRecord(p->event, stream));
  return p;
}

int64_t PendingInfoCount::wait() {
  GPUARR_CUDA_CHECK(cudaEventSynchronize(event));
  return *static_cast<volatile int*>(host_slot);
}

int64_t PendingInfoCount::flagged() const {
  return has_flags ? *static_cast<volatile int*>(host_slot + 1) : 0;
}

PendingInfoCount::~PendingInfoCount() {
  if (event) cudaEventDestroy(event);
}

void* host_workspace(size_t bytes) {
  if (bytes == 0) return nullptr;
  // Per thread, grow-only; a replaced buffer is kept too (work queued earlier may still
  // refer to it). Host workspaces of the 64-bit API are small (usually 0 bytes).
  thread_local std::vector<std::unique_ptr<char[]>> buffers;
  thread_local size_t size = 0;
  if (bytes > size) {
    buffers.emplace_back(new char[bytes]);
    size = bytes;
  }
  return buffers.back().get();
}

void launch_identity(char* data, int64_t batch, int64_t n, DType t, cudaStream_t stream) {
  const int64_t total = batch * n * n;
  if (total == 0) return;
  dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>) {
      identity_kernel<T><<<grid_for(total, 256), 256, 0, stream>>>(reinterpret_cast<T*>(data),
                                                                   total, n);
      check_launch("identity_kernel");
    } else {
      throw TypeError("launch_identity: unsupported dtype");
    }
  });
}

}  // namespace linalg_detail

using namespace linalg_detail;

namespace {

// inv/solve's singular check, read right after getrf (an event right after it, the solve
// already queued) instead of after everything, so that the host returns as soon as the
// factorization is known to be non-singular: on the batched route, and from
// GPUARR_INV_EARLY_MIN_N (runtime/config, default 512) on. Null: read it after everything
// (count_positive_info).
// `nan_flags`: NanMatrices' flags, counted in the same read.
std::unique_ptr<PendingInfoCount> early_info_count(const int* info, int64_t batch, int64_t n,
                                                   bool batched, const int* nan_flags,
                                                   cudaStream_t stream) {
  if (!batched && n < config::inv_early_min_n.get()) return nullptr;
  return enqueue_info_count(info, batch, stream, nullptr, nan_flags);
}

// ---- typed cuBLAS batched LU ----
cublasStatus_t getrf_batched(cublasHandle_t h, int n, float* p, void** a, int* piv, int* info, int b) {
  return cublasSgetrfBatched(h, n, reinterpret_cast<float**>(a), n, piv, info, b);
}
cublasStatus_t getrf_batched(cublasHandle_t h, int n, double* p, void** a, int* piv, int* info, int b) {
  return cublasDgetrfBatched(h, n, reinterpret_cast<double**>(a), n, piv, info, b);
}
cublasStatus_t getrf_batched(cublasHandle_t h, int n, cuComplex* p, void** a, int* piv, int* info, int b) {
  return cublasCgetrfBatched(h, n, reinterpret_cast<cuComplex**>(a), n, piv, info, b);
}
cublasStatus_t getrf_batched(cublasHandle_t h, int n, cuDoubleComplex* p, void** a, int* piv, int* info, int b) {
  return cublasZgetrfBatched(h, n, reinterpret_cast<cuDoubleComplex**>(a), n, piv, info, b);
}
template <class T>
cublasStatus_t getri_batched(cublasHandle_t h, int n, T*, void** a, const int* piv, void** c,
                             int* info, int b) {
  if constexpr (std::is_same_v<T, float>)
    return cublasSgetriBatched(h, n, reinterpret_cast<const float* const*>(a), n, piv,
                               reinterpret_cast<float* const*>(c), n, info, b);
  else if constexpr (std::is_same_v<T, double>)
    return cublasDgetriBatched(h, n, reinterpret_cast<const double* const*>(a), n, piv,
                               reinterpret_cast<double* const*>(c), n, info, b);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cublasCgetriBatched(h, n, reinterpret_cast<const cuComplex* const*>(a), n, piv,
                               reinterpret_cast<cuComplex* const*>(c), n, info, b);
  else
    return cublasZgetriBatched(h, n, reinterpret_cast<const cuDoubleComplex* const*>(a), n, piv,
                               reinterpret_cast<cuDoubleComplex* const*>(c), n, info, b);
}
template <class T>
cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int nrhs, T*,
                             void** a, const int* piv, void** bp, int* info, int b) {
  if constexpr (std::is_same_v<T, float>)
    return cublasSgetrsBatched(h, op, n, nrhs, reinterpret_cast<const float* const*>(a), n, piv,
                               reinterpret_cast<float* const*>(bp), n, info, b);
  else if constexpr (std::is_same_v<T, double>)
    return cublasDgetrsBatched(h, op, n, nrhs, reinterpret_cast<const double* const*>(a), n, piv,
                               reinterpret_cast<double* const*>(bp), n, info, b);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cublasCgetrsBatched(h, op, n, nrhs, reinterpret_cast<const cuComplex* const*>(a), n,
                               piv, reinterpret_cast<cuComplex* const*>(bp), n, info, b);
  else
    return cublasZgetrsBatched(h, op, n, nrhs, reinterpret_cast<const cuDoubleComplex* const*>(a),
                               n, piv, reinterpret_cast<cuDoubleComplex* const*>(bp), n, info, b);
}

void check_int_range(int64_t v) {
  if (v > INT32_MAX) throw ValueError("linalg: dimension or batch too large for batched cuBLAS");
}

// out (column-major, zeroed) = P^T I for getrf's pivots: the row interchanges k <-> piv[k]-1
// applied in order to the rows of I, as getrs applies them to its right-hand side. Row k
// then holds e_{sigma[k]}; sigma is built by one thread (the swaps are sequential) in
// shared memory, or in `scratch` when n does not fit there.
template <class T>
__global__ void permuted_identity_kernel(T* out, const int64_t* piv, int64_t n, int* scratch) {
  extern __shared__ int shared_sigma[];
  int* sigma = scratch ? scratch : shared_sigma;
  for (int64_t k = threadIdx.x; k < n; k += blockDim.x) sigma[k] = static_cast<int>(k);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int64_t k = 0; k < n; ++k) {
      const int64_t p = piv[k] - 1;
      if (p != k) {
        const int t = sigma[k];
        sigma[k] = sigma[p];
        sigma[p] = t;
      }
    }
  }
  __syncthreads();
  for (int64_t k = threadIdx.x; k < n; k += blockDim.x) out[sigma[k] * n + k] = one_value<T>();
}

constexpr int64_t kSigmaSharedMaxN = 12288;  // 48 KB of int, the default shared-memory limit

void launch_permuted_identity(DType t, char* out, const int64_t* piv, int64_t n,
                              cudaStream_t stream) {
  const size_t item = static_cast<size_t>(itemsize(t));
  GPUARR_CUDA_CHECK(cudaMemsetAsync(out, 0, static_cast<size_t>(n * n) * item, stream));
  std::shared_ptr<Memory> scratch;
  size_t shared = 0;
  if (n > kSigmaSharedMaxN) {
    scratch = allocate_device_memory(static_cast<size_t>(n) * sizeof(int));
  } else {
    shared = static_cast<size_t>(n) * sizeof(int);
  }
  int* sigma = scratch ? static_cast<int*>(scratch->ptr()) : nullptr;
  dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>) {
      permuted_identity_kernel<T>
          <<<1, 512, shared, stream>>>(reinterpret_cast<T*>(out), piv, n, sigma);
      check_launch("permuted_identity_kernel");
    } else {
      throw TypeError("launch_permuted_identity: unsupported dtype");
    }
  });
}

// inv of one LU-factored matrix (column-major, cuSOLVER's int64 pivots) into out:
// U^-1 L^-1 (P^T I).
void inverse_from_lu(DType t, const char* lu, const int64_t* piv, int64_t n, char* out,
                     cudaStream_t stream) {
  check_int_range(n);
  cublasHandle_t h = cublas_handle(stream);
  launch_permuted_identity(t, out, piv, n, stream);
  dispatch_lapack(t, [&](auto* tp) {
    using L = std::remove_pointer_t<decltype(tp)>;
    const L* a = reinterpret_cast<const L*>(lu);
    L* b = reinterpret_cast<L*>(out);
    const int ni = static_cast<int>(n);
    GPUARR_CUBLAS_CHECK(
        trsm_left(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, ni, ni, a, ni, b, ni));
    GPUARR_CUBLAS_CHECK(
        trsm_left(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, ni, ni, a, ni, b, ni));
  });
}

// Xgetrs on each of `batch` LU-factored matrices (cuSOLVER's int64 pivots), nrhs columns
// of right-hand side per matrix, overwritten with the solution.
void getrs_per_matrix(DType t, cublasOperation_t op, const char* lu, int64_t mat_bytes,
                      const int64_t* piv, int64_t n, char* rhs, int64_t rhs_bytes, int64_t nrhs,
                      int64_t batch, cudaStream_t stream) {
  CusolverHandles h = cusolver_handle(stream);
  const cudaDataType ct = cuda_type(t);
  auto rs_info = allocate_device_memory(sizeof(int));
  for (int64_t i = 0; i < batch; ++i) {
    GPUARR_CUSOLVER_CHECK(cusolverDnXgetrs(h.handle, h.params, op, n, nrhs, ct,
                                           lu + i * mat_bytes, n, piv + i * n, ct,
                                           rhs + i * rhs_bytes, n,
                                           static_cast<int*>(rs_info->ptr())));
  }
}

struct Lu {
  std::shared_ptr<Memory> pivots;  // int32 (cuBLAS) or int64 (cuSOLVER), n per matrix
  bool pivots64 = false;
  std::shared_ptr<Memory> info;    // int32, one per matrix
  std::shared_ptr<Memory> ptrs;    // cuBLAS path: the pointer arrays of `work` and `result`
  void** work_ptrs = nullptr;
  void** result_ptrs = nullptr;
};

// Where the batched cuBLAS route's second call (getri, getrs) writes: `result_ptrs` is
// built in the same launch as `work_ptrs`.
struct BatchResult {
  char* base = nullptr;
  int64_t stride_bytes = 0;
};

// GPUARR_LU_ROUTE=cusolver: cuSOLVER Xgetrf instead of our blocked LU.
OwnLuMode own_lu_mode() {
  return config::lu_route.get() == config::LuRouteChoice::Cusolver ? OwnLuMode::Never
                                                                   : OwnLuMode::Rule;
}

// The largest n our blocked LU runs on the current device (0: none), found once per device
// and dtype (it also sets the kernel's cluster attribute there).
int64_t own_lu_max_n(DType t) {
  static std::mutex mu;
  static std::atomic<int> found[2 * kMaxDevices];  // the limit + 1; 0: not found yet
  std::atomic<int>& slot = found[2 * current_device() + (t == DType::Float64 ? 1 : 0)];
  int v = slot.load(std::memory_order_acquire);
  if (v > 0) return v - 1;
  std::lock_guard<std::mutex> lock(mu);  // configured once per slot, not locked per call
  v = slot.load(std::memory_order_relaxed);
  if (v == 0) {
    v = 1 + (t == DType::Float64 ? lu_blocked::configure_panel_kernel<double>()
                                 : lu_blocked::configure_panel_kernel<float>());
    slot.store(v, std::memory_order_release);
  }
  return v - 1;
}

// LU factors of the C-contiguous `work` (.., n, n) (column-major A^T per matrix), in place.
// swap_left: the L factor is used (inv, solve), not only U's diagonal and the pivots (det).
Lu lu_factor(const NDArray& work, int64_t batch, int64_t n, bool use_cublas, bool swap_left,
             cudaStream_t stream, BatchResult result = {}) {
  Lu lu;
  const DType t = work.dtype;
  const int64_t mat_bytes = n * n * work.itemsize();
  lu.info = allocate_device_memory(static_cast<size_t>(batch) * sizeof(int));
  int* info = static_cast<int*>(lu.info->ptr());
  if (use_cublas) {
    check_int_range(n);
    check_int_range(batch);
    lu.pivots = allocate_device_memory(static_cast<size_t>(batch * n) * sizeof(int));
    lu.work_ptrs = device_pointer_array(lu.ptrs, work.data(), mat_bytes, batch, stream,
                                        result.base, result.stride_bytes);
    if (result.base) lu.result_ptrs = lu.work_ptrs + batch;
    cublasHandle_t h = cublas_handle(stream);
    dispatch_lapack(t, [&](auto* tp) {
      GPUARR_CUBLAS_CHECK(getrf_batched(h, static_cast<int>(n), tp, lu.work_ptrs,
                                        static_cast<int*>(lu.pivots->ptr()), info,
                                        static_cast<int>(batch)));
    });
    return lu;
  }
  lu.pivots64 = true;
  lu.pivots = allocate_device_memory(static_cast<size_t>(batch * n) * sizeof(int64_t));
  const bool real = t == DType::Float32 || t == DType::Float64;
  if (use_own_lu(n, real, real ? own_lu_max_n(t) : 0, own_lu_mode())) {
    cublasHandle_t h = cublas_handle(stream);
    int64_t* piv = static_cast<int64_t*>(lu.pivots->ptr());
    auto run = [&](auto* tp) {
      using T = std::remove_pointer_t<decltype(tp)>;
      constexpr int kPanel = lu_blocked::PanelWidth<T>::value;
      auto moves = allocate_device_memory(lu_blocked::moves_ints<T>() * sizeof(int));
      const int outer = static_cast<int>(own_lu_outer_block(n, kPanel, device_routing_thresholds()));
      for (int64_t i = 0; i < batch; ++i)
        lu_blocked::factor<T>(reinterpret_cast<T*>(work.data() + i * mat_bytes), n, piv + i * n,
                              info + i, static_cast<int*>(moves->ptr()), swap_left, outer, h,
                              stream);
    };
    if (t == DType::Float64) {
      run(static_cast<double*>(nullptr));
    } else {
      run(static_cast<float*>(nullptr));
    }
    return lu;
  }
  CusolverHandles h = cusolver_handle(stream);
  const cudaDataType ct = cuda_type(t);
  auto [dev_bytes, host_bytes] = cached_workspace(
      {current_device(), kGetrf, n, n, 0, static_cast<int>(t)}, [&] {
        size_t d = 0, hb = 0;
        GPUARR_CUSOLVER_CHECK(cusolverDnXgetrf_bufferSize(h.handle, h.params, n, n, ct,
                                                          work.data(), n, ct, &d, &hb));
        return std::make_pair(d, hb);
      });
  auto ws = allocate_device_memory(std::max<size_t>(dev_bytes, 16));
  void* host_ws = host_workspace(host_bytes);  // kept alive: no stream sync needed
  int64_t* piv = static_cast<int64_t*>(lu.pivots->ptr());
  for (int64_t i = 0; i < batch; ++i) {
    GPUARR_CUSOLVER_CHECK(cusolverDnXgetrf(h.handle, h.params, n, n, ct,
                                           work.data() + i * mat_bytes, n, piv + i * n, ct,
                                           ws->ptr(), dev_bytes, host_ws, host_bytes,
                                           info + i));
  }
  return lu;
}

// ---- det / slogdet from the LU diagonal and pivots: one block per matrix ----
template <class T> struct Real { using type = T; };
template <> struct Real<complex64_t> { using type = float; };
template <> struct Real<complex128_t> { using type = double; };
template <class T> constexpr bool kIsComplex = std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>;

constexpr int kDetThreads = 128;

template <class T, class Piv>
__global__ void lu_det_kernel(const T* lu, const Piv* piv, const int* info, int64_t n,
                              T* det, T* sign_out, typename Real<T>::type* logabs_out) {
  using R = typename Real<T>::type;
  const int64_t b = blockIdx.x;
  const T* m = lu + b * n * n;
  const Piv* p = piv + b * n;
  __shared__ double s_log[kDetThreads];
  __shared__ double s_re[kDetThreads];
  __shared__ double s_im[kDetThreads];
  double lg = 0.0, re = 1.0, im = 0.0;  // running sign: re + i im (real: +-1)
  const bool singular = n > 0 && info[b] > 0;
  if (!singular) {
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const T d = m[j * n + j];
      double flip = (static_cast<int64_t>(p[j]) != j + 1) ? -1.0 : 1.0;
      if constexpr (kIsComplex<T>) {
        const double dr = d.re, di = d.im;
        const double a = hypot(dr, di);
        lg += log(a);
        const double ur = dr / a * flip, ui = di / a * flip;
        const double nr = re * ur - im * ui, ni = re * ui + im * ur;
        re = nr;
        im = ni;
      } else {
        const double dv = static_cast<double>(d);
        lg += log(fabs(dv));
        if (dv < 0) flip = -flip;
        re *= flip;
      }
    }
  }
  s_log[threadIdx.x] = lg;
  s_re[threadIdx.x] = re;
  s_im[threadIdx.x] = im;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      const int o = threadIdx.x + s;
      s_log[threadIdx.x] += s_log[o];
      const double ar = s_re[threadIdx.x], ai = s_im[threadIdx.x];
      const double br = s_re[o], bi = s_im[o];
      s_re[threadIdx.x] = ar * br - ai * bi;
      s_im[threadIdx.x] = ar * bi + ai * br;
    }
    __syncthreads();
  }
  if (threadIdx.x != 0) return;
  double lgt = s_log[0], sr = s_re[0], si = s_im[0];
  if (singular) {
    lgt = -INFINITY;
    sr = 0.0;
    si = 0.0;
  }
  if constexpr (kIsComplex<T>) {
    // Renormalise the accumulated unit product (rounding drift), as a unit sign.
    if (!singular) {
      const double a = hypot(sr, si);
      if (a > 0) { sr /= a; si /= a; }
    }
    if (det) {
      const double e = exp(lgt);
      det[b] = T{static_cast<R>(sr * e), static_cast<R>(si * e)};
    } else {
      sign_out[b] = T{static_cast<R>(sr), static_cast<R>(si)};
      logabs_out[b] = static_cast<R>(lgt);
    }
  } else {
    if (det) {
      det[b] = static_cast<T>(sr * exp(lgt));
    } else {
      sign_out[b] = static_cast<T>(sr);
      logabs_out[b] = static_cast<R>(lgt);
    }
  }
}

template <class T>
void launch_det(const NDArray& work, const Lu& lu, int64_t batch, int64_t n, char* det,
                char* sign, char* logabs, cudaStream_t stream) {
  using R = typename Real<T>::type;
  const T* m = reinterpret_cast<const T*>(work.data());
  const int* info = static_cast<const int*>(lu.info ? lu.info->ptr() : nullptr);
  // batch <= 2^31 - 1 blocks on the x dimension.
  if (lu.pivots64) {
    lu_det_kernel<T, int64_t><<<static_cast<unsigned>(batch), kDetThreads, 0, stream>>>(
        m, static_cast<const int64_t*>(lu.pivots->ptr()), info, n, reinterpret_cast<T*>(det),
        reinterpret_cast<T*>(sign), reinterpret_cast<R*>(logabs));
  } else {
    lu_det_kernel<T, int><<<static_cast<unsigned>(batch), kDetThreads, 0, stream>>>(
        m, static_cast<const int*>(lu.pivots->ptr()), info, n, reinterpret_cast<T*>(det),
        reinterpret_cast<T*>(sign), reinterpret_cast<R*>(logabs));
  }
  check_launch("lu_det_kernel");
}

void det_common(const NDArray& a, char* det, char* sign, char* logabs) {
  const int64_t n = a.shape.back();
  const int64_t batch = batch_count(a);
  if (batch == 0) return;
  const cudaStream_t stream = stream_for(a);
  NDArray work = n > 0 ? copy_array(a, a.dtype, 'C') : a;
  Lu lu;
  if (n > 0) {
    lu = lu_factor(work, batch, n,
                   choose_lu_route(n, batch, LuPurpose::Det, config::det_cublas_max_n.get(),
                                   device_routing_thresholds()) ==
                       LuRoute::CublasBatched,
                   false, stream);
  } else {
    lu.info = allocate_device_memory(static_cast<size_t>(batch) * sizeof(int));
    GPUARR_CUDA_CHECK(cudaMemsetAsync(lu.info->ptr(), 0, batch * sizeof(int), stream));
    lu.pivots = lu.info;  // never read for n == 0
    work = empty_array({1}, a.dtype, 'C');
  }
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || kIsComplex<T>) {
      launch_det<T>(work, lu, batch, n, det, sign, logabs, stream);
    } else {
      throw TypeError("linalg: unsupported dtype");
    }
  });
}

// inv/solve's NaN rule (as LAPACK gives: cuSOLVER's pivoting can step over a NaN and
// return finite values): the matrices of the input with a NaN, flagged before the
// factorisation overwrites them, give all-NaN results. Two light passes on the stream
// instead of isnan/any/where in Python (a full-size temporary); matrices on blockIdx.y and
// their elements on the x blocks' threads (rows_grid), so no element divides its index.
template <class T>
__device__ __forceinline__ bool is_nan_value(T v) {
  if constexpr (kIsComplex<T>) {
    return isnan(v.re) || isnan(v.im);
  } else {
    return isnan(v);
  }
}

// With one block a matrix (gridDim.x == 1) each flag is stored, 0 or 1; otherwise the flags
// start zeroed and a block finding a NaN sets its matrix's.
template <class T>
__global__ void nan_flag_kernel(const T* data, int64_t batch, int64_t mat, int* flags) {
  for (int64_t b = blockIdx.y; b < batch; b += gridDim.y) {
    const T* m = data + b * mat;
    bool any = false;
    for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < mat;
         j += int64_t(gridDim.x) * blockDim.x)
      any |= is_nan_value(m[j]);
    any = __syncthreads_or(any);
    if (threadIdx.x == 0 && (any || gridDim.x == 1)) flags[b] = any ? 1 : 0;
  }
}

template <class T>
__global__ void nan_fill_kernel(T* data, int64_t batch, int64_t mat, const int* flags) {
  T nan;
  if constexpr (kIsComplex<T>) {
    using R = typename Real<T>::type;
    nan = T{static_cast<R>(NAN), R(0)};
  } else {
    nan = static_cast<T>(NAN);
  }
  for (int64_t b = blockIdx.y; b < batch; b += gridDim.y) {
    if (!flags[b]) continue;
    T* m = data + b * mat;
    for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < mat;
         j += int64_t(gridDim.x) * blockDim.x)
      m[j] = nan;
  }
}

template <class F>
void dispatch_nan_rule_dtype(DType t, F&& f) {
  dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || kIsComplex<T>) {
      f(static_cast<T*>(nullptr));
    } else {
      throw TypeError("linalg: unsupported dtype");
    }
  });
}

// Flags the matrices of `input` (batch C-contiguous matrices of `mat` elements) that hold a
// NaN, when `on`; fill() then sets the flagged matrices' results to NaN. The singular
// check's read-back also counts the flags (flags()), so that fill() is launched only where
// one is set.
class NanMatrices {
 public:
  NanMatrices(bool on, const char* input, int64_t batch, int64_t mat, DType t,
              cudaStream_t stream)
      : batch_(on ? batch : 0), dtype_(t), stream_(stream) {
    if (batch_ == 0 || mat == 0) return;
    flags_ = allocate_device_memory(static_cast<size_t>(batch_) * sizeof(int));
    int* flags = static_cast<int*>(flags_->ptr());
    // Matrices of up to kOneBlockMat elements (the batched route's) take one block each,
    // which stores every flag: no memset first.
    constexpr int64_t kOneBlockMat = 8192;
    const dim3 grid = mat <= kOneBlockMat
                          ? dim3(1, static_cast<unsigned>(std::min<int64_t>(batch_, 65535)))
                          : rows_grid(batch_, mat, 256);
    if (grid.x > 1)
      GPUARR_CUDA_CHECK(
          cudaMemsetAsync(flags, 0, static_cast<size_t>(batch_) * sizeof(int), stream));
    dispatch_nan_rule_dtype(t, [&](auto* tp) {
      using T = std::remove_pointer_t<decltype(tp)>;
      nan_flag_kernel<T><<<grid, 256, 0, stream>>>(reinterpret_cast<const T*>(input), batch_,
                                                   mat, flags);
      check_launch("nan_flag_kernel");
    });
  }

  // The flags (batch ints) or null when off.
  const int* flags() const { return flags_ ? static_cast<const int*>(flags_->ptr()) : nullptr; }

  // The results: `mat` elements a matrix at `out`. `flagged`: the count of set flags where
  // read back (0: nothing to fill), or -1 where unknown.
  void fill(char* out, int64_t mat, int64_t flagged = -1) const {
    if (!flags_ || mat == 0 || flagged == 0) return;
    dispatch_nan_rule_dtype(dtype_, [&](auto* tp) {
      using T = std::remove_pointer_t<decltype(tp)>;
      nan_fill_kernel<T><<<rows_grid(batch_, mat, 256), 256, 0, stream_>>>(
          reinterpret_cast<T*>(out), batch_, mat, static_cast<const int*>(flags_->ptr()));
      check_launch("nan_fill_kernel");
    });
  }

 private:
  std::shared_ptr<Memory> flags_;
  int64_t batch_;
  DType dtype_;
  cudaStream_t stream_;
};

void check_square_float(const NDArray& a) {
  if (a.ndim() < 2 || a.shape[a.ndim() - 1] != a.shape[a.ndim() - 2])
    throw LinAlgError("Last 2 dimensions of the array must be square");
  if (!is_float(a.dtype) && !is_complex(a.dtype)) throw TypeError("linalg: compute dtype expected");
  if (a.dtype == DType::Float16) throw TypeError("array type float16 is unsupported in linalg");
}

}  // namespace

NDArray linalg_det(const NDArray& a) {
  check_square_float(a);
  NDArray out = empty_array(batch_shape(a), a.dtype, 'C');
  det_common(a, out.data(), nullptr, nullptr);
  return out;
}

std::pair<NDArray, NDArray> linalg_slogdet(const NDArray& a) {
  check_square_float(a);
  NDArray sign = empty_array(batch_shape(a), a.dtype, 'C');
  NDArray logabs = empty_array(batch_shape(a), real_dtype(a.dtype), 'C');
  det_common(a, nullptr, sign.data(), logabs.data());
  return {sign, logabs};
}

NDArray linalg_inv(const NDArray& a, bool check, bool nan_fill) {
  check_square_float(a);
  const int64_t n = a.shape.back();
  const int64_t batch = batch_count(a);
  NDArray out = empty_array(a.shape, a.dtype, 'C');
  if (batch == 0 || n == 0) return out;
  const cudaStream_t stream = stream_for(out);
  if (use_small_inverse(n, a.dtype, own_lu_mode())) {
    // One kernel; matrices with a NaN and singular ones give NaN (nan_fill's rule).
    const NDArray in = a.c_contiguous() ? a : copy_array(a, a.dtype, 'C');
    std::shared_ptr<Memory> info;
    if (check) info = allocate_device_memory(static_cast<size_t>(batch) * sizeof(int));
    int* info_ptr = info ? static_cast<int*>(info->ptr()) : nullptr;
    launch_small_inverse(a.dtype, in.data(), out.data(), info_ptr, batch, n, stream);
    if (check && count_positive_info(info_ptr, batch, stream, nullptr, nullptr, nullptr) > 0)
      throw LinAlgError("Singular matrix");
    return out;
  }
  NDArray work = copy_array(a, a.dtype, 'C');
  const int64_t mat_bytes = n * n * work.itemsize();
  const NanMatrices nan_inputs(nan_fill, work.data(), batch, n * n, a.dtype, stream);
  const bool batched =
      choose_lu_route(n, batch, LuPurpose::InvSolve, 0, device_routing_thresholds()) == LuRoute::CublasBatched;
  Lu lu = lu_factor(work, batch, n, batched, true, stream, {out.data(), mat_bytes});
  // Only exact zero pivots count: NaN/inf input gives NaN output, as NumPy does in most
  // cases (its LinAlgError there depends on LAPACK raising the FP invalid flag).
  const FiniteCheck* diag = nullptr;
  std::unique_ptr<PendingInfoCount> early;
  if (check)
    early = early_info_count(static_cast<const int*>(lu.info->ptr()), batch, n, batched,
                             nan_inputs.flags(), stream);
  if (batched) {
    auto getri_info = allocate_device_memory(static_cast<size_t>(batch) * sizeof(int));
    cublasHandle_t h = cublas_handle(stream);
    dispatch_lapack(a.dtype, [&](auto* tp) {
      GPUARR_CUBLAS_CHECK(getri_batched(h, static_cast<int>(n), tp, lu.work_ptrs,
                                        static_cast<const int*>(lu.pivots->ptr()),
                                        lu.result_ptrs, static_cast<int*>(getri_info->ptr()),
                                        static_cast<int>(batch)));
    });
  } else {
    const int64_t* piv = static_cast<const int64_t*>(lu.pivots->ptr());
    for (int64_t i = 0; i < batch; ++i)
      inverse_from_lu(a.dtype, work.data() + i * mat_bytes, piv + i * n, n,
                      out.data() + i * mat_bytes, stream);
  }
  if (early) {
    if (early->wait() > 0) throw LinAlgError("Singular matrix");
    nan_inputs.fill(out.data(), n * n, early->flagged());
  } else if (check) {
    int64_t flagged = 0;
    if (count_positive_info(static_cast<const int*>(lu.info->ptr()), batch, stream, diag,
                            nan_inputs.flags(), &flagged) > 0)
      throw LinAlgError("Singular matrix");
    nan_inputs.fill(out.data(), n * n, flagged);
  } else {
    nan_inputs.fill(out.data(), n * n);
  }
  return out;
}

NDArray linalg_solve(const NDArray& a, const NDArray& b, bool nan_fill) {
  check_square_float(a);
  const int64_t n = a.shape.back();
  const int64_t k = b.shape.back();
  const int64_t batch = batch_count(a);
  if (use_small_solve(n, k, a.dtype, own_lu_mode())) {
    // One kernel; matrices with a NaN and singular ones give NaN (nan_fill's rule).
    NDArray x = empty_array(b.shape, a.dtype, 'C');
    if (batch == 0) return x;
    const cudaStream_t stream = stream_for(x);
    const NDArray ac = a.c_contiguous() ? a : copy_array(a, a.dtype, 'C');
    const NDArray bc = b.c_contiguous() && b.dtype == a.dtype ? b : copy_array(b, a.dtype, 'C');
    auto info = allocate_device_memory(static_cast<size_t>(batch) * sizeof(int));
    int* info_ptr = static_cast<int*>(info->ptr());
    launch_small_solve(a.dtype, ac.data(), bc.data(), x.data(), info_ptr, batch, n, k, stream);
    if (count_positive_info(info_ptr, batch, stream) > 0) throw LinAlgError("Singular matrix");
    return x;
  }
  // x is computed in a C-contiguous (.., k, n) buffer (column-major n x k) and returned as
  // its (.., n, k) transposed view.
  NDArray xt = copy_array(swap_last2(b), a.dtype, 'C');
  if (batch == 0 || n == 0 || k == 0) return swap_last2(xt);
  const cudaStream_t stream = stream_for(xt);
  NDArray work = copy_array(a, a.dtype, 'C');
  const int64_t mat_bytes = n * n * work.itemsize();
  const int64_t rhs_bytes = n * k * xt.itemsize();
  const NanMatrices nan_inputs(nan_fill, work.data(), batch, n * n, a.dtype, stream);
  const bool batched = k <= INT32_MAX &&
      choose_lu_route(n, batch, LuPurpose::InvSolve, 0, device_routing_thresholds()) == LuRoute::CublasBatched;
  Lu lu = lu_factor(work, batch, n, batched, true, stream, {xt.data(), rhs_bytes});
  // Only exact zero pivots count: NaN/inf input gives NaN output, as NumPy does in most
  // cases (its LinAlgError there depends on LAPACK raising the FP invalid flag).
  const FiniteCheck* diag = nullptr;
  const std::unique_ptr<PendingInfoCount> early = early_info_count(
      static_cast<const int*>(lu.info->ptr()), batch, n, batched, nan_inputs.flags(), stream);
  if (batched) {
    cublasHandle_t h = cublas_handle(stream);
    int host_info = 0;
    dispatch_lapack(a.dtype, [&](auto* tp) {
      GPUARR_CUBLAS_CHECK(getrs_batched(h, CUBLAS_OP_T, static_cast<int>(n),
                                        static_cast<int>(k), tp, lu.work_ptrs,
                                        static_cast<const int*>(lu.pivots->ptr()),
                                        lu.result_ptrs, &host_info, static_cast<int>(batch)));
    });
    if (host_info != 0) throw ValueError("getrsBatched: invalid argument");
  } else {
    getrs_per_matrix(a.dtype, CUBLAS_OP_T, work.data(), mat_bytes,
                     static_cast<const int64_t*>(lu.pivots->ptr()), n, xt.data(), rhs_bytes, k,
                     batch, stream);
  }
  int64_t flagged = 0;
  const int64_t bad = early ? early->wait()
                            : count_positive_info(static_cast<const int*>(lu.info->ptr()),
                                                  batch, stream, diag, nan_inputs.flags(),
                                                  &flagged);
  if (bad > 0) throw LinAlgError("Singular matrix");
  nan_inputs.fill(xt.data(), n * k, early ? early->flagged() : flagged);
  return swap_last2(xt);
}

}  // namespace gpuarr
