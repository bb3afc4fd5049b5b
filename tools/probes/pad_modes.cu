// numpy.pad of a 4096^2 float32 matrix in one pass (`launch_pad`, ops/pad.cu): constant by
// 1 and edge, reflect, symmetric and wrap by 3, beside a copy of 64 MiB (back to back, mean
// of 200 calls). The kernel finds the pad columns' source index in 32 bits: with int64
// remainders reflect, symmetric and wrap took 46.5-46.7 us on the H200 against 43.3-43.5,
// and both widths in the one kernel took it from 38 to 54 registers (ptxas, float32) and
// every mode slower. H200 with the 32-bit form: constant 39.2, edge 39.5, reflect 40.4,
// symmetric 40.5, wrap 40.3, the copy 34.5.
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/pad_modes.cu -o /tmp/pad_modes && /tmp/pad_modes
#include <vector>

#include "ops/pad.cu"
#include "probe_timing.cuh"

using namespace gpuarr;

// The library's launch check reports through the runtime's error type; here it stops.
[[noreturn]] void gpuarr::throw_cuda_error(cudaError_t status, const char* call) {
  printf("fail %s: %s\n", call, cudaGetErrorString(status));
  exit(1);
}

int main() {
  const int64_t n = 4096;
  CK(cudaStreamCreate(&st));
  std::vector<float> h(n * n);
  for (int64_t i = 0; i < n * n; ++i) h[i] = float(i % 10007);
  char *src, *out;
  CK(cudaMalloc(&src, n * n * 4));
  CK(cudaMalloc(&out, (n + 6) * (n + 6) * 4));
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
    printf("%-16s %6.1f us\n", c.name, 1000 * queued(library, 200));
  }
  auto copy = [&] { CK(cudaMemcpyAsync(out, src, n * n * 4, cudaMemcpyDeviceToDevice, st)); };
  printf("%-16s %6.1f us (64 MiB)\n", "copy", 1000 * queued(copy, 200));
  return 0;
}
