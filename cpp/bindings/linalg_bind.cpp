// Bindings of the cuSOLVER/cuBLAS linalg pieces (python/gpuarr/linalg/_solvers.py arranges
// the arguments NumPy-style: dtype promotion, shape checks, broadcasting). Each releases
// the GIL while it enqueues work and reads cuSOLVER's info.
#include <pybind11/stl.h>

#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "ops/linalg.hpp"

namespace gpuarr::bind {
namespace {

const NDArray& arr(py::handle h) { return as_array(h).a; }

}  // namespace

GPUARR_BINDINGS(130) {
  m.def("_linalg_det", [](py::handle a) {
    const NDArray x = arr(a);
    NDArray r;
    {
      py::gil_scoped_release release;
      r = linalg_det(x);
    }
    return make_owner(std::move(r));
  });
  m.def("_linalg_slogdet", [](py::handle a) {
    const NDArray x = arr(a);
    std::pair<NDArray, NDArray> r;
    {
      py::gil_scoped_release release;
      r = linalg_slogdet(x);
    }
    return py::make_tuple(make_owner(std::move(r.first)), make_owner(std::move(r.second)));
  });
  m.def("_linalg_inv", [](py::handle a, bool check, bool nan_fill) {
    const NDArray x = arr(a);
    NDArray r;
    {
      py::gil_scoped_release release;
      r = linalg_inv(x, check, nan_fill);
    }
    return make_owner(std::move(r));
  }, py::arg("a"), py::arg("check"), py::arg("nan_fill") = false);
  m.def("_linalg_solve", [](py::handle a, py::handle b, bool nan_fill) {
    const NDArray x = arr(a), y = arr(b);
    NDArray r;
    {
      py::gil_scoped_release release;
      r = linalg_solve(x, y, nan_fill);
    }
    return make_owner(std::move(r));
  }, py::arg("a"), py::arg("b"), py::arg("nan_fill") = false);
  m.def("_linalg_cholesky", [](py::handle a, bool upper) {
    const NDArray x = arr(a);
    NDArray r;
    {
      py::gil_scoped_release release;
      r = linalg_cholesky(x, upper);
    }
    return make_owner(std::move(r));
  });
  m.def("_linalg_qr_raw", [](py::handle a) {
    const NDArray x = arr(a);
    std::pair<NDArray, NDArray> r;
    {
      py::gil_scoped_release release;
      r = linalg_qr_raw(x);
    }
    return py::make_tuple(make_owner(std::move(r.first)), make_owner(std::move(r.second)));
  });
  m.def("_linalg_qr_q", [](py::handle h, py::handle tau, int64_t mc) {
    const NDArray x = arr(h), t = arr(tau);
    NDArray r;
    {
      py::gil_scoped_release release;
      r = linalg_qr_q(x, t, mc);
    }
    return make_owner(std::move(r));
  });
  // (q, r), r alone (want_q false), or None where the own small-QR route does not apply.
  m.def("_linalg_qr_small", [](py::handle a, bool complete, bool want_q) -> py::object {
    const NDArray x = arr(a);
    NDArray q, r;
    bool done = false;
    {
      py::gil_scoped_release release;
      done = linalg_qr_small(x, complete, want_q, &q, &r);
    }
    if (!done) return py::none();
    if (!want_q) return make_owner(std::move(r));
    return py::make_tuple(make_owner(std::move(q)), make_owner(std::move(r)));
  });
  m.def("_linalg_svd", [](py::handle a, bool full_matrices, bool compute_uv) {
    const NDArray x = arr(a);
    SvdParts r;
    {
      py::gil_scoped_release release;
      r = linalg_svd(x, full_matrices, compute_uv);
    }
    if (!compute_uv) return py::object(make_owner(std::move(r.s)));
    return py::object(py::make_tuple(make_owner(std::move(r.u)), make_owner(std::move(r.s)),
                                     make_owner(std::move(r.vh))));
  });
}

}  // namespace gpuarr::bind
