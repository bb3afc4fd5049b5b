// Host transfers seen from Python: get/set/asnumpy, uploads of host arrays, and reading
// single elements (item(), float(), printing a 0-d array).
#include <pybind11/stl.h>

#include <cstring>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {
namespace {

// Uploads below this size keep the GIL: they do not wait for the device, and releasing it
// costs more than they take. Downloads always release it (they wait for the device).
constexpr int64_t kReleaseGilBytes = 1 << 16;

// Reads the single element of a size-1 array (one small device-to-host read; the GIL is
// released while waiting).
void read_element(const NDArray& a, void* dst) {
  NDArray one = a;
  one.shape = {1};
  one.strides = {a.itemsize()};
  py::gil_scoped_release release;
  download_contiguous(dst, one, false);
}

}  // namespace

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

py::array get(py::handle self, py::handle stream, py::handle out, bool blocking) {
  const NDArray& a = as_array(self).a;
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
  const NDArray& a = as_array(self).a;
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

void bind_host_transfers(py::module_& m) {
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
      py::arg("blocking") = true,
      "A NumPy array with the array's values (host data is returned as numpy.asarray).");

}

}  // namespace gpuarr::bind
