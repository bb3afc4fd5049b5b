// The tridiagonal reduction and Sturm counts shared by the one-block-per-matrix kernels that
// work on a packed lower triangle in shared memory (eigen_tridiag.cu: all eigenvalues by
// bisection; eigen_kth.cu: one eigenpair by multisection and inverse iteration).
#pragma once
#include <cmath>

#include "ops/eigen_block_common.cuh"

namespace gpuarr {
namespace eigen_detail {

// The front of shared memory both packed-triangle kernels start with (its size in elements:
// packed_tridiag_scratch_elements in core/eigen_plan.hpp): the lower triangle packed by rows,
// A(i, j) = A[tri(i) + j] for j <= i, then v, p (tridiagonalize_packed's scratch), the
// diagonal d and e2 = e^2, n each. `rest` is the first element after it.
template <class T>
struct PackedTridiagScratch {
  T *A, *v, *p, *d, *e2, *rest;
};

template <class T>
__device__ __forceinline__ PackedTridiagScratch<T> packed_tridiag_scratch(unsigned char* smem,
                                                                          int n) {
  PackedTridiagScratch<T> s;
  s.A = reinterpret_cast<T*>(smem);
  s.v = s.A + tri(n);
  s.p = s.v + n;
  s.d = s.p + n;
  s.e2 = s.d + n;
  s.rest = s.e2 + n;
  return s;
}

// Loads the read triangle of matrix cm (load_packed_lower) into the packed lower triangle A
// and scales it by a power of two (exact) so that max|A| is in [1, 2): squares (e^2, the
// norms) neither overflow nor underflow in float32; results are scaled back by 2^scale_exp.
// False (and A unusable) when a value is not finite. Every thread calls it; ends with a
// barrier.
template <class T>
__device__ bool load_scaled_packed_lower(const T* cm, int n, bool lower, T* A, double* red,
                                         int& scale_exp) {
  const int tid = threadIdx.x, nt = blockDim.x;
  const int lane = tid & 31, warp = tid >> 5, nwarps = nt >> 5;
  double bad_local = 0.0, amax_local = 0.0;
  load_packed_lower(cm, n, lower, A, warp, nwarps, lane, bad_local, amax_local);
  if (block_sum(bad_local, red) != 0.0) return false;  // (also the barrier after the load)
  const double amax = block_max(amax_local, red);
  scale_exp = amax > 0.0 ? ilogb(amax) : 0;
  if (scale_exp != 0) {
    const int np = tri(n);
    for (int t = tid; t < np; t += nt) A[t] = T(ldexp(double(A[t]), -scale_exp));
    __syncthreads();
  }
  return true;
}

// Number of eigenvalues of the tridiagonal (d, e2 = e^2) that are < x.
template <class T>
__device__ __forceinline__ int sturm_count(const T* d, const T* e2, int n, T x, T pivmin) {
  int cnt = 0;
  T q = d[0] - x;
  if (fabs(q) < pivmin) q = -pivmin;
  cnt += q < T(0);
  for (int i = 1; i < n; ++i) {
    q = (d[i] - x) - e2[i - 1] / q;
    if (fabs(q) < pivmin) q = -pivmin;
    cnt += q < T(0);
  }
  return cnt;
}

// Householder reduction to tridiagonal form of the packed lower triangle A (LAPACK sytd2,
// 'L'): for column k, v = x - alpha e1 (x = A[k+1:, k], alpha = -sign(x0) ||x||),
// tau = 2/v'v, then the trailing update. Writes the diagonal d and e2 = e^2; when `e` is not
// null also the signed off-diagonal e (e[k] = alpha) and each reflector's tau and first
// element v0 (reflector k is (v0[k], A[k+2:, k]) on rows k+1..: later steps never touch
// column k). v and p are n-element scratch. Every thread calls it; ends with a barrier.
template <class T>
__device__ void tridiagonalize_packed(T* A, T* v, T* p, T* d, T* e2, T* e, T* tau, T* v0,
                                      int n, double* red) {
  const int tid = threadIdx.x, nt = blockDim.x;
  for (int k = 0; k + 2 < n; ++k) {
    const int L = n - k - 1;  // length of x = A[k+1:, k]
    const int o = k + 1;      // offset of the trailing block
    double loc = 0.0;
    for (int i = k + 2 + tid; i < n; i += nt) {
      const double x = double(A[tri(i) + k]);
      loc += x * x;
    }
    const double sigma = block_sum(loc, red);
    const double x0 = double(A[tri(o) + k]);
    if (sigma == 0.0) {  // column already reduced: H = I
      if (tid == 0) {
        d[k] = A[tri(k) + k];
        e2[k] = T(x0 * x0);
        if (e) {
          e[k] = T(x0);
          tau[k] = T(0);
          v0[k] = T(0);
        }
      }
      continue;  // (the next block sum's barriers order everything)
    }
    const double normx = sqrt(sigma + x0 * x0);
    const double alpha = x0 > 0.0 ? -normx : normx;
    const double v0k = x0 - alpha;
    const double tauk = 2.0 / (sigma + v0k * v0k);
    for (int i = tid; i < L; i += nt) v[i] = (i == 0) ? T(v0k) : A[tri(o + i) + k];
    if (tid == 0) {
      d[k] = A[tri(k) + k];
      e2[k] = T(alpha * alpha);
      if (e) {
        e[k] = T(alpha);
        tau[k] = T(tauk);
        v0[k] = T(v0k);
      }
    }
    __syncthreads();
    householder_sym_update(A, v, p, tauk, o, L, red);
    __syncthreads();
  }
  if (tid == 0) {
    if (n >= 2) {
      const T last = A[tri(n - 1) + (n - 2)];
      d[n - 2] = A[tri(n - 2) + (n - 2)];
      e2[n - 2] = last * last;
      if (e) {
        e[n - 2] = last;
        tau[n - 2] = T(0);
        v0[n - 2] = T(0);
      }
    }
    d[n - 1] = A[tri(n - 1) + (n - 1)];
  }
  __syncthreads();
}

// Bisection bounds for the tridiagonal (d, e2): the Gershgorin interval [gl, gu] widened as
// LAPACK's stebz does, its largest magnitude gmax, the Sturm pivot guard and the
// convergence tolerance (each thread computes them; O(n)).
template <class T>
struct BisectionBounds {
  T gl, gu, gmax, pivmin, tol;
};

template <class T>
__device__ BisectionBounds<T> bisection_bounds(const T* d, const T* e2, int n) {
  T gl = d[0], gu = d[0], emax2 = T(0);
  for (int i = 0; i < n; ++i) {
    const T el = i > 0 ? sqrt(e2[i - 1]) : T(0);
    const T er = i + 1 < n ? sqrt(e2[i]) : T(0);
    gl = fmin(gl, d[i] - el - er);
    gu = fmax(gu, d[i] + el + er);
    if (i + 1 < n) emax2 = fmax(emax2, e2[i]);
  }
  const T eps = Limits<T>::eps();
  BisectionBounds<T> b;
  b.pivmin = Limits<T>::tiny() * fmax(T(1), emax2);
  b.gmax = fmax(fabs(gl), fabs(gu));
  b.gl = gl - T(2) * b.gmax * eps * T(n) - T(2) * b.pivmin;
  b.gu = gu + T(2) * b.gmax * eps * T(n) + T(2) * b.pivmin;
  b.tol = T(2) * eps * b.gmax;
  return b;
}

}  // namespace eigen_detail
}  // namespace gpuarr
