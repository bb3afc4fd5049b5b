#include "ops/cast_kernel.cuh"

namespace gpuarr {

bool launch_cast_from_unsigned(char* dst, const Dims& ds, DType dst_type, const char* src, const Dims& ss,
                DType src_type, const Dims& shape, cudaStream_t stream) {
  switch (src_type) {
    case DType::UInt8:
      launch_cast_from<uint8_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::UInt16:
      launch_cast_from<uint16_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::UInt32:
      launch_cast_from<uint32_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::UInt64:
      launch_cast_from<uint64_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    default:
      return false;
  }
}

}  // namespace gpuarr
