// Binding files register themselves here, so that adding a file of bindings needs no edit
// of module.cpp: `GPUARR_BINDINGS(order) { m.def(...); }` in any cpp/bindings/*.cpp.
// Lower `order` runs first (classes before the functions whose defaults use them).
#pragma once
#include <pybind11/pybind11.h>

namespace gpuarr::bind {

using BindFunction = void (*)(pybind11::module_&);

struct BindingRegistrar {
  BindingRegistrar(int order, BindFunction fn);
};

// Runs every registered function, in order; called once by PYBIND11_MODULE.
void run_registered_bindings(pybind11::module_& m);

}  // namespace gpuarr::bind

#define GPUARR_BINDINGS_CAT2(a, b) a##b
#define GPUARR_BINDINGS_CAT(a, b) GPUARR_BINDINGS_CAT2(a, b)
#define GPUARR_BINDINGS(order)                                                          \
  static void GPUARR_BINDINGS_CAT(gpuarr_bind_, __LINE__)(pybind11::module_ & m);       \
  static ::gpuarr::bind::BindingRegistrar GPUARR_BINDINGS_CAT(gpuarr_registrar_,        \
                                                              __LINE__)(                \
      order, &GPUARR_BINDINGS_CAT(gpuarr_bind_, __LINE__));                             \
  static void GPUARR_BINDINGS_CAT(gpuarr_bind_, __LINE__)(pybind11::module_ & m)
