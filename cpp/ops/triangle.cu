// numpy.tri / tril / triu: one pass that writes each element of a C-contiguous batch of
// matrices as zero (outside the kept triangle), the source's element or a fill value, by
// rows and columns of the grid, so that no element divides its index.
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

// Blocks of 32 columns by 8 rows: a warp writes 32 consecutive elements of one row, and
// narrow matrices (a batch of 32 x 32) keep every thread busy.
constexpr int kTriCols = 32;
constexpr int kTriRows = 8;

template <class W>
__global__ void triangle_kernel(W* out, const W* src, W fill, int64_t total_rows, int64_t rows,
                                int64_t cols, int64_t k, bool lower) {
  for (int64_t r = blockIdx.y * int64_t(kTriRows) + threadIdx.y; r < total_rows;
       r += int64_t(gridDim.y) * kTriRows) {
    const int64_t i = r % rows;
    W* row = out + r * cols;
    for (int64_t j = blockIdx.x * int64_t(kTriCols) + threadIdx.x; j < cols;
         j += int64_t(gridDim.x) * kTriCols) {
      const int64_t d = j - i;
      if (lower ? d > k : d < k) row[j] = W{};
      else if (src != out) row[j] = src ? src[r * cols + j] : fill;
    }
  }
}

template <int Size>
void launch_typed(char* out, const char* src, const void* fill_bytes, int64_t total_rows,
                  int64_t rows, int64_t cols, int64_t k, bool lower, cudaStream_t stream) {
  using W = typename TriWord<Size>::type;
  W fill{};
  if (!src) fill = *reinterpret_cast<const W*>(fill_bytes);
  const dim3 grid(
      static_cast<unsigned>(std::min<int64_t>((cols + kTriCols - 1) / kTriCols, 1024)),
      static_cast<unsigned>(std::min<int64_t>((total_rows + kTriRows - 1) / kTriRows, 65535)));
  triangle_kernel<W><<<grid, dim3(kTriCols, kTriRows), 0, stream>>>(reinterpret_cast<W*>(out),
                                                    reinterpret_cast<const W*>(src), fill,
                                                    total_rows, rows, cols, k, lower);
  check_launch("triangle_kernel");
}

}  // namespace

void launch_triangle(char* out, const char* src, const void* fill, int64_t batch, int64_t rows,
                     int64_t cols, int64_t k, bool lower, int64_t itemsize, cudaStream_t stream) {
  if (batch * rows * cols == 0) return;
  const int64_t total_rows = batch * rows;
  switch (itemsize) {
    case 1: return launch_typed<1>(out, src, fill, total_rows, rows, cols, k, lower, stream);
    case 2: return launch_typed<2>(out, src, fill, total_rows, rows, cols, k, lower, stream);
    case 4: return launch_typed<4>(out, src, fill, total_rows, rows, cols, k, lower, stream);
    case 8: return launch_typed<8>(out, src, fill, total_rows, rows, cols, k, lower, stream);
    case 16: return launch_typed<16>(out, src, fill, total_rows, rows, cols, k, lower, stream);
  }
}

}  // namespace gpuarr
