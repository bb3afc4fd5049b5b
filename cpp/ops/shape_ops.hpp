// Device entry points of the shape and data-movement operations that need kernels of
// their own (everything else is views plus assign_array). Dtype-agnostic: elements move as
// itemsize-byte words. Each runs on `stream` and returns without waiting.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuarr {

struct ConcatRowsPiece;     // core/shape_ops.hpp
struct PadLayout;          // core/shape_ops.hpp
enum class PadMode : int32_t;

// Writes a C-contiguous batch `out` of `batch` matrices of rows x cols elements: zero at
// (i, j) with j - i < k (lower == false: numpy.triu keeps j - i >= k) or j - i > k
// (lower == true: numpy.tril keeps j - i <= k); elsewhere src's element (src C-contiguous
// like out; src == out leaves those elements alone) or, with a null src, the itemsize
// bytes at `fill` (numpy.tri).
void launch_triangle(char* out, const char* src, const void* fill, int64_t batch, int64_t rows,
                     int64_t cols, int64_t k, bool lower, int64_t itemsize, cudaStream_t stream);

// Gather along the middle axis of C-contiguous (outer, n_src, inner) `src` into
// C-contiguous (outer, n_out, inner) `out`: out[o, t, i] = src[o, idx[t], i], with `idx`
// n_out int64 values in [0, n_src) in device memory.
void launch_repeat_gather(char* out, const char* src, const int64_t* idx, int64_t outer,
                          int64_t n_src, int64_t n_out, int64_t inner, int64_t itemsize,
                          cudaStream_t stream);

// The concatenation concat_rows_layout planned (core/shape_ops.hpp): `rows` rows of the
// C-contiguous `out`, each holding the n pieces side by side, piece p read from data[p]
// with the layout pieces[p] gives.
void launch_concat_rows(char* out, int64_t rows, const char* const* data,
                        const ConcatRowsPiece* pieces, int n, int64_t itemsize,
                        cudaStream_t stream);

// numpy.pad as pad_layout planned it (core/shape_ops.hpp): the C-contiguous `out` of
// layout.shape holds src's elements (src's first element at layout.before) and, where the
// mode maps an index outside the source, the element it maps to or (`Constant`) the
// itemsize bytes at `value`.
void launch_pad(char* out, const char* src, const PadLayout& layout, PadMode mode,
                const void* value, int64_t itemsize, cudaStream_t stream);

}  // namespace gpuarr
