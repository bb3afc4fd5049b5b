#include "ops/ufunc_types.cuh"

// Element-wise maximum and minimum, NaN-propagating and NaN-ignoring.
namespace gpuarr {

void add_extremum_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Maximum, 2, GA_ALL>("maximum", R::Default, "Element-wise maximum of array elements (NaNs propagate)."));
  out.push_back(make_ufunc<Minimum, 2, GA_ALL>("minimum", R::Default, "Element-wise minimum of array elements (NaNs propagate)."));
  out.push_back(make_ufunc<Fmax, 2, GA_ALL>("fmax", R::Default, "Element-wise maximum of array elements (NaNs ignored)."));
  out.push_back(make_ufunc<Fmin, 2, GA_ALL>("fmin", R::Default, "Element-wise minimum of array elements (NaNs ignored)."));
}

}  // namespace gpuarr
