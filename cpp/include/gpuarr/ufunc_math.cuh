// The ufunc functors: one struct per operation, templated on the compute type, with
// NumPy's semantics for integer wrap-around and division by zero, NaN propagation, signed
// zeros and complex numbers. float16 computes in float32 (as NumPy does; half_to_float
// below), complex in cuda::std::complex.
//
// Every elementwise path calls these: the ahead-of-time ufunc loops and reductions
// (ops/elementwise.cuh, ops/reduce.cuh), the deferred chains (ops/lazy_elementwise.cu)
// and the kernels gpuarr.fuse generates, which NVRTC compiles with this header (shipped
// in the wheel as gpuarr/include/gpuarr/). So the header includes nothing but its
// neighbours and compiles under NVRTC with no include directory at all: NVRTC provides
// CUDA's math functions, and the few type properties needed are defined here (libcu++'s
// <cuda/std/type_traits> alone costs NVRTC about 1.7 s per kernel). Complex support needs
// libcu++ and is ufunc_complex.cuh: the complex branches below call the cx:: functions
// that it defines, so a kernel that never instantiates a functor with a complex type
// compiles without it.
//
// Real + - * / round each operation on its own (rounded_arith.cuh): a chain of functor
// calls inlined into one kernel (a deferred chain, a fused kernel) then rounds as a kernel
// per operation does, whatever the compiler's FMA contraction setting.
//
// Each functor names itself (`name`, GPUARR_UFN_NAME): the ufunc registry records it and
// the NVRTC generator calls gpuarr::ufn::<name>{}(...).
#pragma once
#include "rounded_arith.cuh"

#define GPUARR_UFN_FN __device__ __forceinline__
// Each functor's name, for the ufunc registry (host code). Left out under NVRTC, which
// would emit every one as a device global in each kernel.
#ifdef __CUDACC_RTC__
#define GPUARR_UFN_NAME(NAME)
#else
#define GPUARR_UFN_NAME(NAME) static constexpr const char* name = #NAME;
#endif

namespace gpuarr::ufn {

// ---- type properties ----------------------------------------------------------------
template <class A, class B> inline constexpr bool same_v = false;
template <class A> inline constexpr bool same_v<A, A> = true;
template <bool C, class A, class B> struct Select { using type = A; };
template <class A, class B> struct Select<false, A, B> { using type = B; };

// Integer types: signedness and the unsigned type of the same width. (Enumerators, not
// static data members: NVRTC emits a full specialisation's static members as device
// globals in every kernel, which costs compile time.)
template <class T> struct IntTraits {
  enum { integer = 0, is_signed = 0 };
};
#define GPUARR_UFN_INT_PAIR(S, U)                        \
  template <> struct IntTraits<S> {                      \
    enum { integer = 1, is_signed = 1 };                 \
    using unsigned_type = U;                             \
  };                                                     \
  template <> struct IntTraits<U> {                      \
    enum { integer = 1, is_signed = 0 };                 \
    using unsigned_type = U;                             \
  };
GPUARR_UFN_INT_PAIR(signed char, unsigned char)
GPUARR_UFN_INT_PAIR(short, unsigned short)
GPUARR_UFN_INT_PAIR(int, unsigned int)
GPUARR_UFN_INT_PAIR(long, unsigned long)
GPUARR_UFN_INT_PAIR(long long, unsigned long long)
#undef GPUARR_UFN_INT_PAIR
template <class T> using unsigned_t = typename IntTraits<T>::unsigned_type;
// The least value of a signed integer type.
template <class T> GPUARR_UFN_FN T int_min() {
  return static_cast<T>(static_cast<unsigned_t<T>>(unsigned_t<T>(1) << (sizeof(T) * 8 - 1)));
}

// Complex types are recognised (and their component type named) by ufunc_complex.cuh.
template <class T> struct is_cplx { enum { value = 0 }; };
template <class T> struct RealOf { using type = T; };

template <class T> constexpr bool is_cplx_v = is_cplx<T>::value != 0;
template <class T> constexpr bool is_bool_v = same_v<T, bool>;
template <class T> constexpr bool is_int_v = IntTraits<T>::integer != 0;
template <class T> constexpr bool is_signed_v = IntTraits<T>::is_signed != 0;
template <class T> constexpr bool is_real_v = same_v<T, float> || same_v<T, double>;

// The quiet NaN of std::numeric_limits<F>::quiet_NaN() (the same bits).
template <class F> GPUARR_UFN_FN F quiet_nan() {
  if constexpr (same_v<F, float>) return __int_as_float(0x7fc00000);
  else return __longlong_as_double(0x7ff8000000000000LL);
}
template <class F> GPUARR_UFN_FN F infinity() {
  if constexpr (same_v<F, float>) return __int_as_float(0x7f800000);
  else return __longlong_as_double(0x7ff0000000000000LL);
}

// float16 storage -> float32 compute. __half2float returns a canonical NaN; the sign bit is
// kept (copysign and signbit see it). A template so that this header needs no __half: `H`
// is cuda_fp16.h's __half, or the stand-in a kernel defines without the toolkit's headers.
template <class H> GPUARR_UFN_FN float half_to_float(H x) {
  const float f = __half2float(x);
  return isnan(f) && (__half_as_ushort(x) & 0x8000u) ? -f : f;
}

// ---- complex library functions (defined by ufunc_complex.cuh) ---------------------------
namespace cx {
#define GPUARR_UFN_CX_UNARY(X)                                                            \
  X(sqrt) X(exp) X(log) X(log10) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) \
  X(cosh) X(tanh) X(asinh) X(acosh) X(atanh)
#define GPUARR_UFN_CX_DECLARE(NAME) template <class C> GPUARR_UFN_FN C NAME(C x);
GPUARR_UFN_CX_UNARY(GPUARR_UFN_CX_DECLARE)
#undef GPUARR_UFN_CX_DECLARE
template <class C> GPUARR_UFN_FN C pow(C a, C b);
}  // namespace cx

// Integer arithmetic that wraps as NumPy's does (through the unsigned type: no UB).
template <class T> GPUARR_UFN_FN T wrap_add(T a, T b) {
  using U = unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T> GPUARR_UFN_FN T wrap_sub(T a, T b) {
  using U = unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T> GPUARR_UFN_FN T wrap_mul(T a, T b) {
  using U = unsigned_t<T>;
  using W = typename Select<(sizeof(U) < sizeof(unsigned)), unsigned, U>::type;
  return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) *
                                        static_cast<W>(static_cast<U>(b))));
}

// One-argument real math calling the float or double version.
#define GPUARR_REAL_FN(NAME)                                              \
  template <class T> GPUARR_UFN_FN T r_##NAME(T x) {                      \
    if constexpr (same_v<T, float>) return ::NAME##f(x);                  \
    else return ::NAME(x);                                                \
  }
GPUARR_REAL_FN(sqrt) GPUARR_REAL_FN(cbrt) GPUARR_REAL_FN(exp) GPUARR_REAL_FN(exp2)
GPUARR_REAL_FN(expm1) GPUARR_REAL_FN(log) GPUARR_REAL_FN(log2) GPUARR_REAL_FN(log10)
GPUARR_REAL_FN(log1p) GPUARR_REAL_FN(sin) GPUARR_REAL_FN(cos) GPUARR_REAL_FN(tan)
GPUARR_REAL_FN(asin) GPUARR_REAL_FN(acos) GPUARR_REAL_FN(atan) GPUARR_REAL_FN(sinh)
GPUARR_REAL_FN(cosh) GPUARR_REAL_FN(tanh) GPUARR_REAL_FN(asinh) GPUARR_REAL_FN(acosh)
GPUARR_REAL_FN(atanh) GPUARR_REAL_FN(floor) GPUARR_REAL_FN(ceil) GPUARR_REAL_FN(trunc)
GPUARR_REAL_FN(rint) GPUARR_REAL_FN(fabs)
#undef GPUARR_REAL_FN
#define GPUARR_REAL_FN2(NAME)                                             \
  template <class T> GPUARR_UFN_FN T r_##NAME(T x, T y) {                 \
    if constexpr (same_v<T, float>) return ::NAME##f(x, y);               \
    else return ::NAME(x, y);                                             \
  }
GPUARR_REAL_FN2(pow) GPUARR_REAL_FN2(fmod) GPUARR_REAL_FN2(atan2) GPUARR_REAL_FN2(hypot)
GPUARR_REAL_FN2(copysign)
#undef GPUARR_REAL_FN2

template <class T> GPUARR_UFN_FN bool is_nan(T x) {
  if constexpr (is_cplx_v<T>) return isnan(x.real()) || isnan(x.imag());
  else if constexpr (is_real_v<T>) return isnan(x);
  else return false;
}
template <class T> GPUARR_UFN_FN bool truthy(T x) {
  if constexpr (is_cplx_v<T>) return x.real() != 0 || x.imag() != 0;
  else return x != T(0);
}

// NumPy's lexicographic complex order (real part first).
// NumPy's CLT/CLE: a NaN imaginary part makes the real-part comparison false.
template <class T> GPUARR_UFN_FN bool lt(T a, T b) {
  if constexpr (is_cplx_v<T>)
    return (a.real() < b.real() && !isnan(a.imag()) && !isnan(b.imag())) ||
           (a.real() == b.real() && a.imag() < b.imag());
  else return a < b;
}
template <class T> GPUARR_UFN_FN bool le(T a, T b) {
  if constexpr (is_cplx_v<T>)
    return (a.real() < b.real() && !isnan(a.imag()) && !isnan(b.imag())) ||
           (a.real() == b.real() && a.imag() <= b.imag());
  else return a <= b;
}

// ---- arithmetic -------------------------------------------------------------------
struct Add {
  GPUARR_UFN_NAME(Add)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a || b;
    else if constexpr (is_int_v<T>) return wrap_add(a, b);
    else if constexpr (is_real_v<T>) return rn_add(a, b);
    else return a + b;
  }
};
struct Subtract {
  GPUARR_UFN_NAME(Subtract)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) return wrap_sub(a, b);
    else if constexpr (is_real_v<T>) return rn_sub(a, b);
    else return a - b;
  }
};
struct Multiply {
  GPUARR_UFN_NAME(Multiply)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a && b;
    else if constexpr (is_int_v<T>) return wrap_mul(a, b);
    else if constexpr (is_cplx_v<T>)
      // NumPy's plain formula (libcu++ recovers infinities per C99 Annex G; NumPy gives NaN).
      return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
    else return rn_mul(a, b);
  }
};
// NumPy's complex division (Smith's method; division by 0 divides by +0 componentwise).
template <class C> GPUARR_UFN_FN C complex_divide(C a, C b) {
  using F = typename C::value_type;
  const F ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const F abs_br = r_fabs(br), abs_bi = r_fabs(bi);  // -0.0 -> +0.0, as npy_fabs
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return C(ar / abs_br, ai / abs_bi);
    const F rat = bi / br;
    const F scl = F(1) / (br + bi * rat);
    return C((ar + ai * rat) * scl, (ai - ar * rat) * scl);
  }
  const F rat = br / bi;
  const F scl = F(1) / (bi + br * rat);
  return C((ar * rat + ai) * scl, (ai * rat - ar) * scl);
}

struct TrueDivide {
  GPUARR_UFN_NAME(TrueDivide)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_cplx_v<T>) return complex_divide(a, b);
    else return rn_div(a, b);
  }
};

// NumPy's npy_divmod for floats: returns the floor quotient, sets `mod`.
template <class T> GPUARR_UFN_FN T float_divmod(T a, T b, T& mod) {
  mod = r_fmod(a, b);
  if (!b) return a / b;
  T div = (a - mod) / b;
  if (mod) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = r_copysign(T(0), b);
  }
  T floordiv;
  if (div) {
    floordiv = r_floor(div);
    if (div - floordiv > T(0.5)) floordiv += T(1);
  } else {
    floordiv = r_copysign(T(0), a / b);
  }
  return floordiv;
}

// floor_divide (and //) follows the Array API standard's special cases, which are those of
// floor(a / b): an infinite operand beside a finite or zero one gives a / b itself (+-inf
// // finite is +-inf, finite // +-inf a signed zero), where npy_divmod gives NaN and, for
// operands of opposite signs, -1. divmod's quotient keeps NumPy's (DivmodQuotient).
struct FloorDivide {
  GPUARR_UFN_NAME(FloorDivide)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_real_v<T>) {
      if (!b || isinf(a) || isinf(b)) return a / b;
      T mod;
      return float_divmod(a, b, mod);
    } else {
      if (b == 0) return T(0);
      if constexpr (is_signed_v<T>) {
        if (b == T(-1)) return wrap_sub(T(0), a);  // MIN // -1 wraps to MIN, as NumPy
        T q = a / b;
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return a / b;
      }
    }
  }
};
// NumPy's floor quotient (npy_divmod's), for divmod, which keeps NumPy's results: there the
// quotient comes from the remainder's computation, so inf // 2 is NaN and 1 // -inf is -1
// (with remainder -inf).
struct DivmodQuotient {
  GPUARR_UFN_NAME(DivmodQuotient)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_real_v<T>) {
      if (!b) return a / b;
      T mod;
      return float_divmod(a, b, mod);
    } else {
      return FloorDivide{}(a, b);
    }
  }
};
struct Remainder {
  GPUARR_UFN_NAME(Remainder)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_real_v<T>) {
      if (!b) return r_fmod(a, b);
      T mod;
      float_divmod(a, b, mod);
      return mod;
    } else {
      if (b == 0) return T(0);
      if constexpr (is_signed_v<T>) {
        if (b == T(-1)) return T(0);
        T r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return r;
      } else {
        return a % b;
      }
    }
  }
};
struct Fmod {
  GPUARR_UFN_NAME(Fmod)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_real_v<T>) return r_fmod(a, b);
    else {
      if (b == 0) return T(0);
      if constexpr (is_signed_v<T>)
        if (b == T(-1)) return T(0);
      return a % b;
    }
  }
};

template <class C> GPUARR_UFN_FN C complex_power(C a, C b) {
  using F = typename C::value_type;
  const F br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return C(1, 0);
  if (a.real() == 0 && a.imag() == 0) {
    if (br > 0) return C(0, 0);  // C99 cpow (NumPy 2.5): 0 ** z is 0 when Re z > 0
    const F nan = quiet_nan<F>();
    return C(nan, nan);
  }
  if (bi == 0 && br == F(int(br)) && br >= -100 && br <= 100) {
    // Small integer exponents by repeated squaring, as NumPy does.
    int n = int(br);
    const bool neg = n < 0;
    if (neg) n = -n;
    C result(1, 0), base = a;
    while (n) {
      if (n & 1) result = result * base;
      base = base * base;
      n >>= 1;
    }
    return neg ? complex_divide(C(1, 0), result) : result;
  }
  return cx::pow(a, b);
}

struct Power {
  GPUARR_UFN_NAME(Power)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) {
      // NumPy refuses negative integer exponents; a kernel cannot raise, so the
      // result is 0 except for bases 1 and -1 (the exact values).
      if constexpr (is_signed_v<T>) {
        if (b < 0) return a == 1 ? T(1) : a == T(-1) ? ((b & 1) ? T(-1) : T(1)) : T(0);
      }
      T result = 1, base = a;
      auto e = b;
      while (e) {
        if (e & 1) result = wrap_mul(result, base);
        base = wrap_mul(base, base);
        e >>= 1;
      }
      return result;
    } else if constexpr (is_cplx_v<T>) {
      return complex_power(a, b);
    } else {
      // NumPy's float power takes sqrt/square for these exponents (so (-0.0)**0.5 is -0.0
      // and (-inf)**0.5 is nan, as sqrt gives).
      if (b == T(0.5)) return r_sqrt(a);
      if (b == T(2)) return rn_mul(a, a);
      return r_pow(a, b);
    }
  }
};

// ---- one-argument arithmetic --------------------------------------------------------
struct Negative {
  GPUARR_UFN_NAME(Negative)
  template <class T> GPUARR_UFN_FN T operator()(T a) const {
    if constexpr (is_int_v<T>) return wrap_sub(T(0), a);
    else return -a;
  }
};
struct Positive {
  GPUARR_UFN_NAME(Positive)
  template <class T> GPUARR_UFN_FN T operator()(T a) const { return a; }
};

struct Absolute {
  GPUARR_UFN_NAME(Absolute)
  // An explicit return type: nvcc's host pass cannot deduce `auto` from a device body.
  template <class T> GPUARR_UFN_FN typename RealOf<T>::type operator()(T a) const {
    if constexpr (is_cplx_v<T>) return r_hypot(a.real(), a.imag());
    else if constexpr (is_real_v<T>) return r_fabs(a);
    else if constexpr (is_signed_v<T>) return a < 0 ? wrap_sub(T(0), a) : a;
    else return a;
  }
};
struct Sign {
  GPUARR_UFN_NAME(Sign)
  template <class T> GPUARR_UFN_FN T operator()(T a) const {
    if constexpr (is_cplx_v<T>) {
      using F = typename T::value_type;
      if (is_nan(a)) {
        const F nan = quiet_nan<F>();
        return T(nan, nan);
      }
      const F m = r_hypot(a.real(), a.imag());
      if (m == 0) return T(0, 0);
      if (isinf(m)) {
        const bool ir = isinf(a.real()), ii = isinf(a.imag());
        if (ir && ii) {
          const F nan = quiet_nan<F>();
          return T(nan, nan);
        }
        return ir ? T(r_copysign(F(1), a.real()), F(0)) : T(F(0), r_copysign(F(1), a.imag()));
      }
      return T(a.real() / m, a.imag() / m);
    } else if constexpr (is_real_v<T>) {
      return a > 0 ? T(1) : a < 0 ? T(-1) : a == 0 ? T(0) : a;
    } else if constexpr (is_signed_v<T>) {
      return T((a > 0) - (a < 0));
    } else {
      return T(a > 0);
    }
  }
};
struct Reciprocal {
  GPUARR_UFN_NAME(Reciprocal)
  template <class T> GPUARR_UFN_FN T operator()(T a) const {
    if constexpr (is_int_v<T>) {
      // NumPy computes 1.0 / a and converts; for a == 0 that is x86's conversion of inf.
      if (a == 0) {
        if constexpr (is_signed_v<T> && (sizeof(T) == 8 || sizeof(T) == 4))
          return int_min<T>();
        else return T(0);
      }
      if constexpr (is_signed_v<T>) return a == T(-1) ? T(-1) : a == 1 ? T(1) : T(0);
      else return a == 1 ? T(1) : T(0);
    } else {
      return T(1) / a;
    }
  }
};
struct Square {
  GPUARR_UFN_NAME(Square)
  template <class T> GPUARR_UFN_FN T operator()(T a) const {
    if constexpr (is_int_v<T>) return wrap_mul(a, a);
    else if constexpr (is_real_v<T>) return rn_mul(a, a);
    else return a * a;
  }
};
struct Conjugate {
  GPUARR_UFN_NAME(Conjugate)
  template <class T> GPUARR_UFN_FN T operator()(T a) const {
    if constexpr (is_cplx_v<T>) return T(a.real(), -a.imag());
    else return a;
  }
};

// ---- exponentials, logarithms, trigonometry (real via CUDA math, complex via libcu++) --
// exp(z) - 1 as expm1(x) cos(y) - 2 sin(y/2)**2 + i exp(x) sin(y), which keeps the relative
// accuracy that exp(z) - 1 loses near 0, with the Array API standard's special cases: those
// of exp(z) - 1, except that a zero gives +0 + 0j (expm1(-0) cos(0) - 0 would be -0) and the
// real axis keeps its zero imaginary part (exp(+inf) * sin(0) would be NaN).
template <class C> GPUARR_UFN_FN C complex_expm1(C z) {
  using F = typename C::value_type;
  const F x = z.real(), y = z.imag();
  if (y == 0) return C(x == 0 ? F(0) : r_expm1(x), y);
  if (isnan(x)) return C(x, x);
  if (isinf(x)) {
    if (x < 0) return C(F(-1), isfinite(y) ? r_copysign(F(0), r_sin(y)) : r_copysign(F(0), y));
    if (!isfinite(y)) return C(x, y - y);       // +inf + (inf or NaN) j: +inf + NaN j
    return C(x * r_cos(y), x * r_sin(y));       // +inf cis(y)
  }
  if (!isfinite(y)) return C(y - y, y - y);     // finite + (inf or NaN) j: NaN + NaN j
  const F s = r_sin(y / 2);
  F re = r_expm1(x) * r_cos(y) - F(2) * s * s;
  F im = r_exp(x) * r_sin(y);
  if (isinf(im) || isinf(re)) {
    // exp(x) overflows where exp(x) sin(y) or exp(x) cos(y) may not (tiny sin(y), cos(y)).
    const F h = r_exp(x / 2);
    re = h * r_cos(y) * h - F(1);
    im = h * r_sin(y) * h;
  }
  return C(re, im);
}

#define GPUARR_FLOAT_FN(STRUCT, REAL, COMPLEX_EXPR)                              \
  struct STRUCT {                                                               \
    GPUARR_UFN_NAME(STRUCT)                                \
    template <class T> GPUARR_UFN_FN T operator()(T x) const {                  \
      if constexpr (is_cplx_v<T>) {                                             \
        using F = typename T::value_type;                                       \
        (void)sizeof(F);                                                        \
        return COMPLEX_EXPR;                                                    \
      } else {                                                                  \
        return REAL(x);                                                         \
      }                                                                         \
    }                                                                           \
  };
GPUARR_FLOAT_FN(Sqrt, r_sqrt, cx::sqrt(x))
GPUARR_FLOAT_FN(Cbrt, r_cbrt, x)
GPUARR_FLOAT_FN(Exp, r_exp, cx::exp(x))
GPUARR_FLOAT_FN(Exp2, r_exp2, cx::exp(x * F(0.693147180559945309417232121458176568)))
GPUARR_FLOAT_FN(Expm1, r_expm1, complex_expm1(x))
GPUARR_FLOAT_FN(Log, r_log, cx::log(x))
GPUARR_FLOAT_FN(Log2, r_log2, cx::log(x) / F(0.693147180559945309417232121458176568))
GPUARR_FLOAT_FN(Log10, r_log10, cx::log10(x))
GPUARR_FLOAT_FN(Log1p, r_log1p,
                T(r_log(r_hypot(x.real() + F(1), x.imag())),
                  r_atan2(x.imag(), x.real() + F(1))))
GPUARR_FLOAT_FN(Sin, r_sin, cx::sin(x))
GPUARR_FLOAT_FN(Cos, r_cos, cx::cos(x))
GPUARR_FLOAT_FN(Tan, r_tan, cx::tan(x))
GPUARR_FLOAT_FN(Arcsin, r_asin, cx::asin(x))
GPUARR_FLOAT_FN(Arccos, r_acos, cx::acos(x))
GPUARR_FLOAT_FN(Arctan, r_atan, cx::atan(x))
GPUARR_FLOAT_FN(Sinh, r_sinh, cx::sinh(x))
GPUARR_FLOAT_FN(Cosh, r_cosh, cx::cosh(x))
GPUARR_FLOAT_FN(Tanh, r_tanh, cx::tanh(x))
GPUARR_FLOAT_FN(Arcsinh, r_asinh, cx::asinh(x))
GPUARR_FLOAT_FN(Arccosh, r_acosh, cx::acosh(x))
GPUARR_FLOAT_FN(Arctanh, r_atanh, cx::atanh(x))
GPUARR_FLOAT_FN(Rint, r_rint, T(r_rint(x.real()), r_rint(x.imag())))
#undef GPUARR_FLOAT_FN

struct Deg2rad {
  GPUARR_UFN_NAME(Deg2rad)
  template <class T> GPUARR_UFN_FN T operator()(T x) const {
    return rn_mul(x, T(3.14159265358979323846264338327950288) / T(180));
  }
};
struct Rad2deg {
  GPUARR_UFN_NAME(Rad2deg)
  template <class T> GPUARR_UFN_FN T operator()(T x) const {
    return rn_mul(x, T(180) / T(3.14159265358979323846264338327950288));
  }
};
#define GPUARR_ROUNDING_FN(STRUCT, REAL)                              \
  struct STRUCT {                                                     \
    GPUARR_UFN_NAME(STRUCT)                      \
    template <class T> GPUARR_UFN_FN T operator()(T x) const {        \
      if constexpr (is_real_v<T>) return REAL(x);                     \
      else return x;                                                  \
    }                                                                 \
  };
GPUARR_ROUNDING_FN(Floor, r_floor)
GPUARR_ROUNDING_FN(Ceil, r_ceil)
GPUARR_ROUNDING_FN(Trunc, r_trunc)
#undef GPUARR_ROUNDING_FN

struct Arctan2 {
  GPUARR_UFN_NAME(Arctan2)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const { return r_atan2(a, b); }
};
struct Hypot {
  GPUARR_UFN_NAME(Hypot)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const { return r_hypot(a, b); }
};
struct Copysign {
  GPUARR_UFN_NAME(Copysign)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const { return r_copysign(a, b); }
};
// NumPy's npy_logaddexp: log(exp(x) + exp(y)) without overflow.
struct Logaddexp {
  GPUARR_UFN_NAME(Logaddexp)
  template <class T> GPUARR_UFN_FN T operator()(T x, T y) const {
    if (x == y) return x + T(0.693147180559945309417232121458176568);  // x + log(2)
    const T d = x - y;
    if (d > 0) return x + r_log1p(r_exp(-d));
    if (d <= 0) return y + r_log1p(r_exp(d));
    return d;  // NaN
  }
};
// NumPy's npy_logaddexp2: log2(2**x + 2**y) without overflow.
struct Logaddexp2 {
  GPUARR_UFN_NAME(Logaddexp2)
  template <class T> GPUARR_UFN_FN T operator()(T x, T y) const {
    constexpr T log2e = T(1.442695040888963407359924681001892137);
    if (x == y) return x + T(1);
    const T d = x - y;
    if (d > 0) return rn_add(x, rn_mul(log2e, r_log1p(r_exp2(-d))));
    if (d <= 0) return rn_add(y, rn_mul(log2e, r_log1p(r_exp2(d))));
    return d;  // NaN
  }
};

// ---- comparisons and logic ----------------------------------------------------------
struct Equal {
  GPUARR_UFN_NAME(Equal)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return a == b; }
};
struct NotEqual {
  GPUARR_UFN_NAME(NotEqual)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return a != b; }
};
struct Less {
  GPUARR_UFN_NAME(Less)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return lt(a, b); }
};
struct LessEqual {
  GPUARR_UFN_NAME(LessEqual)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return le(a, b); }
};
struct Greater {
  GPUARR_UFN_NAME(Greater)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return lt(b, a); }
};
struct GreaterEqual {
  GPUARR_UFN_NAME(GreaterEqual)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return le(b, a); }
};
struct LogicalAnd {
  GPUARR_UFN_NAME(LogicalAnd)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return truthy(a) && truthy(b); }
};
struct LogicalOr {
  GPUARR_UFN_NAME(LogicalOr)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return truthy(a) || truthy(b); }
};
struct LogicalXor {
  GPUARR_UFN_NAME(LogicalXor)
  template <class T> GPUARR_UFN_FN bool operator()(T a, T b) const { return truthy(a) != truthy(b); }
};
struct LogicalNot {
  GPUARR_UFN_NAME(LogicalNot)
  template <class T> GPUARR_UFN_FN bool operator()(T a) const { return !truthy(a); }
};
// maximum/minimum propagate NaN (the first NaN wins); fmax/fmin ignore it.
struct Maximum {
  GPUARR_UFN_NAME(Maximum)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a || b;
    else {
      if (is_nan(a)) return a;
      if (is_nan(b)) return b;
      return le(b, a) ? a : b;
    }
  }
};
struct Minimum {
  GPUARR_UFN_NAME(Minimum)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a && b;
    else {
      if (is_nan(a)) return a;
      if (is_nan(b)) return b;
      return le(a, b) ? a : b;
    }
  }
};
struct Fmax {
  GPUARR_UFN_NAME(Fmax)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a || b;
    else {
      if (is_nan(b)) return a;
      if (is_nan(a)) return b;
      return le(b, a) ? a : b;
    }
  }
};
struct Fmin {
  GPUARR_UFN_NAME(Fmin)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a && b;
    else {
      if (is_nan(b)) return a;
      if (is_nan(a)) return b;
      return le(a, b) ? a : b;
    }
  }
};
struct Isnan {
  GPUARR_UFN_NAME(Isnan)
  template <class T> GPUARR_UFN_FN bool operator()(T a) const { return is_nan(a); }
};
struct Isinf {
  GPUARR_UFN_NAME(Isinf)
  template <class T> GPUARR_UFN_FN bool operator()(T a) const {
    if constexpr (is_cplx_v<T>) return isinf(a.real()) || isinf(a.imag());
    else if constexpr (is_real_v<T>) return isinf(a);
    else return false;
  }
};
struct Isfinite {
  GPUARR_UFN_NAME(Isfinite)
  template <class T> GPUARR_UFN_FN bool operator()(T a) const {
    if constexpr (is_cplx_v<T>) return isfinite(a.real()) && isfinite(a.imag());
    else if constexpr (is_real_v<T>) return isfinite(a);
    else return true;
  }
};
struct Signbit {
  GPUARR_UFN_NAME(Signbit)
  template <class T> GPUARR_UFN_FN bool operator()(T a) const { return signbit(a); }
};

// ---- bitwise ----------------------------------------------------------------------
struct BitwiseAnd {
  GPUARR_UFN_NAME(BitwiseAnd)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a && b;
    else return a & b;
  }
};
struct BitwiseOr {
  GPUARR_UFN_NAME(BitwiseOr)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a || b;
    else return a | b;
  }
};
struct BitwiseXor {
  GPUARR_UFN_NAME(BitwiseXor)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a != b;
    else return a ^ b;
  }
};
struct Invert {
  GPUARR_UFN_NAME(Invert)
  template <class T> GPUARR_UFN_FN T operator()(T a) const {
    if constexpr (is_bool_v<T>) return !a;
    else return T(~a);
  }
};
// Shift counts at or beyond the width (or negative) give 0, or -1 for a negative value
// shifted right: NumPy's npy_lshift/npy_rshift.
struct LeftShift {
  GPUARR_UFN_NAME(LeftShift)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    using U = unsigned_t<T>;
    if (static_cast<unsigned long long>(b) < sizeof(T) * 8)
      return static_cast<T>(static_cast<U>(static_cast<U>(a) << b));
    return T(0);
  }
};
struct RightShift {
  GPUARR_UFN_NAME(RightShift)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    if (static_cast<unsigned long long>(b) < sizeof(T) * 8) return static_cast<T>(a >> b);
    if constexpr (is_signed_v<T>) return a < 0 ? T(-1) : T(0);
    else return T(0);
  }
};

// ---- floating-point parts and neighbours, integer number theory, bit counts ---------
struct Fabs {
  GPUARR_UFN_NAME(Fabs)
  template <class T> GPUARR_UFN_FN T operator()(T x) const { return r_fabs(x); }
};
// NumPy's npy_heaviside: 0 below zero, h0 at (either) zero, 1 above, NaN for NaN.
struct Heaviside {
  GPUARR_UFN_NAME(Heaviside)
  template <class T> GPUARR_UFN_FN T operator()(T x, T h0) const {
    if (isnan(x)) return quiet_nan<T>();
    if (x == 0) return h0;
    return x < 0 ? T(0) : T(1);
  }
};
// x * 2**e. An exponent beyond int's range saturates to it, as NumPy's long loops do
// (the result then overflows or underflows whatever x is).
struct Ldexp {
  GPUARR_UFN_NAME(Ldexp)
  template <class T, class E> GPUARR_UFN_FN T operator()(T x, E e) const {
    constexpr int kMax = 0x7fffffff;
    const int n = e > E(kMax) ? kMax : e < E(-kMax - 1) ? -kMax - 1 : int(e);
    if constexpr (same_v<T, float>) return ::ldexpf(x, n);
    else return ::ldexp(x, n);
  }
};
// frexp's two results, one functor each: the mantissa in [0.5, 1) with x's sign (x itself
// for 0, inf and NaN) and the exponent (0 for those).
struct FrexpMantissa {
  GPUARR_UFN_NAME(FrexpMantissa)
  template <class T> GPUARR_UFN_FN T operator()(T x) const {
    int e;
    if constexpr (same_v<T, float>) return ::frexpf(x, &e);
    else return ::frexp(x, &e);
  }
};
struct FrexpExponent {
  GPUARR_UFN_NAME(FrexpExponent)
  template <class T> GPUARR_UFN_FN int operator()(T x) const {
    int e = 0;
    if (isfinite(x)) {
      if constexpr (same_v<T, float>) ::frexpf(x, &e);
      else ::frexp(x, &e);
    }
    return e;
  }
};
// modf's two results: the fractional part (signed like x; +-0 for +-inf) and the integral
// part (trunc).
struct ModfFractional {
  GPUARR_UFN_NAME(ModfFractional)
  template <class T> GPUARR_UFN_FN T operator()(T x) const {
    T integral;
    if constexpr (same_v<T, float>) return ::modff(x, &integral);
    else return ::modf(x, &integral);
  }
};
struct ModfIntegral {
  GPUARR_UFN_NAME(ModfIntegral)
  template <class T> GPUARR_UFN_FN T operator()(T x) const { return r_trunc(x); }
};

// float16 neighbours, computed on its values held in float (exact): the distance from x to
// its next float16 away from zero (`up`) or towards zero (`!up`): 2**(e-25) for biased
// exponent e, half that below a power of two, never under the least subnormal 2**-24.
GPUARR_UFN_FN float half_ulp(float x, bool up) {
  int e2;
  const float m = ::frexpf(::fabsf(x), &e2);  // |x| = m * 2**e2, m in [0.5, 1)
  const int biased = ::fabsf(x) < 6.103515625e-05f ? 0 : e2 + 14;
  const bool below_power_of_two = !up && (m == 0.5f || x == 0);
  const float step = ::ldexpf(1.0f, biased - (below_power_of_two ? 26 : 25));
  return step < 5.9604644775390625e-08f ? 5.9604644775390625e-08f : step;
}

// C's nextafter (x == y gives y, so nextafter(-0, +0) is +0).
struct Nextafter {
  GPUARR_UFN_NAME(Nextafter)
  template <class T> GPUARR_UFN_FN T operator()(T x, T y) const {
    if (isnan(x) || isnan(y)) return x + y;
    if (x == y) return y;
    if constexpr (same_v<T, float>) return ::nextafterf(x, y);
    else return ::nextafter(x, y);
  }
};
// NumPy's npy_half_nextafter, on float16 values held in float. x == y gives y as C's
// nextafter does (NumPy from 2.5 on; earlier versions gave x, so nextafter(-0, +0) was -0).
// The least subnormal stepped towards zero is the zero of its sign, as NumPy's bit decrement
// gives (float arithmetic would give +0 for both).
struct NextafterHalf {
  GPUARR_UFN_NAME(NextafterHalf)
  GPUARR_UFN_FN float operator()(float x, float y) const {
    if (isnan(x) || isnan(y)) return quiet_nan<float>();
    if (x == y) return y;
    if (x == 0) return ::copysignf(5.9604644775390625e-08f, y);
    if (isinf(x)) return ::copysignf(65504.0f, x);  // the largest float16
    const bool up = (y > x) == (x > 0);             // away from zero
    const float step = half_ulp(x, up);
    const float r = (x > 0) == up ? x + step : x - step;  // 65504 + 32 rounds to inf
    return r == 0 ? ::copysignf(0.0f, x) : r;
  }
};
// NumPy's npy_spacing: the distance to the next value away from zero (x's sign; +tiny for
// +-0; NaN for inf and NaN).
struct Spacing {
  GPUARR_UFN_NAME(Spacing)
  template <class T> GPUARR_UFN_FN T operator()(T x) const {
    if (isinf(x) || isnan(x)) return quiet_nan<T>();
    if (x == 0) return Nextafter{}(T(0), T(1));
    return Nextafter{}(x, x > 0 ? infinity<T>() : -infinity<T>()) - x;
  }
};
// npy_half_spacing: always positive; below a negative power of two it is the spacing below
// it, and the largest float16's is inf.
struct SpacingHalf {
  GPUARR_UFN_NAME(SpacingHalf)
  GPUARR_UFN_FN float operator()(float x) const {
    if (isinf(x) || isnan(x)) return quiet_nan<float>();
    if (x == 65504.0f) return infinity<float>();
    return half_ulp(x, !signbit(x));
  }
};

// NumPy's npy_gcd/npy_lcm: Euclid on the magnitudes in the unsigned type (|MIN| is
// 2**(bits-1)), lcm = a / gcd * b wrapping there; a signed result is those bits (so
// gcd(MIN, MIN) and lcm(MIN, 1) are MIN, and an overflowing lcm wraps, as in NumPy).
template <class T> GPUARR_UFN_FN unsigned_t<T> magnitude(T a) {
  using U = unsigned_t<T>;
  if constexpr (is_signed_v<T>) return a < 0 ? static_cast<U>(U(0) - static_cast<U>(a)) : U(a);
  else return a;
}
template <class U> GPUARR_UFN_FN U gcd_unsigned(U a, U b) {
  while (a != 0) {
    const U c = a;
    a = static_cast<U>(b % a);
    b = c;
  }
  return b;
}
struct Gcd {
  GPUARR_UFN_NAME(Gcd)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    return static_cast<T>(gcd_unsigned(magnitude(a), magnitude(b)));
  }
};
struct Lcm {
  GPUARR_UFN_NAME(Lcm)
  template <class T> GPUARR_UFN_FN T operator()(T a, T b) const {
    using U = unsigned_t<T>;
    const U ua = magnitude(a), ub = magnitude(b);
    const U g = gcd_unsigned(ua, ub);
    return g == 0 ? T(0) : static_cast<T>(wrap_mul(static_cast<U>(ua / g), ub));
  }
};
// NumPy 2's bitwise_count: the set bits of |x|.
struct BitwiseCount {
  GPUARR_UFN_NAME(BitwiseCount)
  template <class T> GPUARR_UFN_FN unsigned char operator()(T x) const {
    using U = unsigned_t<T>;
    U u = static_cast<U>(x);
    if constexpr (is_signed_v<T>) u = x < 0 ? static_cast<U>(U(0) - u) : u;
    if constexpr (sizeof(T) == 8) return static_cast<unsigned char>(__popcll(u));
    else return static_cast<unsigned char>(__popc(static_cast<unsigned>(u)));
  }
};

// NumPy's sinc: sin(pi x) / (pi x), 1 at 0.
struct Sinc {
  GPUARR_UFN_NAME(Sinc)
  template <class T> GPUARR_UFN_FN T operator()(T x) const {
    if constexpr (is_cplx_v<T>) {
      using F = typename T::value_type;
      constexpr F pi = F(3.14159265358979323846264338327950288);
      const T y(pi * x.real(), pi * x.imag());
      if (y.real() == 0 && y.imag() == 0) return T(1, 0);
      return complex_divide(cx::sin(y), y);
    } else {
      constexpr T pi = T(3.14159265358979323846264338327950288);
      const T y = rn_mul(pi, x);
      if (y == 0) return T(1);
      return rn_div(r_sin(y), y);
    }
  }
};

// NumPy's i0: Cephes' Chebyshev expansions of exp(-x) I0(x) on [0, 8] and of
// exp(-x) sqrt(x) I0(x) on (8, inf), evaluated in T in NumPy's order of operations.
template <class T, int N> GPUARR_UFN_FN T chbevl(T x, const double (&c)[N]) {
  T b0 = T(c[0]), b1 = T(0), b2 = T(0);
#pragma unroll
  for (int i = 1; i < N; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = rn_add(rn_sub(rn_mul(x, b1), b2), T(c[i]));
  }
  return rn_mul(T(0.5), rn_sub(b0, b2));
}
struct I0 {
  GPUARR_UFN_NAME(I0)
  template <class T> GPUARR_UFN_FN T operator()(T x) const {
    const double a[30] = {
        -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
        1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
        -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
        9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
        -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
        1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
        -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
        1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
        -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
        1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1};
    const double b[25] = {
        -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
        3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
        1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
        -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
        7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
        -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
        3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
        2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
        8.04490411014108831608E-1};
    x = r_fabs(x);
    if (x <= T(8)) return rn_mul(r_exp(x), chbevl(rn_sub(rn_div(x, T(2)), T(2)), a));
    return rn_div(rn_mul(r_exp(x), chbevl(rn_sub(rn_div(T(32), x), T(2)), b)), rn_sqrt(x));
  }
};

// ---- three arguments ----------------------------------------------------------------
// NumPy's clip loop: min(max(x, lo), hi) where a NaN first operand wins and otherwise a
// failed comparison picks the second (so the complex NaN returned is NumPy's).
struct Clip {
  GPUARR_UFN_NAME(Clip)
  template <class T> GPUARR_UFN_FN T operator()(T x, T lo, T hi) const {
    if constexpr (is_cplx_v<T>) {
      const T m = is_nan(x) || lex_greater(x, lo) ? x : lo;
      return is_nan(m) || lex_greater(hi, m) ? m : hi;
    } else {
      return Minimum{}(Maximum{}(x, lo), hi);
    }
  }
  template <class T> GPUARR_UFN_FN static bool lex_greater(T a, T b) {
    return a.real() == b.real() ? a.imag() > b.imag() : a.real() > b.real();
  }
};

}  // namespace gpuarr::ufn
