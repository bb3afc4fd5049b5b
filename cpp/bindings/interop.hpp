// Zero-copy import of foreign device arrays (DLPack producers, __cuda_array_interface__),
// shared by gpuarr.asarray / gpuarr.array (creation_bind.cpp) and gpuarr.from_dlpack.
#pragma once
#include <pybind11/pybind11.h>

namespace gpuarr::bind {

// A gpuarr array viewing `obj`'s device memory (obj kept alive), or a null object when
// `obj` is not a CUDA-resident DLPack producer nor exposes __cuda_array_interface__.
pybind11::object import_device_object(pybind11::handle obj);

}  // namespace gpuarr::bind
