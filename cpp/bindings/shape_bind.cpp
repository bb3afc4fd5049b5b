// Bindings of the shape and data-movement operations: views computed by the host core
// (core/shape_ops.hpp), concatenation (ops/array_ops.hpp), and the triangle / repeat kernels.
// The NumPy-level argument handling is in python/gpuarr/_shape_ops.py.
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "core/shape_ops.hpp"
#include "ops/array_ops.hpp"
#include "ops/shape_ops.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {
namespace {

// An int or a sequence of ints (negative values allowed).
Dims axes_arg(py::handle obj) { return shape_from_py(obj); }

std::vector<Dims> shapes_arg(py::handle seq) {
  std::vector<Dims> out;
  for (py::handle s : seq) out.push_back(shape_from_py(s));
  return out;
}

// A view of `self` with the given layout; `offset` in bytes relative to self's first
// element; `dtype` (None: self's) reinterprets the bytes. Refuses a view that reaches outside
// the allocation, and one whose elements of another dtype would be misaligned (device loads
// need each element at a multiple of its size).
py::object strided_view(py::handle self, const Dims& shape, const Dims& strides, int64_t offset,
                        py::handle dtype) {
  const NDArray& a = as_array(self).a;
  const DType view_dtype = dtype.is_none() ? a.dtype : dtype_from_py(dtype);
  if (shape.size() != strides.size()) throw ValueError("shape and strides differ in length");
  if (static_cast<int64_t>(shape.size()) > kMaxDims) {
    throw ValueError("maximum supported dimension for an ndarray is currently " +
                     std::to_string(kMaxDims) + ", found " + std::to_string(shape.size()));
  }
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  }
  NDArray v = a;
  v.dtype = view_dtype;
  v.shape = shape;
  v.strides = strides;
  v.offset = a.offset + offset;
  if (v.size() > 0 && view_dtype != a.dtype) {
    const auto size = static_cast<uintptr_t>(v.itemsize());
    bool aligned = reinterpret_cast<uintptr_t>(v.data()) % size == 0;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] > 1 && static_cast<uintptr_t>(strides[i]) % size != 0) aligned = false;
    }
    if (!aligned) {
      throw ValueError("gpuarr arrays keep their elements aligned: this view as " +
                       std::string(gpuarr::name(view_dtype)) + " would not be");
    }
  }
  if (v.size() > 0) {
    int64_t lo, hi;
    memory_extent(v.shape, v.strides, v.itemsize(), lo, hi);
    if (v.offset + lo < 0 || v.offset + hi > static_cast<int64_t>(a.memory->nbytes())) {
      throw ValueError("strided view reaches outside the array's memory");
    }
  } else {
    v.offset = a.offset;
  }
  return make_view(self, std::move(v));
}

std::vector<const NDArray*> arrays_arg(py::handle seq, std::vector<Dims>& shapes,
                                       std::vector<Dims>& strides) {
  std::vector<const NDArray*> arrays;
  for (py::handle h : seq) {
    if (!is_gpuarr_array(h)) throw TypeError("expected gpuarr arrays");
    const NDArray& a = as_array(h).a;
    arrays.push_back(&a);
    shapes.push_back(a.shape);
    strides.push_back(a.strides);
  }
  return arrays;
}

}  // namespace

GPUARR_BINDINGS(120) {
  m.def("_strided_view", &strided_view, py::arg("a"), py::arg("shape"), py::arg("strides"),
        py::arg("offset") = 0, py::arg("dtype") = py::none());

  // A new C-ordered array; an empty one gets all-zero strides, as NumPy (2.4+) gives every
  // newly allocated empty array.
  m.def("_empty_result", [](py::handle shape, py::handle dtype) {
    NDArray out = empty_array(shape_from_py(shape), dtype_from_py(dtype), 'C');
    if (out.size() == 0) std::fill(out.strides.begin(), out.strides.end(), int64_t{0});
    return make_owner(std::move(out));
  }, py::arg("shape"), py::arg("dtype"));

  m.def("_broadcast_shapes", [](py::args shapes) {
    return dims_to_tuple(broadcast_shapes(shapes_arg(shapes)));
  });

  m.def("_broadcast_to", [](py::handle self, py::handle shape) {
    const NDArray& a = as_array(self).a;
    const Dims target = shape_from_py(shape);
    NDArray v = a;
    v.strides = broadcast_to_strides(a.shape, a.strides, target);
    v.shape = target;
    return make_view(self, std::move(v));
  });

  m.def("_normalize_axis_tuple", [](py::handle axes, int64_t ndim, const std::string& argname) {
    return dims_to_tuple(normalize_axis_tuple(axes_arg(axes), ndim, argname));
  }, py::arg("axes"), py::arg("ndim"), py::arg("argname") = "");

  m.def("_moveaxis", [](py::handle self, py::handle source, py::handle destination) {
    NDArray v = as_array(self).a;
    const Dims perm = moveaxis_permutation(v.ndim(), axes_arg(source), axes_arg(destination));
    transpose_layout(v.shape, v.strides, perm);
    return make_view(self, std::move(v));
  });

  m.def("_swapaxes", [](py::handle self, int64_t axis1, int64_t axis2) {
    NDArray v = as_array(self).a;
    const int64_t a1 = normalize_axis_tuple({axis1}, v.ndim(), "axis1")[0];
    const int64_t a2 = normalize_axis_tuple({axis2}, v.ndim(), "axis2")[0];
    std::swap(v.shape[a1], v.shape[a2]);
    std::swap(v.strides[a1], v.strides[a2]);
    return make_view(self, std::move(v));
  });

  m.def("_expand_dims", [](py::handle self, py::handle axes) {
    NDArray v = as_array(self).a;
    expand_dims_layout(v.shape, v.strides, axes_arg(axes), v.itemsize());
    return make_view(self, std::move(v));
  });

  m.def("_squeeze", [](py::handle self, py::handle axes) {
    NDArray v = as_array(self).a;
    squeeze_layout(v.shape, v.strides, axes.is_none() ? Dims{} : axes_arg(axes), axes.is_none());
    return make_view(self, std::move(v));
  });

  m.def("_diagonal", [](py::handle self, int64_t offset, int64_t axis1, int64_t axis2) {
    NDArray v = as_array(self).a;
    int64_t off = v.offset;
    diagonal_layout(v.shape, v.strides, off, offset, axis1, axis2);
    v.offset = off;
    return make_view(self, std::move(v));
  });

  m.def("_concat_shape", [](py::handle arrays, int64_t axis) {
    std::vector<Dims> shapes, strides;
    arrays_arg(arrays, shapes, strides);
    return dims_to_tuple(concatenate_shape(shapes, axis));
  });

  // A new array holding the inputs joined along `axis` (already checked by _concat_shape),
  // laid out in the memory order the inputs agree on (as NumPy's concatenate).
  m.def("_concatenate", [](py::handle arrays_obj, int64_t axis, py::handle dtype) {
    std::vector<Dims> shapes, strides;
    const auto arrays = arrays_arg(arrays_obj, shapes, strides);
    const Dims shape = concatenate_shape(shapes, axis);
    axis = normalize_axis(axis, static_cast<int64_t>(shape.size()));
    const DType dt = dtype_from_py(dtype);
    DeviceGuard guard(arrays[0]->device());
    NDArray out = empty_array(shape, dt, 'C');
    if (out.size() > 0) {
      out.strides = strides_for_perm(shape, multi_sorted_stride_perm(shapes, strides),
                                     itemsize(dt));
    }
    concatenate_into(out, arrays, axis);
    return make_owner(std::move(out));
  });

  m.def("_concat_into", [](const PyArray& out, py::handle arrays_obj, int64_t axis) {
    std::vector<Dims> shapes, strides;
    const auto arrays = arrays_arg(arrays_obj, shapes, strides);
    const Dims shape = concatenate_shape(shapes, axis);
    if (shape != out.a.shape) throw ValueError("Output array is the wrong shape");
    DeviceGuard guard(out.a.device());
    concatenate_into(out.a, arrays, normalize_axis(axis, static_cast<int64_t>(shape.size())));
  });

  // numpy.pad in `mode` ('constant' with one scalar `value`, converted as
  // `padded[...] = value` would; 'edge', 'reflect' or 'symmetric' (reflect_type 'even'),
  // 'wrap' of a non-empty array): the padded array, or None where the one-pass layout
  // refuses it.
  m.def("_pad", [](py::handle self, const std::vector<std::pair<int64_t, int64_t>>& pads,
                   const std::string& mode_name, py::handle value) -> py::object {
    const NDArray& a = as_array(self).a;
    const PadMode mode = pad_mode_from_name(mode_name);
    const std::string bytes = mode == PadMode::Constant ? scalar_bytes(value, a.dtype) : "";
    std::optional<NDArray> out = pad_array(a, pads, mode, bytes.empty() ? nullptr : bytes.data());
    if (!out) return py::none();
    return make_owner(std::move(*out));
  }, py::arg("a"), py::arg("pad_width"), py::arg("mode"), py::arg("value") = py::none());

  m.def("_array_split_bounds", [](int64_t n, int64_t sections, bool equal) {
    return dims_to_tuple(array_split_bounds(n, sections, equal));
  });

  m.def("_tile", [](py::handle self, py::handle reps_obj) {
    const NDArray& a = as_array(self).a;
    const Dims reps = axes_arg(reps_obj);
    Dims in_shape;
    const Dims out_shape = tile_shape(a.shape, reps, in_shape);
    const size_t nd = in_shape.size();
    // The input padded with leading 1s, then viewed as (r0, a0, r1, a1, ...) with zero
    // strides for the repetition axes: one broadcasting copy fills the whole result.
    Dims in_strides(nd - a.ndim(), 0);
    in_strides.insert(in_strides.end(), a.strides.begin(), a.strides.end());
    Dims il_shape, il_src_strides;
    Dims r(nd - reps.size(), 1);
    r.insert(r.end(), reps.begin(), reps.end());
    for (size_t i = 0; i < nd; ++i) {
      il_shape.push_back(r[i]);
      il_shape.push_back(in_shape[i]);
      il_src_strides.push_back(0);
      il_src_strides.push_back(in_strides[i]);
    }
    DeviceGuard guard(a.device());
    NDArray out = empty_array(il_shape, a.dtype, 'C');
    if (out.size() > 0) {
      NDArray src = a;
      src.shape = il_shape;
      src.strides = il_src_strides;
      assign_array(out, src);
    }
    out.shape = out_shape;
    out.strides = contiguous_strides(out_shape, a.itemsize(), 'C');
    return make_owner(std::move(out));
  });

  m.def("_triangle", [](py::handle self, int64_t k, bool lower) {
    const NDArray& a = as_array(self).a;
    if (a.ndim() < 2) throw ValueError("triangle of an array of fewer than 2 dimensions");
    DeviceGuard guard(a.device());
    NDArray out = empty_array(a.shape, a.dtype, 'C');
    if (out.size() == 0) return make_owner(std::move(out));
    const char* src = a.data();
    if (!a.c_contiguous()) {
      assign_array(out, a);
      src = out.data();
    }
    const int64_t rows = a.shape[a.ndim() - 2], cols = a.shape[a.ndim() - 1];
    launch_triangle(out.data(), src, nullptr, out.size() / (rows * cols), rows, cols, k, lower,
                    out.itemsize(), stream_for(out));
    return make_owner(std::move(out));
  });

  // out[..., t, ...] = a[..., idx[t], ...] along `axis`; idx: device int64 of n_out values.
  m.def("_repeat_gather", [](py::handle self, const PyArray& idx, int64_t axis) {
    const NDArray& a0 = as_array(self).a;
    if (idx.a.dtype != DType::Int64 || idx.a.ndim() != 1 || !idx.a.c_contiguous()) {
      throw TypeError("_repeat_gather needs a contiguous 1-d int64 index array");
    }
    DeviceGuard guard(a0.device());
    const NDArray a = a0.c_contiguous() ? a0 : copy_array(a0, a0.dtype, 'C');
    const int64_t ax = normalize_axis(axis, a.ndim());
    Dims shape = a.shape;
    const int64_t n_src = shape[ax], n_out = idx.a.shape[0];
    shape[ax] = n_out;
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < ax; ++i) outer *= a.shape[i];
    for (int64_t i = ax + 1; i < a.ndim(); ++i) inner *= a.shape[i];
    NDArray out = empty_array(shape, a.dtype, 'C');
    // NumPy (2.4+) gives a newly allocated empty array all-zero strides.
    if (out.size() == 0) std::fill(out.strides.begin(), out.strides.end(), int64_t{0});
    launch_repeat_gather(out.data(), a.data(), reinterpret_cast<const int64_t*>(idx.a.data()),
                         outer, n_src, n_out, inner, a.itemsize(), stream_for(out));
    return make_owner(std::move(out));
  });
}

}  // namespace gpuarr::bind
