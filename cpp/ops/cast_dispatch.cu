#include "ops/cast_kernel.cuh"
#include "ops/kernels.hpp"

namespace gpuarr {

void launch_cast(char* dst, const Dims& dst_strides, DType dst_type, const char* src,
                 const Dims& src_strides, DType src_type, const Dims& shape_in,
                 cudaStream_t stream) {
  Dims shape = shape_in;
  if (shape_size(shape) == 0) return;
  if (dst_type == src_type) {
    launch_copy_same_type(dst, dst_strides, src, src_strides, shape, itemsize(dst_type), stream);
    return;
  }
  std::vector<Dims> strides{dst_strides, src_strides};
  coalesce_dims(shape, strides);
  const Dims& ds = strides[0];
  const Dims& ss = strides[1];
  launch_cast_from_signed(dst, ds, dst_type, src, ss, src_type, shape, stream) ||
      launch_cast_from_unsigned(dst, ds, dst_type, src, ss, src_type, shape, stream) ||
      launch_cast_from_float(dst, ds, dst_type, src, ss, src_type, shape, stream) ||
      launch_cast_from_complex(dst, ds, dst_type, src, ss, src_type, shape, stream);
}

}  // namespace gpuarr
