// The ufunc functors (include/gpuarr/ufunc_math.cuh, ufunc_complex.cuh) compiled by the host
// compiler, so that their special values and accuracy can be checked with no GPU: the
// headers are device-only (__device__, CUDA's intrinsics), and this header gives them host
// stand-ins before including them. The math functions are then glibc's instead of CUDA's
// (both correctly handle C99's special values; their last-bit rounding may differ), and
// libcu++'s complex is the same template code that the device compiles.
//
// Used by test_ufunc_special_values.cpp (CTest) and tools/probes/special_values_host.cpp.
#pragma once

#include <cuda/std/complex>  // before the stand-in macros: libcu++ configures itself

#include <math.h>

#include <cmath>
#include <cstring>

#ifdef __CUDACC__
#error "ufunc_functors_host.hpp is for the host compiler; nvcc compiles the real headers"
#endif

// libcu++ brought in the toolkit's host_defines.h, whose __device__ is an attribute that the
// host compiler does not know.
#undef __device__
#define __device__
#undef __forceinline__
#define __forceinline__ inline

inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, sizeof f);
  return f;
}
inline double __longlong_as_double(long long i) {
  double d;
  std::memcpy(&d, &i, sizeof d);
  return d;
}
// One rounding per operation: the host compiler contracts nothing without -mfma (x86-64's
// default), and volatile keeps it so where FMA is on.
#define GPUARR_HOST_RN(NAME, T, OP)                \
  inline T NAME(T a, T b) {                        \
    volatile T r = a OP b;                         \
    return r;                                      \
  }
GPUARR_HOST_RN(__fadd_rn, float, +)
GPUARR_HOST_RN(__fsub_rn, float, -)
GPUARR_HOST_RN(__fmul_rn, float, *)
GPUARR_HOST_RN(__fdiv_rn, float, /)
GPUARR_HOST_RN(__dadd_rn, double, +)
GPUARR_HOST_RN(__dsub_rn, double, -)
GPUARR_HOST_RN(__dmul_rn, double, *)
GPUARR_HOST_RN(__ddiv_rn, double, /)
#undef GPUARR_HOST_RN
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }

#include "../include/gpuarr/ufunc_complex.cuh"
