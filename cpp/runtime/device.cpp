#include "runtime/device.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

#include "core/driver_diagnosis.hpp"
#include "runtime/cuda_check.hpp"

namespace gpuarr {
namespace {

struct DeviceCensus {
  int count = 0;
  cudaError_t status = cudaSuccess;
};

const DeviceCensus& census() {
  static DeviceCensus c;
  static std::once_flag once;
  std::call_once(once, [] {
    int n = 0;
    c.status = cudaGetDeviceCount(&n);
    if (c.status != cudaSuccess) {
      cudaGetLastError();
      n = 0;
    }
    c.count = n;
  });
  return c;
}

}  // namespace

int device_count() { return census().count; }

std::string no_device_reason() {
  const auto& c = census();
  if (c.count > 0) return "";
  DriverFacts facts;
  // RTLD_NOLOAD first: the runtime has normally loaded libcuda already.
  void* libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!libcuda) libcuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  facts.libcuda_loaded = libcuda != nullptr;
  if (libcuda) {
    dlclose(libcuda);
  } else if (const char* err = dlerror()) {
    facts.libcuda_error = err;
  }
  int driver = 0;
  if (cudaDriverGetVersion(&driver) == cudaSuccess) facts.driver_cuda_version = driver;
  cudaGetLastError();
  facts.runtime_cuda_version = CUDART_VERSION;
  if (c.status != cudaSuccess) {
    facts.device_count_error = std::string("cudaGetDeviceCount failed: ") +
                               cudaGetErrorName(c.status) + ": " + cudaGetErrorString(c.status);
  }
  return describe_no_device(facts);
}

void require_device() {
  const auto& c = census();
  if (c.count > 0) return;
  throw NoDeviceError(c.status == cudaSuccess ? cudaErrorNoDevice : c.status,
                      no_device_message(no_device_reason()));
}

int current_device() {
  require_device();
  int d = 0;
  GPUARR_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

void set_device(int device) {
  require_device();
  if (device < 0 || device >= device_count()) {
    throw CudaError(cudaErrorInvalidDevice,
                    "cudaSetDevice(" + std::to_string(device) + ") failed: invalid device ordinal "
                    "(this machine has " + std::to_string(device_count()) + " CUDA devices)");
  }
  GPUARR_CUDA_CHECK(cudaSetDevice(device));
}

namespace {

// One device attribute, cached per device after its first query (stored plus one: 0 means
// not queried yet, and an attribute such as a minor version can be 0).
int cached_attribute(std::atomic<int> (&cache)[kMaxDevices], int device,
                     cudaDeviceAttr attr) {
  const bool cacheable = device >= 0 && device < kMaxDevices;
  if (cacheable) {
    const int v = cache[device].load(std::memory_order_relaxed);
    if (v) return v - 1;
  }
  int v = 0;
  GPUARR_CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, device));
  if (cacheable) cache[device].store(v + 1, std::memory_order_relaxed);
  return v;
}

}  // namespace

int compute_capability(int device) {
  static std::atomic<int> major[kMaxDevices] = {}, minor[kMaxDevices] = {};
  return 10 * cached_attribute(major, device, cudaDevAttrComputeCapabilityMajor) +
         cached_attribute(minor, device, cudaDevAttrComputeCapabilityMinor);
}

int multiprocessor_count(int device) {
  static std::atomic<int> count[kMaxDevices] = {};
  return cached_attribute(count, device, cudaDevAttrMultiProcessorCount);
}

int resident_threads(int device) {
  static std::atomic<int> per_sm[kMaxDevices] = {};
  return multiprocessor_count(device) *
         cached_attribute(per_sm, device, cudaDevAttrMaxThreadsPerMultiProcessor);
}

DeviceGuard::DeviceGuard(int device) : previous_(current_device()), switched_(device != previous_) {
  if (switched_) set_device(device);
}

DeviceGuard::~DeviceGuard() {
  if (switched_) cudaSetDevice(previous_);
}

}  // namespace gpuarr
