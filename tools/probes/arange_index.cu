// arange of 16M float32, float64 and int64 (`launch_arange`, ops/sequences.cu: 16 bytes a
// store, the element's index an int64 converted to the element's type) against the same
// kernel with 32-bit indices (every launch under 2^31 elements could take them: an integer
// converts to float the same from either width), beside a 64 MiB memset (the bytes a
// float32 arange writes). In the surface sweep arange float32 16M took 22.4 us, a fill of
// the same bytes 18.4. Each variant is checked against the library's result, then timed one
// call at a time (median GPU time) and back to back (mean of 200).
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/arange_index.cu -o /tmp/arange_index && /tmp/arange_index
#include <cstring>
#include <vector>

#include "ops/sequences.cu"
#include "probe_timing.cuh"

using namespace gpuarr;

// The library's launch check reports through the runtime's error type; here it stops.
[[noreturn]] void gpuarr::throw_cuda_error(cudaError_t status, const char* call) {
  printf("fail %s: %s\n", call, cudaGetErrorString(status));
  exit(1);
}

// arange_value with the index in 32 bits (int64 results keep 64-bit products).
template <class T>
__device__ __forceinline__ T arange_value32(uint32_t i, T first, T second) {
  if (i == 0) return first;
  if (i == 1) return second;
  if constexpr (std::is_same_v<T, float>) {
    const float delta = __fsub_rn(second, first);
    return __fadd_rn(first, __fmul_rn(static_cast<float>(i), delta));
  } else if constexpr (std::is_same_v<T, double>) {
    const double delta = __dsub_rn(second, first);
    return __dadd_rn(first, __dmul_rn(static_cast<double>(i), delta));
  } else {
    const T delta = static_cast<T>(second - first);
    return static_cast<T>(static_cast<int64_t>(first) + int64_t(i) * static_cast<int64_t>(delta));
  }
}

template <class O>
__global__ void sequence32_kernel(O* out, uint32_t n, O first, O second) {
  constexpr int kVec = kPer16Bytes<O>;
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  const uint32_t nvec = n / kVec;
  for (uint32_t v = tid; v < nvec; v += stride) {
    union {
      uint4 bits;
      O elem[kVec];
    } pack;
#pragma unroll
    for (int k = 0; k < kVec; ++k) pack.elem[k] = arange_value32(v * kVec + k, first, second);
    reinterpret_cast<uint4*>(out)[v] = pack.bits;
  }
  for (uint32_t i = nvec * kVec + tid; i < n; i += stride) out[i] = arange_value32(i, first, second);
}

template <class T>
void compare(const char* name, DType type, T first, T second) {
  const int64_t n = int64_t(1) << 24;
  T *a, *b;
  CK(cudaMalloc(&a, n * sizeof(T)));
  CK(cudaMalloc(&b, n * sizeof(T)));
  auto library = [&] { launch_arange(reinterpret_cast<char*>(a), n, type, &first, &second, st); };
  constexpr int kVec = kPer16Bytes<T>;
  auto narrow = [&] {
    sequence32_kernel<T><<<grid_for((n + kVec - 1) / kVec, 256), 256, 0, st>>>(
        b, uint32_t(n), first, second);
  };
  library();
  narrow();
  CK(cudaDeviceSynchronize());
  std::vector<T> ha(n), hb(n);
  CK(cudaMemcpy(ha.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hb.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost));
  const bool same = std::memcmp(ha.data(), hb.data(), n * sizeof(T)) == 0;
  auto fill = [&] { CK(cudaMemsetAsync(b, 0, n * sizeof(T), st)); };
  printf("%-16s library %6.1f / %6.1f us   32-bit index %6.1f / %6.1f %s  memset %6.1f / %6.1f "
         "(one call / back to back)\n", name, 1000 * timed(library, 51), 1000 * queued(library, 200),
         1000 * timed(narrow, 51), 1000 * queued(narrow, 200), same ? "" : "DIFFERENT",
         1000 * timed(fill, 51), 1000 * queued(fill, 200));
  CK(cudaFree(a));
  CK(cudaFree(b));
}

int main() {
  CK(cudaStreamCreate(&st));
  compare<float>("arange float32", DType::Float32, 0.5f, 0.75f);
  compare<double>("arange float64", DType::Float64, 0.5, 0.75);
  compare<int64_t>("arange int64", DType::Int64, int64_t(3), int64_t(10));
  return 0;
}
