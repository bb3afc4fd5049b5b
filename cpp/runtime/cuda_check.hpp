// Every CUDA runtime status goes through check_cuda, which turns a failure into a C++
// exception naming the call; the bindings map these to gpuarr's Python exceptions.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuarr {

// A failed CUDA runtime call (Python: gpuarr.cuda.CUDARuntimeError, a RuntimeError).
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t status, const std::string& what)
      : std::runtime_error(what), status_(status) {}
  cudaError_t status() const { return status_; }

 private:
  cudaError_t status_;
};

// No usable CUDA device (Python: gpuarr.cuda.NoDeviceError, a CUDARuntimeError).
class NoDeviceError : public CudaError {
 public:
  using CudaError::CudaError;
};

// A CUDA library gpuarr loads on first use (cuBLAS, cuSOLVER, cuFFT, NVRTC) that could not
// be loaded or lacks a function (Python: gpuarr.cuda.LibraryLoadError, a CUDARuntimeError).
class LibraryLoadError : public CudaError {
 public:
  using CudaError::CudaError;
};

// Device memory exhausted (Python: gpuarr.cuda.OutOfMemoryError, a MemoryError).
class OutOfMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call);

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw_cuda_error(status, call);
}

// "1,073,741,824" as CuPy prints byte counts.
std::string with_thousands(uint64_t n);

}  // namespace gpuarr

#define GPUARR_CUDA_CHECK(expr) ::gpuarr::check_cuda((expr), #expr)
