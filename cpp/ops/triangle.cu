// numpy.tri / tril / triu: one pass that writes each element of a C-contiguous batch of
// matrices as zero (outside the kept triangle), the source's element or a fill value, by
// rows and columns of the grid, so that no element divides its index.
#include "ops/device_types.cuh"
#include "ops/shape_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

// Blocks of 32 columns by 8 rows: a warp writes 32 consecutive vectors of one row, and
// narrow matrices (a batch of 32 x 32) keep every thread busy.
constexpr int kTriCols = 32;
constexpr int kTriRows = 8;

// Each thread writes V consecutive elements of a row as one vector (16 bytes where rows
// are whole vectors and aligned: tri of 4096^2 float32 is then store-bound, not bound by
// one thread per 4-byte element).
template <class W, int V>
__global__ void triangle_kernel(W* out, const W* src, W fill, int64_t total_rows, int64_t rows,
                                int64_t cols, int64_t k, bool lower) {
  const int64_t nvec = cols / V;
  for (int64_t r = blockIdx.y * int64_t(kTriRows) + threadIdx.y; r < total_rows;
       r += int64_t(gridDim.y) * kTriRows) {
    const int64_t i = r % rows;
    auto* row = reinterpret_cast<VecOf<W, V>*>(out + r * cols);
    const auto* src_row = src ? reinterpret_cast<const VecOf<W, V>*>(src + r * cols) : nullptr;
    for (int64_t c = blockIdx.x * int64_t(kTriCols) + threadIdx.x; c < nvec;
         c += int64_t(gridDim.x) * kTriCols) {
      bool zero[V];
      bool any_zero = false, all_zero = true;
#pragma unroll
      for (int e = 0; e < V; ++e) {
        const int64_t d = c * V + e - i;
        zero[e] = lower ? d > k : d < k;
        any_zero |= zero[e];
        all_zero &= zero[e];
      }
      if (src == out && !any_zero) continue;  // in place: the kept elements stay
      VecOf<W, V> v;
#pragma unroll
      for (int e = 0; e < V; ++e) v.v[e] = W{};
      if (!all_zero) {  // a zeroed vector reads nothing
        if (src_row) {
          v = src_row[c];
        } else {
#pragma unroll
          for (int e = 0; e < V; ++e) v.v[e] = fill;
        }
#pragma unroll
        for (int e = 0; e < V; ++e)
          if (zero[e]) v.v[e] = W{};
      }
      row[c] = v;
    }
  }
}

template <class W>
void launch_typed(char* out, const char* src, const void* fill_bytes, int64_t total_rows,
                  int64_t rows, int64_t cols, int64_t k, bool lower, cudaStream_t stream) {
  W fill{};
  if (!src) fill = *reinterpret_cast<const W*>(fill_bytes);
  constexpr int kV = sizeof(W) >= 16 ? 1 : 16 / int(sizeof(W));
  const bool vectors = kV > 1 && cols % kV == 0 &&
                       (reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(src)) % 16 == 0;
  const int64_t nvec = vectors ? cols / kV : cols;
  const dim3 grid(
      static_cast<unsigned>(std::min<int64_t>((nvec + kTriCols - 1) / kTriCols, 1024)),
      static_cast<unsigned>(std::min<int64_t>((total_rows + kTriRows - 1) / kTriRows, 65535)));
  auto* o = reinterpret_cast<W*>(out);
  const auto* s = reinterpret_cast<const W*>(src);
  if (vectors)
    triangle_kernel<W, kV><<<grid, dim3(kTriCols, kTriRows), 0, stream>>>(o, s, fill, total_rows,
                                                                          rows, cols, k, lower);
  else
    triangle_kernel<W, 1><<<grid, dim3(kTriCols, kTriRows), 0, stream>>>(o, s, fill, total_rows,
                                                                         rows, cols, k, lower);
  check_launch("triangle_kernel");
}

}  // namespace

void launch_triangle(char* out, const char* src, const void* fill, int64_t batch, int64_t rows,
                     int64_t cols, int64_t k, bool lower, int64_t itemsize, cudaStream_t stream) {
  if (batch * rows * cols == 0) return;
  const int64_t total_rows = batch * rows;
  dispatch_word(itemsize, [&](auto word) {
    launch_typed<decltype(word)>(out, src, fill, total_rows, rows, cols, k, lower, stream);
  });
}

}  // namespace gpuarr
