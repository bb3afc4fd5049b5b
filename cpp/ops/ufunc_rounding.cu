#include "ops/ufunc_types.cuh"

// Rounding to integral values: floor, ceil, trunc, rint.
namespace gpuarr {

void add_rounding_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Floor, 1, bool, GA_INTS, GA_FLOATS>("floor", R::Default,
                                                               "Return the floor of the input, element-wise."));
  out.push_back(make_ufunc<Ceil, 1, bool, GA_INTS, GA_FLOATS>("ceil", R::Default,
                                                              "Return the ceiling of the input, element-wise."));
  out.push_back(make_ufunc<Trunc, 1, bool, GA_INTS, GA_FLOATS>("trunc", R::Default,
                                                               "Return the truncated value of the input, element-wise."));
  out.push_back(make_ufunc<Rint, 1, GA_INEXACT>("rint", R::Default,
                                                "Round elements of the array to the nearest integer."));
}

}  // namespace gpuarr
