// Reduction of a real symmetric matrix (float64, lower triangle) to tridiagonal form,
// LAPACK dsytrd('L') semantics: d, e, tau and the reflectors below the subdiagonal, as
// cusolverDnDormtr reads them. eigh's divide-and-conquer path (eigen_cusolver.cu) uses it
// for large matrices, where it beats cusolverDnDsytrd (n = 4096 on the H100: 102.6 vs 110.0
// ms; docs/decisions.md, "One float64 matrix with vectors from n = 3072").
//
// Blocked as dsytrd/dlatrd: panels of NB columns, each column's reflector and w = tau (A v -
// V t1 - W t2) computed by two kernels, the panel's rank-2k update by cublasDsyr2k, the last
// columns (<= tail) by cusolverDnDsytrd. Why it is faster: the trailing matrix's symmetric
// product reads its lower triangle once per column, in 64 x 64 tiles, each tile's row and
// column contributions written as deterministic partial sums (no atomics, no second pass
// over the upper half), and column i+1's update by the panel's reflectors is folded into
// column i's finish (the alpha2 term is carried as a' - 2 alpha2 v), so each column costs
// two launches:
//   k2f_symv    z = S x over the trailing matrix S, plus the dot partials |x|^2, W^T x, V^T x;
//   k3f_finish  the reflector (every block, from the partials), w = tau (S v - V t1 - W t2),
//               v stored scaled, column i+1's a', and (last block) alpha2 = -tau/2 w.v.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>

#include "ops/strided.cuh"
#include "ops/tridiag.hpp"
#include "runtime/cublas_handle.hpp"
#include "runtime/config.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/cusolver_handle.hpp"
#include "runtime/device.hpp"
#include "runtime/memory.hpp"

namespace gpuarr {
namespace {

constexpr int NB = 32;    // panel width
constexpr int TILE = 64;  // symv tile

__device__ double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// The sum over a block of 8 warps, valid in thread 0 (wr: 8 shared doubles; the block
// must reach it together). The warps' partials are added in order, so it is deterministic.
__device__ double block_sum_8warps(double v, double* wr) {
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) wr[threadIdx.x >> 5] = v;
  __syncthreads();
  double sum = 0;
  if (threadIdx.x == 0)
    for (int u = 0; u < 8; ++u) sum += wr[u];
  return sum;
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
  const double block_prod = block_sum_8warps(prod, wr);
  if (t == 0) {
    part3[blockIdx.x] = block_prod;
    __threadfence();
    last = atomicAdd(&fs->count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double sum = 0;
  for (unsigned b2 = t; b2 < gridDim.x; b2 += blockDim.x) sum += part3[b2];
  const double tot2 = block_sum_8warps(sum, wr);
  if (t == 0) {
    fs->alpha2[i & 1] = -0.5 * tau * tot2;
    fs->count = 0;
  }
}

// Columns left to cusolverDnDsytrd at the end (GPUARR_TRIDIAG_TAIL; a small tail lets the
// tests run the own kernels on small matrices). 512 measured best at n = 4096.
int64_t tail_columns() { return config::tridiag_tail.get(); }

}  // namespace

void tridiag_reduce_lower(double* A, int64_t n, double* d, double* e, double* tau, int* info,
                          cudaStream_t stream) {
  if (n <= 0) return;
  const int64_t nx = tail_columns();
  CusolverHandles cs = cusolver_handle(stream);
  int64_t j = 0;
  if (n > nx + NB) {
    cublasHandle_t cb = cublas_handle(stream);
    const int sms = multiprocessor_count(current_device());
    const int64_t nt_max = (n + TILE - 1) / TILE;
    // W (n x NB), the symv partials (2 nt + 2 slots of nt*TILE), the finish partials, the dot
    // partials (NDOT x nt), column i's and i+1's a', and the two alpha2 and the block counter.
    const size_t w_el = size_t(n) * NB, p2_el = size_t(2 * nt_max + 2) * (nt_max * TILE),
                 p3_el = size_t(nt_max + 1), dots_el = size_t(NDOT) * nt_max,
                 acol_el = size_t(2) * n;
    auto mem = allocate_device_memory(
        (w_el + p2_el + p3_el + dots_el + acol_el) * sizeof(double) + sizeof(FusedState));
    double* W = static_cast<double*>(mem->ptr());
    double* part2 = W + w_el;
    double* part3 = part2 + p2_el;
    double* dots = part3 + p3_el;
    double* acol = dots + dots_el;
    FusedState* fs = reinterpret_cast<FusedState*>(acol + acol_el);
    GPUARR_CUDA_CHECK(cudaMemsetAsync(fs, 0, sizeof(FusedState), stream));
    const double one = 1, minus_one = -1;
    for (; n - j > nx + NB; j += NB) {
      double* Ap = A + j + j * n;
      const int64_t m = n - j;
      GPUARR_CUDA_CHECK(
          cudaMemcpyAsync(acol, Ap, m * sizeof(double), cudaMemcpyDeviceToDevice, stream));
      for (int i = 0; i < NB; ++i) {
        const int64_t s = m - i - 1;
        const int nt = int((s + TILE - 1) / TILE);
        // column chunks of the symv: about two blocks per SM over the lower tiles
        const int64_t tiles = int64_t(nt) * (nt + 1) / 2;
        int ch = int(std::max<int64_t>(1, (tiles + 2 * sms - 1) / (2 * sms)));
        ch = std::min({ch, nt, MAX_CH});
        const int nk = (nt + ch - 1) / ch;
        const int64_t s_pad = int64_t(nt) * TILE;
        double* a_cur = acol + (i & 1) * n;
        double* a_next = acol + ((i + 1) & 1) * n;
        k2f_symv<<<dim3(nt, nk), 256, 0, stream>>>(Ap, n, W, n, m, i, a_cur, fs, part2, dots,
                                                   d + j + i, s_pad, nt, ch);
        check_launch("tridiag_reduce k2f_symv");
        k3f_finish<<<unsigned((s + 63) / 64), 256, 0, stream>>>(
            Ap, n, W, n, m, i, a_cur, a_next, fs, part2, dots, s_pad, nt, ch, part3,
            e + j + i, tau + j + i);
        check_launch("tridiag_reduce k3f_finish");
      }
      finish_last_w<<<unsigned((m + 255) / 256), 256, 0, stream>>>(Ap, n, W, n, m,
                                                                  &fs->alpha2[(NB - 1) & 1]);
      check_launch("tridiag_reduce finish_last_w");
      GPUARR_CUBLAS_CHECK(cublasDsyr2k(cb, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, int(m - NB), NB,
                                       &minus_one, Ap + NB, int(n), W + NB, int(n), &one,
                                       Ap + NB + NB * n, int(n)));
    }
  }
  const int rest = int(n - j);
  double* At = A + j + j * n;
  int lwork = 0;
  GPUARR_CUSOLVER_CHECK(cusolverDnDsytrd_bufferSize(cs.handle, CUBLAS_FILL_MODE_LOWER, rest, At,
                                                    int(n), d + j, e + j, tau + j, &lwork));
  auto ws = allocate_device_memory(std::max<size_t>(size_t(lwork) * sizeof(double), 16));
  GPUARR_CUSOLVER_CHECK(cusolverDnDsytrd(cs.handle, CUBLAS_FILL_MODE_LOWER, rest, At, int(n),
                                         d + j, e + j, tau + j,
                                         static_cast<double*>(ws->ptr()), lwork, info));
}

}  // namespace gpuarr
