#include "ops/ufunc_types.cuh"

namespace gpuarr {

void add_logical_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<LogicalAnd, 2, GA_ALL>("logical_and", R::Default, "Compute the truth value of x1 AND x2 element-wise.", kUfuncLogical));
  out.push_back(make_ufunc<LogicalOr, 2, GA_ALL>("logical_or", R::Default, "Compute the truth value of x1 OR x2 element-wise.", kUfuncLogical));
  out.push_back(make_ufunc<LogicalXor, 2, GA_ALL>("logical_xor", R::Default, "Compute the truth value of x1 XOR x2, element-wise.", kUfuncLogical));
  out.push_back(make_ufunc<LogicalNot, 1, GA_ALL>("logical_not", R::Default, "Compute the truth value of NOT x element-wise."));
  out.push_back(make_ufunc<Isnan, 1, GA_ALL>("isnan", R::Default, "Test element-wise for NaN and return result as a boolean array."));
  out.push_back(make_ufunc<Isinf, 1, GA_ALL>("isinf", R::Default, "Test element-wise for positive or negative infinity."));
  out.push_back(make_ufunc<Isfinite, 1, GA_ALL>("isfinite", R::Default, "Test element-wise for finiteness (not infinity and not Not a Number)."));
  out.push_back(make_ufunc<Signbit, 1, GA_FLOATS>("signbit", R::Default, "Returns element-wise True where signbit is set (less than zero)."));
  out.push_back(make_ufunc<Copysign, 2, GA_FLOATS>("copysign", R::Default, "Change the sign of x1 to that of x2, element-wise."));
}

}  // namespace gpuarr
