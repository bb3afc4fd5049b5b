#include "runtime/driver_api.hpp"

#include <string>

#include "runtime/cuda_check.hpp"

namespace gpuarr {
namespace {

template <class F> void entry_point(const char* name, F& fn, int version, bool required) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  const cudaError_t st = cudaGetDriverEntryPointByVersion(name, &p, version, cudaEnableDefault, &q);
  if (st != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
    cudaGetLastError();
    if (required)
      throw CudaError(cudaErrorSymbolNotFound, std::string("the CUDA driver has no ") + name);
    return;
  }
  fn = reinterpret_cast<F>(p);
}

}  // namespace

const DriverApi& driver() {
  static const DriverApi* api = [] {
    auto* d = new DriverApi;
    entry_point("cuModuleLoadData", d->module_load_data, 12000, true);
    entry_point("cuModuleGetFunction", d->module_get_function, 12000, true);
    entry_point("cuLaunchKernel", d->launch_kernel, 12000, true);
    entry_point("cuLaunchCooperativeKernel", d->launch_cooperative_kernel, 12000, false);
    entry_point("cuFuncSetAttribute", d->func_set_attribute, 12000, true);
    entry_point("cuGetErrorName", d->get_error_name, 12000, true);
    entry_point("cuFuncGetParamInfo", d->func_get_param_info, 12040, false);
    return d;
  }();
  return *api;
}

void driver_check(int r, const char* call) {
  if (r == 0) return;
  const char* name = nullptr;
  if (driver().get_error_name) driver().get_error_name(r, &name);
  throw CudaError(cudaErrorUnknown, std::string(call) + " failed: " +
                                        (name ? name : "CUDA driver error " + std::to_string(r)));
}

}  // namespace gpuarr
