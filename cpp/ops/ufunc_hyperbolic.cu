#include "ops/ufunc_types.cuh"

// Hyperbolic functions and their inverses.
namespace gpuarr {

void add_hyperbolic_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Sinh, 1, GA_INEXACT>("sinh", R::Default, "Hyperbolic sine, element-wise."));
  out.push_back(make_ufunc<Cosh, 1, GA_INEXACT>("cosh", R::Default, "Hyperbolic cosine, element-wise."));
  out.push_back(make_ufunc<Tanh, 1, GA_INEXACT>("tanh", R::Default, "Compute hyperbolic tangent element-wise."));
  out.push_back(make_ufunc<Arcsinh, 1, GA_INEXACT>("arcsinh", R::Default, "Inverse hyperbolic sine element-wise."));
  out.push_back(make_ufunc<Arccosh, 1, GA_INEXACT>("arccosh", R::Default, "Inverse hyperbolic cosine, element-wise."));
  out.push_back(make_ufunc<Arctanh, 1, GA_INEXACT>("arctanh", R::Default, "Inverse hyperbolic tangent element-wise."));
}

}  // namespace gpuarr
