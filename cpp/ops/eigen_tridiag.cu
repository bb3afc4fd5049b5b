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
#include "ops/eigen_tridiag_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

using eigen_detail::sturm_count;
using eigen_detail::tri;
using eigen_detail::tridiagonalize_packed;

constexpr int kMaxThreads = 512;

template <class T>
__global__ void __launch_bounds__(kMaxThreads)
    tridiag_eigvals_kernel(const T* __restrict__ cm, T* __restrict__ w_out, int n, bool lower) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = threadIdx.x, nt = blockDim.x;
  // Layout (sizes must match own_values_smem_bytes in core/eigen_plan.cpp): the packed
  // triangle and its vectors, then the block reduction scratch.
  const auto sc = eigen_detail::packed_tridiag_scratch<T>(smem, n);
  T *A = sc.A, *v = sc.v, *p = sc.p, *d = sc.d, *e2 = sc.e2;
  uintptr_t r = reinterpret_cast<uintptr_t>(sc.rest);
  r = (r + 7) & ~uintptr_t(7);
  double* red = reinterpret_cast<double*>(r);  // [34]

  const size_t b = blockIdx.x;
  cm += b * size_t(n) * n;
  int scale_exp = 0;
  if (!eigen_detail::load_scaled_packed_lower(cm, n, lower, A, red, scale_exp)) {
    for (int i = tid; i < n; i += nt) w_out[b * n + i] = T(NAN);
    return;
  }
  tridiagonalize_packed<T>(A, v, p, d, e2, nullptr, nullptr, nullptr, n, red);

  // Bisection, one thread per eigenvalue index, so the eigenvalues come out ascending.
  const auto bb = eigen_detail::bisection_bounds(d, e2, n);
  const T gl = bb.gl, gu = bb.gu, pivmin = bb.pivmin, tol = bb.tol;
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
  const int threads = own_kernel_threads(n);
  auto kernel = tridiag_eigvals_kernel<T>;
  eigen_detail::opt_in_smem<tridiag_eigvals_kernel<T>>(smem);
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
