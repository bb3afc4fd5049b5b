// The cuSOLVER dense handle (and its 64-bit API params object) of each device, created once
// and cached; each call binds it to the current stream. Every cusolverStatus_t goes through
// cusolver_check, which throws an exception naming the call.
#pragma once
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <stdexcept>
#include <string>

namespace gpuarr {

// A failed cuSOLVER call (Python: a RuntimeError naming the call and the status).
class CusolverError : public std::runtime_error {
 public:
  CusolverError(cusolverStatus_t status, const std::string& what)
      : std::runtime_error(what), status_(status) {}
  cusolverStatus_t status() const { return status_; }

 private:
  cusolverStatus_t status_;
};

[[noreturn]] void throw_cusolver_error(cusolverStatus_t status, const char* call);

inline void cusolver_check(cusolverStatus_t status, const char* call) {
  if (status != CUSOLVER_STATUS_SUCCESS) throw_cusolver_error(status, call);
}

struct CusolverHandles {
  cusolverDnHandle_t handle;
  cusolverDnParams_t params;  // default algorithm choices of the 64-bit X API
};

// The current device's handle and params, bound to `stream`.
CusolverHandles cusolver_handle(cudaStream_t stream);

// cuSOLVER's version as MAJOR*10000 + MINOR*100 + PATCH (e.g. 11.7.1 -> 110701), for
// routines found at run time (XsyevBatched needs 11.7.1, Xgeev 11.7.0).
int cusolver_version();

}  // namespace gpuarr

#define GPUARR_CUSOLVER_CHECK(expr) ::gpuarr::cusolver_check((expr), #expr)
