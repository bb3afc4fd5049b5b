// eigh of batches of small/medium real symmetric matrices: one thread block per matrix,
// the matrix (and the eigenvector matrix) in shared memory, parallel cyclic Jacobi.
//
// Each sweep is m-1 rounds of a round-robin tournament over the m (even; an odd n gets a
// decoupled zero row/column that is never rotated because its off-diagonal stays exactly 0)
// indices; a round pairs every index once, so its m/2 rotations are disjoint and the whole
// round is A <- J^T A J with J block-diagonal up to a permutation. Step 1 computes the
// rotations (one thread per pair, Rutishauser's formulas); step 2 updates every 2x2 block
// (pair a rows, pair b cols) independently (one thread per block with a <= b, writing the
// mirrored block too, so A stays exactly symmetric) and V <- V J. Sweeps stop when the
// off-diagonal Frobenius norm is <= eps * ||A||_F (checked once per sweep, on A / max|A|);
// NaN/inf input gives NaN results at once (as LAPACK gives NumPy), never a long loop.
// Finally eigenvalues are ranked (NaN last, ties by index: a permutation) and written
// ascending with their vectors.
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

using eigen_detail::block_max;
using eigen_detail::block_sum;
using eigen_detail::rank_less;

constexpr int kMaxThreads = 512;

template <class T, bool kVectors>
__global__ void __launch_bounds__(kMaxThreads)
    jacobi_eigh_kernel(const T* __restrict__ cm, T* __restrict__ w_out, T* __restrict__ v_out,
                       int n, bool lower, int max_sweeps, double tol2) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int m = n + (n & 1);
  const int ld = m + 1;
  const int P = m / 2;
  const int tid = threadIdx.x, nt = blockDim.x;

  // Layout (sizes must match own_kernel_smem_bytes in core/eigen_plan.cpp).
  T* A = reinterpret_cast<T*>(smem);
  T* V = A + m * ld;                       // only used when kVectors
  T* cs = kVectors ? V + m * ld : V;       // c[P]
  T* sn = cs + P;                          // s[P]
  T* tn = sn + P;                          // t[P]
  int* pp = reinterpret_cast<int*>(tn + P);
  int* qq = pp + P;
  int* act = qq + P;                       // [P] rotation k of this round is not identity
  int* rank = act + P;                     // [m]
  uintptr_t r = reinterpret_cast<uintptr_t>(rank + m);
  r = (r + 7) & ~uintptr_t(7);
  double* red = reinterpret_cast<double*>(r);  // [34]

  const size_t b = blockIdx.x;
  cm += b * size_t(n) * n;

  // Load the named triangle (cm is column-major: A[i][j] = cm[j*n + i]) and mirror it.
  double amax_local = 0.0, bad_local = 0.0;
  for (int idx = tid; idx < m * m; idx += nt) {
    const int i = idx % m, j = idx / m;
    T val = T(0);
    if (i < n && j < n) {
      const bool stored = lower ? (i >= j) : (i <= j);
      val = stored ? cm[size_t(j) * n + i] : cm[size_t(i) * n + j];
    }
    A[i * ld + j] = val;
    const double av = fabs(double(val));
    if (!(av <= DBL_MAX)) bad_local = 1.0;  // NaN or inf
    else amax_local = fmax(amax_local, av);
    if (kVectors) V[i * ld + j] = (i == j) ? T(1) : T(0);
  }
  const double amax = block_max(amax_local, red);  // (also the barrier after the load)
  if (block_sum(bad_local, red) != 0.0) {
    // Non-finite input: NaN results (as LAPACK gives NumPy), never an endless loop.
    const T nan = T(NAN);
    for (int i = tid; i < n; i += nt) w_out[b * n + i] = nan;
    if (kVectors) {
      T* vo = v_out + b * size_t(n) * n;
      for (int idx = tid; idx < n * n; idx += nt) vo[idx] = nan;
    }
    return;
  }
  // Norms are taken of A / max|A| (no overflow or underflow of the squares).
  const double inv = amax > 0.0 ? 1.0 / amax : 0.0;
  const bool inv_ok = inv <= DBL_MAX;
  double local = 0.0;
  for (int idx = tid; idx < m * m; idx += nt) {
    const int i = idx % m, j = idx / m;
    const double x = inv_ok ? double(A[i * ld + j]) * inv : double(A[i * ld + j]) / amax;
    local += x * x;
  }
  const double fro2 = block_sum(local, red);
  const double thresh = tol2 * fro2;
  // Rotations with |apq| <= skip_abs are skipped (identity): if every off-diagonal entry is
  // below it, off^2 <= m^2 skip^2 = thresh / 4, so the sweeps still end; late sweeps then
  // cost little.
  const T skip_abs = T(0.5 * sqrt(tol2) * sqrt(fro2) * amax / m);

  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    local = 0.0;
    for (int idx = tid; idx < m * m; idx += nt) {
      const int i = idx % m, j = idx / m;
      if (i != j) {
        const double x = inv_ok ? double(A[i * ld + j]) * inv : double(A[i * ld + j]) / amax;
        local += x * x;
      }
    }
    const double off = block_sum(local, red);
    if (!(off > thresh)) break;  // converged (or the zero matrix)

    for (int round = 0; round < m - 1; ++round) {
      // Step 1: the rotation of each pair of this round.
      for (int k = tid; k < P; k += nt) {
        const int a = (k == 0) ? 0 : ((k - 1 + round) % (m - 1)) + 1;
        const int bb = ((m - 2 - k + round) % (m - 1)) + 1;  // position m-1-k
        const int p = min(a, bb), q = max(a, bb);
        const T apq = A[p * ld + q];
        T c = T(1), s = T(0), t = T(0);
        const bool active = fabs(apq) > skip_abs && apq != T(0);
        if (active) {
          const T app = A[p * ld + p], aqq = A[q * ld + q];
          const T theta = (aqq - app) / (T(2) * apq);
          // t = sign(theta) / (|theta| + sqrt(theta^2 + 1)); theta^2 -> inf gives t = 0.
          t = T(1) / (fabs(theta) + sqrt(theta * theta + T(1)));
          if (theta < T(0)) t = -t;
          c = T(1) / sqrt(t * t + T(1));
          s = t * c;
        }
        cs[k] = c;
        sn[k] = s;
        tn[k] = t;
        act[k] = active ? 1 : 0;
        pp[k] = p;
        qq[k] = q;
      }
      __syncthreads();
      // Step 2: A <- J^T A J block by block, V <- V J.
      for (int idx = tid; idx < P * P; idx += nt) {
        const int ka = idx / P, kb = idx % P;
        if (ka > kb || !(act[ka] | act[kb])) continue;  // unchanged block
        const int pa = pp[ka], qa = qq[ka];
        if (ka == kb) {
          const T apq = A[pa * ld + qa];
          const T t = tn[ka];
          A[pa * ld + pa] -= t * apq;
          A[qa * ld + qa] += t * apq;
          A[pa * ld + qa] = T(0);
          A[qa * ld + pa] = T(0);
          continue;
        }
        const int pb = pp[kb], qb = qq[kb];
        const T ca = cs[ka], sa = sn[ka], cb = cs[kb], sb = sn[kb];
        const T x11 = A[pa * ld + pb], x12 = A[pa * ld + qb];
        const T x21 = A[qa * ld + pb], x22 = A[qa * ld + qb];
        // Right rotation (columns pb, qb).
        const T y11 = cb * x11 - sb * x12, y12 = sb * x11 + cb * x12;
        const T y21 = cb * x21 - sb * x22, y22 = sb * x21 + cb * x22;
        // Left rotation (rows pa, qa).
        const T z11 = ca * y11 - sa * y21, z21 = sa * y11 + ca * y21;
        const T z12 = ca * y12 - sa * y22, z22 = sa * y12 + ca * y22;
        A[pa * ld + pb] = z11;
        A[pa * ld + qb] = z12;
        A[qa * ld + pb] = z21;
        A[qa * ld + qb] = z22;
        A[pb * ld + pa] = z11;
        A[qb * ld + pa] = z12;
        A[pb * ld + qa] = z21;
        A[qb * ld + qa] = z22;
      }
      if (kVectors) {
        for (int idx = tid; idx < m * P; idx += nt) {
          const int i = idx % m, k = idx / m;
          if (!act[k]) continue;
          const int p = pp[k], q = qq[k];
          const T c = cs[k], s = sn[k];
          const T vp = V[i * ld + p], vq = V[i * ld + q];
          V[i * ld + p] = c * vp - s * vq;
          V[i * ld + q] = s * vp + c * vq;
        }
      }
      __syncthreads();
    }
  }

  // Rank the eigenvalues (ascending, NaN last) and write them with their vectors.
  for (int i = tid; i < n; i += nt) {
    const T di = A[i * ld + i];
    int rk = 0;
    for (int j = 0; j < n; ++j) rk += rank_less(A[j * ld + j], j, di, i) ? 1 : 0;
    rank[i] = rk;
    w_out[b * n + rk] = di;
  }
  if (kVectors) {
    __syncthreads();
    T* vo = v_out + b * size_t(n) * n;
    for (int idx = tid; idx < n * n; idx += nt) {
      const int row = idx / n, i = idx % n;
      vo[size_t(row) * n + rank[i]] = V[row * ld + i];
    }
  }
}

template <class T, bool kVectors>
void launch_typed(const void* cm, void* w, void* v, int64_t batch, int64_t n, bool lower,
                  cudaStream_t stream) {
  const DType dt = sizeof(T) == 4 ? DType::Float32 : DType::Float64;
  const size_t smem = own_kernel_smem_bytes(n, dt, kVectors);
  const int threads = own_kernel_threads(n);
  auto kernel = jacobi_eigh_kernel<T, kVectors>;
  eigen_detail::opt_in_smem<jacobi_eigh_kernel<T, kVectors>>(smem);
  const double eps = sizeof(T) == 4 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  const int max_sweeps = sizeof(T) == 4 ? 24 : 32;
  eigen_detail::for_each_block_grid(batch, [&](int64_t b0, unsigned nb) {
    kernel<<<nb, threads, smem, stream>>>(
        static_cast<const T*>(cm) + b0 * n * n, static_cast<T*>(w) + b0 * n,
        kVectors ? static_cast<T*>(v) + b0 * n * n : nullptr, static_cast<int>(n), lower,
        max_sweeps, eps * eps);
    check_launch("jacobi_eigh_kernel");
  });
}

}  // namespace

void launch_jacobi_eigh(const void* cm, void* w, void* v, int64_t batch, int64_t n,
                        DType dtype, bool lower, cudaStream_t stream) {
  if (batch == 0 || n == 0) return;
  if (dtype == DType::Float32) {
    if (v) launch_typed<float, true>(cm, w, v, batch, n, lower, stream);
    else launch_typed<float, false>(cm, w, v, batch, n, lower, stream);
  } else if (dtype == DType::Float64) {
    if (v) launch_typed<double, true>(cm, w, v, batch, n, lower, stream);
    else launch_typed<double, false>(cm, w, v, batch, n, lower, stream);
  } else {
    throw TypeError("the Jacobi eigh kernel handles float32 and float64 only");
  }
}

}  // namespace gpuarr
