// gpuarr._core: the extension module. Registers the exception types and the bindings.
#include <execinfo.h>
#include <pybind11/pybind11.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "runtime/config.hpp"
#include "runtime/cuda_check.hpp"

namespace py = pybind11;

namespace {
// GPUARR_SEGV_BACKTRACE=1: a native backtrace on stderr when the process crashes (for
// reports; resolve the offsets with addr2line -e _core*.so).
void print_native_backtrace(int sig) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, STDERR_FILENO);
  signal(sig, SIG_DFL);
  raise(sig);
}
}  // namespace

PYBIND11_MODULE(_core, m) {
  if (gpuarr::config::segv_backtrace.get()) {
    signal(SIGSEGV, print_native_backtrace);
    signal(SIGBUS, print_native_backtrace);
  }
  m.doc() = "gpuarr's C++/CUDA core";
  gpuarr::bind::init_numpy_cache();

  // Python exception types; gpuarr.cuda re-exports them.
  // Leaked on purpose: they must outlive interpreter finalization.
  static auto* cuda_error =
      new py::exception<gpuarr::CudaError>(m, "CUDARuntimeError", PyExc_RuntimeError);
  static auto* no_device =
      new py::exception<gpuarr::NoDeviceError>(m, "NoDeviceError", cuda_error->ptr());
  static auto* library_load =
      new py::exception<gpuarr::LibraryLoadError>(m, "LibraryLoadError", cuda_error->ptr());
  static auto* oom =
      new py::exception<gpuarr::OutOfMemoryError>(m, "OutOfMemoryError", PyExc_MemoryError);
  // gpuarr.linalg.LinAlgError subclasses numpy.linalg.LinAlgError so that
  // `except np.linalg.LinAlgError` catches ours.
  static auto* linalg_error = new py::exception<gpuarr::LinAlgError>(
      m, "LinAlgError", py::module_::import("numpy.linalg").attr("LinAlgError").ptr());
  static auto* axis_error =
      new py::object(py::module_::import("numpy.exceptions").attr("AxisError"));

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const gpuarr::NoDeviceError& e) {
      PyErr_SetString(no_device->ptr(), e.what());
    } catch (const gpuarr::LibraryLoadError& e) {
      PyErr_SetString(library_load->ptr(), e.what());
    } catch (const gpuarr::CudaError& e) {
      PyErr_SetString(cuda_error->ptr(), e.what());
    } catch (const gpuarr::OutOfMemoryError& e) {
      PyErr_SetString(oom->ptr(), e.what());
    } catch (const gpuarr::LinAlgError& e) {
      PyErr_SetString(linalg_error->ptr(), e.what());
    } catch (const gpuarr::AxisError& e) {
      PyErr_SetString(axis_error->ptr(), e.what());
    } catch (const gpuarr::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const gpuarr::ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const gpuarr::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const py::cast_error& e) {
      // An argument of the wrong Python type (a float where an integer is expected) is a
      // TypeError in NumPy; pybind11's own translation would make it a RuntimeError.
      PyErr_SetString(PyExc_TypeError, e.what());
    }
  });

  gpuarr::bind::bind_cuda(m);
  gpuarr::bind::bind_ndarray(m);
  gpuarr::bind::bind_creation(m);
  gpuarr::bind::bind_host_transfers(m);
  // Operations (ufuncs, reductions, indexing, sorting, products, ...): see registry.hpp.
  gpuarr::bind::run_registered_bindings(m);
}
