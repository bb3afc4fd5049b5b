// The cast kernel, instantiated for every (source, destination) pair across the
// cast_from_*.cu files so that the pairs compile in parallel.
#pragma once
#include "ops/cast.cuh"
#include "ops/device_types.cuh"
#include "ops/strided.cuh"

namespace gpuarr {

// Elements per 16-byte access of the wider of the two types.
template <class S, class D>
constexpr int kCastVector = (sizeof(S) > sizeof(D) ? sizeof(S) : sizeof(D)) >= 16
                                ? 1
                                : 16 / (sizeof(S) > sizeof(D) ? sizeof(S) : sizeof(D));

// Contiguous and 16-byte aligned: a thread per vector of kCastVector elements, so that
// every load and store is 16 bytes wide (float32 -> float64 of 16M: one load of four
// floats and two stores of two doubles a thread, instead of four of each).
template <class S, class D>
__global__ void cast_vector_kernel(D* dst, const S* src, int64_t n) {
  constexpr int V = kCastVector<S, D>;
  const int64_t tid = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  const int64_t nv = n / V;
  for (int64_t c = tid; c < nv; c += step) {
    const VecOf<S, V> v = reinterpret_cast<const VecOf<S, V>*>(src)[c];
    VecOf<D, V> r;
#pragma unroll
    for (int j = 0; j < V; ++j) r.v[j] = convert<D>(v.v[j]);
    reinterpret_cast<VecOf<D, V>*>(dst)[c] = r;
  }
  for (int64_t i = nv * V + tid; i < n; i += step) dst[i] = convert<D>(src[i]);
}

template <class S, class D>
__global__ void cast_kernel(StridedArgs<2> a, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    element_offsets(a, i, off);
    *reinterpret_cast<D*>(a.data[0] + off[0]) =
        convert<D>(*reinterpret_cast<const S*>(a.data[1] + off[1]));
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
    if (contiguous && (reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src)) % 16 == 0) {
      constexpr int V = kCastVector<S, D>;
      const int64_t n = shape[0];
      cast_vector_kernel<S, D><<<grid_for((n + V - 1) / V, kThreads), kThreads, 0, stream>>>(
          reinterpret_cast<D*>(dst), reinterpret_cast<const S*>(src), n);
      check_launch("cast_vector_kernel");
      return;
    }
    for_each_launch<2>(shape, {&ds, &ss}, {dst, const_cast<char*>(src)},
                       [&](const StridedArgs<2>& a, int64_t n) {
                         cast_kernel<S, D><<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, n);
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
