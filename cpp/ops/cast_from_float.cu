#include "ops/cast_kernel.cuh"

namespace gpuarr {

bool launch_cast_from_float(char* dst, const Dims& ds, DType dst_type, const char* src, const Dims& ss,
                DType src_type, const Dims& shape, cudaStream_t stream) {
  switch (src_type) {
    case DType::Float16:
      launch_cast_from<__half>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::Float32:
      launch_cast_from<float>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::Float64:
      launch_cast_from<double>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    default:
      return false;
  }
}

}  // namespace gpuarr
