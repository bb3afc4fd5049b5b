// Blocked LU with partial pivoting of one column-major n x n real matrix, in place, in
// cuSOLVER Xgetrf's output format (unit-lower L below the diagonal, U on and above it,
// 1-based int64 pivots, info = the first zero pivot, 1-based, or 0).
//
// Why our own: on the H100, Xgetrf runs at 6.5 TFLOP/s at n = 6000 (22 ms) and takes
// 0.97 ms at n = 512, where the trailing updates alone would take ~4 ms and ~0.1 ms as
// cuBLAS GEMMs. Its time goes to the panels: one pivot search per column, each a round
// trip through global memory. Here a panel of B columns is factored by one kernel that
// keeps each row of the panel in a thread's registers, on one thread block (m <= 512
// rows) or a thread-block cluster of up to 16 blocks (m <= 8192) that exchanges each
// column's pivot candidates through distributed shared memory: one block barrier and one
// cluster barrier per column, no global-memory round trip. The row interchanges are then
// applied to the other columns as one gather of the <= 2B moved rows, and the trailing
// matrix is updated by cuBLAS trsm + GEMM (right-looking; up to n = 512 by one kernel of
// ours, small_update_kernel).
//
// Host-independent of the rest of gpuarr except the CUDA/cuBLAS status checks, so that
// tools/probes/lu_blocked_probe.cu can build it alone against cuSOLVER.
#pragma once
#include <cooperative_groups.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>

#include "ops/cublas_typed.cuh"
#include "runtime/cublas_handle.hpp"
#include "runtime/cuda_check.hpp"

namespace gpuarr {
namespace lu_blocked {

constexpr int kPanelThreads = 512;  // rows per block: one row per thread
constexpr int kMaxClusterBlocks = 16;
constexpr int kPanelWarps = kPanelThreads / 32;
constexpr int kMaxRows = kPanelThreads * kMaxClusterBlocks;

// Panel width: the row of a panel lives in B registers of one thread (512 threads x
// <= 128 registers per SM).
template <class T> struct PanelWidth;
template <> struct PanelWidth<float> { static constexpr int value = 64; };
template <> struct PanelWidth<double> { static constexpr int value = 32; };

// Size of the move list of one panel: a count, then (destination, source) row pairs.
template <class T>
constexpr int moves_ints() { return 1 + 4 * PanelWidth<T>::value; }

// Pivot search keys: the bits of |x| plus one (0: no candidate), compared as unsigned
// integers, which orders non-negative floats as their values and puts NaN above inf, so
// that a NaN is chosen as pivot and propagates (as in LAPACK's result) and is never taken
// for a zero pivot. Key 1 is a zero pivot.
template <class T> struct PivotKey;
template <> struct PivotKey<float> {
  using type = unsigned;
  static __device__ __forceinline__ unsigned of(float x) {
    return (__float_as_uint(x) & 0x7fffffffu) + 1u;
  }
};
template <> struct PivotKey<double> {
  using type = unsigned long long;
  static __device__ __forceinline__ unsigned long long of(double x) {
    return (static_cast<unsigned long long>(__double_as_longlong(x)) & 0x7fffffffffffffffull) + 1ull;
  }
};

// The lowest lane holding the warp's largest key (lanes hold rows in increasing order, so
// ties go to the smallest row).
__device__ __forceinline__ int warp_argmax_lane(unsigned key) {
  const unsigned top = __reduce_max_sync(0xffffffffu, key);
  return __ffs(__ballot_sync(0xffffffffu, key == top)) - 1;
}
__device__ __forceinline__ int warp_argmax_lane(unsigned long long key) {
  const unsigned hi = static_cast<unsigned>(key >> 32), lo = static_cast<unsigned>(key);
  const unsigned top_hi = __reduce_max_sync(0xffffffffu, hi);
  const unsigned top_lo = __reduce_max_sync(0xffffffffu, hi == top_hi ? lo : 0u);
  return __ffs(__ballot_sync(0xffffffffu, hi == top_hi && lo == top_lo)) - 1;
}

template <class T, int B>
struct PanelShared {
  using Key = typename PivotKey<T>::type;
  // Each block's candidate (its largest key, that row's values from column j on, its
  // physical row and current position) pushed into every block of the cluster,
  // double-buffered on the column's parity: a block writes column j + 2's candidate only
  // after the cluster barrier of column j + 1, which every reader of column j's slot has
  // passed.
  T inbox_vals[2][kMaxClusterBlocks][B];
  Key inbox_key[2][kMaxClusterBlocks];
  int inbox_row[2][kMaxClusterBlocks];
  int inbox_pos[2][kMaxClusterBlocks];
  // Each warp's candidate, for the block's choice.
  T stage_vals[kPanelWarps][B];
  Key stage_key[kPanelWarps];
  int stage_row[kPanelWarps];
  int stage_pos[kPanelWarps];
  int move_count;  // rank 0's: the move list's length
};

// Factor the panel (m rows, kb <= B columns, leading dimension lda) in place. Launched
// as one cluster of ceil(m / rows_per_block) blocks of kPanelThreads threads; thread t of
// block r holds physical row r * rows_per_block + t in registers and tracks its current
// position (LAPACK's interchange of positions j and p moves the row at j to p). piv: this
// panel's pivots (global 1-based: col0 + position + 1); moves: the rows whose position
// changed, (new position, old position), for the gather of the other columns.
template <class T, int B>
__global__ void __launch_bounds__(kPanelThreads, 1)
panel_kernel(T* panel, int64_t lda, int m, int kb, int rows_per_block, int64_t col0,
             int64_t* piv, int* info, int* moves) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  using Key = typename PivotKey<T>::type;
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank());
  const int blocks = static_cast<int>(cluster.num_blocks());
  __shared__ PanelShared<T, B> sh;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int row = rank * rows_per_block + tid;
  const bool owns = tid < rows_per_block && row < m;
  bool active = owns;  // not yet chosen as a pivot
  int position = row;
  T a[B];
#pragma unroll
  for (int c = 0; c < B; ++c) a[c] = (owns && c < kb) ? panel[row + c * lda] : T(0);
  if (tid == 0) sh.move_count = 0;
  int first_zero = 0;
  // Every block has started before any writes into another's shared memory.
  if (blocks > 1) cluster.sync();

#pragma unroll
  for (int j = 0; j < B; ++j) {
    if (j >= kb) break;
    const int par = j & 1;
    // 1. Each warp's candidate, then the block's.
    const Key key = active ? PivotKey<T>::of(a[j]) : Key(0);
    const int wl = warp_argmax_lane(key);
    if (lane == wl) {
#pragma unroll
      for (int c = j; c < B; ++c) sh.stage_vals[warp][c] = a[c];
      sh.stage_key[warp] = key;
      sh.stage_row[warp] = row;
      sh.stage_pos[warp] = position;
    }
    __syncthreads();
    const Key wkey = lane < kPanelWarps ? sh.stage_key[lane] : Key(0);
    const int bw = warp_argmax_lane(wkey);
    // 2. Push it to every block: warp w writes into block w.
    if (warp < blocks) {
      T* vals = cluster.map_shared_rank(&sh.inbox_vals[par][rank][0], warp);
      for (int c = j + lane; c < B; c += 32) vals[c] = sh.stage_vals[bw][c];
      if (lane == 0) {
        *cluster.map_shared_rank(&sh.inbox_key[par][rank], warp) = sh.stage_key[bw];
        *cluster.map_shared_rank(&sh.inbox_row[par][rank], warp) = sh.stage_row[bw];
        *cluster.map_shared_rank(&sh.inbox_pos[par][rank], warp) = sh.stage_pos[bw];
      }
    }
    if (blocks > 1) {
      cluster.sync();
    } else {
      __syncthreads();
    }
    // 3. The pivot: the best of the blocks' candidates (every warp decides the same).
    const Key ckey = lane < blocks ? sh.inbox_key[par][lane] : Key(0);
    const int gb = warp_argmax_lane(ckey);
    const int pivot_row = sh.inbox_row[par][gb];
    const int pivot_pos = sh.inbox_pos[par][gb];
    const T* u = sh.inbox_vals[par][gb];
    const T pv = u[j];
    if (active && row == pivot_row) {
      active = false;  // row j of U; its L part is final
      position = j;
      piv[j] = col0 + pivot_pos + 1;
    } else if (active) {
      if (position == j) position = pivot_pos;
      T l = a[j];
      if (pv != T(0)) {
        l = l / pv;
        a[j] = l;
      }
#pragma unroll
      for (int c = j + 1; c < B; ++c) a[c] -= l * u[c];
    }
    if (rank == 0 && tid == 0 && pv == T(0) && first_zero == 0) first_zero = j + 1;
  }
  if (owns) {
#pragma unroll
    for (int c = 0; c < B; ++c)
      if (c < kb) panel[position + c * lda] = a[c];
    if (position != row) {
      const int s = atomicAdd(cluster.map_shared_rank(&sh.move_count, 0), 1);
      moves[1 + 2 * s] = position;
      moves[2 + 2 * s] = row;
    }
  }
  // Every move counted (and no block leaves while another may still write into its
  // shared memory).
  if (blocks > 1) {
    cluster.sync();
  } else {
    __syncthreads();
  }
  if (rank == 0 && tid == 0) {
    moves[0] = sh.move_count;
    if (first_zero != 0 && *info == 0) *info = static_cast<int>(col0) + first_zero;
  }
#else
  __trap();  // launched only on sm_90+ (configure_panel_kernel() is 0 elsewhere)
#endif
}

// The panel's row interchanges on the columns [c0, c1) and [c2, c3) of the rows from the
// panel's top (a): row dst <- old row src for each pair of the move list, all sources
// read first.
constexpr int kMoveCols = 32, kMoveRowsPerPass = 8;

template <class T>
__global__ void apply_moves_kernel(T* a, int64_t lda, int64_t c0, int64_t c1, int64_t c2,
                                   int64_t c3, const int* moves) {
  __shared__ T buf[2 * PanelWidth<T>::value][kMoveCols];  // <= 2B moved rows
  const int count = moves[0];
  int64_t col = static_cast<int64_t>(blockIdx.x) * kMoveCols + threadIdx.x;
  col = col < c1 - c0 ? c0 + col : c2 + (col - (c1 - c0));
  const bool in = col < c3;
  T* column = a + col * lda;
  for (int s = threadIdx.y; s < count; s += kMoveRowsPerPass)
    if (in) buf[s][threadIdx.x] = column[moves[2 + 2 * s]];
  __syncthreads();
  for (int s = threadIdx.y; s < count; s += kMoveRowsPerPass)
    if (in) column[moves[1 + 2 * s]] = buf[s][threadIdx.x];
}

// c -= a b (m x k times k x n), all with leading dimension lda.
template <class T>
cublasStatus_t gemm_minus(cublasHandle_t h, int m, int n, int k, const T* a, const T* b, T* c,
                          int64_t lda) {
  const int ld = static_cast<int>(lda);
  return gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, T(-1), a, ld, b, ld, T(1), c, ld);
}

// The rank-kb update of small matrices in one kernel of ours (n <= kSmallUpdateMaxN):
// columns [0, w) right of the panel, A12 <- L11^-1 A12 (kb rows), then A22 -= L21 A12 (rows
// kb..m). a: the panel's top-left (L11). Why not cuBLAS there: the first cuBLAS GEMM and
// trsm of a process load their kernels, ~85 ms on the H100, which was most of a first det
// 512 in a fresh process (107 ms against 12-24 ms on the other routes); at these sizes the
// update is latency-bound anyway. One block per 16 columns walks all rows of A22 (a block
// owns its columns of A12 and A22, so no block reads what another writes).
constexpr int64_t kSmallUpdateMaxN = 512;
constexpr int kUpdCols = 16, kUpdRows = 64, kUpdThreads = 256;

template <class T, int B>
__global__ void __launch_bounds__(kUpdThreads) small_update_kernel(T* a, int64_t lda, int m,
                                                                   int kb, int w) {
  __shared__ T l11[B][B + 1];
  __shared__ T x[B][kUpdCols];
  __shared__ T l21t[B][kUpdRows];  // transposed: consecutive rows in consecutive banks
  const int t = threadIdx.x;
  const int c0 = blockIdx.x * kUpdCols;
  const int cols = min(kUpdCols, w - c0);
  T* a12 = a + (kb + c0) * lda;
  for (int u = t; u < kb * kb; u += kUpdThreads) {
    const int i = u % kb, p = u / kb;
    l11[i][p] = a[i + p * lda];
  }
  for (int u = t; u < kb * kUpdCols; u += kUpdThreads) {
    const int i = u % kb, j = u / kb;
    x[i][j] = j < cols ? a12[i + j * lda] : T(0);
  }
  // forward substitution with the unit lower L11: 16 columns x 16 row groups
  const int tj = t % kUpdCols, tg = t / kUpdCols;
  for (int p = 0; p < kb - 1; ++p) {
    __syncthreads();
    const T xp = x[p][tj];
    for (int i = p + 1 + tg; i < kb; i += kUpdThreads / kUpdCols) x[i][tj] -= l11[i][p] * xp;
  }
  __syncthreads();
  for (int u = t; u < kb * kUpdCols; u += kUpdThreads) {
    const int i = u % kb, j = u / kb;
    if (j < cols) a12[i + j * lda] = x[i][j];
  }
  // A22, 64 rows at a time: thread row tx, columns ty + 4 q
  const int tx = t % kUpdRows, ty = t / kUpdRows;
  for (int r0 = kb; r0 < m; r0 += kUpdRows) {
    const int rows = min(kUpdRows, m - r0);
    __syncthreads();  // the previous tile's l21t reads are done
    for (int u = t; u < kb * kUpdRows; u += kUpdThreads) {
      const int r = u % kUpdRows, p = u / kUpdRows;
      l21t[p][r] = r < rows ? a[(r0 + r) + p * lda] : T(0);
    }
    __syncthreads();
    T acc[kUpdCols / 4] = {};
    for (int p = 0; p < kb; ++p) {
      const T l = l21t[p][tx];
#pragma unroll
      for (int q = 0; q < kUpdCols / 4; ++q) acc[q] += l * x[p][ty + 4 * q];
    }
    if (tx < rows) {
#pragma unroll
      for (int q = 0; q < kUpdCols / 4; ++q) {
        const int j = ty + 4 * q;
        if (j < cols) a12[(r0 + tx) + j * lda] -= acc[q];
      }
    }
  }
}

// The launch of one panel: one cluster of `blocks` blocks (cfg points into attr: built in
// place, never copied).
struct PanelLaunch {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr = {};
  PanelLaunch(int blocks, cudaStream_t stream) {
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = blocks;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(kPanelThreads);
    cfg.stream = stream;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
  }
  PanelLaunch(const PanelLaunch&) = delete;
  PanelLaunch& operator=(const PanelLaunch&) = delete;
};

// Once per device: the attribute for clusters of more than 8 blocks, and the largest
// cluster the device can schedule; returns the largest n supported (0: none).
template <class T>
int configure_panel_kernel() {
  constexpr int B = PanelWidth<T>::value;
  int major = 0, dev = 0;
  check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev),
             "cudaDeviceGetAttribute");
  if (major < 9) return 0;
  auto kernel = panel_kernel<T, B>;
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
             "cudaFuncSetAttribute(NonPortableClusterSizeAllowed)");
  for (int blocks = kMaxClusterBlocks; blocks >= 1; blocks /= 2) {
    const PanelLaunch launch(blocks, nullptr);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch.cfg) == cudaSuccess &&
        clusters > 0)
      return blocks * kPanelThreads;
    (void)cudaGetLastError();
  }
  return 0;
}

template <class T>
void launch_panel(T* panel, int64_t lda, int m, int kb, int64_t col0, int64_t* piv, int* info,
                  int* moves, cudaStream_t stream) {
  constexpr int B = PanelWidth<T>::value;
  const int blocks = (m + kPanelThreads - 1) / kPanelThreads;
  const PanelLaunch launch(blocks, stream);
  check_cuda(cudaLaunchKernelEx(&launch.cfg, panel_kernel<T, B>, panel, lda, m, kb,
                                (m + blocks - 1) / blocks, col0, piv, info, moves),
             "cudaLaunchKernelEx(lu panel_kernel)");
}

// The whole factorization, two-level: panels of B columns (panel_kernel) inside blocks
// of `outer` columns (a multiple of B). After each panel only the rest of its block is
// updated (trsm + GEMM of rank B); after each block, the trailing matrix in one trsm +
// GEMM of rank `outer`, which cuBLAS runs nearer its peak than rank-B updates. The row
// interchanges go to every column at once. moves: moves_ints<T>() ints of device scratch.
// swap_left: also to the L columns of earlier blocks (needed to use L; det reads only U's
// diagonal and the pivots). n <= the value of configure_panel_kernel.
template <class T>
void factor(T* a, int64_t n, int64_t* piv, int* info, int* moves, bool swap_left, int outer,
            cublasHandle_t handle, cudaStream_t stream) {
  constexpr int B = PanelWidth<T>::value;
  check_cuda(cudaMemsetAsync(info, 0, sizeof(int), stream), "cudaMemsetAsync(info)");
  const int64_t lda = n;
  auto update = [&](int64_t k, int64_t kb, int64_t c_end) {
    // rows k.. of columns [k + kb, c_end) with the L of columns [k, k + kb)
    const int64_t w = c_end - k - kb;
    if (w <= 0) return;
    T* l11 = a + k + k * lda;
    T* a12 = a + k + (k + kb) * lda;
    if (n <= kSmallUpdateMaxN) {
      const unsigned grid = static_cast<unsigned>((w + kUpdCols - 1) / kUpdCols);
      small_update_kernel<T, B><<<grid, kUpdThreads, 0, stream>>>(
          l11, lda, static_cast<int>(n - k), static_cast<int>(kb), static_cast<int>(w));
      check_cuda(cudaGetLastError(), "small_update_kernel (blocked LU)");
      return;
    }
    cublas_check(trsm_left(handle, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_UNIT, static_cast<int>(kb),
                           static_cast<int>(w), l11, static_cast<int>(lda), a12,
                           static_cast<int>(lda)),
                 "cublas trsm (blocked LU)");
    if (n - k - kb > 0)
      cublas_check(gemm_minus(handle, static_cast<int>(n - k - kb), static_cast<int>(w),
                              static_cast<int>(kb), l11 + kb, a12, a12 + kb, lda),
                   "cublas gemm (blocked LU)");
  };
  for (int64_t K = 0; K < n; K += outer) {
    const int64_t block_end = K + outer < n ? K + outer : n;
    for (int64_t k = K; k < block_end; k += B) {
      const int kb = static_cast<int>(block_end - k < B ? block_end - k : B);
      launch_panel<T>(a + k + k * lda, lda, static_cast<int>(n - k), kb, k, piv + k, info,
                      moves, stream);
      const int64_t left0 = swap_left ? 0 : K;
      const int64_t cols = (k - left0) + (n - k - kb);
      if (cols > 0) {
        const unsigned grid = static_cast<unsigned>((cols + kMoveCols - 1) / kMoveCols);
        apply_moves_kernel<T><<<grid, dim3(kMoveCols, kMoveRowsPerPass), 0, stream>>>(
            a + k, lda, left0, k, k + kb, n, moves);
        check_cuda(cudaGetLastError(), "apply_moves_kernel");
      }
      update(k, kb, block_end);
    }
    update(K, block_end - K, n);
  }
}

}  // namespace lu_blocked
}  // namespace gpuarr
