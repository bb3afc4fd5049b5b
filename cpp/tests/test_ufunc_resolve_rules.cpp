// The resolution rules beyond NumPy's default that single ufuncs ask for: gcd/lcm refuse
// operands that are all bool, and ldexp takes a Python int into an integer or float input
// (NumPy's loops 'fi->f', 'fl->f', ...).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/ufunc_resolve.hpp"

using namespace gpuarr;

namespace {

std::vector<UfuncLoopTypes> integer_loops() {
  std::vector<UfuncLoopTypes> loops;
  for (DType d : {DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32,
                  DType::UInt32, DType::Int64, DType::UInt64})
    loops.push_back({{d, d, d}, d});
  return loops;
}

// NumPy's ldexp loops (without long double).
std::vector<UfuncLoopTypes> ldexp_loops() {
  return {{{DType::Float16, DType::Int32}, DType::Float16},
          {{DType::Float32, DType::Int32}, DType::Float32},
          {{DType::Float16, DType::Int64}, DType::Float16},
          {{DType::Float32, DType::Int64}, DType::Float32},
          {{DType::Float64, DType::Int32}, DType::Float64},
          {{DType::Float64, DType::Int64}, DType::Float64}};
}

PromotionOperand arr(DType d) { return {d, WeakKind::None}; }
PromotionOperand py_int() { return {DType::Int64, WeakKind::Int}; }
PromotionOperand py_float() { return {DType::Float64, WeakKind::Float}; }
PromotionOperand py_bool() { return {DType::Bool, WeakKind::Bool}; }

}  // namespace

TEST(UfuncResolveRules, GcdRefusesOnlyAllBoolOperands) {
  const auto loops = integer_loops();
  const UfuncSignature gcd{"gcd", 2, UfuncResolver::NoAllBoolLoop, &loops};
  const PromotionOperand both_bool[] = {arr(DType::Bool), arr(DType::Bool)};
  try {
    resolve_ufunc_loop(gcd, both_bool, std::nullopt, Casting::SameKind);
    FAIL() << "no error";
  } catch (const TypeError& e) {
    EXPECT_EQ(std::string(e.what()),
              "ufunc 'gcd' did not contain a loop with signature matching types (<class "
              "'numpy.dtypes.BoolDType'>, <class 'numpy.dtypes.BoolDType'>) -> None");
  }
  const PromotionOperand bool_py_bool[] = {arr(DType::Bool), py_bool()};
  EXPECT_THROW(resolve_ufunc_loop(gcd, bool_py_bool, std::nullopt, Casting::SameKind),
               TypeError);
  // bool beside an integer takes the integer's loop; beside a Python int, int64's.
  const PromotionOperand bool_int8[] = {arr(DType::Bool), arr(DType::Int8)};
  EXPECT_EQ(loops[resolve_ufunc_loop(gcd, bool_int8, std::nullopt, Casting::SameKind)].out,
            DType::Int8);
  const PromotionOperand bool_py_int[] = {arr(DType::Bool), py_int()};
  EXPECT_EQ(loops[resolve_ufunc_loop(gcd, bool_py_int, std::nullopt, Casting::SameKind)].out,
            DType::Int64);
  const PromotionOperand floats[] = {arr(DType::Float64), arr(DType::Int8)};
  EXPECT_THROW(resolve_ufunc_loop(gcd, floats, std::nullopt, Casting::SameKind), TypeError);
}

TEST(UfuncResolveRules, LdexpExponentTakesPythonIntsAsIntegers) {
  const auto loops = ldexp_loops();
  const UfuncSignature ldexp{"ldexp", 2, UfuncResolver::IntExponent, &loops};
  auto out = [&](PromotionOperand a, PromotionOperand b) {
    const PromotionOperand ops[] = {a, b};
    const UfuncLoopTypes& lt = loops[resolve_ufunc_loop(ldexp, ops, std::nullopt,
                                                        Casting::SameKind)];
    return std::make_pair(lt.out, lt.in[1]);
  };
  // A Python int exponent goes to the first integer loop of x's type (int32).
  EXPECT_EQ(out(arr(DType::Float32), py_int()), std::make_pair(DType::Float32, DType::Int32));
  EXPECT_EQ(out(arr(DType::Float16), py_int()), std::make_pair(DType::Float16, DType::Int32));
  EXPECT_EQ(out(arr(DType::Float64), py_int()), std::make_pair(DType::Float64, DType::Int32));
  // Arrays: int64 and uint32 exponents take the int64 loops; int8 x promotes to float16.
  EXPECT_EQ(out(arr(DType::Float32), arr(DType::Int64)),
            std::make_pair(DType::Float32, DType::Int64));
  EXPECT_EQ(out(arr(DType::Float32), arr(DType::UInt32)),
            std::make_pair(DType::Float32, DType::Int64));
  EXPECT_EQ(out(arr(DType::Int8), py_int()), std::make_pair(DType::Float16, DType::Int32));
  EXPECT_EQ(out(py_float(), arr(DType::Int8)), std::make_pair(DType::Float64, DType::Int32));
  EXPECT_EQ(out(arr(DType::Float32), arr(DType::Bool)),
            std::make_pair(DType::Float32, DType::Int32));
  // A Python bool is a bool and a Python int takes float16 too: beside an int16 exponent
  // both give float16 (not int16's float32).
  EXPECT_EQ(out(py_bool(), arr(DType::Int16)), std::make_pair(DType::Float16, DType::Int32));
  EXPECT_EQ(out(py_int(), arr(DType::Int16)), std::make_pair(DType::Float16, DType::Int32));
  // Beside bool alone a Python int is int64, and Python scalars alone are int64/float64.
  EXPECT_EQ(out(py_int(), arr(DType::Bool)), std::make_pair(DType::Float64, DType::Int32));
  EXPECT_EQ(out(py_int(), py_int()), std::make_pair(DType::Float64, DType::Int64));
  EXPECT_EQ(out(py_float(), py_int()), std::make_pair(DType::Float64, DType::Int64));
  // No float exponent, no uint64 exponent (NumPy's TypeError).
  const PromotionOperand float_exp[] = {arr(DType::Float32), arr(DType::Float32)};
  EXPECT_THROW(resolve_ufunc_loop(ldexp, float_exp, std::nullopt, Casting::SameKind),
               TypeError);
  const PromotionOperand py_float_exp[] = {arr(DType::Float32), py_float()};
  EXPECT_THROW(resolve_ufunc_loop(ldexp, py_float_exp, std::nullopt, Casting::SameKind),
               TypeError);
  const PromotionOperand u64_exp[] = {arr(DType::Float64), arr(DType::UInt64)};
  EXPECT_THROW(resolve_ufunc_loop(ldexp, u64_exp, std::nullopt, Casting::SameKind),
               TypeError);
  // A forced float32 result with a Python int exponent.
  const PromotionOperand forced[] = {arr(DType::Float32), py_int()};
  EXPECT_EQ(loops[resolve_ufunc_loop(ldexp, forced, DType::Float32, Casting::SameKind)].in[1],
            DType::Int32);
}

// dtype= fixes the output only: a comparison takes the loop of the operands' own type
// (its output is bool), not the bool loop; failing every loop with that output under safe
// casting, the homogeneous loop of dtype under the call's casting rule.
TEST(UfuncResolveRules, ForcedDtypeFixesTheOutputOnly) {
  std::vector<UfuncLoopTypes> cmp;
  for (DType d : {DType::Bool, DType::Int8, DType::UInt64, DType::Int64, DType::Float16,
                  DType::Float64, DType::Complex64})
    cmp.push_back({{d, d}, DType::Bool});
  const UfuncSignature equal{"equal", 2, UfuncResolver::Default, &cmp};
  auto in0 = [&](PromotionOperand a, PromotionOperand b, DType dtype, Casting casting) {
    const PromotionOperand ops[] = {a, b};
    return cmp[resolve_ufunc_loop(equal, ops, dtype, casting)].in[0];
  };
  EXPECT_EQ(in0(arr(DType::Complex64), py_int(), DType::Bool, Casting::SameKind),
            DType::Complex64);
  EXPECT_EQ(in0(arr(DType::Int8), arr(DType::Int8), DType::Bool, Casting::Unsafe),
            DType::Int8);
  EXPECT_EQ(in0(arr(DType::UInt64), arr(DType::Int64), DType::Bool, Casting::Unsafe),
            DType::Float64);
  EXPECT_EQ(in0(arr(DType::Complex64), py_int(), DType::Bool, Casting::No), DType::Complex64);
  const PromotionOperand c64[] = {arr(DType::Complex64), py_int()};
  try {
    resolve_ufunc_loop(equal, c64, DType::Int8, Casting::SameKind);
    FAIL() << "no error";
  } catch (const TypeError& e) {
    EXPECT_EQ(std::string(e.what()),
              "No loop matching the specified signature and casting was found for ufunc "
              "equal");
  }
  // The homogeneous loop under the call's rule.
  const auto ints = integer_loops();
  const UfuncSignature add{"add", 2, UfuncResolver::Default, &ints};
  const PromotionOperand f64s[] = {arr(DType::Float64), arr(DType::Float64)};
  EXPECT_EQ(ints[resolve_ufunc_loop(add, f64s, DType::Int8, Casting::Unsafe)].in[0],
            DType::Int8);
  try {
    resolve_ufunc_loop(add, f64s, DType::Int8, Casting::SameKind);
    FAIL() << "no error";
  } catch (const TypeError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Cannot cast ufunc 'add' input 0 from dtype('float64') to dtype('int8') with "
              "casting rule 'same_kind'");
  }
}
