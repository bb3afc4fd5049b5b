#include "bindings/dtype_convert.hpp"

#include <array>

#include "core/errors.hpp"

namespace gpuarr::bind {
namespace {

struct NumpyCache {
  py::object numpy;
  py::object dtype_ctor;
  py::object asarray;
  py::object empty;
  py::object ascontiguousarray;
  std::array<py::object, kNumDTypes> dtypes;
  std::array<py::object, 4> order_names;  // "F", "C", "A", "K"
};

NumpyCache* cache = nullptr;  // leaked on purpose: used until interpreter exit

DType dtype_from_descr(const py::dtype& dt) {
  // Canonical native dtypes are singletons: compare identities first.
  for (int i = 0; i < kNumDTypes; ++i) {
    if (dt.ptr() == cache->dtypes[i].ptr()) return static_cast<DType>(i);
  }
  const char kind = dt.kind();
  if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f' && kind != 'c') {
    throw TypeError("gpuarr does not support dtype " + py::str(dt).cast<std::string>());
  }
  const DType t = dtype_from_kind_and_size(kind, dt.itemsize());
  const char bo = dt.byteorder();
  if (bo == '>') {
    throw TypeError("gpuarr arrays are in native byte order; dtype " +
                    py::str(dt).cast<std::string>() + " is not");
  }
  return t;
}

}  // namespace

void init_numpy_cache() {
  if (cache) return;
  cache = new NumpyCache();
  cache->numpy = py::module_::import("numpy");
  cache->dtype_ctor = cache->numpy.attr("dtype");
  cache->asarray = cache->numpy.attr("asarray");
  cache->empty = cache->numpy.attr("empty");
  cache->ascontiguousarray = cache->numpy.attr("ascontiguousarray");
  for (int i = 0; i < kNumDTypes; ++i) {
    cache->dtypes[i] = cache->dtype_ctor(name(static_cast<DType>(i)));
  }
  const char* orders[4] = {"F", "C", "A", "K"};
  for (int i = 0; i < 4; ++i) cache->order_names[i] = py::str(orders[i]);
}

const py::object& numpy_dtype(DType t) { return cache->dtypes[static_cast<int>(t)]; }
const py::object& np_empty() { return cache->empty; }

DType dtype_from_py(py::handle obj) {
  for (int i = 0; i < kNumDTypes; ++i) {
    if (obj.ptr() == cache->dtypes[i].ptr()) return static_cast<DType>(i);
  }
  py::object dt;
  try {
    dt = cache->dtype_ctor(obj);
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_TypeError)) {
      throw TypeError("data type " + py::repr(obj).cast<std::string>() + " not understood");
    }
    throw;
  }
  return dtype_from_descr(py::reinterpret_borrow<py::dtype>(dt));
}

DType dtype_of_numpy(const py::array& a) { return dtype_from_descr(a.dtype()); }

Dims shape_from_py(py::handle obj) {
  Dims out;
  if (PyIndex_Check(obj.ptr())) {
    out.push_back(py::reinterpret_steal<py::int_>(PyNumber_Index(obj.ptr())).cast<int64_t>());
    return out;
  }
  if (!PySequence_Check(obj.ptr())) {
    throw TypeError("'" + std::string(Py_TYPE(obj.ptr())->tp_name) +
                    "' object cannot be interpreted as an integer");
  }
  for (py::handle item : py::reinterpret_borrow<py::sequence>(obj)) {
    if (!PyIndex_Check(item.ptr())) {
      throw TypeError("'" + std::string(Py_TYPE(item.ptr())->tp_name) +
                      "' object cannot be interpreted as an integer");
    }
    out.push_back(py::reinterpret_steal<py::int_>(PyNumber_Index(item.ptr())).cast<int64_t>());
  }
  return out;
}

py::tuple dims_to_tuple(const Dims& d) {
  py::tuple t(d.size());
  for (size_t i = 0; i < d.size(); ++i) {
    PyTuple_SET_ITEM(t.ptr(), i, PyLong_FromLongLong(d[i]));
  }
  return t;
}

char order_from_py(py::handle obj, char default_order) {
  if (obj.is_none()) return default_order;
  const std::string s = py::str(obj);
  if (s.size() == 1) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    if (c == 'C' || c == 'F' || c == 'A' || c == 'K') return c;
  }
  throw ValueError("order must be one of 'C', 'F', 'A', or 'K' (got '" + s + "')");
}

std::string scalar_bytes(py::handle value, DType t, ScalarCast how) {
  // NumPy converts into a 0-d array of the target dtype, so its rules, warnings and errors
  // (OverflowError for out-of-bounds Python integers, ...) apply unchanged.
  py::array tmp(py::reinterpret_borrow<py::dtype>(numpy_dtype(t)), Dims{}, Dims{});
  if (how == ScalarCast::Assign) {
    tmp[py::tuple()] = value;
  } else {
    static auto* copyto = new py::object(cache->numpy.attr("copyto"));
    py::dict kw;
    kw["casting"] = "unsafe";
    (*copyto)(tmp, value, **kw);
  }
  return std::string(static_cast<const char*>(tmp.data()), static_cast<size_t>(itemsize(t)));
}

py::array host_array_for_upload(py::handle obj, py::handle dtype, char order) {
  // Fast path: a native-order NumPy array taken as it is.
  if (dtype.is_none() && (order == 'K' || order == 'A') && py::isinstance<py::array>(obj)) {
    auto a = py::reinterpret_borrow<py::array>(obj);
    if (a.dtype().byteorder() != '>') return a;
  }
  py::object src = py::reinterpret_borrow<py::object>(obj);
  // Buffer-protocol objects NumPy would read as strings (bytes, bytearray) are bytes.
  if (!py::isinstance<py::array>(obj) && PyObject_CheckBuffer(obj.ptr()) &&
      (PyBytes_Check(obj.ptr()) || PyByteArray_Check(obj.ptr()))) {
    src = py::memoryview(src);
  }
  py::array a;
  const py::object& order_str = cache->order_names[order == 'F' ? 0 : order == 'C' ? 1 : order == 'A' ? 2 : 3];
  if (dtype.is_none()) a = cache->asarray(src, py::none(), order_str);
  else a = cache->asarray(src, numpy_dtype(dtype_from_py(dtype)), order_str);
  const py::dtype dt = a.dtype();
  if (dt.byteorder() == '>') a = a.attr("astype")(dt.attr("newbyteorder")("="));
  return a;
}

}  // namespace gpuarr::bind
