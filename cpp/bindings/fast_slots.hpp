// Type slots that call C++ directly (ndarray's arithmetic operators, gpuarr.fuse's call),
// skipping CPython's generic slot (a method lookup and a bound-method call) and pybind11's
// dispatcher. On unless GPUARR_FAST_OPERATOR_SLOTS=0 (see fast_slots_enabled). A C++ exception
// leaving such a slot is translated by pybind11's registered translators (NumPy's exception
// types).
#pragma once
#include <pybind11/pybind11.h>

#include <cstdlib>
#include <cstring>

namespace gpuarr::bind {

#if defined(PYBIND11_VERSION_HEX) && PYBIND11_VERSION_HEX >= 0x020D0000
constexpr bool kFastSlotsPossible = true;
// Call inside a catch block: sets the Python error for the exception being handled.
inline PyObject* translate_active_exception() {
  pybind11::detail::try_translate_exceptions();
  return nullptr;
}
#else
constexpr bool kFastSlotsPossible = false;  // older pybind11: no public translation hook
inline PyObject* translate_active_exception() {
  PyErr_SetString(PyExc_SystemError, "gpuarr: fast slots without exception translation");
  return nullptr;
}
#endif

// On unless GPUARR_FAST_OPERATOR_SLOTS=0/false/off. Measured on the H100 in one process with
// both paths interleaved (benchmarks/probe_dispatch.py): tiny a + b 5.78 us direct against
// 6.12 us generic. (An earlier comparison across separate processes had read the opposite;
// the host's speed drifts more than the difference between runs.)
inline bool fast_slots_enabled() {
  if (!kFastSlotsPossible) return false;
  const char* v = std::getenv("GPUARR_FAST_OPERATOR_SLOTS");
  return !(v && (!std::strcmp(v, "0") || !std::strcmp(v, "false") || !std::strcmp(v, "off")));
}

}  // namespace gpuarr::bind
