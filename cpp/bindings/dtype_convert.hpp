// Conversions between Python/NumPy objects and the core's types: dtypes (NumPy dtype
// objects), shapes, and scalars as the bytes of one element.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace gpuarr::bind {

namespace py = pybind11;

// Looks NumPy up once (at module import).
void init_numpy_cache();

// The canonical NumPy dtype object for `t` (borrowed, lives as long as the module).
const py::object& numpy_dtype(DType t);
// Anything np.dtype() accepts; TypeError when gpuarr does not support it.
DType dtype_from_py(py::handle obj);
// The dtype of a NumPy array (native byte order required; see host_array_for_upload).
DType dtype_of_numpy(const py::array& a);
// An int or a sequence of ints, as NumPy takes shapes ("'float' object cannot be
// interpreted as an integer" otherwise).
Dims shape_from_py(py::handle obj);
py::tuple dims_to_tuple(const Dims& d);
// 'C', 'F', 'A' or 'K' from None or a string; ValueError for anything else.
char order_from_py(py::handle obj, char default_order);

// How a Python scalar becomes an element: as NumPy's item assignment (a[i] = v, fill)
// converts it, or as np.full / copyto with casting='unsafe' does.
enum class ScalarCast { Assign, Unsafe };
// One element of `t` holding `value`, with NumPy's conversion rules and errors.
std::string scalar_bytes(py::handle value, DType t, ScalarCast how = ScalarCast::Assign);

// np.asarray(obj, dtype=dtype_or_none), in native byte order, for upload.
py::array host_array_for_upload(py::handle obj, py::handle dtype_or_none, char order);

// numpy module functions used on hot paths.
const py::object& np_empty();

}  // namespace gpuarr::bind
