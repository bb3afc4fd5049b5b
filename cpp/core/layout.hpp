// Shapes, byte strides and view arithmetic (transpose, reshape-as-view, broadcasting,
// dimension coalescing), following NumPy's rules. No CUDA, no Python.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuarr {

using Dims = std::vector<int64_t>;

// NumPy 2's limit on the number of dimensions.
constexpr int kMaxDims = 64;

// Number of elements; throws ValueError for negative dimensions or when
// size * itemsize overflows.
int64_t checked_size(const Dims& shape, int64_t itemsize);
inline int64_t shape_size(const Dims& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// "(2, 3)", "(3,)", "()" as NumPy prints shapes in most messages...
std::string shape_str(const Dims& shape);
// ...and "(2,3)" as it prints them in broadcasting errors.
std::string compact_shape_str(const Dims& shape);

// Strides of a fresh array in 'C' or 'F' order.
Dims contiguous_strides(const Dims& shape, int64_t itemsize, char order);
// C/F strides as if every zero-length axis had length 1: the strides of a view (NumPy's
// reshape, buffers taken from other libraries), where a fresh empty array has zeros.
Dims dense_strides(const Dims& shape, int64_t itemsize, char order);

// NumPy's contiguity flags: dimensions of size 1 are ignored, empty arrays are both.
bool is_c_contiguous(const Dims& shape, const Dims& strides, int64_t itemsize);
bool is_f_contiguous(const Dims& shape, const Dims& strides, int64_t itemsize);

// Strides of a fresh array whose memory order follows `strides` (order='K'):
// axes ordered by decreasing |stride|, all strides positive.
Dims strides_like(const Dims& shape, const Dims& strides, int64_t itemsize);

// Normalises axis (negative counts from the end); throws AxisError.
int64_t normalize_axis(int64_t axis, int64_t ndim);

// Permutes shape and strides; `axes` empty means reverse. Throws ValueError/AxisError.
void transpose_layout(Dims& shape, Dims& strides, const Dims& axes);

// Resolves one -1 in `new_shape` against `size`; throws ValueError as NumPy does.
Dims resolve_reshape(int64_t size, const Dims& new_shape);

// Strides that view the same memory with `new_shape` (order 'C' or 'F'), or nothing
// when a copy is needed (NumPy's _attempt_nocopy_reshape).
std::optional<Dims> reshape_strides(const Dims& shape, const Dims& strides,
                                    const Dims& new_shape, int64_t itemsize, char order);

// Strides of `shape`/`strides` broadcast to `target` (zero strides for new or stretched
// axes; extra leading length-1 axes dropped, as NumPy's assignment does); throws
// ValueError "could not broadcast input array from shape (a,b) into shape (c,d)".
Dims broadcast_strides(const Dims& shape, const Dims& strides, const Dims& target);

// Removes size-1 dimensions and merges neighbours that are contiguous in every operand,
// so that kernels index as few dimensions as possible. A 0-d or size-0 problem keeps
// its shape. `strides` holds one stride vector per operand.
void coalesce_dims(Dims& shape, std::vector<Dims>& strides);

// Launches of rows at least this long walk each row with its inner strides after finding
// the row's offsets once (elementwise Rows mode, strided copies, gathers of rows); shorter
// innermost dims leave most of a row's threads idle and divide each index instead.
constexpr int64_t kRowsMinInner = 128;

// The widest word, at most `max_word` bytes, that moves a same-type copy (coalesced shape,
// one stride vector per operand, each operand's base address in `addresses`) whose
// innermost dim is contiguous in every operand: every address and every outer stride a
// multiple of the word, and the innermost dim's bytes too. The innermost dim is rescaled
// to words (extent and strides) and the word's size returned; `itemsize` (nothing
// changed) where no wider power of two fits.
int64_t widen_innermost(Dims& shape, std::vector<Dims>& strides,
                        const std::vector<uintptr_t>& addresses, int64_t itemsize,
                        int64_t max_word);

// True when two views of one allocation may touch a common byte.
bool extents_overlap(int64_t offset_a, const Dims& shape_a, const Dims& strides_a,
                     int64_t offset_b, const Dims& shape_b, const Dims& strides_b,
                     int64_t itemsize);

// Byte range [lo, hi) touched by a view relative to its offset (hi exclusive).
void memory_extent(const Dims& shape, const Dims& strides, int64_t itemsize, int64_t& lo,
                   int64_t& hi);

}  // namespace gpuarr
