// numpy.triu / numpy.tril: zero one triangle of each matrix of a contiguous batch.
#include "ops/shape_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

template <int Size> struct TriWord;
template <> struct TriWord<1> { using type = uint8_t; };
template <> struct TriWord<2> { using type = uint16_t; };
template <> struct TriWord<4> { using type = uint32_t; };
template <> struct TriWord<8> { using type = uint64_t; };
template <> struct TriWord<16> { using type = Word16; };

template <class W>
__global__ void triangle_zero_kernel(W* data, int64_t n, int64_t rows, int64_t cols, int64_t k,
                                     bool lower) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t j = e % cols;
    const int64_t i = (e / cols) % rows;
    const int64_t d = j - i;
    if (lower ? d > k : d < k) data[e] = W{};
  }
}

template <int Size>
void launch_typed(char* data, int64_t n, int64_t rows, int64_t cols, int64_t k, bool lower,
                  cudaStream_t stream) {
  using W = typename TriWord<Size>::type;
  constexpr int kThreads = 256;
  triangle_zero_kernel<W><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
      reinterpret_cast<W*>(data), n, rows, cols, k, lower);
  check_launch("triangle_zero_kernel");
}

}  // namespace

void launch_triangle_zero(char* data, int64_t batch, int64_t rows, int64_t cols, int64_t k,
                          bool lower, int64_t itemsize, cudaStream_t stream) {
  const int64_t n = batch * rows * cols;
  if (n == 0) return;
  switch (itemsize) {
    case 1: return launch_typed<1>(data, n, rows, cols, k, lower, stream);
    case 2: return launch_typed<2>(data, n, rows, cols, k, lower, stream);
    case 4: return launch_typed<4>(data, n, rows, cols, k, lower, stream);
    case 8: return launch_typed<8>(data, n, rows, cols, k, lower, stream);
    case 16: return launch_typed<16>(data, n, rows, cols, k, lower, stream);
  }
}

}  // namespace gpuarr
