// The CUDA libraries gpuarr loads on first use (runtime/cuda_libraries): sys.path handed to
// the runtime at import, and where each library came from. Conversions only.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "runtime/cuda_libraries.hpp"

namespace py = pybind11;

namespace gpuarr {
namespace {

CudaLibrary library_named(const std::string& key) {
  for (int i = 0; i < kCudaLibraryCount; ++i) {
    if (key == cuda_library_info(CudaLibrary(i)).key) return CudaLibrary(i);
  }
  throw ValueError("no CUDA library named '" + key + "' (cublas, cusolver, cufft or nvrtc)");
}

std::vector<std::string> string_entries(const py::iterable& paths) {
  std::vector<std::string> out;
  for (py::handle p : paths) {
    if (py::isinstance<py::str>(p)) out.push_back(p.cast<std::string>());
  }
  return out;
}

}  // namespace

GPUARR_BINDINGS(100) {
  // sys.path as it is when gpuarr is imported; the directories are looked at on first use.
  set_cuda_library_python_paths(string_entries(py::module_::import("sys").attr("path")));

  m.def("_cuda_library_paths", [] {
    py::dict d;
    for (int i = 0; i < kCudaLibraryCount; ++i) {
      const std::string path = cuda_library_path(CudaLibrary(i));
      d[cuda_library_info(CudaLibrary(i)).key] =
          path.empty() ? py::object(py::none()) : py::object(py::str(path));
    }
    return d;
  }, "The file each CUDA library ('cublas', 'cusolver', 'cufft', 'nvrtc') was loaded from, by "
     "name; None for one not loaded yet.");
  m.def("_load_cuda_library", [](const std::string& key) {
    const CudaLibrary lib = library_named(key);
    py::gil_scoped_release release;
    return load_cuda_library(lib);
  }, py::arg("name"),
     "Loads one CUDA library ('cublas', 'cusolver', 'cufft' or 'nvrtc') unless it is loaded; "
     "returns its file. LibraryLoadError when it cannot be found.");
  m.def("_set_cuda_library_search", [](const py::iterable& python_paths, bool system,
                                       bool toolkit) {
    set_cuda_library_search(string_entries(python_paths), system, toolkit);
  }, py::arg("python_paths"), py::arg("system") = true, py::arg("toolkit") = true,
     "For tests: where the CUDA libraries not loaded yet are searched (python_paths stands "
     "for sys.path; system: the dynamic linker's search; toolkit: the build's toolkit).");
}

}  // namespace gpuarr
