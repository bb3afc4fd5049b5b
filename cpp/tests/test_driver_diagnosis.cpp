#include <gtest/gtest.h>

#include "core/driver_diagnosis.hpp"

using namespace gpuarr;

TEST(DriverDiagnosis, VersionString) {
  EXPECT_EQ(cuda_version_string(13000), "13.0");
  EXPECT_EQ(cuda_version_string(12080), "12.8");
}

TEST(DriverDiagnosis, NoDriver) {
  DriverFacts f;
  f.libcuda_error = "libcuda.so.1: cannot open shared object file: No such file or directory";
  f.runtime_cuda_version = 13000;
  f.device_count_error = "cudaGetDeviceCount failed: cudaErrorInsufficientDriver: ...";
  EXPECT_EQ(describe_no_device(f),
            "no NVIDIA driver found (libcuda could not be loaded: libcuda.so.1: cannot open "
            "shared object file: No such file or directory)");
  f.libcuda_error.clear();
  EXPECT_EQ(describe_no_device(f), "no NVIDIA driver found (libcuda could not be loaded)");
}

TEST(DriverDiagnosis, OldDriverNamesBothVersions) {
  DriverFacts f;
  f.libcuda_loaded = true;
  f.driver_cuda_version = 12040;
  f.runtime_cuda_version = 13000;
  f.device_count_error = "cudaGetDeviceCount failed: cudaErrorInsufficientDriver: ...";
  EXPECT_EQ(describe_no_device(f),
            "the NVIDIA driver supports CUDA 12.4, and gpuarr was built with CUDA 13.0: install "
            "a driver that supports CUDA 13.0 or newer");
}

TEST(DriverDiagnosis, DriverWithoutDevices) {
  DriverFacts f;
  f.libcuda_loaded = true;
  f.driver_cuda_version = 13000;
  f.runtime_cuda_version = 13000;
  EXPECT_EQ(describe_no_device(f), "cudaGetDeviceCount found 0 devices");
  f.device_count_error = "cudaGetDeviceCount failed: cudaErrorNoDevice: no CUDA-capable device is detected";
  EXPECT_EQ(describe_no_device(f), f.device_count_error);
  // A newer driver than the runtime is fine: the error is the runtime's own.
  f.driver_cuda_version = 13020;
  EXPECT_EQ(describe_no_device(f), f.device_count_error);
}

TEST(DriverDiagnosis, NoDeviceMessage) {
  EXPECT_EQ(no_device_message("no NVIDIA driver found (libcuda could not be loaded)"),
            "no CUDA device is available: no NVIDIA driver found (libcuda could not be loaded)");
  EXPECT_EQ(no_device_message("cudaGetDeviceCount found 0 devices", "cudaMalloc failed: x"),
            "no CUDA device is available: cudaGetDeviceCount found 0 devices (cudaMalloc failed: x)");
  EXPECT_EQ(no_device_message("", "cudaMalloc failed: x"),
            "no CUDA device is available: cudaMalloc failed: x");
}
