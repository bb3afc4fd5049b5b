// Symmetric tridiagonal eigensolver (all eigenvalues and eigenvectors), Cuppen divide and
// conquer in float64 with the merges on the GPU (LAPACK dstedc / dlaed0..dlaed4 semantics);
// the per-element math is core/tridiag_dc_math.hpp, shared with the host test.
//
// Shape of the solver. The tree is uniform: every node of depth l covers rows
// [floor(g n / 2^l), floor((g+1) n / 2^l)), all leaves sit at the same depth L (<= LEAF rows
// each), so one level of merges reads one Q buffer and writes the other (ping-pong; the
// leaves pick the buffer that makes the last level land in the caller's Q). A level is a
// fixed set of kernels over all its merges at once (blockIdx = merge) and two strided-batched
// DGEMMs. Deflation is exploited as LAPACK's dlaed2/dlaed3 do: only the "active" columns of
// Q (poles kept or deflated by a rotation) are gathered and multiplied by the compact
// active x active block of the merge's U; columns deflated by a small z are copies of Q's
// columns. The GEMM sizes are the level's maxima over its merges, read back once per level
// (16 bytes a merge, while the secular kernels run), and the level's GEMM scratch is taken
// from the pool at that size. Givens rotations from deflation are never applied to Q (that
// would destroy its block-diagonal shape); they are folded into U in closed form.
#include <cublas_v2.h>

#include <algorithm>
#include <memory>

#include "core/tridiag_dc_math.hpp"
#include "ops/strided.cuh"
#include "ops/tridiag.hpp"
#include "runtime/cublas_handle.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/memory.hpp"
#include "runtime/pinned_memory.hpp"
#include "runtime/stream.hpp"

namespace gpuarr {
namespace tdc {
namespace {

// ------------------------------------------------------------------ kernels
__global__ void k_scale(const double* d, const double* e, int64_t n, double* scale) {
  __shared__ double sm[1024];
  double x = 0;
  for (int64_t i = threadIdx.x; i < 2 * n - 1; i += blockDim.x) x = fmax(x, fabs(i < n ? d[i] : e[i - n]));
  sm[threadIdx.x] = x;
  __syncthreads();
  for (int s = blockDim.x / 2; s; s >>= 1) {
    if (threadIdx.x < s) sm[threadIdx.x] = fmax(sm[threadIdx.x], sm[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) *scale = sm[0] > 0 ? sm[0] : 1.0;
}

// One warp per leaf: lane 0 runs the scalar QL chase, every lane applies the sweep's
// rotations to its own row of Z (shared, column-major).
__global__ void __launch_bounds__(LEAF) k_leaf(const double* d, const double* e, int64_t n, int L,
                                               const double* scale, double* D, double* Q) {
  __shared__ double sd[LEAF], se[LEAF], cs[LEAF], sn[LEAF], Z[LEAF * LEAF];
  __shared__ int go, hi, lo, rk[LEAF];
  const int64_t a = bnd(n, L, blockIdx.x);
  const int sz = int(bnd(n, L, blockIdx.x + 1) - a), t = threadIdx.x;
  if (t < sz) {
    leaf_load(d, e, n, a, sz, t, 1.0 / *scale, sd, se);
    for (int j = 0; j < sz; ++j) Z[j * LEAF + t] = j == t;
  }
  __syncthreads();
  int l = 0, iter = 0;
  for (;;) {
    if (t == 0) go = ql_step(sd, se, sz, &l, &iter, cs, sn, &hi, &lo);
    __syncthreads();
    if (!go) break;
    if (t < sz) for (int i = hi - 1; i >= lo; --i) rot_row(Z, LEAF, t, i, cs[i], sn[i]);
    __syncthreads();
  }
  if (t < sz) { rk[t] = rank_of(sd, sz, t); D[a + rk[t]] = sd[t]; }
  __syncthreads();
  if (t < sz) for (int j = 0; j < sz; ++j) Q[(a + t) + (a + rk[j]) * n] = Z[j * LEAF + t];
}

// Exclusive prefix sums of N per-thread counters over the block (Hillis-Steele); tot gets
// the block totals.
constexpr int PREP = 512;
template <int N> __device__ void block_scan(int* c, int* tot) {
  __shared__ int sc[N][PREP];
  const int t = threadIdx.x;
  for (int q = 0; q < N; ++q) sc[q][t] = c[q];
  __syncthreads();
  for (int off = 1; off < PREP; off <<= 1) {
    int x[N];
    for (int q = 0; q < N; ++q) x[q] = t >= off ? sc[q][t - off] : 0;
    __syncthreads();
    for (int q = 0; q < N; ++q) sc[q][t] += x[q];
    __syncthreads();
  }
  for (int q = 0; q < N; ++q) { tot[q] = sc[q][PREP - 1]; c[q] = sc[q][t] - c[q]; }
  __syncthreads();
}

// z and the merge-sort, small-z deflation and the candidate list in parallel, the rotation
// scan on thread 0, then the active numbering; each thread owns one chunk of sorted indices.
__global__ void __launch_bounds__(PREP) k_prepare(Ws w, int lev, const double* e, const double* Qin) {
  __shared__ double smd[PREP], smz[PREP];
  __shared__ int sK;
  const MV v = mview(w, lev, blockIdx.x);
  const int t = threadIdx.x, ch = (v.m + PREP - 1) / PREP, r0 = min(v.m, t * ch), r1 = min(v.m, r0 + ch);
  const double beta = e[v.a + v.n1 - 1] * (1.0 / *w.scale), rho = 2 * fabs(beta);
  double md = 0, mz = 0;
  for (int i = t; i < v.m; i += PREP) {
    double ad, az;
    prep_elem(v, w.D, Qin, w.n, beta < 0 ? -1.0 : 1.0, i, &ad, &az);
    md = fmax(md, ad); mz = fmax(mz, az);
  }
  smd[t] = md; smz[t] = mz;
  __syncthreads();
  for (int s = PREP / 2; s; s >>= 1) {
    if (t < s) { smd[t] = fmax(smd[t], smd[t + s]); smz[t] = fmax(smz[t], smz[t + s]); }
    __syncthreads();
  }
  const double tol = 8 * EPS * fmax(smd[0], smz[0]);
  int nc[1] = {candidates(v, r0, r1, rho, tol, nullptr)}, tot[3];
  block_scan<1>(nc, tot);
  candidates(v, r0, r1, rho, tol, v.cand + nc[0]);
  __syncthreads();
  if (t == 0) { w.rho[blockIdx.x] = rho; sK = deflate_scan(v, v.cand, tot[0], tol); }
  __syncthreads();
  int c[3] = {0, 0, 0};
  compact_assign(v, r0, r1, &c[0], &c[1], &c[2], true);
  block_scan<3>(c, tot);
  c[2] += sK;
  compact_assign(v, r0, r1, &c[0], &c[1], &c[2], false);
  if (t == 0) { int* o = w.cnt + 4 * blockIdx.x; o[0] = sK; o[1] = tot[2]; o[2] = tot[0]; o[3] = tot[1]; }
}

// One warp per root.
__global__ void k_secular(Ws w, int lev) {
  const MV v = mview(w, lev, blockIdx.y);
  const int K = w.cnt[4 * blockIdx.y], k = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
  if (k >= K) return;
  int o;
  double tau;
  sec_solve(K, v.dl, v.zl, w.rho[blockIdx.y], k, lane, 32, &o, &tau);
  if (lane == 0) { v.org[k] = o; v.tau[k] = tau; v.vals[v.kidx[k]] = v.dl[o] + tau; }
}

__global__ void k_rank_zhat(Ws w, int lev) {
  const MV v = mview(w, lev, blockIdx.y);
  const int K = w.cnt[4 * blockIdx.y], s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < v.m) { const int r = rank_of(v.vals, v.m, s); v.inv[r] = s; w.D[v.a + r] = v.vals[s]; }
  if (s < K) v.zhat[s] = zhat_of(K, v.dl, v.zl, v.org, v.tau, s);
}

__global__ void k_inorm(Ws w, int lev) {
  const MV v = mview(w, lev, blockIdx.y);
  const int K = w.cnt[4 * blockIdx.y], k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < K) v.inorm[k] = inorm_of(K, v.dl, v.zhat, v.dl[v.org[k]], v.tau[k]);
}

// Qc of both halves: blockIdx.y runs over half 1's columns, then half 2's.
__global__ void k_gather(Ws w, int lev, Lay L, const double* Qin) {
  const MV v = mview(w, lev, blockIdx.z);
  const int h = int(blockIdx.y) >= L.k1m, ic = blockIdx.y - h * L.k1m, ld = h ? L.n2m : L.n1m;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < ld) w.pool[blockIdx.z * L.stride + (h ? L.oQ2 : L.oQ1) + i + int64_t(ic) * ld] =
      gather_val(v, w.cnt + 4 * blockIdx.z, Qin, w.n, h, i, ic);
}

// Uc of both halves: x runs over half 1's rows, then half 2's; y is the active column.
__global__ void k_fill(Ws w, int lev, Lay L) {
  const MV v = mview(w, lev, blockIdx.z);
  const int x = blockIdx.x * blockDim.x + threadIdx.x, ac = blockIdx.y;
  if (x >= L.k1m + L.k2m) return;
  const int h = x >= L.k1m, i = x - h * L.k1m;
  w.pool[blockIdx.z * L.stride + (h ? L.oU2 + i + int64_t(ac) * L.k2m : L.oU1 + i + int64_t(ac) * L.k1m)] =
      uc_val(v, w.cnt + 4 * blockIdx.z, h, i, ac);
}

__global__ void k_chain(Ws w, int lev, Lay L) {
  const MV v = mview(w, lev, blockIdx.y);
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < v.m && v.kind[s] == 2) chain_col(v, L, w.pool + blockIdx.y * L.stride, s);
}

__global__ void k_assemble(Ws w, int lev, Lay L, const double* Qin, double* Qout) {
  const MV v = mview(w, lev, blockIdx.z);
  const int R = blockIdx.x * blockDim.x + threadIdx.x, c = blockIdx.y;
  if (R < v.m && c < v.m)
    Qout[(v.a + R) + (v.a + c) * w.n] = assemble_val(v, L, w.pool + blockIdx.z * L.stride, Qin, w.n, R, c);
}

__global__ void k_final(const double* D, const double* scale, double* wv, int64_t n) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) wv[i] = D[i] * *scale;
}

inline unsigned cdiv(int64_t a, int64_t b) { return unsigned((a + b - 1) / b); }

}  // namespace
}  // namespace tdc

void tridiag_dc_eigh(const double* d, const double* e, int64_t n, double* wv, double* Q,
                     cudaStream_t st) {
  using namespace tdc;
  if (n <= 0) return;
  Ws w;
  auto base = allocate_device_memory(carve(nullptr, n, &w));
  carve(base->ptr(), n, &w);
  const int L = w.L;
  // The per-level merge counts come back through page-locked memory; each call waits for
  // its last readback before returning.
  thread_local GrowingPinnedBuffer counts;
  int* hc = static_cast<int*>(counts.get(sizeof(int) * (size_t(4) << std::max(L - 1, 0))));
  Event got(/*timing=*/false, /*blocking=*/false);
  cublasHandle_t cb = cublas_handle(st);
  double* Qin = (L & 1) ? w.Qt : Q;
  k_scale<<<1, 1024, 0, st>>>(d, e, n, w.scale);
  check_launch("tridiag_dc k_scale");
  k_leaf<<<unsigned(1) << L, LEAF, 0, st>>>(d, e, n, L, w.scale, w.D, Qin);
  check_launch("tridiag_dc k_leaf");
  for (int lev = L - 1; lev >= 0; --lev) {
    double* Qout = Qin == Q ? w.Qt : Q;
    const unsigned G = 1u << lev;
    const int64_t mm = mmax_at(n, lev);
    k_prepare<<<G, PREP, 0, st>>>(w, lev, e, Qin);
    check_launch("tridiag_dc k_prepare");
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(hc, w.cnt, G * 16, cudaMemcpyDeviceToHost, st));
    got.record(st);
    k_secular<<<dim3(cdiv(mm, 8), G), 256, 0, st>>>(w, lev);
    check_launch("tridiag_dc k_secular");
    k_rank_zhat<<<dim3(cdiv(mm, 128), G), 128, 0, st>>>(w, lev);
    check_launch("tridiag_dc k_rank_zhat");
    k_inorm<<<dim3(cdiv(mm, 128), G), 128, 0, st>>>(w, lev);
    check_launch("tridiag_dc k_inorm");
    got.synchronize();  // the counts, while the kernels run
    const Lay ly = make_lay(n, lev, hc);
    auto pool = allocate_device_memory(std::max<size_t>(size_t(ly.stride) * G * 8, 8));
    w.pool = static_cast<double*>(pool->ptr());
    if (ly.k1m + ly.k2m > 0) {
      k_gather<<<dim3(cdiv(std::max(ly.n1m, ly.n2m), 128), ly.k1m + ly.k2m, G), 128, 0, st>>>(
          w, lev, ly, Qin);
      check_launch("tridiag_dc k_gather");
      k_fill<<<dim3(cdiv(ly.k1m + ly.k2m, 128), ly.kam, G), 128, 0, st>>>(w, lev, ly);
      check_launch("tridiag_dc k_fill");
      k_chain<<<dim3(cdiv(mm, 128), G), 128, 0, st>>>(w, lev, ly);
      check_launch("tridiag_dc k_chain");
    }
    const double one = 1, zero = 0;
    for (int h = 0; h < 2; ++h) {
      const int nh = h ? ly.n2m : ly.n1m, kh = h ? ly.k2m : ly.k1m;
      if (kh == 0) continue;
      double* s = w.pool;
      GPUARR_CUBLAS_CHECK(cublasDgemmStridedBatched(
          cb, CUBLAS_OP_N, CUBLAS_OP_N, nh, ly.kam, kh, &one, s + (h ? ly.oQ2 : ly.oQ1), nh,
          ly.stride, s + (h ? ly.oU2 : ly.oU1), kh, ly.stride, &zero,
          s + (h ? ly.oC2 : ly.oC1), nh, ly.stride, G));
    }
    k_assemble<<<dim3(cdiv(mm, 128), unsigned(mm), G), 128, 0, st>>>(w, lev, ly, Qin, Qout);
    check_launch("tridiag_dc k_assemble");
    Qin = Qout;
  }
  k_final<<<cdiv(n, 256), 256, 0, st>>>(w.D, w.scale, wv, n);
  check_launch("tridiag_dc k_final");
}

}  // namespace gpuarr
