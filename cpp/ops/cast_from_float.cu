#include "ops/cast_kernel.cuh"

namespace gpuarr {

bool launch_cast_from_float(char* dst, const Dims& ds, DType dst_type, const char* src,
                                 const Dims& ss, DType src_type, const Dims& shape, cudaStream_t stream) {
  switch (src_type) {
    GPUARR_CAST_FROM(Float16, __half)
    GPUARR_CAST_FROM(Float32, float)
    GPUARR_CAST_FROM(Float64, double)
    default:
      return false;
  }
}

}  // namespace gpuarr
