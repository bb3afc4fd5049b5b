// The per-element numerics of the divide-and-conquer tridiagonal eigensolver
// (ops/tridiag_dc.cu): the merge tree, the workspace layout, the leaves' implicit QL, dlaed2
// deflation, the dlaed4-style secular solver, Gu-Eisenstat's z and the U/assembly entries.
// Plain C++ for the host (cpp/tests/test_tridiag_dc.cpp runs the whole solver sequentially
// with these functions, so CI checks the numerics without a GPU) and __host__ __device__
// under nvcc, where the kernels call the same functions.
#pragma once
#include <math.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define TDC_HD __host__ __device__
#else
#define TDC_HD
#endif
#ifdef __CUDA_ARCH__
#define TDC_UNROLL _Pragma("unroll")
#else
#define TDC_UNROLL
#endif

namespace gpuarr {
namespace tdc {
constexpr int LEAF = 32;             // leaf QL is one warp; smaller leaves move work to the GEMMs
constexpr double EPS = 0x1p-53;      // LAPACK dlamch('E')

// ------------------------------------------------------------------ tree and workspace
TDC_HD inline int64_t bnd(int64_t n, int lev, int64_t g) { return (g * n) >> lev; }
TDC_HD inline int64_t mmax_at(int64_t n, int lev) { return ((n - 1) >> lev) + 1; }
inline int levels(int64_t n) { int L = 0; while (mmax_at(n, L) > LEAF) ++L; return L; }

// Per-row arrays (length n; a merge of rows [a, a+m) owns [a, a+m), indexed by sorted position
// unless noted): sorted poles ds and z zs (perm: original column), item eigenvalues vals,
// rotation data cin/cout/sout/nxt/prv, chain closed form alpha/tgt, kept poles dl/zl (by k;
// kpos/kidx map), secular roots org/tau, zhat, column norms inorm, inv (item of each rank),
// the active numbering hidx/acol/hrow/acitem, and cand (deflation candidates).
#define TDC_DARRAYS(X) X(ds) X(zs) X(vals) X(cin) X(cout) X(sout) X(alpha) X(dl) X(zl) X(zhat) X(tau) X(inorm)
#define TDC_IARRAYS(X) X(perm) X(cand) X(kind) X(nxt) X(prv) X(tgt) X(kpos) X(kidx) X(org) X(inv) \
  X(hidx) X(acol) X(hrow) X(acitem)
#define TDC_DDECL(x) double* x;
#define TDC_IDECL(x) int* x;
struct Ws {
  double *Qt, *pool, *D, *rho, *scale;
  int* cnt;                          // per merge: K, K2 (rotation-deflated), active rows in half 1, half 2
  TDC_DARRAYS(TDC_DDECL)
  TDC_IARRAYS(TDC_IDECL)
  int64_t n;
  int L;
};

// Lays the per-row arrays, the merge counts and the second Q buffer out from `base`
// (nullptr: only measures). Returns the byte count. The GEMM scratch (`pool`) is sized per
// level from the counts (level_pool_elements) and set by the caller.
inline size_t carve(void* base, int64_t n, Ws* w) {
  size_t off = 0;
  char* b = (char*)base;
  auto take = [&](size_t bytes) { off = (off + 255) & ~size_t(255); void* p = b ? b + off : nullptr; off += bytes; return p; };
  const int L = levels(n);
  const int64_t G = L > 0 ? (int64_t(1) << (L - 1)) : 1;
  w->n = n; w->L = L;
  w->pool = nullptr;
  const size_t nd = size_t(n) * 8, ni = size_t(n) * 4;
  w->Qt = (double*)take(L > 0 ? size_t(n) * n * 8 : 8);
  w->D = (double*)take(nd);
#define TDC_DTAKE(x) w->x = (double*)take(nd);
#define TDC_ITAKE(x) w->x = (int*)take(ni);
  TDC_DARRAYS(TDC_DTAKE)
  TDC_IARRAYS(TDC_ITAKE)
  w->cnt = (int*)take(G * 16);
  w->rho = (double*)take(G * 8);
  w->scale = (double*)take(8);
  return off + 256;
}

// One merge's view: row segment [a, a+m) of every per-row array.
struct MV {
  int64_t a;
  int m, n1;
  TDC_DARRAYS(TDC_DDECL)
  TDC_IARRAYS(TDC_IDECL)
};
TDC_HD inline MV mview(const Ws& w, int lev, int64_t g) {
  MV v;
  const int64_t n = w.n, a = bnd(n, lev, g);
  v.a = a; v.m = int(bnd(n, lev, g + 1) - a); v.n1 = int(bnd(n, lev + 1, 2 * g + 1) - a);
#define TDC_OFF(x) v.x = w.x + a;
  TDC_DARRAYS(TDC_OFF)
  TDC_IARRAYS(TDC_OFF)
  return v;
}

// ------------------------------------------------------------------ leaves (implicit QL, tql2)
// Diagonal of leaf row t after the splits subtract |beta| on both sides of each boundary.
TDC_HD inline void leaf_load(const double* d, const double* e, int64_t n, int64_t a, int sz, int t, double inv,
                         double* sd, double* se) {
  double x = d[a + t] * inv;
  if (t == 0 && a > 0) x -= fabs(e[a - 1] * inv);
  if (t == sz - 1 && a + sz < n) x -= fabs(e[a + sz - 1] * inv);
  sd[t] = x;
  se[t] = t < sz - 1 ? e[a + t] * inv : 0.0;
}

// One implicit-QL sweep (Numerical Recipes tqli) on the first unconverged block at or after
// *l. Records rotation i (acting on columns i, i+1) in cs[i], sn[i] for i in [*lo, *hi);
// they must be applied for i = hi-1 down to lo. Returns false once every eigenvalue converged.
TDC_HD inline bool ql_step(double* d, double* e, int n, int* l, int* iter, double* cs, double* sn, int* hi, int* lo) {
  while (*l < n) {
    const int l0 = *l;
    int m = l0;
    for (; m < n - 1; ++m) if (fabs(e[m]) <= EPS * (fabs(d[m]) + fabs(d[m + 1]))) break;
    if (m == l0 || *iter >= 60) { ++*l; *iter = 0; continue; }
    ++*iter;
    double g = (d[l0 + 1] - d[l0]) / (2.0 * e[l0]);
    double r = hypot(g, 1.0);
    g = d[m] - d[l0] + e[l0] / (g + copysign(r, g));
    double s = 1, c = 1, p = 0;
    int i = m - 1;
    for (; i >= l0; --i) {
      const double f = s * e[i], b = c * e[i];
      r = hypot(f, g);
      e[i + 1] = r;
      if (r == 0) { d[i + 1] -= p; e[m] = 0; break; }
      s = f / r; c = g / r; g = d[i + 1] - p;
      r = (d[i] - g) * s + 2.0 * c * b;
      p = s * r; d[i + 1] = g + p; g = c * r - b;
      cs[i] = c; sn[i] = s;
    }
    *hi = m; *lo = i + 1;
    if (!(r == 0 && i >= l0)) { d[l0] -= p; e[l0] = g; e[m] = 0; }
    return true;
  }
  return false;
}
TDC_HD inline void rot_row(double* Z, int ldz, int k, int i, double c, double s) {
  const double f = Z[(i + 1) * ldz + k], x = Z[i * ldz + k];
  Z[(i + 1) * ldz + k] = s * x + c * f;
  Z[i * ldz + k] = c * x - s * f;
}
TDC_HD inline int rank_of(const double* v, int m, int s) {
  const double x = v[s];
  int r = 0;
  for (int t = 0; t < m; ++t) r += (v[t] < x) || (v[t] == x && t < s);
  return r;
}

// ------------------------------------------------------------------ merge: z, sort, deflation
// Puts entry i of the merged block at its place in the stable merge of the two ascending
// halves (ties: first half first), with its z = [last row of Q1; sign(beta) first row of Q2]/sqrt2.
TDC_HD inline void prep_elem(const MV& v, const double* D, const double* Qin, int64_t n, double sgn, int i,
                         double* ad, double* az) {
  const double* D1 = D + v.a;
  const double* D2 = D1 + v.n1;
  const int n2 = v.m - v.n1;
  double x, z;
  int pos, lo = 0, hi;
  if (i < v.n1) {
    x = D1[i]; hi = n2;
    while (lo < hi) { int md = (lo + hi) >> 1; if (D2[md] < x) lo = md + 1; else hi = md; }
    pos = i + lo;
    z = Qin[(v.a + v.n1 - 1) + (v.a + i) * n];
  } else {
    x = D2[i - v.n1]; hi = v.n1;
    while (lo < hi) { int md = (lo + hi) >> 1; if (D1[md] <= x) lo = md + 1; else hi = md; }
    pos = i - v.n1 + lo;
    z = sgn * Qin[(v.a + v.n1) + (v.a + i) * n];
  }
  z *= 0.70710678118654752440;
  v.perm[pos] = i; v.ds[pos] = x; v.zs[pos] = z;
  *ad = fabs(x); *az = fabs(z);
}

TDC_HD inline void keep_pole(const MV& v, int j, double dj, double zj, double cj, int* K) {
  v.kind[j] = 0; v.cin[j] = cj; v.kpos[j] = *K; v.kidx[*K] = j; v.dl[*K] = dj; v.zl[*K] = zj; ++*K;
}

// dlaed2's deflation, kind 1: pole j deflates when its z is small (U column e_j). Over the
// sorted range [r0, r1): with out == nullptr marks those and counts the others (candidates),
// else lists the candidates from out[0] on. (kind[] of a candidate is stale until the scan.)
TDC_HD inline int candidates(const MV& v, int r0, int r1, double rho, double tol, int* out) {
  int c = 0;
  for (int j = r0; j < r1; ++j) {
    if (rho * fabs(v.zs[j]) > tol) { if (out) out[c] = j; ++c; }
    else if (!out) { v.kind[j] = 1; v.vals[j] = v.ds[j]; }
  }
  return c;
}
// The rest of dlaed2's deflation, sequential (one thread) over the nc candidates
// (ascending sorted indices cand[]): kind 0 kept, kind 2 deflated by a rotation against the
// next candidate. Rotation data: cin[j] (c of the rotation j survived, else 1), cout/sout
// (c, s of the rotation j was deflated by), nxt/prv chain links. A backward pass gives each
// active row r its coefficient alpha[r] and survivor tgt[r] such that U[r, secular col] =
// alpha[r] * U'[tgt[r], col] (the closed form of applying the chain's rotations). Loads are
// staged in register blocks so the thread is not latency bound on each element.
TDC_HD inline int deflate_scan(const MV& v, const int* cand, int nc, double tol) {
  constexpr int B = 16;
  int K = 0, pj = -1;
  double zp = 0, dp = 0, cp = 1;
  for (int i0 = 0; i0 < nc; i0 += B) {
    int jb[B];
    double db[B], zb[B];
    const int nb = nc - i0 < B ? nc - i0 : B;
    TDC_UNROLL for (int u = 0; u < B; ++u) if (u < nb) jb[u] = cand[i0 + u];
    TDC_UNROLL for (int u = 0; u < B; ++u) if (u < nb) { db[u] = v.ds[jb[u]]; zb[u] = v.zs[jb[u]]; }
    TDC_UNROLL for (int u = 0; u < B; ++u) {
      if (u >= nb) break;
      const int j = jb[u];
      double dj = db[u], zj = zb[u], cj = 1;
      int pv = -1;
      if (pj >= 0) {
        // |t c s| <= tol with c = zj/tau, s = -zp/tau, written without the sqrt and divisions.
        if (fabs((dj - dp) * zj * zp) <= tol * (zp * zp + zj * zj)) {
          const double tau = hypot(zp, zj), c = zj / tau, s = -zp / tau;
          v.kind[pj] = 2; v.vals[pj] = dp * c * c + dj * s * s;
          v.cin[pj] = cp; v.cout[pj] = c; v.sout[pj] = s; v.nxt[pj] = j;
          dj = dp * s * s + dj * c * c; zj = tau; cj = c; pv = pj;
        } else {
          keep_pole(v, pj, dp, zp, cp, &K);
        }
      }
      v.prv[j] = pv; pj = j; zp = zj; dp = dj; cp = cj;
    }
  }
  if (pj >= 0) keep_pole(v, pj, dp, zp, cp, &K);
  int cur = -1;
  double P = 1;
  for (int i1 = nc; i1 > 0; i1 -= B) {
    const int nb = i1 < B ? i1 : B;
    int jb[B], kb[B];
    double cb[B], sb[B];
    TDC_UNROLL for (int u = 0; u < B; ++u) if (u < nb) jb[u] = cand[i1 - 1 - u];
    TDC_UNROLL for (int u = 0; u < B; ++u) if (u < nb) { kb[u] = v.kind[jb[u]]; cb[u] = v.cin[jb[u]]; sb[u] = v.sout[jb[u]]; }
    TDC_UNROLL for (int u = 0; u < B; ++u) {
      if (u >= nb) break;
      const int j = jb[u];
      if (kb[u] == 0) { cur = j; P = 1; } else P *= -sb[u];
      v.tgt[j] = cur; v.alpha[j] = cb[u] * P;
    }
  }
  return K;
}

// Numbers the active poles (kind 0 or 2) of sorted range [r0, r1): per half of the merged
// block a row index hidx (hrow lists half 1 from the front, half 2 from the back), and a
// column acol (kept pole k -> k, rotation-deflated ones after the K kept). c1, c2, c3 are the
// counts before r0 (c3 starting at K); on return, after r1. The device runs it per chunk.
TDC_HD inline void compact_assign(const MV& v, int r0, int r1, int* c1, int* c2, int* c3, bool count_only) {
  for (int r = r0; r < r1; ++r) {
    const int kd = v.kind[r];
    if (kd == 1) continue;
    if (count_only) { ++*(v.perm[r] < v.n1 ? c1 : c2); *c3 += kd == 2; continue; }
    if (v.perm[r] < v.n1) { v.hidx[r] = *c1; v.hrow[(*c1)++] = r; }
    else { v.hidx[r] = *c2; v.hrow[v.m - 1 - (*c2)++] = r; }
    const int ac = kd == 0 ? v.kpos[r] : (*c3)++;
    v.acol[r] = ac; v.acitem[ac] = r;
  }
}

// ------------------------------------------------------------------ merge: secular equation
struct Sec { double psi, dpsi, phi, dphi, sabs; };
// Sums over the lanes of a warp on the device (lanes split the j loop); identity on the host.
// The xor butterfly leaves bitwise-identical totals in every lane, so control flow stays uniform.
TDC_HD inline double lane_sum(double x, int js) {
#ifdef __CUDA_ARCH__
  if (js == 32) for (int o = 16; o; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
#else
  (void)js;
#endif
  return x;
}
TDC_HD inline Sec sec_sums(int K, const double* dl, const double* zl, int k, double dorg, double tau, int j0, int js) {
  Sec r{0, 0, 0, 0, 0};
  for (int j = j0; j < K; j += js) {
    const double ri = 1.0 / ((dl[j] - dorg) - tau), t = zl[j] * zl[j] * ri, dt = t * ri;
    if (j <= k) { r.psi += t; r.dpsi += dt; } else { r.phi += t; r.dphi += dt; }
    r.sabs += fabs(t);
  }
  r.psi = lane_sum(r.psi, js); r.dpsi = lane_sum(r.dpsi, js); r.phi = lane_sum(r.phi, js);
  r.dphi = lane_sum(r.dphi, js); r.sabs = lane_sum(r.sabs, js);
  return r;
}

// Splits a bracket of tau. A root can sit anywhere from ~1e-300 to O(1) away from its origin
// pole, so a bracket spanning orders of magnitude is split geometrically: ~11 steps find the
// exponent, where arithmetic halving would need up to ~1000 to reach relative accuracy.
TDC_HD inline double split(double lo, double hi) {
  if (lo > 0 && hi > 2 * lo) return sqrt(lo) * sqrt(hi);
  if (hi < 0 && lo < 2 * hi) return -(sqrt(-lo) * sqrt(-hi));
  return 0.5 * (lo + hi);
}

// Root k of 1/rho + sum_j zl_j^2 / (dl_j - lambda) = 0 (same sign as f), as lambda =
// dl[*org] + *tau with the origin the nearer pole. Bracketed iteration on tau with the
// rational two-pole model steps of dlaed4: "fixed weight" (the origin pole keeps its true
// weight z_o^2, the other pole takes the rest of the slope) and "middle way" (psi's slope on
// pole k, phi's on pole k+1), switching when a step gains less than 10x, as dlaed4 does.
// Safeguards: a split step whenever the model leaves the bracket or after three steps in a
// row that did not halve |g|, and splits only after 40 steps. Stops when |g| is below the
// rounding-error bound of its evaluation or the bracket is exhausted.
TDC_HD inline void sec_solve(int K, const double* dl, const double* zl, double rho, int k, int j0, int js,
                         int* org, double* tau_out) {
  const double rinv = 1.0 / rho;
  int o = k;
  double lo, hi, tau;
  Sec S;
  // The pole end of the bracket is not 0 but a floor on |tau|: at the root the origin's term
  // z_o^2/|tau| is at most 1/rho + ||z||^2/(gap/2) (every other pole is >= gap/2 away or has
  // the helping sign), and at most 1/rho for the last root (||z|| <= 1 up to rounding: a
  // factor 2 of margin). This keeps every probe's derivative sums finite.
  if (k < K - 1) {
    const double mid = 0.5 * (dl[k + 1] - dl[k]);
    S = sec_sums(K, dl, zl, k, dl[k], mid, j0, js);
    if (rinv + S.psi + S.phi >= 0) { lo = 0.5 * zl[k] * zl[k] / (rinv + 1 / mid); hi = mid; tau = mid; }
    else { o = k + 1; lo = -mid; hi = -0.5 * zl[k + 1] * zl[k + 1] / (rinv + 1 / mid); tau = -mid; }
  } else {
    double zz = 0;
    for (int j = j0; j < K; j += js) zz += zl[j] * zl[j];
    lo = 0.5 * rho * zl[k] * zl[k]; hi = tau = rho * lane_sum(zz, js);
    S = sec_sums(K, dl, zl, k, dl[k], tau, j0, js);
  }
  const double dorg = dl[o], zo2 = zl[o] * zl[o];
  const int x = k < K - 1 ? (o == k ? k + 1 : k) : k - 1;   // the model's second pole (-1: none)
  double gprev = 0;
  bool fixed = true;
  int slow = 0;
  for (int it = 0; it < 200; ++it) {
    if (it > 0) S = sec_sums(K, dl, zl, k, dorg, tau, j0, js);
    const double g = rinv + S.psi + S.phi, dw = S.dpsi + S.dphi;
    const double bound = EPS * (2 * rinv + 8 * S.sabs + fabs(tau) * dw);
    if (fabs(g) <= bound && bound < INFINITY) break;
    if (g < 0) lo = tau; else hi = tau;
    if (it > 0 && g * gprev > 0 && fabs(g) > 0.1 * fabs(gprev)) fixed = !fixed;
    slow = it > 0 && g * gprev > 0 && fabs(g) > 0.5 * fabs(gprev) ? slow + 1 : 0;
    gprev = g;
    double nt = NAN;
    if (it < 40 && slow < 3) {
      // model c + So/(a - eta) + Sx/(b - eta) with a, b the origin's and x's deltas
      const double a = -tau, b = x >= 0 ? (dl[x] - dorg) - tau : 0;
      double So, Sx = 0;
      if (fixed) { So = zo2; if (x >= 0) Sx = fmax(dw - zo2 / (a * a), 0.0) * b * b; }
      else if (x < 0) So = dw * a * a;
      else {
        const double sk = S.dpsi * (o == k ? a * a : b * b), sk1 = S.dphi * (o == k ? b * b : a * a);
        So = o == k ? sk : sk1; Sx = o == k ? sk1 : sk;
      }
      const double c = g - So / a - (Sx != 0 ? Sx / b : 0.0);
      if (Sx == 0) nt = tau + a + So / c;
      else {
        // c eta^2 - B eta + C = 0. Its other root lies beyond a pole but can round inside
        // when a weight is tiny, so take the root inside the bracket (the smaller if both).
        const double B = c * (a + b) + So + Sx, C = c * a * b + So * b + Sx * a;
        if (c == 0) nt = tau + C / B;
        else {
          const double q = 0.5 * (B + copysign(sqrt(fabs(B * B - 4 * c * C)), B));
          const double t1 = tau + q / c, t2 = tau + C / q;
          nt = (t2 > lo && t2 < hi) ? t2 : t1;
        }
      }
    }
    if (!(nt > lo && nt < hi)) {
      nt = split(lo, hi);
      slow = 0;
      if (!(nt > lo && nt < hi)) break;   // bracket exhausted
    }
    if (nt == tau) break;
    tau = nt;
  }
  *org = o; *tau_out = tau;
}

// ------------------------------------------------------------------ merge: vectors (dlaed3)
// Gu-Eisenstat: the z for which the computed roots are exact eigenvalues, as a product of
// ratios (chunks of 8 factors per division cannot over/underflow for |T| <= 1), times the
// common factor 1/rho that normalization removes anyway.
TDC_HD inline double zhat_of(int K, const double* dl, const double* zl, const int* org, const double* tau, int i) {
  const double di = dl[i];
  double p = -((di - dl[org[i]]) - tau[i]), num = 1, den = 1;
  int c = 0;
  for (int j = 0; j < K; ++j) {
    if (j == i) continue;
    num *= (di - dl[org[j]]) - tau[j];
    den *= di - dl[j];
    if (++c == 8) { p *= num / den; num = den = 1; c = 0; }
  }
  p *= num / den;
  return copysign(sqrt(fabs(p)), zl[i]);
}
TDC_HD inline double inorm_of(int K, const double* dl, const double* zhat, double dorg, double tk) {
  double s = 0;
  for (int i = 0; i < K; ++i) { const double x = zhat[i] / ((dl[i] - dorg) - tk); s += x * x; }
  return 1.0 / sqrt(s);
}

// Layout of one level's scratch, the same for every merge (sizes are the level's maxima, the
// padding is zero): per half h, Qc_h (nhm x khm) gathered active columns of Q, Uc_h (khm x
// kam) the active rows of U, C_h = Qc_h Uc_h (nhm x kam); all column-major, one slot a merge.
struct Lay { int n1m, n2m, k1m, k2m, kam; int64_t oQ1, oQ2, oU1, oU2, oC1, oC2, stride; };
inline Lay make_lay(int64_t n, int lev, const int* cnt) {
  Lay L{};
  for (int64_t g = 0; g < (int64_t(1) << lev); ++g) {
    const int64_t a = bnd(n, lev, g), mid = bnd(n, lev + 1, 2 * g + 1), b = bnd(n, lev, g + 1);
    const int* c = cnt + 4 * g;
    L.n1m = std::max(L.n1m, int(mid - a)); L.n2m = std::max(L.n2m, int(b - mid));
    L.k1m = std::max(L.k1m, c[2]); L.k2m = std::max(L.k2m, c[3]); L.kam = std::max(L.kam, c[2] + c[3]);
  }
  L.oQ1 = 0; L.oQ2 = int64_t(L.n1m) * L.k1m; L.oU1 = L.oQ2 + int64_t(L.n2m) * L.k2m;
  L.oU2 = L.oU1 + int64_t(L.k1m) * L.kam; L.oC1 = L.oU2 + int64_t(L.k2m) * L.kam;
  L.oC2 = L.oC1 + int64_t(L.n1m) * L.kam; L.stride = L.oC2 + int64_t(L.n2m) * L.kam;
  return L;
}

// Entry (i, column) of Qc of half h: row i of the half, its ic-th active column.
TDC_HD inline double gather_val(const MV& v, const int* cnt, const double* Qin, int64_t n, int h, int i, int ic) {
  if (ic >= cnt[2 + h] || i >= (h ? v.m - v.n1 : v.n1)) return 0.0;
  const int r = h ? v.hrow[v.m - 1 - ic] : v.hrow[ic];
  return Qin[(v.a + h * v.n1 + i) + (v.a + v.perm[r]) * n];
}

// Entry of Uc: row = active pole r (sorted index), column = active item s. A kept pole's
// column is its secular vector zhat_j / (dl_j - lambda) (normalized) mapped through the
// rotation chains (alpha, tgt); rotation-deflated columns are written by chain_col.
TDC_HD inline double uc_val(const MV& v, const int* cnt, int h, int i, int ac) {
  if (ac >= cnt[2] + cnt[3] || i >= cnt[2 + h]) return 0.0;
  const int s = v.acitem[ac], r = h ? v.hrow[v.m - 1 - i] : v.hrow[i];
  if (v.kind[s] != 0) return 0.0;
  const int k = v.kpos[s], j = v.kpos[v.tgt[r]];
  return v.alpha[r] * v.zhat[j] * v.inorm[k] / ((v.dl[j] - v.dl[v.org[k]]) - v.tau[k]);
}
TDC_HD inline double* uc_at(const MV& v, const Lay& L, double* slot, int r, int ac) {
  const bool h = v.perm[r] >= v.n1;
  return slot + (h ? L.oU2 + v.hidx[r] + int64_t(ac) * L.k2m : L.oU1 + v.hidx[r] + int64_t(ac) * L.k1m);
}
// Column of a rotation-deflated pole p_l of a chain p_1..p_k: column l of G_1...G_{k-1},
// M[l+1,l] = s_l, M[t,l] = c_{t-1} prod_{u=t}^{l-1}(-s_u) c_l for t <= l (c_0 = 1). Entries
// shrink monotonically going up the chain, so the walk stops once they are below 1e-30.
TDC_HD inline void chain_col(const MV& v, const Lay& L, double* slot, int s) {
  const int ac = v.acol[s];
  const double co = v.cout[s];
  *uc_at(v, L, slot, v.nxt[s], ac) = v.sout[s];
  *uc_at(v, L, slot, s, ac) = v.cin[s] * co;
  double P = co;
  for (int u = v.prv[s]; u >= 0; u = v.prv[u]) {
    P *= -v.sout[u];
    if (fabs(P) < 1e-30) break;
    *uc_at(v, L, slot, u, ac) = v.cin[u] * P;
  }
}

// Entry (R, c) of the merged block of the new Q: column c is the item of rank c; a small-z
// deflated item copies its old column, an active one reads C of the row's half.
TDC_HD inline double assemble_val(const MV& v, const Lay& L, const double* slot, const double* Qin, int64_t n, int R, int c) {
  const int s = v.inv[c];
  const bool h = R >= v.n1;
  if (v.kind[s] == 1) {
    const int p = v.perm[s];
    return (p >= v.n1) == h ? Qin[(v.a + R) + (v.a + p) * n] : 0.0;
  }
  const int ac = v.acol[s];
  if (h) return L.k2m ? slot[L.oC2 + (R - v.n1) + int64_t(ac) * L.n2m] : 0.0;
  return L.k1m ? slot[L.oC1 + R + int64_t(ac) * L.n1m] : 0.0;
}
}  // namespace tdc
}  // namespace gpuarr
