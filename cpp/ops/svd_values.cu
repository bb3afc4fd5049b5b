// Singular values through cusolverDnXgesvd (no vectors), one call per matrix of the batch.
// gesvd wants m >= n in column-major: a C-contiguous copy of the matrix (or of its
// transpose) is the column-major transpose, whose singular values are the same.
#include <cusolverDn.h>

#include <memory>
#include <vector>

#include "core/errors.hpp"
#include "core/promotion.hpp"
#include "ops/array_ops.hpp"
#include "ops/products.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/cusolver_handle.hpp"
#include "runtime/device.hpp"
#include "runtime/memory.hpp"

namespace gpuarr {
namespace {

cudaDataType cuda_type(DType t) {
  switch (t) {
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    default: return CUDA_C_64F;
  }
}

}  // namespace

NDArray singular_values(const NDArray& a_in) {
  if (a_in.ndim() < 2) throw ValueError("singular_values needs a matrix");
  DType t = a_in.dtype;
  if (t == DType::Float16) throw TypeError("array type float16 is unsupported in linalg");
  if (!is_float(t) && !is_complex(t)) t = DType::Float64;
  const int64_t nd = a_in.ndim();
  const int64_t r = a_in.shape[nd - 2], c = a_in.shape[nd - 1];
  NDArray v = a_in;
  if (c < r) {  // transpose so that the column-major view has m >= n
    std::swap(v.shape[nd - 2], v.shape[nd - 1]);
    std::swap(v.strides[nd - 2], v.strides[nd - 1]);
  }
  // C-contiguous (.., n, m) == column-major m x n with m >= n.
  const NDArray work = copy_array(v, t, 'C');
  const int64_t n = work.shape[nd - 2], m = work.shape[nd - 1];
  Dims out_shape(a_in.shape.begin(), a_in.shape.end() - 2);
  const int64_t batch = shape_size(out_shape);
  out_shape.push_back(n);
  const DType rt = real_dtype(t);
  NDArray s = empty_array(out_shape, rt, 'C');
  if (s.size() == 0 || m == 0) return s;
  const cudaStream_t stream = stream_for(s);
  CusolverHandles h = cusolver_handle(stream);
  const cudaDataType ct = cuda_type(t), rct = cuda_type(rt);
  size_t dev_bytes = 0, host_bytes = 0;
  GPUARR_CUSOLVER_CHECK(cusolverDnXgesvd_bufferSize(
      h.handle, h.params, 'N', 'N', m, n, ct, work.data(), m, rct, s.data(), ct, nullptr, 1, ct,
      nullptr, 1, ct, &dev_bytes, &host_bytes));
  auto dev_ws = allocate_device_memory(std::max<size_t>(dev_bytes, 16) + sizeof(int));
  std::vector<char> host_ws(std::max<size_t>(host_bytes, 1));
  int* info = reinterpret_cast<int*>(static_cast<char*>(dev_ws->ptr()) + std::max<size_t>(dev_bytes, 16));
  const int64_t mat_bytes = m * n * work.itemsize();
  const int64_t s_bytes = n * s.itemsize();
  for (int64_t i = 0; i < batch; ++i) {
    GPUARR_CUSOLVER_CHECK(cusolverDnXgesvd(
        h.handle, h.params, 'N', 'N', m, n, ct, work.data() + i * mat_bytes, m, rct,
        s.data() + i * s_bytes, ct, nullptr, 1, ct, nullptr, 1, ct, dev_ws->ptr(), dev_bytes,
        host_ws.data(), host_bytes, info));
  }
  // The host workspace must outlive the enqueued work.
  GPUARR_CUDA_CHECK(cudaStreamSynchronize(stream));
  return s;
}

}  // namespace gpuarr
