// Choosing a ufunc's inner loop the way NumPy 2 does: the first loop (in the ufunc's own
// order) that every operand can be cast to safely, after NEP 50 promotion of Python scalars;
// and the broadcast shape of the operands. Plain C++, unit-tested on the CPU.
#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/layout.hpp"
#include "core/promotion.hpp"

namespace gpuarr {

constexpr int kMaxUfuncInputs = 3;

struct UfuncLoopTypes {
  DType in[kMaxUfuncInputs];
  DType out;
};

// How a ufunc picks its loop beyond NumPy's default rule.
enum class UfuncResolver : uint8_t {
  Default,
  TrueDivide,  // integer and bool inputs use the float64 loop
  NoBoolSubtract,  // bool operands -> NumPy's "boolean subtract is not supported"
  NoBoolNegative,  // bool operand -> NumPy's "boolean negative is not supported"
  NoBoolLoop,      // bool operand -> no loop (NumPy does not promote bool for positive)
  NoAllBoolLoop,   // only bool operands -> no loop (gcd, lcm: integer loops, bool alone not
                   // promoted)
  IntExponent,     // a Python int takes any integer or float input of a loop whatever the
                   // other operands (ldexp: its value is then checked against that type)
};

struct UfuncSignature {
  const char* name;
  int nin;
  UfuncResolver resolver;
  const std::vector<UfuncLoopTypes>* loops;
};

// Index of the loop for these operands. `dtype` forces the loop's output: the first loop
// with that output whose inputs the operands cast to safely (or under `casting` when it is
// stricter), else the homogeneous loop of `dtype`, its inputs checked against `casting`.
// Throws TypeError with NumPy's messages.
int resolve_ufunc_loop(const UfuncSignature& ufunc, const PromotionOperand* operands,
                       std::optional<DType> dtype, Casting casting);

// resolve_ufunc_loop memoized for one ufunc. The answer depends only on the operands'
// dtypes and weak kinds, `dtype` and `casting`, and working it out (result_type,
// promote_types, can_cast over the loops) was ~8% of a tiny `a + b`. A direct-mapped table
// of atomic entries: thread-safe without a lock; failed resolutions (errors) are not kept.
class UfuncLoopCache {
 public:
  int resolve(const UfuncSignature& ufunc, const PromotionOperand* operands,
              std::optional<DType> dtype, Casting casting);

 private:
  static constexpr int kSlots = 64;
  std::atomic<uint64_t> slots_[kSlots] = {};
};

// NumPy's broadcast result shape; ValueError "operands could not be broadcast together
// with shapes (2,) (3,) " otherwise.
Dims broadcast_shapes(const std::vector<const Dims*>& shapes);

// "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting
// rule 'same_kind'" (input: "input 0 from ...").
std::string ufunc_cast_error(const char* ufunc, bool output, int index, DType from, DType to,
                             Casting casting);

}  // namespace gpuarr
