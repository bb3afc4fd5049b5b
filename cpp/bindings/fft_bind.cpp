// Bindings of the cuFFT transforms; python/gpuarr/fft arranges the arguments NumPy-style.
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "ops/fft.hpp"
#include "runtime/cufft_plan_cache.hpp"

namespace gpuarr::bind {

GPUARR_BINDINGS(150) {
  // Transforms over the last `rank` axes of a C-contiguous array.
  m.def("_fft_c2c", [](py::handle x, bool forward, bool inplace, int rank) {
    if (inplace) {
      fft_c2c(as_array(x).a, rank, forward, true);
      return py::reinterpret_borrow<py::object>(x);
    }
    return make_owner(fft_c2c(as_array(x).a, rank, forward, false));
  }, py::arg("x"), py::arg("forward"), py::arg("inplace"), py::arg("rank") = 1);
  m.def("_fft_r2c", [](py::handle x, int rank) { return make_owner(fft_r2c(as_array(x).a, rank)); },
        py::arg("x"), py::arg("rank") = 1);
  m.def("_fft_c2r", [](py::handle x, int64_t n) { return make_owner(fft_c2r(as_array(x).a, n)); });
  m.def("_fft_plan_cache_size", []() { return cufft_plan_cache_size(); });
  m.def("_fft_plan_cache_clear", []() { cufft_plan_cache_clear(); });
}

}  // namespace gpuarr::bind
