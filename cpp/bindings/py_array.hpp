// The Python-visible array object and the helpers the binding files share.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>

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
inline bool is_gpuarr_array(py::handle h) { return py::isinstance<PyArray>(h); }
inline PyArray& as_array(py::handle h) { return h.cast<PyArray&>(); }

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
void bind_cuda(py::module_& m);

}  // namespace gpuarr::bind
