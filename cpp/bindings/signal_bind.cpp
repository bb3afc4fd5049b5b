// Bindings of direct convolution (python/gpuarr/signal and python/gpuarr/_convolve.py
// arrange the arguments SciPy/NumPy-style).
#include <pybind11/stl.h>

#include <string>

#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/conv_plan.hpp"
#include "core/errors.hpp"
#include "ops/convolve.hpp"
#include "runtime/device_routing.hpp"

namespace gpuarr::bind {

GPUARR_BINDINGS(150) {
  // (out_len, pad) of one axis; numpy=True gives NumPy's message for a bad mode.
  m.def("_conv_axis_plan", [](int64_t n, int64_t k, const std::string& mode, bool half_down,
                              bool numpy) {
    const ConvMode md = numpy ? parse_numpy_conv_mode(mode) : parse_conv_mode(mode);
    const ConvAxisPlan p = conv_axis_plan(n, k, md, half_down ? SamePad::HalfDown : SamePad::HalfUp);
    return py::make_tuple(p.out_len, p.pad);
  });
  m.def("_conv_check_mode", [](const std::string& mode, bool numpy) {
    return int(numpy ? parse_numpy_conv_mode(mode) : parse_conv_mode(mode));
  });
  m.def("_conv_boundary_index", [](int64_t i, int64_t n, int b) {
    return conv_boundary_index(i, n, static_cast<ConvBoundary>(b));
  });
  m.def("_conv_boundary", [](const std::string& b) { return int(parse_conv_boundary(b)); });
  m.def("_conv_direct_max_taps",
        [] { return device_routing_thresholds().conv_direct_max_taps; });
  m.def("_correlate_direct", [](py::handle in, py::handle w, py::handle out_shape,
                                py::handle pad, int boundary, py::bytes fill) {
    const NDArray& x = as_array(in).a;
    const NDArray& f = as_array(w).a;
    const std::string fb = fill;
    if (int64_t(fb.size()) != x.itemsize()) throw ValueError("_correlate_direct: fill size");
    return make_owner(correlate_direct(x, f, shape_from_py(out_shape), shape_from_py(pad),
                                       static_cast<ConvBoundary>(boundary), fb.data()));
  });
}

}  // namespace gpuarr::bind
