// The C++ type that stands for each DType in device code, and a dispatcher from the
// runtime DType to a compile-time type tag.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>

#include "core/dtype.hpp"

namespace gpuarr {

template <class T>
struct Complex {
  T re, im;
};
using complex64_t = Complex<float>;
using complex128_t = Complex<double>;

// V elements loaded or stored as one access (16-byte aligned where V elements fill 16 bytes,
// or as the caller asks: 8 for one 8-byte load).
template <class T, int V, int Align = (sizeof(T) * V >= 16 ? 16 : alignof(T))>
struct alignas(Align) VecOf {
  T v[V];
};

// Elements of T in one 16-byte access (one for wider T).
template <class T>
constexpr int kPer16Bytes = sizeof(T) >= 16 ? 1 : 16 / static_cast<int>(sizeof(T));

template <class T>
struct TypeTag {
  using type = T;
};

template <class F>
void dispatch_dtype(DType t, F&& f) {
  switch (t) {
    case DType::Bool: return f(TypeTag<bool>{});
    case DType::Int8: return f(TypeTag<int8_t>{});
    case DType::Int16: return f(TypeTag<int16_t>{});
    case DType::Int32: return f(TypeTag<int32_t>{});
    case DType::Int64: return f(TypeTag<int64_t>{});
    case DType::UInt8: return f(TypeTag<uint8_t>{});
    case DType::UInt16: return f(TypeTag<uint16_t>{});
    case DType::UInt32: return f(TypeTag<uint32_t>{});
    case DType::UInt64: return f(TypeTag<uint64_t>{});
    case DType::Float16: return f(TypeTag<__half>{});
    case DType::Float32: return f(TypeTag<float>{});
    case DType::Float64: return f(TypeTag<double>{});
    case DType::Complex64: return f(TypeTag<complex64_t>{});
    case DType::Complex128: return f(TypeTag<complex128_t>{});
  }
}

}  // namespace gpuarr
