// Same-dtype copies between strided views; contiguous ones go to cudaMemcpyAsync.
#include "ops/kernels.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

template <class W>
__global__ void copy_strided_kernel(StridedArgs<2> a, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    element_offsets(a, i, off);
    *reinterpret_cast<W*>(a.data[0] + off[0]) = *reinterpret_cast<const W*>(a.data[1] + off[1]);
  }
}

template <class W>
void copy_typed(char* dst, const Dims& ds, const char* src, const Dims& ss, const Dims& shape,
                cudaStream_t stream) {
  constexpr int kThreads = 256;
  for_each_launch<2>(shape, {&ds, &ss}, {dst, const_cast<char*>(src)},
                     [&](const StridedArgs<2>& a, int64_t n) {
                       copy_strided_kernel<W><<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, n);
                       check_launch("copy_strided_kernel");
                     });
}

}  // namespace

void launch_copy_same_type(char* dst, const Dims& dst_strides, const char* src,
                           const Dims& src_strides, const Dims& shape_in, int64_t itemsize,
                           cudaStream_t stream) {
  Dims shape = shape_in;
  if (shape_size(shape) == 0) return;
  std::vector<Dims> strides{dst_strides, src_strides};
  coalesce_dims(shape, strides);
  if (shape.size() == 1 && strides[0][0] == itemsize && strides[1][0] == itemsize) {
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(dst, src, shape[0] * itemsize, cudaMemcpyDeviceToDevice,
                                      stream));
    return;
  }
  switch (itemsize) {
    case 1: return copy_typed<uint8_t>(dst, strides[0], src, strides[1], shape, stream);
    case 2: return copy_typed<uint16_t>(dst, strides[0], src, strides[1], shape, stream);
    case 4: return copy_typed<uint32_t>(dst, strides[0], src, strides[1], shape, stream);
    case 8: return copy_typed<uint64_t>(dst, strides[0], src, strides[1], shape, stream);
    case 16: return copy_typed<Word16>(dst, strides[0], src, strides[1], shape, stream);
  }
}

}  // namespace gpuarr
