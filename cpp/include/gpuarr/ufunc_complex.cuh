// Complex support for the ufunc functors (ufunc_math.cuh): cuda::std::complex is a complex
// type to them, and their complex branches get libcu++'s functions, except the inverse
// trigonometric and hyperbolic functions and tan/tanh, which are defined here. The
// ahead-of-time loops include this; an NVRTC kernel includes it only when it computes in a
// complex type (libcu++ costs NVRTC about 2 s per kernel, and needs the toolkit's include
// directories).
#pragma once
#include <cuda/std/complex>

#include "ufunc_math.cuh"

namespace gpuarr::ufn {

template <class F> struct is_cplx<cuda::std::complex<F>> { enum { value = 1 }; };
template <class F> struct RealOf<cuda::std::complex<F>> { using type = F; };

namespace cx {
#define GPUARR_UFN_CX_DEFINE(NAME) \
  template <class C> GPUARR_UFN_FN C NAME(C x) { return cuda::std::NAME(x); }
GPUARR_UFN_CX_DEFINE(exp) GPUARR_UFN_CX_DEFINE(log)
GPUARR_UFN_CX_DEFINE(log10) GPUARR_UFN_CX_DEFINE(sin) GPUARR_UFN_CX_DEFINE(cos)
GPUARR_UFN_CX_DEFINE(sinh) GPUARR_UFN_CX_DEFINE(cosh)
#undef GPUARR_UFN_CX_DEFINE
template <class C> GPUARR_UFN_FN C pow(C a, C b) { return cuda::std::pow(a, b); }

// ---- asinh, acos, atanh (and asin, acosh, atan from them) ----------------------------------
// libcu++ computes these as log(z + sqrt(z*z +- 1)) and log((1 + z) / (1 - z)) / 2, which
// cancel for Re z < 0 (asinh(-2731+1j) in complex64 came out as -16.6+1.57j, not
// -8.61+0.000366j), overflow in z*z for |z| beyond sqrt(max) and lose the relative accuracy
// of small results. These are the algorithms of Hull, Fairgrieve and Tang ("Implementing
// the complex arcsine and arccosine functions using exception handling", ACM TOMS 23, 1997)
// and of Kahan for atanh, as C libraries implement them (and so NumPy, whose complex results
// they match to a few ulp), with the special values of C99 Annex G and the Array API
// standard. They compute in the component type, float for complex64.
namespace inv {

template <class F> GPUARR_UFN_FN F pick(float f, double d) {
  if constexpr (same_v<F, float>) return f;
  else return d;
}
template <class F> GPUARR_UFN_FN F eps() { return pick<F>(0x1p-23f, 0x1p-52); }
template <class F> GPUARR_UFN_FN F recip_eps() { return pick<F>(0x1p23f, 0x1p52); }
template <class F> GPUARR_UFN_FN F sqrt_min() { return pick<F>(0x1p-63f, 0x1p-511); }
template <class F> GPUARR_UFN_FN F four_sqrt_min() { return pick<F>(0x1p-61f, 0x1p-509); }
template <class F> GPUARR_UFN_FN F quarter_sqrt_max() { return pick<F>(0x1p61f, 0x1p509); }
template <class F> GPUARR_UFN_FN F half_max() { return pick<F>(0x1.fffffep126f, 0x1.fffffffffffffp1022); }
template <class F> GPUARR_UFN_FN F sqrt_3_eps() { return pick<F>(5.9801995673e-4f, 2.5809568279517849e-8); }
template <class F> GPUARR_UFN_FN F sqrt_6_eps() { return pick<F>(8.4572793338e-4f, 3.6500241499888571e-8); }
// pi/2 = pio2_hi + pio2_lo, each rounded to F.
template <class F> GPUARR_UFN_FN F pio2_hi() { return pick<F>(0x1.921fb6p0f, 0x1.921fb54442d18p0); }
template <class F> GPUARR_UFN_FN F pio2_lo() { return pick<F>(-0x1.777a5cp-25f, 0x1.1a62633145c07p-54); }
template <class F> GPUARR_UFN_FN F ln2() { return pick<F>(0x1.62e430p-1f, 0x1.62e42fefa39efp-1); }
template <class F> GPUARR_UFN_FN F e() { return pick<F>(0x1.5bf0a8p1f, 0x1.5bf0a8b145769p1); }

// (hypot(a, b) - b) / 2 without the cancellation when b > 0 (h is hypot(a, b)).
template <class F> GPUARR_UFN_FN F half_excess(F a, F b, F h) {
  if (b < 0) return (h - b) / 2;
  if (b == 0) return a / 2;
  return a * a / (h + b) / 2;
}

// Hull et al.'s core for x, y >= 0, both below 1/eps: rx = Re asinh(x + iy) (so also
// -Im acos(y + ix)), and either b_usable with b = y / A (the imaginary part is then
// asin(b)), or the two arguments of atan2 that give it, sqrt(A**2 - y**2) and y, scaled
// alike where the first would underflow.
template <class F>
GPUARR_UFN_FN void hard_work(F x, F y, F& rx, bool& b_usable, F& b, F& sqrt_a2my2, F& new_y) {
  const F R = r_hypot(x, y + 1), S = r_hypot(x, y - 1);
  F A = (R + S) / 2;
  if (A < 1) A = 1;  // A >= 1 mathematically; rounding could go below
  if (A < F(10)) {
    // rx = log1p(Am1 + sqrt(Am1 * (A + 1))), Am1 = A - 1 computed without cancellation.
    if (y == 1 && x < eps<F>() * eps<F>() / 128) {
      rx = r_sqrt(x);
    } else if (x >= eps<F>() * r_fabs(y - 1)) {
      const F am1 = half_excess(x, 1 + y, R) + half_excess(x, 1 - y, S);
      rx = r_log1p(am1 + r_sqrt(am1 * (A + 1)));
    } else if (y < 1) {
      rx = x / r_sqrt((1 - y) * (1 + y));
    } else {
      rx = r_log1p((y - 1) + r_sqrt((y - 1) * (y + 1)));
    }
  } else {
    rx = r_log(A + r_sqrt(A * A - 1));
  }
  new_y = y;
  if (y < four_sqrt_min<F>()) {
    // y / A could underflow: leave the imaginary part to atan2, with scaled arguments.
    b_usable = false;
    sqrt_a2my2 = A * (2 / eps<F>());
    new_y = y * (2 / eps<F>());
    return;
  }
  b = y / A;
  b_usable = true;
  if (b > F(0.6417)) {
    // asin(b) is ill-conditioned near 1: atan2(y, sqrt(A**2 - y**2)) instead.
    b_usable = false;
    if (y == 1 && x < eps<F>() / 128) {
      sqrt_a2my2 = r_sqrt(x) * r_sqrt((A + y) / 2);
    } else if (x >= eps<F>() * r_fabs(y - 1)) {
      const F amy = half_excess(x, y + 1, R) + half_excess(x, y - 1, S);
      sqrt_a2my2 = r_sqrt(amy * (A + y));
    } else if (y > 1) {
      sqrt_a2my2 = x * (4 / eps<F>() / eps<F>()) * y / r_sqrt((y + 1) * (y - 1));
      new_y = y * (4 / eps<F>() / eps<F>());
    } else {
      sqrt_a2my2 = r_sqrt((1 - y) * (1 + y));
    }
  }
}

// log(z) for |z| beyond about 1/eps (x*x + y*y may overflow, never underflows to 0).
template <class C> GPUARR_UFN_FN C log_large(C z) {
  using F = typename C::value_type;
  const F x = z.real(), y = z.imag();
  F ax = r_fabs(x), ay = r_fabs(y);
  if (ax < ay) {
    const F t = ax;
    ax = ay;
    ay = t;
  }
  if (ax > half_max<F>())
    return C(r_log(r_hypot(x / e<F>(), y / e<F>())) + 1, r_atan2(y, x));
  if (ax > quarter_sqrt_max<F>() || ay < sqrt_min<F>())
    return C(r_log(r_hypot(x, y)), r_atan2(y, x));
  return C(r_log(ax * ax + ay * ay) / 2, r_atan2(y, x));
}

template <class C> GPUARR_UFN_FN C asinh(C z) {
  using F = typename C::value_type;
  const F x = z.real(), y = z.imag(), ax = r_fabs(x), ay = r_fabs(y);
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return C(x, y + y);   // +-inf + NaN j: +-inf + NaN j
    if (isinf(y)) return C(y, x + x);   // NaN +- inf j: +-inf + NaN j (sign unspecified)
    if (y == 0) return C(x + x, y);     // NaN + 0j: NaN + 0j
    return C(x + y, x + y);
  }
  if (ax > recip_eps<F>() || ay > recip_eps<F>()) {
    // asinh(z) = sign(x) log(2 sign(x) z) + O(1/z**2), the imaginary part included.
    const C w = signbit(x) ? log_large(C(-x, -y)) : log_large(z);
    return C(r_copysign(w.real() + ln2<F>(), x), r_copysign(w.imag(), y));
  }
  if (x == 0 && y == 0) return z;
  if (ax < sqrt_6_eps<F>() / 4 && ay < sqrt_6_eps<F>() / 4) return z;  // z + O(z**3)
  F rx, b, sqrt_a2my2, new_y;
  bool b_usable;
  hard_work(ax, ay, rx, b_usable, b, sqrt_a2my2, new_y);
  const F ry = b_usable ? r_asin(b) : r_atan2(new_y, sqrt_a2my2);
  return C(r_copysign(rx, x), r_copysign(ry, y));
}

template <class C> GPUARR_UFN_FN C acos(C z) {
  using F = typename C::value_type;
  const F x = z.real(), y = z.imag(), ax = r_fabs(x), ay = r_fabs(y);
  const bool sx = signbit(x), sy = signbit(y);
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return C(y + y, -infinity<F>());  // +-inf + NaN j: NaN -+ inf j
    if (isinf(y)) return C(x + x, -y);              // NaN +- inf j: NaN -+ inf j
    if (x == 0) return C(pio2_hi<F>() + pio2_lo<F>(), y + y);  // +-0 + NaN j: pi/2 + NaN j
    return C(x + y, x + y);
  }
  if (ax > recip_eps<F>() || ay > recip_eps<F>()) {
    // acos(z) = -sign(y) i log(z) + O(1/z**2), with Re = atan2(|y|, x).
    const C w = log_large(z);
    const F ry = w.real() + ln2<F>();
    return C(r_fabs(w.imag()), sy ? ry : -ry);
  }
  if (x == 1 && y == 0) return C(F(0), -y);
  if (ax < sqrt_6_eps<F>() / 4 && ay < sqrt_6_eps<F>() / 4)  // pi/2 - z + O(z**3)
    return C(pio2_hi<F>() - (x - pio2_lo<F>()), -y);
  F ry, b, sqrt_a2mx2, new_x;
  bool b_usable;
  hard_work(ay, ax, ry, b_usable, b, sqrt_a2mx2, new_x);
  const F rx = b_usable ? r_acos(sx ? -b : b) : r_atan2(sqrt_a2mx2, sx ? -new_x : new_x);
  return C(rx, sy ? ry : -ry);
}

// x / (x*x + y*y) (Re 1/z) with no overflow or spurious underflow, for one of |x|, |y|
// beyond 1/eps.
template <class F> GPUARR_UFN_FN F real_part_reciprocal(F x, F y) {
  if (isinf(x)) return 1 / x;
  if (isinf(y)) return x / y / y;
  int ex, ey;
  if constexpr (same_v<F, float>) {
    ::frexpf(x, &ex);
    ::frexpf(y, &ey);
  } else {
    ::frexp(x, &ex);
    ::frexp(y, &ey);
  }
  constexpr int cutoff = same_v<F, float> ? 13 : 27;   // half the mantissa's bits, plus one
  constexpr int max_exp = same_v<F, float> ? 128 : 1024;
  if (ex - ey >= cutoff) return 1 / x;
  if (ey - ex >= cutoff) return x / y / y;
  if (ex <= max_exp / 2 - cutoff + 1) return x / (x * x + y * y);
  F scale;
  if constexpr (same_v<F, float>) scale = ::ldexpf(1.0f, 2 - ex);
  else scale = ::ldexp(1.0, 2 - ex);
  x *= scale;
  y *= scale;
  return x / (x * x + y * y) * scale;
}

template <class C> GPUARR_UFN_FN C atanh(C z) {
  using F = typename C::value_type;
  const F x = z.real(), y = z.imag(), ax = r_fabs(x), ay = r_fabs(y);
  if (y == 0 && ax <= 1) return C(r_atanh(x), y);  // the real segment, with +-1 -> +-inf
  if (x == 0) return C(x, r_atan(y));                 // the imaginary axis (and 0 + NaN j)
  if (isnan(x) || isnan(y)) {
    if (isinf(x)) return C(r_copysign(F(0), x), y + y);   // +-inf + NaN j: +-0 + NaN j
    if (isinf(y)) return C(r_copysign(F(0), x), r_copysign(pio2_hi<F>() + pio2_lo<F>(), y));
    return C(x + y, x + y);
  }
  if (ax > recip_eps<F>() || ay > recip_eps<F>())  // 1/z + sign(y) i pi/2 + O(1/z**3)
    return C(real_part_reciprocal(x, y), r_copysign(pio2_hi<F>() + pio2_lo<F>(), y));
  if (ax < sqrt_3_eps<F>() / 2 && ay < sqrt_3_eps<F>() / 2) return z;  // z + O(z**3)
  // Re = log1p(4|x| / |z - 1|**2) / 4, Im = atan2(2|y|, (1 - |x|)(1 + |x|) - y**2) / 2.
  F rx, ry;
  const F xm1 = ax - 1;
  if (ax == 1 && ay < eps<F>()) rx = (ln2<F>() - r_log(ay)) / 2;
  else rx = r_log1p(4 * ax / (ay < sqrt_min<F>() ? xm1 * xm1 : xm1 * xm1 + ay * ay)) / 4;
  if (ax == 1) ry = r_atan2(F(2), -ay) / 2;
  else if (ay < eps<F>()) ry = r_atan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
  else ry = r_atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
  return C(r_copysign(rx, x), r_copysign(ry, y));
}

}  // namespace inv

// sqrt(z) by Algorithm 312 (CACM 10, 1967) as FreeBSD's csqrt (C99 Annex G's special
// values, scaling near overflow and for subnormal parts): one hypot and one sqrt, where
// libcu++'s polar form (abs, arg, sincos) made sqrt of complex128 compute-bound.
template <class C> GPUARR_UFN_FN C sqrt(C z) {
  using F = typename C::value_type;
  F a = z.real(), b = z.imag();
  if (a == 0 && b == 0) return C(F(0), b);
  if (isinf(b)) return C(r_fabs(b), b);
  if (isnan(a)) {
    const F t = (b - b) / (b - b);  // NaN
    return C(a + t, a + t);
  }
  if (isinf(a)) {
    if (a < 0) return C(r_fabs(b - b), r_copysign(a, b));
    return C(a, r_copysign(b - b, b));
  }
  if (isnan(b)) {
    const F t = (a - a) / (a - a);  // NaN
    return C(b + t, b + t);
  }
  F scale = 1;
  if (r_fabs(a) >= inv::pick<F>(0x1.a82798p+126f, 0x1.a827999fcef32p+1022) ||
      r_fabs(b) >= inv::pick<F>(0x1.a82798p+126f, 0x1.a827999fcef32p+1022)) {
    // A tiny part is left unscaled: it is then an equivalent infinitesimal.
    if (r_fabs(a) >= inv::pick<F>(0x1p-124f, 0x1p-1020)) a *= F(0.25);
    if (r_fabs(b) >= inv::pick<F>(0x1p-124f, 0x1p-1020)) b *= F(0.25);
    scale = 2;
  }
  if (r_fabs(a) < inv::pick<F>(0x1p-126f, 0x1p-1022) && r_fabs(b) < inv::pick<F>(0x1p-126f, 0x1p-1022)) {
    a *= inv::pick<F>(0x1p26f, 0x1p54);  // both subnormal: scale up for accuracy
    b *= inv::pick<F>(0x1p26f, 0x1p54);
    scale = inv::pick<F>(0x1p-13f, 0x1p-27);
  }
  if (a >= 0) {
    const F t = r_sqrt((a + r_hypot(a, b)) * F(0.5));
    return C(scale * t, scale * b / (2 * t));
  }
  const F t = r_sqrt((-a + r_hypot(a, b)) * F(0.5));
  return C(scale * r_fabs(b) / (2 * t), r_copysign(scale * t, b));
}

template <class C> GPUARR_UFN_FN C asinh(C x) { return inv::asinh(x); }
// asin(z) = -i asinh(iz), as reverse(asinh(reverse(z))) with reverse(a + bi) = b + ai.
template <class C> GPUARR_UFN_FN C asin(C x) {
  const C w = inv::asinh(C(x.imag(), x.real()));
  return C(w.imag(), w.real());
}
template <class C> GPUARR_UFN_FN C acos(C x) { return inv::acos(x); }
// acosh(z) = +-i acos(z), the sign giving Re >= 0; +-0 + NaN j gives NaN + pi/2 j (the Array
// API's NaN +- pi/2 j, from acos's pi/2 + NaN j), where C libraries give NaN + NaN j.
template <class C> GPUARR_UFN_FN C acosh(C x) {
  const C w = inv::acos(x);
  const auto rx = w.real(), ry = w.imag();
  if (isnan(rx) && isnan(ry)) return C(ry, rx);
  if (isnan(rx)) return C(r_fabs(ry), rx);  // NaN +- inf j, +-inf + NaN j: +inf + NaN j
  if (isnan(ry)) return C(ry, rx);
  return C(r_fabs(ry), r_copysign(rx, x.imag()));
}
template <class C> GPUARR_UFN_FN C atanh(C x) { return inv::atanh(x); }
// atan(z) = -i atanh(iz).
template <class C> GPUARR_UFN_FN C atan(C x) {
  const C w = inv::atanh(C(x.imag(), x.real()));
  return C(w.imag(), w.real());
}

// ---- tanh, tan -----------------------------------------------------------------------------
// Kahan's formula ("Branch cuts for complex elementary functions", 1987), as C libraries
// use: libcu++'s sinh(2x) / (cosh(2x) + cos(2y)) cancels near the poles (x ~ 0, y ~ pi/2)
// and overflows for |x| beyond ~355. Special values are the Array API standard's: tanh(+inf
// + yj) is 1 + 0j for y > 0 (C99's imaginary part is 0 with the sign of sin(2y)) and tanh(+0
// + inf j), tanh(+0 + NaN j) are +0 + NaN j.
template <class C> GPUARR_UFN_FN C tanh(C z) {
  using F = typename C::value_type;
  const F x = z.real(), y = z.imag();
  if (y == 0) return C(r_tanh(x), y);  // the real axis, NaN + 0j and +-inf + 0j included
  if (isnan(x)) return C(x, x);
  if (isinf(x)) return C(r_copysign(F(1), x), r_copysign(F(0), y));
  if (!isfinite(y)) return C(x == 0 ? x : y - y, y - y);
  if (r_fabs(x) >= (same_v<F, float> ? F(9) : F(22))) {
    // tanh(x) rounds to +-1; the imaginary part is 4 sin(y) cos(y) exp(-2|x|).
    const F em = r_exp(-r_fabs(x));
    return C(r_copysign(F(1), x), F(4) * r_sin(y) * r_cos(y) * em * em);
  }
  const F t = r_tan(y), beta = 1 + t * t, s = r_sinh(x), rho = r_sqrt(1 + s * s);
  const F denom = 1 + beta * s * s;
  return C(beta * rho * s / denom, t / denom);
}
// tan(z) = -i tanh(iz).
template <class C> GPUARR_UFN_FN C tan(C x) {
  const C w = cx::tanh(C(-x.imag(), x.real()));
  return C(w.imag(), -w.real());
}
}  // namespace cx

}  // namespace gpuarr::ufn
