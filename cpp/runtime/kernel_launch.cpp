#include "runtime/kernel_launch.hpp"

#include "runtime/driver_api.hpp"

namespace gpuarr {
namespace {

// nullptr when the driver's cuLaunchKernel cannot be had (then every launch goes through
// the runtime).
auto driver_launch_entry() {
  static const auto fn = []() -> decltype(DriverApi::launch_kernel) {
    try {
      return driver().launch_kernel;
    } catch (...) {
      return nullptr;
    }
  }();
  return fn;
}

// The kernel's driver handle on the current device, looked up once; nullptr when it cannot
// be had (then the caller launches through the runtime).
void* cached_handle(const void* kernel, std::atomic<void*>* handles) {
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kMaxKernelHandleDevices)
    return nullptr;
  void* fn = handles[device].load(std::memory_order_acquire);
  if (!fn) {
    cudaFunction_t f = nullptr;
    if (cudaGetFuncBySymbol(&f, kernel) == cudaSuccess && f) {
      fn = reinterpret_cast<void*>(f);
      handles[device].store(fn, std::memory_order_release);
    } else {
      cudaGetLastError();
    }
  }
  return fn;
}

}  // namespace

void launch_with_cached_handle(const void* kernel, std::atomic<void*>* handles, dim3 grid,
                               dim3 block, size_t shared_mem, cudaStream_t stream,
                               void** args) {
  if (const auto launch = driver_launch_entry()) {
    void* fn = cached_handle(kernel, handles);
    if (fn && launch(fn, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                     static_cast<unsigned>(shared_mem), stream, args, nullptr) == 0)
      return;
  }
  cudaLaunchKernel(kernel, grid, block, args, shared_mem, stream);
}

bool launch_cooperative_with_cached_handle(const void* kernel, std::atomic<void*>* handles,
                                           dim3 grid, dim3 block, size_t shared_mem,
                                           cudaStream_t stream, void** args) {
  if (driver_launch_entry() && driver().launch_cooperative_kernel) {
    void* fn = cached_handle(kernel, handles);
    if (fn)
      return driver().launch_cooperative_kernel(fn, grid.x, grid.y, grid.z, block.x, block.y,
                                                block.z, static_cast<unsigned>(shared_mem),
                                                stream, args) == 0;
  }
  if (cudaLaunchCooperativeKernel(kernel, grid, block, args, shared_mem, stream) == cudaSuccess)
    return true;
  cudaGetLastError();
  return false;
}

}  // namespace gpuarr
