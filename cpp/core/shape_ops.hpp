// Host-side shape arithmetic of the shape and data-movement operations (broadcast_shapes,
// axis tuples, moveaxis, expand_dims, squeeze, concatenate, array_split, diagonal), with
// NumPy 2's errors and messages. No CUDA, no Python.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/host_device.hpp"
#include "core/layout.hpp"

namespace gpuarr {

// The shape all `shapes` broadcast to (numpy.broadcast_shapes); ValueError "shape
// mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg i with
// shape (a,b) and arg j with shape (c,)." as NumPy's broadcast object reports it.
Dims broadcast_shapes(const std::vector<Dims>& shapes);

// numpy.lib.array_utils.normalize_axis_tuple: each axis in [0, ndim), AxisError (with
// "argname: " before the message when argname is given) or ValueError "repeated axis" /
// "repeated axis in `argname` argument".
Dims normalize_axis_tuple(const Dims& axes, int64_t ndim, const std::string& argname = "");

// The permutation numpy.moveaxis applies; ValueError when source and destination differ
// in length.
Dims moveaxis_permutation(int64_t ndim, const Dims& source, const Dims& destination);

// numpy.expand_dims: inserts length-1 axes at `axes` (normalised against the result's
// ndim). The new axes get the stride NumPy's reshape gives them.
void expand_dims_layout(Dims& shape, Dims& strides, const Dims& axes, int64_t itemsize);

// numpy.squeeze: removes the axes in `axes`, or all length-1 axes when `all` is true;
// ValueError "cannot select an axis to squeeze out which has size not equal to one".
void squeeze_layout(Dims& shape, Dims& strides, const Dims& axes, bool all);

// Shape of numpy.concatenate of arrays of `shapes` along `axis` (already a plain int;
// normalised here), with NumPy's ValueErrors/AxisError.
Dims concatenate_shape(const std::vector<Dims>& shapes, int64_t axis);

// A concatenation into a C-contiguous result read as rows: the dims before the axis
// collapse into the rows, the axis and the dims after it into each piece's width, and a
// row of the result holds the pieces side by side. Piece p's element (r, j) lies
// r * row_stride + j * col_stride bytes from its first.
struct ConcatRowsPiece {
  int64_t width, row_stride, col_stride;
};
constexpr int kMaxConcatRowsPieces = 8;

// The rows of the concatenation of arrays of `shapes` and byte `strides` along `axis`
// (normalised) into `out_shape`, and its pieces, when one pass over the result should do
// it: 1 to kMaxConcatRowsPieces pieces, one of them narrower than 128 bytes a row (one
// copy a piece would write it in parts of lines: numpy.stack along a new last axis, where
// two copies of 8M float32 ran at 40% of the copy bandwidth; one piece is a copy into
// short contiguous rows, such as numpy.repeat's broadcasting copy) or two or more whose
// rows are contiguous (one launch, not one a piece: concatenate along axis 1 of two
// 4096x2048 float32 47.4 -> 37.1 us on the H200, tools/probes/concat_wide.cu), the result
// at most INT32_MAX elements, and every piece's dims collapsing so. False otherwise.
bool concat_rows_layout(const Dims& out_shape, const std::vector<Dims>& shapes,
                        const std::vector<Dims>& strides, int64_t axis, int64_t itemsize,
                        int64_t& rows, std::vector<ConcatRowsPiece>& pieces);

// numpy.pad as one pass over the C-contiguous result, for the modes whose every result
// element is the value (`Constant`) or a source element found per dim from the result's
// index: the nearest edge (`Edge`), the reflection without (`Reflect`) or with
// (`Symmetric`) the edge element repeated, the periodic continuation (`Wrap`).
enum class PadMode : int32_t { Constant, Edge, Reflect, Symmetric, Wrap };

// The mode of numpy.pad's name ("constant", "edge", "reflect", "symmetric", "wrap");
// ValueError for any other name.
PadMode pad_mode_from_name(const std::string& name);

// The source index along a dim of `n` (> 0) elements for index `i` outside [0, n), as
// numpy.pad's mode gives it for any pad width (reflections repeat with period 2(n - 1)
// and 2n; a dim of one element reflects onto it). I is int64_t, or int32_t where 2n and
// |i| fit (the pad kernel: its 64-bit remainders cost reflect by 3 of 4096^2 float32 46.7
// us against 43.5 in 32 bits on the H200, tools/probes/pad_modes.cu).
template <class I>
GPUARR_HD I pad_source_index(PadMode mode, I i, I n) {
  if (mode == PadMode::Edge) return i < 0 ? 0 : n - 1;
  const I period =
      mode == PadMode::Wrap ? n : (mode == PadMode::Symmetric ? 2 * n : 2 * (n - 1));
  if (period == 0) return 0;
  I r = i % period;
  if (r < 0) r += period;
  if (r < n) return r;
  return mode == PadMode::Symmetric ? period - 1 - r : period - r;
}

// Per dim, outermost first: the result's extent, the pad before the source, the source's
// extent and its byte stride. A dim padded on neither side merges into the dim outside it
// where the source's strides allow and, in modes other than `Constant`, only into an
// unpadded one (a padded dim's index maps onto its source index alone); one of extent 1
// padded on neither side goes. The pad of a 4096^2 matrix by 1 along axis 0 with a
// constant is one dim.
struct PadLayout {
  Dims shape, before, extent, strides;
};
constexpr int kMaxPadDims = 8;

// The layout of padding a source of `shape` and byte `strides` by `pads` (before, after
// per dim, non-negative) in `mode`: false when the result holds more than INT32_MAX
// elements, more than kMaxPadDims dims remain, or (modes other than `Constant`) a source
// dim holds more than INT32_MAX / 2 elements (the kernel finds source indices in 32 bits).
bool pad_layout(const Dims& shape, const Dims& strides,
                const std::vector<std::pair<int64_t, int64_t>>& pads, PadMode mode,
                PadLayout& layout);

// Boundaries of numpy.array_split into `sections` parts of `n` elements (sections + 1
// values starting at 0); ValueError "number sections must be larger than 0." and, when
// `equal` (numpy.split), "array split does not result in an equal division".
Dims array_split_bounds(int64_t n, int64_t sections, bool equal);

// numpy.diagonal as a view: removes axis1 and axis2 and appends the diagonal axis;
// `offset_bytes` is increased by the byte offset of the first element. Errors as NumPy's.
void diagonal_layout(Dims& shape, Dims& strides, int64_t& offset_bytes, int64_t offset,
                     int64_t axis1, int64_t axis2);

// numpy.tile's result shape for an array of `shape` and `reps`; also returns the shape the
// input is viewed as (padded with leading 1s) in `in_shape`.
Dims tile_shape(const Dims& shape, const Dims& reps, Dims& in_shape);

}  // namespace gpuarr

namespace gpuarr {

// NumPy's PyArray_CreateMultiSortedStridePerm: the axes ordered from the largest to the
// smallest |stride| as agreed by all operands (length-1 axes do not vote), stable.
Dims multi_sorted_stride_perm(const std::vector<Dims>& shapes, const std::vector<Dims>& strides);

// Strides of a fresh array of `shape` whose memory order follows `perm` (outermost first).
Dims strides_for_perm(const Dims& shape, const Dims& perm, int64_t itemsize);

// The error numpy.broadcast_to raises, or none: checks that `shape` broadcasts to `target`
// and returns the view's strides.
Dims broadcast_to_strides(const Dims& shape, const Dims& strides, const Dims& target);

}  // namespace gpuarr
