#include "ops/ufunc_types.cuh"

// Bit-wise operations and shifts on integers (and bool for and/or/xor/invert).
namespace gpuarr {

void add_bitwise_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<BitwiseAnd, 2, bool, GA_INTS>("bitwise_and", R::Default, "Compute the bit-wise AND of two arrays element-wise."));
  out.push_back(make_ufunc<BitwiseOr, 2, bool, GA_INTS>("bitwise_or", R::Default, "Compute the bit-wise OR of two arrays element-wise."));
  out.push_back(make_ufunc<BitwiseXor, 2, bool, GA_INTS>("bitwise_xor", R::Default, "Compute the bit-wise XOR of two arrays element-wise."));
  out.push_back(make_ufunc<Invert, 1, bool, GA_INTS>("invert", R::Default, "Compute bit-wise inversion, or bit-wise NOT, element-wise."));
  out.push_back(make_ufunc<LeftShift, 2, GA_INTS>("left_shift", R::Default, "Shift the bits of an integer to the left."));
  out.push_back(make_ufunc<RightShift, 2, GA_INTS>("right_shift", R::Default, "Shift the bits of an integer to the right."));
}

}  // namespace gpuarr
