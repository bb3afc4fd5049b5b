// Helpers shared by the linalg_*.cu files: cuSOLVER/cuBLAS data types, batch views,
// cached workspace sizes, device pointer arrays for the batched cuBLAS calls and the
// singular/info check.
#pragma once
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cusolverDn.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "core/dtype.hpp"
#include "ops/ndarray.hpp"
#include "runtime/memory.hpp"

namespace gpuarr::linalg_detail {

inline cudaDataType cuda_type(DType t) {
  switch (t) {
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}

// The library element type of a DType, for the typed (non-X) entry points.
template <class F>
void dispatch_lapack(DType t, F&& f) {
  switch (t) {
    case DType::Float32: return f(static_cast<float*>(nullptr));
    case DType::Float64: return f(static_cast<double*>(nullptr));
    case DType::Complex64: return f(static_cast<cuComplex*>(nullptr));
    default: return f(static_cast<cuDoubleComplex*>(nullptr));
  }
}

// A view of a with its last two dims swapped.
inline NDArray swap_last2(NDArray a) {
  const size_t nd = a.shape.size();
  std::swap(a.shape[nd - 2], a.shape[nd - 1]);
  std::swap(a.strides[nd - 2], a.strides[nd - 1]);
  return a;
}

inline int64_t batch_count(const NDArray& a) {
  int64_t b = 1;
  for (int64_t d = 0; d + 2 < a.ndim(); ++d) b *= a.shape[d];
  return b;
}

inline Dims batch_shape(const NDArray& a) { return Dims(a.shape.begin(), a.shape.end() - 2); }

// Workspace sizes (device bytes, host bytes) cached per (device, routine, sizes, dtype):
// the *_bufferSize queries cost a few microseconds each, which matters for small QR.
struct WorkspaceKey {
  int device, routine;
  int64_t m, n, k;
  int dtype;
  bool operator<(const WorkspaceKey& o) const {
    return std::tie(device, routine, m, n, k, dtype) <
           std::tie(o.device, o.routine, o.m, o.n, o.k, o.dtype);
  }
};
template <class Query>
std::pair<size_t, size_t> cached_workspace(const WorkspaceKey& key, Query&& query) {
  static std::mutex mutex;
  static std::map<WorkspaceKey, std::pair<size_t, size_t>> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  const std::pair<size_t, size_t> sizes = query();
  std::lock_guard<std::mutex> lock(mutex);
  cache[key] = sizes;
  return sizes;
}
enum Routine { kGetrf = 1, kPotrfL, kPotrfU, kGeqrf, kOrgqr, kGesvd };

// A device array of `count` pointers base + i * stride_bytes (for cuBLAS batched calls),
// enqueued on `stream`; `storage` keeps it alive (stream-ordered pool memory). With `base2`,
// the same launch writes a second array of `count` pointers base2 + i * stride2_bytes right
// after the first (at the result + count).
void** device_pointer_array(std::shared_ptr<Memory>& storage, char* base, int64_t stride_bytes,
                            int64_t count, cudaStream_t stream, char* base2 = nullptr,
                            int64_t stride2_bytes = 0);

// Optionally, values whose non-finite entries also count as failures (NumPy raises
// "Singular matrix" for NaN/inf input to inv/solve and "SVD did not converge" for SVD:
// checked on the LU diagonal / the singular values). Strides in elements.
struct FiniteCheck {
  const char* data = nullptr;
  DType dtype = DType::Float32;
  int64_t batch_stride = 0, elem_stride = 0, count = 0;
};

// Number of entries of info[0..count) that are > 0, plus the non-finite checked values (a
// small read: waits for the stream). With `flags` (count ints), the number of its nonzero
// entries is read in the same transfer, into *flagged.
int64_t count_positive_info(const int* info, int64_t count, cudaStream_t stream,
                            const FiniteCheck* check = nullptr, const int* flags = nullptr,
                            int64_t* flagged = nullptr);

// Whether any of info[0..count) is nonzero (a negative info, an invalid argument, counts
// too; a small read: waits for the stream).
bool any_info_nonzero(const int* info, int64_t count, cudaStream_t stream);

// The count of positive info entries, enqueued now and read later: lets the host wait for
// the factorization only while the work queued after it (getrs, getri) keeps the GPU busy,
// so that two large solves on two streams overlap their second halves and a loop of
// solves queues its next call while this one's getrs runs. The wait polls the way CUDA's
// default synchronisation does (a sleeping thread woke 0.2-0.6 ms after the event on the
// H200, longer than solve float64 512's queued getrs, which the GPU then finished idle).
// With `flags` (count ints), the number of its nonzero entries comes in the same transfer.
struct PendingInfoCount {
  std::shared_ptr<Memory> device_count;
  int* host_slot = nullptr;  // pinned: the count, then the flags' count
  bool has_flags = false;
  cudaEvent_t event = nullptr;
  ~PendingInfoCount();
  int64_t wait();            // the count (waits for the event; no stream-wide sync)
  int64_t flagged() const;   // after wait(): the nonzero flags (0 without flags)
};
std::unique_ptr<PendingInfoCount> enqueue_info_count(const int* info, int64_t count,
                                                     cudaStream_t stream,
                                                     const FiniteCheck* check = nullptr,
                                                     const int* flags = nullptr);

// Cholesky factorisations (cuSOLVER's Xpotrf, one call a matrix, its workspace size cached)
// of `batch` column-major n x n matrices `mat_bytes` apart at `a`, in place; info[i] per
// matrix, left on the device.
void potrf_each(cublasFillMode_t fill, int64_t n, DType dtype, char* a, int64_t batch,
                int64_t mat_bytes, int* info, cudaStream_t stream);

// A host workspace of at least `bytes` for cuSOLVER's 64-bit API (nullptr for 0), owned
// by the calling thread and never freed, so no call has to wait for the stream before
// releasing it.
void* host_workspace(size_t bytes);

// Sets each of `batch` C-contiguous n x n matrices at `data` to the identity.
void launch_identity(char* data, int64_t batch, int64_t n, DType t, cudaStream_t stream);

// Inverts `batch` C-contiguous n x n float32/float64 matrices (n <= kSmallInverseMaxN)
// from `in` into `out` in one launch (ops/small_gauss_jordan.cu). A matrix holding a NaN, or
// singular (an exact zero pivot), inverts to all NaN (NumPy's inv gufunc's result where it
// fails). info[i], where info is set: 1 + the step of matrix i's first zero pivot, else 0
// (also for a matrix with a NaN), as getrf's info.
void launch_small_inverse(DType t, const char* in, char* out, int* info, int64_t batch,
                          int64_t n, cudaStream_t stream);
// Solves a x = b for `batch` C-contiguous n x n float32/float64 matrices `a` (n <=
// kSmallInverseMaxN) and C-contiguous n x k blocks `b` (k <= kSmallSolveMaxColumns) into
// `out` (n x k blocks) in one launch; NaN and singular matrices and `info` as
// launch_small_inverse's.
void launch_small_solve(DType t, const char* a, const char* b, char* out, int* info,
                        int64_t batch, int64_t n, int64_t k, cudaStream_t stream);

}  // namespace gpuarr::linalg_detail
