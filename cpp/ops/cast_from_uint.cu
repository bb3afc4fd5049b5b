#include "ops/cast_kernel.cuh"

namespace gpuarr {

bool launch_cast_from_unsigned(char* dst, const Dims& ds, DType dst_type, const char* src,
                                 const Dims& ss, DType src_type, const Dims& shape, cudaStream_t stream) {
  switch (src_type) {
    GPUARR_CAST_FROM(UInt8, uint8_t)
    GPUARR_CAST_FROM(UInt16, uint16_t)
    GPUARR_CAST_FROM(UInt32, uint32_t)
    GPUARR_CAST_FROM(UInt64, uint64_t)
    default:
      return false;
  }
}

}  // namespace gpuarr
