// Advanced (integer-array and boolean) indexing of gpuarr arrays: ndarray.__getitem__ /
// __setitem__ for every key NumPy accepts, and the C++ halves of take/put/nonzero. Here
// keys become core IndexEntry lists with their index data (device arrays, or host int64
// values and mask bytes), values become device arrays, and results go back to Python;
// planning and host checks are core/advanced_indexing, the device work (mask expansion,
// offsets, bounds, gather, scatter) ops/advanced_indexing.
#include <pybind11/stl.h>

#include <climits>
#include <map>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/advanced_indexing.hpp"
#include "core/errors.hpp"
#include "ops/advanced_indexing.hpp"
#include "ops/array_ops.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {

bool try_basic_items(py::handle key, std::vector<IndexItem>& items);  // indexing_bind.cpp

namespace {

const char* const kInvalidIndex =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices";
const char* const kNonIntArray = "arrays used as indices must be of integer (or boolean) type";

// numpy.<name>, looked up once per name (a handful of names; leaked on purpose).
const py::object& np_attr(const char* name) {
  static auto* np = new py::object(py::module_::import("numpy"));
  static auto* cache = new std::map<std::string, py::object*>();
  auto it = cache->find(name);
  if (it != cache->end()) return *it->second;
  auto* obj = new py::object(np->attr(name));
  (*cache)[name] = obj;
  return *obj;
}

// A key as core entries and ops index data, plus the host arrays that data points into.
struct ParsedIndex {
  std::vector<IndexEntry> entries;
  std::vector<IndexData> data;       // parallel to entries
  std::vector<py::object> host_arrays;  // keep the host data alive
};

void add_entry(ParsedIndex& p, IndexEntry e, IndexData d = {}) {
  p.entries.push_back(std::move(e));
  p.data.push_back(std::move(d));
}

// A 0-d device boolean key's value: one small read, waiting without the GIL.
bool read_device_bool(const NDArray& a) {
  uint8_t v = 0;
  py::gil_scoped_release release;
  download_contiguous(&v, a, false);
  return v != 0;
}

const py::object& int64_dtype() {
  static auto* int64 = new py::object(py::dtype::of<int64_t>());  // leaked on purpose
  return *int64;
}

// A host index array as the int64 values of an IntArray entry.
// `h`: C-contiguous int64 values of an index array of `shape` (numpy.ascontiguousarray makes
// a 0-d array 1-d, so the shape is the caller's).
void add_host_values(ParsedIndex& p, py::array h, const Dims& shape) {
  add_entry(p, IndexEntry::int_array(shape), {NDArray{}, static_cast<const int64_t*>(h.data())});
  p.host_arrays.push_back(std::move(h));
}

void add_array_entry(ParsedIndex& p, const py::object& host_in, bool from_list) {
  py::array host = py::reinterpret_borrow<py::array>(host_in);
  const char kind = host.dtype().kind();
  const Dims shape(host.shape(), host.shape() + host.ndim());
  if (kind == 'b') {
    if (host.ndim() == 0) {
      add_entry(p, IndexEntry::bool_scalar(host.attr("item")().cast<bool>()));
      return;
    }
    if (!(host.flags() & py::array::c_style)) host = np_attr("ascontiguousarray")(host);
    add_entry(p, IndexEntry::bool_array(shape),
              {NDArray{}, nullptr, static_cast<const uint8_t*>(host.data())});
    p.host_arrays.push_back(std::move(host));
    return;
  }
  // Empty lists (float64 to NumPy's asarray) index as intp.
  if (kind != 'i' && kind != 'u' && !(from_list && host.size() == 0)) {
    throw IndexError(from_list ? kInvalidIndex : kNonIntArray);
  }
  py::array h = np_attr("ascontiguousarray")(host, int64_dtype());
  if (shape.empty()) {
    add_entry(p, IndexEntry::integer(h.attr("item")().cast<int64_t>()));  // as an integer
    return;
  }
  add_host_values(p, std::move(h), shape);
}

void parse_item(ParsedIndex& p, py::handle k) {
  PyObject* o = k.ptr();
  if (PyBool_Check(o)) {
    add_entry(p, IndexEntry::bool_scalar(o == Py_True));
  } else if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) throw IndexError("cannot fit 'int' into an index-sized integer");
    add_entry(p, IndexEntry::integer(v));
  } else if (PySlice_Check(o)) {
    Py_ssize_t b, e, s;
    if (PySlice_Unpack(o, &b, &e, &s) < 0) throw py::error_already_set();
    add_entry(p, IndexEntry::slice(b, e, s));
  } else if (o == Py_None) {
    add_entry(p, IndexEntry::newaxis());
  } else if (o == Py_Ellipsis) {
    add_entry(p, IndexEntry::ellipsis());
  } else if (is_gpuarr_array(k)) {
    const NDArray& a = as_array(k).a;
    if (a.dtype == DType::Bool) {
      if (a.ndim() == 0) {
        add_entry(p, IndexEntry::bool_scalar(read_device_bool(a)));
      } else {
        add_entry(p, IndexEntry::bool_array(a.shape), {a});
      }
    } else if (is_integer(a.dtype)) {
      add_entry(p, IndexEntry::int_array(a.shape), {a});
    } else {
      throw IndexError(kNonIntArray);
    }
  } else if (py::isinstance<py::array>(k)) {
    add_array_entry(p, py::reinterpret_borrow<py::object>(k), false);
  } else if (PyList_Check(o) || PyTuple_Check(o)) {
    py::object h;
    try {
      h = np_attr("asarray")(k);
    } catch (py::error_already_set&) {
      throw IndexError(kInvalidIndex);
    }
    add_array_entry(p, h, true);
  } else if (py::isinstance(k, np_attr("bool_"))) {
    add_entry(p, IndexEntry::bool_scalar(k.cast<bool>()));
  } else if (PyIndex_Check(o)) {
    add_entry(p, IndexEntry::integer(
                     py::reinterpret_steal<py::int_>(PyNumber_Index(o)).cast<long long>()));
  } else {
    throw IndexError(kInvalidIndex);
  }
}

ParsedIndex parse_key(py::handle key) {
  ParsedIndex p;
  if (PyTuple_Check(key.ptr())) {
    const Py_ssize_t n = PyTuple_GET_SIZE(key.ptr());
    bool seen_ellipsis = false;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* item = PyTuple_GET_ITEM(key.ptr(), i);
      // NumPy checks items left to right: a second Ellipsis fails before later arrays.
      if (item == Py_Ellipsis) {
        if (seen_ellipsis) throw IndexError("an index can only have a single ellipsis ('...')");
        seen_ellipsis = true;
      }
      parse_item(p, item);
    }
  } else {
    parse_item(p, key);
  }
  return p;
}

// f() without the GIL when the prepared index makes it wait for the device.
template <class F>
auto run_prepared(const PreparedIndex& r, F&& f) {
  if (r.bounds_pending) {
    py::gil_scoped_release release;
    return f();
  }
  return f();
}

// The basic view of a parsed key without arrays.
NDArray basic_view(const NDArray& a, const ParsedIndex& p) {
  NDArray v = a;
  apply_basic_index(v.shape, v.strides, v.offset, basic_items(p.entries));
  return v;
}

// prepare_advanced_index, without the GIL when it may wait for the device.
PreparedIndex prepare(const NDArray& a, const ParsedIndex& p, IndexMode mode, bool take) {
  if (prepare_may_wait(p.entries, p.data, mode)) {
    py::gil_scoped_release release;
    return prepare_advanced_index(a, p.entries, p.data, mode, take);
  }
  return prepare_advanced_index(a, p.entries, p.data, mode, take);
}

// The value of an assignment as a device array of dst's dtype (not sharing dst's memory).
NDArray value_array(const NDArray& dst, py::handle value) {
  DeviceGuard guard(dst.device());
  if (is_gpuarr_array(value)) {
    const NDArray& v = as_array(value).a;
    if (v.dtype != dst.dtype || v.memory == dst.memory || v.device() != dst.device()) {
      return copy_to_current_device(v, dst.dtype, 'K');
    }
    return v;
  }
  if (is_python_scalar(value)) {
    const std::string bytes = scalar_bytes(value, dst.dtype);
    NDArray v = empty_array({}, dst.dtype, 'C');
    fill_array(v, bytes.data());
    return v;
  }
  if (py::isinstance<py::array>(value)) {
    NDArray v = upload_new(host_array_for_upload(value, py::none(), 'K'));
    if (v.dtype != dst.dtype) v = copy_array(v, dst.dtype, 'K');
    return v;
  }
  return upload_new(host_array_for_upload(value, numpy_dtype(dst.dtype), 'K'));
}

py::object getitem(py::handle self, py::handle key) {
  const NDArray& a = as_array(self).a;
  std::vector<IndexItem> items;
  if (try_basic_items(key, items)) {
    NDArray v = a;
    apply_basic_index(v.shape, v.strides, v.offset, items);
    return make_view(self, std::move(v));
  }
  ParsedIndex p = parse_key(key);
  if (!has_advanced(p.entries)) {
    const NDArray v = basic_view(a, p);
    DeviceGuard guard(a.device());
    return make_owner(copy_array(v, v.dtype, 'C'));
  }
  const PreparedIndex r = prepare(a, p, IndexMode::Raise, false);
  return make_owner(run_prepared(r, [&] { return gather_advanced(a, r); }));
}

void setitem(py::handle self, py::handle key, py::handle value) {
  const NDArray& a = as_array(self).a;
  std::vector<IndexItem> items;
  if (try_basic_items(key, items)) {
    NDArray v = a;
    apply_basic_index(v.shape, v.strides, v.offset, items);
    assign_from_py(v, value);
    return;
  }
  ParsedIndex p = parse_key(key);
  if (!has_advanced(p.entries)) {
    assign_from_py(basic_view(a, p), value);
    return;
  }
  const PreparedIndex r = prepare(a, p, IndexMode::Raise, false);
  const NDArray v = value_array(a, value);
  run_prepared(r, [&] { scatter_advanced(a, r, v); });
}

// The index of take/put: an integer array (bool casts to int, as NumPy's take does).
void parse_take_indices(ParsedIndex& p, py::handle indices) {
  if (is_gpuarr_array(indices)) {
    const NDArray& d = as_array(indices).a;
    if (!is_integer(d.dtype) && d.dtype != DType::Bool) {
      throw TypeError(std::string("Cannot cast array data from dtype('") + name(d.dtype) +
                      "') to dtype('int64') according to the rule 'safe'");
    }
    add_entry(p, IndexEntry::int_array(d.shape), {d});
    return;
  }
  py::array h = np_attr("asarray")(indices);
  const char kind = h.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u' && !(h.size() == 0 && !py::isinstance<py::array>(indices))) {
    throw TypeError("Cannot cast array data from " + py::repr(h.dtype()).cast<std::string>() +
                    " to dtype('int64') according to the rule 'safe'");
  }
  add_host_values(p, np_attr("ascontiguousarray")(h, int64_dtype()),
                  Dims(h.shape(), h.shape() + h.ndim()));
}

ParsedIndex axis_index(int64_t axis) {
  ParsedIndex p;
  for (int64_t d = 0; d < axis; ++d) {
    add_entry(p, IndexEntry::slice(0, LLONG_MAX, 1));
  }
  return p;
}

// take(a, indices, axis, mode): `a` already flattened by the caller when axis is None.
py::object take(py::handle self, py::handle indices, int64_t axis, const std::string& mode_s) {
  const NDArray& a = as_array(self).a;
  const IndexMode mode = index_mode_from_string(mode_s);
  axis = normalize_axis(axis, a.ndim());
  ParsedIndex p = axis_index(axis);
  parse_take_indices(p, indices);
  const PreparedIndex r = prepare(a, p, mode, true);
  return make_owner(run_prepared(r, [&] { return gather_advanced(a, r); }));
}

// a[indices] = values along axis 0 of a 1-d view with take/put's modes (put's core);
// `last_write`: NumPy's rule for repeated indices (indices 1-d, values of their length).
// False where that rule needs the indices sorted first (scatter_last_write): nothing written,
// mode raise's bounds checked.
bool put_flat(py::handle self, py::handle indices, py::handle values, const std::string& mode_s,
              bool last_write) {
  const NDArray& a = as_array(self).a;
  const IndexMode mode = index_mode_from_string(mode_s);
  ParsedIndex p;
  parse_take_indices(p, indices);
  const PreparedIndex r = prepare(a, p, mode, true);
  const NDArray v = value_array(a, values);
  return run_prepared(r, [&] {
    if (last_write) return scatter_last_write(a, r, v);
    scatter_advanced(a, r, v);
    return true;
  });
}

// (ndim, count) int64 coordinates of the nonzero elements (rows are nonzero()'s arrays).
py::object nonzero_rows(py::handle self) {
  const NDArray& a = as_array(self).a;
  NDArray rows;
  {
    py::gil_scoped_release release;
    rows = nonzero_coordinates(a);
  }
  return make_owner(std::move(rows));
}

py::tuple nonzero(py::handle self) {
  const NDArray& a = as_array(self).a;
  if (a.ndim() == 0) {
    throw ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                     "np.atleast_1d(scalar).nonzero() instead.");
  }
  py::object rows = nonzero_rows(self);
  const NDArray& ra = as_array(rows).a;
  py::tuple out(a.ndim());
  for (int64_t d = 0; d < a.ndim(); ++d) out[d] = make_view(rows, coordinate_row(ra, d));
  return out;
}

// Host-only planning of a key made of host objects (no gpuarr arrays): the shape and
// strides (float64 items) of NumPy's result, with NumPy's errors. Lets the planner and the
// key parser be checked against NumPy without a device.
py::tuple plan_for_host_key(const Dims& shape, py::handle key) {
  const ParsedIndex p = parse_key(key);
  std::vector<HostIndexData> data;
  data.reserve(p.data.size());
  for (const auto& d : p.data) {
    if (d.device.memory) throw TypeError("_plan_for_host_key: the key holds a device array");
    data.push_back({d.values, d.mask});
  }
  const IndexLayout l = host_index_layout(shape, 8, p.entries, data);
  return py::make_tuple(dims_to_tuple(l.shape), dims_to_tuple(l.strides));
}

}  // namespace

GPUARR_BINDINGS(100) {
  m.def("_plan_for_host_key", &plan_for_host_key, py::arg("shape"), py::arg("key"));
  py::object cls = m.attr("ndarray");
  // Replace (no py::sibling): a sibling appends this overload AFTER ndarray_bind's basic
  // (self, key) one, which accepts every key and raises for array keys, so this one would
  // never run. getitem/setitem handle basic keys themselves.
  cls.attr("__getitem__") =
      py::cpp_function(&getitem, py::name("__getitem__"), py::is_method(cls));
  cls.attr("__setitem__") =
      py::cpp_function(&setitem, py::name("__setitem__"), py::is_method(cls));
  cls.attr("nonzero") = py::cpp_function(&nonzero, py::name("nonzero"), py::is_method(cls));
  m.def("_take", &take, py::arg("a"), py::arg("indices"), py::arg("axis"), py::arg("mode"));
  m.def("_put_flat", &put_flat, py::arg("a"), py::arg("indices"), py::arg("values"),
        py::arg("mode"), py::arg("last_write") = false);
  m.def("_nonzero_rows", &nonzero_rows, py::arg("a"));
}

}  // namespace gpuarr::bind
