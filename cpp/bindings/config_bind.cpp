// The configuration registry (runtime/config) and what gpuarr.show_config reports about the
// build and the CUDA libraries. Conversions only.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/registry.hpp"
#include "core/routing_thresholds.hpp"
#include "runtime/config.hpp"
#include "runtime/library_versions.hpp"

// Set by CMakeLists.txt for this file only.
#ifndef GPUARR_BUILD_CUDA_ARCHITECTURES
#define GPUARR_BUILD_CUDA_ARCHITECTURES ""
#endif
#ifndef GPUARR_BUILD_CUDA_VERSION
#define GPUARR_BUILD_CUDA_VERSION ""
#endif
#ifndef GPUARR_BUILD_TYPE
#define GPUARR_BUILD_TYPE ""
#endif

namespace py = pybind11;

namespace gpuarr {

GPUARR_BINDINGS(100) {
  m.def("_config_names", [] {
    std::vector<std::string> names;
    for (const config::Setting* s : config::all_settings()) names.emplace_back(s->name());
    return names;
  });
  // (type, default, meaning) of one setting.
  m.def("_config_info", [](const std::string& name) {
    const config::Setting& s = config::find(name);
    return py::make_tuple(s.type_text(), s.default_text(), s.meaning());
  });
  // (value, origin) of one setting, read from the environment on first use (ValueError if
  // the environment's value is bad).
  m.def("_config_value", [](const std::string& name) {
    const config::Setting& s = config::find(name);
    return py::make_tuple(s.value_text(), config::origin_name(s.origin()));
  });
  m.def("_config_push", [](const std::string& name, const std::string& text) {
    config::find(name).push_override(text);
  });
  m.def("_config_pop", [](const std::string& name) { config::find(name).pop_override(); });

  m.def("_build_info", [] {
    py::dict d;
    d["cuda_architectures"] = GPUARR_BUILD_CUDA_ARCHITECTURES;
    d["cuda_toolkit"] = GPUARR_BUILD_CUDA_VERSION;
    d["build_type"] = GPUARR_BUILD_TYPE;
    d["cxx_compiler"] = __VERSION__;
    d["pybind11"] = std::to_string(PYBIND11_VERSION_MAJOR) + "." +
                    std::to_string(PYBIND11_VERSION_MINOR) + "." +
                    std::to_string(PYBIND11_VERSION_PATCH);
    return d;
  });
  // The routing thresholds of a compute capability (10 * major + minor), less the eigh table.
  m.def("_routing_thresholds", [](int compute_capability) {
    const RoutingThresholds& t = routing_thresholds_for(compute_capability);
    py::dict d;
    d["measured"] = routing_thresholds_measured(compute_capability);
    d["measured_on"] = t.measured_on;
    d["det_cublas_single_max_n"] = t.det_cublas_single_max_n;
    d["lu_batched_max_n"] = t.lu_batched_max_n;
    d["own_lu_wide_block_min_n"] = t.own_lu_wide_block_min_n;
    d["conv_direct_max_taps"] = t.conv_direct_max_taps;
    return d;
  });
  m.def("_library_versions", [] {
    const LibraryVersions v = library_versions();
    py::dict d;
    d["runtime"] = v.runtime;
    d["driver"] = v.driver;
    d["cublas"] = v.cublas;
    d["cusolver"] = v.cusolver;
    d["cufft"] = v.cufft;
    d["nvrtc"] = v.nvrtc;
    return d;
  });
}

}  // namespace gpuarr
