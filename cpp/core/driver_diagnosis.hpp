// What to tell a user whose CUDA runtime finds no device: no NVIDIA driver at all, a driver
// too old for the runtime gpuarr was built with, or a driver that sees no GPU. The runtime
// collects the facts (can libcuda be loaded, which CUDA version the driver supports);
// the wording is decided here, in plain C++ (cpp/tests/test_driver_diagnosis.cpp).
#pragma once
#include <string>

namespace gpuarr {

struct DriverFacts {
  bool libcuda_loaded = false;      // dlopen("libcuda.so.1") succeeded
  std::string libcuda_error;        // dlerror() when it did not
  int driver_cuda_version = 0;      // cudaDriverGetVersion: 1000*major + 10*minor, 0 if none
  int runtime_cuda_version = 0;     // CUDART_VERSION gpuarr was built with
  std::string device_count_error;   // "cudaGetDeviceCount failed: <name>: <text>", or ""
};

// "1000*major + 10*minor" as "major.minor".
std::string cuda_version_string(int version);

// The reason no CUDA device is usable, for NoDeviceError's message.
std::string describe_no_device(const DriverFacts& facts);

// NoDeviceError's message: the reason, and the failed call's own error where one failed.
std::string no_device_message(const std::string& reason, const std::string& failed_call = "");

}  // namespace gpuarr
