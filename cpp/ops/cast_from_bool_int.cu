#include "ops/cast_kernel.cuh"

namespace gpuarr {

bool launch_cast_from_signed(char* dst, const Dims& ds, DType dst_type, const char* src,
                                 const Dims& ss, DType src_type, const Dims& shape, cudaStream_t stream) {
  switch (src_type) {
    GPUARR_CAST_FROM(Bool, bool)
    GPUARR_CAST_FROM(Int8, int8_t)
    GPUARR_CAST_FROM(Int16, int16_t)
    GPUARR_CAST_FROM(Int32, int32_t)
    GPUARR_CAST_FROM(Int64, int64_t)
    default:
      return false;
  }
}

}  // namespace gpuarr
