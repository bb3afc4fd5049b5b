// Accumulator arithmetic of the products: integers accumulate as uint64 with wrap-around
// (exact modulo 2^bits, as NumPy's integer matmul), bool as OR of ANDs, float16 in float32.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "ops/device_types.cuh"

namespace gpuarr {

template <class T> struct AccOf { using type = T; };
template <> struct AccOf<__half> { using type = float; };
template <> struct AccOf<int8_t> { using type = uint64_t; };
template <> struct AccOf<int16_t> { using type = uint64_t; };
template <> struct AccOf<int32_t> { using type = uint64_t; };
template <> struct AccOf<int64_t> { using type = uint64_t; };
template <> struct AccOf<uint8_t> { using type = uint64_t; };
template <> struct AccOf<uint16_t> { using type = uint64_t; };
template <> struct AccOf<uint32_t> { using type = uint64_t; };
template <> struct AccOf<uint64_t> { using type = uint64_t; };

template <class T> struct RealOf { using type = T; };
template <class R> struct RealOf<Complex<R>> { using type = R; };
template <> struct RealOf<__half> { using type = float; };  // accumulate |x| in float

template <class T>
__device__ __forceinline__ typename AccOf<T>::type to_acc(T v) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(v);
  else return static_cast<typename AccOf<T>::type>(v);
}
template <class T>
__device__ __forceinline__ T from_acc(typename AccOf<T>::type v) {
  if constexpr (std::is_same_v<T, __half>) return __float2half(v);
  else return static_cast<T>(v);
}

template <class A> __device__ __forceinline__ A acc_zero() {
  if constexpr (std::is_same_v<A, bool>) return false;
  else return A{};
}
template <class A> __device__ __forceinline__ A acc_add(A x, A y) {
  if constexpr (std::is_same_v<A, bool>) return x || y;
  else if constexpr (std::is_same_v<A, Complex<float>> || std::is_same_v<A, Complex<double>>)
    return A{x.re + y.re, x.im + y.im};
  else return x + y;
}
template <class A> __device__ __forceinline__ A acc_mul(A x, A y) {
  if constexpr (std::is_same_v<A, bool>) return x && y;
  else if constexpr (std::is_same_v<A, Complex<float>> || std::is_same_v<A, Complex<double>>)
    return A{x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
  else return x * y;
}
template <class A> __device__ __forceinline__ A acc_conj(A x) {
  if constexpr (std::is_same_v<A, Complex<float>> || std::is_same_v<A, Complex<double>>)
    return A{x.re, -x.im};
  else return x;
}
// acc + x * y
template <class A> __device__ __forceinline__ A acc_fma(A acc, A x, A y) {
  return acc_add(acc, acc_mul(x, y));
}

}  // namespace gpuarr
