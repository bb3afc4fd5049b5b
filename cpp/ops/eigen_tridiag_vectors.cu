// eigh WITH eigenvectors of batches of small/medium real symmetric matrices (method "own"):
// one thread block per matrix, everything in shared memory.
//  1. Householder tridiagonalisation of the packed lower triangle as eigen_tridiag.cu
//     (LAPACK sytd2 'L'), keeping each reflector H_k = I - tau_k v v': v goes to row k of
//     this matrix's output block in global memory (scratch until the final write; L2
//     resident), tau_k to tau[]; e keeps alpha's sign. Z then reuses the packed triangle's
//     shared memory, so the peak is n^2 elements, not 1.5 n^2 (float32 n = 100: 45 KB, four
//     blocks per SM: 500 matrices in one wave on 132 SMs).
//  2. Implicit QL (core/tridiag_ql.hpp, the code the CPU unit test checks) on (d, e): thread
//     0 runs the serial rotation chain of one iteration into one of two (c, s) buffers while
//     the threads of the other warps apply the previous iteration's rotations to the rows of
//     Z (each thread owns rows: no barrier per rotation), one __syncthreads per iteration.
//  3. Back-transform V = H_0 ... H_{n-3} Z: reflectors in reverse order, each staged from
//     global into one of two shared buffers (one barrier per reflector), one thread per
//     column of Z.
//  4. Eigenvalues ranked (NaN last, ties by index) and written ascending with their columns:
//     w (batch, n), v (batch, n, n) in C order with eigenvectors as columns (as the Jacobi
//     kernel writes them).
// The chain runs in the matrix's precision (float32 in float, as LAPACK's ssteqr).
// Non-finite input or no convergence: NaN results (as the other own kernels).
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "core/eigen_plan.hpp"
#include "core/errors.hpp"
#include "core/tridiag_ql.hpp"
#include "ops/array_ops.hpp"
#include "ops/eigen.hpp"
#include "ops/eigen_block_common.cuh"
#include "ops/eigen_tridiag_common.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

using eigen_detail::block_sum;
using eigen_detail::rank_less;
using eigen_detail::tri;

constexpr int kMaxThreads = 512;

template <class T>
__global__ void __launch_bounds__(kMaxThreads)
    tridiag_eigh_kernel(const T* __restrict__ cm, T* __restrict__ w_out, T* __restrict__ v_out,
                        int n, bool lower) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int tid = threadIdx.x, nt = blockDim.x;
  // Layout (sizes must match own_vectors_smem_bytes in core/eigen_plan.cpp).
  const int ld = n | 1;  // odd row stride of Z: the row-owned rotations hit distinct banks
  T* A = reinterpret_cast<T*>(smem);  // packed lower triangle by rows: A(i, j) = A[tri(i) + j]
  T* Z = A;                           // n x ld, after the tridiagonalisation (n * ld >= tri(n))
  T* hv = Z + size_t(n) * ld;         // [n] the current Householder vector
  T* p = hv + n;                      // [n]
  T* tau = p + n;                     // [n]
  T* cs = tau + n;                    // [2][n] rotation buffers
  T* sn = cs + 2 * n;                 // [2][n]
  int* rank = reinterpret_cast<int*>(sn + 2 * n);  // [n]
  int* ctrl = rank + n;                            // [4] (lo, hi) of each buffer
  // (Offsets from smem itself, not through integers, so that the compiler keeps the shared
  // address space: ld.shared instead of generic loads on the QL chain.)
  size_t off = (size_t(n) * ld + 7 * size_t(n)) * sizeof(T) + (size_t(n) + 4) * 4;
  off = (off + 7) & ~size_t(7);
  T* d = reinterpret_cast<T*>(smem + off);  // [n]
  T* e = d + n;                             // [n]
  off = (off + 2 * size_t(n) * sizeof(T) + 7) & ~size_t(7);
  double* red = reinterpret_cast<double*>(smem + off);  // [34]

  const size_t b = blockIdx.x;
  cm += b * size_t(n) * n;
  T* vo = v_out + b * size_t(n) * n;
  int scale_exp = 0;
  if (!eigen_detail::load_scaled_packed_lower(cm, n, lower, A, red, scale_exp)) {
    for (int i = tid; i < n; i += nt) w_out[b * n + i] = T(NAN);
    for (int idx = tid; idx < n * n; idx += nt) vo[idx] = T(NAN);
    return;
  }

  // 1. Householder reduction, keeping the reflectors.
  for (int k = 0; k + 2 < n; ++k) {
    const int L = n - k - 1;
    const int o = k + 1;
    double loc = 0.0;
    for (int i = k + 2 + tid; i < n; i += nt) {
      const double x = double(A[tri(i) + k]);
      loc += x * x;
    }
    const double sigma = block_sum(loc, red);
    const double x0 = double(A[tri(o) + k]);
    if (sigma == 0.0) {  // column already reduced: H = I
      if (tid == 0) {
        d[k] = T(A[tri(k) + k]);
        e[k] = T(x0);
        tau[k] = T(0);
      }
      continue;  // (the next block sum's barriers order everything)
    }
    const double normx = sqrt(sigma + x0 * x0);
    const double alpha = x0 > 0.0 ? -normx : normx;
    const double v0 = x0 - alpha;
    const double tk = 2.0 / (sigma + v0 * v0);
    for (int i = tid; i < L; i += nt) {
      const T vi = (i == 0) ? T(v0) : A[tri(o + i) + k];
      hv[i] = vi;
      vo[size_t(k) * n + i] = vi;  // kept for step 3
    }
    if (tid == 0) {
      d[k] = T(A[tri(k) + k]);
      e[k] = T(alpha);
      tau[k] = T(tk);
    }
    __syncthreads();  // hv is complete
    eigen_detail::householder_sym_update(A, hv, p, tk, o, L, red);
    __syncthreads();
  }
  if (tid == 0) {
    if (n >= 2) {
      d[n - 2] = T(A[tri(n - 2) + (n - 2)]);
      e[n - 2] = T(A[tri(n - 1) + (n - 2)]);
    }
    d[n - 1] = T(A[tri(n - 1) + (n - 1)]);
  }
  __syncthreads();  // A is dead from here: Z takes its place
  for (int idx = tid; idx < n * ld; idx += nt) {
    const int i = idx / ld, j = idx - i * ld;
    Z[idx] = (i == j) ? T(1) : T(0);
  }
  // (The workers first touch Z after the barrier of QL phase 0.)

  // 2. QL on the tridiagonal, pipelined: chain t (thread 0) || rotations t-1 (other warps).
  const int wbase = nt > 32 ? 32 : 0;
  QlState<T> st;
  if (tid == 0) ql_init(d, e, n, st);
  int status = 0;
  for (int t = 0;; ++t) {
    const int cur = t & 1;
    if (tid == 0) {
      int lo = 0, hi = 0;
      const int rc = ql_step(d, e, n, st, cs + cur * n, sn + cur * n, &lo, &hi, 30 * n);
      ctrl[2 * cur] = rc == 1 ? lo : (rc == 0 ? -1 : -2);
      ctrl[2 * cur + 1] = hi;
    }
    if (t > 0 && tid >= wbase) {
      const int prev = cur ^ 1;
      const int lo = ctrl[2 * prev], hi = ctrl[2 * prev + 1];
      for (int k = tid - wbase; k < n; k += nt - wbase)
        ql_apply_row(Z + size_t(k) * ld, cs + prev * n, sn + prev * n, lo, hi);
    }
    __syncthreads();
    const int flag = ctrl[2 * cur];
    if (flag < 0) {
      status = flag;
      break;
    }
  }
  if (status == -2) {  // no convergence: NaN (never a wrong answer)
    for (int i = tid; i < n; i += nt) w_out[b * n + i] = T(NAN);
    for (int idx = tid; idx < n * n; idx += nt) vo[idx] = T(NAN);
    return;
  }

  // 3. V = H_0 ... H_{n-3} Z. Each reflector is staged into hv or p, alternating by the
  // count of staged ones (NOT by k: skipped reflectors have no barrier), so that a buffer
  // is rewritten only after the barrier of the staging in between; one barrier each.
  int staged = 0;
  for (int k = n - 3; k >= 0; --k) {
    const T tk = tau[k];
    if (tk == T(0)) continue;  // (uniform: tau is shared)
    const int L = n - k - 1;
    T* buf = (staged++ & 1) ? p : hv;
    for (int i = tid; i < L; i += nt) buf[i] = vo[size_t(k) * n + i];
    __syncthreads();
    for (int j = tid; j < n; j += nt) {
      T* zc = Z + size_t(k + 1) * ld + j;
      // Four partial sums: the dot product is a chain of dependent FMAs otherwise.
      T s0 = T(0), s1 = T(0), s2 = T(0), s3 = T(0);
      int i = 0;
      for (; i + 4 <= L; i += 4) {
        s0 += buf[i] * zc[size_t(i) * ld];
        s1 += buf[i + 1] * zc[size_t(i + 1) * ld];
        s2 += buf[i + 2] * zc[size_t(i + 2) * ld];
        s3 += buf[i + 3] * zc[size_t(i + 3) * ld];
      }
      for (; i < L; ++i) s0 += buf[i] * zc[size_t(i) * ld];
      const T s = ((s0 + s1) + (s2 + s3)) * tk;
      T* zw = zc;
      for (int i = 0; i < L; ++i, zw += ld) *zw -= s * buf[i];
    }
  }

  // 4. Ascending eigenvalues with their vectors.
  for (int i = tid; i < n; i += nt) {
    const T di = d[i];
    int rk = 0;
    for (int j = 0; j < n; ++j) rk += rank_less(d[j], j, di, i) ? 1 : 0;
    rank[i] = rk;
    w_out[b * n + rk] = T(ldexp(double(di), scale_exp));
  }
  __syncthreads();  // rank[], the columns of Z, and every read of the reflectors in vo
  for (int idx = tid; idx < n * n; idx += nt) {
    const int row = idx / n, i = idx - row * n;
    vo[size_t(row) * n + rank[i]] = Z[size_t(row) * ld + i];
  }
}

template <class T>
void launch_typed(const void* cm, void* w, void* v, int64_t batch, int64_t n, bool lower,
                  cudaStream_t stream) {
  const DType dt = sizeof(T) == 4 ? DType::Float32 : DType::Float64;
  const size_t smem = own_vectors_smem_bytes(n, dt);
  const int threads = own_vectors_threads(n);
  auto kernel = tridiag_eigh_kernel<T>;
  eigen_detail::opt_in_smem<tridiag_eigh_kernel<T>>(smem);
  eigen_detail::for_each_block_grid(batch, [&](int64_t b0, unsigned nb) {
    kernel<<<nb, threads, smem, stream>>>(static_cast<const T*>(cm) + b0 * n * n,
                                          static_cast<T*>(w) + b0 * n,
                                          static_cast<T*>(v) + b0 * n * n, static_cast<int>(n),
                                          lower);
    check_launch("tridiag_eigh_kernel");
  });
}

}  // namespace

void launch_tridiag_eigh(const void* cm, void* w, void* v, int64_t batch, int64_t n,
                         DType dtype, bool lower, cudaStream_t stream) {
  if (batch == 0 || n == 0) return;
  if (dtype == DType::Float32) {
    launch_typed<float>(cm, w, v, batch, n, lower, stream);
  } else if (dtype == DType::Float64) {
    launch_typed<double>(cm, w, v, batch, n, lower, stream);
  } else {
    throw TypeError("the tridiagonal eigh kernel handles float32 and float64 only");
  }
}

EighResult eigh_solve_dispatch(const NDArray& a_in, bool lower, bool compute_v,
                               EigMethod requested) {
  if (!compute_v) return eigh_solve(a_in, lower, compute_v, requested);
  // Same checks, in the same order, as eigh_solve.
  const SquareStack st = check_square_stack(a_in.shape);
  const DType ct = eigen_compute_dtype(a_in.dtype);
  const DType out_t = eigen_result_dtype(a_in.dtype);
  const int64_t n = st.n, batch = st.batch;
  if (batch == 0 || n == 0) return eigh_solve(a_in, lower, compute_v, requested);
  const EigMethod method =
      choose_eigh_method(requested, n, batch, ct, compute_v, eigh_availability());
  if (method != EigMethod::Own) return eigh_solve(a_in, lower, compute_v, method);

  const NDArray cm = transpose_copy(a_in, ct);  // column-major, compute dtype
  const cudaStream_t stream = stream_for(cm);
  Dims w_shape = st.batch_shape;
  w_shape.push_back(n);
  NDArray w = empty_array(w_shape, ct, 'C');  // real compute dtype: w has the same dtype
  NDArray v = empty_array(a_in.shape, ct, 'C');
  launch_tridiag_eigh(cm.data(), w.data(), v.data(), batch, n, ct, lower, stream);
  EighResult res;
  res.method = EigMethod::Own;
  res.w = (out_t == ct) ? w : copy_array(w, out_t, 'C');
  res.v = (out_t == ct) ? v : copy_array(v, out_t, 'C');
  return res;
}

}  // namespace gpuarr
