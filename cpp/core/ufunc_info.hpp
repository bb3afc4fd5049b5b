// What the host needs to know about one ufunc to dispatch a call: its name, inputs, loops
// (NumPy's order) and the rules beyond loop selection that it asks for. The ops layer's
// UfuncDef adds the compiled launchers; the planner (core/ufunc_plan.hpp) reads only this.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/ufunc_resolve.hpp"

namespace gpuarr {

// Operations a deferred elementwise chain (ops/lazy_elementwise.hpp) can fold.
enum class LazyOp : uint8_t { Add, Subtract, Multiply, Divide, Sqrt, Negative, Square, Absolute };

// Dispatch rules of a ufunc, as bits of UfuncInfo::flags.
enum UfuncFlag : uint32_t {
  // Compares its two inputs: a Python int beyond the loop's integer range is compared
  // exactly (NumPy 2), by a wider loop or, beyond every value of the array's dtype, as a
  // constant result.
  kUfuncComparison = 1u << 0,
  // With kUfuncComparison: the result when x1 < x2, and when x1 > x2 (the constant result).
  kUfuncTrueWhenLess = 1u << 1,
  kUfuncTrueWhenGreater = 1u << 2,
  // Reads only its inputs' truth values: a Python int becomes 0 or 1 (OverflowError beyond
  // int64, as NumPy reads it as a C long) and never fails a range check.
  kUfuncLogical = 1u << 3,
  // where(condition, x, y): the condition is cast to bool, x and y promote together and the
  // loop is the one whose output is their common dtype.
  kUfuncWhereSelect = 1u << 4,
  // An integer loop refuses a negative scalar second input (NumPy's "Integers to negative
  // integer powers are not allowed."); a kernel cannot raise, so the host checks.
  kUfuncNonnegativeIntExponent = 1u << 5,
};

// The rules given on a ufunc's registration line: flags and/or its deferrable operation.
struct UfuncRules {
  uint32_t flags = 0;
  std::optional<LazyOp> lazy_op;

  constexpr UfuncRules() = default;
  constexpr UfuncRules(uint32_t f) : flags(f) {}                       // NOLINT: implicit
  constexpr UfuncRules(LazyOp op) : lazy_op(op) {}                     // NOLINT: implicit
  constexpr UfuncRules(uint32_t f, LazyOp op) : flags(f), lazy_op(op) {}
};

// A loop beside NumPy's list (not in `types`, never chosen by the resolver): it reads
// inputs of other dtypes than the listed loop `computes_as` and converts them in the
// kernel, to the same results, so that such inputs skip their cast pass (integer
// true_divide reads its integers, where a cast to float64 first tripled the traffic).
struct UfuncConvertingLoop {
  UfuncLoopTypes types;
  int computes_as;
};

struct UfuncInfo {
  UfuncInfo(const char* name, int nin, UfuncResolver resolver, UfuncRules rules = {})
      : name(name), nin(nin), resolver(resolver), flags(rules.flags), lazy_op(rules.lazy_op) {}
  UfuncInfo(const UfuncInfo&) = delete;
  UfuncInfo& operator=(const UfuncInfo&) = delete;

  const char* name;
  int nin;
  UfuncResolver resolver;
  std::vector<UfuncLoopTypes> loop_types;
  std::vector<UfuncConvertingLoop> converting_loops;
  uint32_t flags;                 // UfuncFlag bits
  std::optional<LazyOp> lazy_op;  // set when large calls may be deferred
  mutable UfuncLoopCache loop_cache;

  bool has(UfuncFlag f) const { return (flags & f) != 0; }
  UfuncSignature signature() const { return {name, nin, resolver, &loop_types}; }
};

}  // namespace gpuarr
