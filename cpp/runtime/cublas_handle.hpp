// The cuBLAS handle of each device, created once and cached; each call binds it to the
// current stream and gives it a workspace from gpuarr's pool. Every cublasStatus_t goes
// through cublas_check, which throws a CudaError-like exception naming the call.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace gpuarr {

// A failed cuBLAS call (Python: a RuntimeError naming the call and the status).
class CublasError : public std::runtime_error {
 public:
  CublasError(cublasStatus_t status, const std::string& what)
      : std::runtime_error(what), status_(status) {}
  cublasStatus_t status() const { return status_; }

 private:
  cublasStatus_t status_;
};

[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call);

inline void cublas_check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) throw_cublas_error(status, call);
}

// The current device's handle, bound to `stream`, pointer mode host, default math mode
// (no TF32: float32 results match NumPy's to float32 tolerance).
cublasHandle_t cublas_handle(cudaStream_t stream);

}  // namespace gpuarr

#define GPUARR_CUBLAS_CHECK(expr) ::gpuarr::cublas_check((expr), #expr)
