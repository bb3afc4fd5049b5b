// The dispatch of one ufunc call, worked out on the host before anything is allocated or
// launched (ATen's TensorIterator idea): from plain descriptions of the operands, the loop,
// the errors NumPy raises, the constant answer of an out-of-range comparison, what each
// input needs (a cast, a copy because it overlaps `out`), whether the call is deferred, and
// the result's shape, layout and coalesced launch dimensions. The bindings turn Python
// objects into these descriptions and carry the plan out. Plain C++, unit-tested on the CPU.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/layout.hpp"
#include "core/promotion.hpp"
#include "core/ufunc_info.hpp"

namespace gpuarr {

enum class UfuncOperandKind : uint8_t {
  Array,
  WeakScalar,    // a Python bool, int, float or complex (NEP 50: defers to the arrays' dtype)
  StrongScalar,  // a NumPy scalar
};

// One input, or `out`, as the planner sees it.
struct UfuncOperand {
  UfuncOperandKind kind = UfuncOperandKind::Array;
  PromotionOperand promo{DType::Float64, WeakKind::None};  // arrays: {dtype, None}
  // Arrays: the view and the identity of its allocation (for overlap with `out`).
  const Dims* shape = nullptr;
  const Dims* strides = nullptr;  // bytes
  int64_t offset = 0;             // bytes from the allocation's start to element 0
  const void* memory = nullptr;
  // Python ints and bools, as PyLong_AsLongLongAndOverflow reads them.
  int64_t int_value = 0;     // when int_overflow == 0
  int8_t int_overflow = 0;   // +1 above int64's range, -1 below it
  bool fits_uint64 = false;  // above int64's range but below 2**64
  // Scalars: below zero (read by ufuncs with kUfuncNonnegativeIntExponent).
  bool negative = false;
};

struct UfuncCall {
  const UfuncInfo* ufunc = nullptr;
  const UfuncOperand* inputs = nullptr;  // ufunc->nin of them
  const UfuncOperand* out = nullptr;     // an array, or nullptr when none is given
  bool out_not_array = false;            // `out` was given but is not a gpuarr array
  std::optional<DType> dtype;
  Casting casting = Casting::SameKind;
  // Results of at least this many elements may be deferred; <= 0 never.
  int64_t defer_min_size = 0;
};

// What the call does with input k.
enum class UfuncInputUse : uint8_t {
  AsIs,            // the array itself
  Convert,         // a copy in the loop's input dtype (order 'K')
  CopyForOverlap,  // a copy (order 'K'): it overlaps `out` without being the same view
  Scalar,          // the scalar, converted to the loop's input dtype
  ScalarTruth,     // the scalar's truth value (0 or 1), converted to the loop's input dtype
  // Set by plan_ufunc_launch: a copy laid out like the result (the input is contiguous
  // along another dim than the result, which the launch would read across); the launch
  // is then planned again.
  Relayout,
};

struct UfuncPlan {
  int loop = -1;  // index into the ufunc's loop_types (and launchers)
  // Index into the ufunc's converting_loops when one computes `loop` from the inputs as
  // they are (their uses then say AsIs, and scalars convert to its input types), else -1.
  int converting = -1;
  // A comparison of an integer array with a Python int beyond every value of its dtype:
  // `constant_value` everywhere, shaped like input `constant_like` (-1: 0-d), written into
  // `out` when one is given; no kernel runs and nothing below is set.
  bool constant = false;
  bool constant_value = false;
  int constant_like = -1;
  UfuncInputUse use[kMaxUfuncInputs] = {};
  // Try a deferred result (ops/lazy_elementwise.hpp) first: large float32/float64 work
  // of a deferrable ufunc whose inputs need no cast and whose eager result would be
  // C-contiguous (the deferred one is).
  bool defer = false;
  // The kernel writes `out` (it has the loop's output dtype); otherwise a fresh result,
  // copied into `out` afterwards when one is given.
  bool write_out = false;
  // The result's shape; plan_ufunc_launch coalesces it into the launch's.
  Dims shape;
  // Set by plan_ufunc_launch: the launch's byte strides, operand 0 the output.
  std::vector<Dims> strides;
};

// Plans `call`. Throws TypeError and ValueError with NumPy's messages, and
// std::overflow_error (Python's OverflowError) for a Python int out of the range of the
// loop's integer input (before the shape and out= errors, as NumPy). Converting the
// scalars to the loop's types is left to the caller.
UfuncPlan plan_ufunc_call(const UfuncCall& call);

// The input a fresh result is laid out like (order 'K'): the first array of the result's
// shape that is not C-contiguous; -1 for C order. `inputs` as they will be launched (copies
// in place of the originals).
int ufunc_result_like(const UfuncOperand* inputs, int nin, const Dims& shape);

// Fills plan.strides for the result's `result_strides` and `inputs` as they are launched
// (arrays broadcast to plan.shape, scalars stride 0), orders the dims by the result's
// memory order, then coalesces plan.shape with them. Marks Relayout the large array inputs
// that are contiguous along another dim than the result (the caller copies them like the
// result and calls this again).
void plan_ufunc_launch(UfuncPlan& plan, const UfuncOperand* inputs, int nin,
                       const Dims& result_strides);

}  // namespace gpuarr
