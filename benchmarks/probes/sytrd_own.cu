// Issue 4, eigh 4096 float64: can a reduction to tridiagonal form of our own beat cuSOLVER's
// Dsytrd (110 ms at n = 4096, 87% of Xsyevd)? Dsytrd's symv passes read the lower half at
// ~1.57 TB/s; the floor for the ~92 GB they read is ~33 ms at 2.8 TB/s.
//
// Blocked as LAPACK dsytrd/dlatrd (lower): panels of NB columns; per column three kernels
//   K1 column update by the panel's earlier reflectors + the reflector's norm and the dots
//      W^T a, V^T a (the last block finishes beta, tau and the corrections' coefficients),
//   K2 the symmetric product of the trailing matrix with v, lower tiles read once, each
//      tile's row and column contributions written as partial sums (no atomics),
//   K3 w = tau (A v - V t1 - W t2), v stored scaled, the dot w.v (the last block: alpha2);
// the panel's rank-2k update is cublasDsyr2k; the last columns (< NX) go to cusolverDnDsytrd.
// A second variant (run_fused) takes two kernels per column: column i+1's update is folded
// into step i's finish (k2f_symv + k3f_finish). Both are checked against cusolverDnDsytrd on
// the same matrix (d and |e| agree) and timed directly and replayed from a CUDA graph.
//
// Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -std=c++17 sytrd_own.cu -lcublas -lcusolver -lcurand -o sytrd_own
#include <cmath>
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <curand.h>
#include "probe_timing.cuh"

constexpr int NB = 32;        // panel width
constexpr int TILE = 64;      // symv tile
constexpr int K1_ROWS = 256;  // rows per K1 block (1024 threads: 256 rows x 4 column groups)
constexpr int MAX_BLOCKS = 1024;

struct StepState {
  double tau, scale, alpha2;
  double t1[NB], t2[NB];
  unsigned count1, count3;
};

__device__ double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Rows [i, m) of panel column i. Ap: the panel's top-left, ld; W: m x NB, ld ldw.
// part1: per block 1 + 2 NB partial sums (|x|^2, W^T a, V^T a over rows >= i + 2).
// A block: K1_ROWS rows x 4 column groups; each thread keeps its V and W entries in registers.
__global__ void __launch_bounds__(4 * K1_ROWS) k1_column(double* Ap, int64_t ld, double* W,
                                                         int64_t ldw, int64_t m, int i,
                                                         StepState* st, double* part1,
                                                         double* d_out, double* e_out,
                                                         double* tau_out) {
  constexpr int WARPS_PER_GROUP = K1_ROWS / 32;
  __shared__ double vrow[NB], wrow[NB], red[4][K1_ROWS], pa[K1_ROWS];
  __shared__ double pdot[2][NB][WARPS_PER_GROUP], nrm[WARPS_PER_GROUP];
  __shared__ bool last;
  const int t = threadIdx.x, rx = t % K1_ROWS, ty = t / K1_ROWS;
  const double alpha2 = i > 0 ? st->alpha2 : 0.0;
  const int64_t r = i + int64_t(blockIdx.x) * K1_ROWS + rx;
  // row i of V and W (W's column i-1 finished with alpha2 here, never written back for row i)
  for (int c = t; c < i; c += blockDim.x) {
    vrow[c] = Ap[i + c * ld];
    double w = W[i + c * ldw];
    if (c == i - 1) w += alpha2 * Ap[i + c * ld];
    wrow[c] = w;
  }
  double vv[NB / 4], ww[NB / 4];
  const bool row_ok = r < m;
#pragma unroll
  for (int q = 0; q < NB / 4; ++q) {
    const int c = ty + 4 * q;
    const bool ok = row_ok && c < i;
    vv[q] = ok ? Ap[r + c * ld] : 0.0;
    ww[q] = ok ? W[r + c * ldw] : 0.0;
    if (ok && c == i - 1) {
      ww[q] += alpha2 * vv[q];
      if (r > i) W[r + c * ldw] = ww[q];  // W's column i-1 finished for the rows read later
    }
  }
  const double a_old = (ty == 0 && row_ok) ? Ap[r + i * ld] : 0.0;
  __syncthreads();
  double acc = 0;
#pragma unroll
  for (int q = 0; q < NB / 4; ++q) {
    const int c = ty + 4 * q;
    if (c < i) acc += vv[q] * wrow[c] + ww[q] * vrow[c];
  }
  red[ty][rx] = acc;
  __syncthreads();
  if (ty == 0) {
    double a = 0;
    if (row_ok) {
      a = a_old - (red[0][rx] + red[1][rx] + red[2][rx] + red[3][rx]);
      Ap[r + i * ld] = a;
      if (r == i) *d_out = a;
    }
    pa[rx] = (row_ok && r >= i + 2) ? a : 0.0;
  }
  __syncthreads();
  // partial sums over this block's rows >= i + 2: |a|^2, then W(r, c) a_r and V(r, c) a_r
  const double ar = pa[rx];
  double* mine = part1 + int64_t(blockIdx.x) * (1 + 2 * NB);
  if (ty == 0) {
    const double s2 = warp_sum(ar * ar);
    if ((t & 31) == 0) nrm[rx >> 5] = s2;
  }
#pragma unroll
  for (int q = 0; q < NB / 4; ++q) {
    const int c = ty + 4 * q;
    if (c < i) {  // uniform across the warp
      const double sw = warp_sum(ww[q] * ar), sv = warp_sum(vv[q] * ar);
      if ((t & 31) == 0) { pdot[0][c][rx >> 5] = sw; pdot[1][c][rx >> 5] = sv; }
    }
  }
  __syncthreads();
  if (t == 0) {
    double s2 = 0;
    for (int u = 0; u < WARPS_PER_GROUP; ++u) s2 += nrm[u];
    mine[0] = s2;
  }
  if (t < 2 * NB) {
    const int which = t / NB, c = t % NB;
    if (c < i) {
      double s2 = 0;
      for (int u = 0; u < WARPS_PER_GROUP; ++u) s2 += pdot[which][c][u];
      mine[1 + which * NB + c] = s2;
    }
  }
  __threadfence();
  __syncthreads();
  if (t == 0) last = atomicAdd(&st->count1, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  // the blocks' partial sums, 16 blocks' worth of loads in flight at once
  const int nblk = gridDim.x, nval = 1 + 2 * NB;
  __shared__ double tot[1 + 2 * NB];
  __shared__ double stage[16][1 + 2 * NB];
  for (int b0 = 0; b0 < nblk; b0 += 16) {
    __syncthreads();
    for (int u = t; u < 16 * nval; u += blockDim.x) {
      const int b = b0 + u / nval;
      stage[u / nval][u % nval] = b < nblk ? part1[int64_t(b) * nval + (u % nval)] : 0.0;
    }
    __syncthreads();
    if (t < nval) {
      double s2 = b0 == 0 ? 0.0 : tot[t];
#pragma unroll
      for (int q = 0; q < 16; ++q) s2 += stage[q][t];
      tot[t] = s2;
    }
  }
  __syncthreads();
  if (t == 0) {
    const double alpha = Ap[(i + 1) + i * ld];
    const double xnorm = sqrt(tot[0]);
    double tau = 0, scale = 0, beta = alpha;
    if (xnorm != 0) {
      beta = -copysign(hypot(alpha, xnorm), alpha);
      tau = (beta - alpha) / beta;
      scale = 1.0 / (alpha - beta);
    }
    st->tau = tau;
    st->scale = scale;
    *e_out = beta;
    *tau_out = tau;
    st->count1 = 0;
  }
  __syncthreads();
  const double scale = st->scale;
  for (int c = t; c < i; c += blockDim.x) {
    // v = [1, scale * a(i+2:)]: row i + 1 (W's column i-1 there finished by its block)
    st->t1[c] = W[(i + 1) + c * ldw] + scale * tot[1 + c];
    st->t2[c] = Ap[(i + 1) + c * ld] + scale * tot[1 + NB + c];
  }
}

constexpr int MAX_CH = 16;
// The chunk product both symv kernels share: x (vload(q), q the row of S) is staged into xc
// for tile column C and xr for row tiles [R0, R1); row contributions go to slot C, the chunk's
// column contributions to slot nt + k. `after_first_load` runs once the first tile's loads are
// in flight (k2f's extra work on xc).
template <class VLoad, class AfterFirstLoad>
__device__ void symv_lower_chunk(const double* S, int64_t ld, int64_t s, int C, int k, int R0,
                                 int R1, int nt, int64_t s_pad, VLoad vload, double* xc,
                                 double (*xr)[TILE], double (*red)[4][TILE], double* part2,
                                 AfterFirstLoad after_first_load) {
  const int t = threadIdx.x, rx = t % TILE, ty = t / TILE;
  if (t < TILE) xc[t] = vload(int64_t(C) * TILE + t);
  for (int u = t; u < (R1 - R0) * TILE; u += blockDim.x)
    xr[u / TILE][u % TILE] = vload(int64_t(R0 + u / TILE) * TILE + u % TILE);
  const int64_t cmax = s - int64_t(C) * TILE;  // valid columns of this tile column
  const double* colp = S + (int64_t(C) * TILE + ty) * ld + rx;
  const int64_t step4 = 4 * ld;
  auto load_tile = [&](int R, double (&vals)[TILE / 4]) {
    const int64_t row0 = int64_t(R) * TILE;
    const bool row_ok = row0 + rx < s, diag = R == C;
    const double* p = colp + row0;
#pragma unroll
    for (int q = 0; q < TILE / 4; ++q) {
      const int cl = ty + 4 * q;
      const bool ok = row_ok && cl < cmax && (!diag || rx >= cl);
      vals[q] = ok ? p[q * step4] : 0.0;
    }
  };
  double accc[TILE / 4], cur[TILE / 4], nxt[TILE / 4];
#pragma unroll
  for (int q = 0; q < TILE / 4; ++q) accc[q] = 0;
  load_tile(R0, cur);
  __syncthreads();
  after_first_load();
  for (int R = R0; R < R1; ++R) {
    if (R + 1 < R1) load_tile(R + 1, nxt);
    const bool diag = R == C;
    double yr = 0;
    const double xrow = xr[R - R0][rx];
#pragma unroll
    for (int q = 0; q < TILE / 4; ++q) {
      const int cl = ty + 4 * q;
      yr += cur[q] * xc[cl];
      if (!diag || rx > cl) accc[q] += cur[q] * xrow;
    }
    const int buf = (R - R0) & 1;
    red[buf][ty][rx] = yr;
    __syncthreads();
    if (ty == 0)
      part2[int64_t(C) * s_pad + int64_t(R) * TILE + rx] =
          red[buf][0][rx] + red[buf][1][rx] + red[buf][2][rx] + red[buf][3][rx];
#pragma unroll
    for (int q = 0; q < TILE / 4; ++q) cur[q] = nxt[q];
  }
  __syncthreads();
  // column sums over the chunk's rows: 64 rows in two warps per column group -> red[0][ty][2q+h]
#pragma unroll
  for (int q = 0; q < TILE / 4; ++q) {
    const double sum = warp_sum(accc[q]);
    if ((t & 31) == 0) red[0][ty][q * 2 + (rx >> 5)] = sum;
  }
  __syncthreads();
  if (t < TILE) {
    const int cl = t, g = cl % 4, q = cl / 4;
    part2[int64_t(nt + k) * s_pad + int64_t(C) * TILE + cl] = red[0][g][2 * q] + red[0][g][2 * q + 1];
  }
}

// Partial products of the trailing matrix S = Ap(i+1:m, i+1:m) (lower) with v.
// Block (C, k): column tile C, row tiles [C + k*ch, C + (k+1)*ch). Row contributions go to
// slot C, the column contributions of the whole chunk to slot nt + k (rows of tile C).
// The next tile's loads are issued before the current tile is used (registers double-buffered).
__global__ void __launch_bounds__(256, 2) k2_symv(const double* Ap, int64_t ld, int64_t m, int i,
                                               const StepState* st, double* part2,
                                               int64_t s_pad, int nt, int ch) {
  const int C = blockIdx.x, k = blockIdx.y;
  const int R0 = C + k * ch;
  if (R0 >= nt) return;
  const int R1 = min(nt, R0 + ch);
  const int64_t s = m - i - 1;
  const double* S = Ap + (i + 1) + (i + 1) * ld;
  const double* a = Ap + (i + 1) + i * ld;  // unscaled column: v_0 = 1, v_r = scale a_r
  const double scale = st->scale;
  __shared__ double xc[TILE], xr[MAX_CH][TILE], red[2][4][TILE];
  auto vload = [&](int64_t q) { return q == 0 ? 1.0 : (q < s ? scale * a[q] : 0.0); };
  symv_lower_chunk(S, ld, s, C, k, R0, R1, nt, s_pad, vload, xc, xr, red, part2, [] {});
}

// Rows [i+1, m): w = tau (A v - V t1 - W t2); v stored scaled; partial w.v, alpha2 at the end.
// A block: 64 rows x 4 lanes, the lanes splitting the partial slots and the correction terms.
constexpr int K3_BLOCK_ROWS = 64;
__global__ void __launch_bounds__(256) k3_finish(double* Ap, int64_t ld, double* W,
                                                 int64_t ldw, int64_t m, int i,
                                                 StepState* st, const double* part2,
                                                 int64_t s_pad, int nt, int ch,
                                                 double* part3) {
  __shared__ double t1[NB], t2[NB], red[4][K3_BLOCK_ROWS], wr[8];
  __shared__ bool last;
  const int t = threadIdx.x, rx = t % K3_BLOCK_ROWS, lane4 = t / K3_BLOCK_ROWS;
  for (int c = t; c < i; c += blockDim.x) { t1[c] = st->t1[c]; t2[c] = st->t2[c]; }
  __syncthreads();
  const double tau = st->tau, scale = st->scale;
  const int64_t q = int64_t(blockIdx.x) * K3_BLOCK_ROWS + rx;  // row within S
  const int64_t r = i + 1 + q;
  double part = 0;
  if (r < m) {
    const int R = int(q / TILE);
    const int nk = (nt - R + ch - 1) / ch;
    const int nslots = R + 1 + nk;
#pragma unroll 6
    for (int u = lane4; u < nslots; u += 4) {
      const int slot = u <= R ? u : nt + (u - R - 1);
      part += part2[int64_t(slot) * s_pad + q];
    }
#pragma unroll
    for (int q2 = 0; q2 < NB / 4; ++q2) {
      const int c = lane4 + 4 * q2;
      if (c < i) part -= Ap[r + c * ld] * t1[c] + W[r + c * ldw] * t2[c];
    }
  }
  red[lane4][rx] = part;
  __syncthreads();
  double prod = 0;
  if (lane4 == 0 && r < m) {
    const double w = tau * (red[0][rx] + red[1][rx] + red[2][rx] + red[3][rx]);
    const double v = q == 0 ? 1.0 : scale * Ap[r + i * ld];
    Ap[r + i * ld] = v;
    W[r + i * ldw] = w;
    prod = w * v;
  }
  prod = warp_sum(prod);
  if ((t & 31) == 0) wr[t >> 5] = prod;
  __syncthreads();
  if (t == 0) {
    part3[blockIdx.x] = wr[0] + wr[1];
    __threadfence();
    last = atomicAdd(&st->count3, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double s = 0;
  for (unsigned b = t; b < gridDim.x; b += blockDim.x) s += part3[b];
  s = warp_sum(s);
  if ((t & 31) == 0) wr[t >> 5] = s;
  __syncthreads();
  if (t == 0) {
    double tot = 0;
    for (int u = 0; u < 8; ++u) tot += wr[u];
    st->alpha2 = -0.5 * tau * tot;
    st->count3 = 0;
  }
}

// W's last panel column finished (rows >= NB) before the rank-2k update.
__global__ void finish_last_w(const double* Ap, int64_t ld, double* W, int64_t ldw, int64_t m,
                              const double* alpha2) {
  const int64_t r = NB + int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < m) W[r + (NB - 1) * ldw] += *alpha2 * Ap[r + (NB - 1) * ld];
}

// ---- Two kernels per column: the column update of column i+1 is folded into step i -------
// Column i's entries are a(r) = a'_i(r) - kappa_i V(r, i-1): a'_i (acol, by parity) is column
// i updated by every earlier panel reflector except the alpha2 term of column i-1, kappa_i =
// 2 alpha2_{i-1} (W(:, i-1) = w_raw + alpha2 v and v(i) = 1 make that term 2 alpha2 v).
struct FusedState {
  double alpha2[2];  // by the parity of the column that set it
  unsigned count;
};
constexpr int NDOT = 1 + 2 * NB;  // |x|^2, W^T x, V^T x

__device__ inline double column_entry(const double* acol, const double* Ap, int64_t ld, int i,
                                      double kappa, int64_t r) {
  return i > 0 ? acol[r] - kappa * Ap[r + (i - 1) * ld] : acol[r];
}

// z = S x, x = [0, a(i+2:)] (S = Ap(i+1:, i+1:), lower tiles as k2_symv). Blocks (C, 0) also
// finish W(:, i-1) on their rows and write |x|^2, W^T x, V^T x over them to dots[u * nt + C].
__global__ void __launch_bounds__(256, 2) k2f_symv(const double* Ap, int64_t ld, double* W,
                                                   int64_t ldw, int64_t m, int i,
                                                   const double* acol, const FusedState* fs,
                                                   double* part2, double* dots, double* d_out,
                                                   int64_t s_pad, int nt, int ch) {
  const int C = blockIdx.x, k = blockIdx.y;
  const int R0 = C + k * ch;
  if (R0 >= nt) return;
  const int R1 = min(nt, R0 + ch);
  const int64_t s = m - i - 1;
  const double* S = Ap + (i + 1) + (i + 1) * ld;
  const double alpha2_prev = i > 0 ? fs->alpha2[(i - 1) & 1] : 0.0;
  const double kappa = 2 * alpha2_prev;
  __shared__ double xc[TILE], xr[MAX_CH][TILE], red[2][4][TILE];
  __shared__ double pdot[2][NB][2];
  const int t = threadIdx.x, rx = t % TILE, ty = t / TILE;
  auto vload = [&](int64_t q) {
    return (q == 0 || q >= s) ? 0.0 : column_entry(acol, Ap, ld, i, kappa, i + 1 + q);
  };
  if (C == 0 && k == 0 && t == 0) *d_out = acol[i] - kappa;
  symv_lower_chunk(S, ld, s, C, k, R0, R1, nt, s_pad, vload, xc, xr, red, part2, [&] {
    if (k != 0) return;
    // this block's rows q = C*64 + rx: W(:, i-1) finished, then the dot partials
    const int64_t q = int64_t(C) * TILE + rx;
    const bool ok = q < s;
    const int64_t r = i + 1 + q;
    const double x = xc[rx];
    for (int c = ty; c < i; c += 4) {  // uniform per warp
      const double v = ok ? Ap[r + c * ld] : 0.0;
      double w = ok ? W[r + c * ldw] : 0.0;
      if (c == i - 1 && ok) {
        w += alpha2_prev * v;
        W[r + c * ldw] = w;
      }
      const double sw = warp_sum(w * x), sv = warp_sum(v * x);
      if ((t & 31) == 0) { pdot[0][c][rx >> 5] = sw; pdot[1][c][rx >> 5] = sv; }
    }
    const double nx2 = warp_sum(ty == 0 ? x * x : 0.0);
    if (ty == 0 && (t & 31) == 0) red[1][3][rx >> 5] = nx2;
    __syncthreads();
    if (t == 0) dots[C] = red[1][3][0] + red[1][3][1];
    if (t < 2 * NB) {
      const int which = t / NB, c = t % NB;
      if (c < i) dots[int64_t(1 + which * NB + c) * nt + C] = pdot[which][c][0] + pdot[which][c][1];
    }
    __syncthreads();
  });
}

// Column i's reflector from the dot partials (every block, redundantly), then rows q of S:
// w_raw = tau (S(:,0) + scale z - V t1 - W t2), v stored scaled, W(:, i) = w_raw, and column
// i+1's a' (acol_next) = A(:, i+1) - sum_{c<i} (V W(i+1,c) + W V(i+1,c)) - v w_raw(i+1) - w_raw.
// The last block: alpha2_i = -tau/2 w_raw.v.
__global__ void __launch_bounds__(256) k3f_finish(double* Ap, int64_t ld, double* W, int64_t ldw,
                                                  int64_t m, int i, const double* acol,
                                                  double* acol_next, FusedState* fs,
                                                  const double* part2, const double* dots,
                                                  int64_t s_pad, int nt, int ch, double* part3,
                                                  double* e_out, double* tau_out) {
  __shared__ double tot[NDOT], t1[NB], t2[NB], vrow[NB], wrow[NB], red[3][4][64], wr[8];
  __shared__ double sh_tau, sh_scale, sh_w0;
  __shared__ bool last;
  const int t = threadIdx.x, warp = t >> 5, lane = t & 31;
  const int64_t s = m - i - 1;
  const double kappa = i > 0 ? 2 * fs->alpha2[(i - 1) & 1] : 0.0;
  // the partials over the tiles: warp w sums values u = w, w + 8, ...
#pragma unroll
  for (int q = 0; q < (NDOT + 7) / 8; ++q) {
    const int u = warp + 8 * q;
    if (u < NDOT && (u == 0 || (u - 1) % NB < i)) {
      double v = 0;
      for (int C = lane; C < nt; C += 32) v += dots[int64_t(u) * nt + C];
      v = warp_sum(v);
      if (lane == 0) tot[u] = v;
    }
  }
  for (int c = t; c < i; c += blockDim.x) {
    vrow[c] = Ap[(i + 1) + c * ld];
    wrow[c] = W[(i + 1) + c * ldw];  // finished by k2f for c = i-1
  }
  __syncthreads();
  if (t == 0) {
    const double alpha = column_entry(acol, Ap, ld, i, kappa, i + 1);
    const double xnorm = sqrt(tot[0]);
    double tau = 0, scale = 0, beta = alpha;
    if (xnorm != 0) {
      beta = -copysign(hypot(alpha, xnorm), alpha);
      tau = (beta - alpha) / beta;
      scale = 1.0 / (alpha - beta);
    }
    sh_tau = tau;
    sh_scale = scale;
    if (blockIdx.x == 0) { *e_out = beta; *tau_out = tau; }
  }
  __syncthreads();
  const double tau = sh_tau, scale = sh_scale;
  for (int c = t; c < i; c += blockDim.x) {
    t1[c] = wrow[c] + scale * tot[1 + c];
    t2[c] = vrow[c] + scale * tot[1 + NB + c];
  }
  __syncthreads();
  // w_raw of row i+1 (q = 0), which every row's a' needs
  if (warp == 0) {
    double z0 = 0, c0 = 0;
    const int nk0 = (nt + ch - 1) / ch;
    for (int u = lane; u < 1 + nk0; u += 32) z0 += part2[int64_t(u == 0 ? 0 : nt + u - 1) * s_pad];
    for (int c = lane; c < i; c += 32) c0 += vrow[c] * t1[c] + wrow[c] * t2[c];
    z0 = warp_sum(z0);
    c0 = warp_sum(c0);
    if (lane == 0) sh_w0 = tau * (Ap[(i + 1) + (i + 1) * ld] + scale * z0 - c0);
  }
  const int rx = t % 64, lane4 = t / 64;
  const int64_t q = int64_t(blockIdx.x) * 64 + rx;
  const int64_t r = i + 1 + q;
  double zpart = 0, corr = 0, pb = 0;
  if (q < s) {
    const int R = int(q / TILE);
    const int nk = (nt - R + ch - 1) / ch;
    const int nslots = R + 1 + nk;
#pragma unroll 6
    for (int u = lane4; u < nslots; u += 4) {
      const int slot = u <= R ? u : nt + (u - R - 1);
      zpart += part2[int64_t(slot) * s_pad + q];
    }
#pragma unroll
    for (int q2 = 0; q2 < NB / 4; ++q2) {
      const int c = lane4 + 4 * q2;
      if (c < i) {
        const double v = Ap[r + c * ld], w = W[r + c * ldw];
        corr += v * t1[c] + w * t2[c];
        pb += v * wrow[c] + w * vrow[c];
      }
    }
  }
  red[0][lane4][rx] = zpart;
  red[1][lane4][rx] = corr;
  red[2][lane4][rx] = pb;
  __syncthreads();
  double prod = 0;
  if (lane4 == 0 && q < s) {
    const double z = red[0][0][rx] + red[0][1][rx] + red[0][2][rx] + red[0][3][rx];
    const double cr = red[1][0][rx] + red[1][1][rx] + red[1][2][rx] + red[1][3][rx];
    const double pbs = red[2][0][rx] + red[2][1][rx] + red[2][2][rx] + red[2][3][rx];
    const double a_next = Ap[r + (i + 1) * ld];  // S(q, 0) = A(r, i+1), untouched in the panel
    const double w = tau * (a_next + scale * z - cr);
    const double v = q == 0 ? 1.0 : scale * column_entry(acol, Ap, ld, i, kappa, r);
    Ap[r + i * ld] = v;
    W[r + i * ldw] = w;
    acol_next[r] = a_next - pbs - v * sh_w0 - w;
    prod = w * v;
  }
  prod = warp_sum(prod);
  if (lane == 0) wr[warp] = prod;
  __syncthreads();
  if (t == 0) {
    double sum = 0;
    for (int u = 0; u < 8; ++u) sum += wr[u];
    part3[blockIdx.x] = sum;
    __threadfence();
    last = atomicAdd(&fs->count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double sum = 0;
  for (unsigned b2 = t; b2 < gridDim.x; b2 += blockDim.x) sum += part3[b2];
  sum = warp_sum(sum);
  if (lane == 0) wr[warp] = sum;
  __syncthreads();
  if (t == 0) {
    double tot2 = 0;
    for (int u = 0; u < 8; ++u) tot2 += wr[u];
    fs->alpha2[i & 1] = -0.5 * tau * tot2;
    fs->count = 0;
  }
}

struct OwnSytrd {
  int64_t n, nx;
  StepState* st;
  double *W, *part1, *part2, *part3, *tail_ws;
  int tail_lwork;
  int* info;
  cublasHandle_t cb;
  cusolverDnHandle_t cs;
  int sms;
  OwnSytrd(int64_t n_, int64_t nx_, cublasHandle_t cb_, cusolverDnHandle_t cs_, double* A)
      : n(n_), nx(nx_), cb(cb_), cs(cs_) {
    CK(cudaMalloc(&st, sizeof(StepState)));
    CK(cudaMemset(st, 0, sizeof(StepState)));
    CK(cudaMalloc(&W, n * NB * 8));
    CK(cudaMalloc(&part1, MAX_BLOCKS * (1 + 2 * NB) * 8));
    const int64_t nt = (n + TILE - 1) / TILE;
    CK(cudaMalloc(&part2, (2 * nt + 2) * (nt * TILE) * 8));
    CK(cudaMalloc(&part3, MAX_BLOCKS * 8));
    CK(cudaMalloc(&info, 64));
    double* dummy = nullptr;
    CK(cusolverDnDsytrd_bufferSize(cs, CUBLAS_FILL_MODE_LOWER, int(nx + NB), A, int(n), dummy,
                                   dummy, dummy, &tail_lwork));
    CK(cudaMalloc(&tail_ws, size_t(tail_lwork) * 8));
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  }
  // A: n x n column-major, lower triangle; writes d (n), e (n - 1), tau (n - 1) and the
  // reflectors below the subdiagonal as LAPACK's dsytrd('L').
  void run(double* A, double* d, double* e, double* tau, int mode = 31) {
    int64_t j = 0;
    const double one = 1, minus_one = -1;
    for (; n - j > nx + NB; j += NB) {
      double* Ap = A + j + j * n;
      const int64_t m = n - j;
      for (int i = 0; i < NB; ++i) {
        const int g1 = int((m - i + K1_ROWS - 1) / K1_ROWS);
        if (mode & 1) k1_column<<<g1, 4 * K1_ROWS, 0, st_()>>>(Ap, n, W, n, m, i, st, part1, d + j + i, e + j + i,
                                          tau + j + i);
        const int64_t s = m - i - 1;
        const int nt = int((s + TILE - 1) / TILE);
        const int64_t tiles = int64_t(nt) * (nt + 1) / 2;
        int ch = int(std::max<int64_t>(1, (tiles + 2 * sms - 1) / (2 * sms)));
        ch = std::min({ch, nt, MAX_CH});
        const int nk = (nt + ch - 1) / ch;
        const int64_t s_pad = int64_t(nt) * TILE;
        if (mode & 2) k2_symv<<<dim3(nt, nk), 256, 0, st_()>>>(Ap, n, m, i, st, part2, s_pad, nt, ch);
        const int g3 = int((s + K3_BLOCK_ROWS - 1) / K3_BLOCK_ROWS);
        if (mode & 4) k3_finish<<<g3, 256, 0, st_()>>>(Ap, n, W, n, m, i, st, part2, s_pad, nt, ch, part3);
      }
      if (mode & 8) finish_last_w<<<int((m + 255) / 256), 256, 0, st_()>>>(Ap, n, W, n, m, &st->alpha2);
      if (mode & 8) CK(cublasDsyr2k(cb, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, int(m - NB), NB, &minus_one,
                      Ap + NB, int(n), W + NB, int(n), &one, Ap + NB + NB * n, int(n)));
    }
    const int64_t rest = n - j;
    if (mode & 16) CK(cusolverDnDsytrd(cs, CUBLAS_FILL_MODE_LOWER, int(rest), A + j + j * n, int(n), d + j,
                        e + j, tau + j, tail_ws, tail_lwork, info));
  }
  // The two-kernels-per-column variant (k2f_symv + k3f_finish), same outputs.
  FusedState* fs = nullptr;
  double *acol = nullptr, *dots = nullptr;
  void run_fused(double* A, double* d, double* e, double* tau) {
    if (!fs) {
      CK(cudaMalloc(&fs, sizeof(FusedState)));
      CK(cudaMemset(fs, 0, sizeof(FusedState)));
      CK(cudaMalloc(&acol, 2 * n * 8));
      CK(cudaMalloc(&dots, NDOT * ((n + TILE - 1) / TILE) * 8));
    }
    int64_t j = 0;
    const double one = 1, minus_one = -1;
    for (; n - j > nx + NB; j += NB) {
      double* Ap = A + j + j * n;
      const int64_t m = n - j;
      CK(cudaMemcpyAsync(acol, Ap, m * 8, cudaMemcpyDeviceToDevice, st_()));
      for (int i = 0; i < NB; ++i) {
        const int64_t s = m - i - 1;
        const int nt = int((s + TILE - 1) / TILE);
        const int64_t tiles = int64_t(nt) * (nt + 1) / 2;
        int ch = int(std::max<int64_t>(1, (tiles + 2 * sms - 1) / (2 * sms)));
        ch = std::min({ch, nt, MAX_CH});
        const int nk = (nt + ch - 1) / ch;
        const int64_t s_pad = int64_t(nt) * TILE;
        double* a_cur = acol + (i & 1) * n;
        double* a_next = acol + ((i + 1) & 1) * n;
        k2f_symv<<<dim3(nt, nk), 256, 0, st_()>>>(Ap, n, W, n, m, i, a_cur, fs, part2, dots,
                                                  d + j + i, s_pad, nt, ch);
        k3f_finish<<<int((s + 63) / 64), 256, 0, st_()>>>(Ap, n, W, n, m, i, a_cur, a_next, fs,
                                                          part2, dots, s_pad, nt, ch, part3,
                                                          e + j + i, tau + j + i);
      }
      finish_last_w<<<int((m + 255) / 256), 256, 0, st_()>>>(Ap, n, W, n, m,
                                                             &fs->alpha2[(NB - 1) & 1]);
      CK(cublasDsyr2k(cb, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, int(m - NB), NB, &minus_one,
                      Ap + NB, int(n), W + NB, int(n), &one, Ap + NB + NB * n, int(n)));
    }
    const int64_t rest = n - j;
    CK(cusolverDnDsytrd(cs, CUBLAS_FILL_MODE_LOWER, int(rest), A + j + j * n, int(n), d + j,
                        e + j, tau + j, tail_ws, tail_lwork, info));
  }
  static cudaStream_t st_() { return ::st; }
};

__global__ void symmetrize(double* a, int64_t n) {
  int64_t i = blockIdx.y, j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (j < i && i < n) a[j * n + i] = a[i * n + j];
}

int main(int argc, char** argv) {
  CK(cudaStreamCreate(&st));
  cublasHandle_t cb; CK(cublasCreate(&cb)); CK(cublasSetStream(cb, st));
  cusolverDnHandle_t cs; CK(cusolverDnCreate(&cs)); CK(cusolverDnSetStream(cs, st));
  curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT); curandSetStream(g, st);
  std::vector<int64_t> sizes = {100, 517, 1024, 2048, 4096};
  if (argc > 1) { sizes.clear(); for (int a = 1; a < argc; ++a) sizes.push_back(atoll(argv[a])); }
  for (int64_t n : sizes) {
    const size_t bytes = n * n * 8;
    double *A, *B, *d0, *e0, *t0, *d1, *e1, *t1;
    CK(cudaMalloc(&A, bytes)); CK(cudaMalloc(&B, bytes));
    for (double** p : {&d0, &e0, &t0, &d1, &e1, &t1}) CK(cudaMalloc(p, n * 8));
    curandGenerateNormalDouble(g, A, n * n + (n * n) % 2, 0, 1);
    symmetrize<<<dim3((n + 255) / 256, n), 256, 0, st>>>(A, n);
    int lwork = 0; int* info; CK(cudaMalloc(&info, 64));
    CK(cusolverDnDsytrd_bufferSize(cs, CUBLAS_FILL_MODE_LOWER, int(n), B, int(n), d0, e0, t0, &lwork));
    double* ws; CK(cudaMalloc(&ws, size_t(lwork) * 8));
    auto cp = [&] { cudaMemcpyAsync(B, A, bytes, cudaMemcpyDeviceToDevice, st); };
    const float t_copy = timed(cp, 5);
    const float t_ref = timed([&] { cp(); CK(cusolverDnDsytrd(cs, CUBLAS_FILL_MODE_LOWER, int(n), B, int(n), d0, e0, t0, ws, lwork, info)); }, 3);
    if (n >= 1024) {  // the back-transformation with Dsytrd's reflectors, and one DGEMM n^3
      double* Cm; CK(cudaMalloc(&Cm, bytes));
      curandGenerateNormalDouble(g, Cm, n * n + (n * n) % 2, 0, 1);
      int lw2 = 0;
      CK(cusolverDnDormtr_bufferSize(cs, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, int(n), int(n), B, int(n), t0, Cm, int(n), &lw2));
      double* ws2; CK(cudaMalloc(&ws2, size_t(lw2) * 8));
      const float t_ormtr = timed([&] { CK(cusolverDnDormtr(cs, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, int(n), int(n), B, int(n), t0, Cm, int(n), ws2, lw2, info)); }, 3);
      double* G2; CK(cudaMalloc(&G2, bytes)); const double one = 1, zero = 0;
      const float t_gemm = timed([&] { CK(cublasDgemm(cb, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, A, int(n), Cm, int(n), &zero, G2, int(n))); }, 3);
      printf("n=%lld Dormtr (L, n columns) %.3f ms, DGEMM n^3 %.3f ms\n", (long long)n, t_ormtr, t_gemm);
      cudaFree(Cm); cudaFree(ws2); cudaFree(G2);
    }
    for (int64_t nx : {256, 512}) {
      if (nx >= n) continue;
      OwnSytrd own(n, nx, cb, cs, B);
      for (int fused = 0; fused < 2; ++fused) {
        auto runner = [&] { if (fused) own.run_fused(B, d1, e1, t1); else own.run(B, d1, e1, t1); };
        const float t_own = timed([&] { cp(); runner(); }, 3);
        CK(cudaStreamSynchronize(st));
        CK(cudaGetLastError());
        // GPU time alone: the whole reduction captured and replayed
        auto graph_ms = [&](std::function<void()> f) {
          cudaGraph_t gr; cudaGraphExec_t ge;
          CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
          cp(); f();
          CK(cudaStreamEndCapture(st, &gr));
          CK(cudaGraphInstantiate(&ge, gr, 0));
          const float ms = timed([&] { CK(cudaGraphLaunch(ge, st)); }, 3);
          cudaGraphExecDestroy(ge); cudaGraphDestroy(gr);
          return ms;
        };
        const float t_graph = graph_ms(runner);
        if (nx == 256 && !fused)
          printf("n=%lld 3-kernel graph parts: K1 %.3f, K2 %.3f, K3 %.3f, syr2k %.3f, tail Dsytrd %.3f ms\n",
                 (long long)n, graph_ms([&] { own.run(B, d1, e1, t1, 1); }), graph_ms([&] { own.run(B, d1, e1, t1, 2); }),
                 graph_ms([&] { own.run(B, d1, e1, t1, 4); }), graph_ms([&] { own.run(B, d1, e1, t1, 8); }),
                 graph_ms([&] { own.run(B, d1, e1, t1, 16); }));
        timed([&] { cp(); runner(); }, 1);
        CK(cudaStreamSynchronize(st));
        CK(cudaGetLastError());
        std::vector<double> hd0(n), he0(n), hd1(n), he1(n), ht0(n), ht1(n);
        cudaMemcpy(hd0.data(), d0, n * 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(he0.data(), e0, n * 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(hd1.data(), d1, n * 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(he1.data(), e1, n * 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(ht0.data(), t0, n * 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(ht1.data(), t1, n * 8, cudaMemcpyDeviceToHost);
        double dd = 0, de = 0, dt = 0, mx = 0;
        for (int64_t k = 0; k < n; ++k) {
          dd = std::max(dd, std::fabs(hd0[k] - hd1[k]));
          mx = std::max(mx, std::fabs(hd0[k]));
          if (k < n - 1) {
            de = std::max(de, std::fabs(std::fabs(he0[k]) - std::fabs(he1[k])));
            mx = std::max(mx, std::fabs(he0[k]));
            dt = std::max(dt, std::fabs(ht0[k] - ht1[k]));
          }
        }
        printf("n=%lld nx=%lld %s: copy %.3f ms, Dsytrd %.3f ms, own %.3f ms (graph %.3f); max|d-d0| %.2e, max||e|-|e0|| %.2e, max|tau-tau0| %.2e (max entry %.2e)\n",
               (long long)n, (long long)nx, fused ? "2-kernel" : "3-kernel", t_copy, t_ref, t_own, t_graph, dd, de, dt, mx);
      }
    }
    cudaFree(A); cudaFree(B); cudaFree(ws);
    for (double* p : {d0, e0, t0, d1, e1, t1}) cudaFree(p);
  }
  return 0;
}
