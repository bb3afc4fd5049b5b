// Launching elementwise kernels over strided views: N operands share one shape, each
// with its own byte strides; dimensions are coalesced on the host first so that most
// launches index one contiguous dimension.
#pragma once
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/layout.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

// Dimensions one launch indexes; problems with more (after coalescing) are split into
// several launches over the outer dimensions.
constexpr int kKernelDims = 16;

template <int N>
struct StridedArgs {
  int ndim;
  int64_t shape[kKernelDims];
  int64_t strides[N][kKernelDims];
  char* data[N];
};

template <int N>
__device__ __forceinline__ void element_offsets(const StridedArgs<N>& a, int64_t i,
                                                int64_t (&off)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
  // The outermost dim's index is what is left of i (i < the element count): no division.
  for (int d = a.ndim - 1; d > 0; --d) {
    const int64_t n = a.shape[d];
    const int64_t idx = i % n;
    i /= n;
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += idx * a.strides[k][d];
  }
  if (a.ndim > 0) {
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += i * a.strides[k][0];
  }
}

// The same with 32-bit index arithmetic (several times cheaper than 64-bit division), for
// problems whose element count fits in 32 bits.
template <int N>
__device__ __forceinline__ void element_offsets32(const StridedArgs<N>& a, uint32_t i,
                                                  int64_t (&off)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) off[k] = 0;
  for (int d = a.ndim - 1; d > 0; --d) {
    const uint32_t n = static_cast<uint32_t>(a.shape[d]);
    const uint32_t q = i / n;
    const int64_t idx = static_cast<int64_t>(i - q * n);
    i = q;
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += idx * a.strides[k][d];
  }
  if (a.ndim > 0) {
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] += static_cast<int64_t>(i) * a.strides[k][0];
  }
}

// A 16-byte element (complex128) moved as two 8-byte words: views may be only 8-aligned.
struct alignas(8) Word16 {
  uint64_t lo, hi;
};

// Calls f(W{}) with W the word that moves one element of `itemsize` bytes in the
// dtype-agnostic kernels (copies, fills, gathers, triangles): uint8_t .. uint64_t, Word16.
template <class F>
void dispatch_word(int64_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    case 8: return f(uint64_t{});
    case 16: return f(Word16{});
  }
}

// Elements a thread moves at once in the strided copies and the one-pass concatenation,
// all loaded before any is stored: 16 bytes (2 to 8 elements) in flight a thread instead
// of one element. One at a time, the copies were bound by the loads' latency, not by
// bandwidth (flip of 16M float32 at 62% of the copy bandwidth, flip along axis 0 of a
// 4096^2 float32 matrix at 72%).
template <class W>
constexpr int kCopyUnroll = sizeof(W) >= 8 ? 2 : (sizeof(W) >= 4 ? 4 : 8);

inline dim3 grid_for(int64_t n, int threads) {
  const int64_t blocks = std::min<int64_t>((n + threads - 1) / threads, int64_t(1) << 20);
  return dim3(static_cast<unsigned>(std::max<int64_t>(blocks, 1)));
}

// The grid for `n` threads of `threads` a block, at most `waves` times the device's
// resident threads, for kernels whose threads loop over their elements: more blocks only
// add blocks to schedule, and a loop with several elements a thread keeps more loads in
// flight than a thread an element (the general elementwise kernel's 1-d strided launches,
// tools/probes/elementwise_flat_grid.cu).
inline dim3 waves_grid(int64_t n, int threads, int device, int waves) {
  return grid_for(std::min<int64_t>(n, int64_t(resident_threads(device)) * waves), threads);
}

// Transposing moves (a copy or a gather whose two sides are contiguous along different
// dims) go through shared-memory tiles of kTransposeTile^2 elements, kTransposeTileRows
// rows of threads a block, so that both the reads and the writes are coalesced. Rows: 8
// for elements of 8 bytes or more, 4 for narrower ones (8 loads a thread in flight for
// 4-byte elements). Tiles of 64 x 64 for 4-byte elements ran twice as long
// (docs/decisions.md).
constexpr int kTransposeTile = 32;
template <class W>
constexpr int kTransposeTileRows = sizeof(W) >= 8 ? 8 : 4;

template <class W>
using TransposeTile = W[kTransposeTile][kTransposeTile + 1];  // +1: no bank conflicts
// Threads of a tiled move's block, and the blocks an SM its kernel's launch bounds ask for
// so that `resident` of the SM's 2048 threads fit in its registers (2048: 32 registers a
// thread). Unbounded, the transposing copy's batch offsets took 78 registers, a third of
// the SM's threads, and its float32 transpose ran 30% longer.
template <class W>
constexpr int kTransposeTileThreads = kTransposeTile * kTransposeTileRows<W>;
template <class W>
constexpr int transpose_tile_blocks(int resident) {
  return resident / kTransposeTileThreads<W>;
}

// The batch of a tiled move: the dims of `shape` other than its plane's x and y, with
// operand k's strides (*strides[k]) and data; returns the number of planes.
template <int N>
int64_t tile_batch(StridedArgs<N>& batch, const Dims& shape, int x, int y,
                   const std::array<const Dims*, N>& strides, const std::array<char*, N>& data) {
  batch.ndim = 0;
  int64_t planes = 1;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d == x || d == y) continue;
    const int k = batch.ndim++;
    batch.shape[k] = shape[d];
    for (int i = 0; i < N; ++i) batch.strides[i][k] = (*strides[i])[d];
    planes *= shape[d];
  }
  for (int i = 0; i < N; ++i) batch.data[i] = data[i];
  return planes;
}

// Moves the tile at (x0, y0) of an nx x ny plane: load(x, y) read along X by consecutive
// threads, then written along Y through shared memory, element (x, y) at
// dst + x * dst_x + y * sizeof(W). Every thread of the block calls it. A tile inside the
// plane (all but the edges) is moved without bounds checks, each thread's loads all issued
// before its first store, and its rows of the destination a stride apart from one pointer:
// checked, predicated loads and 64-bit offsets per element left the float32 transposes
// issue-bound at 66% of the copy bandwidth.
template <class W, class Load>
__device__ __forceinline__ void move_tile_transposed(TransposeTile<W>& tile, int64_t x0,
                                                     int64_t y0, int64_t nx, int64_t ny,
                                                     Load load, char* dst, int64_t dst_x) {
  constexpr int kRows = kTransposeTileRows<W>;
  constexpr int kSteps = kTransposeTile / kRows;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t x = x0 + tx;
  const bool inside = x0 + kTransposeTile <= nx && y0 + kTransposeTile <= ny;
  if (inside) {
    W v[kSteps];
#pragma unroll
    for (int k = 0; k < kSteps; ++k) v[k] = load(x, y0 + ty + k * kRows);
#pragma unroll
    for (int k = 0; k < kSteps; ++k) tile[ty + k * kRows][tx] = v[k];
  } else {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) {
      const int64_t y = y0 + ty + k * kRows;
      if (x < nx && y < ny) tile[ty + k * kRows][tx] = load(x, y);
    }
  }
  __syncthreads();
  if (inside) {
    char* out = dst + (x0 + ty) * dst_x + (y0 + tx) * int64_t(sizeof(W));
    const int64_t step = kRows * dst_x;
#pragma unroll
    for (int k = 0; k < kSteps; ++k, out += step)
      *reinterpret_cast<W*>(out) = tile[tx][ty + k * kRows];
  } else {
    const int64_t wy = y0 + tx;
#pragma unroll
    for (int k = 0; k < kSteps; ++k) {
      const int64_t wx = x0 + ty + k * kRows;
      if (wx < nx && wy < ny)
        *reinterpret_cast<W*>(dst + wx * dst_x + wy * int64_t(sizeof(W))) =
            tile[tx][ty + k * kRows];
    }
  }
  __syncthreads();
}

// The grid of a launch that gives rows of `inner` elements to blockIdx.y (striding by
// gridDim.y) and each row's elements to the x blocks' threads: a block a row where rows are
// many, several where they are few and long (tile of 16 rows of 1M elements ran on 16
// blocks), about 2048 blocks in all.
inline dim3 rows_grid(int64_t rows, int64_t inner, int threads) {
  const int64_t per_row = (inner + threads - 1) / threads;
  const int64_t x = std::max<int64_t>(1, std::min(per_row, 2048 / std::max<int64_t>(rows, 1)));
  return dim3(static_cast<unsigned>(x),
              static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>(rows, 65535))));
}

// Calls launch(args, n) on the piece `a` (n elements) or, where n exceeds max_elements,
// on pieces of it that do not: the leading dimension is cut into runs short enough, or
// walked one index at a time where even one index of it holds too many elements.
template <int N, class Launch>
void launch_in_pieces(StridedArgs<N> a, int64_t n, int64_t max_elements, Launch& launch) {
  if (n <= max_elements || a.ndim == 0) {
    launch(a, n);
    return;
  }
  const int64_t lead = a.shape[0];
  const int64_t rest = n / lead;
  StridedArgs<N> piece = a;
  if (rest <= max_elements) {
    const int64_t run = std::max<int64_t>(1, max_elements / rest);
    for (int64_t i = 0; i < lead; i += run) {
      piece.shape[0] = std::min(run, lead - i);
      for (int k = 0; k < N; ++k) piece.data[k] = a.data[k] + i * a.strides[k][0];
      launch(piece, piece.shape[0] * rest);
    }
    return;
  }
  piece.ndim = a.ndim - 1;
  for (int d = 0; d < piece.ndim; ++d) {
    piece.shape[d] = a.shape[d + 1];
    for (int k = 0; k < N; ++k) piece.strides[k][d] = a.strides[k][d + 1];
  }
  for (int64_t i = 0; i < lead; ++i) {
    for (int k = 0; k < N; ++k) piece.data[k] = a.data[k] + i * a.strides[k][0];
    launch_in_pieces<N>(piece, rest, max_elements, launch);
  }
}

// Calls launch(args, n_elements) for each piece of the problem: at most kKernelDims
// dimensions and max_elements elements each (INT32_MAX lets a kernel index in 32 bits).
// `shape` and `strides` must already be coalesced.
template <int N, class Launch>
void for_each_launch(const Dims& shape, const std::array<const Dims*, N>& strides,
                     const std::array<char*, N>& data, Launch&& launch,
                     int64_t max_elements = INT64_MAX) {
  const int nd = static_cast<int>(shape.size());
  const int outer = std::max(0, nd - kKernelDims);
  StridedArgs<N> args{};
  args.ndim = nd - outer;
  for (int d = 0; d < args.ndim; ++d) {
    args.shape[d] = shape[outer + d];
    for (int k = 0; k < N; ++k) args.strides[k][d] = (*strides[k])[outer + d];
  }
  int64_t inner = 1;
  for (int d = 0; d < args.ndim; ++d) inner *= args.shape[d];
  int64_t outer_count = 1;
  for (int d = 0; d < outer; ++d) outer_count *= shape[d];
  for (int64_t o = 0; o < outer_count; ++o) {
    int64_t rem = o;
    for (int k = 0; k < N; ++k) args.data[k] = data[k];
    for (int d = outer - 1; d >= 0; --d) {
      const int64_t idx = rem % shape[d];
      rem /= shape[d];
      for (int k = 0; k < N; ++k) args.data[k] += idx * (*strides[k])[d];
    }
    launch_in_pieces<N>(args, inner, max_elements, launch);
  }
}

inline void check_launch(const char* kernel) {
  check_cuda(cudaGetLastError(), kernel);
}

}  // namespace gpuarr
