// One eigenpair (w_k, q_k) of each matrix in a batch of small/medium real symmetric
// matrices, for gpuarr.torch.kth_eigvalh, whose value and gradient (q q') need nothing else.
// One thread block per matrix, in shared memory:
//  1. the packed lower triangle is reduced to tridiagonal T = Q' A Q as in eigen_tridiag.cu,
//     keeping the reflectors (Q = H_0 ... H_{n-3});
//  2. w_k by multisection on T's Sturm counts: each round, every thread counts at its own
//     point of the bracket, which shrinks by a factor blockDim + 1 (4 rounds in float32);
//  3. T's eigenvector y for w_k by inverse iteration (LAPACK stein's method: tridiagonal LU
//     with partial pivoting, a fixed pseudo-random start, three solves), then q = Q y.
// Matrices are read in C order (batch, n, n), only the UPLO triangle; outputs w (batch) and,
// when q is not null, q (batch, n), unit norm, sign arbitrary. A degenerate w_k gets some
// unit vector of its eigenspace. Non-finite input: NaN outputs (as the other own kernels).
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <mutex>

#include "core/eigen_plan.hpp"
#include "core/errors.hpp"
#include "ops/eigen.hpp"
#include "ops/eigen_block_common.cuh"
#include "ops/eigen_tridiag_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

using eigen_detail::block_sum;
using eigen_detail::Limits;
using eigen_detail::tri;

constexpr int kMaxThreads = 512;

// The j-th of nt interior points of [lo, hi]; one compiled body, so the thread that counts
// there and the thread that moves the bracket there compute the same value.
template <class T>
__device__ __noinline__ T multisection_point(T lo, T hi, int j, int nt) {
  return lo + (hi - lo) * (T(j + 1) / T(nt + 1));
}

// Solves (T - lambda I) x = y in place for the tridiagonal (d, e), factored by Gaussian
// elimination with partial pivoting (u0, u1, u2: U's three diagonals; l, piv: the row
// operations); zero pivots are replaced by `guard`. One thread.
template <class T>
__device__ void factor_shifted_tridiagonal(const T* d, const T* e, int n, T lambda, T guard,
                                           T* l, T* u0, T* u1, T* u2, T* piv) {
  T a = d[0] - lambda, b = n > 1 ? e[0] : T(0);
  for (int i = 0; i + 1 < n; ++i) {
    const T c = e[i];                                  // M[i+1][i]
    const T dn = d[i + 1] - lambda;                    // M[i+1][i+1]
    const T sn = i + 2 < n ? e[i + 1] : T(0);          // M[i+1][i+2]
    if (fabs(a) >= fabs(c)) {
      if (a == T(0)) a = guard;
      const T m = c / a;
      u0[i] = a; u1[i] = b; u2[i] = T(0); l[i] = m; piv[i] = T(0);
      a = dn - m * b;
      b = sn;
    } else {  // swap rows i and i+1
      const T m = a / c;
      u0[i] = c; u1[i] = dn; u2[i] = sn; l[i] = m; piv[i] = T(1);
      a = b - m * dn;
      b = -m * sn;
    }
  }
  if (fabs(a) < guard) a = a < T(0) ? -guard : guard;
  u0[n - 1] = a;
}

template <class T>
__device__ void solve_factored_tridiagonal(int n, const T* l, const T* u0, const T* u1,
                                           const T* u2, const T* piv, T* x) {
  for (int i = 0; i + 1 < n; ++i) {
    if (piv[i] != T(0)) {
      const T t = x[i];
      x[i] = x[i + 1];
      x[i + 1] = t;
    }
    x[i + 1] -= l[i] * x[i];
  }
  x[n - 1] /= u0[n - 1];
  if (n >= 2) x[n - 2] = (x[n - 2] - u1[n - 2] * x[n - 1]) / u0[n - 2];
  for (int i = n - 3; i >= 0; --i) x[i] = (x[i] - u1[i] * x[i + 1] - u2[i] * x[i + 2]) / u0[i];
}

template <class T>
__global__ void __launch_bounds__(kMaxThreads)
    kth_eigenpair_kernel(const T* __restrict__ cm, T* __restrict__ w_out,
                         T* __restrict__ q_out, int n, int k, bool lower) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = threadIdx.x, nt = blockDim.x;
  // Layout (sizes must match kth_eigenpair_smem_bytes in core/eigen_plan.cpp): the packed
  // triangle and its vectors, 9 more vectors of n, kMaxThreads multisection points, the
  // block reduction scratch, the multisection's first hit.
  const auto sc = eigen_detail::packed_tridiag_scratch<T>(smem, n);
  T *A = sc.A, *v = sc.v, *p = sc.p, *d = sc.d, *e2 = sc.e2;
  T* e = sc.rest;
  T* tau = e + n;
  T* v0 = tau + n;
  T* y = v0 + n;
  T* l = y + n;
  T* u0 = l + n;
  T* u1 = u0 + n;
  T* u2 = u1 + n;
  T* piv = u2 + n;
  T* pts = piv + n;
  uintptr_t r = reinterpret_cast<uintptr_t>(pts + kMaxThreads);
  r = (r + 7) & ~uintptr_t(7);
  double* red = reinterpret_cast<double*>(r);  // [34]
  int* first_hit = reinterpret_cast<int*>(red + 34);

  const size_t b = blockIdx.x;
  cm += b * size_t(n) * n;
  int scale_exp = 0;
  if (!eigen_detail::load_scaled_packed_lower(cm, n, lower, A, red, scale_exp)) {
    if (tid == 0) w_out[b] = T(NAN);
    if (q_out)
      for (int i = tid; i < n; i += nt) q_out[b * n + i] = T(NAN);
    return;
  }
  eigen_detail::tridiagonalize_packed<T>(A, v, p, d, e2, e, tau, v0, n, red);

  // w_k: the bracket [lo, hi] keeps count(lo) <= k < count(hi).
  const auto bb = eigen_detail::bisection_bounds(d, e2, n);
  T lo = bb.gl, hi = bb.gu;
  for (int round = 0; round < 64 && hi - lo > bb.tol; ++round) {
    if (tid == 0) *first_hit = nt;
    const T x = multisection_point(lo, hi, tid, nt);
    pts[tid] = x;
    __syncthreads();
    const bool above = !(x > lo) ? false
                       : !(x < hi) ? true
                                   : eigen_detail::sturm_count(d, e2, n, x, bb.pivmin) > k;
    if (above) atomicMin(first_hit, tid);
    __syncthreads();
    const int j = *first_hit;
    const T new_lo = j == 0 ? lo : pts[j - 1];
    const T new_hi = j == nt ? hi : pts[j];
    __syncthreads();  // pts and first_hit are rewritten next round
    if (new_lo == lo && new_hi == hi) break;  // no representable point left inside
    lo = new_lo;
    hi = new_hi;
  }
  const T lambda = T(0.5) * (lo + hi);
  if (tid == 0) w_out[b] = T(ldexp(double(lambda), scale_exp));
  if (!q_out) return;

  // y: inverse iteration on T - lambda I (one thread), normalized by its largest entry
  // after each solve so that nothing overflows.
  if (tid == 0) {
    const T guard = Limits<T>::eps() * fmax(bb.gmax, Limits<T>::tiny());
    factor_shifted_tridiagonal(d, e, n, lambda, guard, l, u0, u1, u2, piv);
    for (int i = 0; i < n; ++i) {  // fixed pseudo-random start in [-1, 1)
      const uint32_t h = (uint32_t(i) + 1u) * 2654435761u;
      y[i] = T(int((h >> 8) & 0xffffu) - 32768) / T(32768) + T(1) / T(65536);
    }
    for (int it = 0; it < 3; ++it) {
      solve_factored_tridiagonal(n, l, u0, u1, u2, piv, y);
      T m = T(0);
      for (int i = 0; i < n; ++i) m = fmax(m, fabs(y[i]));
      const T s = m > T(0) ? T(1) / m : T(1);
      for (int i = 0; i < n; ++i) y[i] *= s;
    }
  }
  __syncthreads();
  // q = H_0 (H_1 (... H_{n-3} y)): reflector kk acts on rows kk+1.. with vector
  // (v0[kk], A[kk+2:, kk]).
  for (int kk = n - 3; kk >= 0; --kk) {
    if (tau[kk] == T(0)) continue;  // (uniform: tau is in shared memory)
    double loc = 0.0;
    for (int i = kk + 1 + tid; i < n; i += nt) {
      const T vi = i == kk + 1 ? v0[kk] : A[tri(i) + kk];
      loc += double(vi) * double(y[i]);
    }
    const T f = T(double(tau[kk]) * block_sum(loc, red));
    for (int i = kk + 1 + tid; i < n; i += nt) {
      const T vi = i == kk + 1 ? v0[kk] : A[tri(i) + kk];
      y[i] -= f * vi;
    }
    __syncthreads();
  }
  double sq = 0.0;
  for (int i = tid; i < n; i += nt) sq += double(y[i]) * double(y[i]);
  const T inv_norm = T(1.0 / sqrt(block_sum(sq, red)));
  for (int i = tid; i < n; i += nt) q_out[b * n + i] = y[i] * inv_norm;
}

template <class T>
void launch_typed(const void* a, void* w, void* q, int64_t batch, int64_t n, int64_t k,
                  bool lower, cudaStream_t stream) {
  const DType dt = sizeof(T) == 4 ? DType::Float32 : DType::Float64;
  const size_t smem = kth_eigenpair_smem_bytes(n, dt);
  const int threads = own_kernel_threads(n);
  auto kernel = kth_eigenpair_kernel<T>;
  eigen_detail::opt_in_smem<kth_eigenpair_kernel<T>>(smem);
  // The kernel reads column-major matrices: C order is the transpose, whose lower triangle
  // is the C-order matrix's upper one.
  eigen_detail::for_each_block_grid(batch, [&](int64_t b0, unsigned nb) {
    kernel<<<nb, threads, smem, stream>>>(static_cast<const T*>(a) + b0 * n * n,
                                          static_cast<T*>(w) + b0,
                                          q ? static_cast<T*>(q) + b0 * n : nullptr,
                                          static_cast<int>(n), static_cast<int>(k), !lower);
    check_launch("kth_eigenpair_kernel");
  });
}

// gA[b] = g[b] q_b q_b' for the backward of the k-th eigenvalue, one thread per element
// (grid-stride). q_i q_j is formed first, as PyTorch's q q' * g does, so gA is exactly
// symmetric and equal to that expression. Index is 32-bit where the whole batch fits, as
// 64-bit division costs several times more.
template <class T, class Index>
__global__ void kth_gradient_kernel(const T* __restrict__ q, const T* __restrict__ g,
                                    T* __restrict__ ga, Index total, Index n) {
  const Index nn = n * n;
  for (Index idx = blockIdx.x * Index(blockDim.x) + threadIdx.x; idx < total;
       idx += Index(gridDim.x) * blockDim.x) {
    const Index b = idx / nn;
    const Index r = idx - b * nn;
    const Index i = r / n;
    const T* qb = q + b * n;
    ga[idx] = (qb[i] * qb[r - i * n]) * g[b];
  }
}

template <class T>
void launch_gradient_typed(const void* q, const void* g, void* ga, int64_t total, int64_t n,
                           cudaStream_t stream) {
  constexpr int kThreads = 256;
  const dim3 grid = grid_for(total, kThreads);
  // (the grid-stride step must not overflow the index either)
  const int64_t step = int64_t(grid.x) * kThreads;
  if (total + step <= INT32_MAX)
    kth_gradient_kernel<T, int32_t><<<grid, kThreads, 0, stream>>>(
        static_cast<const T*>(q), static_cast<const T*>(g), static_cast<T*>(ga),
        static_cast<int32_t>(total), static_cast<int32_t>(n));
  else
    kth_gradient_kernel<T, int64_t><<<grid, kThreads, 0, stream>>>(
        static_cast<const T*>(q), static_cast<const T*>(g), static_cast<T*>(ga), total, n);
  check_launch("kth_gradient_kernel");
}

}  // namespace

bool launch_kth_gradient(const void* q, const void* g, void* ga, int64_t batch, int64_t n,
                         DType dtype, cudaStream_t stream) {
  if (batch < 0 || n < 0 || (dtype != DType::Float32 && dtype != DType::Float64))
    return false;
  const int64_t total = batch * n * n;
  if (total == 0) return true;
  if (dtype == DType::Float32) launch_gradient_typed<float>(q, g, ga, total, n, stream);
  else launch_gradient_typed<double>(q, g, ga, total, n, stream);
  return true;
}

bool launch_kth_eigenpair(const void* a, void* w, void* q, int64_t batch, int64_t n,
                          int64_t k, DType dtype, bool lower, cudaStream_t stream) {
  if (k < 0 || k >= n || batch < 0 ||
      !kth_eigenpair_fits(n, dtype, eigh_availability().smem_limit))
    return false;
  if (batch == 0) return true;
  if (dtype == DType::Float32) launch_typed<float>(a, w, q, batch, n, k, lower, stream);
  else launch_typed<double>(a, w, q, batch, n, k, lower, stream);
  return true;
}

}  // namespace gpuarr
