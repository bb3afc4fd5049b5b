// numpy.repeat with per-element counts: a gather along one axis through an index vector
// (source position of each output position) computed from the counts.
#include "ops/shape_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

template <class W>
__global__ void repeat_gather_kernel(W* out, const W* src, const int64_t* idx, int64_t n,
                                     int64_t n_src, int64_t n_out, int64_t inner) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t i = e % inner;
    const int64_t rest = e / inner;
    const int64_t t = rest % n_out;
    const int64_t o = rest / n_out;
    out[e] = src[(o * n_src + idx[t]) * inner + i];
  }
}

template <class W>
void launch_typed(char* out, const char* src, const int64_t* idx, int64_t n, int64_t n_src,
                  int64_t n_out, int64_t inner, cudaStream_t stream) {
  constexpr int kThreads = 256;
  repeat_gather_kernel<W><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
      reinterpret_cast<W*>(out), reinterpret_cast<const W*>(src), idx, n, n_src, n_out, inner);
  check_launch("repeat_gather_kernel");
}

}  // namespace

void launch_repeat_gather(char* out, const char* src, const int64_t* idx, int64_t outer,
                          int64_t n_src, int64_t n_out, int64_t inner, int64_t itemsize,
                          cudaStream_t stream) {
  const int64_t n = outer * n_out * inner;
  if (n == 0) return;
  dispatch_word(itemsize, [&](auto word) {
    launch_typed<decltype(word)>(out, src, idx, n, n_src, n_out, inner, stream);
  });
}

}  // namespace gpuarr
