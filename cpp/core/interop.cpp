#include "core/interop.hpp"

#include "core/errors.hpp"

namespace gpuarr {

DLDataType to_dl_dtype(DType t) {
  DLDataType d;
  d.lanes = 1;
  d.bits = static_cast<uint8_t>(itemsize(t) * 8);
  switch (kind(t)) {
    case DTypeKind::Bool: d.code = kDLBool; break;
    case DTypeKind::SignedInt: d.code = kDLInt; break;
    case DTypeKind::UnsignedInt: d.code = kDLUInt; break;
    case DTypeKind::Float: d.code = kDLFloat; break;
    case DTypeKind::Complex: d.code = kDLComplex; break;
  }
  return d;
}

std::string dl_dtype_name(DLDataType t) {
  std::string base;
  switch (t.code) {
    case kDLInt: base = "int"; break;
    case kDLUInt: base = "uint"; break;
    case kDLFloat: base = "float"; break;
    case kDLBfloat: base = "bfloat"; break;
    case kDLComplex: base = "complex"; break;
    case kDLBool: base = "bool"; break;
    case kDLOpaqueHandle: base = "opaque handle "; break;
    default:
      if (t.code >= kDLFloat8_e3m4 && t.code <= kDLFloat8_e8m0fnu) base = "float8 (code " +
          std::to_string(t.code) + ") ";
      else base = "type code " + std::to_string(t.code) + " ";
  }
  std::string s = base + std::to_string(t.bits);
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

DType from_dl_dtype(DLDataType t) {
  auto unsupported = [&]() -> TypeError {
    return TypeError("gpuarr has no dtype for the DLPack data type " + dl_dtype_name(t) +
                     " (supported: bool, int8-64, uint8-64, float16/32/64, complex64/128)");
  };
  if (t.lanes != 1) throw unsupported();
  char k = 0;
  switch (t.code) {
    case kDLInt: k = 'i'; break;
    case kDLUInt: k = 'u'; break;
    case kDLFloat: k = 'f'; break;
    case kDLComplex: k = 'c'; break;
    case kDLBool:
      // DLPack >= 0.8: 8-bit bool. Older PyTorch exported bool as uint8 (handled as uint8).
      if (t.bits != 8) throw unsupported();
      return DType::Bool;
    default: throw unsupported();
  }
  if (t.bits % 8 != 0) throw unsupported();
  try {
    return dtype_from_kind_and_size(k, t.bits / 8);
  } catch (const TypeError&) {
    throw unsupported();
  }
}

Dims dl_strides_from_bytes(const Dims& byte_strides, int64_t itemsize) {
  Dims s(byte_strides.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (byte_strides[i] % itemsize != 0) {
      throw BufferError("cannot export to DLPack: byte stride " +
                        std::to_string(byte_strides[i]) +
                        " is not a multiple of the itemsize " + std::to_string(itemsize) +
                        " (DLPack strides count elements); export a copy instead");
    }
    s[i] = byte_strides[i] / itemsize;
  }
  return s;
}

Dims byte_strides_from_dl(const Dims& shape, const int64_t* strides, int64_t itemsize) {
  if (strides == nullptr) return dense_strides(shape, itemsize, 'C');
  Dims s(shape.size());
  for (size_t i = 0; i < s.size(); ++i) {
    int64_t b = 0;
    if (__builtin_mul_overflow(strides[i], itemsize, &b)) {
      throw BufferError("DLPack tensor stride overflows a 64-bit byte stride");
    }
    s[i] = b;
  }
  return s;
}

ByteSpan byte_span(const Dims& shape, const Dims& byte_strides, int64_t itemsize) {
  ByteSpan r;
  for (int64_t n : shape) {
    if (n == 0) return r;
  }
  r.hi = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t ext = 0;
    if (__builtin_mul_overflow(shape[i] - 1, byte_strides[i], &ext)) {
      throw BufferError("array extent overflows a 64-bit byte offset");
    }
    if (ext < 0) r.lo += ext;
    else r.hi += ext;
  }
  return r;
}

StreamRequest dlpack_stream_request(std::optional<int64_t> stream) {
  StreamRequest r;
  if (!stream) return r;  // legacy default stream
  const int64_t s = *stream;
  if (s == -1) {
    r.synchronize = false;
    return r;
  }
  if (s == 0) {
    throw ValueError(
        "stream=0 is ambiguous for CUDA and not allowed by the DLPack protocol; use 1 for "
        "the legacy default stream, 2 for the per-thread default stream or -1 for no "
        "synchronization");
  }
  if (s < -1) throw ValueError("invalid DLPack stream " + std::to_string(s));
  r.handle = static_cast<uintptr_t>(s);
  return r;
}

StreamRequest cai_stream_request(std::optional<int64_t> stream) {
  StreamRequest r;
  if (!stream) {
    r.synchronize = false;
    return r;
  }
  const int64_t s = *stream;
  if (s == 0) {
    throw ValueError(
        "__cuda_array_interface__ stream 0 is disallowed by the protocol (ambiguous between "
        "the legacy and per-thread default streams)");
  }
  if (s < 0) throw ValueError("invalid __cuda_array_interface__ stream " + std::to_string(s));
  r.handle = static_cast<uintptr_t>(s);
  return r;
}

DType dtype_from_typestr(const std::string& ts) {
  if (ts.size() < 3) throw TypeError("invalid typestr '" + ts + "'");
  const char order = ts[0];
  const char k = ts[1];
  int64_t size = 0;
  try {
    size_t used = 0;
    size = std::stoll(ts.substr(2), &used);
    if (used != ts.size() - 2) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw TypeError("invalid typestr '" + ts + "'");
  }
  if (order != '<' && order != '|' && order != '=' && order != '>') {
    throw TypeError("invalid typestr '" + ts + "'");
  }
  if (order == '>' && size > 1) {
    throw TypeError("gpuarr does not support big-endian data (typestr '" + ts + "')");
  }
  if (k == 'b' && size == 1) return DType::Bool;
  if (k != 'i' && k != 'u' && k != 'f' && k != 'c') {
    throw TypeError("gpuarr does not support the typestr '" + ts + "'");
  }
  return dtype_from_kind_and_size(k, size);
}

}  // namespace gpuarr
