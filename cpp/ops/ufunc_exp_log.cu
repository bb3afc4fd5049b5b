#include "ops/ufunc_types.cuh"

namespace gpuarr {

void add_exp_log_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Sqrt, 1, GA_INEXACT>("sqrt", R::Default, "Return the non-negative square-root of an array, element-wise.", LazyOp::Sqrt));
  out.push_back(make_ufunc<Cbrt, 1, GA_FLOATS>("cbrt", R::Default, "Return the cube-root of an array, element-wise."));
  out.push_back(make_ufunc<Exp, 1, GA_INEXACT>("exp", R::Default, "Calculate the exponential of all elements in the input array."));
  out.push_back(make_ufunc<Exp2, 1, GA_INEXACT>("exp2", R::Default, "Calculate 2**p for all p in the input array."));
  out.push_back(make_ufunc<Expm1, 1, GA_INEXACT>("expm1", R::Default, "Calculate exp(x) - 1 for all elements in the array."));
  out.push_back(make_ufunc<Log, 1, GA_INEXACT>("log", R::Default, "Natural logarithm, element-wise."));
  out.push_back(make_ufunc<Log2, 1, GA_INEXACT>("log2", R::Default, "Base-2 logarithm of x."));
  out.push_back(make_ufunc<Log10, 1, GA_INEXACT>("log10", R::Default, "Return the base 10 logarithm of the input array, element-wise."));
  out.push_back(make_ufunc<Log1p, 1, GA_INEXACT>("log1p", R::Default, "Return the natural logarithm of one plus the input array, element-wise."));
  out.push_back(make_ufunc<Logaddexp, 2, GA_FLOATS>("logaddexp", R::Default, "Logarithm of the sum of exponentiations of the inputs."));
  out.push_back(make_ufunc<Logaddexp2, 2, GA_FLOATS>("logaddexp2", R::Default, "Logarithm of the sum of exponentiations of the inputs in base-2."));
}

}  // namespace gpuarr
