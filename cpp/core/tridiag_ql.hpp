// Implicit QL with Wilkinson-type shifts on a symmetric tridiagonal matrix (EISPACK tql2 as
// in JAMA), written as a step function so that one GPU thread can run the serial rotation
// chain and hand each sweep's rotations to the other threads, which apply them to the rows
// of the eigenvector matrix Z (eigen_tridiag_vectors.cu). Header-only, __host__ __device__:
// cpp/tests/test_eigen_ql.cpp runs the very same code on the CPU.
//
// Tridiagonal: d[0..n) diagonal, e[0..n) with e[i] = T(i, i+1) and e[n-1] = 0 (scratch).
// Each ql_step() performs one implicit QL iteration on the unreduced block [l, m] and emits
// its rotations: for i = m-1 down to l (in that order), with (c, s) = (cs[i], sn[i]), every
// row k of Z does   h = Z[k][i+1]; Z[k][i+1] = s Z[k][i] + c h; Z[k][i] = c Z[k][i] - s h.
// Starting from Z = I, the columns of Z end up the eigenvectors of T and d its eigenvalues
// (unsorted). Deflation: |e[m]| <= eps * max_i(|d_i| + |e_i|) (an absolute test on the
// norm, as JAMA; the caller scales T to norm ~1).
#pragma once
#include <math.h>

#include "core/host_device.hpp"

namespace gpuarr {

GPUARR_HD float ql_sqrt(float x) { return sqrtf(x); }
GPUARR_HD double ql_sqrt(double x) { return sqrt(x); }
GPUARR_HD float ql_abs(float x) { return fabsf(x); }
GPUARR_HD double ql_abs(double x) { return fabs(x); }
template <class W>
GPUARR_HD W ql_eps();
template <>
GPUARR_HD float ql_eps<float>() { return 1.1920928955078125e-07f; }
template <>
GPUARR_HD double ql_eps<double>() { return 2.220446049250313e-16; }

// sqrt(a^2 + b^2) without overflow or underflow of the squares.
template <class W>
GPUARR_HD W ql_hypot(W a, W b) {
  a = ql_abs(a);
  b = ql_abs(b);
  const W mx = a > b ? a : b, mn = a > b ? b : a;
  if (mx == W(0)) return W(0);
  const W q = mn / mx;
  return mx * ql_sqrt(W(1) + q * q);
}

// The rotation (c, s, r) with r = sqrt(p^2 + q^2), c = p / r, s = q / r, given r2 = p^2 + q^2
// in the safe range. double: IEEE sqrt and divisions. float: one reciprocal square root
// (MUFU on the GPU) refined by a Newton step (error ~1 ulp), then products: about half the
// latency of sqrt + division on the serial chain.
GPUARR_HD void ql_rot(double p, double q, double r2, double& c, double& s, double& r) {
  r = sqrt(r2);
  c = p / r;
  s = q / r;
}
GPUARR_HD void ql_rot(float p, float q, float r2, float& c, float& s, float& r) {
#ifdef __CUDA_ARCH__
  float y = rsqrtf(r2);
#else
  float y = 1.0f / sqrtf(r2);
#endif
  y = y * fmaf(-0.5f * r2, y * y, 1.5f);
  c = p * y;
  s = q * y;
  r = r2 * y;
}

template <class W>
struct QlState {
  int l = 0;      // eigenvalues [0, l) are final
  int iters = 0;  // QL iterations so far
  W f = W(0);     // accumulated shift: d[i >= l] are stored minus f
  W tol = W(0);   // deflation threshold eps * max(|d_i| + |e_i|)
};

template <class W>
GPUARR_HD void ql_init(const W* d, W* e, int n, QlState<W>& st) {
  if (n > 0) e[n - 1] = W(0);
  W t = W(0);
  for (int i = 0; i < n; ++i) {
    const W x = ql_abs(d[i]) + ql_abs(e[i]);
    t = x > t ? x : t;  // (a NaN never wins: the caller handles non-finite input first)
  }
  st = QlState<W>();
  st.tol = ql_eps<W>() * t;
}

// One QL iteration. Returns 1 when rotations were emitted (*lo = l, *hi = m: rotations
// i = m-1 .. l in cs/sn), 0 when all eigenvalues are final (d holds them), -1 when more than
// max_iters iterations were needed (no convergence: the caller reports NaN).
template <class W, class T>
GPUARR_HD int ql_step(W* d, W* e, int n, QlState<W>& st, T* cs, T* sn, int* lo,
                             int* hi, int max_iters) {
  while (st.l < n) {
    const int l = st.l;
    // m: the first index >= l with a negligible e[m] (e[n-1] = 0). Eight independent loads
    // per step: on the GPU a serial load-compare-branch per element would cost a shared
    // memory latency each, as much as the rotation chain itself.
    int m = l;
    for (;;) {
      W v[8];
      GPUARR_UNROLL
      for (int u = 0; u < 8; ++u) v[u] = (m + u < n - 1) ? ql_abs(e[m + u]) : W(0);
      int found = 8;
      GPUARR_UNROLL
      for (int u = 7; u >= 0; --u)
        if (!(v[u] > st.tol)) found = u;
      if (found < 8) {
        m += found;
        break;
      }
      m += 8;
    }
    if (m == l) {  // d[l] is an eigenvalue
      d[l] += st.f;
      e[l] = W(0);
      ++st.l;
      continue;
    }
    if (++st.iters > max_iters) return -1;
    // Shift from the leading 2x2 of the block (e[l] != 0 here, so p is finite).
    W g = d[l];
    W p = (d[l + 1] - g) / (W(2) * e[l]);
    W r = ql_hypot(p, W(1));
    if (p < W(0)) r = -r;
    d[l] = e[l] / (p + r);
    d[l + 1] = e[l] * (p + r);
    const W dl1 = d[l + 1];
    W h = g - d[l];
    for (int i = l + 2; i < n; ++i) d[i] -= h;
    st.f += h;
    // The rotation chain (serial). d[i], e[i] of the next rotation are loaded one step
    // ahead: rotation i writes only d[i+1], e[i+1].
    p = d[m];
    W c = W(1), c2 = W(1), c3 = W(1), s = W(0), s2 = W(0);
    const W el1 = e[l + 1];
    W ei = e[m - 1], di = d[m - 1];
    const W lo_sq = W(1e-30), hi_sq = W(1e30);
    for (int i = m - 1; i >= l; --i) {
      const W ei_next = i > l ? e[i - 1] : W(0);
      const W di_next = i > l ? d[i - 1] : W(0);
      c3 = c2;
      c2 = c;
      s2 = s;
      g = c * ei;
      h = c * p;
      const W r2 = p * p + ei * ei;
      const W s_old = s;
      if (r2 > lo_sq && r2 < hi_sq) {
        ql_rot(p, ei, r2, c, s, r);
      } else {
        r = ql_hypot(p, ei);
        s = ei / r;
        c = p / r;
      }
      e[i + 1] = s_old * r;
      p = c * di - s * g;
      d[i + 1] = h + s * (c * g + s * di);
      cs[i] = T(c);
      sn[i] = T(s);
      ei = ei_next;
      di = di_next;
    }
    p = -s * s2 * c3 * el1 * e[l] / dl1;
    e[l] = s * p;
    d[l] = c * p;
    *lo = l;
    *hi = m;
    return 1;
  }
  return 0;
}

// Applies the rotations of one ql_step to row `z` of Z (ld-free: z[j] is column j).
template <class T>
GPUARR_HD void ql_apply_row(T* z, const T* cs, const T* sn, int lo, int hi) {
  T zi1 = z[hi];  // the current value of column i+1
  for (int i = hi - 1; i >= lo; --i) {
    const T c = cs[i], s = sn[i];
    const T zi = z[i];
    z[i + 1] = s * zi + c * zi1;
    zi1 = c * zi - s * zi1;
  }
  z[lo] = zi1;
}

}  // namespace gpuarr
