// Functions of the host logic that the .cu kernels call too: __host__ __device__ and
// always inlined under nvcc, plain inline functions for the host compiler (CTest).
#pragma once

#if defined(__CUDACC__)
#define GPUARR_HD __host__ __device__ __forceinline__
#define GPUARR_UNROLL _Pragma("unroll")
#else
#define GPUARR_HD inline
#define GPUARR_UNROLL
#endif
