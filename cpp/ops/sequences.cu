// arange and linspace, reproducing NumPy's arithmetic so that results match bit for bit.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ops/device_types.cuh"
#include "ops/kernels.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

constexpr int kThreads = 256;

// NumPy's @NAME@_fill: integers compute start + i * delta in npy_intp (or npy_ulonglong
// for uint64), floats in their own type, float16 in float. I, the index's type: uint32_t
// for launches under 2^31 elements (an integer converts to float the same from either
// width, and the float32 kernel held 32 registers converting int64s, 19 with uint32s),
// else int64_t.
template <class T, class I>
__device__ __forceinline__ T arange_value(I i, T first, T second) {
  if (i == 0) return first;
  if (i == 1) return second;
  if constexpr (std::is_same_v<T, __half>) {
    const float start = __half2float(first);
    const float delta = __half2float(second) - start;
    return __float2half_rn(__fadd_rn(start, __fmul_rn(static_cast<float>(i), delta)));
  } else if constexpr (std::is_same_v<T, float>) {
    const float delta = __fsub_rn(second, first);
    return __fadd_rn(first, __fmul_rn(static_cast<float>(i), delta));
  } else if constexpr (std::is_same_v<T, double>) {
    const double delta = __dsub_rn(second, first);
    return __dadd_rn(first, __dmul_rn(static_cast<double>(i), delta));
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    const uint64_t delta = second - first;
    return first + static_cast<uint64_t>(i) * delta;
  } else {
    const T delta = static_cast<T>(second - first);
    return static_cast<T>(static_cast<int64_t>(first) +
                          static_cast<int64_t>(i) * static_cast<int64_t>(delta));
  }
}

// NumPy's linspace step in the compute type C: i * step + start, or (i / div) * delta +
// start where step underflows to 0; stop last with endpoint; floored where the caller casts
// to an integer dtype.
template <class C>
struct LinspaceRule {
  C start, stop, step, delta, div;
  bool step_is_zero, endpoint, floor_values;
  template <class I>
  __device__ __forceinline__ C operator()(I i, I n) const {
    const C fi = static_cast<C>(i);
    C y;
    if constexpr (std::is_same_v<C, float>) {
      y = step_is_zero ? __fmul_rn(__fdiv_rn(fi, div), delta) : __fmul_rn(fi, step);
      y = __fadd_rn(y, start);
    } else {
      y = step_is_zero ? __dmul_rn(__ddiv_rn(fi, div), delta) : __dmul_rn(fi, step);
      y = __dadd_rn(y, start);
    }
    if (endpoint && n > 1 && i == n - 1) y = stop;
    if (floor_values) y = floor(y);
    return y;
  }
};

// out[i] = O(value(i)) for i < n, 16 bytes a store: a thread writes kVec consecutive
// elements at once (out 16-byte aligned), the last n % kVec one at a time. One element a
// thread, arange and linspace wrote at a third to a half of the fill's bandwidth (H200:
// arange float32 16M 58.4 us, int64 66.0, against 18.0 and 33.9 for fills of the bytes).
// I: the index type (arange_value); a grid of at most 2^28 threads keeps uint32_t indices
// below 2^32 under 2^31 elements.
template <class O, class I, class Value>
__global__ void sequence_kernel(O* out, I n, Value value) {
  constexpr int kVec = kPer16Bytes<O>;
  const I tid = blockIdx.x * I(blockDim.x) + threadIdx.x;
  const I stride = I(gridDim.x) * blockDim.x;
  const I nvec = n / kVec;
  for (I v = tid; v < nvec; v += stride) {
    union {
      uint4 bits;
      O elem[kVec];
    } pack;
#pragma unroll
    for (int k = 0; k < kVec; ++k) pack.elem[k] = static_cast<O>(value(I(v * kVec + k), n));
    reinterpret_cast<uint4*>(out)[v] = pack.bits;
  }
  for (I i = nvec * kVec + tid; i < n; i += stride) out[i] = static_cast<O>(value(i, n));
}

// The same, one element a thread, for outputs that are not 16-byte aligned.
template <class O, class I, class Value>
__global__ void sequence_unaligned_kernel(O* out, I n, Value value) {
  for (I i = blockIdx.x * I(blockDim.x) + threadIdx.x; i < n; i += I(gridDim.x) * blockDim.x)
    out[i] = static_cast<O>(value(i, n));
}

template <class O, class I, class Value>
void launch_sequence_indexed(O* out, I n, Value value, cudaStream_t stream) {
  if (reinterpret_cast<uintptr_t>(out) % 16 == 0) {
    const dim3 grid = grid_for((int64_t(n) + kPer16Bytes<O> - 1) / kPer16Bytes<O>, kThreads);
    sequence_kernel<O, I><<<grid, kThreads, 0, stream>>>(out, n, value);
    check_launch("sequence_kernel");
  } else {
    sequence_unaligned_kernel<O, I><<<grid_for(n, kThreads), kThreads, 0, stream>>>(out, n,
                                                                                     value);
    check_launch("sequence_unaligned_kernel");
  }
}

template <class O, class Value>
void launch_sequence(O* out, int64_t n, Value value, cudaStream_t stream) {
  if (n <= INT32_MAX) launch_sequence_indexed(out, static_cast<uint32_t>(n), value, stream);
  else launch_sequence_indexed(out, n, value, stream);
}

template <class T>
struct ArangeRule {
  T first, second;
  template <class I>
  __device__ __forceinline__ T operator()(I i, I) const {
    return arange_value(i, first, second);
  }
};

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
      ArangeRule<T> rule;
      std::memcpy(&rule.first, first, sizeof(T));
      std::memcpy(&rule.second, second, sizeof(T));
      launch_sequence(reinterpret_cast<T*>(out), n, rule, stream);
    }
  });
}

void launch_linspace(char* out, int64_t n, DType out_type, DType compute_type, double start,
                     double stop, double step, double delta, double div, bool step_is_zero,
                     bool endpoint, bool floor_values, cudaStream_t stream) {
  if (n == 0) return;
  if (compute_type == DType::Float32) {
    if (out_type != DType::Float32)
      throw std::invalid_argument("launch_linspace: float32 computes into float32");
    const LinspaceRule<float> rule{float(start), float(stop), float(step), float(delta),
                                   float(div),   step_is_zero, endpoint,   floor_values};
    launch_sequence(reinterpret_cast<float*>(out), n, rule, stream);
    return;
  }
  const LinspaceRule<double> rule{start, stop, step, delta, div, step_is_zero, endpoint,
                                  floor_values};
  if (out_type == DType::Float32)  // NumPy's float64 result cast to float32, rounded once
    launch_sequence(reinterpret_cast<float*>(out), n, rule, stream);
  else if (out_type == DType::Float64)
    launch_sequence(reinterpret_cast<double*>(out), n, rule, stream);
  else
    throw std::invalid_argument("launch_linspace: float32 or float64 output");
}

}  // namespace gpuarr
