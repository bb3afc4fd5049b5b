// Array-level operations: creation, copies and casts, fills, and host transfers. Each
// runs on the current device's current stream.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ops/ndarray.hpp"

namespace gpuarr {

enum class PadMode : int32_t;  // core/shape_ops.hpp

// A fresh array; order is 'C' or 'F'.
NDArray empty_array(const Dims& shape, DType dtype, char order);
// A fresh array laid out like `like` (order 'K'), or in 'C'/'F'/'A' order.
NDArray empty_like_array(const NDArray& like, DType dtype, char order);

// Sets every element to `value`, given as the bytes of one element of a.dtype.
void fill_array(const NDArray& a, const void* value);
// dst[...] = src, casting, with src broadcast to dst's shape (ValueError if it cannot be).
void assign_array(const NDArray& dst, const NDArray& src);
// A copy in the given order ('C', 'F', 'A' or 'K') and dtype.
NDArray copy_array(const NDArray& src, DType dtype, char order);
// A copy of `src` (on any device) on the current device, in stream order on both.
NDArray copy_to_current_device(const NDArray& src, DType dtype, char order);
// Writes `arrays` (their shapes already checked against out's) side by side along `axis`
// (normalised) into `out`, casting: one pass over out where the pieces are narrow
// (concat_rows_layout, core/shape_ops.hpp), else one assign_array a piece.
void concatenate_into(const NDArray& out, const std::vector<const NDArray*>& arrays,
                      int64_t axis);
// numpy.pad of `a` by `pads` (before, after per dim, non-negative) in `mode` (`value`: the
// itemsize bytes of the Constant mode's value, else unused), as a new C-contiguous array
// written in one pass (pad_layout, core/shape_ops.hpp); nullopt, launching nothing, where
// that layout refuses it. One pair a dim; modes other than Constant need a non-empty `a`.
std::optional<NDArray> pad_array(const NDArray& a,
                                 const std::vector<std::pair<int64_t, int64_t>>& pads,
                                 PadMode mode, const void* value);
// A view with a new shape when possible, else a copy (order 'C' or 'F').
NDArray reshape_array(const NDArray& a, const Dims& new_shape, char order);

// Host transfers of the bytes of a contiguous (C or F) array; see transfer.hpp for the
// waiting rules. The caller releases the GIL.
void upload_contiguous(const NDArray& dst, const void* host, bool allow_async);
void download_contiguous(void* host, const NDArray& src, bool allow_async);

// The current stream of the array's device (gpuarr operations enqueue there).
cudaStream_t stream_for(const NDArray& a);


}  // namespace gpuarr
