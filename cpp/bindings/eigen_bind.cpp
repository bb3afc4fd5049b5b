// Bindings of the eigen-solvers (python/gpuarr/linalg/_eigen.py arranges the arguments):
//   _eigh(a, lower, compute_v, method) -> (w, v or None, failed, method_used)
//   _eig(a, compute_v) -> (w, v or None, failed)
//   _eigh_method(n, batch, dtype, compute_v) -> the method "auto" picks (for benchmarks)
//   _eigen_routines() -> {"xsyev_batched": bool, "xgeev": bool, "smem_limit": int}
//   _kth_eigenpair_raw(a, w, q, batch, n, k, dtype, lower, stream, device) -> bool
//   _kth_gradient_raw(q, g, ga, batch, n, dtype, stream, device) -> bool
#include <pybind11/stl.h>

#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/eigen_plan.hpp"
#include "core/errors.hpp"
#include "ops/eigen.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {
namespace {

NDArray operand(py::handle obj) {
  if (is_gpuarr_array(obj)) return as_array(obj).a;
  py::object arr = to_device(obj, py::none(), false, py::none(), 0);
  return as_array(arr).a;
}

py::tuple eigh_py(py::handle x, bool lower, bool compute_v, const std::string& method) {
  const NDArray a = operand(x);
  const EigMethod m = parse_eig_method(method);
  EighResult r;
  {
    py::gil_scoped_release release;
    r = eigh_solve_dispatch(a, lower, compute_v, m);
  }
  py::object v = compute_v ? make_owner(std::move(r.v)) : py::none();
  return py::make_tuple(make_owner(std::move(r.w)), v, r.failed, eig_method_name(r.method));
}

py::tuple eig_py(py::handle x, bool compute_v) {
  const NDArray a = operand(x);
  check_square_stack(a.shape);
  eigen_compute_dtype(a.dtype);
  if (a.size() > 0 && !xgeev_available()) {
    PyErr_SetString(PyExc_NotImplementedError,
                    "eig/eigvals need cusolverDnXgeev (cuSOLVER >= 11.7.0, CUDA 12.6); "
                    "the installed cuSOLVER does not have it");
    throw py::error_already_set();
  }
  EigResult r;
  {
    py::gil_scoped_release release;
    r = eig_solve(a, compute_v);
  }
  py::object v = compute_v ? make_owner(std::move(r.v)) : py::none();
  return py::make_tuple(make_owner(std::move(r.w)), v, r.failed);
}

// The raw launchers' common prologue: the dtype PyTorch's side names, a device present,
// and the tensors' device current while `launch(dtype)` enqueues on their stream.
template <class Launch>
bool on_torch_device(const std::string& dtype, int device, Launch&& launch) {
  const DType dt = dtype_from_name(dtype);
  require_device();
  DeviceGuard guard(device);
  return launch(dt);
}

}  // namespace

GPUARR_BINDINGS(120) {
  m.def("_eigh", &eigh_py, py::arg("a"), py::arg("lower"), py::arg("compute_v"),
        py::arg("method") = "auto");
  m.def("_eig", &eig_py, py::arg("a"), py::arg("compute_v"));
  m.def("_eigh_method", [](int64_t n, int64_t batch, py::handle dtype, bool compute_v) {
    const DType ct = eigen_compute_dtype(dtype_from_py(dtype));
    return std::string(eig_method_name(
        choose_eigh_method(EigMethod::Auto, n, batch, ct, compute_v, eigh_availability())));
  });
  // gpuarr.torch.kth_eigvalh's kernel, straight on PyTorch tensors' memory and stream:
  // pointers (a: (batch, n, n) C order; w: (batch,); q: (batch, n) or 0) and the stream
  // handle come from the tensors, which the caller keeps alive through the launch (their
  // allocator is ordered on that stream). False, with nothing launched, where the kernel
  // does not take these matrices (the caller falls back to eigh).
  m.def("_kth_eigenpair_raw", [](uintptr_t a, uintptr_t w, uintptr_t q, int64_t batch,
                                 int64_t n, int64_t k, const std::string& dtype, bool lower,
                                 uintptr_t stream, int device) {
    return on_torch_device(dtype, device, [&](DType dt) {
      return launch_kth_eigenpair(reinterpret_cast<const void*>(a), reinterpret_cast<void*>(w),
                                  reinterpret_cast<void*>(q), batch, n, k, dt, lower,
                                  reinterpret_cast<cudaStream_t>(stream));
    });
  }, py::arg("a"), py::arg("w"), py::arg("q"), py::arg("batch"), py::arg("n"), py::arg("k"),
     py::arg("dtype"), py::arg("lower"), py::arg("stream"), py::arg("device"));
  // Its backward, ga = g q q' per matrix (q: (batch, n), g: (batch,), ga: (batch, n, n),
  // contiguous PyTorch memory on the tensors' stream), in one launch instead of PyTorch's
  // several small ops. False, with nothing launched, for a dtype it does not take.
  m.def("_kth_gradient_raw", [](uintptr_t q, uintptr_t g, uintptr_t ga, int64_t batch,
                                int64_t n, const std::string& dtype, uintptr_t stream,
                                int device) {
    return on_torch_device(dtype, device, [&](DType dt) {
      return launch_kth_gradient(reinterpret_cast<const void*>(q),
                                 reinterpret_cast<const void*>(g), reinterpret_cast<void*>(ga),
                                 batch, n, dt, reinterpret_cast<cudaStream_t>(stream));
    });
  }, py::arg("q"), py::arg("g"), py::arg("ga"), py::arg("batch"), py::arg("n"),
     py::arg("dtype"), py::arg("stream"), py::arg("device"));
  m.def("_eigen_routines", []() {
    py::dict d;
    const EighAvailability av = eigh_availability();
    d["xsyev_batched"] = av.xsyev_batched;
    d["xgeev"] = xgeev_available();
    d["smem_limit"] = av.smem_limit;
    return d;
  });
}

}  // namespace gpuarr::bind
