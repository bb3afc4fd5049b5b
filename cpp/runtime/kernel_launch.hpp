// Built-in kernels launched through the driver's cuLaunchKernel, with each kernel's handle
// cached per device. The runtime's <<<>>> looks the kernel up on every launch: on the H100
// host that cost ~0.5 us of the ~4 us a launch takes (docs/decisions.md), about a tenth of
// a tiny `a + b`. Where the driver path is unavailable or refuses (another context current
// on the thread, say), the launch goes through cudaLaunchKernel, whose errors the caller's
// check_launch reports as it does for <<<>>>.
#pragma once
#include <cuda_runtime_api.h>

#include <atomic>
#include <tuple>
#include <utility>

namespace gpuarr {

constexpr int kMaxKernelHandleDevices = 64;

// Launches `kernel` (a __global__ function's address) with `args` (pointers to each
// parameter's bytes); `handles` is that kernel's per-device cache of driver handles.
void launch_with_cached_handle(const void* kernel, std::atomic<void*>* handles, dim3 grid,
                               dim3 block, size_t shared_mem, cudaStream_t stream,
                               void** args);

// The same as a cooperative launch (every block resident at once, so that the kernel may
// synchronise its whole grid): false, with nothing launched and no error left pending, when
// the device cannot hold the grid at once (another context's or MPS's share of the SMs, say)
// or cannot launch cooperatively at all.
bool launch_cooperative_with_cached_handle(const void* kernel, std::atomic<void*>* handles,
                                           dim3 grid, dim3 block, size_t shared_mem,
                                           cudaStream_t stream, void** args);

namespace detail {
template <auto Kernel, class... Params, class... Args>
void launch_kernel_as(void (*)(Params...), dim3 grid, dim3 block, size_t shared_mem,
                      cudaStream_t stream, Args&&... args) {
  static std::atomic<void*> handles[kMaxKernelHandleDevices];
  std::tuple<Params...> values(std::forward<Args>(args)...);
  std::apply(
      [&](auto&... v) {
        void* ptrs[] = {static_cast<void*>(&v)...};
        launch_with_cached_handle(reinterpret_cast<const void*>(Kernel), handles, grid, block,
                                  shared_mem, stream, ptrs);
      },
      values);
}
}  // namespace detail

// launch_kernel<&my_kernel<T>>(grid, block, shared_mem, stream, args...) does what
// my_kernel<T><<<grid, block, shared_mem, stream>>>(args...) does.
template <auto Kernel, class... Args>
void launch_kernel(dim3 grid, dim3 block, size_t shared_mem, cudaStream_t stream,
                   Args&&... args) {
  detail::launch_kernel_as<Kernel>(Kernel, grid, block, shared_mem, stream,
                                   std::forward<Args>(args)...);
}

}  // namespace gpuarr
