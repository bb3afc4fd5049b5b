// Planning a reduction over some axes of a strided array: the kept and reduced dimensions
// (each coalesced, in C order so that flat indices over the reduced dims are NumPy's), the
// kernel strategy and how the reduced range splits over blocks. Plain C++, unit-tested.
#pragma once
#include <vector>

#include "core/layout.hpp"

namespace gpuarr {

enum class ReduceStrategy {
  Inner,  // the reduced dims hold the smallest stride: a block per output, reading rows
  Outer,  // the kept dims hold it: a thread per output, consecutive outputs adjacent
};

// Threads of a reduction block (ops/reduce.cuh), and its warps.
constexpr int kReduceThreads = 256;
constexpr int kReduceWarps = kReduceThreads / 32;

// Blocks of the Inner kernel (256 threads) that its __launch_bounds__ keep resident on one
// SM (ops/reduce.cuh). A reduction with fewer outputs than one wave of them splits into
// that wave: a second wave of the same blocks only added a tail (the whole sum of 16M
// float32 on the H200: 26.9 us in 4 blocks an SM, 28.8 in 8, 31.4 in 16).
constexpr int kReduceInnerBlocksPerSm = 4;

struct ReductionPlan {
  Dims out_shape;         // NumPy's result shape (with keepdims applied)
  Dims kept_shape;        // coalesced kept dims (one dim of size 1 when nothing is kept)
  Dims kept_strides;      // input byte strides of the kept dims
  Dims reduced_shape;     // coalesced reduced dims (C order)
  Dims reduced_strides;   // input byte strides of the reduced dims
  int64_t n_out = 1;
  int64_t n_reduce = 1;
  ReduceStrategy strategy = ReduceStrategy::Inner;
  int64_t chunks = 1;     // the reduced range splits into this many partial results
  // Inner over one reduced dim with enough outputs that a warp each fills half a wave of
  // blocks: each output reduced within a warp, by a group of its lanes
  // (reduce_lanes_per_output), with no block-wide barrier between outputs (sums along
  // axis 1 of 16384x1024 float32 on the H200, tools/probes/reduce_blocks.cu: 21.7 us a
  // warp a row, 50.3 a block a row; 4096^2: 22.7 and 27.9). The kernel uses it where that
  // dim is contiguous.
  bool lane_group_per_output = false;
};

// What a reduction thread loads at once from a contiguous row: `loads` vectors of
// `vector_bytes` each, in flight together. One table for the kernels (ops/reduce.cuh reads
// it at compile time) and the launch (the lanes an output). Four 16-byte vectors, except
// for the index-carrying accumulators (argmax/argmin): at most 4 elements a vector, two in
// flight, since their 16 or 8 elements of 1 or 2 bytes a vector, or four vectors of any
// type, spill the 64 registers that four blocks an SM leave a thread.
struct ReduceLoads {
  int vector_bytes;
  int loads;
  constexpr int bytes() const { return vector_bytes * loads; }
};
constexpr ReduceLoads reduce_loads(bool carries_index, int item_size) {
  if (!carries_index) return ReduceLoads{16, 4};
  return ReduceLoads{4 * item_size < 16 ? 4 * item_size : 16, 2};
}

// Lanes of a warp for each output where the plan takes lane_group_per_output: rows of
// n_reduce contiguous elements of item_size bytes get a power of two of lanes, up to 32,
// each with at least the bytes a lane has in flight at once to read (rows of 32 float32
// summed: 2 lanes, 16 rows a warp).
int reduce_lanes_per_output(int64_t n_reduce, int64_t item_size, ReduceLoads loads);

// The elements of each chunk of a reduced range of n_reduce elements split into (at most)
// `chunks`: a multiple of 64 elements (chunks of a contiguous row start 16-byte aligned), and
// where a chunk holds at least four of them, a multiple of `block_tile`, the elements a
// block's threads load in one step of a contiguous row (kReduceThreads x loads x elements
// a vector; 0 where the chunk is not read so). A chunk of whole steps leaves no element to
// the one-vector-a-thread loop after them, whose loads wait one after another: the whole
// sum of 16M float32 on the H200 took 19.7 us in 512 chunks of 32768 elements against 21.0
// in 528 of 31808, and std 23.9 against 25.9 (tools/probes/moments_tile.cu). Rounding up
// to whole steps drops at most a fifth of the blocks where a chunk holds four.
int64_t reduce_chunk_len(int64_t n_reduce, int64_t chunks, int64_t block_tile);

// `axes`: normalized, distinct axis numbers (the caller checks them); empty with
// `all_axes` false means no axis (a copy-like reduction of size-1 groups).
ReductionPlan plan_reduction(const Dims& shape, const Dims& strides, const std::vector<int64_t>& axes,
                             bool keepdims, int64_t sm_count);

// Normalizes an axis list (negative counts from the end); AxisError for out-of-range axes,
// ValueError "duplicate value in 'axis'" for repeats.
std::vector<int64_t> normalize_axes(const std::vector<int64_t>& axes, int64_t ndim);

}  // namespace gpuarr
