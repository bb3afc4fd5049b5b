// numpy.concatenate along axis 1 of two 4096x2048 float32 pieces (rows of 8 KiB into rows
// of 16 KiB): the library's one-pass join (`launch_concat_rows`, ops/concatenate.cu) with
// elements of 4 bytes and with the rows widened to 8- and 16-byte words, against one
// cudaMemcpy2DAsync a piece and a device-to-device copy of the same bytes. Each form is
// checked against the host's result, then timed one call at a time (median GPU time) and
// back to back (mean). H200: the join 37.1 us back to back (4-byte elements; 35.9 in 8-byte
// words, 37.5 in 16-byte words), the two 2-d copies 85.3; one strided copy a piece (the
// library's route for such pieces until then) took 47.7 us a call in the surface sweep,
// where the copy of the same bytes took 35.3.
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/concat_wide.cu -o /tmp/concat_wide && /tmp/concat_wide
#include <cstring>
#include <vector>

#include "ops/concatenate.cu"
#include "probe_timing.cuh"

using namespace gpuarr;

// The library's launch check reports through the runtime's error type; here it stops.
[[noreturn]] void gpuarr::throw_cuda_error(cudaError_t status, const char* call) {
  printf("fail %s: %s\n", call, cudaGetErrorString(status));
  exit(1);
}

int main() {
  const int64_t rows = 4096, half = 2048, width = 2 * half;
  const int64_t bytes = rows * width * 4;
  CK(cudaStreamCreate(&st));
  std::vector<float> ha(rows * half), hb(rows * half), want(rows * width), got(rows * width);
  for (int64_t i = 0; i < rows * half; ++i) {
    ha[i] = float(i % 9973);
    hb[i] = -float(i % 7919);
  }
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < width; ++j)
      want[r * width + j] = j < half ? ha[r * half + j] : hb[r * half + j - half];
  char *a, *b, *out;
  CK(cudaMalloc(&a, bytes / 2));
  CK(cudaMalloc(&b, bytes / 2));
  CK(cudaMalloc(&out, bytes));
  CK(cudaMemcpy(a, ha.data(), bytes / 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b, hb.data(), bytes / 2, cudaMemcpyHostToDevice));
  const char* data[2] = {a, b};

  auto report = [&](const char* name, const std::function<void()>& f) {
    CK(cudaMemset(out, 0, bytes));
    f();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
    const bool ok = std::memcmp(got.data(), want.data(), bytes) == 0;
    const float one = 1000 * timed(f, 21);
    const float queue = 1000 * queued(f, 200);
    printf("%-44s %s  one call %6.1f us   back to back %6.1f us\n", name, ok ? "ok   " : "WRONG",
           one, queue);
  };
  // The join with elements of `word` bytes: each piece a row of half * 4 / word words.
  auto join = [&](int64_t word) {
    return [&, word] {
      const int64_t w = half * 4 / word;
      const ConcatRowsPiece pieces[2] = {{w, half * 4, word}, {w, half * 4, word}};
      launch_concat_rows(out, rows, data, pieces, 2, word, st);
    };
  };
  report("one-pass join, 4-byte elements", join(4));
  report("one-pass join, 8-byte words", join(8));
  report("one-pass join, 16-byte words", join(16));
  report("cudaMemcpy2DAsync a piece", [&] {
    CK(cudaMemcpy2DAsync(out, width * 4, a, half * 4, half * 4, rows, cudaMemcpyDeviceToDevice,
                         st));
    CK(cudaMemcpy2DAsync(out + half * 4, width * 4, b, half * 4, half * 4, rows,
                         cudaMemcpyDeviceToDevice, st));
  });
  char* whole;
  CK(cudaMalloc(&whole, bytes));
  auto copy = [&] { CK(cudaMemcpyAsync(out, whole, bytes, cudaMemcpyDeviceToDevice, st)); };
  printf("%-44s        one call %6.1f us   back to back %6.1f us (the same bytes)\n", "copy",
         1000 * timed(copy, 21), 1000 * queued(copy, 200));
  return 0;
}
