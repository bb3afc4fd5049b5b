// numpy.repeat with per-element counts: a gather along one axis through an index vector
// (source position of each output position) computed from the counts.
#include "ops/shape_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

template <int Size> struct RepWord;
template <> struct RepWord<1> { using type = uint8_t; };
template <> struct RepWord<2> { using type = uint16_t; };
template <> struct RepWord<4> { using type = uint32_t; };
template <> struct RepWord<8> { using type = uint64_t; };
template <> struct RepWord<16> { using type = Word16; };

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

template <int Size>
void launch_typed(char* out, const char* src, const int64_t* idx, int64_t n, int64_t n_src,
                  int64_t n_out, int64_t inner, cudaStream_t stream) {
  using W = typename RepWord<Size>::type;
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
  switch (itemsize) {
    case 1: return launch_typed<1>(out, src, idx, n, n_src, n_out, inner, stream);
    case 2: return launch_typed<2>(out, src, idx, n, n_src, n_out, inner, stream);
    case 4: return launch_typed<4>(out, src, idx, n, n_src, n_out, inner, stream);
    case 8: return launch_typed<8>(out, src, idx, n, n_src, n_out, inner, stream);
    case 16: return launch_typed<16>(out, src, idx, n, n_src, n_out, inner, stream);
  }
}

}  // namespace gpuarr
