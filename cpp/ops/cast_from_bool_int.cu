#include "ops/cast_kernel.cuh"

namespace gpuarr {

bool launch_cast_from_signed(char* dst, const Dims& ds, DType dst_type, const char* src, const Dims& ss,
                DType src_type, const Dims& shape, cudaStream_t stream) {
  switch (src_type) {
    case DType::Bool:
      launch_cast_from<bool>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::Int8:
      launch_cast_from<int8_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::Int16:
      launch_cast_from<int16_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::Int32:
      launch_cast_from<int32_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::Int64:
      launch_cast_from<int64_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    default:
      return false;
  }
}

}  // namespace gpuarr
