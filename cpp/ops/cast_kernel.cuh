// The cast kernel, instantiated for every (source, destination) pair across the
// cast_from_*.cu files so that the pairs compile in parallel.
#pragma once
#include "ops/cast.cuh"
#include "ops/device_types.cuh"
#include "ops/strided.cuh"

namespace gpuarr {

template <class S, class D>
__global__ void cast_kernel(StridedArgs<2> a, int64_t n, bool contiguous) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    if (contiguous) {
      reinterpret_cast<D*>(a.data[0])[i] = convert<D>(reinterpret_cast<const S*>(a.data[1])[i]);
    } else {
      int64_t off[2];
      element_offsets(a, i, off);
      *reinterpret_cast<D*>(a.data[0] + off[0]) =
          convert<D>(*reinterpret_cast<const S*>(a.data[1] + off[1]));
    }
  }
}

// Casts from source type S to the runtime destination type (shape and strides coalesced).
template <class S>
void launch_cast_from(char* dst, const Dims& ds, DType dst_type, const char* src, const Dims& ss,
                      const Dims& shape, cudaStream_t stream) {
  dispatch_dtype(dst_type, [&](auto tag) {
    using D = typename decltype(tag)::type;
    constexpr int kThreads = 256;
    const bool contiguous = shape.size() == 1 && ds[0] == int64_t(sizeof(D)) &&
                            ss[0] == int64_t(sizeof(S));
    for_each_launch<2>(shape, {&ds, &ss}, {dst, const_cast<char*>(src)},
                       [&](const StridedArgs<2>& a, int64_t n) {
                         cast_kernel<S, D><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
                             a, n, contiguous);
                         check_launch("cast_kernel");
                       });
  });
}

// A case of the switch in each cast_from_*.cu file.
#define GPUARR_CAST_FROM(ENUM, TYPE)                                \
  case DType::ENUM:                                                 \
    launch_cast_from<TYPE>(dst, ds, dst_type, src, ss, shape, stream); \
    return true;

// One per cast_from_*.cu file; each returns false for source types it does not hold.
bool launch_cast_from_signed(char*, const Dims&, DType, const char*, const Dims&, DType,
                             const Dims&, cudaStream_t);
bool launch_cast_from_unsigned(char*, const Dims&, DType, const char*, const Dims&, DType,
                               const Dims&, cudaStream_t);
bool launch_cast_from_float(char*, const Dims&, DType, const char*, const Dims&, DType,
                            const Dims&, cudaStream_t);
bool launch_cast_from_complex(char*, const Dims&, DType, const char*, const Dims&, DType,
                              const Dims&, cudaStream_t);

}  // namespace gpuarr
