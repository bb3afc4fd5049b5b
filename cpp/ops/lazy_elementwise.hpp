// Deferred elementwise arithmetic: on large float32/float64 arrays, `+ - * /`, sqrt,
// negative, square and absolute return a pending array; an operation on pending operands
// folds their expressions into its own, and the whole expression runs as one pass over
// memory when its result is first needed (runtime/deferred_work.hpp says when that is).
// The fused pass rounds each operation as its own kernel would, so results are bitwise
// those of eager evaluation.
#pragma once
#include <cstdint>
#include <optional>

#include "core/ufunc_info.hpp"
#include "ops/ndarray.hpp"
#include "ops/ufunc.hpp"

namespace gpuarr {

// LazyOp (core/ufunc_info.hpp) names the operations; a ufunc's definition says which one it
// is, and the ufunc planner (core/ufunc_plan.hpp) decides whether a call is deferred.

// One input: an array of the loop's dtype, or a scalar already converted to it.
struct LazyOperand {
  const NDArray* array = nullptr;
  alignas(16) unsigned char scalar[16] = {};
};

// A pending result of `op` over `operands` (dtype `t`, broadcast to `shape`; the planner
// chose deferral), or nullopt when the operation should run now: a layout the
// fused pass cannot index, an expression past its limits, or an input whose memory is
// shared outside gpuarr. `loop` is the ufunc's compiled loop for `t`: an expression that
// is still this one operation over contiguous aligned operands when it runs takes that
// loop's contiguous kernel, which is lighter than the fused pass's interpreter.
std::optional<NDArray> defer_elementwise(LazyOp op, DType t, const Dims& shape,
                                         const LazyOperand* operands, int nin, UfuncLaunch loop);

// The minimum size: arrays below this many elements run eagerly (a pending node costs host time that only a
// saved pass over memory repays). Default 2^20, or GPUARR_LAZY_MIN_SIZE; <= 0 turns
// deferral off.
int64_t set_lazy_min_size(int64_t n);  // returns the previous value
int64_t lazy_min_size();

}  // namespace gpuarr
