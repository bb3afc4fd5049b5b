#include "ops/cast_kernel.cuh"

namespace gpuarr {

bool launch_cast_from_complex(char* dst, const Dims& ds, DType dst_type, const char* src, const Dims& ss,
                DType src_type, const Dims& shape, cudaStream_t stream) {
  switch (src_type) {
    case DType::Complex64:
      launch_cast_from<complex64_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    case DType::Complex128:
      launch_cast_from<complex128_t>(dst, ds, dst_type, src, ss, shape, stream);
      return true;
    default:
      return false;
  }
}

}  // namespace gpuarr
