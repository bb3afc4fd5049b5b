// The ufunc planner (core/ufunc_plan.hpp) against NumPy 2's behaviour: broadcasting, out=,
// overlap copies, NEP 50 promotion with Python scalars, out-of-range comparisons, logical
// ufuncs, where, integer powers, the deferral decision, the result's layout and the
// coalesced launch. Expected messages are NumPy's.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/ufunc_plan.hpp"

// Counts heap allocations, so that a test can hold the per-call path to its budget.
static std::atomic<long> g_allocations{0};
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace gpuarr;

namespace {

using D = DType;

// NumPy's loop order: ? b B h H i I l L e f d F D.
const DType kLoopOrder[] = {D::Bool,    D::Int8,    D::UInt8,     D::Int16,     D::UInt16,
                            D::Int32,   D::UInt32,  D::Int64,     D::UInt64,    D::Float16,
                            D::Float32, D::Float64, D::Complex64, D::Complex128};

bool numeric(DType t) { return t != D::Bool; }
bool inexact(DType t) { return is_float(t) || is_complex(t); }

// A ufunc with one loop per dtype of `keep`, inputs of that dtype (the where condition
// bool), output `out_bool` ? bool : that dtype.
template <class Keep>
void add_loops(UfuncInfo& u, Keep keep, bool out_bool, bool where = false) {
  for (DType t : kLoopOrder) {
    if (!keep(t)) continue;
    UfuncLoopTypes lt{{t, t, t}, out_bool ? D::Bool : t};
    if (where) lt.in[0] = D::Bool;
    u.loop_types.push_back(lt);
  }
}

struct Ufuncs {
  UfuncInfo add{"add", 2, UfuncResolver::Default, LazyOp::Add};
  UfuncInfo maximum{"maximum", 2, UfuncResolver::Default};
  UfuncInfo sqrt{"sqrt", 1, UfuncResolver::Default, LazyOp::Sqrt};
  UfuncInfo less{"less", 2, UfuncResolver::Default, kUfuncComparison | kUfuncTrueWhenLess};
  UfuncInfo greater{"greater", 2, UfuncResolver::Default,
                    kUfuncComparison | kUfuncTrueWhenGreater};
  UfuncInfo equal{"equal", 2, UfuncResolver::Default, kUfuncComparison};
  UfuncInfo not_equal{"not_equal", 2, UfuncResolver::Default,
                      kUfuncComparison | kUfuncTrueWhenLess | kUfuncTrueWhenGreater};
  UfuncInfo logical_and{"logical_and", 2, UfuncResolver::Default, kUfuncLogical};
  UfuncInfo where{"where", 3, UfuncResolver::Default, kUfuncWhereSelect};
  UfuncInfo power{"power", 2, UfuncResolver::Default, kUfuncNonnegativeIntExponent};
  UfuncInfo divide{"divide", 2, UfuncResolver::TrueDivide, LazyOp::Divide};

  Ufuncs() {
    auto all = [](DType) { return true; };
    add_loops(add, all, false);
    add_loops(maximum, all, false);
    add_loops(sqrt, inexact, false);
    for (UfuncInfo* c : {&less, &greater, &equal, &not_equal, &logical_and})
      add_loops(*c, all, true);
    add_loops(where, all, false, true);
    add_loops(power, numeric, false);
    add_loops(divide, inexact, false);
    // Integers read as they are in place of the float64 loop (e f d F D: index 2).
    for (DType t : kLoopOrder)
      if (is_integer(t)) divide.converting_loops.push_back({{{t, t, t}, D::Float64}, 2});
  }
};

constexpr int64_t kDeferMinSize = 1 << 20;

const Ufuncs& ufuncs() {
  static const Ufuncs* u = new Ufuncs;
  return *u;
}

// An array view: C-contiguous unless strides are given; its own allocation unless one is
// named.
struct TestArray {
  DType dtype;
  Dims shape;
  Dims strides;
  int64_t offset = 0;
  const void* memory;

  TestArray(DType t, Dims s, std::optional<Dims> st = std::nullopt, const void* mem = nullptr,
            int64_t off = 0)
      : dtype(t), shape(std::move(s)), offset(off), memory(mem ? mem : this) {
    strides = st ? *st : contiguous_strides(shape, itemsize(t), 'C');
  }
  UfuncOperand desc() const {
    UfuncOperand d;
    d.kind = UfuncOperandKind::Array;
    d.promo = {dtype, WeakKind::None};
    d.shape = &shape;
    d.strides = &strides;
    d.offset = offset;
    d.memory = memory;
    return d;
  }
};

UfuncOperand weak_int(int64_t v) {
  UfuncOperand d;
  d.kind = UfuncOperandKind::WeakScalar;
  d.promo = {D::Int64, WeakKind::Int};
  d.int_value = v;
  d.negative = v < 0;
  return d;
}

// A Python int beyond int64: 2**63 (fits uint64), 2**64 (does not), or -2**63 - 1.
UfuncOperand huge_int(int sign, bool fits_uint64) {
  UfuncOperand d = weak_int(0);
  d.int_overflow = static_cast<int8_t>(sign);
  d.fits_uint64 = fits_uint64;
  d.negative = sign < 0;
  return d;
}

UfuncOperand weak_float(double v) {
  UfuncOperand d;
  d.kind = UfuncOperandKind::WeakScalar;
  d.promo = {D::Float64, WeakKind::Float};
  d.negative = v < 0;
  return d;
}

UfuncOperand strong(DType t, bool negative = false) {
  UfuncOperand d;
  d.kind = UfuncOperandKind::StrongScalar;
  d.promo = {t, WeakKind::None};
  d.negative = negative;
  return d;
}

struct Call {
  const UfuncInfo* u;
  std::vector<UfuncOperand> in;
  const TestArray* out = nullptr;
  bool out_not_array = false;
  std::optional<DType> dtype;
  Casting casting = Casting::SameKind;
  int64_t defer_min_size = 0;

  UfuncPlan plan() const {
    UfuncOperand out_desc;
    UfuncCall c;
    c.ufunc = u;
    c.inputs = in.data();
    if (out) {
      out_desc = out->desc();
      c.out = &out_desc;
    }
    c.out_not_array = out_not_array;
    c.dtype = dtype;
    c.casting = casting;
    c.defer_min_size = defer_min_size;
    return plan_ufunc_call(c);
  }
};

const UfuncLoopTypes& loop_of(const Call& c, const UfuncPlan& p) {
  return c.u->loop_types.at(p.loop);
}

// The message of the exception `f` throws as E ("" when it does not throw).
template <class E, class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// --- Broadcasting ---------------------------------------------------------------------

TEST(UfuncPlan, BroadcastShapes) {
  const Ufuncs& u = ufuncs();
  const TestArray a23(D::Float64, {2, 3}), a3(D::Float64, {3}), a21(D::Float64, {2, 1}),
      a13(D::Float64, {1, 3}), a0d(D::Float64, {}), e03(D::Float64, {0, 3}),
      a32(D::Float64, {3, 2});
  EXPECT_EQ(Call({&u.add, {a23.desc(), a3.desc()}}).plan().shape, (Dims{2, 3}));
  EXPECT_EQ(Call({&u.add, {a21.desc(), a13.desc()}}).plan().shape, (Dims{2, 3}));
  EXPECT_EQ(Call({&u.add, {a0d.desc(), a3.desc()}}).plan().shape, (Dims{3}));
  EXPECT_EQ(Call({&u.add, {a0d.desc(), a0d.desc()}}).plan().shape, (Dims{}));
  EXPECT_EQ(Call({&u.add, {a23.desc(), weak_float(1)}}).plan().shape, (Dims{2, 3}));
  EXPECT_EQ(Call({&u.add, {weak_int(1), weak_float(1)}}).plan().shape, (Dims{}));
  EXPECT_EQ(Call({&u.add, {e03.desc(), a3.desc()}}).plan().shape, (Dims{0, 3}));
  EXPECT_EQ(Call({&u.add, {e03.desc(), a13.desc()}}).plan().shape, (Dims{0, 3}));
  EXPECT_EQ(error_of<ValueError>([&] { Call({&u.add, {a23.desc(), a32.desc()}}).plan(); }),
            "operands could not be broadcast together with shapes (2,3) (3,2) ");
  EXPECT_EQ(error_of<ValueError>([&] { Call({&u.add, {e03.desc(), a23.desc()}}).plan(); }),
            "operands could not be broadcast together with shapes (0,3) (2,3) ");
}

// --- out= -----------------------------------------------------------------------------

TEST(UfuncPlan, OutShapeAndCast) {
  const Ufuncs& u = ufuncs();
  const TestArray a23(D::Float64, {2, 3}), a3(D::Float64, {3});
  const TestArray o3(D::Float64, {3}), o4(D::Float64, {4}), o23(D::Float64, {2, 3}),
      o23_i64(D::Int64, {2, 3}), o23_f32(D::Float32, {2, 3});
  auto with_out = [&](const UfuncOperand& x, const TestArray& out) {
    Call c{&u.add, {x, x}};
    c.out = &out;
    return c;
  };
  EXPECT_EQ(error_of<ValueError>([&] { with_out(a23.desc(), o3).plan(); }),
            "non-broadcastable output operand with shape (3,) doesn't match the broadcast "
            "shape (2,3)");
  EXPECT_EQ(error_of<ValueError>([&] { with_out(a3.desc(), o4).plan(); }),
            "non-broadcastable output operand with shape (4,) doesn't match the broadcast "
            "shape (3,)");
  // out may have more (or stretched) axes than the inputs: the result takes out's shape.
  const UfuncPlan p = with_out(a3.desc(), o23).plan();
  EXPECT_EQ(p.shape, (Dims{2, 3}));
  EXPECT_TRUE(p.write_out);
  EXPECT_FALSE(p.defer);
  EXPECT_EQ(error_of<TypeError>([&] { with_out(a23.desc(), o23_i64).plan(); }),
            "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with "
            "casting rule 'same_kind'");
  // float64 -> float32 is same_kind: a fresh float64 result, then assigned into out.
  const UfuncPlan q = with_out(a23.desc(), o23_f32).plan();
  EXPECT_FALSE(q.write_out);
  EXPECT_EQ(loop_of(with_out(a23.desc(), o23_f32), q).out, D::Float64);
  Call c = with_out(a23.desc(), o23_f32);
  c.casting = Casting::Safe;
  EXPECT_EQ(error_of<TypeError>([&] { c.plan(); }),
            "Cannot cast ufunc 'add' output from dtype('float64') to dtype('float32') with "
            "casting rule 'safe'");
  Call bad{&u.add, {a23.desc(), a23.desc()}};
  bad.out_not_array = true;
  EXPECT_EQ(error_of<TypeError>([&] { bad.plan(); }), "return arrays must be of ArrayType");
}

// --- Overlap between inputs and out ---------------------------------------------------

TEST(UfuncPlan, OverlapWithOut) {
  const Ufuncs& u = ufuncs();
  static const char buffer = 0;  // one allocation's identity
  const TestArray head(D::Float32, {4}, std::nullopt, &buffer, 0);
  const TestArray head_again(D::Float32, {4}, std::nullopt, &buffer, 0);
  const TestArray shifted(D::Float32, {4}, std::nullopt, &buffer, 4);
  const TestArray tail(D::Float32, {4}, std::nullopt, &buffer, 16);
  const TestArray elsewhere(D::Float32, {4});
  const TestArray shifted_i32(D::Int32, {4}, std::nullopt, &buffer, 4);
  auto uses = [&](const TestArray& in, const TestArray& out) {
    Call c{&u.add, {in.desc(), weak_float(1)}};
    c.out = &out;
    return c.plan().use[0];
  };
  EXPECT_EQ(uses(head_again, head), UfuncInputUse::AsIs);  // the same view: elementwise safe
  EXPECT_EQ(uses(shifted, head), UfuncInputUse::CopyForOverlap);
  EXPECT_EQ(uses(tail, head), UfuncInputUse::AsIs);   // disjoint parts of one allocation
  EXPECT_EQ(uses(elsewhere, head), UfuncInputUse::AsIs);
  // A cast copy is already a fresh array.
  EXPECT_EQ(uses(shifted_i32, head), UfuncInputUse::Convert);  // float64 loop
  // Without out nothing is copied.
  EXPECT_EQ(Call({&u.add, {shifted.desc(), head.desc()}}).plan().use[0], UfuncInputUse::AsIs);
}

// --- Promotion with Python scalars (NEP 50) -------------------------------------------

TEST(UfuncPlan, WeakScalarsTakeTheArraysDtype) {
  const Ufuncs& u = ufuncs();
  const TestArray i8(D::Int8, {3}), u8(D::UInt8, {3}), f32(D::Float32, {3}),
      f16(D::Float16, {3}), i32(D::Int32, {3});
  auto out_dtype = [&](std::vector<UfuncOperand> in) {
    Call c{&u.add, std::move(in)};
    return loop_of(c, c.plan()).out;
  };
  // int8 + 1000 and uint8 + -1 stay in the array's dtype, which cannot hold the Python int:
  // NumPy's OverflowError when it resolves the loop, before any shape or out= error.
  EXPECT_EQ(error_of<std::overflow_error>([&] { out_dtype({i8.desc(), weak_int(1000)}); }),
            "Python integer 1000 out of bounds for int8");
  EXPECT_EQ(error_of<std::overflow_error>([&] { out_dtype({u8.desc(), weak_int(-1)}); }),
            "Python integer -1 out of bounds for uint8");
  const TestArray o4(D::Float64, {4});
  Call bad_out{&u.add, {u8.desc(), huge_int(+1, false)}};
  bad_out.out = &o4;
  EXPECT_EQ(error_of<std::overflow_error>([&] { bad_out.plan(); }),
            "Python int too large to convert to C long");
  const UfuncPlan p = Call({&u.add, {i8.desc(), weak_int(100)}}).plan();
  EXPECT_EQ(p.use[1], UfuncInputUse::Scalar);
  EXPECT_EQ(out_dtype({f32.desc(), weak_float(1.0)}), D::Float32);
  EXPECT_EQ(out_dtype({f16.desc(), weak_float(1.0)}), D::Float16);
  EXPECT_EQ(out_dtype({i8.desc(), weak_float(1.0)}), D::Float64);
  EXPECT_EQ(out_dtype({weak_int(1), weak_float(1.0)}), D::Float64);
  // NumPy scalars are strong.
  EXPECT_EQ(out_dtype({i32.desc(), strong(D::Float32)}), D::Float64);
  EXPECT_EQ(out_dtype({f32.desc(), strong(D::Float64)}), D::Float64);
  // An array of another dtype is cast to the loop's.
  const UfuncPlan q = Call({&u.add, {i32.desc(), f32.desc()}}).plan();
  EXPECT_EQ(q.use[0], UfuncInputUse::Convert);
  EXPECT_EQ(q.use[1], UfuncInputUse::Convert);
}

TEST(UfuncPlan, ComparisonsWithOutOfRangePythonInts) {
  const Ufuncs& u = ufuncs();
  const TestArray i8(D::Int8, {3}), u8(D::UInt8, {3}), i64(D::Int64, {3}),
      f32(D::Float32, {3}), b(D::Bool, {3});
  auto plan = [&](const UfuncInfo& f, std::vector<UfuncOperand> in) {
    return Call({&f, std::move(in)}).plan();
  };
  // Beyond int64 beside an integer array: a constant, shaped like the array.
  UfuncPlan p = plan(u.less, {i8.desc(), huge_int(+1, true)});
  EXPECT_TRUE(p.constant);
  EXPECT_TRUE(p.constant_value);
  EXPECT_EQ(p.constant_like, 0);
  p = plan(u.less, {huge_int(+1, false), i8.desc()});
  EXPECT_TRUE(p.constant);
  EXPECT_FALSE(p.constant_value);
  EXPECT_EQ(p.constant_like, 1);
  EXPECT_TRUE(plan(u.greater, {i8.desc(), huge_int(-1, false)}).constant_value);
  EXPECT_FALSE(plan(u.greater, {i8.desc(), huge_int(+1, true)}).constant_value);
  EXPECT_TRUE(plan(u.greater, {huge_int(+1, true), i64.desc()}).constant_value);
  EXPECT_FALSE(plan(u.equal, {i8.desc(), huge_int(+1, true)}).constant_value);
  EXPECT_TRUE(plan(u.not_equal, {i8.desc(), huge_int(-1, false)}).constant_value);
  EXPECT_TRUE(plan(u.less, {i64.desc(), huge_int(+1, true)}).constant_value);
  EXPECT_FALSE(plan(u.equal, {u8.desc(), huge_int(+1, false)}).constant_value);
  EXPECT_TRUE(plan(u.greater, {u8.desc(), huge_int(-1, false)}).constant_value);
  // Two Python ints beyond int64: 0-d.
  p = plan(u.less, {huge_int(-1, false), weak_int(5)});
  EXPECT_TRUE(p.constant);
  EXPECT_TRUE(p.constant_value);
  EXPECT_EQ(p.constant_like, -1);
  // Beyond int8 but within int64: compared exactly in int64.
  Call c{&u.less, {i8.desc(), weak_int(1000)}};
  p = c.plan();
  EXPECT_FALSE(p.constant);
  EXPECT_EQ(loop_of(c, p).in[0], D::Int64);
  EXPECT_EQ(loop_of(c, p).in[1], D::Int64);
  c = Call{&u.less, {u8.desc(), weak_int(-1)}};
  EXPECT_EQ(loop_of(c, c.plan()).in[0], D::Int64);
  // 2**63 beside unsigned: uint64.
  c = Call{&u.less, {u8.desc(), huge_int(+1, true)}};
  EXPECT_EQ(loop_of(c, c.plan()).in[1], D::UInt64);
  // Beside a float array the loop is the float one, which holds any Python int.
  c = Call{&u.less, {f32.desc(), huge_int(+1, false)}};
  p = c.plan();
  EXPECT_FALSE(p.constant);
  EXPECT_EQ(loop_of(c, p).in[0], D::Float32);
  // bool with such an int resolves to int64, which cannot hold it.
  EXPECT_EQ(error_of<std::overflow_error>([&] { plan(u.less, {b.desc(), huge_int(+1, true)}); }),
            "Python int too large to convert to C long");
  // In range: the array's own loop, no widening.
  c = Call{&u.less, {i8.desc(), weak_int(100)}};
  EXPECT_EQ(loop_of(c, c.plan()).in[0], D::Int8);
  // The constant needs no out check, but out must still be an array.
  Call bad{&u.less, {i8.desc(), weak_int(1000)}};
  bad.out_not_array = true;
  EXPECT_EQ(error_of<TypeError>([&] { bad.plan(); }), "return arrays must be of ArrayType");
  // Not a comparison: no folding, NumPy's range error.
  c = Call{&u.maximum, {i8.desc(), weak_int(1000)}};
  EXPECT_EQ(error_of<std::overflow_error>([&] { c.plan(); }),
            "Python integer 1000 out of bounds for int8");
}

TEST(UfuncPlan, InputsAreCheckedAgainstTheCastingRule) {
  const Ufuncs& u = ufuncs();
  const TestArray i8(D::Int8, {3}), i16(D::Int16, {3}), f16(D::Float16, {3}),
      f64(D::Float64, {3});
  Call c{&u.add, {i8.desc(), i16.desc()}};
  c.casting = Casting::No;
  EXPECT_EQ(error_of<TypeError>([&] { c.plan(); }),
            "Cannot cast ufunc 'add' input 0 from dtype('int8') to dtype('int16') with "
            "casting rule 'no'");
  c.casting = Casting::Safe;
  EXPECT_NO_THROW(c.plan());
  // Under 'equiv' a Python float goes only into float64 (NumPy's rule; 'no' lets it
  // follow the loop), and a comparison takes a Python int whatever the loop.
  Call m{&u.maximum, {f16.desc(), weak_float(2.0)}};
  m.casting = Casting::Equiv;
  EXPECT_EQ(error_of<TypeError>([&] { m.plan(); }),
            "cannot cast Python float to float16 under the casting rule 'equiv'");
  m.casting = Casting::No;
  EXPECT_NO_THROW(m.plan());
  m = Call{&u.maximum, {f64.desc(), weak_float(2.0)}};
  m.casting = Casting::Equiv;
  EXPECT_NO_THROW(m.plan());
  Call cmp{&u.less, {i8.desc(), weak_int(2)}};
  cmp.casting = Casting::Equiv;
  EXPECT_NO_THROW(cmp.plan());
  cmp = Call{&u.less, {f16.desc(), weak_float(2.0)}};
  cmp.casting = Casting::Equiv;
  EXPECT_EQ(error_of<TypeError>([&] { cmp.plan(); }),
            "cannot cast Python float to float16 under the casting rule 'equiv'");
  // A logical ufunc takes the Python float's truth value, whatever the casting rule.
  Call logical{&u.logical_and, {f16.desc(), weak_float(2.0)}};
  logical.casting = Casting::Equiv;
  EXPECT_NO_THROW(logical.plan());
}

TEST(UfuncPlan, LogicalUfuncsReadTruthValues) {
  const Ufuncs& u = ufuncs();
  const TestArray i8(D::Int8, {3});
  Call c{&u.logical_and, {i8.desc(), weak_int(int64_t(1) << 62)}};
  const UfuncPlan p = c.plan();
  EXPECT_EQ(loop_of(c, p).in[1], D::Int8);  // no range check against int8
  EXPECT_EQ(p.use[0], UfuncInputUse::AsIs);
  EXPECT_EQ(p.use[1], UfuncInputUse::ScalarTruth);
  EXPECT_EQ(Call({&u.logical_and, {i8.desc(), weak_float(2.5)}}).plan().use[1],
            UfuncInputUse::Scalar);
  EXPECT_EQ(error_of<std::overflow_error>([&] {
              Call({&u.logical_and, {i8.desc(), huge_int(+1, true)}}).plan();
            }),
            "Python int too large to convert to C long");
}

TEST(UfuncPlan, WhereConditionIsBoolAndBranchesPromoteTogether) {
  const Ufuncs& u = ufuncs();
  const TestArray cond(D::Bool, {3}), cond_i8(D::Int8, {3}), i8(D::Int8, {3}),
      f32(D::Float32, {3}), f64(D::Float64, {3});
  auto plan_loop = [&](std::vector<UfuncOperand> in, UfuncPlan* out = nullptr) {
    Call c{&u.where, std::move(in)};
    c.defer_min_size = 1;
    const UfuncPlan p = c.plan();
    if (out) *out = p;
    return loop_of(c, p);
  };
  UfuncPlan p;
  UfuncLoopTypes lt = plan_loop({cond_i8.desc(), f32.desc(), weak_float(1.0)}, &p);
  EXPECT_EQ(lt.out, D::Float32);
  EXPECT_EQ(lt.in[0], D::Bool);
  EXPECT_EQ(p.use[0], UfuncInputUse::Convert);
  EXPECT_EQ(p.use[1], UfuncInputUse::AsIs);
  EXPECT_FALSE(p.defer);  // where is never deferred
  EXPECT_EQ(plan_loop({cond.desc(), i8.desc(), weak_int(1000)}).out, D::Int8);
  EXPECT_EQ(plan_loop({cond.desc(), f32.desc(), strong(D::Float64)}).out, D::Float64);
  EXPECT_EQ(plan_loop({cond.desc(), i8.desc(), f64.desc()}).out, D::Float64);
  EXPECT_EQ(plan_loop({weak_int(1), weak_int(2), weak_float(3.0)}).out, D::Float64);
}

TEST(UfuncPlan, IntegerPowerRefusesNegativeScalarExponents) {
  const Ufuncs& u = ufuncs();
  const TestArray i64(D::Int64, {3}), f64(D::Float64, {3});
  const std::string msg = "Integers to negative integer powers are not allowed.";
  EXPECT_EQ(error_of<ValueError>([&] { Call({&u.power, {i64.desc(), weak_int(-1)}}).plan(); }),
            msg);
  EXPECT_EQ(error_of<ValueError>([&] {
              Call({&u.power, {i64.desc(), strong(D::Int8, true)}}).plan();
            }),
            msg);
  // Float loops, array exponents (the kernel gives 0) and non-negative scalars are fine.
  EXPECT_NO_THROW(Call({&u.power, {f64.desc(), weak_int(-1)}}).plan());
  EXPECT_NO_THROW(Call({&u.power, {i64.desc(), weak_float(-1.0)}}).plan());
  EXPECT_NO_THROW(Call({&u.power, {i64.desc(), i64.desc()}}).plan());
  EXPECT_NO_THROW(Call({&u.power, {i64.desc(), weak_int(2)}}).plan());
  // The rule is the ufunc's flag, not its loops: add takes a negative int.
  EXPECT_NO_THROW(Call({&u.add, {i64.desc(), weak_int(-1)}}).plan());
}

// --- Deferral -------------------------------------------------------------------------

TEST(UfuncPlan, DeferralDecision) {
  const Ufuncs& u = ufuncs();
  const int64_t n = kDeferMinSize;
  const TestArray f32(D::Float32, {n}), f32b(D::Float32, {n}), f64(D::Float64, {n}),
      i32(D::Int32, {n}), small(D::Float32, {n - 1});
  const TestArray c2(D::Float32, {1024, 1024});
  const TestArray f2(D::Float32, {1024, 1024}, Dims{4, 4096});        // order F
  const TestArray sliced(D::Float32, {1024, 1024}, Dims{8192, 4});    // a[:, ::1] of 1024x2048
  const TestArray reversed(D::Float32, {n}, Dims{-4});
  auto defers = [&](const UfuncInfo& f, std::vector<UfuncOperand> in, int64_t min = kDeferMinSize,
                    const TestArray* out = nullptr) {
    Call c{&f, std::move(in)};
    c.defer_min_size = min;
    c.out = out;
    return c.plan().defer;
  };
  EXPECT_TRUE(defers(u.add, {f32.desc(), f32b.desc()}));
  EXPECT_TRUE(defers(u.add, {f32.desc(), weak_float(2.0)}));
  EXPECT_TRUE(defers(u.add, {f64.desc(), f64.desc()}));
  EXPECT_TRUE(defers(u.sqrt, {f32.desc()}));
  EXPECT_FALSE(defers(u.add, {small.desc(), small.desc()}));      // below the threshold
  EXPECT_TRUE(defers(u.add, {small.desc(), small.desc()}, n - 1));
  EXPECT_FALSE(defers(u.add, {f32.desc(), f32b.desc()}, 0));      // deferral off
  EXPECT_FALSE(defers(u.add, {i32.desc(), i32.desc()}));          // not float32/float64
  EXPECT_FALSE(defers(u.add, {f32.desc(), f64.desc()}));          // an input needs a cast
  EXPECT_FALSE(defers(u.add, {f32.desc(), strong(D::Float64)}));  // float64 loop, f32 input
  EXPECT_FALSE(defers(u.maximum, {f32.desc(), f32b.desc()}));     // not deferrable
  EXPECT_FALSE(defers(u.less, {f32.desc(), f32b.desc()}));
  EXPECT_FALSE(defers(u.add, {f32.desc(), f32b.desc()}, n, &f32b));  // out given
  // The eager result would follow an F-ordered operand: not deferred. A sliced or reversed
  // operand's order 'K' is C, as the deferred result is.
  EXPECT_TRUE(defers(u.add, {c2.desc(), c2.desc()}));
  // F beside C: NumPy's result is C (C order wins where operands disagree), as deferred.
  EXPECT_TRUE(defers(u.add, {f2.desc(), c2.desc()}));
  EXPECT_TRUE(defers(u.add, {c2.desc(), f2.desc()}));
  EXPECT_FALSE(defers(u.add, {f2.desc(), f2.desc()}));
  EXPECT_TRUE(defers(u.add, {sliced.desc(), f2.desc()}));  // the first non-C operand decides
  EXPECT_TRUE(defers(u.add, {reversed.desc(), f32.desc()}));
}

// --- Result layout and launch ---------------------------------------------------------

TEST(UfuncPlan, ResultLayoutFollowsTheFirstNonCOperandOfTheResultShape) {
  const TestArray c(D::Float32, {2, 3}), f(D::Float32, {2, 3}, Dims{4, 8}),
      row_strided(D::Float32, {3}, Dims{8}), empty_f(D::Float32, {0, 3}, Dims{4, 0}),
      c_sliced(D::Float32, {2, 3}, Dims{24, 8}), f_sliced(D::Float32, {2, 3}, Dims{8, 16});
  const Dims shape{2, 3};
  auto like = [&](std::vector<UfuncOperand> in) {
    return ufunc_result_like(in.data(), static_cast<int>(in.size()), shape);
  };
  EXPECT_EQ(like({c.desc(), c.desc()}), -1);
  EXPECT_EQ(like({f.desc(), f_sliced.desc()}), 0);
  EXPECT_EQ(like({c_sliced.desc(), f.desc()}), 0);  // C-ordered: the result is C either way
  // An F-ordered and a C-ordered operand of the result's shape: NumPy's result is C.
  EXPECT_EQ(like({c.desc(), f.desc()}), -1);
  EXPECT_EQ(like({f.desc(), c.desc()}), -1);
  EXPECT_EQ(like({f.desc(), c_sliced.desc()}), -1);
  EXPECT_EQ(like({row_strided.desc(), c.desc()}), -1);  // broadcast operands do not count
  EXPECT_EQ(like({weak_float(1), f.desc()}), 1);
  const Dims empty{0, 3};
  std::vector<UfuncOperand> in{empty_f.desc()};
  EXPECT_EQ(ufunc_result_like(in.data(), 1, empty), -1);  // empty arrays are C-contiguous
}

TEST(UfuncPlan, LaunchDimsAreCoalesced) {
  const Ufuncs& u = ufuncs();
  const TestArray c23(D::Float32, {2, 3}), r3(D::Float32, {3}), col(D::Float32, {2, 1}),
      f23(D::Float32, {2, 3}, Dims{4, 8}), z(D::Float32, {}), e03(D::Float32, {0, 3});
  auto launch = [&](std::vector<UfuncOperand> in, const Dims& result_strides) {
    Call c{&u.add, in};
    UfuncPlan p = c.plan();
    plan_ufunc_launch(p, in.data(), static_cast<int>(in.size()), result_strides);
    return p;
  };
  const Dims c_strides{12, 4};
  UfuncPlan p = launch({c23.desc(), c23.desc()}, c_strides);
  EXPECT_EQ(p.shape, (Dims{6}));
  EXPECT_EQ(p.strides, (std::vector<Dims>{{4}, {4}, {4}}));
  p = launch({c23.desc(), weak_float(1)}, c_strides);  // a scalar has stride 0 everywhere
  EXPECT_EQ(p.shape, (Dims{6}));
  EXPECT_EQ(p.strides, (std::vector<Dims>{{4}, {4}, {0}}));
  p = launch({c23.desc(), r3.desc()}, c_strides);  // a broadcast row keeps two dims
  EXPECT_EQ(p.shape, (Dims{2, 3}));
  EXPECT_EQ(p.strides, (std::vector<Dims>{{12, 4}, {12, 4}, {0, 4}}));
  p = launch({col.desc(), r3.desc()}, c_strides);
  EXPECT_EQ(p.shape, (Dims{2, 3}));
  EXPECT_EQ(p.strides, (std::vector<Dims>{{12, 4}, {4, 0}, {0, 4}}));
  // Dims in the result's memory order: an F-ordered result merges with F-ordered inputs.
  p = launch({f23.desc(), f23.desc()}, Dims{4, 8});
  EXPECT_EQ(p.shape, (Dims{6}));
  EXPECT_EQ(p.strides, (std::vector<Dims>{{4}, {4}, {4}}));
  p = launch({f23.desc(), c23.desc()}, Dims{4, 8});  // mixed orders: nothing merges
  EXPECT_EQ(p.shape, (Dims{3, 2}));
  EXPECT_EQ(p.strides, (std::vector<Dims>{{8, 4}, {8, 4}, {4, 12}}));
  EXPECT_EQ(p.use[1], UfuncInputUse::AsIs);  // too small to copy
  p = launch({z.desc(), z.desc()}, Dims{});  // 0-d keeps its shape
  EXPECT_EQ(p.shape, (Dims{}));
  EXPECT_EQ(p.strides, (std::vector<Dims>{{}, {}, {}}));
  p = launch({e03.desc(), r3.desc()}, Dims{12, 4});  // empty keeps its shape
  EXPECT_EQ(p.shape, (Dims{0, 3}));
}

// --- Per-call cost --------------------------------------------------------------------

// The small `a + b` path: planning allocates only the result's shape, and the launch only
// its stride vectors (one per operand and their holder), as the dispatch did before the
// planner existed.
TEST(UfuncPlan, SmallAddAllocations) {
  const Ufuncs& u = ufuncs();
  const TestArray a(D::Float32, {1000}), b(D::Float32, {1000});
  const UfuncOperand in[2] = {a.desc(), b.desc()};
  UfuncCall c;
  c.ufunc = &u.add;
  c.inputs = in;
  c.defer_min_size = 1 << 20;
  (void)plan_ufunc_call(c);  // fills the loop cache
  const long before = g_allocations.load();
  UfuncPlan p = plan_ufunc_call(c);
  const long planned = g_allocations.load();
  plan_ufunc_launch(p, in, 2, a.strides);
  const long launched = g_allocations.load();
  EXPECT_EQ(planned - before, 1);
  EXPECT_EQ(launched - planned, 4);
  EXPECT_FALSE(p.defer);
}

// Plan construction for `a + b` (1-d float32, same shapes), printed for the record; the
// bound only catches a pathological regression (the dispatch's whole budget is ~6 us).

// --- Converting loops -----------------------------------------------------------------

TEST(UfuncPlan, ConvertingLoopsReadIntegerInputsAsTheyAre) {
  const Ufuncs& u = ufuncs();
  const TestArray i32(D::Int32, {8}), i32b(D::Int32, {8}), i64(D::Int64, {8}),
      f64(D::Float64, {8}), u8(D::UInt8, {8});
  auto converting = [&](const Call& c) {
    const UfuncPlan p = c.plan();
    EXPECT_EQ(loop_of(c, p).out, D::Float64);
    if (p.converting < 0) return DType::Bool;  // none
    for (int k = 0; k < 2; ++k)
      EXPECT_TRUE(p.use[k] == UfuncInputUse::AsIs || p.use[k] == UfuncInputUse::Scalar);
    return c.u->converting_loops.at(p.converting).types.in[0];
  };
  EXPECT_EQ(converting({&u.divide, {i32.desc(), i32b.desc()}}), D::Int32);
  EXPECT_EQ(converting({&u.divide, {u8.desc(), u8.desc()}}), D::UInt8);
  EXPECT_EQ(converting({&u.divide, {i32.desc(), weak_int(7)}}), D::Int32);
  EXPECT_EQ(converting({&u.divide, {weak_int(-3), i64.desc()}}), D::Int64);
  // A Python int the input dtype cannot hold, a float, mixed dtypes, an input that needs
  // no cast: the listed loop and its casts.
  EXPECT_EQ(converting({&u.divide, {i32.desc(), weak_int(int64_t(1) << 40)}}), D::Bool);
  EXPECT_EQ(converting({&u.divide, {i32.desc(), weak_float(2.5)}}), D::Bool);
  EXPECT_EQ(converting({&u.divide, {i32.desc(), i64.desc()}}), D::Bool);
  EXPECT_EQ(converting({&u.divide, {i32.desc(), f64.desc()}}), D::Bool);
  // out overlapping an input that is read as it is: the cast copy stays.
  static const char buffer = 0;
  const TestArray in_buffer(D::Int32, {8}, std::nullopt, &buffer, 0);
  const TestArray out_on_it(D::Float64, {8}, std::nullopt, &buffer, 0);
  Call c{&u.divide, {in_buffer.desc(), i32.desc()}};
  c.out = &out_on_it;
  EXPECT_EQ(converting(c), D::Bool);
  EXPECT_EQ(c.plan().use[0], UfuncInputUse::Convert);
  const TestArray out_elsewhere(D::Float64, {8});
  c.out = &out_elsewhere;
  EXPECT_EQ(converting(c), D::Int32);
  // A float call keeps its listed loop.
  EXPECT_EQ(Call({&u.divide, {f64.desc(), f64.desc()}}).plan().converting, -1);
}

// --- Inputs contiguous along another dim than the result ----------------------------------

TEST(UfuncPlan, LargeTransposedInputsAreCopiedLikeTheResult) {
  const Ufuncs& u = ufuncs();
  const int64_t n = 512;
  const TestArray c(D::Float32, {n, n}), f(D::Float32, {n, n}, Dims{4, 4 * n}),
      row(D::Float32, {n}), strided(D::Float32, {n, n}, Dims{8 * n, 8}),
      no_unit(D::Float32, {n, n}, Dims{8, 8 * n}), small_f(D::Float32, {64, 64}, Dims{4, 256});
  auto launch = [&](std::vector<UfuncOperand> in, const Dims& result_strides) {
    Call call{&u.add, in};
    UfuncPlan p = call.plan();
    plan_ufunc_launch(p, in.data(), static_cast<int>(in.size()), result_strides);
    return p;
  };
  const Dims c_strides{4 * n, 4}, f_strides{4, 4 * n};
  UfuncPlan p = launch({c.desc(), f.desc()}, c_strides);
  EXPECT_EQ(p.use[0], UfuncInputUse::AsIs);
  EXPECT_EQ(p.use[1], UfuncInputUse::Relayout);
  p = launch({f.desc(), c.desc()}, f_strides);  // a result like the F-ordered input
  EXPECT_EQ(p.use[0], UfuncInputUse::AsIs);
  EXPECT_EQ(p.use[1], UfuncInputUse::Relayout);
  EXPECT_EQ(p.strides[0].back(), 4);  // walked along the result's contiguous dim
  // Broadcast rows, strided views without a contiguous dim, short inner strides and small
  // results launch as they are.
  EXPECT_EQ(launch({c.desc(), row.desc()}, c_strides).use[1], UfuncInputUse::AsIs);
  EXPECT_EQ(launch({c.desc(), strided.desc()}, c_strides).use[1], UfuncInputUse::AsIs);
  EXPECT_EQ(launch({c.desc(), no_unit.desc()}, c_strides).use[1], UfuncInputUse::AsIs);
  EXPECT_EQ(launch({small_f.desc(), small_f.desc()}, Dims{256, 4}).use[0], UfuncInputUse::AsIs);
}
