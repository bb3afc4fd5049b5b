// The CUDA driver entry points gpuarr calls (module loading for the JIT, cuLaunchKernel),
// reached through the runtime's entry-point query so that gpuarr never links the driver
// library (CI machines have none). Types as in cuda.h, handles as void*.
#pragma once
#include <cuda_runtime_api.h>

namespace gpuarr {

struct DriverApi {
  using Result = int;  // CUresult
  Result (*module_load_data)(void**, const void*) = nullptr;
  Result (*module_get_function)(void**, void*, const char*) = nullptr;
  Result (*launch_kernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                          unsigned, cudaStream_t, void**, void**) = nullptr;
  // may be null (the cooperative reductions then take two launches)
  Result (*launch_cooperative_kernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, cudaStream_t, void**) = nullptr;
  Result (*func_get_param_info)(void*, size_t, size_t*, size_t*) = nullptr;  // may be null
  Result (*func_set_attribute)(void*, int, int) = nullptr;
  Result (*get_error_name)(Result, const char**) = nullptr;
};

// The entry points, looked up once. Throws CudaError when a required one is missing.
const DriverApi& driver();

// Throws CudaError naming `call` when `r` is not CUDA_SUCCESS.
void driver_check(int r, const char* call);

}  // namespace gpuarr
