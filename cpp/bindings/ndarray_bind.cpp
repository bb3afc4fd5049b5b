// The gpuarr.ndarray type: attributes, views (transpose, reshape, indexing) and methods.
#include <pybind11/stl.h>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "core/errors.hpp"
#include "ops/array_ops.hpp"

namespace gpuarr::bind {
namespace {

struct Flags {
  bool c_contiguous, f_contiguous, owndata;
};

struct MemoryPointer {
  uintptr_t ptr;
  int device_id;
};

PyArray& self_array(py::handle self) { return as_array(self); }

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

py::object make_owner(NDArray a) {
  return py::cast(PyArray{std::move(a), py::none()}, py::return_value_policy::move);
}

py::object make_view(py::handle parent_obj, NDArray view) {
  const PyArray& parent = as_array(parent_obj);
  py::object base = parent.base.is_none() ? py::reinterpret_borrow<py::object>(parent_obj)
                                          : parent.base;
  return py::cast(PyArray{std::move(view), std::move(base)}, py::return_value_policy::move);
}

void bind_ndarray(py::module_& m) {
  py::class_<Flags>(m, "Flags")
      .def_readonly("c_contiguous", &Flags::c_contiguous)
      .def_readonly("f_contiguous", &Flags::f_contiguous)
      .def_readonly("owndata", &Flags::owndata)
      // Every gpuarr array is writeable and aligned (views of another dtype refuse to be
      // misaligned); setflags keeps it so.
      .def_property_readonly("writeable", [](const Flags&) { return true; })
      .def_property_readonly("aligned", [](const Flags&) { return true; })
      .def_property_readonly("writebackifcopy", [](const Flags&) { return false; })
      .def("__getitem__",
           [](const Flags& f, const std::string& key) {
             if (key == "C_CONTIGUOUS" || key == "C" || key == "CONTIGUOUS") return f.c_contiguous;
             if (key == "F_CONTIGUOUS" || key == "F" || key == "FORTRAN") return f.f_contiguous;
             if (key == "OWNDATA" || key == "O") return f.owndata;
             if (key == "WRITEABLE" || key == "W" || key == "ALIGNED" || key == "A") return true;
             if (key == "WRITEBACKIFCOPY" || key == "X") return false;
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

  py::class_<PyArray>(m, "ndarray",
                      "An N-dimensional array in CUDA device memory (numpy.ndarray's API).")
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
                               s.a.memory->mark_shared_outside();
                               return MemoryPointer{reinterpret_cast<uintptr_t>(s.a.data()),
                                                    s.a.device()};
                             })
      // The address of the first element, for address arithmetic only (shares_memory):
      // unlike data and __cuda_array_interface__ it neither marks the memory as shared
      // outside gpuarr (which stops deferring work on it) nor launches deferred work.
      .def_property_readonly("_data_ptr",
                             [](const PyArray& s) {
                               return reinterpret_cast<uintptr_t>(
                                   static_cast<char*>(s.a.memory->raw_ptr()) + s.a.offset);
                             })
      .def_property_readonly("device",
                             [](const PyArray& s) {
                               static auto* device_cls = new py::object(
                                   py::module_::import("gpuarr.cuda").attr("Device"));
                               return (*device_cls)(s.a.device());
                             })
      .def_property_readonly("T", [](py::handle self) { return transpose(self, {}); })
      .def("transpose", [](py::handle self, py::args axes) {
        const Dims perm = axes_from_args(axes);
        // No argument (or None) reverses the axes; an explicit empty tuple is a permutation of
        // no axes, which only a 0-d array matches (NumPy's ValueError otherwise).
        const bool given = axes.size() > 1 || (axes.size() == 1 && !axes[0].is_none());
        if (given && perm.empty() && !self_array(self).a.shape.empty())
          throw ValueError("axes don't match array");
        return transpose(self, perm);
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
        // NumPy's fill takes a scalar: a Python/NumPy scalar or a 0-d array.
        const bool zero_d = (is_gpuarr_array(value) && as_array(value).a.ndim() == 0) ||
                            (py::isinstance<py::array>(value) &&
                             py::reinterpret_borrow<py::array>(value).ndim() == 0);
        if (!zero_d && !is_python_scalar(value)) throw ValueError("fill value must be a scalar");
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
          [](py::handle self, py::handle dtype, py::handle order, const std::string& casting,
             py::handle /*subok: gpuarr has no subclasses*/, bool copy) {
            if (casting != "unsafe") {
              // NumPy's rule check (and its ValueError for an unknown rule), on dtypes only.
              static auto* can_cast =
                  new py::object(py::module_::import("numpy").attr("can_cast"));
              const py::object from = numpy_dtype(as_array(self).a.dtype);
              const py::object to = numpy_dtype(dtype_from_py(dtype));
              if (!(*can_cast)(from, to, casting).cast<bool>()) {
                throw TypeError("Cannot cast array data from " + py::repr(from).cast<std::string>() +
                                " to " + py::repr(to).cast<std::string>() +
                                " according to the rule '" + casting + "'");
              }
            }
            // dtype=None is float64, as NumPy's astype reads it (not "keep the dtype").
            const py::object target =
                dtype.is_none() ? numpy_dtype(DType::Float64) : py::reinterpret_borrow<py::object>(dtype);
            return to_device(self, target, copy, order, 0);
          },
          py::arg("dtype"), py::arg("order") = "K", py::arg("casting") = "unsafe",
          py::arg("subok") = py::none(), py::arg("copy") = true)
      .def("get", &get, py::arg("stream") = py::none(), py::arg("out") = py::none(),
           py::arg("blocking") = true)
      .def("set", &set, py::arg("arr"), py::arg("stream") = py::none())
      .def("item", [](const PyArray& s, py::args args) { return item(s.a, args); })
      .def("tolist", [](const PyArray& s) { return download_new(s.a).attr("tolist")(); })
      .def("_host_scalar", [](const PyArray& s) { return host_for_scalar(s.a); })
      // ndarray.resize's in-place step: `self` takes `other`'s memory and layout.
      .def("_adopt", [](PyArray& s, const PyArray& other) { s.a = other.a; })
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
  g_ndarray_type = reinterpret_cast<PyTypeObject*>(m.attr("ndarray").ptr());
}

}  // namespace gpuarr::bind
