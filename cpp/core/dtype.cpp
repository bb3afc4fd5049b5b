#include "core/dtype.hpp"

#include "core/errors.hpp"

namespace gpuarr {
namespace {

struct DTypeInfo {
  const char* name;
  char kind;
  int64_t size;
  DTypeKind kind_enum;
};

constexpr DTypeInfo kTable[kNumDTypes] = {
    {"bool", 'b', 1, DTypeKind::Bool},
    {"int8", 'i', 1, DTypeKind::SignedInt},
    {"int16", 'i', 2, DTypeKind::SignedInt},
    {"int32", 'i', 4, DTypeKind::SignedInt},
    {"int64", 'i', 8, DTypeKind::SignedInt},
    {"uint8", 'u', 1, DTypeKind::UnsignedInt},
    {"uint16", 'u', 2, DTypeKind::UnsignedInt},
    {"uint32", 'u', 4, DTypeKind::UnsignedInt},
    {"uint64", 'u', 8, DTypeKind::UnsignedInt},
    {"float16", 'f', 2, DTypeKind::Float},
    {"float32", 'f', 4, DTypeKind::Float},
    {"float64", 'f', 8, DTypeKind::Float},
    {"complex64", 'c', 8, DTypeKind::Complex},
    {"complex128", 'c', 16, DTypeKind::Complex},
};

const DTypeInfo& info(DType t) { return kTable[static_cast<int>(t)]; }

}  // namespace

int64_t itemsize(DType t) { return info(t).size; }
DTypeKind kind(DType t) { return info(t).kind_enum; }
const char* name(DType t) { return info(t).name; }
char kind_char(DType t) { return info(t).kind; }

std::string typestr(DType t) {
  const char order = itemsize(t) == 1 ? '|' : '<';
  return std::string(1, order) + kind_char(t) + std::to_string(itemsize(t));
}

DType dtype_from_kind_and_size(char kind, int64_t size) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (kTable[i].kind == kind && kTable[i].size == size) return static_cast<DType>(i);
  }
  throw TypeError("gpuarr does not support the data type with kind '" + std::string(1, kind) +
                  "' and itemsize " + std::to_string(size));
}

DType dtype_from_name(const std::string& n) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (n == kTable[i].name) return static_cast<DType>(i);
  }
  throw TypeError("gpuarr does not support the data type " + n);
}

}  // namespace gpuarr
