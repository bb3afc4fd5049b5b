// eigvalsh of batches of small/medium real symmetric matrices: one thread block per matrix,
// the lower triangle of the matrix packed in shared memory (float32 up to n = 336, float64
// up to n = 236 in the H100's 227 KB). Householder tridiagonalisation (as LAPACK's sytd2,
// 'L'): for column k, v = x - alpha e1 (x = A[k+1:, k], alpha = -sign(x0) ||x||), tau = 2/v'v,
// p = tau A22 v, K = tau/2 v'p, w = p - K v, A22 -= v w' + w v' (one warp per row for the
// product and for the update of the lower triangle). Then bisection on the tridiagonal
// matrix (Sturm counts with LAPACK's pivmin guard), one thread per eigenvalue index, so the
// eigenvalues come out ascending. About (2/3) n^3 work instead of Jacobi's ~3 n^3 per sweep.
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "core/eigen_plan.hpp"
#include "core/errors.hpp"
#include "ops/eigen.hpp"
#include "ops/eigen_block_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

using eigen_detail::Limits;
using eigen_detail::tri;

constexpr int kMaxThreads = 512;

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

template <class T>
__global__ void __launch_bounds__(kMaxThreads)
    tridiag_eigvals_kernel(const T* __restrict__ cm, T* __restrict__ w_out, int n, bool lower) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = threadIdx.x, nt = blockDim.x;
  const int lane = tid & 31, warp = tid >> 5, nwarps = nt >> 5;
  // Layout (sizes must match own_values_smem_bytes in core/eigen_plan.cpp): the lower
  // triangle packed by rows, A(i, j) = A[tri(i) + j] for j <= i; then v, p, d, e^2.
  const int np = tri(n);
  T* A = reinterpret_cast<T*>(smem);
  T* v = A + np;
  T* p = v + n;
  T* d = p + n;
  T* e2 = d + n;
  uintptr_t r = reinterpret_cast<uintptr_t>(e2 + n);
  r = (r + 7) & ~uintptr_t(7);
  double* red = reinterpret_cast<double*>(r);  // [34]

  const size_t b = blockIdx.x;
  cm += b * size_t(n) * n;
  double bad_local = 0.0, amax_local = 0.0;
  eigen_detail::load_packed_lower(cm, n, lower, A, warp, nwarps, lane, bad_local, amax_local);
  if (eigen_detail::block_sum(bad_local, red) != 0.0) {  // (also the barrier after the load)
    for (int i = tid; i < n; i += nt) w_out[b * n + i] = T(NAN);
    return;
  }
  // Scale by a power of two (exact) so that max|A| is in [1, 2): squares (e^2, the norms)
  // neither overflow nor underflow in float32; the eigenvalues are scaled back at the end.
  const double amax = eigen_detail::block_max(amax_local, red);
  const int scale_exp = amax > 0.0 ? ilogb(amax) : 0;
  if (scale_exp != 0) {
    for (int t = tid; t < np; t += nt) A[t] = T(ldexp(double(A[t]), -scale_exp));
    __syncthreads();
  }

  // Householder reduction to tridiagonal form (trailing block rows/cols k+1..n-1).
  for (int k = 0; k + 2 < n; ++k) {
    const int L = n - k - 1;  // length of x = A[k+1:, k]
    const int o = k + 1;      // offset of the trailing block
    double loc = 0.0;
    for (int i = k + 2 + tid; i < n; i += nt) {
      const double x = double(A[tri(i) + k]);
      loc += x * x;
    }
    const double sigma = eigen_detail::block_sum(loc, red);
    const double x0 = double(A[tri(o) + k]);
    if (sigma == 0.0) {  // column already reduced: H = I
      if (tid == 0) {
        d[k] = A[tri(k) + k];
        e2[k] = T(x0 * x0);
      }
      continue;  // (the next block sum's barriers order everything)
    }
    const double normx = sqrt(sigma + x0 * x0);
    const double alpha = x0 > 0.0 ? -normx : normx;
    const double v0 = x0 - alpha;
    const double tau = 2.0 / (sigma + v0 * v0);
    for (int i = tid; i < L; i += nt) v[i] = (i == 0) ? T(v0) : A[tri(o + i) + k];
    if (tid == 0) {
      d[k] = A[tri(k) + k];
      e2[k] = T(alpha * alpha);
    }
    __syncthreads();
    eigen_detail::householder_sym_update(A, v, p, tau, o, L, red);
    __syncthreads();
  }
  if (tid == 0) {
    if (n >= 2) {
      const T e = A[tri(n - 1) + (n - 2)];
      d[n - 2] = A[tri(n - 2) + (n - 2)];
      e2[n - 2] = e * e;
    }
    d[n - 1] = A[tri(n - 1) + (n - 1)];
  }
  __syncthreads();

  // Bisection: Gershgorin interval (each thread computes it; O(n)), then eigenvalue kk.
  T gl = d[0], gu = d[0], emax2 = T(0);
  for (int i = 0; i < n; ++i) {
    const T el = i > 0 ? sqrt(e2[i - 1]) : T(0);
    const T er = i + 1 < n ? sqrt(e2[i]) : T(0);
    gl = fmin(gl, d[i] - el - er);
    gu = fmax(gu, d[i] + el + er);
    if (i + 1 < n) emax2 = fmax(emax2, e2[i]);
  }
  const T eps = Limits<T>::eps();
  const T pivmin = Limits<T>::tiny() * fmax(T(1), emax2);
  const T gmax = fmax(fabs(gl), fabs(gu));
  gl = gl - T(2) * gmax * eps * T(n) - T(2) * pivmin;
  gu = gu + T(2) * gmax * eps * T(n) + T(2) * pivmin;
  const T tol = T(2) * eps * gmax;
  for (int kk = tid; kk < n; kk += nt) {
    T lo = gl, hi = gu;
    for (int it = 0; it < 256; ++it) {
      if (!(hi - lo > tol)) break;
      const T mid = T(0.5) * (lo + hi);
      if (!(mid > lo && mid < hi)) break;  // no representable midpoint left
      if (sturm_count(d, e2, n, mid, pivmin) > kk) hi = mid;
      else lo = mid;
    }
    w_out[b * n + kk] = T(ldexp(double(T(0.5) * (lo + hi)), scale_exp));
  }
}

template <class T>
void launch_typed(const void* cm, void* w, int64_t batch, int64_t n, bool lower,
                  cudaStream_t stream) {
  const DType dt = sizeof(T) == 4 ? DType::Float32 : DType::Float64;
  const size_t smem = own_values_smem_bytes(n, dt);
  static const char* env = std::getenv("GPUARR_EIGH_THREADS");
  const int threads = threads_override(own_kernel_threads(n), env);
  auto kernel = tridiag_eigvals_kernel<T>;
  static std::mutex mu;
  static uint64_t done_mask = 0;
  eigen_detail::opt_in_smem(kernel, smem, mu, done_mask);
  eigen_detail::for_each_block_grid(batch, [&](int64_t b0, unsigned nb) {
    kernel<<<nb, threads, smem, stream>>>(static_cast<const T*>(cm) + b0 * n * n,
                                          static_cast<T*>(w) + b0 * n, static_cast<int>(n),
                                          lower);
    check_launch("tridiag_eigvals_kernel");
  });
}

}  // namespace

void launch_tridiag_eigvals(const void* cm, void* w, int64_t batch, int64_t n, DType dtype,
                            bool lower, cudaStream_t stream) {
  if (batch == 0 || n == 0) return;
  if (dtype == DType::Float32) launch_typed<float>(cm, w, batch, n, lower, stream);
  else if (dtype == DType::Float64) launch_typed<double>(cm, w, batch, n, lower, stream);
  else throw TypeError("the tridiagonal eigvalsh kernel handles float32 and float64 only");
}

}  // namespace gpuarr
