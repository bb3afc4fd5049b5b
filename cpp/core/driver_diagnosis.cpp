#include "core/driver_diagnosis.hpp"

namespace gpuarr {

std::string cuda_version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string describe_no_device(const DriverFacts& f) {
  if (!f.libcuda_loaded) {
    std::string msg = "no NVIDIA driver found (libcuda could not be loaded";
    if (!f.libcuda_error.empty()) msg += ": " + f.libcuda_error;
    return msg + ")";
  }
  if (f.driver_cuda_version > 0 && f.driver_cuda_version < f.runtime_cuda_version) {
    return "the NVIDIA driver supports CUDA " + cuda_version_string(f.driver_cuda_version) +
           ", and gpuarr was built with CUDA " + cuda_version_string(f.runtime_cuda_version) +
           ": install a driver that supports CUDA " +
           cuda_version_string(f.runtime_cuda_version) + " or newer";
  }
  if (!f.device_count_error.empty()) return f.device_count_error;
  return "cudaGetDeviceCount found 0 devices";
}

std::string no_device_message(const std::string& reason, const std::string& failed_call) {
  std::string msg = "no CUDA device is available: ";
  if (reason.empty()) return msg + failed_call;
  return failed_call.empty() ? msg + reason : msg + reason + " (" + failed_call + ")";
}

}  // namespace gpuarr
