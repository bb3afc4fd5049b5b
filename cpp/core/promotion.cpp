#include "core/promotion.hpp"

#include <cstring>
#include <string>

#include "core/errors.hpp"

namespace gpuarr {
namespace {

int size_of(DType t) { return static_cast<int>(itemsize(t)); }

DType signed_int_of_size(int size) {
  switch (size) {
    case 1: return DType::Int8;
    case 2: return DType::Int16;
    case 4: return DType::Int32;
    default: return DType::Int64;
  }
}

DType float_of_size(int size) {
  return size <= 2 ? DType::Float16 : size == 4 ? DType::Float32 : DType::Float64;
}

// The smallest float size able to hold every value of an integer dtype exactly enough for
// NumPy's table: 8-bit -> float16, 16-bit -> float32, wider -> float64.
int float_size_for_int(DType t) {
  const int s = size_of(t);
  return s == 1 ? 2 : s == 2 ? 4 : 8;
}

// Float component size of a float or complex dtype.
int float_size(DType t) { return is_complex(t) ? size_of(t) / 2 : size_of(t); }

}  // namespace

DType real_dtype(DType t) {
  if (t == DType::Complex64) return DType::Float32;
  if (t == DType::Complex128) return DType::Float64;
  return t;
}

DType complex_dtype(DType t) {
  if (is_complex(t)) return t;
  return size_of(t) == 8 && is_float(t) ? DType::Complex128 : DType::Complex64;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  const DTypeKind ka = kind(a), kb = kind(b);
  if (ka == DTypeKind::Bool) return b;
  if (kb == DTypeKind::Bool) return a;
  const bool a_int = is_integer(a), b_int = is_integer(b);
  if (a_int && b_int) {
    if (ka == kb) return size_of(a) >= size_of(b) ? a : b;
    const DType s = ka == DTypeKind::SignedInt ? a : b;
    const DType u = ka == DTypeKind::SignedInt ? b : a;
    if (size_of(u) < size_of(s)) return s;
    if (size_of(u) == 8) return DType::Float64;
    return signed_int_of_size(2 * size_of(u));
  }
  // At least one is inexact: the float size needed by each side, then the kind.
  const int need_a = a_int ? float_size_for_int(a) : float_size(a);
  const int need_b = b_int ? float_size_for_int(b) : float_size(b);
  const int need = need_a > need_b ? need_a : need_b;
  if (is_complex(a) || is_complex(b)) return need <= 4 ? DType::Complex64 : DType::Complex128;
  return float_of_size(need);
}

bool can_cast(DType from, DType to, Casting casting) {
  if (from == to) return true;
  switch (casting) {
    case Casting::No:
    case Casting::Equiv:
      return false;
    case Casting::Unsafe:
      return true;
    case Casting::Safe:
      return promote_types(from, to) == to;
    case Casting::SameKind: {
      if (promote_types(from, to) == to) return true;
      // Same kind or a "lower" kind: b < u < i < f < c, where u -> i is allowed.
      auto rank = [](DType t) {
        switch (kind(t)) {
          case DTypeKind::Bool: return 0;
          case DTypeKind::UnsignedInt: return 1;
          case DTypeKind::SignedInt: return 2;
          case DTypeKind::Float: return 3;
          case DTypeKind::Complex: return 4;
        }
        return 0;
      };
      const int rf = rank(from), rt = rank(to);
      if (rf == rt) return true;
      if (rf == 1 && rt == 2) return true;
      return rf < rt;
    }
  }
  return false;
}

DType default_dtype(WeakKind k) {
  switch (k) {
    case WeakKind::Bool: return DType::Bool;
    case WeakKind::Int: return DType::Int64;
    case WeakKind::Float: return DType::Float64;
    case WeakKind::Complex: return DType::Complex128;
    case WeakKind::None: break;
  }
  return DType::Float64;
}

DType weak_scalar_dtype(WeakKind k, DType strong) {
  switch (k) {
    case WeakKind::None: return strong;
    case WeakKind::Bool: return strong;
    case WeakKind::Int:
      return kind(strong) == DTypeKind::Bool ? DType::Int64 : strong;
    case WeakKind::Float:
      return is_float(strong) || is_complex(strong) ? strong : DType::Float64;
    case WeakKind::Complex:
      if (is_complex(strong)) return strong;
      if (is_float(strong)) return complex_dtype(strong);
      return DType::Complex128;
  }
  return strong;
}

DType result_type(const std::vector<PromotionOperand>& operands) {
  bool have_strong = false;
  DType strong = DType::Bool;
  WeakKind weakest_needed = WeakKind::None;
  for (const auto& op : operands) {
    if (op.weak == WeakKind::None) {
      strong = have_strong ? promote_types(strong, op.dtype) : op.dtype;
      have_strong = true;
    } else if (static_cast<int>(op.weak) > static_cast<int>(weakest_needed)) {
      weakest_needed = op.weak;
    }
  }
  if (!have_strong) {
    if (operands.empty()) throw ValueError("at least one array or dtype is required");
    return default_dtype(weakest_needed);
  }
  // Weak kinds ordered Bool < Int < Float < Complex: the highest one decides.
  return weak_scalar_dtype(weakest_needed, strong);
}

Casting casting_from_name(const char* n) {
  if (!std::strcmp(n, "no")) return Casting::No;
  if (!std::strcmp(n, "equiv")) return Casting::Equiv;
  if (!std::strcmp(n, "safe")) return Casting::Safe;
  if (!std::strcmp(n, "same_kind")) return Casting::SameKind;
  if (!std::strcmp(n, "unsafe")) return Casting::Unsafe;
  throw ValueError(
      "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}

const char* casting_name(Casting c) {
  switch (c) {
    case Casting::No: return "no";
    case Casting::Equiv: return "equiv";
    case Casting::Safe: return "safe";
    case Casting::SameKind: return "same_kind";
    case Casting::Unsafe: return "unsafe";
  }
  return "unsafe";
}

}  // namespace gpuarr
