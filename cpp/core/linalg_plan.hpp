// Host-side plans of the cuSOLVER/cuBLAS linalg (cpp/ops/linalg_*.cu): which routine a
// batched LU takes, and the column-major buffer shapes of SVD and QR and how NumPy's
// results are read from them. Plain C++, unit-tested in cpp/tests/test_linalg_plan.cpp.
#pragma once
#include <cstdint>

#include "core/dtype.hpp"
#include "core/layout.hpp"
#include "core/routing_thresholds.hpp"

namespace gpuarr {

// Batched cuBLAS (getrfBatched + getri/getrsBatched) or one cuSOLVER call per matrix.
enum class LuRoute { CublasBatched, CusolverPerMatrix };
enum class LuPurpose { Det, InvSolve };
// det/slogdet (det_cublas_max_n < 0: the measured rule of `t`): cuBLAS getrfBatched for one
// matrix up to t.det_cublas_single_max_n (one launch, no cuSOLVER handle), and for batches
// large enough to beat one Xgetrf per matrix (t.det_cublas_batch_steps); otherwise cuSOLVER
// Xgetrf per matrix. det_cublas_max_n >= 0 (GPUARR_DET_CUBLAS_MAX_N) overrides: cuBLAS iff
// n <= it. inv/solve batch small matrices only (n <= t.lu_batched_max_n).
LuRoute choose_lu_route(int64_t n, int64_t batch, LuPurpose purpose, int64_t det_cublas_max_n,
                        const RoutingThresholds& t);
// The smallest batch for which getrfBatched beats batch x Xgetrf (INT64_MAX: never).
int64_t det_cublas_min_batch(int64_t n, const RoutingThresholds& t);

// The per-matrix route's LU: our blocked LU (cpp/ops/lu_blocked.cuh, sm_90 thread-block
// clusters) for float32/float64 with n <= own_max_n (the device's limit, 0 where it
// cannot run), else cuSOLVER Xgetrf. H100, float32, GPU time: 0.66 vs 0.95 ms at n = 512,
// 1.66 vs 2.05 at 1024, 10.5 vs 12.4 at 4096, 20.2 vs 21.9 at 6000, equal at 8192;
// float64 0.80 vs 1.04 at 512, 21.7 vs 24.4 at 6000; faster from n = 1 on.
// mode: the env override GPUARR_LU_ROUTE ("cusolver": never; anything else: the rule).
enum class OwnLuMode { Rule, Never };
bool use_own_lu(int64_t n, bool real_float, int64_t own_max_n, OwnLuMode mode);
// Its outer block (columns per trsm + GEMM of the trailing matrix): panel-wide below
// t.own_lu_wide_block_min_n, 256 from there (a rank-256 update runs nearer GEMM peak).
int64_t own_lu_outer_block(int64_t n, int64_t panel_width, const RoutingThresholds& t);

// inv of float32/float64 matrices up to n = kSmallInverseMaxN, and solve with up to
// kSmallSolveMaxColumns right-hand sides, any batch: our one-kernel Gauss-Jordan
// elimination (cpp/ops/small_gauss_jordan.cu), a thread a row, instead of cuBLAS
// getrfBatched + getriBatched / getrsBatched (H200: inv of 1024 32x32 float32 in 84 us of
// cuBLAS kernels) or one LU a matrix. Its group width (threads a matrix): the power of two
// >= n, at least 4; the matrix padded with the identity. float64 solves of more than 32
// rows take one column (ptxas spills the kernel of 64 rows and 8 columns).
constexpr int64_t kSmallInverseMaxN = 64;
constexpr int64_t kSmallSolveMaxColumns = 8;
// mode Never (GPUARR_LU_ROUTE=cusolver): the libraries' LU instead, at every size.
bool use_small_inverse(int64_t n, DType t, OwnLuMode mode);
bool use_small_solve(int64_t n, int64_t columns, DType t, OwnLuMode mode);
int small_matrix_group_width(int64_t n);

// Cholesky of many small matrices (batch > 1, n <= kCholeskyBatchedMaxN): one
// potrfBatched call; else Xpotrf per matrix.
constexpr int64_t kCholeskyBatchedMaxN = 64;
bool use_cholesky_batched(int64_t n, int64_t batch);

// Batches of small matrices (batch > 1, m and n <= 32: gesvdjBatched's limit) take one
// Jacobi call for the whole batch instead of one gesvd per matrix.
constexpr int64_t kSvdJacobiMaxDim = 32;
bool use_svd_jacobi_batched(int64_t m, int64_t n, int64_t batch);

// One real matrix's SVD as a polar decomposition and eigh (cpp/ops/linalg_svd_polar.cu)
// instead of gesvd: float32/float64, batch 1, min(m, n) >= min_n (GPUARR_SVD_POLAR_MIN_N;
// 0: never), and not the full U of a non-square matrix (its completion is not built).
// H200: 512^2 float32 10.7 ms against gesvd's 58.8, at gesvd's accuracy or better. The
// default 80 is the smallest size measured where both svd and svdvals gain: svdvals at 64
// takes gesvd 0.45 ms, the polar route 1.31 (docs/decisions.md).
constexpr int64_t kSvdPolarDefaultMinN = 80;
bool use_svd_polar(int64_t m, int64_t n, int64_t batch, bool real_float, bool full_matrices,
                   bool compute_uv, int64_t min_n);

// SVD of (batch..., m, n) with k = min(m, n) > 0 through gesvd, which wants rows >= cols in
// column-major. m >= n: the C-contiguous copy of A's transposed view is column-major A
// (mm = m, nn = n); u = swap_last2(ubuf), vh = swap_last2(vtbuf). m < n (transposed): the
// C-contiguous copy of A is column-major A^T (mm = n, nn = m), A = conj(V') S U'^T, so
// u = vtbuf and vh = ubuf as they are.
struct SvdPlan {
  bool transposed = false;
  int64_t mm = 0, nn = 0, k = 0;
  int64_t uc = 0;     // columns of the column-major U' (mm if full_matrices else nn)
  Dims ubuf_shape;    // C-contiguous (batch..., uc, mm)
  Dims vtbuf_shape;   // C-contiguous (batch..., nn, nn)
  Dims s_shape;       // (batch..., k)
  Dims u_shape;       // NumPy's u: (batch..., m, m | k)
  Dims vh_shape;      // NumPy's vh: (batch..., n | k, n)
};
SvdPlan plan_svd(const Dims& shape, bool full_matrices);

// QR of (batch..., m, n): h is C-contiguous (batch..., n, m) (column-major A, then
// geqrf's output = NumPy's raw h), tau (batch..., k); Q has mc columns, computed in a
// C-contiguous (batch..., mc, m) buffer and returned as its (m, mc) transposed view.
struct QrPlan {
  int64_t m = 0, n = 0, k = 0, mc = 0;
  Dims h_shape, tau_shape, qbuf_shape, q_shape, r_shape;
};
// mode: 'r' reduced, 'c' complete ('r'/'raw' modes need no Q and use the reduced sizes).
QrPlan plan_qr(const Dims& shape, bool complete);

// Own one-block Householder QR (cpp/ops/linalg_qr_small.cu): one block per matrix, each
// column in the registers of 1, 2 or 4 lanes (16 rows each), for real matrices with
// 1 <= m, n <= min(own_max_n, kQrSmallMaxDim) (env GPUARR_QR_OWN_MAX_N, default
// kQrOwnDefaultMaxN; 0 = always cuSOLVER). mc: the columns of Q (0: mode 'r', no Q;
// mc <= m). Complex and larger matrices take cuSOLVER.
constexpr int64_t kQrOwnDefaultMaxN = 64;
constexpr int64_t kQrSmallMaxDim = 64;
// Rows the kernel's register columns hold (16, 32 or 64: 1, 2 or 4 lanes per column), the
// smallest that holds m (fewer lanes per column, fewer shuffles and a smaller block).
int qr_small_rows_tile(int64_t m);
bool use_qr_small(int64_t m, int64_t n, int64_t mc, int64_t batch, bool is_complex,
                  int64_t own_max_n);

}  // namespace gpuarr
