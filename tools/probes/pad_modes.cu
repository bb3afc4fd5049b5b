// numpy.pad of a 4096^2 float32 matrix in one pass (`launch_pad`, ops/pad.cu): constant by
// 1 and edge, reflect, symmetric and wrap by 3, against a copy of the kernel whose pad
// columns' source index is found in 32-bit arithmetic throughout, and a copy of 64 MiB.
// Each variant is checked against the library's result, then timed back to back (mean of
// 200 calls). H200 (us, the library's 64-bit remainders / 32-bit): constant 41.4 / 41.7,
// edge 41.8 / 41.9, reflect 46.7 / 43.5, symmetric 46.7 / 43.5, wrap 46.5 / 43.3, the copy
// 34.7. Both forms in the one kernel took it from 38 to 54 registers (ptxas, float32).
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/pad_modes.cu -o /tmp/pad_modes && /tmp/pad_modes
#include <cstring>
#include <vector>

#include "ops/pad.cu"
#include "probe_timing.cuh"

using namespace gpuarr;

// The library's launch check reports through the runtime's error type; here it stops.
[[noreturn]] void gpuarr::throw_cuda_error(cudaError_t status, const char* call) {
  printf("fail %s: %s\n", call, cudaGetErrorString(status));
  exit(1);
}

// pad_source_index in 32 bits (n < 2^31, as every launch of the kernel has).
__device__ __forceinline__ int32_t source_index32(PadMode mode, int32_t i, int32_t n) {
  if (mode == PadMode::Edge) return i < 0 ? 0 : n - 1;
  const int32_t period =
      mode == PadMode::Wrap ? n : (mode == PadMode::Symmetric ? 2 * n : 2 * (n - 1));
  if (period == 0) return 0;
  int32_t r = i % period;
  if (r < 0) r += period;
  if (r < n) return r;
  return mode == PadMode::Symmetric ? period - 1 - r : period - r;
}

__device__ __forceinline__ int32_t index32(const PadArgs& a, uint32_t c, uint32_t before,
                                           uint32_t extent) {
  const uint32_t s = c - before;
  if (s < extent) return static_cast<int32_t>(s);
  if (a.mode == PadMode::Constant) return -1;
  return source_index32(a.mode, int32_t(c) - int32_t(before), int32_t(extent));
}

// pad_kernel with index32 for the last dim (the rows keep locate_row).
template <class W>
__global__ void pad32_kernel(PadArgs a, W value, uint32_t total) {
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
      const int32_t s = inside ? index32(a, j, before, extent) : -1;
      v.v[u] = s >= 0 ? *reinterpret_cast<const W*>(row + int64_t(s) * col_stride) : value;
      if (++j == width && e0 + u + 1 < total)
        locate_row(a, static_cast<uint32_t>(e0 + u + 1), j, row, inside);
    }
  });
}

int main() {
  const int64_t n = 4096;
  CK(cudaStreamCreate(&st));
  std::vector<float> h(n * n);
  for (int64_t i = 0; i < n * n; ++i) h[i] = float(i % 10007);
  char *src, *out, *out2;
  CK(cudaMalloc(&src, n * n * 4));
  CK(cudaMalloc(&out, (n + 6) * (n + 6) * 4));
  CK(cudaMalloc(&out2, (n + 6) * (n + 6) * 4));
  CK(cudaMemcpy(src, h.data(), n * n * 4, cudaMemcpyHostToDevice));
  const struct {
    const char* name;
    PadMode mode;
    int64_t by;
  } cases[] = {{"constant by 1", PadMode::Constant, 1}, {"edge by 3", PadMode::Edge, 3},
               {"reflect by 3", PadMode::Reflect, 3}, {"symmetric by 3", PadMode::Symmetric, 3},
               {"wrap by 3", PadMode::Wrap, 3}};
  for (const auto& c : cases) {
    PadLayout layout;
    layout.shape = {n + 2 * c.by, n + 2 * c.by};
    layout.before = {c.by, c.by};
    layout.extent = {n, n};
    layout.strides = {n * 4, 4};
    const float zero = 0;
    auto library = [&] { launch_pad(out, src, layout, c.mode, &zero, 4, st); };
    const int64_t total = (n + 2 * c.by) * (n + 2 * c.by);
    PadArgs a{};
    a.out = out2;
    a.src = src;
    a.mode = c.mode;
    a.ndim = 2;
    for (int d = 0; d < 2; ++d) {
      a.shape[d] = uint32_t(n + 2 * c.by);
      a.before[d] = uint32_t(c.by);
      a.extent[d] = uint32_t(n);
      a.strides[d] = d == 0 ? n * 4 : 4;
    }
    a.aligned = consecutive_store_aligned<uint32_t>(out2);
    auto variant = [&] {
      pad32_kernel<uint32_t><<<consecutive_grid<uint32_t>(total, 256), 256, 0, st>>>(
          a, 0u, uint32_t(total));
    };
    library();
    variant();
    CK(cudaDeviceSynchronize());
    std::vector<float> r1(total), r2(total);
    CK(cudaMemcpy(r1.data(), out, total * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r2.data(), out2, total * 4, cudaMemcpyDeviceToHost));
    const bool same = std::memcmp(r1.data(), r2.data(), total * 4) == 0;
    printf("%-16s library %6.1f us   32-bit columns %6.1f us %s\n", c.name,
           1000 * queued(library, 200), 1000 * queued(variant, 200), same ? "" : "DIFFERENT");
  }
  auto copy = [&] { CK(cudaMemcpyAsync(out, src, n * n * 4, cudaMemcpyDeviceToDevice, st)); };
  printf("%-16s %6.1f us (64 MiB)\n", "copy", 1000 * queued(copy, 200));
  return 0;
}
