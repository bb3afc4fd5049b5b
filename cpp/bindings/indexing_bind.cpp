// Basic indexing of gpuarr arrays from Python keys, and assignment of Python values.
#include <pybind11/stl.h>

#include <cstring>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "core/errors.hpp"
#include "core/indexing.hpp"
#include "ops/array_ops.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {
namespace {

const char* const kInvalidIndex =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices";

bool is_numpy_bool_scalar(py::handle k) {
  static auto* bool_type = new py::object(py::module_::import("numpy").attr("bool_"));
  return py::isinstance(k, *bool_type);
}

// True for keys that make an index advanced: arrays, sequences, booleans.
bool is_advanced_item(py::handle k) {
  PyObject* o = k.ptr();
  return PyBool_Check(o) || is_gpuarr_array(k) || py::isinstance<py::array>(k) ||
         PyList_Check(o) || PyTuple_Check(o) || is_numpy_bool_scalar(k);
}

// Appends a basic index item; false (and nothing appended) for an advanced one.
bool add_index_item(std::vector<IndexItem>& items, py::handle k) {
  PyObject* o = k.ptr();
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) throw IndexError("cannot fit 'int' into an index-sized integer");
    items.push_back(IndexItem::integer(v));
  } else if (PySlice_Check(o)) {
    Py_ssize_t b, e, s;
    if (PySlice_Unpack(o, &b, &e, &s) < 0) throw py::error_already_set();
    items.push_back(IndexItem::slice(b, e, s));
  } else if (o == Py_None) {
    items.push_back(IndexItem::newaxis());
  } else if (o == Py_Ellipsis) {
    items.push_back(IndexItem::ellipsis());
  } else if (is_advanced_item(k)) {
    return false;
  } else if (PyIndex_Check(o)) {
    items.push_back(IndexItem::integer(
        py::reinterpret_steal<py::int_>(PyNumber_Index(o)).cast<long long>()));
  } else {
    throw IndexError(kInvalidIndex);
  }
  return true;
}

}  // namespace

bool try_basic_items(py::handle key, std::vector<IndexItem>& items) {
  if (PyTuple_Check(key.ptr())) {
    const Py_ssize_t n = PyTuple_GET_SIZE(key.ptr());
    items.reserve(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!add_index_item(items, PyTuple_GET_ITEM(key.ptr(), i))) return false;
    }
    return true;
  }
  return add_index_item(items, key);
}

NDArray index_view(const NDArray& a, py::handle key) {
  std::vector<IndexItem> items;
  if (!try_basic_items(key, items)) {
    throw IndexError("index_view: advanced (array) indices select a copy, not a view");
  }
  NDArray v = a;
  apply_basic_index(v.shape, v.strides, v.offset, items);
  return v;
}

bool is_python_scalar(py::handle v) {
  static auto* generic = new py::object(py::module_::import("numpy").attr("generic"));
  PyObject* o = v.ptr();
  return PyFloat_Check(o) || PyLong_Check(o) || PyComplex_Check(o) || PyBool_Check(o) ||
         py::isinstance(v, *generic);
}

// dst[...] = value for a gpuarr array, a scalar, or anything NumPy can read.
void assign_from_py(const NDArray& dst, py::handle value, ScalarCast how) {
  if (is_gpuarr_array(value)) {
    assign_array(dst, as_array(value).a);
  } else if (is_python_scalar(value)) {
    const std::string bytes = scalar_bytes(value, dst.dtype, how);
    DeviceGuard guard(dst.device());
    fill_array(dst, bytes.data());
  } else {
    DeviceGuard guard(dst.device());
    const py::array host = host_array_for_upload(value, py::none(), 'K');
    assign_array(dst, upload_new(host));
  }
}

}  // namespace gpuarr::bind
