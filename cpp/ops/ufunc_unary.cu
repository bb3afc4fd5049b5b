#include "ops/ufunc_types.cuh"

namespace gpuarr {

void add_unary_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Negative, 1, GA_NUMBERS>("negative", R::NoBoolNegative,
                                                    "Numerical negative, element-wise.", LazyOp::Negative));
  out.push_back(make_ufunc<Positive, 1, GA_NUMBERS>("positive", R::NoBoolLoop,
                                                    "Numerical positive, element-wise."));
  out.push_back(make_ufunc<Absolute, 1, GA_ALL>("absolute", R::Default,
                                                "Calculate the absolute value element-wise.",
                                                LazyOp::Absolute));
  out.push_back(make_ufunc<Sign, 1, GA_NUMBERS>("sign", R::NoBoolLoop,
                                                "Returns an element-wise indication of the sign of a number."));
  out.push_back(make_ufunc<Reciprocal, 1, GA_NUMBERS>("reciprocal", R::Default,
                                                      "Return the reciprocal of the argument, element-wise."));
  out.push_back(make_ufunc<Square, 1, GA_NUMBERS>("square", R::Default,
                                                  "Return the element-wise square of the input.",
                                                  LazyOp::Square));
  out.push_back(make_ufunc<Conjugate, 1, GA_NUMBERS>("conjugate", R::Default,
                                                     "Return the complex conjugate, element-wise."));
}

}  // namespace gpuarr
