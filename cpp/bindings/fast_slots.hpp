// Type slots that call C++ directly (ndarray's arithmetic operators, gpuarr.fuse's call),
// skipping CPython's generic slot (a method lookup and a bound-method call) and pybind11's
// dispatcher. Only with GPUARR_FAST_OPERATOR_SLOTS=1 (see fast_slots_enabled). A C++ exception leaving
// such a slot is translated by pybind11's registered translators (NumPy's exception types).
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

// Off unless GPUARR_FAST_OPERATOR_SLOTS=1: on the H100 the direct slots measured slower
// than the generic path (tiny a + b 8.2-8.8 us against 6.2-6.3, fused call 8.1 against
// 6.0-8.3, two runs of benchmarks.probe_latency dispatch); kept for further measurement.
inline bool fast_slots_enabled() {
  if (!kFastSlotsPossible) return false;
  const char* v = std::getenv("GPUARR_FAST_OPERATOR_SLOTS");
  return v && (!std::strcmp(v, "1") || !std::strcmp(v, "true") || !std::strcmp(v, "on"));
}

}  // namespace gpuarr::bind
