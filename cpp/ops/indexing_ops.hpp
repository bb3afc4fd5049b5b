// Device entry points of advanced indexing (gather.cu, nonzero.cu). Views are passed as
// base pointer, shape and byte strides; everything runs on `stream` without waiting.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/advanced_indexing.hpp"
#include "core/layout.hpp"

namespace gpuarr {

// For j over the C-contiguous index_shape:
//   offsets[j] = (accumulate ? offsets[j] : 0) + mode(idx[j], axis_size) * stride
// idx holds int64 elements at byte strides idx_strides (broadcast to index_shape); a null
// idx means index 0 everywhere. In Raise mode an out-of-range index does
// atomicMin(*err, j) (when err is not null) and counts as 0; in Wrap/Clip modes with
// axis_size 0 the same happens (the caller raises NumPy's empty-take error before).
void launch_index_offsets(int64_t* offsets, const Dims& index_shape, const char* idx,
                          const Dims& idx_strides, int64_t axis_size, int64_t stride,
                          IndexMode mode, bool accumulate, unsigned long long* err,
                          cudaStream_t stream);

// out[i] = src[src_offset(i) + offsets[off_offset(i)]] over `shape`, moving itemsize-byte
// words (off_strides are byte strides into the int64 offsets array, 0 on non-index dims).
void launch_gather(char* out, const Dims& out_strides, const char* src, const Dims& src_strides,
                   const int64_t* offsets, const Dims& off_strides, const Dims& shape,
                   int64_t itemsize, cudaStream_t stream);

// dst[dst_offset(i) + offsets[off_offset(i)]] = val[val_offset(i)] over `shape` (val has
// dst's dtype; its strides may be 0 for broadcasting).
void launch_scatter(char* dst, const Dims& dst_strides, const int64_t* offsets,
                    const Dims& off_strides, const char* val, const Dims& val_strides,
                    const Dims& shape, int64_t itemsize, cudaStream_t stream);

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
