// numpy.pad in one pass over the result (core/shape_ops.hpp, pad_layout): each element of
// the C-contiguous result is the value or the source element its index maps to. A copy of
// the source into the interior, then fills of the pad areas (or copies of edges and
// reflections, axis by axis) moved 4096^2 float32 by 1 at 40-60% of the copy bandwidth
// (the interior copy's rows start 4 bytes into a line), and a small pad took two launches
// or more.
#include <cstring>

#include "core/shape_ops.hpp"
#include "ops/consecutive_writes.cuh"
#include "ops/device_types.cuh"
#include "ops/shape_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

struct PadArgs {
  char* out;
  const char* src;
  PadMode mode;
  int ndim;
  bool aligned;  // out allows the thread's elements as one store
  uint32_t shape[kMaxPadDims], before[kMaxPadDims], extent[kMaxPadDims];
  int64_t strides[kMaxPadDims];
};

// The source index along a dim for result index c, or -1 where the element is the value.
__device__ __forceinline__ int32_t source_index(const PadArgs& a, uint32_t c, uint32_t before,
                                                uint32_t extent) {
  const uint32_t s = c - before;  // wraps past extent where c < before
  if (s < extent) return static_cast<int32_t>(s);
  if (a.mode == PadMode::Constant) return -1;
  // 32-bit remainders (pad_layout keeps 2 * extent within int32); the 64-bit form beside it
  // took the kernel from 38 to 54 registers.
  return pad_source_index<int32_t>(a.mode, int32_t(c) - int32_t(before), int32_t(extent));
}

// Result element e's column j in its row, and whether the row maps to a source row (then
// `row` is it).
__device__ __forceinline__ void locate_row(const PadArgs& a, uint32_t e, uint32_t& j,
                                           const char*& row, bool& inside) {
  const int last = a.ndim - 1;
  uint32_t q = e / a.shape[last];
  j = e - q * a.shape[last];
  int64_t off = 0;
  inside = true;
  for (int d = last - 1; d >= 0; --d) {
    const uint32_t n = a.shape[d];
    const uint32_t c = d > 0 ? q % n : q;
    q /= n;
    const int32_t i = source_index(a, c, a.before[d], a.extent[d]);
    inside = inside && i >= 0;
    if (inside) off += int64_t(i) * a.strides[d];
  }
  row = a.src + off;
}

// Thread t writes the U consecutive elements from U * t (consecutive_writes.cuh), its row
// found by division once and again only where its elements cross into the next row.
template <class W>
__global__ void pad_kernel(PadArgs a, W value, uint32_t total) {
  constexpr int U = kCopyUnroll<W>;
  const int last = a.ndim - 1;
  const uint32_t width = a.shape[last], before = a.before[last], extent = a.extent[last];
  const int64_t col_stride = a.strides[last];
  write_consecutive<W>(a.out, a.aligned, total, [&](int64_t e0, VecOf<W, U>& v) {
    uint32_t j;
    const char* row;
    bool inside;
    locate_row(a, static_cast<uint32_t>(e0), j, row, inside);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      if (e0 + u >= total) break;
      const int32_t s = inside ? source_index(a, j, before, extent) : -1;
      v.v[u] = s >= 0 ? *reinterpret_cast<const W*>(row + int64_t(s) * col_stride) : value;
      if (++j == width && e0 + u + 1 < total)
        locate_row(a, static_cast<uint32_t>(e0 + u + 1), j, row, inside);
    }
  });
}

}  // namespace

void launch_pad(char* out, const char* src, const PadLayout& layout, PadMode mode,
                const void* value, int64_t itemsize, cudaStream_t stream) {
  const int64_t total = shape_size(layout.shape);
  if (total == 0) return;
  PadArgs a{};
  a.out = out;
  a.src = src;
  a.mode = mode;
  a.ndim = static_cast<int>(layout.shape.size());
  for (int d = 0; d < a.ndim; ++d) {
    a.shape[d] = static_cast<uint32_t>(layout.shape[d]);
    a.before[d] = static_cast<uint32_t>(layout.before[d]);
    a.extent[d] = static_cast<uint32_t>(layout.extent[d]);
    a.strides[d] = layout.strides[d];
  }
  constexpr int kThreads = 256;
  dispatch_word(itemsize, [&](auto word) {
    using W = decltype(word);
    W v{};
    if (value) std::memcpy(&v, value, sizeof(W));
    a.aligned = consecutive_store_aligned<W>(out);
    pad_kernel<W><<<consecutive_grid<W>(total, kThreads), kThreads, 0, stream>>>(
        a, v, static_cast<uint32_t>(total));
    check_launch("pad_kernel");
  });
}

}  // namespace gpuarr
