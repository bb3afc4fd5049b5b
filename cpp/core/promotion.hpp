// NumPy 2 type promotion (NEP 50) and casting rules over gpuarr's dtypes. Python scalars are
// "weak": they take the kind of their value but defer to the arrays' dtype within a kind.
#pragma once
#include <vector>

#include "core/dtype.hpp"

namespace gpuarr {

enum class Casting : uint8_t { No, Equiv, Safe, SameKind, Unsafe };

// The kind of a Python scalar operand (None for arrays and NumPy scalars, which are strong).
enum class WeakKind : uint8_t { None, Bool, Int, Float, Complex };

struct PromotionOperand {
  DType dtype;                       // for a weak scalar: the default dtype of its kind
  WeakKind weak = WeakKind::None;
};

// numpy.promote_types.
DType promote_types(DType a, DType b);
// numpy.can_cast(from, to, casting).
bool can_cast(DType from, DType to, Casting casting);
// numpy.result_type over arrays/dtypes (strong) and Python scalars (weak). All weak:
// the default dtypes (bool, int64, float64, complex128), promoted by kind.
DType result_type(const std::vector<PromotionOperand>& operands);
// The dtype a weak scalar of `kind` takes beside a strong dtype `strong`.
DType weak_scalar_dtype(WeakKind kind, DType strong);
// Default dtype of a Python scalar of this kind (bool, int64, float64, complex128).
DType default_dtype(WeakKind kind);

// "no", "equiv", "safe", "same_kind", "unsafe"; ValueError as NumPy's for other strings.
Casting casting_from_name(const char* name);
const char* casting_name(Casting c);

// The real dtype of a complex one (complex64 -> float32); other dtypes map to themselves.
DType real_dtype(DType t);
// The complex dtype holding a float (float16/float32 -> complex64, float64 -> complex128).
DType complex_dtype(DType t);

}  // namespace gpuarr
