// Positions of the true elements of a boolean array: a CUB count (which sizes the output),
// then cub::DeviceSelect::Flagged over a counting iterator, then an unravel into per-axis
// indices. CUB's temporary storage comes from the stream-ordered pool.
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "ops/indexing_ops.hpp"
#include "ops/strided.cuh"
#include "runtime/memory.hpp"

namespace gpuarr {
namespace {

struct BoolToInt64 {
  __host__ __device__ int64_t operator()(bool b) const { return b ? 1 : 0; }
};

struct UnravelArgs {
  int ndim;
  int64_t shape[kMaxDims];
};

__global__ void unravel_kernel(const int64_t* __restrict__ positions, int64_t count,
                               UnravelArgs a, int64_t* __restrict__ out) {
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < count;
       j += int64_t(gridDim.x) * blockDim.x) {
    int64_t p = positions[j];
    for (int d = a.ndim - 1; d >= 0; --d) {
      const int64_t n = a.shape[d];
      out[d * count + j] = p % n;
      p /= n;
    }
  }
}

}  // namespace

void launch_count_true(const bool* flags, int64_t n, int64_t* d_count, cudaStream_t stream) {
  if (n == 0) {
    GPUARR_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(int64_t), stream));
    return;
  }
  auto in = thrust::make_transform_iterator(flags, BoolToInt64{});
  size_t temp_bytes = 0;
  GPUARR_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, d_count, n, stream));
  auto temp = allocate_device_memory(temp_bytes);
  GPUARR_CUDA_CHECK(cub::DeviceReduce::Sum(temp->ptr(), temp_bytes, in, d_count, n, stream));
}

void launch_true_positions(const bool* flags, int64_t n, int64_t* positions, int64_t* d_scratch,
                           cudaStream_t stream) {
  if (n == 0) return;
  thrust::counting_iterator<int64_t> in(0);
  size_t temp_bytes = 0;
  GPUARR_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, temp_bytes, in, flags, positions,
                                               d_scratch, n, stream));
  auto temp = allocate_device_memory(temp_bytes);
  GPUARR_CUDA_CHECK(cub::DeviceSelect::Flagged(temp->ptr(), temp_bytes, in, flags, positions,
                                               d_scratch, n, stream));
}

void launch_unravel(const int64_t* positions, int64_t count, const Dims& shape, int64_t* out,
                    cudaStream_t stream) {
  if (count == 0) return;
  UnravelArgs a{};
  a.ndim = static_cast<int>(shape.size());
  for (int d = 0; d < a.ndim; ++d) a.shape[d] = shape[d];
  constexpr int kThreads = 256;
  unravel_kernel<<<grid_for(count, kThreads), kThreads, 0, stream>>>(positions, count, a, out);
  check_launch("unravel_kernel");
}

}  // namespace gpuarr
