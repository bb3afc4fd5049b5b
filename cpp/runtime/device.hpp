// Which CUDA devices exist and which one this thread uses. Querying never fails on a
// machine without a GPU or driver; anything that needs a device calls require_device().
#pragma once
#include <cuda_runtime_api.h>

#include <string>

namespace gpuarr {

constexpr int kMaxDevices = 64;

// Number of CUDA devices; 0 when there is no device or no driver.
int device_count();
// Why device_count() is 0 ("" when devices exist).
std::string no_device_reason();
// Throws NoDeviceError when no device is usable.
void require_device();

int current_device();
void set_device(int device);

// 10 * major + minor of `device` (queried once per device).
int compute_capability(int device);

// Streaming multiprocessors of `device` (queried once per device): grid sizes that fill
// the GPU in one wave are multiples of it.
int multiprocessor_count(int device);

// Threads resident on `device` at once (multiprocessors x threads each holds; queried once
// per device): a grid of that many threads is one wave.
int resident_threads(int device);

// Makes `device` current for the lifetime of the guard, restoring the previous one.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_;
  bool switched_;
};

}  // namespace gpuarr
