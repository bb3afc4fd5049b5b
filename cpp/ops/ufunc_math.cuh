// The ufunc functors: one struct per operation, templated on the compute type, with
// NumPy's semantics for integer wrap-around and division by zero, NaN propagation,
// signed zeros and complex numbers. float16 computes in float32 (as NumPy does) and
// complex in cuda::std::complex.
#pragma once
#include <cuda/std/complex>
#include <cuda_fp16.h>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace gpuarr::ufn {

template <class T> struct is_cplx : std::false_type {};
template <class F> struct is_cplx<cuda::std::complex<F>> : std::true_type {};
template <class T> constexpr bool is_cplx_v = is_cplx<T>::value;
template <class T> constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <class T> constexpr bool is_int_v = std::is_integral_v<T> && !is_bool_v<T>;
template <class T> constexpr bool is_real_v = std::is_floating_point_v<T>;

// Integer arithmetic that wraps as NumPy's does (through the unsigned type: no UB).
template <class T> __device__ __forceinline__ T wrap_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <class T> __device__ __forceinline__ T wrap_sub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <class T> __device__ __forceinline__ T wrap_mul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  using W = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
  return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(a)) *
                                        static_cast<W>(static_cast<U>(b))));
}

// One-argument real math calling the float or double version.
#define GPUARR_REAL_FN(NAME)                                              \
  template <class T> __device__ __forceinline__ T r_##NAME(T x) {         \
    if constexpr (std::is_same_v<T, float>) return ::NAME##f(x);          \
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
  template <class T> __device__ __forceinline__ T r_##NAME(T x, T y) {    \
    if constexpr (std::is_same_v<T, float>) return ::NAME##f(x, y);       \
    else return ::NAME(x, y);                                             \
  }
GPUARR_REAL_FN2(pow) GPUARR_REAL_FN2(fmod) GPUARR_REAL_FN2(atan2) GPUARR_REAL_FN2(hypot)
GPUARR_REAL_FN2(copysign)
#undef GPUARR_REAL_FN2

template <class T> __device__ __forceinline__ bool is_nan(T x) {
  if constexpr (is_cplx_v<T>) return isnan(x.real()) || isnan(x.imag());
  else if constexpr (is_real_v<T>) return isnan(x);
  else return false;
}
template <class T> __device__ __forceinline__ bool truthy(T x) {
  if constexpr (is_cplx_v<T>) return x.real() != 0 || x.imag() != 0;
  else return x != T(0);
}

// NumPy's lexicographic complex order (real part first).
// NumPy's CLT/CLE: a NaN imaginary part makes the real-part comparison false.
template <class T> __device__ __forceinline__ bool lt(T a, T b) {
  if constexpr (is_cplx_v<T>)
    return (a.real() < b.real() && !isnan(a.imag()) && !isnan(b.imag())) ||
           (a.real() == b.real() && a.imag() < b.imag());
  else return a < b;
}
template <class T> __device__ __forceinline__ bool le(T a, T b) {
  if constexpr (is_cplx_v<T>)
    return (a.real() < b.real() && !isnan(a.imag()) && !isnan(b.imag())) ||
           (a.real() == b.real() && a.imag() <= b.imag());
  else return a <= b;
}

// ---- arithmetic -------------------------------------------------------------------
struct Add {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a || b;
    else if constexpr (is_int_v<T>) return wrap_add(a, b);
    else return a + b;
  }
};
struct Subtract {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) return wrap_sub(a, b);
    else return a - b;
  }
};
struct Multiply {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a && b;
    else if constexpr (is_int_v<T>) return wrap_mul(a, b);
    else if constexpr (is_cplx_v<T>)
      // NumPy's plain formula (libcu++ recovers infinities per C99 Annex G; NumPy gives NaN).
      return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
    else return a * b;
  }
};
// NumPy's complex division (Smith's method; division by 0 divides by +0 componentwise).
template <class C> __device__ C complex_divide(C a, C b) {
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
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_cplx_v<T>) return complex_divide(a, b);
    else return a / b;
  }
};

// NumPy's npy_divmod for floats: returns the floor quotient, sets `mod`.
template <class T> __device__ __forceinline__ T float_divmod(T a, T b, T& mod) {
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

struct FloorDivide {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_real_v<T>) {
      if (!b) return a / b;
      T mod;
      return float_divmod(a, b, mod);
    } else {
      if (b == 0) return T(0);
      if constexpr (std::is_signed_v<T>) {
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
struct Remainder {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_real_v<T>) {
      if (!b) return r_fmod(a, b);
      T mod;
      float_divmod(a, b, mod);
      return mod;
    } else {
      if (b == 0) return T(0);
      if constexpr (std::is_signed_v<T>) {
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
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_real_v<T>) return r_fmod(a, b);
    else {
      if (b == 0) return T(0);
      if constexpr (std::is_signed_v<T>)
        if (b == T(-1)) return T(0);
      return a % b;
    }
  }
};

template <class C> __device__ C complex_power(C a, C b) {
  using F = typename C::value_type;
  const F br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return C(1, 0);
  if (a.real() == 0 && a.imag() == 0) {
    if (br > 0) return C(0, 0);  // C99 cpow (NumPy 2.5): 0 ** z is 0 when Re z > 0
    const F nan = std::numeric_limits<F>::quiet_NaN();
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
  return cuda::std::pow(a, b);
}

struct Power {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_int_v<T>) {
      // NumPy refuses negative integer exponents; a kernel cannot raise, so the
      // result is 0 except for bases 1 and -1 (the exact values).
      if constexpr (std::is_signed_v<T>) {
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
      if (b == T(2)) return a * a;
      return r_pow(a, b);
    }
  }
};

// ---- one-argument arithmetic --------------------------------------------------------
struct Negative {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_int_v<T>) return wrap_sub(T(0), a);
    else return -a;
  }
};
struct Positive {
  template <class T> __device__ T operator()(T a) const { return a; }
};
template <class T> struct RealOf { using type = T; };
template <class F> struct RealOf<cuda::std::complex<F>> { using type = F; };

struct Absolute {
  // An explicit return type: nvcc's host pass cannot deduce `auto` from a device body.
  template <class T> __device__ typename RealOf<T>::type operator()(T a) const {
    if constexpr (is_cplx_v<T>) return r_hypot(a.real(), a.imag());
    else if constexpr (is_real_v<T>) return r_fabs(a);
    else if constexpr (is_int_v<T> && std::is_signed_v<T>) return a < 0 ? wrap_sub(T(0), a) : a;
    else return a;
  }
};
struct Sign {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_cplx_v<T>) {
      using F = typename T::value_type;
      if (is_nan(a)) {
        const F nan = std::numeric_limits<F>::quiet_NaN();
        return T(nan, nan);
      }
      const F m = r_hypot(a.real(), a.imag());
      if (m == 0) return T(0, 0);
      if (isinf(m)) {
        const bool ir = isinf(a.real()), ii = isinf(a.imag());
        if (ir && ii) {
          const F nan = std::numeric_limits<F>::quiet_NaN();
          return T(nan, nan);
        }
        return ir ? T(r_copysign(F(1), a.real()), F(0)) : T(F(0), r_copysign(F(1), a.imag()));
      }
      return T(a.real() / m, a.imag() / m);
    } else if constexpr (is_real_v<T>) {
      return a > 0 ? T(1) : a < 0 ? T(-1) : a == 0 ? T(0) : a;
    } else if constexpr (std::is_signed_v<T>) {
      return T((a > 0) - (a < 0));
    } else {
      return T(a > 0);
    }
  }
};
struct Reciprocal {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_int_v<T>) {
      // NumPy computes 1.0 / a and converts; for a == 0 that is x86's conversion of inf.
      if (a == 0) {
        if constexpr (sizeof(T) == 8 && std::is_signed_v<T>) return std::numeric_limits<T>::min();
        else if constexpr (sizeof(T) == 4 && std::is_signed_v<T>) return std::numeric_limits<T>::min();
        else return T(0);
      }
      if constexpr (std::is_signed_v<T>) return a == T(-1) ? T(-1) : a == 1 ? T(1) : T(0);
      else return a == 1 ? T(1) : T(0);
    } else {
      return T(1) / a;
    }
  }
};
struct Square {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_int_v<T>) return wrap_mul(a, a);
    else return a * a;
  }
};
struct Conjugate {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_cplx_v<T>) return cuda::std::conj(a);
    else return a;
  }
};

// ---- exponentials, logarithms, trigonometry (real via CUDA math, complex via libcu++) --
#define GPUARR_FLOAT_FN(STRUCT, REAL, COMPLEX_EXPR)                              \
  struct STRUCT {                                                               \
    template <class T> __device__ T operator()(T x) const {                     \
      if constexpr (is_cplx_v<T>) {                                             \
        using F = typename T::value_type;                                       \
        (void)sizeof(F);                                                        \
        return COMPLEX_EXPR;                                                    \
      } else {                                                                  \
        return REAL(x);                                                         \
      }                                                                         \
    }                                                                           \
  };
GPUARR_FLOAT_FN(Sqrt, r_sqrt, cuda::std::sqrt(x))
GPUARR_FLOAT_FN(Cbrt, r_cbrt, x)
GPUARR_FLOAT_FN(Exp, r_exp, cuda::std::exp(x))
GPUARR_FLOAT_FN(Exp2, r_exp2, cuda::std::exp(x * F(0.693147180559945309417232121458176568)))
GPUARR_FLOAT_FN(Expm1, r_expm1,
                T(r_expm1(x.real()) * r_cos(x.imag()) -
                      F(2) * r_sin(x.imag() / 2) * r_sin(x.imag() / 2),
                  r_exp(x.real()) * r_sin(x.imag())))
GPUARR_FLOAT_FN(Log, r_log, cuda::std::log(x))
GPUARR_FLOAT_FN(Log2, r_log2, cuda::std::log(x) / F(0.693147180559945309417232121458176568))
GPUARR_FLOAT_FN(Log10, r_log10, cuda::std::log10(x))
GPUARR_FLOAT_FN(Log1p, r_log1p,
                T(r_log(r_hypot(x.real() + F(1), x.imag())),
                  r_atan2(x.imag(), x.real() + F(1))))
GPUARR_FLOAT_FN(Sin, r_sin, cuda::std::sin(x))
GPUARR_FLOAT_FN(Cos, r_cos, cuda::std::cos(x))
GPUARR_FLOAT_FN(Tan, r_tan, cuda::std::tan(x))
GPUARR_FLOAT_FN(Arcsin, r_asin, cuda::std::asin(x))
GPUARR_FLOAT_FN(Arccos, r_acos, cuda::std::acos(x))
GPUARR_FLOAT_FN(Arctan, r_atan, cuda::std::atan(x))
GPUARR_FLOAT_FN(Sinh, r_sinh, cuda::std::sinh(x))
GPUARR_FLOAT_FN(Cosh, r_cosh, cuda::std::cosh(x))
GPUARR_FLOAT_FN(Tanh, r_tanh, cuda::std::tanh(x))
GPUARR_FLOAT_FN(Arcsinh, r_asinh, cuda::std::asinh(x))
GPUARR_FLOAT_FN(Arccosh, r_acosh, cuda::std::acosh(x))
GPUARR_FLOAT_FN(Arctanh, r_atanh, cuda::std::atanh(x))
GPUARR_FLOAT_FN(Rint, r_rint, T(r_rint(x.real()), r_rint(x.imag())))
#undef GPUARR_FLOAT_FN

struct Deg2rad {
  template <class T> __device__ T operator()(T x) const {
    return x * (T(3.14159265358979323846264338327950288) / T(180));
  }
};
struct Rad2deg {
  template <class T> __device__ T operator()(T x) const {
    return x * (T(180) / T(3.14159265358979323846264338327950288));
  }
};
#define GPUARR_ROUNDING_FN(STRUCT, REAL)                              \
  struct STRUCT {                                                     \
    template <class T> __device__ T operator()(T x) const {           \
      if constexpr (is_real_v<T>) return REAL(x);                     \
      else return x;                                                  \
    }                                                                 \
  };
GPUARR_ROUNDING_FN(Floor, r_floor)
GPUARR_ROUNDING_FN(Ceil, r_ceil)
GPUARR_ROUNDING_FN(Trunc, r_trunc)
#undef GPUARR_ROUNDING_FN

struct Arctan2 {
  template <class T> __device__ T operator()(T a, T b) const { return r_atan2(a, b); }
};
struct Hypot {
  template <class T> __device__ T operator()(T a, T b) const { return r_hypot(a, b); }
};
struct Copysign {
  template <class T> __device__ T operator()(T a, T b) const { return r_copysign(a, b); }
};
struct Logaddexp {
  template <class T> __device__ T operator()(T x, T y) const {
    if (x == y) return x + T(0.693147180559945309417232121458176568);
    const T d = x - y;
    if (d > 0) return x + r_log1p(r_exp(-d));
    if (d <= 0) return y + r_log1p(r_exp(d));
    return d;  // NaN
  }
};

// ---- comparisons and logic ----------------------------------------------------------
struct Equal {
  template <class T> __device__ bool operator()(T a, T b) const { return a == b; }
};
struct NotEqual {
  template <class T> __device__ bool operator()(T a, T b) const { return a != b; }
};
struct Less {
  template <class T> __device__ bool operator()(T a, T b) const { return lt(a, b); }
};
struct LessEqual {
  template <class T> __device__ bool operator()(T a, T b) const { return le(a, b); }
};
struct Greater {
  template <class T> __device__ bool operator()(T a, T b) const { return lt(b, a); }
};
struct GreaterEqual {
  template <class T> __device__ bool operator()(T a, T b) const { return le(b, a); }
};
struct LogicalAnd {
  template <class T> __device__ bool operator()(T a, T b) const { return truthy(a) && truthy(b); }
};
struct LogicalOr {
  template <class T> __device__ bool operator()(T a, T b) const { return truthy(a) || truthy(b); }
};
struct LogicalXor {
  template <class T> __device__ bool operator()(T a, T b) const { return truthy(a) != truthy(b); }
};
struct LogicalNot {
  template <class T> __device__ bool operator()(T a) const { return !truthy(a); }
};
// maximum/minimum propagate NaN (the first NaN wins); fmax/fmin ignore it.
struct Maximum {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a || b;
    else {
      if (is_nan(a)) return a;
      if (is_nan(b)) return b;
      return le(b, a) ? a : b;
    }
  }
};
struct Minimum {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a && b;
    else {
      if (is_nan(a)) return a;
      if (is_nan(b)) return b;
      return le(a, b) ? a : b;
    }
  }
};
struct Fmax {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a || b;
    else {
      if (is_nan(b)) return a;
      if (is_nan(a)) return b;
      return le(b, a) ? a : b;
    }
  }
};
struct Fmin {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a && b;
    else {
      if (is_nan(b)) return a;
      if (is_nan(a)) return b;
      return le(a, b) ? a : b;
    }
  }
};
struct Isnan {
  template <class T> __device__ bool operator()(T a) const { return is_nan(a); }
};
struct Isinf {
  template <class T> __device__ bool operator()(T a) const {
    if constexpr (is_cplx_v<T>) return isinf(a.real()) || isinf(a.imag());
    else if constexpr (is_real_v<T>) return isinf(a);
    else return false;
  }
};
struct Isfinite {
  template <class T> __device__ bool operator()(T a) const {
    if constexpr (is_cplx_v<T>) return isfinite(a.real()) && isfinite(a.imag());
    else if constexpr (is_real_v<T>) return isfinite(a);
    else return true;
  }
};
struct Signbit {
  template <class T> __device__ bool operator()(T a) const { return signbit(a); }
};

// ---- bitwise ----------------------------------------------------------------------
struct BitwiseAnd {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a && b;
    else return a & b;
  }
};
struct BitwiseOr {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a || b;
    else return a | b;
  }
};
struct BitwiseXor {
  template <class T> __device__ T operator()(T a, T b) const {
    if constexpr (is_bool_v<T>) return a != b;
    else return a ^ b;
  }
};
struct Invert {
  template <class T> __device__ T operator()(T a) const {
    if constexpr (is_bool_v<T>) return !a;
    else return T(~a);
  }
};
// Shift counts at or beyond the width (or negative) give 0, or -1 for a negative value
// shifted right: NumPy's npy_lshift/npy_rshift.
struct LeftShift {
  template <class T> __device__ T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    if (static_cast<unsigned long long>(b) < sizeof(T) * 8)
      return static_cast<T>(static_cast<U>(static_cast<U>(a) << b));
    return T(0);
  }
};
struct RightShift {
  template <class T> __device__ T operator()(T a, T b) const {
    if (static_cast<unsigned long long>(b) < sizeof(T) * 8) return static_cast<T>(a >> b);
    if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
    else return T(0);
  }
};

// ---- three arguments ----------------------------------------------------------------
// NumPy's clip loop: min(max(x, lo), hi) where a NaN first operand wins and otherwise a
// failed comparison picks the second (so the complex NaN returned is NumPy's).
struct Clip {
  template <class T> __device__ T operator()(T x, T lo, T hi) const {
    if constexpr (is_cplx_v<T>) {
      const T m = is_nan(x) || lex_greater(x, lo) ? x : lo;
      return is_nan(m) || lex_greater(hi, m) ? m : hi;
    } else {
      return Minimum{}(Maximum{}(x, lo), hi);
    }
  }
  template <class T> __device__ static bool lex_greater(T a, T b) {
    return a.real() == b.real() ? a.imag() > b.imag() : a.real() > b.real();
  }
};

}  // namespace gpuarr::ufn
