// The element types gpuarr supports, numbered as NumPy's type numbers are *not* (those
// differ between platforms); conversion to NumPy dtype objects happens in the bindings.
#pragma once
#include <cstdint>
#include <string>

namespace gpuarr {

enum class DType : uint8_t {
  Bool,
  Int8, Int16, Int32, Int64,
  UInt8, UInt16, UInt32, UInt64,
  Float16, Float32, Float64,
  Complex64, Complex128,
};
constexpr int kNumDTypes = 14;

enum class DTypeKind : uint8_t { Bool, SignedInt, UnsignedInt, Float, Complex };

int64_t itemsize(DType t);
DTypeKind kind(DType t);
// NumPy's canonical name ("float32", "bool", ...).
const char* name(DType t);
// NumPy's kind character ('b', 'i', 'u', 'f', 'c') and the array-interface typestr ("<f4").
char kind_char(DType t);
std::string typestr(DType t);
// Looks up a dtype by NumPy kind character and itemsize; throws TypeError when unsupported.
DType dtype_from_kind_and_size(char kind, int64_t size);
// Looks up by canonical name; throws TypeError for names gpuarr does not support.
DType dtype_from_name(const std::string& name);

inline bool is_complex(DType t) { return kind(t) == DTypeKind::Complex; }
inline bool is_float(DType t) { return kind(t) == DTypeKind::Float; }
inline bool is_integer(DType t) {
  return kind(t) == DTypeKind::SignedInt || kind(t) == DTypeKind::UnsignedInt;
}

}  // namespace gpuarr
