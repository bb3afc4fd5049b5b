// gpuarr.random's algorithms, shared by the device kernels (cpp/ops/random_kernels.cu)
// and the host unit tests (cpp/tests/test_random.cpp), which check their distributions
// on the CPU: Philox blocks -> uniforms, Box-Muller normals, exponentials; per-element
// counter streams; Marsaglia-Tsang gamma; Poisson (inversion / PTRS); binomial
// (inversion / BTRS); Lemire's bounded integers.
#pragma once
#include <math.h>

#include <cmath>
#include <cstdint>

#include "core/philox.hpp"

namespace gpuarr {

// A generator's Philox key and the counter word of one call (see ops/random.hpp).
struct PhiloxState {
  uint64_t key;   // Philox key (two 32-bit words)
  uint32_t call;  // counter word 3
};

GPUARR_HD uint64_t gpuarr_umul64hi(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}
GPUARR_HD void gpuarr_sincospi(double x, double* s, double* c) {
#if defined(__CUDA_ARCH__)
  sincospi(x, s, c);
#else
  *s = std::sin(M_PI * x);
  *c = std::cos(M_PI * x);
#endif
}
GPUARR_HD double gpuarr_cospi(double x) {
#if defined(__CUDA_ARCH__)
  return cospi(x);
#else
  return std::cos(M_PI * x);
#endif
}

GPUARR_HD Philox4 block_bits(int64_t b, uint32_t j, PhiloxState s) {
  const uint64_t ub = static_cast<uint64_t>(b);
  return philox4x32_10(static_cast<uint32_t>(ub), static_cast<uint32_t>(ub >> 32), j, s.call,
                       static_cast<uint32_t>(s.key), static_cast<uint32_t>(s.key >> 32));
}

// [0, 1) from 53 bits / 24 bits; (0, 1] variants for logarithms.
GPUARR_HD double u53(uint32_t lo, uint32_t hi) {
  return static_cast<double>(((static_cast<uint64_t>(hi) << 32) | lo) >> 11) * 0x1.0p-53;
}
GPUARR_HD double u53_pos(uint32_t lo, uint32_t hi) {
  return static_cast<double>((((static_cast<uint64_t>(hi) << 32) | lo) >> 11) + 1) * 0x1.0p-53;
}
GPUARR_HD float u24(uint32_t x) { return static_cast<float>(x >> 8) * 0x1.0p-24f; }
GPUARR_HD float u24_pos(uint32_t x) {
  return static_cast<float>((x >> 8) + 1) * 0x1.0p-24f;
}

// ---- fast paths: one Philox block -> 16 bytes of output --------------------------------

template <class T>
struct alignas(16) Vals {
  static constexpr int K = 16 / sizeof(T);
  T v[K];
};

struct UniformGen {
  double low, scale;
  GPUARR_HD void operator()(const Philox4& r, Vals<double>& o) const {
    o.v[0] = low + scale * u53(r.v[0], r.v[1]);
    o.v[1] = low + scale * u53(r.v[2], r.v[3]);
  }
  GPUARR_HD void operator()(const Philox4& r, Vals<float>& o) const {
    const float l = static_cast<float>(low), s = static_cast<float>(scale);
#pragma unroll
    for (int k = 0; k < 4; ++k) o.v[k] = l + s * u24(r.v[k]);
  }
};

// Fast float32 pieces (device: hardware approximations; host: libm, for the unit tests).
GPUARR_HD float gpuarr_fast_log2f(float x) {
#if defined(__CUDA_ARCH__)
  return __log2f(x);  // lg2.approx: abs error <= 2**-22 on [0.5, 2], 2 ulp elsewhere
#else
  return std::log2(x);
#endif
}
GPUARR_HD float gpuarr_fast_sqrtf(float t) {  // t >= 0; 0 for t == 0
#if defined(__CUDA_ARCH__)
  return t * rsqrtf(fmaxf(t, 1e-30f));  // rsqrt.approx: ~2 ulp
#else
  return std::sqrt(t);
#endif
}
GPUARR_HD void gpuarr_fast_sincos2pif(float a, float* s, float* c) {  // a in [-0.5, 0.5)
#if defined(__CUDA_ARCH__)
  __sincosf(6.2831853071795865f * a, s, c);  // abs error <= 2**-21.4 on [-pi, pi]
#else
  *s = static_cast<float>(std::sin(2.0 * M_PI * a));
  *c = static_cast<float>(std::cos(2.0 * M_PI * a));
#endif
}

// -2 ln(u) for u in (0, 1] with 24-bit u: a series in e = 1 - u (exact) below e = 1/32,
// where lg2.approx's absolute error would be a large relative one; lg2.approx above
// (relative error there <= ~5e-6; 2 ulp below u = 1/2).
GPUARR_HD float neg2log_fast(float u) {
  const float e = 1.0f - u;
  if (e < 0.03125f)  // 2(e + e^2/2 + ... + e^5/5); truncation < e^5/6 < 2**-27 relative
    return 2.0f * e * (1.0f + e * (0.5f + e * (1.0f / 3.0f + e * (0.25f + e * 0.2f))));
  return -1.3862943611198906f * gpuarr_fast_log2f(u);  // -2 ln 2 * log2(u)
}

// Box-Muller. float64: accurate log and sincospi. float32: 4 normals per Philox block from
// u1 = u24_pos (so log is finite; the largest |x| is sqrt(-2 ln 2**-24) = 5.77) and an
// angle 2*pi*a with a = u24 - 1/2 in [-1/2, 1/2), through the hardware log2/rsqrt/sin/cos
// approximations: absolute error <= ~2e-6 against a double-precision Box-Muller of the
// same bits (~3 us per 8192^2 of Philox-bound time left instead of ~60 with logf,
// sincospif and sqrtf).
struct NormalGen {
  double loc, scale;
  GPUARR_HD void operator()(const Philox4& r, Vals<double>& o) const {
    const double rad = sqrt(-2.0 * log(u53_pos(r.v[0], r.v[1])));
    double sn, cs;
    gpuarr_sincospi(2.0 * u53(r.v[2], r.v[3]), &sn, &cs);
    o.v[0] = loc + scale * (rad * cs);
    o.v[1] = loc + scale * (rad * sn);
  }
  GPUARR_HD void operator()(const Philox4& r, Vals<float>& o) const {
    const float l = static_cast<float>(loc), s = static_cast<float>(scale);
#pragma unroll
    for (int k = 0; k < 4; k += 2) {
      const float rad = gpuarr_fast_sqrtf(neg2log_fast(u24_pos(r.v[k])));
      float sn, cs;
      gpuarr_fast_sincos2pif(u24(r.v[k + 1]) - 0.5f, &sn, &cs);  // exact subtraction
      o.v[k] = l + s * (rad * cs);
      o.v[k + 1] = l + s * (rad * sn);
    }
  }
};

struct ExponentialGen {
  double scale;
  GPUARR_HD void operator()(const Philox4& r, Vals<double>& o) const {
    o.v[0] = -scale * log(u53_pos(r.v[0], r.v[1]));
    o.v[1] = -scale * log(u53_pos(r.v[2], r.v[3]));
  }
  GPUARR_HD void operator()(const Philox4& r, Vals<float>& o) const {
    const float s = static_cast<float>(scale);
#pragma unroll
    for (int k = 0; k < 4; ++k) o.v[k] = -s * logf(u24_pos(r.v[k]));
  }
};

// ---- per-element streams: element i draws blocks (i, j = 0, 1, ...) -------------------

struct ElemRng {
  PhiloxState s;
  int64_t i;
  uint32_t j = 0;
  int used = 4;
  Philox4 buf;

  GPUARR_HD ElemRng(PhiloxState st, int64_t idx) : s(st), i(idx) {}
  GPUARR_HD uint32_t next32() {
    if (used == 4) {
      buf = block_bits(i, j++, s);
      used = 0;
    }
    return buf.v[used++];
  }
  GPUARR_HD uint64_t next64() {
    const uint32_t lo = next32();
    return (static_cast<uint64_t>(next32()) << 32) | lo;
  }
  GPUARR_HD double uniform() { return static_cast<double>(next64() >> 11) * 0x1.0p-53; }
  GPUARR_HD double uniform_pos() {
    return static_cast<double>((next64() >> 11) + 1) * 0x1.0p-53;
  }
  GPUARR_HD double normal() {
    const double rad = sqrt(-2.0 * log(uniform_pos()));
    return rad * gpuarr_cospi(2.0 * uniform());
  }
};


// Marsaglia and Tsang (2000); shape < 1 through gamma(shape + 1) * U**(1/shape).
GPUARR_HD double standard_gamma(ElemRng& g, double a) {
  if (a == 0.0) return 0.0;
  if (!(a == a)) return a;  // NaN shape (NumPy lets it through): NaN, not an endless loop
  if (a == 1.0) return -log(g.uniform_pos());
  double boost = 1.0;
  if (a < 1.0) {
    boost = pow(g.uniform_pos(), 1.0 / a);
    a += 1.0;
  }
  const double d = a - 1.0 / 3.0;
  const double c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = g.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = g.uniform_pos();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return boost * d * v;
    if (log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) return boost * d * v;
  }
}

// Poisson: inversion by sequential search below 10, PTRS (Hoermann 1993) above.
// Below 10 inversion draws one uniform where NumPy's multiplication method draws lam + 1
// on average: the draws, not the search's few multiply-adds, bound the GPU kernel.
GPUARR_HD int64_t poisson(ElemRng& g, double lam) {
  if (lam == 0.0) return 0;
  // lam comes validated from poisson(); composites (negative_binomial) may pass NaN or values
  // past NumPy's limit: give INT64_MIN as NumPy's overflowing cast does, and never loop.
  if (!(lam <= 9.2233720064e18)) return INT64_MIN;
  if (lam < 10.0) {
    const double u = g.uniform();
    double p = exp(-lam);  // P(X = x)
    double cdf = p;
    int64_t x = 0;
    // Stops where the remaining terms no longer move the sum: u within rounding of 1 must
    // not search forever.
    while (u > cdf && p > cdf * 0x1.0p-54) {
      ++x;
      p *= lam / static_cast<double>(x);
      cdf += p;
    }
    return x;
  }
  const double slam = sqrt(lam), loglam = log(lam);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = g.uniform() - 0.5;
    const double v = g.uniform();
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return static_cast<int64_t>(k);
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1.0))
      return static_cast<int64_t>(k);
  }
}

// log(k!) - Stirling's approximation of it.
GPUARR_HD double stirling_tail(double k) {
  const double table[10] = {0.08106146679532733, 0.04134069595540946, 0.027677925684997717,
                            0.02079067210376584, 0.01664469118982126, 0.013876128823072875,
                            0.011896709945893313, 0.010411265261973668, 0.00925546218270945,
                            0.008330563433359472};
  if (k <= 9.0) return table[static_cast<int>(k)];
  const double kp1sq = (k + 1.0) * (k + 1.0);
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1.0);
}

// Binomial with p <= 0.5: inversion for n*p < 10, BTRS (Hoermann 1993) above.
GPUARR_HD int64_t binomial_half(ElemRng& g, int64_t n, double p) {
  if (n == 0 || p == 0.0) return 0;
  const double nd = static_cast<double>(n);
  if (nd * p < 10.0) {
    const double q = 1.0 - p;
    const double s = p / q;
    const double a = (nd + 1.0) * s;
    const double r0 = exp(nd * log1p(-p));
    for (;;) {
      double r = r0;
      double u = g.uniform();
      int64_t x = 0;
      while (u > r) {
        u -= r;
        ++x;
        if (x > n) break;
        r *= (a / static_cast<double>(x) - s);
      }
      if (x <= n) return x;  // else rounding ran past n: draw again
    }
  }
  const double spq = sqrt(nd * p * (1.0 - p));
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = nd * p + 0.5;
  const double v_r = 0.92 - 4.2 / b;
  const double r = p / (1.0 - p);
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double m = floor((nd + 1.0) * p);
  for (;;) {
    const double u = g.uniform() - 0.5;
    double v = g.uniform();
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > nd) continue;
    if (us >= 0.07 && v <= v_r) return static_cast<int64_t>(k);
    v = log(v * alpha / (a / (us * us) + b));
    const double upper = (m + 0.5) * log((m + 1.0) / (r * (nd - m + 1.0))) +
                         (nd + 1.0) * log((nd - m + 1.0) / (nd - k + 1.0)) +
                         (k + 0.5) * log(r * (nd - k + 1.0) / (k + 1.0)) + stirling_tail(m) +
                         stirling_tail(nd - m) - stirling_tail(k) - stirling_tail(nd - k);
    if (v <= upper) return static_cast<int64_t>(k);
  }
}

// k uniform on [0, range] by Lemire's nearly-divisionless method.
GPUARR_HD uint64_t bounded(ElemRng& g, uint64_t range) {
  if (range == 0) return 0;
  if (range == ~uint64_t(0)) return g.next64();
  const uint64_t r = range + 1;
  if (r <= 0x100000000ull) {
    const uint32_t r32 = static_cast<uint32_t>(r);  // r == 2**32 wraps to 0: handled below
    if (r == 0x100000000ull) return g.next32();
    uint64_t m = static_cast<uint64_t>(g.next32()) * r32;
    uint32_t l = static_cast<uint32_t>(m);
    if (l < r32) {
      const uint32_t t = (0u - r32) % r32;
      while (l < t) {
        m = static_cast<uint64_t>(g.next32()) * r32;
        l = static_cast<uint32_t>(m);
      }
    }
    return m >> 32;
  }
  uint64_t x = g.next64();
  uint64_t lo = x * r;
  uint64_t hi = gpuarr_umul64hi(x, r);
  if (lo < r) {
    const uint64_t t = (0ull - r) % r;
    while (lo < t) {
      x = g.next64();
      lo = x * r;
      hi = gpuarr_umul64hi(x, r);
    }
  }
  return hi;
}


}  // namespace gpuarr
