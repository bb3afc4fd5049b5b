// The array: shared device memory plus a view (offset, dtype, shape, byte strides).
#pragma once
#include <cstdint>
#include <memory>

#include "core/dtype.hpp"
#include "core/layout.hpp"
#include "runtime/memory.hpp"

namespace gpuarr {

struct NDArray {
  std::shared_ptr<Memory> memory;  // never null; ptr() may be null for empty arrays
  int64_t offset = 0;              // bytes from memory->ptr() to element 0
  DType dtype = DType::Float64;
  Dims shape;
  Dims strides;  // bytes

  char* data() const { return static_cast<char*>(memory->ptr()) + offset; }
  int device() const { return memory->device(); }
  int64_t ndim() const { return static_cast<int64_t>(shape.size()); }
  int64_t size() const { return shape_size(shape); }
  int64_t itemsize() const { return gpuarr::itemsize(dtype); }
  int64_t nbytes() const { return size() * itemsize(); }
  bool c_contiguous() const { return is_c_contiguous(shape, strides, itemsize()); }
  bool f_contiguous() const { return is_f_contiguous(shape, strides, itemsize()); }
};

}  // namespace gpuarr
