#include "ops/ufunc_types.cuh"

namespace gpuarr {
namespace {

// A loop whose operands differ in type: Out op(In0, In...) (ldexp's integer exponent,
// frexp's int32 exponent, bitwise_count's uint8 count, float16's own neighbours).
template <class Op, int NIN, class Out, class In0, class In = In0>
void add_loop(UfuncDef* def) {
  def->loop_types.push_back({{dtype_of<In0>(), dtype_of<In>(), dtype_of<In>()}, dtype_of<Out>()});
  def->launchers.push_back(&launch_elementwise<Op, Out, NIN, In, In0>);
}

// nextafter and spacing: float16 has its own neighbours (NumPy's npy_half_* functions),
// which the float32 values it computes in do not give.
template <class Op, class HalfOp, int NIN>
UfuncDef* make_neighbour_ufunc(const char* name, const char* doc) {
  auto* def = new UfuncDef(name, NIN, UfuncResolver::Default, doc);
  def->functor = Op::name;
  add_loop<HalfOp, NIN, __half, __half>(def);
  add_loop<Op, NIN, float, float>(def);
  add_loop<Op, NIN, double, double>(def);
  return def;
}

template <class... Ts>
UfuncDef* make_bitwise_count() {
  auto* def = new UfuncDef("bitwise_count", 1, UfuncResolver::Default,
                           "Computes the number of 1-bits in the absolute value of x.");
  def->functor = ufn::BitwiseCount::name;
  (add_loop<ufn::BitwiseCount, 1, uint8_t, Ts>(def), ...);
  return def;
}

UfuncDef* make_ldexp() {
  auto* def = new UfuncDef("ldexp", 2, UfuncResolver::IntExponent,
                           "Returns x1 * 2**x2, element-wise.");
  def->functor = ufn::Ldexp::name;
  add_loop<ufn::Ldexp, 2, __half, __half, int32_t>(def);
  add_loop<ufn::Ldexp, 2, float, float, int32_t>(def);
  add_loop<ufn::Ldexp, 2, __half, __half, int64_t>(def);
  add_loop<ufn::Ldexp, 2, float, float, int64_t>(def);
  add_loop<ufn::Ldexp, 2, double, double, int32_t>(def);
  add_loop<ufn::Ldexp, 2, double, double, int64_t>(def);
  return def;
}

template <class... Ts>
UfuncDef* make_frexp_exponent() {
  auto* def = new UfuncDef("_frexp_exponent", 1, UfuncResolver::Default,
                           "The exponent frexp returns (int32).");
  def->functor = ufn::FrexpExponent::name;
  (add_loop<ufn::FrexpExponent, 1, int32_t, Ts>(def), ...);
  return def;
}

}  // namespace

// NumPy's ufuncs for floating-point parts and neighbours, integer number theory and bit
// counts; and, under names starting with '_', the kernels of NumPy functions computed from
// one functor each (the halves of frexp and modf, sinc, i0).
void add_special_ufuncs(std::vector<const UfuncDef*>& out) {
  using namespace ufn;
  out.push_back(make_ufunc<Fabs, 1, GA_FLOATS>("fabs", R::Default, "Compute the absolute values element-wise."));
  out.push_back(make_ufunc<Heaviside, 2, GA_FLOATS>("heaviside", R::Default, "Compute the Heaviside step function."));
  out.push_back(make_ldexp());
  out.push_back(make_ufunc<Gcd, 2, GA_INTS>("gcd", R::NoAllBoolLoop, "Returns the greatest common divisor of |x1| and |x2|."));
  out.push_back(make_ufunc<Lcm, 2, GA_INTS>("lcm", R::NoAllBoolLoop, "Returns the lowest common multiple of |x1| and |x2|."));
  out.push_back(make_neighbour_ufunc<Nextafter, NextafterHalf, 2>(
      "nextafter", "Return the next floating-point value after x1 towards x2, element-wise."));
  out.push_back(make_neighbour_ufunc<Spacing, SpacingHalf, 1>(
      "spacing", "Return the distance between x and the nearest adjacent number."));
  out.push_back(make_bitwise_count<GA_INTS>());
  out.push_back(make_ufunc<FrexpMantissa, 1, GA_FLOATS>("_frexp_mantissa", R::Default, "The mantissa frexp returns."));
  out.push_back(make_frexp_exponent<GA_FLOATS>());
  out.push_back(make_ufunc<ModfFractional, 1, GA_FLOATS>("_modf_fractional", R::Default, "The fractional part modf returns."));
  out.push_back(make_ufunc<ModfIntegral, 1, GA_FLOATS>("_modf_integral", R::Default, "The integral part modf returns."));
  out.push_back(make_ufunc<Sinc, 1, GA_INEXACT>("_sinc", R::Default, "sin(pi x) / (pi x), 1 at 0 (numpy.sinc)."));
  out.push_back(make_ufunc<I0, 1, GA_FLOATS>("_i0", R::Default, "The modified Bessel function of the first kind, order 0 (numpy.i0)."));
}

}  // namespace gpuarr
