// arange and linspace, reproducing NumPy's arithmetic so that results match bit for bit.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "ops/device_types.cuh"
#include "ops/kernels.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

constexpr int kThreads = 256;

// NumPy's @NAME@_fill: integers compute start + i * delta in npy_intp (or npy_ulonglong
// for uint64), floats in their own type, float16 in float.
template <class T>
__global__ void arange_kernel(T* out, int64_t n, T first, T second) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    T v;
    if (i == 0) {
      v = first;
    } else if (i == 1) {
      v = second;
    } else if constexpr (std::is_same_v<T, __half>) {
      const float start = __half2float(first);
      const float delta = __half2float(second) - start;
      v = __float2half_rn(__fadd_rn(start, __fmul_rn(static_cast<float>(i), delta)));
    } else if constexpr (std::is_same_v<T, float>) {
      const float delta = __fsub_rn(second, first);
      v = __fadd_rn(first, __fmul_rn(static_cast<float>(i), delta));
    } else if constexpr (std::is_same_v<T, double>) {
      const double delta = __dsub_rn(second, first);
      v = __dadd_rn(first, __dmul_rn(static_cast<double>(i), delta));
    } else if constexpr (std::is_same_v<T, uint64_t>) {
      const uint64_t delta = second - first;
      v = first + static_cast<uint64_t>(i) * delta;
    } else {
      const T delta = static_cast<T>(second - first);
      v = static_cast<T>(static_cast<int64_t>(first) + i * static_cast<int64_t>(delta));
    }
    out[i] = v;
  }
}

template <class T>
__global__ void linspace_kernel(T* out, int64_t n, T start, T stop, T step, T delta, T div,
                                bool step_is_zero, bool endpoint, bool floor_values) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const T fi = static_cast<T>(i);
    T y;
    if constexpr (std::is_same_v<T, float>) {
      y = step_is_zero ? __fmul_rn(__fdiv_rn(fi, div), delta) : __fmul_rn(fi, step);
      y = __fadd_rn(y, start);
    } else {
      y = step_is_zero ? __dmul_rn(__ddiv_rn(fi, div), delta) : __dmul_rn(fi, step);
      y = __dadd_rn(y, start);
    }
    if (endpoint && n > 1 && i == n - 1) y = stop;
    if (floor_values) y = floor(y);
    out[i] = y;
  }
}

}  // namespace

void launch_arange(char* out, int64_t n, DType type, const void* first, const void* second,
                   cudaStream_t stream) {
  if (n == 0) return;
  dispatch_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, complex64_t> ||
                  std::is_same_v<T, complex128_t>) {
      throw std::invalid_argument("launch_arange: unsupported dtype");
    } else {
      T a, b;
      std::memcpy(&a, first, sizeof(T));
      std::memcpy(&b, second, sizeof(T));
      arange_kernel<T><<<grid_for(n, kThreads), kThreads, 0, stream>>>(reinterpret_cast<T*>(out),
                                                                        n, a, b);
      check_launch("arange_kernel");
    }
  });
}

void launch_linspace(char* out, int64_t n, DType compute_type, double start, double stop,
                     double step, double delta, double div, bool step_is_zero, bool endpoint,
                     bool floor_values, cudaStream_t stream) {
  if (n == 0) return;
  if (compute_type == DType::Float32) {
    linspace_kernel<float><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
        reinterpret_cast<float*>(out), n, float(start), float(stop), float(step), float(delta),
        float(div), step_is_zero, endpoint, floor_values);
  } else {
    linspace_kernel<double><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
        reinterpret_cast<double*>(out), n, start, stop, step, delta, div, step_is_zero, endpoint,
        floor_values);
  }
  check_launch("linspace_kernel");
}

}  // namespace gpuarr
