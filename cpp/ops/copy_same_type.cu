// Same-dtype copies between strided views; contiguous ones go to cudaMemcpyAsync, and
// transposing ones (each side contiguous along a different dim) through shared-memory
// tiles, so that both the reads and the writes are coalesced: element by element, one of
// the two sides moved a 32-byte sector per element (ascontiguousarray(a.T) of a 4096^2
// float32 matrix took 139 us).
#include "core/shape_ops.hpp"
#include "ops/kernels.hpp"
#include "ops/shape_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

// One dimension: i times the strides. More: rows of the innermost dim (rows_grid), the
// row's offsets found once (32-bit division) and its elements walked by the x threads;
// short rows: each element's offsets by 32-bit division. A launch holds < 2^31 elements
// (the host cuts larger ones into pieces). With 64-bit division per element, flip along
// axis 0, roll along axis 1 or tile of a 4096^2 float32 matrix took 1.3 to 1.8 times
// CuPy's time.
template <class W>
__global__ void copy_strided_kernel(StridedArgs<2> a, uint32_t n) {
  constexpr int U = kCopyUnroll<W>;
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t i0 = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i0 < n; i0 += U * step) {
    W v[U];
    int64_t to[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int64_t i = i0 + u * step;
      if (i >= n) break;
      int64_t off[2];
      if (a.ndim == 1) {
        off[0] = i * a.strides[0][0];
        off[1] = i * a.strides[1][0];
      } else {
        element_offsets32(a, static_cast<uint32_t>(i), off);
      }
      v[u] = *reinterpret_cast<const W*>(a.data[1] + off[1]);
      to[u] = off[0];
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (i0 + u * step >= n) break;
      *reinterpret_cast<W*>(a.data[0] + to[u]) = v[u];
    }
  }
}

template <class W>
__global__ void copy_rows_kernel(StridedArgs<2> a, uint32_t rows, uint32_t inner) {
  constexpr int U = kCopyUnroll<W>;
  const int d = a.ndim - 1;
  const int64_t ds = a.strides[0][d], ss = a.strides[1][d];
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (uint32_t r = blockIdx.y; r < rows; r += gridDim.y) {
    int64_t off[2];
    element_offsets32(a, r * inner, off);
    char* dst = a.data[0] + off[0];
    const char* src = a.data[1] + off[1];
    for (int64_t j0 = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j0 < inner;
         j0 += U * step) {
      W v[U];
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (j0 + u * step < inner)
          v[u] = *reinterpret_cast<const W*>(src + (j0 + u * step) * ss);
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (j0 + u * step < inner) *reinterpret_cast<W*>(dst + (j0 + u * step) * ds) = v[u];
    }
  }
}

// A batch of planes, each read along dim X (contiguous in src) and written along dim Y
// (contiguous in dst) in 32 x 32 tiles; the other dims are the batch (offsets from
// `batch`, its index divided in 64 bits once per tile).
struct TileArgs {
  int64_t nx, ny;          // plane extents
  int64_t src_y, dst_x;    // the strides that are not the itemsize
  int64_t nbatch;
  StridedArgs<2> batch;    // operand 0 dst, 1 src: the other dims
};

template <class W>
__global__ void __launch_bounds__(kTransposeTileThreads<W>, transpose_tile_blocks<W>(2048))
    transpose_tiles_kernel(TileArgs a) {
  __shared__ TransposeTile<W> tile;
  const int64_t x0 = blockIdx.x * int64_t(kTransposeTile);
  const int64_t y0 = blockIdx.y * int64_t(kTransposeTile);
  for (int64_t b = blockIdx.z; b < a.nbatch; b += gridDim.z) {
    int64_t off[2];
    element_offsets(a.batch, b, off);
    const char* src = a.batch.data[1] + off[1];
    move_tile_transposed<W>(
        tile, x0, y0, a.nx, a.ny,
        [&](int64_t x, int64_t y) {
          return *reinterpret_cast<const W*>(src + x * int64_t(sizeof(W)) + y * a.src_y);
        },
        a.batch.data[0] + off[0], a.dst_x);
  }
}

// The transposing copy when one dim is contiguous (stride itemsize) in src, another in dst,
// both long enough to fill tiles and the grid can hold the plane; false otherwise.
template <class W>
bool copy_transposing(char* dst, const Dims& ds, const char* src, const Dims& ss,
                      const Dims& shape, cudaStream_t stream) {
  const int nd = static_cast<int>(shape.size());
  if (nd < 2 || nd > kKernelDims + 2) return false;
  const int64_t w = sizeof(W);
  int x = -1, y = -1;
  for (int d = 0; d < nd; ++d) {
    if (ss[d] == w && x < 0) x = d;
    if (ds[d] == w && y < 0) y = d;
  }
  if (x < 0 || y < 0 || x == y || shape[x] < kTransposeTile || shape[y] < kTransposeTile)
    return false;
  const int64_t tiles_y = (shape[y] + kTransposeTile - 1) / kTransposeTile;
  if (tiles_y > 65535) return false;
  TileArgs a{};
  a.nx = shape[x];
  a.ny = shape[y];
  a.src_y = ss[y];
  a.dst_x = ds[x];
  a.nbatch = tile_batch<2>(a.batch, shape, x, y, {&ds, &ss}, {dst, const_cast<char*>(src)});
  const dim3 grid(static_cast<unsigned>((a.nx + kTransposeTile - 1) / kTransposeTile),
                  static_cast<unsigned>(tiles_y),
                  static_cast<unsigned>(std::min<int64_t>(a.nbatch, 65535)));
  transpose_tiles_kernel<W><<<grid, dim3(kTransposeTile, kTransposeTileRows<W>), 0, stream>>>(
      a);
  check_launch("transpose_tiles_kernel");
  return true;
}

// Rows under 128 bytes into a C-contiguous dst (numpy.repeat's broadcasting copy, a
// column block a[:, :3]) as the one-pass concatenation of one piece: each thread stores 16
// contiguous bytes, where the per-element walk stored one element at a time (repeat of 8M
// float32 by 2 at 60% of the copy bandwidth). False, launching nothing, otherwise.
bool copy_narrow_rows(char* dst, const Dims& ds, const char* src, const Dims& ss,
                      const Dims& shape, int64_t itemsize, cudaStream_t stream) {
  if (shape.empty() || ds != contiguous_strides(shape, itemsize, 'C')) return false;
  int64_t rows = 0;
  std::vector<ConcatRowsPiece> piece;
  if (!concat_rows_layout(shape, {shape}, {ss}, static_cast<int64_t>(shape.size()) - 1,
                          itemsize, rows, piece))
    return false;
  launch_concat_rows(dst, rows, &src, piece.data(), 1, itemsize, stream);
  return true;
}

template <class W>
void copy_typed(char* dst, const Dims& ds, const char* src, const Dims& ss, const Dims& shape,
                cudaStream_t stream) {
  constexpr int kThreads = 256;
  const bool rows = shape.size() >= 2 && shape.back() >= kRowsMinInner;
  for_each_launch<2>(
      shape, {&ds, &ss}, {dst, const_cast<char*>(src)},
      [&](const StridedArgs<2>& a, int64_t n) {
        if (rows && a.ndim >= 2) {
          const int64_t inner = a.shape[a.ndim - 1];
          const int64_t nrows = n / inner;
          const int64_t per_row = (inner + kCopyUnroll<W> - 1) / kCopyUnroll<W>;
          copy_rows_kernel<W><<<rows_grid(nrows, per_row, kThreads), kThreads, 0, stream>>>(
              a, static_cast<uint32_t>(nrows), static_cast<uint32_t>(inner));
          check_launch("copy_rows_kernel");
        } else {
          copy_strided_kernel<W>
              <<<grid_for((n + kCopyUnroll<W> - 1) / kCopyUnroll<W>, kThreads), kThreads, 0,
                 stream>>>(a, static_cast<uint32_t>(n));
          check_launch("copy_strided_kernel");
        }
      },
      INT32_MAX);
}

}  // namespace

void launch_copy_same_type(char* dst, const Dims& dst_strides, const char* src,
                           const Dims& src_strides, const Dims& shape_in, int64_t itemsize,
                           cudaStream_t stream) {
  Dims shape = shape_in;
  if (shape_size(shape) == 0) return;
  std::vector<Dims> strides{dst_strides, src_strides};
  coalesce_dims(shape, strides);
  if (shape.size() == 1 && strides[0][0] == itemsize && strides[1][0] == itemsize) {
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(dst, src, shape[0] * itemsize, cudaMemcpyDeviceToDevice,
                                      stream));
    return;
  }
  // Rows contiguous in both operands move in words of up to 16 bytes (a 16-byte word as
  // one 16-byte access: Word16 is only 8-aligned): flip along axis 0 of a 4096^2 float32
  // matrix and tile (2, 2) of a 2048^2 one moved 4 bytes an access, at 72% and 45% of the
  // copy bandwidth.
  const int64_t word = widen_innermost(
      shape, strides, {reinterpret_cast<uintptr_t>(dst), reinterpret_cast<uintptr_t>(src)},
      itemsize, 16);
  if (word == 16 && itemsize < 16) {
    copy_typed<uint4>(dst, strides[0], src, strides[1], shape, stream);
    return;
  }
  dispatch_word(word, [&](auto w) {
    using W = decltype(w);
    if (copy_transposing<W>(dst, strides[0], src, strides[1], shape, stream)) return;
    if (word == itemsize &&
        copy_narrow_rows(dst, strides[0], src, strides[1], shape, itemsize, stream))
      return;
    copy_typed<W>(dst, strides[0], src, strides[1], shape, stream);
  });
}

}  // namespace gpuarr
