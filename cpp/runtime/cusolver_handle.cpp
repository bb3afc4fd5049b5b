#include "runtime/cusolver_handle.hpp"

#include <mutex>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

[[noreturn]] void throw_cusolver_error(cusolverStatus_t status, const char* call) {
  if (status == CUSOLVER_STATUS_ALLOC_FAILED) {
    throw OutOfMemoryError(std::string("cuSOLVER could not allocate memory in ") + call);
  }
  const char* name = "CUSOLVER_STATUS_UNKNOWN";
  switch (status) {
    case CUSOLVER_STATUS_NOT_INITIALIZED: name = "CUSOLVER_STATUS_NOT_INITIALIZED"; break;
    case CUSOLVER_STATUS_INVALID_VALUE: name = "CUSOLVER_STATUS_INVALID_VALUE"; break;
    case CUSOLVER_STATUS_ARCH_MISMATCH: name = "CUSOLVER_STATUS_ARCH_MISMATCH"; break;
    case CUSOLVER_STATUS_EXECUTION_FAILED: name = "CUSOLVER_STATUS_EXECUTION_FAILED"; break;
    case CUSOLVER_STATUS_INTERNAL_ERROR: name = "CUSOLVER_STATUS_INTERNAL_ERROR"; break;
    case CUSOLVER_STATUS_NOT_SUPPORTED: name = "CUSOLVER_STATUS_NOT_SUPPORTED"; break;
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED:
      name = "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED"; break;
    default: break;
  }
  throw CusolverError(status, std::string(call) + " failed: " + name + " (" +
                                  std::to_string(int(status)) + ")");
}

namespace {

std::mutex g_mutex;
std::vector<CusolverHandles>& slots() {
  // Never destroyed: handles must outlive static destruction order at exit.
  static auto* s = new std::vector<CusolverHandles>();
  return *s;
}

}  // namespace

CusolverHandles cusolver_handle(cudaStream_t stream) {
  const int dev = current_device();
  CusolverHandles h;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto& s = slots();
    if (static_cast<int>(s.size()) <= dev) s.resize(dev + 1, CusolverHandles{nullptr, nullptr});
    if (!s[dev].handle) {
      GPUARR_CUSOLVER_CHECK(cusolverDnCreate(&s[dev].handle));
      GPUARR_CUSOLVER_CHECK(cusolverDnCreateParams(&s[dev].params));
    }
    h = s[dev];
  }
  GPUARR_CUSOLVER_CHECK(cusolverDnSetStream(h.handle, stream));
  return h;
}

int cusolver_version() {
  int major = 0, minor = 0, patch = 0;
  cusolverGetProperty(MAJOR_VERSION, &major);
  cusolverGetProperty(MINOR_VERSION, &minor);
  cusolverGetProperty(PATCH_LEVEL, &patch);
  return major * 10000 + minor * 100 + patch;
}

}  // namespace gpuarr
