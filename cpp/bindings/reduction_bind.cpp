// Reductions and scans: thin entry points; the NumPy-shaped functions are in
// python/gpuarr/_reductions.py.
#include <pybind11/stl.h>

#include <cstring>

#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "ops/reductions.hpp"
#include "ops/scan.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {
namespace {

ReduceKind kind_from_name(const std::string& n) {
  static const std::pair<const char*, ReduceKind> kinds[] = {
      {"sum", ReduceKind::Sum}, {"prod", ReduceKind::Prod}, {"nansum", ReduceKind::NanSum},
      {"nanprod", ReduceKind::NanProd}, {"max", ReduceKind::Max}, {"min", ReduceKind::Min},
      {"nanmax", ReduceKind::NanMax}, {"nanmin", ReduceKind::NanMin},
      {"argmax", ReduceKind::ArgMax}, {"argmin", ReduceKind::ArgMin},
      {"nanargmax", ReduceKind::NanArgMax}, {"nanargmin", ReduceKind::NanArgMin},
      {"all", ReduceKind::All}, {"any", ReduceKind::Any}};
  for (const auto& [name, k] : kinds)
    if (n == name) return k;
  throw ValueError("unknown reduction " + n);
}

// None -> every axis; an int or a tuple of ints -> those (normalized, AxisError/ValueError).
std::vector<int64_t> axes_from_py(py::handle axis, int64_t ndim) {
  std::vector<int64_t> axes;
  if (axis.is_none()) {
    for (int64_t d = 0; d < ndim; ++d) axes.push_back(d);
    return axes;
  }
  if (py::isinstance<py::tuple>(axis) || py::isinstance<py::list>(axis)) {
    for (auto a : axis) axes.push_back(py::cast<int64_t>(a));
  } else {
    if (!PyIndex_Check(axis.ptr()))
      throw TypeError("'" + py::str(py::type::of(axis).attr("__name__")).cast<std::string>() +
                      "' object cannot be interpreted as an integer");
    axes.push_back(py::cast<int64_t>(axis));
  }
  // NumPy lets a 0-d array be reduced over axis 0 or -1 (nothing to reduce).
  if (ndim == 0) {
    for (int64_t a : axes)
      if (a != 0 && a != -1) normalize_axes({a}, 0);
    return {};
  }
  return normalize_axes(axes, ndim);
}

}  // namespace

GPUARR_BINDINGS(50) {
  m.def("_reduce", [](const std::string& kind, py::handle a, py::handle axis, bool keepdims) {
    const NDArray& x = as_array(a).a;
    const std::vector<int64_t> axes = axes_from_py(axis, x.ndim());
    return make_owner(reduce_array(kind_from_name(kind), x, axes, keepdims));
  });
  m.def("_reduce_squared_deviations", [](py::handle a, py::handle center, py::handle axis,
                                          bool keepdims, bool skip_nan) {
    const NDArray& x = as_array(a).a;
    const NDArray& c = as_array(center).a;
    const std::vector<int64_t> axes = axes_from_py(axis, x.ndim());
    return make_owner(reduce_squared_deviations(x, c, axes, keepdims, skip_nan));
  });
  m.def("_reduce_mean", [](py::handle a, py::handle axis, bool keepdims, double count) {
    const NDArray& x = as_array(a).a;
    const std::vector<int64_t> axes = axes_from_py(axis, x.ndim());
    return make_owner(reduce_mean(x, axes, keepdims, count));
  });
  m.def("_reduce_variance", [](py::handle a, py::handle axis, bool keepdims, double divisor,
                                bool root) {
    const NDArray& x = as_array(a).a;
    const std::vector<int64_t> axes = axes_from_py(axis, x.ndim());
    return make_owner(reduce_variance(x, axes, keepdims, divisor, root));
  });
  m.def("_reduce_axes", [](py::handle axis, int64_t ndim) { return axes_from_py(axis, ndim); });
  m.def("_reduce_result_dtype", [](const std::string& kind, py::handle dtype) {
    return numpy_dtype(reduce_result_dtype(kind_from_name(kind), dtype_from_py(dtype)));
  });
  // Scan of the last axis of a C-contiguous array into a new array.
  m.def("_scan_last", [](py::handle a, bool product, bool skip_nan) {
    const NDArray& x = as_array(a).a;
    if (!x.c_contiguous()) throw ValueError("_scan_last needs a C-contiguous array");
    DeviceGuard guard(x.device());
    const DType out_t = reduce_result_dtype(product ? ReduceKind::Prod : ReduceKind::Sum, x.dtype);
    NDArray out = empty_array(x.shape, out_t, 'C');
    const int64_t len = x.ndim() ? x.shape.back() : 1;
    const int64_t rows = len ? x.size() / len : 0;
    launch_scan_rows(product, skip_nan, x.dtype, out_t, x.data(), out.data(), rows, len,
                     stream_for(out));
    return make_owner(std::move(out));
  });
}

}  // namespace gpuarr::bind
