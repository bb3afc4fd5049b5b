// gpuarr.random's private entry points (python/gpuarr/random/ arranges the arguments
// NumPy-style: it allocates C-contiguous outputs, validates parameters and broadcasts
// array parameters to contiguous float64 arrays of the output's size).
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "ops/random.hpp"

namespace gpuarr::bind {
namespace {

const NDArray& out_arr(py::handle h) {
  if (!is_gpuarr_array(h)) throw TypeError("expected a gpuarr.ndarray");
  return as_array(h).a;
}

PhiloxState state(uint64_t key, uint64_t call) {
  return PhiloxState{key, static_cast<uint32_t>(call)};
}

// A float scalar, or a contiguous float64 gpuarr array of out.size() elements on out's
// device (the array object stays alive in the caller's frame during the launch).
RandomParam param(py::handle p, const NDArray& out) {
  RandomParam r;
  if (is_gpuarr_array(p)) {
    const NDArray& a = as_array(p).a;
    if (a.dtype != DType::Float64 || !a.c_contiguous() || a.size() != out.size() ||
        a.device() != out.device())
      throw ValueError("random parameter array must be contiguous float64 of the output size");
    r.data = reinterpret_cast<const double*>(a.data());
  } else {
    r.value = p.cast<double>();
  }
  return r;
}

}  // namespace

GPUARR_BINDINGS(160) {
  m.def("_random_uniform", [](py::handle out, uint64_t key, uint64_t call, double low,
                              double high) { random_uniform(out_arr(out), state(key, call), low, high); });
  m.def("_random_normal", [](py::handle out, uint64_t key, uint64_t call, double loc,
                             double scale) { random_normal(out_arr(out), state(key, call), loc, scale); });
  m.def("_random_exponential", [](py::handle out, uint64_t key, uint64_t call, double scale) {
    random_exponential(out_arr(out), state(key, call), scale);
  });
  m.def("_random_permutation", [](py::handle out, uint64_t key, uint64_t call) {
    random_permutation(out_arr(out), state(key, call));
  });
  m.def("_random_gamma", [](py::handle out, uint64_t key, uint64_t call, py::handle shape,
                            double scale) {
    const NDArray& o = out_arr(out);
    random_gamma(o, state(key, call), param(shape, o), scale);
  });
  m.def("_random_poisson", [](py::handle out, uint64_t key, uint64_t call, py::handle lam) {
    const NDArray& o = out_arr(out);
    random_poisson(o, state(key, call), param(lam, o));
  });
  m.def("_random_binomial", [](py::handle out, uint64_t key, uint64_t call, py::handle n,
                               py::handle p) {
    const NDArray& o = out_arr(out);
    random_binomial(o, state(key, call), param(n, o), param(p, o));
  });
  // low: the value's bits modulo 2**64 (Python passes low % 2**64); range: high - low.
  m.def("_random_integers", [](py::handle out, uint64_t key, uint64_t call, uint64_t low,
                               uint64_t range) {
    random_integers(out_arr(out), state(key, call), low, range);
  });
  // Per-element bounds: contiguous uint64 arrays of the output's size (low bits, range).
  m.def("_random_integers_array", [](py::handle out, uint64_t key, uint64_t call,
                                     py::handle low, py::handle range) {
    const NDArray& o = out_arr(out);
    auto words = [&](py::handle h) {
      const NDArray& a = out_arr(h);
      if (a.dtype != DType::UInt64 || !a.c_contiguous() || a.size() != o.size() ||
          a.device() != o.device())
        throw ValueError("integer bounds must be contiguous uint64 arrays of the output size");
      return reinterpret_cast<const uint64_t*>(a.data());
    };
    random_integers(o, state(key, call), 0, 0, words(low), words(range));
  });
}

}  // namespace gpuarr::bind
