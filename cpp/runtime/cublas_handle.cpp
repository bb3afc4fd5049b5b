#include "runtime/cublas_handle.hpp"

#include <memory>
#include <mutex>
#include <vector>

#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/memory.hpp"

namespace gpuarr {

[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_ALLOC_FAILED) {
    throw OutOfMemoryError(std::string("cuBLAS could not allocate memory in ") + call);
  }
  throw CublasError(status, std::string(call) + " failed: " + cublasGetStatusName(status) +
                                " (" + cublasGetStatusString(status) + ")");
}

namespace {

struct HandleSlot {
  cublasHandle_t handle = nullptr;
  std::shared_ptr<Memory> workspace;
};

constexpr size_t kWorkspaceBytes = size_t(32) << 20;  // cuBLAS' recommendation for Hopper

std::mutex g_mutex;
std::vector<HandleSlot>& slots() {
  static std::vector<HandleSlot>* s = new std::vector<HandleSlot>();  // never destroyed:
  return *s;  // handles must outlive static destruction order at exit
}

}  // namespace

cublasHandle_t cublas_handle(cudaStream_t stream) {
  const int dev = current_device();
  HandleSlot* slot;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto& s = slots();
    if (static_cast<int>(s.size()) <= dev) s.resize(dev + 1);
    slot = &s[dev];
    if (!slot->handle) {
      GPUARR_CUBLAS_CHECK(cublasCreate(&slot->handle));
      GPUARR_CUBLAS_CHECK(cublasSetMathMode(slot->handle, CUBLAS_DEFAULT_MATH));
      slot->workspace = allocate_device_memory(kWorkspaceBytes);
      // The workspace came from the pool in the current stream's order: make it ready
      // before any stream uses it.
      GPUARR_CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  GPUARR_CUBLAS_CHECK(cublasSetStream(slot->handle, stream));
  // cublasSetStream resets the workspace to cuBLAS' own: give it ours again.
  GPUARR_CUBLAS_CHECK(
      cublasSetWorkspace(slot->handle, slot->workspace->ptr(), slot->workspace->nbytes()));
  GPUARR_CUBLAS_CHECK(cublasSetPointerMode(slot->handle, CUBLAS_POINTER_MODE_HOST));
  return slot->handle;
}

}  // namespace gpuarr
