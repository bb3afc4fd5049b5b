#include "core/ufunc_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"

namespace gpuarr {
namespace {

bool is_array(const UfuncOperand& op) { return op.kind == UfuncOperandKind::Array; }

// NumPy reads the Python int as a C long here (logical ufuncs, bool beside a huge int).
[[noreturn]] void c_long_overflow() {
  throw std::overflow_error("Python int too large to convert to C long");
}

// Whether a weak Python int is a value of integer dtype `t` (anything else always fits).
bool weak_int_fits(const UfuncOperand& op, DType t) {
  if (op.promo.weak != WeakKind::Int || !is_integer(t)) return true;
  if (op.int_overflow > 0 && t == DType::UInt64) return op.fits_uint64;  // [2**63, 2**64)
  if (op.int_overflow) return false;
  const int64_t v = op.int_value;
  switch (t) {
    case DType::Int8: return v >= INT8_MIN && v <= INT8_MAX;
    case DType::Int16: return v >= INT16_MIN && v <= INT16_MAX;
    case DType::Int32: return v >= INT32_MIN && v <= INT32_MAX;
    case DType::UInt8: return v >= 0 && v <= UINT8_MAX;
    case DType::UInt16: return v >= 0 && v <= UINT16_MAX;
    case DType::UInt32: return v >= 0 && v <= UINT32_MAX;
    case DType::UInt64: return v >= 0;
    default: return true;
  }
}

bool weak_int_positive(const UfuncOperand& op) {
  return op.int_overflow ? op.int_overflow > 0 : op.int_value > 0;
}

bool same_view(const UfuncOperand& a, const UfuncOperand& b) {
  return a.memory == b.memory && a.offset == b.offset && *a.shape == *b.shape &&
         *a.strides == *b.strides && a.promo.dtype == b.promo.dtype;
}

bool may_overlap(const UfuncOperand& a, const UfuncOperand& b) {
  if (a.memory != b.memory || shape_size(*a.shape) == 0 || shape_size(*b.shape) == 0)
    return false;
  return extents_overlap(a.offset, *a.shape, *a.strides, b.offset, *b.shape, *b.strides,
                         std::max(itemsize(a.promo.dtype), itemsize(b.promo.dtype)));
}

// where(condition, x, y): the loop whose output is x and y's common dtype (or `dtype`).
int where_loop(const UfuncCall& c, const PromotionOperand* promo) {
  const UfuncInfo& u = *c.ufunc;
  const DType t = c.dtype ? *c.dtype : result_type({promo[1], promo[2]});
  for (size_t i = 0; i < u.loop_types.size(); ++i)
    if (u.loop_types[i].out == t) return static_cast<int>(i);
  throw TypeError(std::string("ufunc '") + u.name +
                  "' not supported for the input types, and the inputs could not be safely "
                  "coerced to any supported types according to the casting rule ''" +
                  casting_name(c.casting) + "''");
}

// NumPy 2 compares a Python int beyond the loop's integer range exactly: in a loop that
// holds it (uint64, float64), or, beyond every value of the other operand's integer dtype,
// as a constant. Re-resolves plan.loop, or sets the constant.
void widen_comparison(const UfuncCall& c, PromotionOperand* promo, UfuncPlan& plan) {
  const UfuncInfo& u = *c.ufunc;
  const UfuncLoopTypes& lt = u.loop_types[plan.loop];
  for (int k = 0; k < u.nin; ++k) {
    const UfuncOperand& op = c.inputs[k];
    if (weak_int_fits(op, lt.in[k])) continue;
    for (int j = 0; j < u.nin; ++j)
      if (promo[j].weak == WeakKind::Int) promo[j] = {DType::Int64, WeakKind::None};
    if (!weak_int_fits(op, DType::Int64)) {
      const DType other = promo[1 - k].dtype;
      const bool positive = weak_int_positive(op);
      if (positive && kind_char(other) == 'u' && weak_int_fits(op, DType::UInt64)) {
        promo[k] = {DType::UInt64, WeakKind::None};
      } else if (other == DType::Bool) {
        c_long_overflow();  // bool with a Python int resolves to int64, which cannot hold it
      } else if (is_integer(other)) {
        // x1 < x2 when the int is x2 and above every array value, or x1 and below them.
        const bool x1_less = (k == 1) == positive;
        plan.constant = true;
        plan.constant_value = u.has(x1_less ? kUfuncTrueWhenLess : kUfuncTrueWhenGreater);
        plan.constant_like = is_array(c.inputs[1 - k]) ? 1 - k : -1;
        return;
      } else {
        promo[k] = {DType::Float64, WeakKind::None};
      }
    }
    plan.loop = u.loop_cache.resolve(u.signature(), promo, c.dtype, c.casting);
    return;
  }
}

// NumPy checks the inputs against `casting` once the loop is chosen: arrays, NumPy scalars
// and Python bools as dtypes ("Cannot cast ufunc 'add' input 0 from dtype('int8') to
// dtype('int16') with casting rule 'no'"); a Python int, float or complex follows the loop
// except under 'equiv', where it goes only into its default dtype (int64, float64,
// complex128), unless a comparison takes the Python int exactly or a logical ufunc its
// truth value.
void check_input_casting(const UfuncCall& c, const UfuncLoopTypes& loop) {
  const UfuncInfo& u = *c.ufunc;
  for (int k = 0; k < u.nin; ++k) {
    const PromotionOperand& p = c.inputs[k].promo;
    const DType in = loop.in[k];
    if (p.weak == WeakKind::None || p.weak == WeakKind::Bool) {
      if (!can_cast(p.dtype, in, c.casting))
        throw TypeError(ufunc_cast_error(u.name, false, k, p.dtype, in, c.casting));
      continue;
    }
    if (c.casting != Casting::Equiv) continue;
    if (p.weak == WeakKind::Int && u.has(kUfuncComparison)) continue;
    if (u.has(kUfuncLogical)) continue;  // a logical ufunc takes the scalar's truth value
    const DType natural = p.weak == WeakKind::Int     ? DType::Int64
                          : p.weak == WeakKind::Float ? DType::Float64
                                                      : DType::Complex128;
    if (in == natural) continue;
    const char* what = p.weak == WeakKind::Int     ? "int"
                       : p.weak == WeakKind::Float ? "float"
                                                   : "complex";
    throw TypeError(std::string("cannot cast Python ") + what + " to " + name(in) +
                    " under the casting rule 'equiv'");
  }
}

// NumPy converts a Python int to the loop's integer input when it resolves the loop, so a
// value out of range is its OverflowError before any shape or `out` error.
void check_int_scalars(const UfuncCall& c, const UfuncLoopTypes& loop) {
  const UfuncInfo& u = *c.ufunc;
  if (u.has(kUfuncLogical)) return;  // its truth value is taken
  for (int k = 0; k < u.nin; ++k) {
    const UfuncOperand& op = c.inputs[k];
    if (is_array(op) || weak_int_fits(op, loop.in[k])) continue;
    if (op.int_overflow) c_long_overflow();
    throw std::overflow_error("Python integer " + std::to_string(op.int_value) +
                              " out of bounds for " + name(loop.in[k]));
  }
}

// The broadcast shape of the array inputs (0-d without any).
void broadcast_inputs(const UfuncCall& c, Dims& shape) {
  const Dims* shapes[kMaxUfuncInputs];
  int n = 0;
  for (int k = 0; k < c.ufunc->nin; ++k)
    if (is_array(c.inputs[k])) shapes[n++] = c.inputs[k].shape;
  bool same = true;
  for (int k = 1; k < n; ++k) same = same && *shapes[k] == *shapes[0];
  if (n == 0) shape.clear();
  else if (same) shape = *shapes[0];
  else shape = broadcast_shapes(std::vector<const Dims*>(shapes, shapes + n));
}

// `out` must have the broadcast shape (it may add leading or stretched axes) and take the
// loop's output under the casting rule; the result then has out's shape.
void check_out(const UfuncCall& c, DType loop_out, Dims& shape) {
  const UfuncOperand& out = *c.out;
  Dims full;
  try {
    full = broadcast_shapes({out.shape, &shape});
  } catch (const ValueError&) {
    full.clear();
  }
  if (full != *out.shape) {
    throw ValueError("non-broadcastable output operand with shape " +
                     compact_shape_str(*out.shape) + " doesn't match the broadcast shape " +
                     compact_shape_str(full.empty() && !shape.empty() ? shape : full));
  }
  shape = *out.shape;
  if (!can_cast(loop_out, out.promo.dtype, c.casting))
    throw TypeError(ufunc_cast_error(c.ufunc->name, true, 0, loop_out, out.promo.dtype,
                                     c.casting));
}

bool should_defer(const UfuncCall& c, const UfuncLoopTypes& loop, const Dims& shape) {
  const UfuncInfo& u = *c.ufunc;
  if (!u.lazy_op || c.out || c.out_not_array || u.has(kUfuncWhereSelect)) return false;
  if (c.defer_min_size <= 0 || shape_size(shape) < c.defer_min_size) return false;
  if (loop.out != DType::Float32 && loop.out != DType::Float64) return false;
  const int64_t item = itemsize(loop.out);
  for (int k = 0; k < u.nin; ++k) {
    if (loop.in[k] != loop.out) return false;
    const UfuncOperand& op = c.inputs[k];
    if (is_array(op) && op.promo.dtype != loop.out) return false;
  }
  // The eager result follows this operand's memory order (order 'K'): defer only when
  // that order is C, as the deferred result's.
  const int like = ufunc_result_like(c.inputs, u.nin, shape);
  if (like < 0) return true;
  const Dims& st = *c.inputs[like].strides;
  return !is_f_contiguous(shape, st, item) &&
         strides_like(shape, st, item) == contiguous_strides(shape, item, 'C');
}

// A converting loop of plan.loop that reads every input needing a cast as it is: each such
// array of its input dtype and not overlapping `out`, each scalar a Python int it holds,
// no other inputs. Marks those arrays AsIs.
int converting_loop(const UfuncCall& c, UfuncPlan& plan) {
  const UfuncInfo& u = *c.ufunc;
  bool any_convert = false;
  for (int k = 0; k < u.nin; ++k) any_convert |= plan.use[k] == UfuncInputUse::Convert;
  if (!any_convert) return -1;
  for (size_t j = 0; j < u.converting_loops.size(); ++j) {
    const UfuncConvertingLoop& cl = u.converting_loops[j];
    if (cl.computes_as != plan.loop) continue;
    bool ok = true;
    for (int k = 0; k < u.nin && ok; ++k) {
      const UfuncOperand& op = c.inputs[k];
      const DType in = cl.types.in[k];
      if (plan.use[k] == UfuncInputUse::Convert) {
        ok = op.promo.dtype == in && !(c.out && may_overlap(op, *c.out));
      } else if (plan.use[k] == UfuncInputUse::Scalar) {
        ok = op.kind == UfuncOperandKind::WeakScalar && op.promo.weak == WeakKind::Int &&
             is_integer(in) && weak_int_fits(op, in);
      } else {
        ok = false;
      }
    }
    if (!ok) continue;
    for (int k = 0; k < u.nin; ++k)
      if (plan.use[k] == UfuncInputUse::Convert) plan.use[k] = UfuncInputUse::AsIs;
    return static_cast<int>(j);
  }
  return -1;
}

}  // namespace

UfuncPlan plan_ufunc_call(const UfuncCall& c) {
  const UfuncInfo& u = *c.ufunc;
  const int nin = u.nin;
  UfuncPlan plan;
  PromotionOperand promo[kMaxUfuncInputs];
  for (int k = 0; k < nin; ++k) promo[k] = c.inputs[k].promo;
  const bool logical = u.has(kUfuncLogical);

  // The loop.
  if (u.has(kUfuncWhereSelect)) {
    plan.loop = where_loop(c, promo);
  } else {
    if (logical) {
      for (int k = 0; k < nin; ++k)
        if (c.inputs[k].promo.weak == WeakKind::Int && c.inputs[k].int_overflow)
          c_long_overflow();
    }
    plan.loop = u.loop_cache.resolve(u.signature(), promo, c.dtype, c.casting);
    if (u.has(kUfuncComparison)) {
      widen_comparison(c, promo, plan);
      if (plan.constant) {
        if (c.out_not_array) throw TypeError("return arrays must be of ArrayType");
        return plan;
      }
    }
  }
  const UfuncLoopTypes& loop = u.loop_types[plan.loop];
  if (!u.has(kUfuncWhereSelect)) {
    check_input_casting(c, loop);
    check_int_scalars(c, loop);
  }
  if (nin == 2 && u.has(kUfuncNonnegativeIntExponent) && is_integer(loop.in[1]) &&
      !is_array(c.inputs[1]) && c.inputs[1].negative)
    throw ValueError("Integers to negative integer powers are not allowed.");

  // Shape and `out`.
  if (c.out_not_array) throw TypeError("return arrays must be of ArrayType");
  broadcast_inputs(c, plan.shape);
  if (c.out) check_out(c, loop.out, plan.shape);

  // What each input needs.
  for (int k = 0; k < nin; ++k) {
    const UfuncOperand& op = c.inputs[k];
    UfuncInputUse& use = plan.use[k];
    if (!is_array(op)) {
      use = logical && op.promo.weak == WeakKind::Int ? UfuncInputUse::ScalarTruth
                                                     : UfuncInputUse::Scalar;
    } else if (op.promo.dtype != loop.in[k]) {
      use = UfuncInputUse::Convert;
    } else if (c.out && !same_view(op, *c.out) && may_overlap(op, *c.out)) {
      use = UfuncInputUse::CopyForOverlap;
    } else {
      use = UfuncInputUse::AsIs;
    }
  }
  plan.write_out = c.out && c.out->promo.dtype == loop.out;
  plan.defer = should_defer(c, loop, plan.shape);
  if (!plan.defer && !u.converting_loops.empty()) plan.converting = converting_loop(c, plan);
  return plan;
}

namespace {

// Results of fewer elements launch as they are: a copy's own launch would cost more than
// the sectors it saves.
constexpr int64_t kRelayoutMinElements = int64_t(1) << 16;
constexpr int64_t kSectorBytes = 32;

// Permutes the launch dims so that the result (strides[0]) is walked in its memory order,
// outermost first: a fresh result laid out like an F-ordered input, or an out= view of
// another order, then runs along its contiguous dim.
void order_by_result_memory(Dims& shape, std::vector<Dims>& strides) {
  const size_t nd = shape.size();
  bool ordered = true;
  for (size_t d = 1; d < nd && ordered; ++d)
    ordered = shape[d - 1] == 1 || shape[d] == 1 ||
              std::abs(strides[0][d - 1]) >= std::abs(strides[0][d]);
  if (ordered) return;
  std::vector<size_t> perm(nd);
  for (size_t d = 0; d < nd; ++d) perm[d] = d;
  std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
    return std::abs(strides[0][a]) > std::abs(strides[0][b]);
  });
  const Dims old_shape = shape;
  for (size_t d = 0; d < nd; ++d) shape[d] = old_shape[perm[d]];
  for (Dims& s : strides) {
    const Dims old = s;
    for (size_t d = 0; d < nd; ++d) s[d] = old[perm[d]];
  }
}

}  // namespace

int ufunc_result_like(const UfuncOperand* inputs, int nin, const Dims& shape) {
  auto full = [&](int k) { return is_array(inputs[k]) && *inputs[k].shape == shape; };
  auto c_ordered = [&](int k) {
    const int64_t item = itemsize(inputs[k].promo.dtype);
    return is_c_contiguous(shape, *inputs[k].strides, item) ||
           strides_like(shape, *inputs[k].strides, item) == contiguous_strides(shape, item, 'C');
  };
  int like = -1;
  for (int k = 0; k < nin && like < 0; ++k)
    if (full(k) && !is_c_contiguous(shape, *inputs[k].strides, itemsize(inputs[k].promo.dtype)))
      like = k;
  if (like < 0 || c_ordered(like)) return like;
  // NumPy's iterator orders the axes by every operand's strides, C order winning where two
  // disagree: a C-ordered input of the result's shape beside this one makes the result C.
  for (int k = 0; k < nin; ++k)
    if (k != like && full(k) && c_ordered(k)) return -1;
  return like;
}

void plan_ufunc_launch(UfuncPlan& plan, const UfuncOperand* inputs, int nin,
                       const Dims& result_strides) {
  // Copy-constructed in place: one allocation per operand and one for the list.
  plan.strides.clear();
  plan.strides.reserve(nin + 1);
  plan.strides.emplace_back(result_strides);
  bool full_shape[kMaxUfuncInputs] = {};
  for (int k = 0; k < nin; ++k) {
    const UfuncOperand& op = inputs[k];
    if (!is_array(op)) {
      plan.strides.emplace_back(plan.shape.size(), 0);
    } else if (*op.shape == plan.shape) {
      plan.strides.emplace_back(*op.strides);
      full_shape[k] = true;
    } else {
      plan.strides.push_back(broadcast_strides(*op.shape, *op.strides, plan.shape));
    }
  }
  order_by_result_memory(plan.shape, plan.strides);
  coalesce_dims(plan.shape, plan.strides);
  // An input contiguous along another dim than the result: the launch would read it across
  // its rows, a 32-byte sector an element. A copy in the result's order goes through the
  // transposing tiles at both sides' bandwidth (a.T + b of 4096^2 float32 took 407 us).
  const size_t nd = plan.shape.size();
  if (nd < 2 || shape_size(plan.shape) < kRelayoutMinElements) return;
  const int64_t out_item = std::abs(plan.strides[0][nd - 1]);
  for (int k = 0; k < nin; ++k) {
    const UfuncOperand& op = inputs[k];
    if (!full_shape[k] || plan.use[k] == UfuncInputUse::Relayout) continue;
    const int64_t item = itemsize(op.promo.dtype);
    const Dims& st = plan.strides[k + 1];
    const int64_t inner = std::abs(st[nd - 1]);
    if (inner == 0 || inner <= kSectorBytes || out_item > kSectorBytes) continue;
    bool contiguous_elsewhere = false;
    for (size_t d = 0; d + 1 < nd; ++d) contiguous_elsewhere |= st[d] == item;
    if (contiguous_elsewhere) plan.use[k] = UfuncInputUse::Relayout;
  }
}

}  // namespace gpuarr
