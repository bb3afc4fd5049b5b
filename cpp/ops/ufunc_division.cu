#include "ops/ufunc_types.cuh"

// Integer and floor division: floor_divide, divmod's quotient, remainder, fmod.
namespace gpuarr {

void add_division_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
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
}

}  // namespace gpuarr
