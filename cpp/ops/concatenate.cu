// numpy.concatenate in one pass over the result where one copy a piece would write rows in
// parts of lines (core/shape_ops.hpp, concat_rows_layout): each thread writes consecutive
// elements of the C-contiguous result, each read from the piece that holds its column.
#include "core/shape_ops.hpp"
#include "ops/consecutive_writes.cuh"
#include "ops/device_types.cuh"
#include "ops/shape_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

struct ConcatRowsArgs {
  char* out;
  uint32_t width;  // of a result row
  int n;
  bool aligned;    // out allows the thread's elements as one store
  const char* data[kMaxConcatRowsPieces];
  uint32_t start[kMaxConcatRowsPieces];  // each piece's first column in a result row
  int64_t row_stride[kMaxConcatRowsPieces];
  int64_t col_stride[kMaxConcatRowsPieces];
};

// Thread t writes the U consecutive elements from U * t (consecutive_writes.cuh): it
// divides once for the first element's row and column and steps through the rest.
template <class W>
__global__ void concat_rows_kernel(ConcatRowsArgs a, uint32_t total) {
  constexpr int U = kCopyUnroll<W>;
  write_consecutive<W>(a.out, a.aligned, total, [&](int64_t e0, VecOf<W, U>& v) {
    uint32_t r = static_cast<uint32_t>(e0) / a.width;
    uint32_t j = static_cast<uint32_t>(e0) - r * a.width;
    int p = 0;
    while (p + 1 < a.n && j >= a.start[p + 1]) ++p;
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (e0 + u >= total) break;
      v.v[u] = *reinterpret_cast<const W*>(a.data[p] + r * a.row_stride[p] +
                                           int64_t(j - a.start[p]) * a.col_stride[p]);
      if (++j == a.width) {
        j = 0;
        ++r;
        p = 0;
      }
      while (p + 1 < a.n && j >= a.start[p + 1]) ++p;
    }
  });
}

}  // namespace

void launch_concat_rows(char* out, int64_t rows, const char* const* data,
                        const ConcatRowsPiece* pieces, int n, int64_t itemsize,
                        cudaStream_t stream) {
  ConcatRowsArgs a{};
  a.out = out;
  a.n = n;
  int64_t width = 0;
  for (int p = 0; p < n; ++p) {
    a.data[p] = data[p];
    a.start[p] = static_cast<uint32_t>(width);
    a.row_stride[p] = pieces[p].row_stride;
    a.col_stride[p] = pieces[p].col_stride;
    width += pieces[p].width;
  }
  a.width = static_cast<uint32_t>(width);
  const int64_t total = rows * width;
  if (total == 0) return;
  constexpr int kThreads = 256;
  dispatch_word(itemsize, [&](auto word) {
    using W = decltype(word);
    a.aligned = consecutive_store_aligned<W>(out);
    concat_rows_kernel<W><<<consecutive_grid<W>(total, kThreads), kThreads, 0, stream>>>(
        a, static_cast<uint32_t>(total));
    check_launch("concat_rows_kernel");
  });
}

}  // namespace gpuarr
