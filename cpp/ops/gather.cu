// Gather and scatter of advanced indexing, put's last-write scatter, the bounds check of
// one index array, and the kernel that combines several index arrays into offsets. The
// element move is dtype-agnostic: itemsize-byte words (complex128 as two 8-byte words).
// Gathers and scatters read one index array as it is (int32 or int64): turning it into
// int64 offsets first would add a pass writing and a pass reading 8 bytes an index.
#include <stdexcept>

#include "ops/indexing_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

constexpr int kThreads = 256;

// Operand 0: the offsets (C-contiguous int64 over the index shape); operand 1: the index.
__global__ void index_offsets_kernel(StridedArgs<2> a, int64_t n, const int64_t* base,
                                     bool has_idx, int64_t axis_size, int64_t stride, int mode,
                                     bool accumulate, unsigned long long* err) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    element_offsets(a, i, off);
    int64_t* o = reinterpret_cast<int64_t*>(a.data[0] + off[0]);
    int64_t v = has_idx ? *reinterpret_cast<const int64_t*>(a.data[1] + off[1]) : 0;
    if (!apply_index_mode(v, axis_size, static_cast<IndexMode>(mode))) {
      if (err) atomicMin(err, static_cast<unsigned long long>(o - base));
      v = 0;
    }
    const int64_t add = v * stride;
    *o = accumulate ? *o + add : add;
  }
}

// The source byte offset of index value v (IndexSource's rules).
struct IndexRule {
  bool offsets;
  IndexMode mode;
  int64_t axis_size;
  int64_t stride;
  unsigned int* flag;
};

IndexRule rule_of(const IndexSource& s) {
  return {s.offsets, s.mode, s.axis_size, s.stride, s.flag};
}

template <class I>
__device__ __forceinline__ int64_t source_offset(I value, const IndexRule& r) {
  int64_t v = value;
  if (r.offsets) return v;
  if (!apply_index_mode(v, r.axis_size, r.mode)) {
    if (r.flag) *r.flag = 1;
    return 0;
  }
  return v * r.stride;
}

// Operands: 0 out, 1 in, 2 index; the index's offset is added on the indexed side, `in`
// for a gather (out[i] = src[... + offset]), `out` for a scatter (dst[... + offset] =
// value[i]). A launch holds < 2^31 elements.
template <class W, class I, bool Scatter>
__global__ void indexed_copy_kernel(StridedArgs<3> a, uint32_t n, IndexRule r) {
  const uint32_t step = gridDim.x * blockDim.x;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[3];
    element_offsets32(a, i, off);
    const int64_t extra = source_offset(*reinterpret_cast<const I*>(a.data[2] + off[2]), r);
    *reinterpret_cast<W*>(a.data[0] + off[0] + (Scatter ? extra : 0)) =
        *reinterpret_cast<const W*>(a.data[1] + off[1] + (Scatter ? 0 : extra));
  }
}

// The same where the index is constant along rows of the innermost dim (a[idx] of rows,
// take along axis 0): each row's index read and offsets found once (rows_grid).
template <class W, class I>
__global__ void gather_rows_kernel(StridedArgs<3> a, uint32_t rows, uint32_t inner,
                                   IndexRule r) {
  const int d = a.ndim - 1;
  const int64_t os = a.strides[0][d], ss = a.strides[1][d];
  for (uint32_t row = blockIdx.y; row < rows; row += gridDim.y) {
    int64_t off[3];
    element_offsets32(a, row * inner, off);
    const int64_t extra = source_offset(*reinterpret_cast<const I*>(a.data[2] + off[2]), r);
    char* out = a.data[0] + off[0];
    const char* src = a.data[1] + off[1] + extra;
    for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < inner;
         j += gridDim.x * blockDim.x)
      *reinterpret_cast<W*>(out + j * os) = *reinterpret_cast<const W*>(src + j * ss);
  }
}

// Gathers whose result is contiguous along another dim (Y) than the last (X; NumPy's layout
// of a[:, idx]): tiles read along X, consecutive threads taking consecutive index values as
// a C-order gather does, and written along Y through shared memory, so that the writes are
// coalesced too (a C-order gather then a transposing copy of a[:, idx] of a 4096^2 float32
// matrix took 124 us, CuPy's take 70). The other dims are the batch.
struct GatherTileArgs {
  int64_t nx, ny;                    // plane extents
  int64_t out_x;                     // out's stride along X (along Y it is the itemsize)
  int64_t src_x, src_y, idx_x, idx_y;
  int64_t nbatch;
  StridedArgs<3> batch;              // operands as indexed_copy_kernel's: the other dims
};

// Three quarters of an SM's threads: at all of them (32 registers) the index loads of
// 1-byte and 16-byte elements spilled.
template <class W, class I>
__global__ void __launch_bounds__(kTransposeTileThreads<W>, transpose_tile_blocks<W>(1536))
    gather_tiles_kernel(GatherTileArgs a, IndexRule r) {
  __shared__ TransposeTile<W> tile;
  const int64_t x0 = blockIdx.x * int64_t(kTransposeTile);
  for (int64_t b = blockIdx.z; b < a.nbatch; b += gridDim.z) {
    int64_t off[3];
    element_offsets(a.batch, b, off);
    const char* src = a.batch.data[1] + off[1];
    const char* idx = a.batch.data[2] + off[2];
    for (int64_t y0 = blockIdx.y * int64_t(kTransposeTile); y0 < a.ny;
         y0 += int64_t(gridDim.y) * kTransposeTile) {
      move_tile_transposed<W>(
          tile, x0, y0, a.nx, a.ny,
          [&](int64_t x, int64_t y) {
            const I v = *reinterpret_cast<const I*>(idx + x * a.idx_x + y * a.idx_y);
            return *reinterpret_cast<const W*>(src + x * a.src_x + y * a.src_y +
                                               source_offset(v, r));
          },
          a.batch.data[0] + off[0], a.out_x);
    }
  }
}

// The tiled gather where the result is contiguous along a dim other than the last and
// both are at least a tile long; false otherwise.
template <class W, class I>
bool gather_transposing(char* out, const Dims& os, const char* in, const Dims& ins,
                        const IndexSource& idx, const Dims& is, const Dims& shape,
                        cudaStream_t stream) {
  const int nd = static_cast<int>(shape.size());
  if (nd < 2 || nd > kKernelDims + 2) return false;
  const int64_t w = sizeof(W);
  const int x = nd - 1;
  int y = -1;
  for (int d = 0; d < x && y < 0; ++d)
    if (os[d] == w) y = d;
  if (y < 0 || os[x] == w || shape[x] < kTransposeTile || shape[y] < kTransposeTile)
    return false;
  GatherTileArgs a{};
  a.nx = shape[x];
  a.ny = shape[y];
  a.out_x = os[x];
  a.src_x = ins[x];
  a.src_y = ins[y];
  a.idx_x = is[x];
  a.idx_y = is[y];
  a.nbatch = tile_batch<3>(a.batch, shape, x, y, {&os, &ins, &is},
                          {out, const_cast<char*>(in), const_cast<char*>(idx.data)});
  const int64_t tiles_x = (a.nx + kTransposeTile - 1) / kTransposeTile;
  const int64_t tiles_y = (a.ny + kTransposeTile - 1) / kTransposeTile;
  if (tiles_x > INT32_MAX) return false;
  const dim3 grid(static_cast<unsigned>(tiles_x),
                  static_cast<unsigned>(std::min<int64_t>(tiles_y, 65535)),
                  static_cast<unsigned>(std::min<int64_t>(a.nbatch, 65535)));
  gather_tiles_kernel<W, I><<<grid, dim3(kTransposeTile, kTransposeTileRows<W>), 0, stream>>>(
      a, rule_of(idx));
  check_launch("gather_tiles_kernel");
  return true;
}

// put's last write: each write claims its target with its position; the largest wins.
template <class I>
__global__ void claim_targets_kernel(const char* idx, int64_t idx_stride, uint32_t n,
                                     IndexRule r, int32_t* winners) {
  const uint32_t step = gridDim.x * blockDim.x;
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += step) {
    const int64_t t = source_offset(*reinterpret_cast<const I*>(idx + j * idx_stride), r);
    atomicMax(winners + t, static_cast<int32_t>(j));
  }
}

template <class W, class I>
__global__ void last_write_kernel(char* dst, int64_t dst_stride, const char* idx,
                                  int64_t idx_stride, const char* val, int64_t val_stride,
                                  uint32_t n, IndexRule r, const int32_t* winners) {
  const uint32_t step = gridDim.x * blockDim.x;
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += step) {
    const int64_t t = source_offset(*reinterpret_cast<const I*>(idx + j * idx_stride), r);
    if (winners[t] == static_cast<int32_t>(j))
      *reinterpret_cast<W*>(dst + t * dst_stride) =
          *reinterpret_cast<const W*>(val + j * val_stride);
  }
}

// put's last write where the targets do not descend: repeated targets are runs, and the
// last write of a run is its end.
template <class W, class I>
__global__ void run_end_write_kernel(char* dst, int64_t dst_stride, const char* idx,
                                     int64_t idx_stride, const char* val, int64_t val_stride,
                                     uint32_t n, IndexRule r) {
  const uint32_t step = gridDim.x * blockDim.x;
  for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += step) {
    const int64_t t = source_offset(*reinterpret_cast<const I*>(idx + j * idx_stride), r);
    if (j + 1 == n ||
        source_offset(*reinterpret_cast<const I*>(idx + (j + 1) * idx_stride), r) != t)
      *reinterpret_cast<W*>(dst + t * dst_stride) =
          *reinterpret_cast<const W*>(val + j * val_stride);
  }
}

// Positions base + i (C order over the index shape): one dimension walks its stride, more
// find each element's offset by division. `ascending` (one dimension, one launch) is
// cleared where a target (negative values counted from the end) exceeds the next one.
template <class I>
__global__ void index_check_kernel(StridedArgs<1> a, uint32_t n, uint64_t base,
                                   int64_t axis_size, unsigned long long* err,
                                   unsigned long long* ascending) {
  const uint32_t step = gridDim.x * blockDim.x;
  bool descends = false;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[1];
    if (a.ndim == 1) off[0] = int64_t(i) * a.strides[0][0];
    else element_offsets32(a, i, off);
    int64_t v = *reinterpret_cast<const I*>(a.data[0] + off[0]);
    if (!apply_index_mode(v, axis_size, IndexMode::Raise)) atomicMin(err, base + i);
    if (ascending && i + 1 < n) {
      int64_t next = *reinterpret_cast<const I*>(a.data[0] + off[0] + a.strides[0][0]);
      apply_index_mode(next, axis_size, IndexMode::Raise);
      descends |= v > next;
    }
  }
  // One store a warp at most: unsorted indices would otherwise queue up to n/2 stores on
  // one address. Every lane of the block's full warps reaches this point.
  if (ascending && __ballot_sync(0xffffffffu, descends) != 0 && threadIdx.x % 32 == 0 &&
      *ascending != 0)
    *ascending = 0;
}

// Gather (Scatter false: out, src) or scatter (dst, value) of one word and index type.
template <class W, class I, bool Scatter>
void indexed_copy_typed(char* out, const Dims& os, const char* in, const Dims& ins,
                        const IndexSource& idx, const Dims& is, const Dims& shape,
                        cudaStream_t stream) {
  if constexpr (!Scatter) {
    if (gather_transposing<W, I>(out, os, in, ins, idx, is, shape, stream)) return;
  }
  const IndexRule r = rule_of(idx);
  const bool rows =
      !Scatter && shape.size() >= 2 && shape.back() >= kRowsMinInner && is.back() == 0;
  for_each_launch<3>(
      shape, {&os, &ins, &is}, {out, const_cast<char*>(in), const_cast<char*>(idx.data)},
      [&](const StridedArgs<3>& a, int64_t n) {
        if (rows && a.ndim >= 2) {
          const int64_t inner = a.shape[a.ndim - 1];
          const int64_t nrows = n / inner;
          gather_rows_kernel<W, I><<<rows_grid(nrows, inner, kThreads), kThreads, 0, stream>>>(
              a, static_cast<uint32_t>(nrows), static_cast<uint32_t>(inner), r);
          check_launch("gather_rows_kernel");
        } else {
          indexed_copy_kernel<W, I, Scatter><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
              a, static_cast<uint32_t>(n), r);
          check_launch("indexed_copy_kernel");
        }
      },
      INT32_MAX);
}

// Calls f(word, index) with values of the launch's word type (itemsize bytes) and index
// type.
template <class F>
void dispatch_word_index(int64_t itemsize, bool int32, F&& f) {
  dispatch_word(itemsize, [&](auto word) {
    if (int32) f(word, int32_t{});
    else f(word, int64_t{});
  });
}

}  // namespace

void launch_index_offsets(int64_t* offsets, const Dims& index_shape, const char* idx,
                          const Dims& idx_strides, int64_t axis_size, int64_t stride,
                          IndexMode mode, bool accumulate, unsigned long long* err,
                          cudaStream_t stream) {
  Dims shape = index_shape;
  if (shape_size(shape) == 0) return;
  const bool has_idx = idx != nullptr;
  std::vector<Dims> strides{contiguous_strides(index_shape, 8, 'C'),
                            has_idx ? idx_strides : Dims(index_shape.size(), 0)};
  coalesce_dims(shape, strides);
  for_each_launch<2>(shape, {&strides[0], &strides[1]},
                     {reinterpret_cast<char*>(offsets), const_cast<char*>(idx)},
                     [&](const StridedArgs<2>& a, int64_t n) {
                       index_offsets_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(
                           a, n, offsets, has_idx, axis_size, stride, static_cast<int>(mode),
                           accumulate, err);
                       check_launch("index_offsets_kernel");
                     });
}

void launch_gather(char* out, const Dims& out_strides, const char* src, const Dims& src_strides,
                   const IndexSource& idx, const Dims& idx_strides, const Dims& shape_in,
                   int64_t itemsize, cudaStream_t stream) {
  Dims shape = shape_in;
  if (shape_size(shape) == 0) return;
  std::vector<Dims> s{out_strides, src_strides, idx_strides};
  coalesce_dims(shape, s);
  dispatch_word_index(itemsize, idx.int32, [&](auto word, auto index) {
    indexed_copy_typed<decltype(word), decltype(index), false>(out, s[0], src, s[1], idx, s[2],
                                                               shape, stream);
  });
}

void launch_scatter(char* dst, const Dims& dst_strides, const IndexSource& idx,
                    const Dims& idx_strides, const char* val, const Dims& val_strides,
                    const Dims& shape_in, int64_t itemsize, cudaStream_t stream) {
  Dims shape = shape_in;
  if (shape_size(shape) == 0) return;
  std::vector<Dims> s{dst_strides, val_strides, idx_strides};
  coalesce_dims(shape, s);
  dispatch_word_index(itemsize, idx.int32, [&](auto word, auto index) {
    indexed_copy_typed<decltype(word), decltype(index), true>(dst, s[0], val, s[1], idx, s[2],
                                                              shape, stream);
  });
}

void launch_last_write_scatter(char* dst, int64_t dst_stride, const IndexSource& idx,
                               int64_t idx_stride, const char* val, int64_t val_stride,
                               int64_t n, int32_t* winners, int64_t itemsize,
                               cudaStream_t stream) {
  if (n == 0) return;
  IndexRule r = rule_of(idx);
  r.stride = 1;  // targets as element positions
  const uint32_t count = static_cast<uint32_t>(n);
  dispatch_word_index(itemsize, idx.int32, [&](auto word, auto index) {
    using W = decltype(word);
    using I = decltype(index);
    if (winners == nullptr) {
      run_end_write_kernel<W, I><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
          dst, dst_stride, idx.data, idx_stride, val, val_stride, count, r);
      check_launch("run_end_write_kernel");
      return;
    }
    claim_targets_kernel<I><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
        idx.data, idx_stride, count, r, winners);
    check_launch("claim_targets_kernel");
    last_write_kernel<W, I><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
        dst, dst_stride, idx.data, idx_stride, val, val_stride, count, r, winners);
    check_launch("last_write_kernel");
  });
}

void launch_index_check(const IndexSource& idx, const Dims& index_shape,
                        const Dims& idx_strides, unsigned long long* err, cudaStream_t stream,
                        unsigned long long* ascending) {
  Dims shape = index_shape;
  if (shape_size(shape) == 0) return;
  if (ascending && (shape.size() != 1 || shape[0] > INT32_MAX))
    throw std::logic_error("launch_index_check: order tested on one dim of < 2^31 values");
  std::vector<Dims> s{idx_strides};
  coalesce_dims(shape, s);
  // The pieces come in C order: a piece's first position is the count before it.
  uint64_t base = 0;
  for_each_launch<1>(
      shape, {&s[0]}, {const_cast<char*>(idx.data)},
      [&](const StridedArgs<1>& a, int64_t n) {
        const auto count = static_cast<uint32_t>(n);
        if (idx.int32) {
          index_check_kernel<int32_t><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
              a, count, base, idx.axis_size, err, ascending);
        } else {
          index_check_kernel<int64_t><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
              a, count, base, idx.axis_size, err, ascending);
        }
        check_launch("index_check_kernel");
        base += static_cast<uint64_t>(n);
      },
      INT32_MAX);
}

}  // namespace gpuarr
