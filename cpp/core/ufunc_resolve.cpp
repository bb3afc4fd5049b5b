#include "core/ufunc_resolve.hpp"

#include "core/errors.hpp"

namespace gpuarr {
namespace {

std::string dtype_repr(DType t) { return std::string("dtype('") + name(t) + "')"; }

[[noreturn]] void no_loop(const UfuncSignature& u, const char* rule) {
  throw TypeError(std::string("ufunc '") + u.name +
                  "' not supported for the input types, and the inputs could not be safely "
                  "coerced to any supported types according to the casting rule ''" +
                  rule + "''");
}

}  // namespace

std::string ufunc_cast_error(const char* ufunc, bool output, int index, DType from, DType to,
                             Casting casting) {
  std::string s = std::string("Cannot cast ufunc '") + ufunc + "' " +
                  (output ? "output" : "input " + std::to_string(index)) + " from " +
                  dtype_repr(from) + " to " + dtype_repr(to) + " with casting rule '" +
                  casting_name(casting) + "'";
  return s;
}

int resolve_ufunc_loop(const UfuncSignature& u, const PromotionOperand* ops,
                       std::optional<DType> dtype, Casting casting) {
  const auto& loops = *u.loops;
  // Operand dtypes with Python scalars resolved against the arrays (NEP 50).
  std::vector<PromotionOperand> all(ops, ops + u.nin);
  const DType common = result_type(all);
  DType eff[kMaxUfuncInputs];
  for (int k = 0; k < u.nin; ++k) {
    eff[k] = ops[k].weak == WeakKind::None ? ops[k].dtype : weak_scalar_dtype(ops[k].weak, common);
  }
  bool any_bool = false, all_bool = true;
  for (int k = 0; k < u.nin; ++k) {
    const bool b = eff[k] == DType::Bool;
    any_bool |= b;
    all_bool &= b;
  }
  if (u.resolver == UfuncResolver::NoBoolSubtract && all_bool && !dtype) {
    throw TypeError(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
        "`^` operator, or the logical_xor function instead.");
  }
  if (u.resolver == UfuncResolver::NoBoolNegative && any_bool && !dtype) {
    throw TypeError(
        "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator "
        "or the logical_not function instead.");
  }
  if (u.resolver == UfuncResolver::NoBoolLoop && any_bool && !dtype) {
    throw TypeError(std::string("ufunc '") + u.name +
                    "' did not contain a loop with signature matching types <class "
                    "'numpy.dtypes.BoolDType'> -> None");
  }
  if (u.resolver == UfuncResolver::NoAllBoolLoop && all_bool && !dtype) {
    std::string types;
    for (int k = 0; k < u.nin; ++k)
      types += std::string(k ? ", " : "") + "<class 'numpy.dtypes.BoolDType'>";
    throw TypeError(std::string("ufunc '") + u.name +
                    "' did not contain a loop with signature matching types (" + types +
                    ") -> None");
  }
  // Whether operand k can go to a loop input of type `in`: safely; with IntExponent and an
  // array (or NumPy scalar) operand that is not bool, a Python int to any integer or float
  // input and a Python bool as a bool. (Beside bool alone a Python int is int64, and
  // Python scalars alone are int64 and float64, as NumPy resolves them.)
  bool beside_number = false, any_strong = false;
  for (int k = 0; k < u.nin; ++k) {
    any_strong |= ops[k].weak == WeakKind::None;
    beside_number |= ops[k].weak == WeakKind::None && ops[k].dtype != DType::Bool;
  }
  auto takes = [&](int k, DType in) {
    if (u.resolver == UfuncResolver::IntExponent && beside_number) {
      if (ops[k].weak == WeakKind::Int && (is_integer(in) || is_float(in))) return true;
      if (ops[k].weak == WeakKind::Bool) return can_cast(DType::Bool, in, Casting::Safe);
    } else if (u.resolver == UfuncResolver::IntExponent && !any_strong) {
      return can_cast(ops[k].dtype, in, Casting::Safe);  // bool, int64, float64, complex128
    }
    return can_cast(eff[k], in, Casting::Safe);
  };

  if (dtype) {
    // NumPy reads dtype= as the outputs' dtype only (signature (None, ..., dtype)). Its
    // loop: the first whose output is `dtype` and whose inputs the operands cast to under
    // `casting` capped at 'safe' (equal(complex64, 1, dtype=bool) takes 'FF->?'); failing
    // that, the homogeneous loop (dtype, ..., dtype) with the inputs cast under `casting`
    // itself, or NumPy's TypeError when there is none (isnan(x, dtype=float64)).
    const Casting input_casting = casting < Casting::Safe ? casting : Casting::Safe;
    for (size_t i = 0; i < loops.size(); ++i) {
      if (loops[i].out != *dtype) continue;
      bool ok = true;
      for (int k = 0; k < u.nin && ok; ++k)
        ok = ops[k].weak == WeakKind::None ? can_cast(eff[k], loops[i].in[k], input_casting)
                                           : takes(k, loops[i].in[k]);
      if (ok) return static_cast<int>(i);
    }
    for (size_t i = 0; i < loops.size(); ++i) {
      if (loops[i].out != *dtype) continue;
      bool homogeneous = true;
      for (int k = 0; k < u.nin; ++k) homogeneous &= loops[i].in[k] == loops[i].out;
      if (!homogeneous) continue;
      for (int k = 0; k < u.nin; ++k) {
        if (ops[k].weak != WeakKind::None) continue;  // Python scalars follow the loop
        if (!can_cast(eff[k], loops[i].in[k], casting)) {
          throw TypeError(ufunc_cast_error(u.name, false, k, eff[k], loops[i].in[k], casting));
        }
      }
      return static_cast<int>(i);
    }
    throw TypeError(std::string("No loop matching the specified signature and casting was "
                                "found for ufunc ") + u.name);
  }

  if (u.resolver == UfuncResolver::TrueDivide) {
    bool all_int = true;
    for (int k = 0; k < u.nin; ++k) all_int &= !is_float(eff[k]) && !is_complex(eff[k]);
    if (all_int) {
      for (size_t i = 0; i < loops.size(); ++i)
        if (loops[i].out == DType::Float64) return static_cast<int>(i);
    }
  }
  for (size_t i = 0; i < loops.size(); ++i) {
    bool ok = true;
    for (int k = 0; k < u.nin && ok; ++k) ok = takes(k, loops[i].in[k]);
    if (ok) return static_cast<int>(i);
  }
  no_loop(u, "safe");
}

int UfuncLoopCache::resolve(const UfuncSignature& u, const PromotionOperand* ops,
                            std::optional<DType> dtype, Casting casting) {
  // Key: 4 bits of dtype and 3 of weak kind per operand, the forced dtype (0 = none) and
  // the casting rule; 0 marks an empty slot, so the stored key is offset by one.
  uint64_t key = 0;
  for (int k = 0; k < u.nin; ++k)
    key = (key << 7) | (uint64_t(ops[k].dtype) << 3) | uint64_t(ops[k].weak);
  key = (key << 4) | (dtype ? uint64_t(*dtype) + 1 : 0);
  key = ((key << 3) | uint64_t(casting)) + 1;
  static_assert(kSlots == 64, "the slot index below takes 6 bits");
  std::atomic<uint64_t>& slot = slots_[(key * 0x9E3779B97F4A7C15ull) >> 58];
  const uint64_t entry = slot.load(std::memory_order_relaxed);
  if ((entry >> 32) == key) return static_cast<int>(entry & 0xffffffffu);
  const int loop = resolve_ufunc_loop(u, ops, dtype, casting);
  slot.store((key << 32) | static_cast<uint32_t>(loop), std::memory_order_relaxed);
  return loop;
}

Dims broadcast_shapes(const std::vector<const Dims*>& shapes) {
  size_t nd = 0;
  for (const Dims* s : shapes) nd = std::max(nd, s->size());
  Dims out(nd, 1);
  for (const Dims* s : shapes) {
    const size_t off = nd - s->size();
    for (size_t d = 0; d < s->size(); ++d) {
      const int64_t v = (*s)[d];
      int64_t& o = out[off + d];
      if (v == o || v == 1) continue;
      if (o == 1) {
        o = v;
        continue;
      }
      std::string msg = "operands could not be broadcast together with shapes ";
      for (const Dims* t : shapes) msg += compact_shape_str(*t) + " ";
      throw ValueError(msg);
    }
  }
  return out;
}

}  // namespace gpuarr
