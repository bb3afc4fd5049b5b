#include "ops/ufunc_types.cuh"

namespace gpuarr {

void add_comparison_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Equal, 2, GA_ALL>("equal", R::Default, "Return (x1 == x2) element-wise.", kUfuncComparison));
  out.push_back(make_ufunc<NotEqual, 2, GA_ALL>("not_equal", R::Default, "Return (x1 != x2) element-wise.", kUfuncComparison | kUfuncTrueWhenLess | kUfuncTrueWhenGreater));
  out.push_back(make_ufunc<Less, 2, GA_ALL>("less", R::Default, "Return the truth value of (x1 < x2) element-wise.", kUfuncComparison | kUfuncTrueWhenLess));
  out.push_back(make_ufunc<LessEqual, 2, GA_ALL>("less_equal", R::Default, "Return the truth value of (x1 <= x2) element-wise.", kUfuncComparison | kUfuncTrueWhenLess));
  out.push_back(make_ufunc<Greater, 2, GA_ALL>("greater", R::Default, "Return the truth value of (x1 > x2) element-wise.", kUfuncComparison | kUfuncTrueWhenGreater));
  out.push_back(make_ufunc<GreaterEqual, 2, GA_ALL>("greater_equal", R::Default, "Return the truth value of (x1 >= x2) element-wise.", kUfuncComparison | kUfuncTrueWhenGreater));
}

}  // namespace gpuarr
