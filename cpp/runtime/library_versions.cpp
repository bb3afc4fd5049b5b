#include "runtime/library_versions.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <nvrtc.h>

#include "runtime/cuda_check.hpp"
#include "runtime/cusolver_handle.hpp"

namespace gpuarr {

LibraryVersions library_versions() {
  LibraryVersions v;
  if (cudaRuntimeGetVersion(&v.runtime) != cudaSuccess) v.runtime = 0;
  if (cudaDriverGetVersion(&v.driver) != cudaSuccess) v.driver = 0;
  cudaGetLastError();  // neither call may leave an error behind for the next CUDA call
  // Each library is loaded here if it was not yet; one that cannot be loaded reads 0.
  auto read = [](auto&& f) {
    try {
      return f();
    } catch (const LibraryLoadError&) {
      return 0;
    }
  };
  v.cublas = read([] {
    int major = 0, minor = 0, patch = 0;
    if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
        cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
        cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS) {
      return major * 10000 + minor * 100 + patch;
    }
    return 0;
  });
  v.cusolver = read([] { return cusolver_version(); });
  v.cufft = read([] {
    int version = 0;
    return cufftGetVersion(&version) == CUFFT_SUCCESS ? version : 0;
  });
  v.nvrtc = read([] {
    int major = 0, minor = 0;
    return nvrtcVersion(&major, &minor) == NVRTC_SUCCESS ? major * 1000 + minor * 10 : 0;
  });
  return v;
}

}  // namespace gpuarr
