// Element conversions with NumPy's semantics on x86-64 for in-range values: complex to
// real drops the imaginary part, anything to bool tests for non-zero, float to narrow
// integers goes through a 32- or 64-bit integer (as the C casts NumPy compiles do).
#pragma once
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "ops/device_types.cuh"

namespace gpuarr {

template <class T> struct is_complex_t : std::false_type {};
template <class T> struct is_complex_t<Complex<T>> : std::true_type {};

// Widen a real source to the type conversions start from.
__device__ __forceinline__ double widen(__half x) { return __half2float(x); }
template <class S>
__device__ __forceinline__ S widen(S x) { return x; }

template <class D, class S>
__device__ __forceinline__ D convert_real(S x) {
  if constexpr (std::is_same_v<D, bool>) {
    return x != S(0);
  } else if constexpr (std::is_same_v<D, __half>) {
    if constexpr (std::is_same_v<S, double>) return __double2half(x);
    else return __float2half(static_cast<float>(x));
  } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
    if constexpr (sizeof(D) < 4) {
      return static_cast<D>(static_cast<int32_t>(x));
    } else if constexpr (std::is_same_v<D, uint32_t>) {
      return static_cast<D>(static_cast<int64_t>(x));
    } else if constexpr (std::is_same_v<D, uint64_t>) {
      const S two63 = S(9223372036854775808.0);
      return x >= two63 ? static_cast<uint64_t>(static_cast<int64_t>(x - two63)) + (1ull << 63)
                        : static_cast<uint64_t>(static_cast<int64_t>(x));
    } else {
      return static_cast<D>(x);
    }
  } else {
    return static_cast<D>(x);
  }
}

template <class D, class S>
__device__ __forceinline__ D convert(S x) {
  if constexpr (is_complex_t<S>::value && is_complex_t<D>::value) {
    using R = decltype(D{}.re);
    return D{static_cast<R>(x.re), static_cast<R>(x.im)};
  } else if constexpr (is_complex_t<S>::value) {
    if constexpr (std::is_same_v<D, bool>) return x.re != 0 || x.im != 0;
    else return convert_real<D>(x.re);
  } else if constexpr (is_complex_t<D>::value) {
    using R = decltype(D{}.re);
    return D{convert_real<R>(widen(x)), R(0)};
  } else if constexpr (std::is_same_v<S, __half>) {
    return convert_real<D>(__half2float(x));
  } else {
    return convert_real<D>(x);
  }
}

}  // namespace gpuarr
