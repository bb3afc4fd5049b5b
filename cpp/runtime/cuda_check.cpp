#include "runtime/cuda_check.hpp"

#include "core/driver_diagnosis.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

void throw_cuda_error(cudaError_t status, const char* call) {
  // Clear the error so that a non-sticky failure does not resurface in the next call.
  cudaGetLastError();
  std::string msg = std::string(call) + " failed: " + cudaGetErrorName(status) + ": " +
                    cudaGetErrorString(status);
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
    throw NoDeviceError(status, no_device_message(no_device_reason(), msg));
  }
  throw CudaError(status, msg);
}

std::string with_thousands(uint64_t n) {
  std::string digits = std::to_string(n), out;
  int count = 0;
  for (size_t i = digits.size(); i-- > 0;) {
    out.insert(out.begin(), digits[i]);
    if (++count % 3 == 0 && i > 0) out.insert(out.begin(), ',');
  }
  return out;
}

}  // namespace gpuarr
