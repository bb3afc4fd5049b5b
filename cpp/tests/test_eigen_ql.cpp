// The QL-with-vectors step of the eigh kernel (core/tridiag_ql.hpp), run on the CPU exactly
// as the GPU kernel drives it: ql_step emits a sweep's rotations, ql_apply_row applies them
// to each row of Z. Checks T z = w z, Z orthogonal, and the eigenvalues against Sturm-count
// bisection, for random, degenerate and graded tridiagonals in float and double.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/tridiag_ql.hpp"

using namespace gpuarr;

namespace {

// Number of eigenvalues of the tridiagonal (d, e) below x (long double).
int sturm(const std::vector<long double>& d, const std::vector<long double>& e, long double x) {
  int cnt = 0;
  long double q = 1;
  for (size_t i = 0; i < d.size(); ++i) {
    const long double ee = i ? e[i - 1] * e[i - 1] : 0;
    q = (d[i] - x) - (i ? ee / q : 0);
    if (q == 0) q = -1e-300L;
    cnt += q < 0;
  }
  return cnt;
}

std::vector<long double> ref_eigs(const std::vector<long double>& d,
                                  const std::vector<long double>& e) {
  const int n = int(d.size());
  long double bound = 0;
  for (int i = 0; i < n; ++i)
    bound = std::max(bound, std::fabs(d[i]) + (i ? std::fabs(e[i - 1]) : 0) +
                                (i + 1 < n ? std::fabs(e[i]) : 0));
  std::vector<long double> w(n);
  for (int k = 0; k < n; ++k) {
    long double lo = -bound - 1, hi = bound + 1;
    for (int it = 0; it < 200; ++it) {
      const long double mid = (lo + hi) / 2;
      if (sturm(d, e, mid) > k) hi = mid;
      else lo = mid;
    }
    w[k] = (lo + hi) / 2;
  }
  return w;
}

// Runs the QL on (d, e) in W with Z stored as T; returns false on no convergence.
template <class W, class T>
bool run_ql(std::vector<W>& d, std::vector<W>& e, std::vector<T>& Z, int n, int* iters) {
  Z.assign(size_t(n) * n, T(0));
  for (int i = 0; i < n; ++i) Z[size_t(i) * n + i] = T(1);
  std::vector<T> cs(n), sn(n);
  QlState<W> st;
  ql_init(d.data(), e.data(), n, st);
  int lo = 0, hi = 0, rc;
  while ((rc = ql_step(d.data(), e.data(), n, st, cs.data(), sn.data(), &lo, &hi, 30 * n)) == 1) {
    EXPECT_LT(lo, hi);
    EXPECT_LT(hi, n);
    for (int k = 0; k < n; ++k) ql_apply_row(&Z[size_t(k) * n], cs.data(), sn.data(), lo, hi);
  }
  *iters = st.iters;
  return rc == 0;
}

template <class W, class T>
void check_tridiag(const std::vector<double>& d0, const std::vector<double>& e0, double tol) {
  const int n = int(d0.size());
  std::vector<W> d(d0.begin(), d0.end()), e(n, W(0));
  for (int i = 0; i + 1 < n; ++i) e[i] = W(e0[i]);
  std::vector<T> Z;
  int iters = 0;
  ASSERT_TRUE((run_ql<W, T>(d, e, Z, n, &iters)));
  EXPECT_LE(iters, 30 * n);
  double norm = 0;
  for (int i = 0; i < n; ++i)
    norm = std::max(norm, std::fabs(d0[i]) + (i ? std::fabs(e0[i - 1]) : 0) +
                              (i + 1 < n ? std::fabs(e0[i]) : 0));
  norm = std::max(norm, 1.0);
  // Eigenvalues vs bisection in long double.
  std::vector<long double> ld(d0.begin(), d0.end()), le(e0.begin(), e0.end());
  le.resize(std::max(n - 1, 0));
  const auto ref = ref_eigs(ld, le);
  std::vector<double> got(d.begin(), d.end());
  std::sort(got.begin(), got.end());
  for (int k = 0; k < n; ++k) EXPECT_NEAR(got[k], double(ref[k]), tol * norm) << "k=" << k;
  // T z_j = w_j z_j and Z^T Z = I.
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      double tz = d0[i] * double(Z[size_t(i) * n + j]);
      if (i > 0) tz += e0[i - 1] * double(Z[size_t(i - 1) * n + j]);
      if (i + 1 < n) tz += e0[i] * double(Z[size_t(i + 1) * n + j]);
      EXPECT_NEAR(tz, double(d[j]) * double(Z[size_t(i) * n + j]), tol * norm)
          << "i=" << i << " j=" << j;
    }
    for (int k = j; k < n; ++k) {
      double dot = 0;
      for (int i = 0; i < n; ++i) dot += double(Z[size_t(i) * n + j]) * double(Z[size_t(i) * n + k]);
      EXPECT_NEAR(dot, j == k ? 1.0 : 0.0, tol) << "j=" << j << " k=" << k;
    }
  }
}

template <class W, class T>
void check_all(double tol) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> nd;
  for (int n : {0, 1, 2, 3, 5, 17, 45, 100}) {
    std::vector<double> d(n), e(std::max(n - 1, 0));
    for (auto& x : d) x = nd(rng);
    for (auto& x : e) x = nd(rng);
    SCOPED_TRACE("random n=" + std::to_string(n));
    check_tridiag<W, T>(d, e, tol * std::max(n, 1));
  }
  const int n = 40;
  std::vector<double> zero(n, 0.0), ez(n - 1, 0.0), ones(n, 1.0);
  {
    SCOPED_TRACE("zero");
    check_tridiag<W, T>(zero, ez, tol);
  }
  {
    SCOPED_TRACE("identity");
    check_tridiag<W, T>(ones, ez, tol);
  }
  {
    SCOPED_TRACE("diagonal");
    std::vector<double> d(n);
    for (int i = 0; i < n; ++i) d[i] = std::sin(double(i)) * 3;
    check_tridiag<W, T>(d, ez, tol);
  }
  {
    SCOPED_TRACE("split blocks with repeated eigenvalues");
    std::vector<double> d(n, 2.0), e(n - 1, 1.0);
    for (int i = 4; i < n - 1; i += 5) e[i] = 0.0;  // identical 5x5 blocks
    check_tridiag<W, T>(d, e, tol * n);
  }
  {
    SCOPED_TRACE("Wilkinson W21+ (close pairs)");
    const int m = 21;
    std::vector<double> d(m), e(m - 1, 1.0);
    for (int i = 0; i < m; ++i) d[i] = std::fabs(10.0 - i);
    check_tridiag<W, T>(d, e, tol * m);
  }
  {
    SCOPED_TRACE("graded");
    std::vector<double> d(n), e(n - 1);
    for (int i = 0; i < n; ++i) d[i] = std::pow(0.7, i);
    for (int i = 0; i + 1 < n; ++i) e[i] = std::pow(0.7, i + 0.5);
    check_tridiag<W, T>(d, e, tol * n);
  }
  {
    SCOPED_TRACE("tiny off-diagonals");
    std::vector<double> d(n), e(n - 1);
    for (int i = 0; i < n; ++i) d[i] = nd(rng);
    for (int i = 0; i + 1 < n; ++i) e[i] = 1e-12 * nd(rng);
    check_tridiag<W, T>(d, e, tol * n);
  }
  {
    SCOPED_TRACE("constant 1-2-1");
    std::vector<double> d(n, 2.0), e(n - 1, -1.0);
    check_tridiag<W, T>(d, e, tol * n);
  }
}

}  // namespace

TEST(EigenQl, Double) { check_all<double, double>(1e-13); }
TEST(EigenQl, FloatChainFloatZ) { check_all<float, float>(2e-5); }
TEST(EigenQl, DoubleChainFloatZ) { check_all<double, float>(2e-5); }

TEST(EigenQl, ApplyRowMatchesDefinition) {
  const int n = 6;
  std::vector<double> z = {1, 2, 3, 4, 5, 6}, ref = z;
  std::vector<double> cs(n), sn(n);
  for (int i = 0; i < n; ++i) {
    cs[i] = std::cos(0.3 * i + 0.1);
    sn[i] = std::sin(0.3 * i + 0.1);
  }
  const int lo = 1, hi = 4;
  for (int i = hi - 1; i >= lo; --i) {
    const double h = ref[i + 1];
    ref[i + 1] = sn[i] * ref[i] + cs[i] * h;
    ref[i] = cs[i] * ref[i] - sn[i] * h;
  }
  ql_apply_row(z.data(), cs.data(), sn.data(), lo, hi);
  for (int i = 0; i < n; ++i) EXPECT_DOUBLE_EQ(z[i], ref[i]);
}
