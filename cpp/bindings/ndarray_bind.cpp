#include <pybind11/stl.h>

#include <cstring>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "core/errors.hpp"
#include "core/indexing.hpp"
#include "ops/array_ops.hpp"
#include "ops/kernels.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {
namespace {

// Uploads below this size keep the GIL: they do not wait for the device, and releasing it
// costs more than they take. Downloads always release it (they wait for the device).
constexpr int64_t kReleaseGilBytes = 1 << 16;

struct Flags {
  bool c_contiguous, f_contiguous, owndata;
};

struct MemoryPointer {
  uintptr_t ptr;
  int device_id;
};

PyArray& self_array(py::handle self) { return as_array(self); }

// --- indexing --------------------------------------------------------------------

[[noreturn]] void advanced_index_unsupported() {
  throw IndexError(
      "gpuarr does not support advanced (integer or boolean array) indexing yet; only "
      "integers, slices (`:`), ellipsis (`...`) and None are valid indices");
}

void add_index_item(std::vector<IndexItem>& items, py::handle k) {
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
  } else if (PyBool_Check(o) || is_gpuarr_array(k) || py::isinstance<py::array>(k) ||
             PyList_Check(o)) {
    advanced_index_unsupported();
  } else if (PyIndex_Check(o)) {
    items.push_back(IndexItem::integer(
        py::reinterpret_steal<py::int_>(PyNumber_Index(o)).cast<long long>()));
  } else {
    throw IndexError(
        "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
        "boolean arrays are valid indices");
  }
}

NDArray index_view(const NDArray& a, py::handle key) {
  std::vector<IndexItem> items;
  if (PyTuple_Check(key.ptr())) {
    const Py_ssize_t n = PyTuple_GET_SIZE(key.ptr());
    items.reserve(n);
    for (Py_ssize_t i = 0; i < n; ++i) add_index_item(items, PyTuple_GET_ITEM(key.ptr(), i));
  } else {
    add_index_item(items, key);
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
void assign_from_py(const NDArray& dst, py::handle value, ScalarCast how = ScalarCast::Assign) {
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

// --- scalars -----------------------------------------------------------------------

// Reads the single element of a size-1 array (one small device-to-host read; the GIL is
// released while waiting).
void read_element(const NDArray& a, void* dst) {
  NDArray one = a;
  one.shape = {1};
  one.strides = {a.itemsize()};
  py::gil_scoped_release release;
  download_contiguous(dst, one, false);
}

// A NumPy array with the shape and dtype of `a` holding its value when it has exactly
// one element; otherwise an uninitialised one, so that NumPy raises its own error.
py::array host_for_scalar(const NDArray& a) {
  const Dims strides = contiguous_strides(a.shape, a.itemsize(), 'C');
  py::array h(py::reinterpret_borrow<py::dtype>(numpy_dtype(a.dtype)), a.shape, strides);
  if (a.size() == 1) read_element(a, h.mutable_data());
  return h;
}

// The Python scalar NumPy's item() gives for one element of `a`.
py::object element_to_python(const NDArray& a) {
  alignas(16) unsigned char buf[16];
  read_element(a, buf);
  auto as = [&](auto v) {
    std::memcpy(&v, buf, sizeof(v));
    return v;
  };
  switch (a.dtype) {
    case DType::Bool: return py::bool_(buf[0] != 0);
    case DType::Int8: return py::int_(as(int8_t{}));
    case DType::Int16: return py::int_(as(int16_t{}));
    case DType::Int32: return py::int_(as(int32_t{}));
    case DType::Int64: return py::int_(as(int64_t{}));
    case DType::UInt8: return py::int_(as(uint8_t{}));
    case DType::UInt16: return py::int_(as(uint16_t{}));
    case DType::UInt32: return py::int_(as(uint32_t{}));
    case DType::UInt64: return py::int_(as(uint64_t{}));
    case DType::Float32: return py::float_(as(float{}));
    case DType::Float64: return py::float_(as(double{}));
    case DType::Complex64: {
      const auto re = as(float{});
      float im;
      std::memcpy(&im, buf + 4, 4);
      return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(re, im));
    }
    case DType::Complex128: {
      double re, im;
      std::memcpy(&re, buf, 8);
      std::memcpy(&im, buf + 8, 8);
      return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(re, im));
    }
    case DType::Float16: break;
  }
  // float16: let NumPy convert the half-precision bits.
  py::array h(py::reinterpret_borrow<py::dtype>(numpy_dtype(a.dtype)), Dims{}, Dims{});
  std::memcpy(h.mutable_data(), buf, 2);
  return h.attr("item")();
}

py::object item(const NDArray& a, py::args args_in) {
  // NumPy: item(), item(flat_index), item(i, j, ...) or item((i, j, ...)).
  py::tuple args = args_in;
  if (args.size() == 1 && PyTuple_Check(args[0].ptr())) args = py::reinterpret_borrow<py::tuple>(args[0]);
  if (args.size() == 0) {
    if (a.size() != 1) throw ValueError("can only convert an array of size 1 to a Python scalar");
    return element_to_python(a);
  }
  for (py::handle k : args) {
    if (!PyIndex_Check(k.ptr())) {
      throw TypeError("'" + std::string(Py_TYPE(k.ptr())->tp_name) +
                      "' object cannot be interpreted as an integer");
    }
  }
  NDArray v = a;
  if (args.size() == 1) {
    // A flat index into the array as if it were C-ordered.
    int64_t flat = py::reinterpret_steal<py::int_>(PyNumber_Index(args[0].ptr())).cast<int64_t>();
    const int64_t n = a.size();
    if (flat < -n || flat >= n) {
      throw IndexError("index " + std::to_string(flat) + " is out of bounds for " +
                       (a.ndim() == 1 ? "axis 0 with size " : "size ") + std::to_string(n));
    }
    if (flat < 0) flat += n;
    for (int64_t d = a.ndim() - 1; d >= 0; --d) {
      v.offset += (flat % a.shape[d]) * a.strides[d];
      flat /= a.shape[d];
    }
    v.shape.clear();
    v.strides.clear();
  } else {
    if (static_cast<int64_t>(args.size()) != a.ndim()) {
      throw ValueError("incorrect number of indices for array");
    }
    v = index_view(a, args);
  }
  return element_to_python(v);
}

// --- creation --------------------------------------------------------------------

DType dtype_or(py::handle dtype, DType fallback) {
  return dtype.is_none() ? fallback : dtype_from_py(dtype);
}

py::object new_empty(py::handle shape, py::handle dtype, py::handle order) {
  const char o = order_from_py(order, 'C');
  if (o != 'C' && o != 'F') throw ValueError("only 'C' or 'F' order is permitted");
  return make_owner(empty_array(shape_from_py(shape), dtype_or(dtype, DType::Float64), o));
}

py::object new_zeros(py::handle shape, py::handle dtype, py::handle order) {
  py::object out = new_empty(shape, dtype, order);
  static const char zero[16] = {};
  fill_array(as_array(out).a, zero);
  return out;
}

py::object new_full(py::handle shape, py::handle fill_value, py::handle dtype, py::handle order);

py::object new_ones(py::handle shape, py::handle dtype, py::handle order) {
  py::object out = new_empty(shape, dtype, order);
  const NDArray& a = as_array(out).a;
  fill_array(a, scalar_bytes(py::int_(1), a.dtype).data());
  return out;
}

// The dtype NumPy gives np.full(shape, value) / np.array(value).
DType natural_dtype(py::handle value) {
  if (is_gpuarr_array(value)) return as_array(value).a.dtype;
  return dtype_of_numpy(host_array_for_upload(value, py::none(), 'K'));
}

py::object new_full(py::handle shape, py::handle fill_value, py::handle dtype, py::handle order) {
  const DType t = dtype.is_none() ? natural_dtype(fill_value) : dtype_from_py(dtype);
  py::object out = new_empty(shape, numpy_dtype(t), order);
  assign_from_py(as_array(out).a, fill_value, ScalarCast::Unsafe);
  return out;
}

// np.empty_like: the prototype's memory order ('K') carries over to the new shape when
// the number of dimensions stays the same.
py::object new_empty_like(py::handle proto, py::handle dtype, py::handle order, py::handle shape) {
  DType proto_dtype;
  Dims pshape, pstrides;
  if (is_gpuarr_array(proto)) {
    const NDArray& p = as_array(proto).a;
    proto_dtype = p.dtype;
    pshape = p.shape;
    pstrides = p.strides;
  } else {
    const py::array h = host_array_for_upload(proto, py::none(), 'K');
    proto_dtype = dtype_of_numpy(h);
    pshape.assign(h.shape(), h.shape() + h.ndim());
    pstrides.assign(h.strides(), h.strides() + h.ndim());
  }
  const DType t = dtype_or(dtype, proto_dtype);
  const int64_t isz = itemsize(proto_dtype);
  char o = order_from_py(order, 'K');
  const bool c = is_c_contiguous(pshape, pstrides, isz), f = is_f_contiguous(pshape, pstrides, isz);
  if (o == 'A') o = f && !c ? 'F' : 'C';
  if (o == 'K' && (c || f)) o = c ? 'C' : 'F';
  Dims new_shape = pshape;
  if (!shape.is_none()) {
    new_shape = shape_from_py(shape);
    if (new_shape.size() != pshape.size() && o == 'K') o = 'C';
  }
  NDArray a = empty_array(new_shape, t, o == 'F' ? 'F' : 'C');
  if (o == 'K' && a.size() > 0) a.strides = strides_like(new_shape, pstrides, itemsize(t));
  return make_owner(std::move(a));
}

py::object new_full_like(py::handle proto, py::handle fill_value, py::handle dtype,
                         py::handle order, py::handle shape) {
  py::object out = new_empty_like(proto, dtype, order, shape);
  assign_from_py(as_array(out).a, fill_value, ScalarCast::Unsafe);
  return out;
}

py::object new_eye(int64_t n, py::handle m_obj, int64_t k, py::handle dtype, py::handle order) {
  const int64_t m = m_obj.is_none() ? n : m_obj.cast<int64_t>();
  py::object out = new_zeros(py::make_tuple(n, m), dtype, order);
  NDArray diag = as_array(out).a;
  const int64_t len = k >= 0 ? std::min(n, m - k) : std::min(n + k, m);
  if (len <= 0) return out;
  diag.offset = k >= 0 ? k * diag.strides[1] : -k * diag.strides[0];
  diag.shape = {len};
  diag.strides = {diag.strides[0] + diag.strides[1]};
  fill_array(diag, scalar_bytes(py::int_(1), diag.dtype).data());
  return out;
}

// gpuarr.array / asarray: no copy for a gpuarr array that already fits.
py::object to_device(py::handle obj, py::handle dtype, bool copy, py::handle order_obj,
                     int64_t ndmin) {
  const char order = order_from_py(order_obj, 'K');
  py::object out;
  if (is_gpuarr_array(obj)) {
    const NDArray& a = as_array(obj).a;
    const DType t = dtype_or(dtype, a.dtype);
    const bool layout_ok = (order == 'C' && a.c_contiguous()) ||
                           (order == 'F' && a.f_contiguous()) || order == 'A' || order == 'K';
    if (is_complex(a.dtype) && !is_complex(t) && t != DType::Bool) {
      static auto* complex_warning = new py::object(
          py::module_::import("numpy.exceptions").attr("ComplexWarning"));
      if (PyErr_WarnEx(complex_warning->ptr(),
                       "Casting complex values to real discards the imaginary part", 1) < 0) {
        throw py::error_already_set();
      }
    }
    if (a.device() != current_device()) {
      out = make_owner(copy_to_current_device(a, t, order));
    } else if (!copy && t == a.dtype && layout_ok) {
      out = py::reinterpret_borrow<py::object>(obj);
    } else {
      out = make_owner(copy_array(a, t, order));
    }
  } else {
    const py::array host = host_array_for_upload(obj, dtype, order);
    if (order == 'F' && !(host.flags() & py::array::f_style)) {
      out = make_owner(upload_new(py::array(py::module_::import("numpy").attr("asfortranarray")(host))));
    } else {
      out = make_owner(upload_new(host));
    }
  }
  const NDArray& r = as_array(out).a;
  if (ndmin > r.ndim()) {
    NDArray v = r;
    const int64_t extra = ndmin - r.ndim();
    v.shape.insert(v.shape.begin(), extra, 1);
    v.strides.insert(v.strides.begin(), extra, 0);
    return make_view(out, v);
  }
  return out;
}

// --- host transfers ------------------------------------------------------------------

py::array get(py::handle self, py::handle stream, py::handle out, bool blocking) {
  const NDArray& a = self_array(self).a;
  StreamScope scope(stream, a.device());
  if (out.is_none()) return download_new(a);
  if (!py::isinstance<py::array>(out)) throw TypeError("Only numpy.ndarray can be obtained from gpuarr.ndarray");
  py::array host = py::reinterpret_borrow<py::array>(out);
  if (dtype_of_numpy(host) != a.dtype) {
    throw TypeError("'out' dtype " + py::str(host.dtype()).cast<std::string>() +
                    " does not match the array's dtype " + name(a.dtype));
  }
  const Dims hshape(host.shape(), host.shape() + host.ndim());
  if (hshape != a.shape) {
    throw ValueError("Shape mismatch. Expected shape: " + shape_str(a.shape) +
                     ", actual shape: " + shape_str(hshape));
  }
  if (!host.writeable()) throw ValueError("'out' is read-only");
  const Dims hstrides(host.strides(), host.strides() + host.ndim());
  const bool same_c = a.c_contiguous() && is_c_contiguous(hshape, hstrides, a.itemsize());
  const bool same_f = a.f_contiguous() && is_f_contiguous(hshape, hstrides, a.itemsize());
  if (same_c || same_f) {
    const bool allow_async = !blocking && !stream.is_none();
    void* dst = host.mutable_data();
    py::gil_scoped_release release;
    download_contiguous(dst, a, allow_async);
  } else {
    py::module_::import("numpy").attr("copyto")(host, download_new(a));
  }
  return host;
}

void set(py::handle self, py::handle arr, py::handle stream) {
  const NDArray& a = self_array(self).a;
  if (!py::isinstance<py::array>(arr)) {
    throw TypeError("Only numpy.ndarray can be set to gpuarr.ndarray");
  }
  py::array host = py::reinterpret_borrow<py::array>(arr);
  const Dims hshape(host.shape(), host.shape() + host.ndim());
  if (hshape != a.shape) {
    throw ValueError("Shape mismatch. Old shape: " + shape_str(a.shape) +
                     ", new shape: " + shape_str(hshape));
  }
  if (dtype_of_numpy(host) != a.dtype) {
    throw TypeError(std::string(py::str(host.dtype())) + " array cannot be set to " +
                    name(a.dtype) + " array");
  }
  StreamScope scope(stream, a.device());
  const Dims hstrides(host.strides(), host.strides() + host.ndim());
  const bool same_c = a.c_contiguous() && is_c_contiguous(hshape, hstrides, a.itemsize());
  const bool same_f = a.f_contiguous() && is_f_contiguous(hshape, hstrides, a.itemsize());
  if (same_c || same_f) {
    const bool allow_async = !stream.is_none();
    if (a.nbytes() >= kReleaseGilBytes) {
      py::gil_scoped_release release;
      upload_contiguous(a, host.data(), allow_async);
    } else {
      upload_contiguous(a, host.data(), allow_async);
    }
  } else {
    assign_array(a, upload_new(host));
  }
}

Dims axes_from_args(const py::args& args) {
  if (args.size() == 0) return {};
  if (args.size() == 1) {
    if (args[0].is_none()) return {};
    if (!PyIndex_Check(args[0].ptr())) return shape_from_py(args[0]);
  }
  return shape_from_py(args);
}

py::object transpose(py::handle self, const Dims& axes) {
  NDArray v = self_array(self).a;
  transpose_layout(v.shape, v.strides, axes);
  return make_view(self, std::move(v));
}

std::string format_flags(const Flags& f) {
  auto b = [](bool x) { return x ? "True" : "False"; };
  return std::string("  C_CONTIGUOUS : ") + b(f.c_contiguous) + "\n  F_CONTIGUOUS : " +
         b(f.f_contiguous) + "\n  OWNDATA : " + b(f.owndata);
}

}  // namespace

// --- shared helpers ----------------------------------------------------------------

py::object make_owner(NDArray a) {
  return py::cast(PyArray{std::move(a), py::none()}, py::return_value_policy::move);
}

py::object make_view(py::handle parent_obj, NDArray view) {
  const PyArray& parent = as_array(parent_obj);
  py::object base = parent.base.is_none() ? py::reinterpret_borrow<py::object>(parent_obj)
                                          : parent.base;
  return py::cast(PyArray{std::move(view), std::move(base)}, py::return_value_policy::move);
}

NDArray upload_new(const py::array& host_in) {
  py::array host = host_in;
  const DType t = dtype_of_numpy(host);
  const Dims shape(host.shape(), host.shape() + host.ndim());
  char order;
  if (host.flags() & py::array::c_style) {
    order = 'C';
  } else if (host.flags() & py::array::f_style) {
    order = 'F';
  } else {
    // NumPy's order='K' copy is dense with positive strides in the source's axis order;
    // its bytes upload as they are.
    host = host.attr("copy")("K");
    order = 'K';
  }
  NDArray a = empty_array(shape, t, order == 'F' ? 'F' : 'C');
  if (order == 'K') a.strides.assign(host.strides(), host.strides() + host.ndim());
  if (a.nbytes() >= kReleaseGilBytes) {
    py::gil_scoped_release release;
    upload_contiguous(a, host.data(), false);
  } else {
    upload_contiguous(a, host.data(), false);
  }
  return a;
}

py::array download_new(const NDArray& a_in) {
  NDArray a = a_in;
  if (!a.c_contiguous() && !a.f_contiguous()) a = copy_array(a_in, a_in.dtype, 'C');
  const char order = a.c_contiguous() ? 'C' : 'F';
  py::array h(py::reinterpret_borrow<py::dtype>(numpy_dtype(a.dtype)), a.shape,
              contiguous_strides(a.shape, a.itemsize(), order));
  void* dst = h.mutable_data();
  {
    py::gil_scoped_release release;
    download_contiguous(dst, a, false);
  }
  return h;
}

StreamScope::StreamScope(py::handle stream, int device) : device_(device) {
  if (stream.is_none()) return;
  auto s = stream.cast<std::shared_ptr<Stream>>();
  // The legacy null stream is represented by an empty slot.
  if (s && s->handle() == nullptr) s = nullptr;
  previous_ = exchange_current_stream(device, s);
  active_ = true;
}

StreamScope::~StreamScope() {
  if (active_) exchange_current_stream(device_, std::move(previous_));
}

void bind_ndarray(py::module_& m) {
  py::class_<Flags>(m, "Flags")
      .def_readonly("c_contiguous", &Flags::c_contiguous)
      .def_readonly("f_contiguous", &Flags::f_contiguous)
      .def_readonly("owndata", &Flags::owndata)
      .def("__getitem__",
           [](const Flags& f, const std::string& key) {
             if (key == "C_CONTIGUOUS" || key == "C" || key == "CONTIGUOUS") return f.c_contiguous;
             if (key == "F_CONTIGUOUS" || key == "F" || key == "FORTRAN") return f.f_contiguous;
             if (key == "OWNDATA" || key == "O") return f.owndata;
             throw py::key_error(key);
           })
      .def("__repr__", &format_flags);

  py::class_<MemoryPointer>(m, "MemoryPointer")
      .def_readonly("ptr", &MemoryPointer::ptr)
      .def_readonly("device_id", &MemoryPointer::device_id)
      .def("__int__", [](const MemoryPointer& p) { return p.ptr; })
      .def("__repr__", [](const MemoryPointer& p) {
        return "<gpuarr.MemoryPointer 0x" + py::str(py::int_(p.ptr).attr("__format__")("x")).cast<std::string>() +
               " on device " + std::to_string(p.device_id) + ">";
      });

  py::class_<PyArray>(m, "ndarray")
      .def(py::init([](py::handle shape, py::handle dtype, py::handle order) {
             return as_array(new_empty(shape, dtype, order));
           }),
           py::arg("shape"), py::arg("dtype") = py::none(), py::arg("order") = "C")
      .def_property_readonly("shape", [](const PyArray& s) { return dims_to_tuple(s.a.shape); })
      .def_property_readonly("strides", [](const PyArray& s) { return dims_to_tuple(s.a.strides); })
      .def_property_readonly("ndim", [](const PyArray& s) { return s.a.ndim(); })
      .def_property_readonly("size", [](const PyArray& s) { return s.a.size(); })
      .def_property_readonly("itemsize", [](const PyArray& s) { return s.a.itemsize(); })
      .def_property_readonly("nbytes", [](const PyArray& s) { return s.a.nbytes(); })
      .def_property_readonly("dtype", [](const PyArray& s) { return numpy_dtype(s.a.dtype); })
      .def_property_readonly("base", [](const PyArray& s) { return s.base; })
      .def_property_readonly("flags",
                             [](const PyArray& s) {
                               return Flags{s.a.c_contiguous(), s.a.f_contiguous(),
                                            s.base.is_none()};
                             })
      .def_property_readonly("data",
                             [](const PyArray& s) {
                               return MemoryPointer{reinterpret_cast<uintptr_t>(s.a.data()),
                                                    s.a.device()};
                             })
      .def_property_readonly("device",
                             [](const PyArray& s) {
                               static auto* device_cls = new py::object(
                                   py::module_::import("gpuarr.cuda").attr("Device"));
                               return (*device_cls)(s.a.device());
                             })
      .def_property_readonly("T", [](py::handle self) { return transpose(self, {}); })
      .def("transpose", [](py::handle self, py::args axes) {
        return transpose(self, axes_from_args(axes));
      })
      .def(
          "reshape",
          [](py::handle self, py::args shape, py::handle order) {
            const NDArray& a = self_array(self).a;
            char o = order_from_py(order, 'C');
            if (o == 'A') o = a.f_contiguous() && !a.c_contiguous() ? 'F' : 'C';
            if (o == 'K') throw ValueError("order 'K' is not permitted for reshaping");
            if (shape.size() == 0) throw TypeError("reshape() takes exactly 1 argument (0 given)");
            const Dims s = shape.size() == 1 ? shape_from_py(shape[0]) : shape_from_py(shape);
            NDArray r = reshape_array(a, s, o);
            if (r.memory == a.memory) return make_view(self, std::move(r));
            return make_owner(std::move(r));
          },
          py::kw_only(), py::arg("order") = "C")
      .def("__getitem__", [](py::handle self, py::handle key) {
        return make_view(self, index_view(self_array(self).a, key));
      })
      .def("__setitem__", [](py::handle self, py::handle key, py::handle value) {
        assign_from_py(index_view(self_array(self).a, key), value);
      })
      .def("fill", [](const PyArray& s, py::handle value) {
        if (!is_python_scalar(value) && !(py::isinstance<py::array>(value) &&
                                          py::reinterpret_borrow<py::array>(value).ndim() == 0)) {
          if (is_gpuarr_array(value) && as_array(value).a.ndim() == 0) {
            assign_array(s.a, as_array(value).a);
            return;
          }
          throw ValueError("fill value must be a scalar");
        }
        assign_from_py(s.a, value);
      })
      .def(
          "copy",
          [](const PyArray& s, py::handle order) {
            return make_owner(copy_array(s.a, s.a.dtype, order_from_py(order, 'C')));
          },
          py::arg("order") = "C")
      .def(
          "astype",
          [](py::handle self, py::handle dtype, py::handle order, py::handle casting,
             py::handle subok, bool copy) {
            (void)casting;
            (void)subok;
            return to_device(self, dtype, copy, order, 0);
          },
          py::arg("dtype"), py::arg("order") = "K", py::arg("casting") = py::none(),
          py::arg("subok") = py::none(), py::arg("copy") = true)
      .def("get", &get, py::arg("stream") = py::none(), py::arg("out") = py::none(),
           py::arg("blocking") = true)
      .def("set", &set, py::arg("arr"), py::arg("stream") = py::none())
      .def("item", [](const PyArray& s, py::args args) { return item(s.a, args); })
      .def("tolist", [](const PyArray& s) { return download_new(s.a).attr("tolist")(); })
      .def("_host_scalar", [](const PyArray& s) { return host_for_scalar(s.a); })
      .def("__len__",
           [](const PyArray& s) {
             if (s.a.ndim() == 0) throw TypeError("len() of unsized object");
             return s.a.shape[0];
           })
      .def("__array__", [](py::handle, py::args, py::kwargs) -> py::object {
        throw TypeError(
            "Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
            "construct a NumPy array explicitly.");
      });

  m.def("empty", &new_empty, py::arg("shape"), py::arg("dtype") = py::none(),
        py::arg("order") = "C");
  m.def("zeros", &new_zeros, py::arg("shape"), py::arg("dtype") = py::none(),
        py::arg("order") = "C");
  m.def("ones", &new_ones, py::arg("shape"), py::arg("dtype") = py::none(),
        py::arg("order") = "C");
  m.def("full", &new_full, py::arg("shape"), py::arg("fill_value"), py::arg("dtype") = py::none(),
        py::arg("order") = "C");
  m.def("empty_like", &new_empty_like, py::arg("a"), py::arg("dtype") = py::none(),
        py::arg("order") = "K", py::arg("shape") = py::none());
  m.def(
      "zeros_like",
      [](py::handle a, py::handle dtype, py::handle order, py::handle shape) {
        return new_full_like(a, py::int_(0), dtype, order, shape);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = "K",
      py::arg("shape") = py::none());
  m.def(
      "ones_like",
      [](py::handle a, py::handle dtype, py::handle order, py::handle shape) {
        return new_full_like(a, py::int_(1), dtype, order, shape);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = "K",
      py::arg("shape") = py::none());
  m.def("full_like", &new_full_like, py::arg("a"), py::arg("fill_value"),
        py::arg("dtype") = py::none(), py::arg("order") = "K", py::arg("shape") = py::none());
  m.def("eye", &new_eye, py::arg("N"), py::arg("M") = py::none(), py::arg("k") = 0,
        py::arg("dtype") = py::none(), py::arg("order") = "C");
  m.def(
      "array",
      [](py::handle obj, py::handle dtype, bool copy, py::handle order, py::handle subok,
         int64_t ndmin) {
        (void)subok;
        return to_device(obj, dtype, copy, order, ndmin);
      },
      py::arg("obj"), py::arg("dtype") = py::none(), py::arg("copy") = true,
      py::arg("order") = "K", py::arg("subok") = false, py::arg("ndmin") = 0);
  m.def(
      "asarray",
      [](py::handle obj, py::handle dtype, py::handle order) {
        return to_device(obj, dtype, false, order, 0);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = py::none());
  m.def(
      "ascontiguousarray",
      [](py::handle obj, py::handle dtype) {
        py::object r = to_device(obj, dtype, false, py::str("C"), 0);
        if (as_array(r).a.ndim() == 0) {
          NDArray v = as_array(r).a;
          v.shape = {1};
          v.strides = {v.itemsize()};
          return make_view(r, v);
        }
        return r;
      },
      py::arg("a"), py::arg("dtype") = py::none());
  m.def(
      "copy",
      [](py::handle obj, py::handle order) {
        if (is_gpuarr_array(obj)) {
          const NDArray& a = as_array(obj).a;
          return make_owner(copy_array(a, a.dtype, order_from_py(order, 'K')));
        }
        return to_device(obj, py::none(), true, order, 0);
      },
      py::arg("a"), py::arg("order") = "K");
  m.def(
      "asnumpy",
      [](py::handle a, py::handle stream, py::handle out, bool blocking) -> py::object {
        if (is_gpuarr_array(a)) return get(a, stream, out, blocking);
        py::object h = py::module_::import("numpy").attr("asarray")(a);
        if (!out.is_none()) {
          py::module_::import("numpy").attr("copyto")(out, h);
          return py::reinterpret_borrow<py::object>(out);
        }
        return h;
      },
      py::arg("a"), py::arg("stream") = py::none(), py::arg("out") = py::none(),
      py::arg("blocking") = true);

  // Sequence fills used by gpuarr.arange / gpuarr.linspace (argument logic in Python).
  m.def("_arange_fill", [](const PyArray& out, py::handle first, py::handle second) {
    const NDArray& a = out.a;
    const std::string f = scalar_bytes(first, a.dtype), s = scalar_bytes(second, a.dtype);
    DeviceGuard guard(a.device());
    launch_arange(a.data(), a.size(), a.dtype, f.data(), s.data(), stream_for(a));
  });
  m.def("_linspace_fill", [](const PyArray& out, double start, double stop, double step,
                             double delta, double div, bool step_is_zero, bool endpoint,
                             bool floor_values) {
    const NDArray& a = out.a;
    if (a.dtype != DType::Float32 && a.dtype != DType::Float64) {
      throw TypeError("_linspace_fill computes in float32 or float64");
    }
    DeviceGuard guard(a.device());
    launch_linspace(a.data(), a.size(), a.dtype, start, stop, step, delta, div, step_is_zero,
                    endpoint, floor_values, stream_for(a));
  });
}

}  // namespace gpuarr::bind
