// The Python-visible array object and the helpers the binding files share.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>

#include "bindings/dtype_convert.hpp"
#include "ops/ndarray.hpp"
#include "runtime/stream.hpp"

namespace gpuarr::bind {

namespace py = pybind11;

struct PyArray {
  NDArray a;
  py::object base;  // the array owning the memory for views; None for owners
};

// A view of `parent_obj`'s memory, with NumPy's base rule (base is the owner).
py::object make_view(py::handle parent_obj, NDArray view);
py::object make_owner(NDArray a);

// ndarray's Python type, set once the class is bound. These two checks run on every operand
// of every call; pybind11's generic ones look the type up by its typeid (a string hash) each
// time.
inline PyTypeObject* g_ndarray_type = nullptr;
inline bool is_gpuarr_array(py::handle h) {
  return g_ndarray_type ? PyObject_TypeCheck(h.ptr(), g_ndarray_type) : py::isinstance<PyArray>(h);
}
inline PyArray& as_array(py::handle h) {
  if (g_ndarray_type && Py_TYPE(h.ptr()) == g_ndarray_type) {
    auto* inst = reinterpret_cast<py::detail::instance*>(h.ptr());
    // null until __init__ has run; pybind11's cast below raises then
    if (void* v = inst->get_value_and_holder(nullptr, false).value_ptr())
      return *static_cast<PyArray*>(v);
  }
  return h.cast<PyArray&>();
}

// The view `key` (ints, slices, None, Ellipsis) selects; IndexError as NumPy's.
NDArray index_view(const NDArray& a, py::handle key);
bool is_python_scalar(py::handle v);
// dst[...] = value for a gpuarr array, a scalar or anything NumPy can read, broadcasting.
void assign_from_py(const NDArray& dst, py::handle value, ScalarCast how = ScalarCast::Assign);

// gpuarr.empty(shape, dtype, order) (also the ndarray constructor).
py::object new_empty(py::handle shape, py::handle dtype, py::handle order);
// gpuarr.array / asarray / astype: no copy for a gpuarr array that already fits.
py::object to_device(py::handle obj, py::handle dtype, bool copy, py::handle order_obj,
                     int64_t ndmin);

// NumPy's item(...) on a gpuarr array; a host array holding the one element of a size-1
// array (for float(), int(), format, ... through NumPy).
py::object item(const NDArray& a, py::args args);
py::array host_for_scalar(const NDArray& a);
// ndarray.get / ndarray.set.
py::array get(py::handle self, py::handle stream, py::handle out, bool blocking);
void set(py::handle self, py::handle arr, py::handle stream);

// Uploads a host array (any array-like) to a new device array.
NDArray upload_new(const py::array& host);
// Copies an array to a new NumPy array (C order unless the array is F-contiguous).
py::array download_new(const NDArray& a);

// Makes `stream` (a gpuarr.cuda.Stream or None) current for the array's device while
// alive.
class StreamScope {
 public:
  StreamScope(py::handle stream, int device);
  ~StreamScope();

 private:
  bool active_ = false;
  int device_ = 0;
  std::shared_ptr<Stream> previous_;
};

void bind_ndarray(py::module_& m);
void bind_creation(py::module_& m);
void bind_host_transfers(py::module_& m);
void bind_cuda(py::module_& m);

}  // namespace gpuarr::bind
