#include "ops/ufunc_types.cuh"

namespace gpuarr {

void add_arithmetic_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Add, 2, GA_ALL>("add", R::Default, "Add arguments element-wise.", LazyOp::Add));
  out.push_back(make_ufunc<Subtract, 2, GA_NUMBERS>("subtract", R::NoBoolSubtract,
                                                    "Subtract arguments, element-wise.",
                                                    LazyOp::Subtract));
  out.push_back(make_ufunc<Multiply, 2, GA_ALL>("multiply", R::Default,
                                                "Multiply arguments element-wise.", LazyOp::Multiply));
  UfuncDef* divide = make_ufunc<TrueDivide, 2, GA_INEXACT>(
      "divide", R::TrueDivide, "Divide arguments element-wise.", LazyOp::Divide);
  // Integers divide in float64 (R::TrueDivide picks that loop), read as they are.
  add_converting_loops<TrueDivide, 2, double, GA_INTS>(divide);
  out.push_back(divide);
  out.push_back(make_ufunc<Power, 2, GA_NUMBERS>(
      "power", R::Default, "First array elements raised to powers from second array, element-wise.",
      kUfuncNonnegativeIntExponent));
  out.push_back(make_ufunc<Power, 2, double, complex128_t>(
      "float_power", R::Default, "First array elements raised to powers from second array, element-wise, in float64 or complex128."));
}

}  // namespace gpuarr
