#include "runtime/library_versions.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <nvrtc.h>

#include "runtime/cusolver_handle.hpp"

namespace gpuarr {

LibraryVersions library_versions() {
  LibraryVersions v;
  if (cudaRuntimeGetVersion(&v.runtime) != cudaSuccess) v.runtime = 0;
  if (cudaDriverGetVersion(&v.driver) != cudaSuccess) v.driver = 0;
  cudaGetLastError();  // neither call may leave an error behind for the next CUDA call
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS) {
    v.cublas = major * 10000 + minor * 100 + patch;
  }
  v.cusolver = cusolver_version();
  if (cufftGetVersion(&v.cufft) != CUFFT_SUCCESS) v.cufft = 0;
  if (nvrtcVersion(&major, &minor) == NVRTC_SUCCESS) v.nvrtc = major * 1000 + minor * 10;
  return v;
}

}  // namespace gpuarr
