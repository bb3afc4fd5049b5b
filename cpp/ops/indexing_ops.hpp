// Device entry points of advanced indexing (gather.cu, nonzero.cu). Views are passed as
// base pointer, shape and byte strides; everything runs on `stream` without waiting.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/advanced_indexing.hpp"
#include "core/layout.hpp"

namespace gpuarr {

// For j over the C-contiguous index_shape (several index arrays: their offsets summed):
//   offsets[j] = (accumulate ? offsets[j] : 0) + mode(idx[j], axis_size) * stride
// idx holds int64 elements at byte strides idx_strides (broadcast to index_shape); a null
// idx means index 0 everywhere. In Raise mode an out-of-range index does
// atomicMin(*err, j) (when err is not null) and counts as 0; in Wrap/Clip modes with
// axis_size 0 the same happens (the caller raises NumPy's empty-take error before).
void launch_index_offsets(int64_t* offsets, const Dims& index_shape, const char* idx,
                          const Dims& idx_strides, int64_t axis_size, int64_t stride,
                          IndexMode mode, bool accumulate, unsigned long long* err,
                          cudaStream_t stream);

// How a gather or scatter turns an index value v into a source byte offset: with
// `offsets`, v is the offset (the combined offsets of several index arrays); otherwise
// apply_index_mode(v, axis_size, mode) times `stride`, where a value without an in-range
// index sets *flag (when flag is not null) and reads or writes element 0 instead.
struct IndexSource {
  const char* data = nullptr;  // int32 or int64 elements
  bool int32 = false;
  bool offsets = true;
  IndexMode mode = IndexMode::Raise;
  int64_t axis_size = 0;
  int64_t stride = 1;
  unsigned int* flag = nullptr;
};

// out[i] = src[src_offset(i) + offset(idx[idx_offset(i)])] over `shape`, moving
// itemsize-byte words (idx_strides are byte strides into the index, 0 on non-index dims).
// An out contiguous along another dim than the last is written through transposing tiles.
void launch_gather(char* out, const Dims& out_strides, const char* src, const Dims& src_strides,
                   const IndexSource& idx, const Dims& idx_strides, const Dims& shape,
                   int64_t itemsize, cudaStream_t stream);

// dst[dst_offset(i) + offset(idx[idx_offset(i)])] = val[val_offset(i)] over `shape` (val
// has dst's dtype; its strides may be 0 for broadcasting).
void launch_scatter(char* dst, const Dims& dst_strides, const IndexSource& idx,
                    const Dims& idx_strides, const char* val, const Dims& val_strides,
                    const Dims& shape, int64_t itemsize, cudaStream_t stream);

// NumPy's put with repeated targets, where the last write to an element wins: over the n
// writes j (index and values at byte strides idx_stride and val_stride), target
// t_j = offset(idx[j]) / idx.stride; winners (one int32 per element of dst, every one -1
// on entry) takes the largest j of each target, then dst[t_j * dst_stride] = val[j] for
// the winning j. winners null: the targets are known not to descend, and the last write of
// each run of equal targets wins. n < 2^31; an index out of range must have been refused
// before.
void launch_last_write_scatter(char* dst, int64_t dst_stride, const IndexSource& idx,
                               int64_t idx_stride, const char* val, int64_t val_stride,
                               int64_t n, int32_t* winners, int64_t itemsize,
                               cudaStream_t stream);

// NumPy's bounds check of one index array (elements at byte strides idx_strides over
// index_shape): *err = the smallest C-order position whose value is outside
// [-axis_size, axis_size), left as it was when there is none (set it to ULLONG_MAX first).
// ascending (a 1-d index of < 2^31 values only): set to 0 where a value's target (negative
// values counted from the end) exceeds the next value's, left as it was otherwise.
void launch_index_check(const IndexSource& idx, const Dims& index_shape,
                        const Dims& idx_strides, unsigned long long* err, cudaStream_t stream,
                        unsigned long long* ascending = nullptr);

// *d_count = number of true elements of the n contiguous bools at flags (CUB).
void launch_count_true(const bool* flags, int64_t n, int64_t* d_count, cudaStream_t stream);
// positions[0..count) = flat C-order positions of the true elements, in order
// (cub::DeviceSelect::Flagged over a counting iterator); d_scratch receives the count.
void launch_true_positions(const bool* flags, int64_t n, int64_t* positions, int64_t* d_scratch,
                           cudaStream_t stream);
// out[d * count + j] = coordinate d of positions[j] in a C-ordered array of `shape`.
void launch_unravel(const int64_t* positions, int64_t count, const Dims& shape, int64_t* out,
                    cudaStream_t stream);

}  // namespace gpuarr
