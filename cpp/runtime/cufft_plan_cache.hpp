// cuFFT plans cached per device and per (type, transform length, batch); each use binds the
// plan to the current stream and gives it a work area from gpuarr's stream-ordered pool
// (auto-allocation is off). Every cufftResult goes through cufft_check, which throws an
// exception naming the call.
#pragma once
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/memory.hpp"

namespace gpuarr {

// A failed cuFFT call (Python: a RuntimeError naming the call and the status).
class CufftError : public std::runtime_error {
 public:
  CufftError(cufftResult status, const std::string& what)
      : std::runtime_error(what), status_(status) {}
  cufftResult status() const { return status_; }

 private:
  cufftResult status_;
};

[[noreturn]] void throw_cufft_error(cufftResult status, const char* call);

inline void cufft_check(cufftResult status, const char* call) {
  if (status != CUFFT_SUCCESS) throw_cufft_error(status, call);
}

// One cached plan. `mutex` serialises the bind-to-stream + exec sequence between threads.
struct CufftPlan {
  cufftHandle handle = 0;
  size_t work_size = 0;
  std::mutex mutex;
  ~CufftPlan();
};

// The plan of a batched 1-d transform of length `n` over `batch` contiguous rows (rows of n
// elements for C2C and R2C inputs / C2R outputs, n/2+1 on the complex side), on the current
// device.
std::shared_ptr<CufftPlan> cufft_plan_1d(cufftType type, int64_t n, int64_t batch);
// The same over the last dims.size() (1 to 3) axes of C-contiguous rows: a rank-n transform
// of shape `dims` (the real shape for R2C/C2R; the complex side's last axis is n/2+1).
std::shared_ptr<CufftPlan> cufft_plan_nd(cufftType type, const std::vector<int64_t>& dims,
                                         int64_t batch);

// Binds the plan to `stream` and gives it a work area from the pool; the returned memory must
// stay alive until the exec call has been enqueued (the pool frees it in stream order).
std::shared_ptr<Memory> cufft_bind(CufftPlan& plan, cudaStream_t stream);

// Number of cached plans (all devices) and a way to drop them (tests, memory pressure).
size_t cufft_plan_cache_size();
void cufft_plan_cache_clear();

}  // namespace gpuarr

#define GPUARR_CUFFT_CHECK(expr) ::gpuarr::cufft_check((expr), #expr)
