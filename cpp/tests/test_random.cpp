#include <gtest/gtest.h>

#include "core/philox.hpp"

using namespace gpuarr;

// Random123's known-answer vectors (kat_vectors, philox4x32 10).
TEST(Philox, KnownAnswers) {
  struct Kat {
    uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    const Philox4 r = philox4x32_10(k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3], k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(r.v[i], k.out[i]) << i;
  }
}

TEST(Philox, SplitMix64) {
  // SplitMix64's first output for state 0.
  EXPECT_EQ(splitmix64(0), 0xE220A8397B1DCDAFull);
  EXPECT_NE(splitmix64(1), splitmix64(2));
}

// ---- the sampling algorithms, run on the host (the same code the kernels run) ----------

#include <cmath>
#include <vector>

#include "core/random_algorithms.hpp"

namespace {

constexpr int kN = 200000;
const PhiloxState kState{0x0123456789abcdefull, 5};

struct Moments {
  double mean = 0, var = 0;
};

template <class F>
Moments moments(F&& draw) {
  double s = 0, s2 = 0;
  for (int i = 0; i < kN; ++i) {
    const double x = draw(i);
    s += x;
    s2 += x * x;
  }
  Moments m;
  m.mean = s / kN;
  m.var = s2 / kN - m.mean * m.mean;
  return m;
}

// |mean - mu| within 5 standard errors, and the variance within 10% (+ a 5-sigma margin).
void expect_moments(const Moments& m, double mu, double var, const char* what) {
  EXPECT_NEAR(m.mean, mu, 5 * std::sqrt(var / kN) + 1e-12) << what;
  EXPECT_NEAR(m.var, var, 0.1 * var + 1e-12) << what;
}

}  // namespace

TEST(RandomAlgorithms, BlockGenerators) {
  std::vector<double> d;
  std::vector<float> f;
  for (int b = 0; b < kN / 2; ++b) {
    const Philox4 r = block_bits(b, 0, kState);
    Vals<double> vd;
    UniformGen{0.0, 1.0}(r, vd);
    for (double x : vd.v) d.push_back(x);
    if (b < kN / 4) {
      Vals<float> vf;
      UniformGen{0.0, 1.0}(r, vf);
      for (float x : vf.v) f.push_back(x);
    }
  }
  for (double x : d) ASSERT_TRUE(x >= 0.0 && x < 1.0);
  for (float x : f) ASSERT_TRUE(x >= 0.0f && x < 1.0f);
  Moments md = moments([&](int i) { return d[i]; });
  expect_moments(md, 0.5, 1.0 / 12, "uniform f64");
  Moments mf = moments([&](int i) { return double(f[i]); });
  expect_moments(mf, 0.5, 1.0 / 12, "uniform f32");

  auto block_moments = [](auto gen, auto tag) {
    using T = decltype(tag);
    double s = 0, s2 = 0;
    int n = 0;
    for (int b = 0; b < kN / Vals<T>::K; ++b) {
      Vals<T> v;
      gen(block_bits(b, 0, kState), v);
      for (T x : v.v) {
        EXPECT_TRUE(std::isfinite(double(x)));
        s += x;
        s2 += double(x) * x;
        ++n;
      }
    }
    Moments m;
    m.mean = s / n;
    m.var = s2 / n - m.mean * m.mean;
    return m;
  };
  expect_moments(block_moments(NormalGen{0.0, 1.0}, double{}), 0.0, 1.0, "normal f64");
  expect_moments(block_moments(NormalGen{0.0, 1.0}, float{}), 0.0, 1.0, "normal f32");
  expect_moments(block_moments(NormalGen{2.0, 3.0}, double{}), 2.0, 9.0, "normal(2, 3)");
  expect_moments(block_moments(ExponentialGen{1.0}, double{}), 1.0, 1.0, "exponential f64");
  expect_moments(block_moments(ExponentialGen{2.0}, float{}), 2.0, 4.0, "exponential f32");
}

// The float32 normal's -2 ln(u): the series below e = 1 - u = 1/32 and log2 above agree
// with a double log to float rounding over the whole 24-bit range, including u = 1 (0)
// and the smallest u = 2**-24 (the largest |x|, sqrt(48 ln 2) = 5.768).
TEST(RandomAlgorithms, NormalFloatPieces) {
  double worst = 0.0;
  for (uint32_t m = 1; m <= (1u << 24); m += (m < 4096 || m > (1u << 24) - 4096) ? 1 : 997) {
    const float u = static_cast<float>(m) * 0x1.0p-24f;
    const double ref = -2.0 * std::log(static_cast<double>(u));
    const double got = neg2log_fast(u);
    if (m == (1u << 24)) {
      EXPECT_EQ(got, 0.0);
      continue;
    }
    worst = std::max(worst, std::fabs(got - ref) / ref);
  }
  EXPECT_LT(worst, 4e-7);  // host: libm log2 above the series; the series itself is ~2 ulp
  Vals<float> v;
  NormalGen{0.0, 1.0}(Philox4{{0u, 0x80000000u, 0u, 0u}}, v);  // u1 = 2**-24, a = 0
  EXPECT_NEAR(v.v[0], std::sqrt(48.0 * std::log(2.0)), 1e-5);
  EXPECT_NEAR(v.v[1], 0.0, 1e-6);
  NormalGen{0.0, 1.0}(Philox4{{0u, 0u, 0u, 0u}}, v);  // a = -1/2: cos = -1
  EXPECT_NEAR(v.v[0], -std::sqrt(48.0 * std::log(2.0)), 1e-5);
  // Same bits through a double-precision Box-Muller (angle 2*pi*(u24 - 1/2)).
  for (uint32_t i = 0; i < 20000; ++i) {
    const Philox4 r = philox4x32_10(i, 0, 0, 1, 0x1234u, 0x5678u);
    NormalGen{0.0, 1.0}(r, v);
    for (int k = 0; k < 4; k += 2) {
      const double u1 = static_cast<double>((r.v[k] >> 8) + 1) * 0x1.0p-24;
      const double a = static_cast<double>(r.v[k + 1] >> 8) * 0x1.0p-24 - 0.5;
      const double rad = std::sqrt(-2.0 * std::log(u1));
      EXPECT_NEAR(v.v[k], rad * std::cos(2.0 * M_PI * a), 2e-6);
      EXPECT_NEAR(v.v[k + 1], rad * std::sin(2.0 * M_PI * a), 2e-6);
    }
  }
}

TEST(RandomAlgorithms, Gamma) {
  for (double a : {0.05, 0.3, 1.0, 2.5, 30.0}) {
    Moments m = moments([&](int i) {
      ElemRng g(kState, i);
      const double x = standard_gamma(g, a);
      EXPECT_GE(x, 0.0);
      return x;
    });
    expect_moments(m, a, a, "gamma");
  }
  ElemRng g(kState, 0);
  EXPECT_EQ(standard_gamma(g, 0.0), 0.0);
  EXPECT_TRUE(std::isnan(standard_gamma(g, std::nan(""))));
  EXPECT_TRUE(std::isinf(standard_gamma(g, INFINITY)));
}

TEST(RandomAlgorithms, Poisson) {
  for (double lam : {0.5, 7.0, 9.99, 10.0, 45.0, 5000.0}) {
    Moments m = moments([&](int i) {
      ElemRng g(kState, i);
      const int64_t k = poisson(g, lam);
      EXPECT_GE(k, 0);
      return double(k);
    });
    expect_moments(m, lam, lam, "poisson");
  }
  ElemRng g(kState, 0);
  EXPECT_EQ(poisson(g, 0.0), 0);
  EXPECT_EQ(poisson(g, std::nan("")), INT64_MIN);
  EXPECT_EQ(poisson(g, INFINITY), INT64_MIN);
  EXPECT_GT(poisson(g, 1e18), 0);
}

TEST(RandomAlgorithms, Binomial) {
  struct Case {
    int64_t n;
    double p;
  };
  for (Case c : {Case{10, 0.3}, Case{200, 0.02}, Case{1000, 0.4}, Case{100, 0.5},
                 Case{1000000000, 0.001}}) {
    Moments m = moments([&](int i) {
      ElemRng g(kState, i);
      const int64_t k = binomial_half(g, c.n, c.p);
      EXPECT_GE(k, 0);
      EXPECT_LE(k, c.n);
      return double(k);
    });
    expect_moments(m, c.n * c.p, c.n * c.p * (1 - c.p), "binomial");
  }
  ElemRng g(kState, 0);
  EXPECT_EQ(binomial_half(g, 0, 0.3), 0);
  EXPECT_EQ(binomial_half(g, 5, 0.0), 0);
}

TEST(RandomAlgorithms, BoundedIntegers) {
  std::vector<int> hits(10, 0);
  for (int i = 0; i < 100000; ++i) {
    ElemRng g(kState, i);
    const uint64_t k = bounded(g, 9);
    ASSERT_LE(k, 9u);
    ++hits[k];
  }
  for (int h : hits) EXPECT_NEAR(h, 10000, 5 * std::sqrt(10000.0 * 0.9));
  for (uint64_t range : {uint64_t(0), uint64_t(1), uint64_t(0xFFFFFFFFull), uint64_t(1) << 32,
                         (uint64_t(1) << 40) + 3, ~uint64_t(0) - 1, ~uint64_t(0)}) {
    uint64_t lo = ~uint64_t(0), hi = 0;
    for (int i = 0; i < 20000; ++i) {
      ElemRng g(kState, i);
      const uint64_t k = bounded(g, range);
      ASSERT_LE(k, range);
      lo = std::min(lo, k);
      hi = std::max(hi, k);
    }
    if (range == 0) EXPECT_EQ(hi, 0u);
    if (range == 1) EXPECT_TRUE(lo == 0 && hi == 1);
    if (range > 1000) {  // both ends of the range reached within 0.1%
      EXPECT_LT(double(lo), double(range) * 1e-3);
      EXPECT_GT(double(hi), double(range) * 0.999);
    }
  }
}

TEST(RandomAlgorithms, ElementStreamsDiffer) {
  ElemRng a(kState, 0), b(kState, 1), c(PhiloxState{kState.key, kState.call + 1}, 0);
  const uint64_t x = a.next64(), y = b.next64(), z = c.next64();
  EXPECT_NE(x, y);
  EXPECT_NE(x, z);
  ElemRng a2(kState, 0);
  EXPECT_EQ(a2.next64(), x);
}
