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
  out.push_back(make_ufunc<TrueDivide, 2, GA_INEXACT>("divide", R::TrueDivide,
                                                      "Divide arguments element-wise.", LazyOp::Divide));
  out.push_back(make_ufunc<FloorDivide, 2, GA_REAL_NUMBERS>(
      "floor_divide", R::Default, "Return the largest integer smaller or equal to the division of the inputs."));
  // divmod's quotient: NumPy's, where floor_divide follows the Array API standard for
  // infinite operands (ufunc_math.cuh).
  out.push_back(make_ufunc<DivmodQuotient, 2, GA_REAL_NUMBERS>(
      "_divmod_quotient", R::Default, "The quotient divmod returns (numpy.divmod's)."));
  out.push_back(make_ufunc<Remainder, 2, GA_REAL_NUMBERS>(
      "remainder", R::Default, "Returns the element-wise remainder of division."));
  out.push_back(make_ufunc<Fmod, 2, GA_REAL_NUMBERS>(
      "fmod", R::Default, "Returns the element-wise remainder of division (C's fmod)."));
  out.push_back(make_ufunc<Power, 2, GA_NUMBERS>(
      "power", R::Default, "First array elements raised to powers from second array, element-wise.",
      kUfuncNonnegativeIntExponent));
  out.push_back(make_ufunc<Power, 2, double, complex128_t>(
      "float_power", R::Default, "First array elements raised to powers from second array, element-wise, in float64 or complex128."));
}

}  // namespace gpuarr
