#include "core/indexing.hpp"

#include <string>

#include "core/errors.hpp"

namespace gpuarr {

int64_t adjust_slice(int64_t length, int64_t& start, int64_t& stop, int64_t step) {
  if (start < 0) {
    start += length;
    if (start < 0) start = step < 0 ? -1 : 0;
  } else if (start >= length) {
    start = step < 0 ? length - 1 : length;
  }
  if (stop < 0) {
    stop += length;
    if (stop < 0) stop = step < 0 ? -1 : 0;
  } else if (stop >= length) {
    stop = step < 0 ? length - 1 : length;
  }
  if (step < 0) {
    if (stop < start) return (start - stop - 1) / (-step) + 1;
  } else if (start < stop) {
    return (stop - start - 1) / step + 1;
  }
  return 0;
}

void apply_basic_index(Dims& shape, Dims& strides, int64_t& offset,
                       const std::vector<IndexItem>& index) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  int64_t consumed = 0;
  int ellipses = 0;
  for (const auto& it : index) {
    if (it.kind == IndexItem::Kind::Integer || it.kind == IndexItem::Kind::Slice) ++consumed;
    else if (it.kind == IndexItem::Kind::Ellipsis) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > nd) {
    throw IndexError("too many indices for array: array is " + std::to_string(nd) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }
  Dims new_shape, new_strides;
  new_shape.reserve(nd + index.size());
  new_strides.reserve(nd + index.size());
  int64_t axis = 0;
  for (const auto& it : index) {
    switch (it.kind) {
      case IndexItem::Kind::Integer: {
        int64_t i = it.value;
        const int64_t n = shape[axis];
        if (i < -n || i >= n) {
          throw IndexError("index " + std::to_string(i) + " is out of bounds for axis " +
                           std::to_string(axis) + " with size " + std::to_string(n));
        }
        if (i < 0) i += n;
        offset += i * strides[axis];
        ++axis;
        break;
      }
      case IndexItem::Kind::Slice: {
        int64_t b = it.start, e = it.stop;
        const int64_t len = adjust_slice(shape[axis], b, e, it.step);
        if (len > 0) offset += b * strides[axis];
        new_shape.push_back(len);
        // NumPy gives an empty slice step 1 (and leaves the offset alone).
        new_strides.push_back(len > 0 ? strides[axis] * it.step : strides[axis]);
        ++axis;
        break;
      }
      case IndexItem::Kind::NewAxis:
        new_shape.push_back(1);
        new_strides.push_back(0);
        break;
      case IndexItem::Kind::Ellipsis:
        for (int64_t k = 0; k < nd - consumed; ++k, ++axis) {
          new_shape.push_back(shape[axis]);
          new_strides.push_back(strides[axis]);
        }
        break;
    }
  }
  for (; axis < nd; ++axis) {
    new_shape.push_back(shape[axis]);
    new_strides.push_back(strides[axis]);
  }
  shape.swap(new_shape);
  strides.swap(new_strides);
}

}  // namespace gpuarr
