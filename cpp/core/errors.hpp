// Error types of the host logic. The bindings map each to the Python exception NumPy
// raises in the same situation, so the core stays free of Python and CUDA.
#pragma once
#include <stdexcept>
#include <string>

namespace gpuarr {

struct ValueError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct TypeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct IndexError : std::out_of_range {
  using std::out_of_range::out_of_range;
};

}  // namespace gpuarr

namespace gpuarr {
// NumPy's AxisError is both a ValueError and an IndexError.
struct AxisError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
}  // namespace gpuarr

namespace gpuarr {
// numpy.linalg.LinAlgError (Python: gpuarr.linalg.LinAlgError, a subclass of NumPy's).
struct LinAlgError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
}  // namespace gpuarr
