// Array creation from Python: empty/zeros/ones/full(_like), eye, array/asarray/copy, and
// the device fills behind arange and linspace.
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "bindings/interop.hpp"
#include "core/errors.hpp"
#include "core/promotion.hpp"
#include "ops/array_ops.hpp"
#include "ops/shape_ops.hpp"
#include "ops/kernels.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {
namespace {

DType dtype_or(py::handle dtype, DType fallback) {
  return dtype.is_none() ? fallback : dtype_from_py(dtype);
}

// The device named by a creation function's device=: -1 for None; a device id, or anything
// with __index__ (a gpuarr.cuda.Device, which ndarray.device returns). ValueError otherwise,
// as NumPy's for a device it does not know.
int device_from_py(py::handle device) {
  if (device.is_none()) return -1;
  PyObject* d = device.ptr();
  if (!PyBool_Check(d) && !PyUnicode_Check(d) && PyIndex_Check(d)) {
    PyObject* index = PyNumber_Index(d);
    if (index == nullptr) throw py::error_already_set();
    const int64_t id = py::reinterpret_steal<py::object>(index).cast<int64_t>();
    require_device();
    if (id < 0 || id >= device_count()) {
      throw ValueError("device " + std::to_string(id) + " is not available (" +
                       std::to_string(device_count()) + " CUDA devices)");
    }
    return static_cast<int>(id);
  }
  throw ValueError("Device not understood. gpuarr arrays live on CUDA devices: device must be "
                   "None, a gpuarr.cuda.Device or a device id, but received: " +
                   py::str(device).cast<std::string>());
}

// Makes device= current while a creation function allocates and fills (no switch for None).
struct DeviceScope {
  explicit DeviceScope(int device) {
    if (device >= 0) guard.emplace(device);
  }
  std::optional<DeviceGuard> guard;
};

// The *_like functions' device: device= when given, else the prototype's (the Array API's
// rule), else the current one.
int like_device(py::handle proto, py::handle device) {
  const int d = device_from_py(device);
  return d < 0 && is_gpuarr_array(proto) ? as_array(proto).a.device() : d;
}

// Whether `a`, on the current device, can be returned as the result of
// array/asarray(dtype=t, order=order) as is.
bool fits_without_copy(const NDArray& a, DType t, char order) {
  const bool layout_ok = (order == 'C' && a.c_contiguous()) ||
                         (order == 'F' && a.f_contiguous()) || order == 'A' || order == 'K';
  return t == a.dtype && layout_ok;
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

// eye's diagonal offset: any Python integer (operator.index, as NumPy), held to +-2^62 so
// that an offset beyond every shape (NumPy accepts 2**63) selects no element and n - k,
// m - k stay within int64.
int64_t diagonal_offset(py::handle k_obj) {
  py::object k = py::reinterpret_steal<py::object>(PyNumber_Index(k_obj.ptr()));
  if (!k) throw py::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(k.ptr(), &overflow);
  constexpr int64_t kFar = int64_t{1} << 62;
  if (overflow != 0) return overflow > 0 ? kFar : -kFar;
  return std::clamp<int64_t>(v, -kFar, kFar);
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

}  // namespace

py::object new_empty(py::handle shape, py::handle dtype, py::handle order) {
  const char o = order_from_py(order, 'C');
  if (o != 'C' && o != 'F') throw ValueError("only 'C' or 'F' order is permitted");
  return make_owner(empty_array(shape_from_py(shape), dtype_or(dtype, DType::Float64), o));
}

namespace {
// A nested list or tuple whose leaves include device arrays (gpuarr's, or any with
// __cuda_array_interface__): NumPy reads each leaf through __array__, which device arrays
// refuse, so the leaves are stacked on the current device instead, as CuPy stacks CuPy
// arrays. Host leaves (scalars, NumPy arrays) are uploaded one by one.
bool is_nesting(py::handle o) { return PyList_Check(o.ptr()) || PyTuple_Check(o.ptr()); }

bool holds_device_array(py::handle obj) {
  if (!is_nesting(obj)) {
    return is_gpuarr_array(obj) || py::hasattr(obj, "__cuda_array_interface__");
  }
  for (py::handle item : obj) {
    if (holds_device_array(item)) return true;
  }
  return false;
}

// NumPy's error for a nesting whose lengths or leaf shapes disagree after `depth` dimensions.
[[noreturn]] void inhomogeneous(size_t depth, const Dims& detected) {
  std::string shape = "(";
  for (size_t i = 0; i < depth; ++i) {
    shape += std::to_string(detected[i]);
    if (depth == 1) shape += ",";
    else if (i + 1 < depth) shape += ", ";
  }
  throw ValueError("setting an array element with a sequence. The requested array has an "
                   "inhomogeneous shape after " + std::to_string(depth) +
                   " dimensions. The detected shape was " + shape + ") + inhomogeneous part.");
}

// The leaves of `obj`, depth first, each as an array on the current device; `outer` is the
// nesting's shape, taken from the first path down and checked on every other.
void collect_leaves(py::handle obj, size_t depth, const Dims& outer,
                    std::vector<py::object>& leaves) {
  if (depth < outer.size()) {
    if (!is_nesting(obj) || static_cast<int64_t>(py::len(obj)) != outer[depth]) {
      inhomogeneous(depth, outer);
    }
    for (py::handle item : obj) collect_leaves(item, depth + 1, outer, leaves);
    return;
  }
  if (is_nesting(obj)) inhomogeneous(depth, outer);
  leaves.push_back(to_device(obj, py::none(), false, py::str("K"), 0));
}

NDArray stack_nested_on_device(py::handle obj, py::handle dtype) {
  Dims outer;
  for (py::handle o = obj; is_nesting(o);) {
    outer.push_back(static_cast<int64_t>(py::len(o)));
    if (outer.back() == 0) break;
    o = py::reinterpret_borrow<py::sequence>(o)[0];
  }
  std::vector<py::object> leaves;
  collect_leaves(obj, 0, outer, leaves);
  const Dims leaf_shape = as_array(leaves.at(0)).a.shape;
  DType t = as_array(leaves[0]).a.dtype;
  for (const py::object& leaf : leaves) {
    const NDArray& a = as_array(leaf).a;
    if (a.shape != leaf_shape) {
      size_t same = 0;
      while (same < a.shape.size() && same < leaf_shape.size() &&
             a.shape[same] == leaf_shape[same]) {
        ++same;
      }
      Dims detected = outer;
      detected.insert(detected.end(), leaf_shape.begin(), leaf_shape.begin() + same);
      inhomogeneous(outer.size() + same, detected);
    }
    t = promote_types(t, a.dtype);
  }
  Dims shape = outer;
  shape.insert(shape.end(), leaf_shape.begin(), leaf_shape.end());
  NDArray out = empty_array(shape, dtype_or(dtype, t), 'C');
  NDArray slot = out;
  slot.shape = leaf_shape;
  slot.strides.erase(slot.strides.begin(), slot.strides.begin() + outer.size());
  int64_t leaf_size = 1;
  for (int64_t d : leaf_shape) leaf_size *= d;
  if (leaf_size == 0) return out;
  for (const py::object& leaf : leaves) {
    assign_array(slot, as_array(leaf).a);
    slot.offset += leaf_size * out.itemsize();
  }
  return out;
}

}  // namespace

// gpuarr.array / asarray: no copy for a gpuarr array that already fits.
py::object to_device(py::handle obj, py::handle dtype, bool copy, py::handle order_obj,
                     int64_t ndmin) {
  const char order = order_from_py(order_obj, 'K');
  py::object out;
  if (is_gpuarr_array(obj)) {
    const NDArray& a = as_array(obj).a;
    const DType t = dtype_or(dtype, a.dtype);
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
    } else if (!copy && fits_without_copy(a, t, order)) {
      out = py::reinterpret_borrow<py::object>(obj);
    } else {
      out = make_owner(copy_array(a, t, order));
    }
  } else if (py::object foreign = import_device_object(obj)) {
    // CUDA memory of another library (DLPack / __cuda_array_interface__): a zero-copy view,
    // then the same dtype/order/copy rules as for a gpuarr array.
    return to_device(foreign, dtype, copy, order_obj, ndmin);
  } else {
    py::array host;
    try {
      host = host_array_for_upload(obj, dtype, order);
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_TypeError) || !is_nesting(obj) || !holds_device_array(obj)) throw;
      NDArray stacked = stack_nested_on_device(obj, dtype);
      out = make_owner(order == 'F' ? copy_array(stacked, stacked.dtype, 'F') : std::move(stacked));
    }
    if (!out) {
      if (order == 'F' && !(host.flags() & py::array::f_style)) {
        out = make_owner(upload_new(py::array(py::module_::import("numpy").attr("asfortranarray")(host))));
      } else {
        out = make_owner(upload_new(host));
      }
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

namespace {

[[noreturn]] void copy_forbidden() {
  throw ValueError("Unable to avoid copy while creating an array as requested.");
}

// array/asarray with NumPy 2's copy=: True always copies, None copies when needed, False
// returns the input (or a view of it) and raises ValueError when a copy is needed (host data,
// another dtype or layout, another device).
py::object to_device_copy_mode(py::handle obj, py::handle dtype, py::handle copy,
                               py::handle order, int64_t ndmin) {
  const int always = copy.is_none() ? 0 : PyObject_IsTrue(copy.ptr());
  if (always < 0) throw py::error_already_set();
  if (copy.is_none() || always) return to_device(obj, dtype, always, order, ndmin);
  if (is_gpuarr_array(obj)) {
    const NDArray& a = as_array(obj).a;
    if (a.device() != current_device() ||
        !fits_without_copy(a, dtype_or(dtype, a.dtype), order_from_py(order, 'K'))) {
      copy_forbidden();
    }
    return to_device(obj, dtype, false, order, ndmin);
  }
  if (py::object foreign = import_device_object(obj)) {
    return to_device_copy_mode(foreign, dtype, copy, order, ndmin);
  }
  copy_forbidden();
}

}  // namespace

void bind_creation(py::module_& m) {
  m.def(
      "empty",
      [](py::handle shape, py::handle dtype, py::handle order, py::handle device) {
        DeviceScope scope(device_from_py(device));
        return new_empty(shape, dtype, order);
      },
      py::arg("shape"), py::arg("dtype") = py::none(), py::arg("order") = "C", py::kw_only(),
      py::arg("device") = py::none(),
      "A new array without initialising its elements (numpy.empty).");
  m.def(
      "zeros",
      [](py::handle shape, py::handle dtype, py::handle order, py::handle device) {
        DeviceScope scope(device_from_py(device));
        return new_zeros(shape, dtype, order);
      },
      py::arg("shape"), py::arg("dtype") = py::none(), py::arg("order") = "C", py::kw_only(),
      py::arg("device") = py::none(), "A new array of zeros (numpy.zeros).");
  // numpy.tri for integer sizes (already clamped at 0) on the current device.
  m.def("_tri", [](int64_t rows, int64_t cols, int64_t k, py::handle dtype) {
    require_device();
    const DType t = dtype_or(dtype, DType::Float64);
    NDArray out = empty_array({rows, cols}, t, 'C');
    const std::string one = scalar_bytes(py::int_(1), t);
    launch_triangle(out.data(), nullptr, one.data(), 1, rows, cols, k, true, out.itemsize(),
                    stream_for(out));
    return make_owner(std::move(out));
  });

  m.def(
      "ones",
      [](py::handle shape, py::handle dtype, py::handle order, py::handle device) {
        DeviceScope scope(device_from_py(device));
        return new_ones(shape, dtype, order);
      },
      py::arg("shape"), py::arg("dtype") = py::none(), py::arg("order") = "C", py::kw_only(),
      py::arg("device") = py::none(), "A new array of ones (numpy.ones).");
  m.def(
      "full",
      [](py::handle shape, py::handle fill_value, py::handle dtype, py::handle order,
         py::handle device) {
        DeviceScope scope(device_from_py(device));
        return new_full(shape, fill_value, dtype, order);
      },
      py::arg("shape"), py::arg("fill_value"), py::arg("dtype") = py::none(),
      py::arg("order") = "C", py::kw_only(), py::arg("device") = py::none(),
      "A new array filled with fill_value (numpy.full).");
  m.def(
      "empty_like",
      [](py::handle a, py::handle dtype, py::handle order, py::handle shape, py::handle device) {
        DeviceScope scope(like_device(a, device));
        return new_empty_like(a, dtype, order, shape);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = "K",
      py::arg("shape") = py::none(), py::kw_only(), py::arg("device") = py::none(),
      "A new uninitialised array with the shape and dtype of a (numpy.empty_like).");
  m.def(
      "zeros_like",
      [](py::handle a, py::handle dtype, py::handle order, py::handle shape, py::handle device) {
        DeviceScope scope(like_device(a, device));
        return new_full_like(a, py::int_(0), dtype, order, shape);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = "K",
      py::arg("shape") = py::none(), py::kw_only(), py::arg("device") = py::none(),
      "An array of zeros with the shape and dtype of a (numpy.zeros_like).");
  m.def(
      "ones_like",
      [](py::handle a, py::handle dtype, py::handle order, py::handle shape, py::handle device) {
        DeviceScope scope(like_device(a, device));
        return new_full_like(a, py::int_(1), dtype, order, shape);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = "K",
      py::arg("shape") = py::none(), py::kw_only(), py::arg("device") = py::none(),
      "An array of ones with the shape and dtype of a (numpy.ones_like).");
  m.def(
      "full_like",
      [](py::handle a, py::handle fill_value, py::handle dtype, py::handle order,
         py::handle shape, py::handle device) {
        DeviceScope scope(like_device(a, device));
        return new_full_like(a, fill_value, dtype, order, shape);
      },
      py::arg("a"), py::arg("fill_value"), py::arg("dtype") = py::none(), py::arg("order") = "K",
      py::arg("shape") = py::none(), py::kw_only(), py::arg("device") = py::none(),
      "An array filled with fill_value with the shape and dtype of a (numpy.full_like).");
  m.def(
      "eye",
      [](int64_t n, py::handle m_obj, py::handle k, py::handle dtype, py::handle order,
         py::handle device) {
        const int64_t offset = diagonal_offset(k);
        DeviceScope scope(device_from_py(device));
        return new_eye(n, m_obj, offset, dtype, order);
      },
      py::arg("N"), py::arg("M") = py::none(), py::arg("k") = 0, py::arg("dtype") = py::none(),
      py::arg("order") = "C", py::kw_only(), py::arg("device") = py::none(),
      "A 2-d array with ones on the k-th diagonal and zeros elsewhere (numpy.eye).");
  m.def(
      "array",
      [](py::handle obj, py::handle dtype, py::handle copy, py::handle order, py::handle subok,
         int64_t ndmin) {
        (void)subok;
        return to_device_copy_mode(obj, dtype, copy, order, ndmin);
      },
      py::arg("obj"), py::arg("dtype") = py::none(), py::arg("copy") = true,
      py::arg("order") = "K", py::arg("subok") = false, py::arg("ndmin") = 0,
      "An array on the current device from host data or another array (numpy.array); "
      "copy=False raises ValueError when a copy is needed (NumPy 2); subok is ignored.");
  m.def(
      "asarray",
      [](py::handle obj, py::handle dtype, py::handle order, py::handle device,
         py::handle copy) {
        DeviceScope scope(device_from_py(device));
        return to_device_copy_mode(obj, dtype, copy, order, 0);
      },
      py::arg("a"), py::arg("dtype") = py::none(), py::arg("order") = py::none(), py::kw_only(),
      py::arg("device") = py::none(), py::arg("copy") = py::none(),
      "The input as a gpuarr array on device (the current one by default), copied only when "
      "needed (numpy.asarray); copy=True always copies, copy=False raises ValueError when a "
      "copy is needed; zero-copy for __cuda_array_interface__ and DLPack objects.");
  m.def("_device_index", &device_from_py, py::arg("device"),
        "The device id device= names (-1 for None); ValueError for anything else.");
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
      py::arg("a"), py::arg("dtype") = py::none(),
      "A C-contiguous array, at least 1-d (numpy.ascontiguousarray).");
  m.def(
      "copy",
      [](py::handle obj, py::handle order) {
        if (is_gpuarr_array(obj)) {
          const NDArray& a = as_array(obj).a;
          return make_owner(copy_array(a, a.dtype, order_from_py(order, 'K')));
        }
        return to_device(obj, py::none(), true, order, 0);
      },
      py::arg("a"), py::arg("order") = "K", "A copy of the array (numpy.copy).");
  // Sequence fills used by gpuarr.arange / gpuarr.linspace (argument logic in Python).
  m.def("_arange_fill", [](const PyArray& out, py::handle first, py::handle second) {
    const NDArray& a = out.a;
    const std::string f = scalar_bytes(first, a.dtype), s = scalar_bytes(second, a.dtype);
    DeviceGuard guard(a.device());
    launch_arange(a.data(), a.size(), a.dtype, f.data(), s.data(), stream_for(a));
  });
  // `in_float64`: computed in float64 (out float64, or float32 rounded from it), else in
  // float32 (out float32).
  m.def("_linspace_fill", [](const PyArray& out, double start, double stop, double step,
                             double delta, double div, bool step_is_zero, bool endpoint,
                             bool floor_values, bool in_float64) {
    const NDArray& a = out.a;
    if (a.dtype != DType::Float32 && !(a.dtype == DType::Float64 && in_float64)) {
      throw TypeError("_linspace_fill computes in float32 or float64");
    }
    DeviceGuard guard(a.device());
    launch_linspace(a.data(), a.size(), a.dtype, in_float64 ? DType::Float64 : DType::Float32,
                    start, stop, step, delta, div, step_is_zero, endpoint, floor_values,
                    stream_for(a));
  });
}

}  // namespace gpuarr::bind
