// Basic indexing (integers, slices, newaxis, Ellipsis) as view arithmetic, with NumPy's
// error messages. Advanced (array) indexing is not handled here.
#pragma once
#include <cstdint>
#include <vector>

#include "core/layout.hpp"

namespace gpuarr {

struct IndexItem {
  enum class Kind : uint8_t { Integer, Slice, NewAxis, Ellipsis };
  Kind kind;
  int64_t value = 0;  // Integer
  // Slice, as Python's PySlice_Unpack leaves it: None start/stop are INT64_MIN/INT64_MAX
  // sentinels (whichever the step's sign makes them), None step is 1.
  int64_t start = 0, stop = 0, step = 1;

  static IndexItem integer(int64_t v) { return {Kind::Integer, v}; }
  static IndexItem slice(int64_t b, int64_t e, int64_t s) { return {Kind::Slice, 0, b, e, s}; }
  static IndexItem newaxis() { return {Kind::NewAxis}; }
  static IndexItem ellipsis() { return {Kind::Ellipsis}; }
};

// Python's PySlice_AdjustIndices: clamps start/stop to [0, length] and returns the
// number of selected elements. step must be non-zero.
int64_t adjust_slice(int64_t length, int64_t& start, int64_t& stop, int64_t step);

// Applies `index` to the view (shape, strides, offset in bytes); throws IndexError.
void apply_basic_index(Dims& shape, Dims& strides, int64_t& offset,
                       const std::vector<IndexItem>& index);

}  // namespace gpuarr
