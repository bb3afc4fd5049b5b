// Complex support for the ufunc functors (ufunc_math.cuh): cuda::std::complex is a complex
// type to them, and their complex branches get libcu++'s functions. The ahead-of-time
// loops include this; an NVRTC kernel includes it only when it computes in a complex
// type (libcu++ costs NVRTC about 2 s per kernel, and needs the toolkit's include
// directories).
#pragma once
#include <cuda/std/complex>

#include "ufunc_math.cuh"

namespace gpuarr::ufn {

template <class F> struct is_cplx<cuda::std::complex<F>> { enum { value = 1 }; };
template <class F> struct RealOf<cuda::std::complex<F>> { using type = F; };

namespace cx {
#define GPUARR_UFN_CX_DEFINE(NAME) \
  template <class C> GPUARR_UFN_FN C NAME(C x) { return cuda::std::NAME(x); }
GPUARR_UFN_CX_UNARY(GPUARR_UFN_CX_DEFINE)
#undef GPUARR_UFN_CX_DEFINE
template <class C> GPUARR_UFN_FN C pow(C a, C b) { return cuda::std::pow(a, b); }
}  // namespace cx

}  // namespace gpuarr::ufn
