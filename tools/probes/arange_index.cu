// arange of 16M float32, float64 and int64 (`launch_arange`, ops/sequences.cu: 16 bytes a
// store, elements indexed in 32 bits below 2^31 elements) beside a memset of the same bytes,
// one call at a time (median GPU time) and back to back (mean of 200). With int64 indices
// the float32 kernel held 32 registers against 19 (ptxas: an int64 converted to float per
// element); on the H200 both forms ran at the memset's time (float32 16.9 / 17.0 us back to
// back, the memset 17.7), and the surface row arange float32 16M moved 22.4 -> 17.8 us.
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/arange_index.cu -o /tmp/arange_index && /tmp/arange_index
#include "ops/sequences.cu"
#include "probe_timing.cuh"

using namespace gpuarr;

// The library's launch check reports through the runtime's error type; here it stops.
[[noreturn]] void gpuarr::throw_cuda_error(cudaError_t status, const char* call) {
  printf("fail %s: %s\n", call, cudaGetErrorString(status));
  exit(1);
}

template <class T>
void compare(const char* name, DType type, T first, T second) {
  const int64_t n = int64_t(1) << 24;
  T* a;
  CK(cudaMalloc(&a, n * sizeof(T)));
  auto library = [&] { launch_arange(reinterpret_cast<char*>(a), n, type, &first, &second, st); };
  auto fill = [&] { CK(cudaMemsetAsync(a, 0, n * sizeof(T), st)); };
  printf("%-16s library %6.1f / %6.1f us   memset %6.1f / %6.1f (one call / back to back)\n",
         name, 1000 * timed(library, 51), 1000 * queued(library, 200), 1000 * timed(fill, 51),
         1000 * queued(fill, 200));
  CK(cudaFree(a));
}

int main() {
  CK(cudaStreamCreate(&st));
  compare<float>("arange float32", DType::Float32, 0.5f, 0.75f);
  compare<double>("arange float64", DType::Float64, 0.5, 0.75);
  compare<int64_t>("arange int64", DType::Int64, int64_t(3), int64_t(10));
  return 0;
}
