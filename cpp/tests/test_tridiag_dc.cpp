// The divide-and-conquer tridiagonal eigensolver's numerics (core/tridiag_dc_math.hpp) on
// the host: the same per-element functions the kernels of ops/tridiag_dc.cu call, run in
// sequential loops in the solver's order (leaves, then per level: z, sort and deflation,
// secular roots, Gu-Eisenstat z, U, GEMMs, assembly), checked against Sturm bisection,
// with the residual and orthogonality of the eigenvectors.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/tridiag_dc_math.hpp"

namespace gpuarr {
namespace tdc {
namespace {

void host_gemm(int M, int N, int K, const double* A, int lda, const double* B, int ldb, double* C, int ldc) {
  for (int j = 0; j < N; ++j) {
    double* c = C + int64_t(j) * ldc;
    for (int i = 0; i < M; ++i) c[i] = 0;
    for (int p = 0; p < K; ++p) {
      const double b = B[p + int64_t(j) * ldb];
      const double* a = A + int64_t(p) * lda;
      for (int i = 0; i < M; ++i) c[i] += a[i] * b;   // no zero skipping: NaN padding must show, as in cuBLAS
    }
  }
}

void solve_host(const double* d, const double* e, int64_t n, double* wv, double* Q) {
  if (n <= 0) return;
  Ws w;
  std::vector<char> buf(carve(nullptr, n, &w));
  carve(buf.data(), n, &w);
  std::vector<double> pool;
  double sc = 0;
  for (int64_t i = 0; i < n; ++i) sc = std::max(sc, std::fabs(d[i]));
  for (int64_t i = 0; i + 1 < n; ++i) sc = std::max(sc, std::fabs(e[i]));
  if (sc == 0) sc = 1;
  const double inv = 1.0 / sc;
  const int L = w.L;
  double* Qin = (L & 1) ? w.Qt : Q;
  for (int64_t g = 0; g < (int64_t(1) << L); ++g) {
    const int64_t a = bnd(n, L, g);
    const int sz = int(bnd(n, L, g + 1) - a);
    double sd[LEAF], se[LEAF], cs[LEAF], sn[LEAF], Z[LEAF * LEAF];
    for (int t = 0; t < sz; ++t) { leaf_load(d, e, n, a, sz, t, inv, sd, se); for (int j = 0; j < sz; ++j) Z[j * LEAF + t] = j == t; }
    int l = 0, iter = 0, hi, lo;
    while (ql_step(sd, se, sz, &l, &iter, cs, sn, &hi, &lo))
      for (int t = 0; t < sz; ++t) for (int i = hi - 1; i >= lo; --i) rot_row(Z, LEAF, t, i, cs[i], sn[i]);
    int rk[LEAF];
    for (int t = 0; t < sz; ++t) { rk[t] = rank_of(sd, sz, t); w.D[a + rk[t]] = sd[t]; }
    for (int j = 0; j < sz; ++j) for (int t = 0; t < sz; ++t) Qin[(a + t) + (a + rk[j]) * n] = Z[j * LEAF + t];
  }
  for (int lev = L - 1; lev >= 0; --lev) {
    double* Qout = Qin == Q ? w.Qt : Q;
    const int64_t G = int64_t(1) << lev;
    for (int64_t g = 0; g < G; ++g) {   // everything up to the counts
      const MV v = mview(w, lev, g);
      const double beta = e[v.a + v.n1 - 1] * inv, rho = 2 * std::fabs(beta);
      double md = 0, mz = 0;
      for (int i = 0; i < v.m; ++i) {
        double ad, az;
        prep_elem(v, w.D, Qin, n, beta < 0 ? -1.0 : 1.0, i, &ad, &az);
        md = std::max(md, ad); mz = std::max(mz, az);
      }
      const double tol = 8 * EPS * std::max(md, mz);
      const int nc = candidates(v, 0, v.m, rho, tol, nullptr);
      candidates(v, 0, v.m, rho, tol, v.cand);
      const int K = deflate_scan(v, v.cand, nc, tol);
      int c1 = 0, c2 = 0, c3 = K;
      compact_assign(v, 0, v.m, &c1, &c2, &c3, false);
      int* o = w.cnt + 4 * g;
      o[0] = K; o[1] = c3 - K; o[2] = c1; o[3] = c2; w.rho[g] = rho;
      for (int k = 0; k < K; ++k) {
        sec_solve(K, v.dl, v.zl, rho, k, 0, 1, &v.org[k], &v.tau[k]);
        v.vals[v.kidx[k]] = v.dl[v.org[k]] + v.tau[k];
      }
      for (int s = 0; s < v.m; ++s) { const int r = rank_of(v.vals, v.m, s); v.inv[r] = s; w.D[v.a + r] = v.vals[s]; }
      for (int k = 0; k < K; ++k) v.zhat[k] = zhat_of(K, v.dl, v.zl, v.org, v.tau, k);
      for (int k = 0; k < K; ++k) v.inorm[k] = inorm_of(K, v.dl, v.zhat, v.dl[v.org[k]], v.tau[k]);
    }
    const Lay ly = make_lay(n, lev, w.cnt);
    pool.assign(size_t(ly.stride) * G + 1, 0.0);  // the device takes it from the pool per level
    w.pool = pool.data();
    for (int64_t g = 0; g < G; ++g) {
      const MV v = mview(w, lev, g);
      const int* cnt = w.cnt + 4 * g;
      double* s = w.pool + g * ly.stride;
      for (int h = 0; h < 2; ++h) {
        const int nh = h ? ly.n2m : ly.n1m, kh = h ? ly.k2m : ly.k1m;
        for (int ic = 0; ic < kh; ++ic)
          for (int i = 0; i < nh; ++i) s[(h ? ly.oQ2 : ly.oQ1) + i + int64_t(ic) * nh] = gather_val(v, cnt, Qin, n, h, i, ic);
        for (int ac = 0; ac < ly.kam; ++ac)
          for (int i = 0; i < kh; ++i) s[(h ? ly.oU2 : ly.oU1) + i + int64_t(ac) * kh] = uc_val(v, cnt, h, i, ac);
      }
      for (int r = 0; r < v.m; ++r) if (v.kind[r] == 2) chain_col(v, ly, s, r);
      if (ly.k1m) host_gemm(ly.n1m, ly.kam, ly.k1m, s + ly.oQ1, ly.n1m, s + ly.oU1, ly.k1m, s + ly.oC1, ly.n1m);
      if (ly.k2m) host_gemm(ly.n2m, ly.kam, ly.k2m, s + ly.oQ2, ly.n2m, s + ly.oU2, ly.k2m, s + ly.oC2, ly.n2m);
      for (int c = 0; c < v.m; ++c)
        for (int R = 0; R < v.m; ++R) Qout[(v.a + R) + (v.a + c) * n] = assemble_val(v, ly, s, Qin, n, R, c);
    }
    Qin = Qout;
  }
  for (int64_t i = 0; i < n; ++i) wv[i] = w.D[i] * sc;
}

struct Mat { std::string name; std::vector<double> d, e; };
Mat gen(const std::string& kind, int64_t n) {
  Mat M{kind, std::vector<double>(n), std::vector<double>(std::max<int64_t>(n - 1, 0))};
  std::mt19937_64 r(1000 + n), rb(7);
  std::normal_distribution<double> N;
  const int64_t b = n >= 1000 ? (n % 128 ? 100 : 128) : std::max<int64_t>(n / 5, 1);   // glued block
  std::vector<double> B(2 * b);
  for (auto& x : B) x = N(rb);
  for (int64_t i = 0; i < n; ++i) {
    double d = 0, e = 0;
    if (kind == "random") { d = N(r); e = N(r); }
    else if (kind == "random*1e300" || kind == "random*1e-300") { const double f = kind[8] == '-' ? 1e-300 : 1e300; d = f * N(r); e = f * N(r); }
    else if (kind == "graded") { const double f = std::pow(10.0, -double(i) / 50); d = f * N(r); e = f * N(r); }
    else if (kind == "ones,e=0") d = 1;
    else if (kind == "d=0,e=1") e = 1;
    else if (kind == "wilkinson+") { d = double(std::llabs((n - 1) / 2 - i)); e = 1; }   // W+_{2m+1}, n odd
    else if (kind == "glued") { d = B[i % b]; e = i % b == b - 1 ? 1e-10 : B[b + i % b]; }
    else if (kind == "arange,e~0") { d = double(i); e = i % 97 == 5; }
    else if (kind == "cluster") { d = 1 + 1e-14 * N(r); e = 1e-15 * N(r); }
    M.d[i] = d;
    if (i + 1 < n) M.e[i] = e;
  }
  return M;
}

// Number of eigenvalues of M below x (LDL^T pivots, dstebz style).
int64_t sturm(const Mat& M, double x, double pivmin) {
  int64_t cnt = 0;
  double q = 1;
  for (size_t i = 0; i < M.d.size(); ++i) {
    q = M.d[i] - x - (i ? M.e[i - 1] * M.e[i - 1] / q : 0.0);
    if (std::fabs(q) < pivmin) q = -pivmin;
    cnt += q < 0;
  }
  return cnt;
}
std::vector<double> ref_eigs(const Mat& M) {
  const int64_t n = M.d.size();
  double lo = 1e300, hi = -1e300, emax = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double r = (i ? std::fabs(M.e[i - 1]) : 0) + (i + 1 < n ? std::fabs(M.e[i]) : 0);
    lo = std::min(lo, M.d[i] - r); hi = std::max(hi, M.d[i] + r);
    if (i + 1 < n) emax = std::max(emax, M.e[i] * M.e[i]);
  }
  const double pivmin = DBL_MIN * std::max(1.0, emax), pad = 2 * DBL_EPSILON * std::max(std::fabs(lo), std::fabs(hi)) + pivmin;
  lo -= pad; hi += pad;
  std::vector<double> w(n);
  for (int64_t k = 0; k < n; ++k) {
    double a = lo, b = hi;
    for (int it = 0; it < 200; ++it) {
      const double m = 0.5 * (a + b);
      if (m <= a || m >= b) break;
      if (sturm(M, m, pivmin) <= k) a = m; else b = m;
    }
    w[k] = 0.5 * (a + b);
  }
  return w;
}

double host_orth(const std::vector<double>& Q, int64_t n) {
  double o = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i; j < n; ++j) {
      double s = 0;
      for (int64_t k = 0; k < n; ++k) s += Q[k + i * n] * Q[k + j * n];
      o = std::max(o, std::fabs(s - (i == j)));
    }
  return o;
}


// Errors on T / ||T||: eigenvalues against bisection, residual and orthogonality per column.
void check(const Mat& M0) {
  const int64_t n = M0.d.size();
  std::vector<double> w(n), Q(size_t(n) * n);
  solve_host(M0.d.data(), M0.e.data(), n, w.data(), Q.data());
  double tn = 0;
  for (int64_t i = 0; i < n; ++i)
    tn = std::max(tn, std::fabs(M0.d[i]) + (i ? std::fabs(M0.e[i - 1]) : 0) +
                          (i + 1 < n ? std::fabs(M0.e[i]) : 0));
  if (tn == 0) tn = 1;
  Mat M = M0;
  for (auto& x : M.d) x /= tn;
  for (auto& x : M.e) x /= tn;
  for (auto& x : w) x /= tn;
  const std::vector<double> ref = ref_eigs(M);
  const double lim = 50.0 * double(n) * DBL_EPSILON;
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_NEAR(w[i], ref[i], 1e-12) << M.name << " n=" << n << " eigenvalue " << i;
    if (i) ASSERT_GE(w[i], w[i - 1]) << M.name << " n=" << n << " not ascending at " << i;
  }
  for (int64_t j = 0; j < n; ++j) {
    const double* q = Q.data() + j * n;
    double s = 0;
    for (int64_t i = 0; i < n; ++i) {
      double r = (M.d[i] - w[j]) * q[i];
      if (i) r += M.e[i - 1] * q[i - 1];
      if (i + 1 < n) r += M.e[i] * q[i + 1];
      s += r * r;
    }
    ASSERT_LE(std::sqrt(s), lim) << M.name << " n=" << n << " residual of column " << j;
  }
  ASSERT_LE(host_orth(Q, n), lim) << M.name << " n=" << n << " orthogonality";
}

}  // namespace

TEST(TridiagDc, TreeShape) {
  EXPECT_EQ(levels(1), 0);
  EXPECT_EQ(levels(LEAF), 0);
  EXPECT_EQ(levels(LEAF + 1), 1);
  EXPECT_EQ(levels(4096), 7);  // 4096 / 2^7 = 32 rows a leaf
  for (int64_t n : {33, 100, 1000, 4097}) {
    const int L = levels(n);
    for (int64_t g = 0; g < (int64_t(1) << L); ++g) EXPECT_LE(bnd(n, L, g + 1) - bnd(n, L, g), LEAF);
    EXPECT_EQ(bnd(n, L, int64_t(1) << L), n);
  }
}

TEST(TridiagDc, Cases) {
  const std::pair<const char*, std::vector<int64_t>> list[] = {
      {"random", {1, 2, 3, 17, 32, 33, 64, 65, 100, 129, 300}}, {"ones,e=0", {100}},
      {"d=0,e=1", {129}}, {"wilkinson+", {21, 201}}, {"glued", {65, 250}},
      {"arange,e~0", {300}}, {"cluster", {100, 257}}, {"random*1e300", {177}},
      {"random*1e-300", {177}}, {"graded", {200}}};
  for (const auto& [kind, ns] : list)
    for (int64_t n : ns) check(gen(kind, n));
}

}  // namespace tdc
}  // namespace gpuarr
