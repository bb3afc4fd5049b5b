#include "ops/cast_kernel.cuh"

namespace gpuarr {

bool launch_cast_from_complex(char* dst, const Dims& ds, DType dst_type, const char* src,
                                 const Dims& ss, DType src_type, const Dims& shape, cudaStream_t stream) {
  switch (src_type) {
    GPUARR_CAST_FROM(Complex64, complex64_t)
    GPUARR_CAST_FROM(Complex128, complex128_t)
    default:
      return false;
  }
}

}  // namespace gpuarr
