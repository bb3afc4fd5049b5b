#include "ops/ufunc_types.cuh"

namespace gpuarr {

void add_trig_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Sin, 1, GA_INEXACT>("sin", R::Default, "Trigonometric sine, element-wise."));
  out.push_back(make_ufunc<Cos, 1, GA_INEXACT>("cos", R::Default, "Cosine element-wise."));
  out.push_back(make_ufunc<Tan, 1, GA_INEXACT>("tan", R::Default, "Compute tangent element-wise."));
  out.push_back(make_ufunc<Arcsin, 1, GA_INEXACT>("arcsin", R::Default, "Inverse sine, element-wise."));
  out.push_back(make_ufunc<Arccos, 1, GA_INEXACT>("arccos", R::Default, "Trigonometric inverse cosine, element-wise."));
  out.push_back(make_ufunc<Arctan, 1, GA_INEXACT>("arctan", R::Default, "Trigonometric inverse tangent, element-wise."));
  out.push_back(make_ufunc<Arctan2, 2, GA_FLOATS>("arctan2", R::Default, "Element-wise arc tangent of x1/x2 choosing the quadrant correctly."));
  out.push_back(make_ufunc<Hypot, 2, GA_FLOATS>("hypot", R::Default, "Given the legs of a right triangle, return its hypotenuse."));
  out.push_back(make_ufunc<Deg2rad, 1, GA_FLOATS>("deg2rad", R::Default, "Convert angles from degrees to radians."));
  out.push_back(make_ufunc<Rad2deg, 1, GA_FLOATS>("rad2deg", R::Default, "Convert angles from radians to degrees."));
}

}  // namespace gpuarr
