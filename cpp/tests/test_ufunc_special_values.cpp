// The ufunc functors' special values and accuracy, on the host (ufunc_functors_host.hpp):
// floor_divide for real floats, and the complex expm1, tanh, tan, asinh, asin, acosh, acos,
// atanh, atan, against the Array API standard's special-case tables (2024.12, which the
// array-api-tests suite checks) and, on random inputs over every magnitude, against glibc's
// long double complex functions. The same functor code runs in the ahead-of-time loops and
// in NVRTC kernels; the device's libm may differ from glibc's in the last bit only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

// libcu++ comes with the CUDA toolkit, whose include directories CMake gives this test.
#if __has_include(<cuda/std/complex>)
#include "ufunc_functors_host.hpp"

namespace {

using gpuarr::ufn::DivmodQuotient;
using gpuarr::ufn::FloorDivide;
using gpuarr::ufn::Remainder;

constexpr double kInf = INFINITY;
constexpr double kNaN = NAN;
constexpr double kPi = 3.14159265358979323846;

// One expected component: exactly v (sign of zero included), NaN, +-v (sign unspecified),
// or v within a few ulp (multiples of pi).
struct Want {
  enum Kind { kExact, kIsNaN, kAnySign, kNear } kind;
  double v;
};
Want exact(double v) { return {Want::kExact, v}; }
Want any_sign(double v) { return {Want::kAnySign, v}; }
Want near(double v) { return {Want::kNear, v}; }
const Want kNaNWant{Want::kIsNaN, 0};

template <class F> bool matches(F got, Want w) {
  switch (w.kind) {
    case Want::kIsNaN: return std::isnan(got);
    case Want::kExact:
      return got == F(w.v) && std::signbit(got) == std::signbit(w.v);
    case Want::kAnySign: return std::fabs(got) == F(std::fabs(w.v));
    case Want::kNear:
      return std::fabs(double(got) - w.v) <= 4 * double(std::numeric_limits<F>::epsilon()) *
                                                 std::fabs(w.v);
  }
  return false;
}
std::string show(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%.17g", std::signbit(v) && v == 0 ? "-" : "", v);
  return buf;
}
std::string show(Want w) {
  switch (w.kind) {
    case Want::kIsNaN: return "NaN";
    case Want::kAnySign: return "+-" + show(w.v);
    case Want::kNear: return "~" + show(w.v);
    default: return show(w.v);
  }
}
Want conj_of(Want w) {
  if (w.kind == Want::kExact || w.kind == Want::kNear) w.v = -w.v;
  return w;
}

struct ComplexCase {
  double a, b;   // the input a + bj
  Want re, im;   // the result's parts
};

template <class F, class Op>
void check_complex_table(const char* name, Op op, const std::vector<ComplexCase>& cases) {
  using C = cuda::std::complex<F>;
  for (const ComplexCase& c : cases) {
    const C r = op(C(F(c.a), F(c.b)));
    EXPECT_TRUE(matches(r.real(), c.re) && matches(r.imag(), c.im))
        << name << "(" << show(c.a) << " + " << show(c.b) << "j) [" << sizeof(F) * 8
        << "-bit parts] = " << show(r.real()) << " + " << show(r.imag()) << "j, want "
        << show(c.re) << " + " << show(c.im) << "j";
    // Every one of these functions commutes with conj (f(conj z) = conj f(z)).
    const C rc = op(C(F(c.a), -F(c.b)));
    EXPECT_TRUE(matches(rc.real(), c.re) && matches(rc.imag(), conj_of(c.im)))
        << name << "(" << show(c.a) << " + " << show(-c.b) << "j) = " << show(rc.real())
        << " + " << show(rc.imag()) << "j, want the conjugate of " << show(c.re) << " + "
        << show(c.im) << "j";
  }
}

template <class Op> void check_both(const char* name, Op op, const std::vector<ComplexCase>& t) {
  check_complex_table<float>(name, op, t);
  check_complex_table<double>(name, op, t);
}

// ---- floor_divide ------------------------------------------------------------------------

struct RealCase {
  double a, b;
  Want q;
};

// The standard's floor_divide table, one case per line, with the finite sign rules.
const std::vector<RealCase> kFloorDivide = {
    {kNaN, 1, kNaNWant}, {1, kNaN, kNaNWant}, {kNaN, kNaN, kNaNWant}, {kNaN, kInf, kNaNWant},
    {kInf, kInf, kNaNWant}, {kInf, -kInf, kNaNWant}, {-kInf, kInf, kNaNWant},
    {-kInf, -kInf, kNaNWant},
    {0.0, 0.0, kNaNWant}, {0.0, -0.0, kNaNWant}, {-0.0, 0.0, kNaNWant}, {-0.0, -0.0, kNaNWant},
    {0.0, 2, exact(0.0)}, {-0.0, 2, exact(-0.0)}, {0.0, -2, exact(-0.0)}, {-0.0, -2, exact(0.0)},
    {3, 0.0, exact(kInf)}, {3, -0.0, exact(-kInf)}, {-3, 0.0, exact(-kInf)},
    {-3, -0.0, exact(kInf)}, {kInf, 0.0, exact(kInf)}, {kInf, -0.0, exact(-kInf)},
    {-kInf, 0.0, exact(-kInf)},
    // NumPy (npy_divmod) gives NaN for these four ...
    {kInf, 2, exact(kInf)}, {kInf, -2, exact(-kInf)}, {-kInf, 2, exact(-kInf)},
    {-kInf, -2, exact(kInf)}, {kInf, 1e-3, exact(kInf)}, {-kInf, 65504, exact(-kInf)},
    {0.0, kInf, exact(0.0)}, {0.0, -kInf, exact(-0.0)}, {-0.0, kInf, exact(-0.0)},
    {5, kInf, exact(0.0)}, {-5, -kInf, exact(0.0)},
    // ... and -1.0 for these.
    {5, -kInf, exact(-0.0)}, {-5, kInf, exact(-0.0)}, {1e-3, -kInf, exact(-0.0)},
    {-65504, kInf, exact(-0.0)},
    {7, 2, exact(3)}, {-7, -2, exact(3)}, {7, -2, exact(-4)}, {-7, 2, exact(-4)},
    {1, 4, exact(0.0)}, {-1, -4, exact(0.0)}, {1, -4, exact(-1)}, {-1, 4, exact(-1)},
    {6, 3, exact(2)}, {-6, 3, exact(-2)}, {2.5, 0.5, exact(5)}, {-2.5, 0.5, exact(-5)},
};

template <class F> F as(double v) { return F(v); }

TEST(FloorDivideSpecialValues, ArrayApiTable) {
  for (const RealCase& c : kFloorDivide) {
    const double d = FloorDivide{}(c.a, c.b);
    EXPECT_TRUE(matches(d, c.q)) << show(c.a) << " // " << show(c.b) << " = " << show(d)
                                 << " (float64), want " << show(c.q);
    const float f = FloorDivide{}(float(c.a), float(c.b));
    EXPECT_TRUE(matches(f, c.q)) << show(c.a) << " // " << show(c.b) << " = " << show(f)
                                 << " (float32), want " << show(c.q);
#ifdef __FLT16_MAX__
    // float16 loops compute in float32 and round the result to float16.
    const _Float16 h = _Float16(FloorDivide{}(float(_Float16(c.a)), float(_Float16(c.b))));
    EXPECT_TRUE(matches(float(h), c.q)) << show(c.a) << " // " << show(c.b) << " = "
                                        << show(float(h)) << " (float16), want " << show(c.q);
#endif
  }
}

TEST(FloorDivideSpecialValues, OverflowAndUnderflow) {
  EXPECT_EQ(FloorDivide{}(1e300, 1e-300), kInf);
  EXPECT_EQ(FloorDivide{}(-1e300, 1e-300), -kInf);
  EXPECT_EQ(FloorDivide{}(3e38f, 1e-3f), float(kInf));
  const double tiny = FloorDivide{}(1e-300, 1e300);
  EXPECT_TRUE(tiny == 0 && !std::signbit(tiny));
  EXPECT_EQ(FloorDivide{}(-1e-300, 1e300), -1.0);  // floor of a negative quotient
  // In float16, 65504 // 0.001 overflows: float32's quotient (about 6.5e7) rounds to inf.
#ifdef __FLT16_MAX__
  EXPECT_EQ(float(_Float16(FloorDivide{}(65504.0f, float(_Float16(1e-3)))) ), float(kInf));
#endif
}

TEST(FloorDivideSpecialValues, DivmodAndRemainderKeepNumpy) {
  // divmod's quotient and remainder stay NumPy's (npy_divmod): a == q * b + r there.
  EXPECT_TRUE(std::isnan(DivmodQuotient{}(kInf, 2.0)));
  EXPECT_TRUE(std::isnan(DivmodQuotient{}(float(-kInf), 2.0f)));
  EXPECT_EQ(DivmodQuotient{}(5.0, -kInf), -1.0);
  EXPECT_EQ(DivmodQuotient{}(-5.0f, float(kInf)), -1.0f);
  EXPECT_EQ(DivmodQuotient{}(5.0, kInf), 0.0);
  EXPECT_EQ(DivmodQuotient{}(-7.0, 2.0), -4.0);
  EXPECT_EQ(Remainder{}(5.0, -kInf), -kInf);
  EXPECT_TRUE(std::isnan(Remainder{}(kInf, 2.0)));
  EXPECT_EQ(DivmodQuotient{}(-7, 2), -4);  // integers: floor_divide's
  EXPECT_EQ(FloorDivide{}(-7, 2), -4);
}

// ---- complex special values ------------------------------------------------------------

const Want P0 = exact(0.0), M0 = exact(-0.0), N = kNaNWant;

TEST(ComplexSpecialValues, Expm1) {
  using gpuarr::ufn::Expm1;
  check_both("expm1", Expm1{}, {
      {0.0, 0.0, P0, P0}, {-0.0, 0.0, P0, P0},
      {1, kInf, N, N}, {0.0, kInf, N, N}, {-2, kInf, N, N},
      {1, kNaN, N, N}, {0.0, kNaN, N, N},
      {kInf, 0.0, exact(kInf), P0},
      // -inf + bj: +0 cis(b) - 1.
      {-kInf, 0.0, exact(-1), P0}, {-kInf, 1, exact(-1), P0}, {-kInf, 2, exact(-1), P0},
      {-kInf, 4, exact(-1), M0},
      // +inf + bj, b nonzero: +inf cis(b) - 1.
      {kInf, 1, exact(kInf), exact(kInf)}, {kInf, 2, exact(-kInf), exact(kInf)},
      {kInf, 4, exact(-kInf), exact(-kInf)},
      {-kInf, kInf, exact(-1), any_sign(0)}, {kInf, kInf, any_sign(kInf), N},
      {-kInf, kNaN, exact(-1), any_sign(0)}, {kInf, kNaN, any_sign(kInf), N},
      {kNaN, 0.0, N, P0}, {kNaN, 1, N, N}, {kNaN, kInf, N, N}, {kNaN, kNaN, N, N},
      // The real axis stays real (exp(x) sin(0) is not computed), and small |z| keeps
      // its relative accuracy.
      {1000, 0.0, exact(kInf), P0}, {-0.0, -0.0, P0, M0},
  });
  using C = cuda::std::complex<double>;
  const C r = Expm1{}(C(1e-20, 1e-20));
  EXPECT_NEAR(r.real(), 1e-20, 1e-35);
  EXPECT_NEAR(r.imag(), 1e-20, 1e-35);
  const C big = Expm1{}(C(710.0, 1e-300));  // exp(710) overflows, exp(710) * 1e-300 does not
  EXPECT_EQ(big.real(), kInf);
  EXPECT_NEAR(big.imag(), 2.2339e8, 1e5);
}

TEST(ComplexSpecialValues, Tanh) {
  using gpuarr::ufn::Tanh;
  check_both("tanh", Tanh{}, {
      {0.0, 0.0, P0, P0},
      {1, kInf, N, N}, {-1, kInf, N, N},
      {0.0, kInf, P0, N},
      {1, kNaN, N, N}, {-2, kNaN, N, N},
      {0.0, kNaN, P0, N},
      // 1 + 0j for every positive finite b (C99's sign of sin(2b) would give -0 for b = 2).
      {kInf, 1, exact(1), P0}, {kInf, 2, exact(1), P0}, {kInf, 1e300, exact(1), P0},
      {kInf, kInf, exact(1), any_sign(0)}, {kInf, kNaN, exact(1), any_sign(0)},
      {kNaN, 0.0, N, P0}, {kNaN, 1, N, N}, {kNaN, kInf, N, N}, {kNaN, kNaN, N, N},
      {400, 0.0, exact(1), P0}, {1000, 1, exact(1), P0},
  });
  // Odd: tanh(-z) = -tanh(z).
  check_both("tanh", Tanh{}, {
      {-0.0, 0.0, M0, P0}, {-0.0, kInf, M0, N}, {-0.0, kNaN, M0, N},
      {-kInf, 1, exact(-1), P0}, {-kInf, 2, exact(-1), P0},
  });
  // Near a pole, where sinh(2x) / (cosh(2x) + cos(2y)) divides by a cancelled 0.
  using C = cuda::std::complex<double>;
  const double y = kPi / 2;
  const C r = Tanh{}(C(1e-10, y));
  const std::complex<long double> want = std::tanh(std::complex<long double>(1e-10L, y));
  EXPECT_NEAR(r.real(), double(want.real()), 1e10 * 1e-15);
  EXPECT_NEAR(r.imag(), double(want.imag()), std::fabs(double(want.imag())) * 1e-15);
}

TEST(ComplexSpecialValues, Tan) {
  using gpuarr::ufn::Tan;
  // As -1j * tanh(1j * x).
  check_both("tan", Tan{}, {
      {0.0, 0.0, P0, P0}, {kInf, 0.0, N, P0}, {kNaN, 0.0, N, P0},
      {0.0, kInf, P0, exact(1)}, {1, kInf, P0, exact(1)}, {2, kInf, P0, exact(1)},
      {kInf, 1, N, N}, {kNaN, kNaN, N, N}, {kNaN, kInf, any_sign(0), exact(1)},
  });
}

TEST(ComplexSpecialValues, Asinh) {
  using gpuarr::ufn::Arcsinh;
  check_both("asinh", Arcsinh{}, {
      {0.0, 0.0, P0, P0},
      {1, kInf, exact(kInf), near(kPi / 2)}, {1e30, kInf, exact(kInf), near(kPi / 2)},
      {1, kNaN, N, N}, {0.0, kNaN, N, N}, {-1, kNaN, N, N},
      {kInf, 1, exact(kInf), P0}, {kInf, kInf, exact(kInf), near(kPi / 4)},
      {kNaN, 0.0, N, P0}, {kNaN, 1, N, N}, {kNaN, kInf, any_sign(kInf), N},
      {kNaN, kNaN, N, N}, {kInf, kNaN, exact(kInf), N},
      // Odd: the mirrored cases.
      {-0.0, 0.0, M0, P0}, {-1, kInf, exact(-kInf), near(kPi / 2)},
      {-kInf, 1, exact(-kInf), P0}, {-kInf, kInf, exact(-kInf), near(kPi / 4)},
  });
}

TEST(ComplexSpecialValues, Acosh) {
  using gpuarr::ufn::Arccosh;
  check_both("acosh", Arccosh{}, {
      {0.0, 0.0, P0, near(kPi / 2)}, {-0.0, 0.0, P0, near(kPi / 2)},
      {1, kInf, exact(kInf), near(kPi / 2)}, {0.0, kInf, exact(kInf), near(kPi / 2)},
      {-5, kInf, exact(kInf), near(kPi / 2)},
      {1, kNaN, N, N}, {-1, kNaN, N, N},
      {0.0, kNaN, N, any_sign(kPi / 2)}, {-0.0, kNaN, N, any_sign(kPi / 2)},
      {-kInf, 1, exact(kInf), near(kPi)}, {kInf, 1, exact(kInf), P0},
      {-kInf, kInf, exact(kInf), near(3 * kPi / 4)}, {kInf, kInf, exact(kInf), near(kPi / 4)},
      {kInf, kNaN, exact(kInf), N}, {-kInf, kNaN, exact(kInf), N},
      {kNaN, 1, N, N}, {kNaN, 0.0, N, N}, {kNaN, kInf, exact(kInf), N}, {kNaN, kNaN, N, N},
      {1, 0.0, P0, P0},
  });
}

TEST(ComplexSpecialValues, Acos) {
  using gpuarr::ufn::Arccos;
  check_both("acos", Arccos{}, {
      {0.0, 0.0, near(kPi / 2), M0}, {-0.0, 0.0, near(kPi / 2), M0},
      {0.0, kNaN, near(kPi / 2), N}, {-0.0, kNaN, near(kPi / 2), N},
      {1, kInf, near(kPi / 2), exact(-kInf)}, {1, kNaN, N, N},
      {-kInf, 1, near(kPi), exact(-kInf)}, {kInf, 1, P0, exact(-kInf)},
      {-kInf, kInf, near(3 * kPi / 4), exact(-kInf)}, {kInf, kInf, near(kPi / 4), exact(-kInf)},
      {kInf, kNaN, N, any_sign(kInf)}, {-kInf, kNaN, N, any_sign(kInf)},
      {kNaN, 1, N, N}, {kNaN, kInf, N, exact(-kInf)}, {kNaN, kNaN, N, N},
      {1, 0.0, P0, M0},
  });
}

TEST(ComplexSpecialValues, Atanh) {
  using gpuarr::ufn::Arctanh;
  check_both("atanh", Arctanh{}, {
      {0.0, 0.0, P0, P0}, {0.0, kNaN, P0, N}, {1, 0.0, exact(kInf), P0},
      {1, kInf, P0, near(kPi / 2)}, {1e30, kInf, P0, near(kPi / 2)},
      {1, kNaN, N, N}, {-1, kNaN, N, N},
      {kInf, 1, P0, near(kPi / 2)}, {kInf, kInf, P0, near(kPi / 2)}, {kInf, kNaN, P0, N},
      {kNaN, 1, N, N}, {kNaN, 0.0, N, N}, {kNaN, kInf, any_sign(0), near(kPi / 2)},
      {kNaN, kNaN, N, N},
      {-1, 0.0, exact(-kInf), P0}, {-0.0, 0.0, M0, P0}, {-kInf, 1, M0, near(kPi / 2)},
  });
}

TEST(ComplexSpecialValues, AsinAtanFromTheHyperbolic) {
  using gpuarr::ufn::Arcsin;
  using gpuarr::ufn::Arctan;
  // asin(z) = -1j * asinh(1j * z), atan(z) = -1j * atanh(1j * z).
  check_both("asin", Arcsin{}, {
      {0.0, 0.0, P0, P0}, {kInf, 1, near(kPi / 2), exact(kInf)},
      {kNaN, 0.0, N, N}, {0.0, kNaN, P0, N}, {kInf, kNaN, N, any_sign(kInf)},
      {kInf, kInf, near(kPi / 4), exact(kInf)},
  });
  check_both("atan", Arctan{}, {
      {0.0, 0.0, P0, P0}, {0.0, 1, P0, exact(kInf)}, {kInf, 1, near(kPi / 2), P0},
      {kNaN, 0.0, N, P0}, {kInf, kNaN, near(kPi / 2), any_sign(0)}, {kNaN, kNaN, N, N},
  });
}

// ---- accuracy against glibc's long double functions -------------------------------------

using LC = std::complex<long double>;

template <class F> std::vector<std::complex<F>> random_inputs(unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0, 1);
  const double lo = std::is_same_v<F, float> ? -37 : -300, hi = std::is_same_v<F, float> ? 37 : 300;
  auto sign = [&] { return u(gen) < 0.5 ? -1.0 : 1.0; };
  auto mag = [&](double a, double b) { return std::pow(10.0, a + (b - a) * u(gen)); };
  std::vector<std::complex<F>> z;
  for (int i = 0; i < 400; ++i) {
    z.emplace_back(F(sign() * mag(lo, hi)), F(sign() * mag(lo, hi)));           // anywhere
    z.emplace_back(F(sign() * 20 * u(gen)), F(sign() * 20 * u(gen)));            // moderate
    z.emplace_back(F(sign() * 3 * u(gen)), F(sign() * mag(-30, -3)));            // near the
    z.emplace_back(F(sign() * mag(-30, -3)), F(sign() * 3 * u(gen)));            // axes
    const double bx = i % 2 ? 1 : 0, by = i % 2 ? 0 : 1;                         // near +-1, +-i
    z.emplace_back(F(sign() * bx + sign() * mag(-12, -1)), F(sign() * by + sign() * mag(-12, -1)));
    z.emplace_back(F(-mag(0, 12)), F(sign() * 3 * u(gen)));                      // Re z << 0
  }
  return z;
}

// |got - want| in units of F's epsilon, relative to |want| (to its least normal below).
template <class F> double ulps(F got, long double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(want) || std::fabs(want) > std::numeric_limits<F>::max())
    return got == F(want) ? 0 : INFINITY;
  const long double scale = std::max<long double>(std::fabs(want), std::numeric_limits<F>::min());
  return double(std::fabs(static_cast<long double>(got) - want) / scale /
                std::numeric_limits<F>::epsilon());
}

template <class F, class Op, class Ref>
void check_accuracy(const char* name, Op op, Ref ref, double max_ulps, bool componentwise) {
  using C = cuda::std::complex<F>;
  double worst = 0;
  std::string where;
  for (const auto& z : random_inputs<F>(20250101)) {
    const C r = op(C(z.real(), z.imag()));
    const LC w = ref(LC(z.real(), z.imag()));
    double e;
    if (componentwise) {
      e = std::max(ulps(r.real(), w.real()), ulps(r.imag(), w.imag()));
    } else {
      const long double n = std::abs(w);
      if (!std::isfinite(n) || n > std::numeric_limits<F>::max()) continue;
      const long double d = std::abs(LC(r.real(), r.imag()) - w);
      e = double(d / std::max<long double>(n, std::numeric_limits<F>::min()) /
                 std::numeric_limits<F>::epsilon());
    }
    if (!(e <= worst)) {
      worst = e;
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s(%.9g%+.9gj) = %.17g%+.17gj, want %.17Lg%+.17Lgj", name,
                    double(z.real()), double(z.imag()), double(r.real()), double(r.imag()),
                    w.real(), w.imag());
      where = buf;
    }
  }
  EXPECT_LE(worst, max_ulps) << sizeof(F) * 8 << "-bit parts, worst: " << where;
}

template <class Op, class Ref>
void check_accuracy_both(const char* name, Op op, Ref ref, double max_ulps, bool componentwise = true) {
  check_accuracy<float>(name, op, ref, max_ulps, componentwise);
  check_accuracy<double>(name, op, ref, max_ulps, componentwise);
}

// Each part within a few ulp of the true value, however small it is beside the other.
TEST(ComplexAccuracy, InverseFunctionsAndTanh) {
  using namespace gpuarr::ufn;
  check_accuracy_both("asinh", Arcsinh{}, [](LC z) { return std::asinh(z); }, 8);
  check_accuracy_both("asin", Arcsin{}, [](LC z) { return std::asin(z); }, 8);
  check_accuracy_both("acosh", Arccosh{}, [](LC z) { return std::acosh(z); }, 8);
  check_accuracy_both("acos", Arccos{}, [](LC z) { return std::acos(z); }, 8);
  check_accuracy_both("atanh", Arctanh{}, [](LC z) { return std::atanh(z); }, 8);
  check_accuracy_both("atan", Arctan{}, [](LC z) { return std::atan(z); }, 8);
  check_accuracy_both("tanh", Tanh{}, [](LC z) { return std::tanh(z); }, 8);
  check_accuracy_both("tan", Tan{}, [](LC z) { return std::tan(z); }, 8);
}

// expm1(x) cos(y) - 2 sin(y/2)**2 cancels where exp(x) cos(y) is near 1 (as NumPy's): the
// result as a whole is accurate.
TEST(ComplexAccuracy, Expm1) {
  // The reference in long double by the same formula (exp(z) - 1 would cancel near 0).
  check_accuracy_both("expm1", gpuarr::ufn::Expm1{}, [](LC z) {
    const long double x = z.real(), y = z.imag(), s = std::sin(y / 2);
    return LC(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
  }, 8, false);
}

// The reported case: libcu++'s log(z + sqrt(z*z + 1)) cancelled for Re z < 0.
TEST(ComplexAccuracy, LargeNegativeRealParts) {
  using gpuarr::ufn::Arcsinh;
  using C = cuda::std::complex<float>;
  const C r = Arcsinh{}(C(-2731.0f, 1.0f));
  EXPECT_NEAR(r.real(), -8.605570402591917, 4e-6);
  EXPECT_NEAR(r.imag(), 0.0003661661985604537, 4e-10);
  // |z|**2 beyond float's range: no overflow to inf.
  const C big = Arcsinh{}(C(-1e30f, 3e29f));
  EXPECT_NEAR(big.real(), -69.81378883354931, 4e-5);
  EXPECT_NEAR(big.imag(), 0.2914567944778671, 4e-7);
  using D = cuda::std::complex<double>;
  const D a = gpuarr::ufn::Arccosh{}(D(-1e200, -5.0));
  EXPECT_NEAR(a.real(), 461.2101657793691, 1e-12);
  EXPECT_NEAR(a.imag(), -kPi, 1e-15);
}

}  // namespace

#else
TEST(UfuncSpecialValues, NeedsLibcudacxx) {
  GTEST_SKIP() << "<cuda/std/complex> is not on the include path";
}
#endif
