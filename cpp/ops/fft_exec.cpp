#include <cufft.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "ops/fft.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/cufft_plan_cache.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

void require_contiguous(const NDArray& x, const char* what) {
  if (x.ndim() < 1) throw ValueError(std::string(what) + ": input must have at least 1 dimension");
  if (!x.c_contiguous()) throw ValueError(std::string(what) + ": input must be C-contiguous");
}

int64_t batch_of(const NDArray& x, int rank = 1) {
  int64_t b = 1;
  for (int64_t d = 0; d + rank < x.ndim(); ++d) b *= x.shape[d];
  return b;
}

std::vector<int64_t> trailing(const NDArray& x, int rank, const char* what) {
  if (rank < 1 || rank > 3 || rank > x.ndim()) {
    throw ValueError(std::string(what) + ": rank must be 1 to 3 and at most ndim");
  }
  return std::vector<int64_t>(x.shape.end() - rank, x.shape.end());
}

}  // namespace

NDArray fft_c2c(const NDArray& x, int rank, bool forward, bool inplace) {
  require_contiguous(x, "fft_c2c");
  const std::vector<int64_t> dims = trailing(x, rank, "fft_c2c");
  if (x.dtype != DType::Complex64 && x.dtype != DType::Complex128) {
    throw TypeError("fft_c2c: input must be complex64 or complex128");
  }
  DeviceGuard guard(x.device());
  NDArray out = inplace ? x : empty_array(x.shape, x.dtype, 'C');
  const int64_t batch = batch_of(x, rank);
  if (x.size() == 0) return out;
  const bool dbl = x.dtype == DType::Complex128;
  auto plan = cufft_plan_nd(dbl ? CUFFT_Z2Z : CUFFT_C2C, dims, batch);
  const cudaStream_t stream = stream_for(x);
  std::lock_guard<std::mutex> lock(plan->mutex);
  auto work = cufft_bind(*plan, stream);
  const int dir = forward ? CUFFT_FORWARD : CUFFT_INVERSE;
  if (dbl) {
    GPUARR_CUFFT_CHECK(cufftExecZ2Z(plan->handle, reinterpret_cast<cufftDoubleComplex*>(x.data()),
                                    reinterpret_cast<cufftDoubleComplex*>(out.data()), dir));
  } else {
    GPUARR_CUFFT_CHECK(cufftExecC2C(plan->handle, reinterpret_cast<cufftComplex*>(x.data()),
                                    reinterpret_cast<cufftComplex*>(out.data()), dir));
  }
  return out;
}

NDArray fft_r2c(const NDArray& x, int rank) {
  require_contiguous(x, "fft_r2c");
  const std::vector<int64_t> dims = trailing(x, rank, "fft_r2c");
  if (x.dtype != DType::Float32 && x.dtype != DType::Float64) {
    throw TypeError("fft_r2c: input must be float32 or float64");
  }
  DeviceGuard guard(x.device());
  const bool dbl = x.dtype == DType::Float64;
  const int64_t n = x.shape.back();
  Dims oshape = x.shape;
  oshape.back() = n / 2 + 1;
  NDArray out = empty_array(oshape, dbl ? DType::Complex128 : DType::Complex64, 'C');
  if (out.size() == 0 || n == 0) return out;
  auto plan = cufft_plan_nd(dbl ? CUFFT_D2Z : CUFFT_R2C, dims, batch_of(x, rank));
  const cudaStream_t stream = stream_for(x);
  std::lock_guard<std::mutex> lock(plan->mutex);
  auto work = cufft_bind(*plan, stream);
  if (dbl) {
    GPUARR_CUFFT_CHECK(cufftExecD2Z(plan->handle, reinterpret_cast<cufftDoubleReal*>(x.data()),
                                    reinterpret_cast<cufftDoubleComplex*>(out.data())));
  } else {
    GPUARR_CUFFT_CHECK(cufftExecR2C(plan->handle, reinterpret_cast<cufftReal*>(x.data()),
                                    reinterpret_cast<cufftComplex*>(out.data())));
  }
  return out;
}

NDArray fft_c2r(const NDArray& x, int64_t n) {
  require_contiguous(x, "fft_c2r");
  if (x.dtype != DType::Complex64 && x.dtype != DType::Complex128) {
    throw TypeError("fft_c2r: input must be complex64 or complex128");
  }
  if (n < 1 || x.shape.back() != n / 2 + 1) {
    throw ValueError("fft_c2r: last axis must have n//2+1 elements");
  }
  DeviceGuard guard(x.device());
  const bool dbl = x.dtype == DType::Complex128;
  Dims oshape = x.shape;
  oshape.back() = n;
  NDArray out = empty_array(oshape, dbl ? DType::Float64 : DType::Float32, 'C');
  if (out.size() == 0) return out;
  // cuFFT's C2R overwrites its input: transform a copy.
  NDArray tmp = copy_array(x, x.dtype, 'C');
  auto plan = cufft_plan_1d(dbl ? CUFFT_Z2D : CUFFT_C2R, n, batch_of(x));
  const cudaStream_t stream = stream_for(x);
  std::lock_guard<std::mutex> lock(plan->mutex);
  auto work = cufft_bind(*plan, stream);
  if (dbl) {
    GPUARR_CUFFT_CHECK(cufftExecZ2D(plan->handle, reinterpret_cast<cufftDoubleComplex*>(tmp.data()),
                                    reinterpret_cast<cufftDoubleReal*>(out.data())));
  } else {
    GPUARR_CUFFT_CHECK(cufftExecC2R(plan->handle, reinterpret_cast<cufftComplex*>(tmp.data()),
                                    reinterpret_cast<cufftReal*>(out.data())));
  }
  return out;
}

}  // namespace gpuarr
