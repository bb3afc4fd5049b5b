// Axis-0 sum of an R x C float32 matrix: the Outer reduction's two launches (row chunks,
// then their partials) over the number of chunks and loads in flight per thread, against
// one launch whose last block per column slice adds the partials in order; plain copy and
// read as the floors. Build and run on the GPU machine:
//   nvcc -O2 -arch=sm_90 -std=c++17 axis0_variants.cu -o /tmp/ax && /tmp/ax
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#include <algorithm>
constexpr int T = 256;
// Sum of column o over rows [r0, r1), ILP loads in flight.
template <int ILP>
__device__ float column_chunk_sum(const float* in, int64_t C, int64_t o, int64_t r0, int64_t r1) {
  const float* p = in + r0 * C + o;
  float acc = 0.f;
  int64_t r = r0;
  for (; r + ILP <= r1; r += ILP, p += ILP * C) {
    float x[ILP];
#pragma unroll
    for (int k = 0; k < ILP; ++k) x[k] = p[k * C];
#pragma unroll
    for (int k = 0; k < ILP; ++k) acc += x[k];
  }
  for (; r < r1; ++r, p += C) acc += *p;
  return acc;
}
template <int ILP>
__global__ void outer_chunks(const float* in, int64_t R, int64_t C, int64_t chunk_len, float* partial, float* out, int chunks) {
  int64_t c = blockIdx.y, r0 = c * chunk_len, r1 = min(R, r0 + chunk_len);
  for (int64_t o = blockIdx.x * int64_t(T) + threadIdx.x; o < C; o += int64_t(gridDim.x) * T) {
    const float acc = column_chunk_sum<ILP>(in, C, o, r0, r1);
    if (chunks > 1) partial[c * C + o] = acc; else out[o] = acc;
  }
}
__global__ void sum_partials(const float* partial, int64_t C, int chunks, float* out) {
  for (int64_t o = blockIdx.x * int64_t(T) + threadIdx.x; o < C; o += int64_t(gridDim.x) * T) {
    float acc = 0.f;
    for (int c = 0; c < chunks; ++c) acc += partial[c * C + o];
    out[o] = acc;
  }
}
// One launch: the last block of each column tile to finish sums the tile's partials in order.
template <int ILP>
__global__ void outer_fold(const float* in, int64_t R, int64_t C, int64_t chunk_len, float* partial, float* out, int chunks, unsigned* counters) {
  int64_t c = blockIdx.y, r0 = c * chunk_len, r1 = min(R, r0 + chunk_len);
  const int64_t o = blockIdx.x * int64_t(T) + threadIdx.x;
  if (o < C) partial[c * C + o] = column_chunk_sum<ILP>(in, C, o, r0, r1);
  __threadfence();
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) last = atomicAdd(&counters[blockIdx.x], 1u) == unsigned(chunks - 1);
  __syncthreads();
  if (!last) return;
  if (o < C) {
    float acc = 0.f;
    for (int k = 0; k < chunks; ++k) acc += __ldcg(&partial[k * C + o]);
    out[o] = acc;
  }
  if (threadIdx.x == 0) counters[blockIdx.x] = 0;
}
__global__ void copy_kernel(const float4* in, float4* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(T) + threadIdx.x; i < n; i += int64_t(gridDim.x) * T) out[i] = in[i];
}
__global__ void read_kernel(const float4* in, int64_t n, float* sink) {
  float acc = 0;
  for (int64_t i = blockIdx.x * int64_t(T) + threadIdx.x; i < n; i += int64_t(gridDim.x) * T) { float4 v = in[i]; acc += v.x + v.y + v.z + v.w; }
  if (acc == 12345.f) *sink = acc;
}
int run(int64_t R, int64_t C);
int main() { run(8192, 8192); run(8192, 8192); run(32768, 2048); run(2048, 32768); run(100000, 640); }
int run(int64_t R, int64_t C) {
  float *in, *out, *partial, *cp; unsigned* counters;
  cudaMalloc(&in, R * C * 4); cudaMalloc(&cp, R * C * 4); cudaMalloc(&out, C * 4);
  cudaMalloc(&partial, 256 * C * 4 + 64 * 100000 * 4); cudaMalloc(&counters, 4096 * 4); cudaMemset(counters, 0, 4096 * 4);
  cudaMemset(in, 0, R * C * 4);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  auto time = [&](auto f) {
    std::vector<float> v;
    for (int i = 0; i < 3; ++i) f();
    for (int i = 0; i < 30; ++i) { cudaEventRecord(e0); f(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); v.push_back(ms); }
    std::sort(v.begin(), v.end()); return v[v.size() / 2] * 1e3f;
  };
  const double bytes = double(R) * C * 4;
  printf("== R %lld C %lld\n", (long long)R, (long long)C);
  for (int pass = 0; pass < 1; ++pass) {
    float tc = time([&] { copy_kernel<<<132 * 8, T>>>((const float4*)in, (float4*)cp, R * C / 4); });
    float tr = time([&] { read_kernel<<<132 * 8, T>>>((const float4*)in, R * C / 4, out); });
    printf("copy %.1f us = %.0f GB/s (r+w); read %.1f us = %.0f GB/s\n", tc, 2 * bytes / tc / 1e3, tr, bytes / tr / 1e3);
    for (int chunks : {4, 8, 12, 16, 24, 32, 48, 64}) {
      int64_t cl = (R + chunks - 1) / chunks;
      dim3 g(unsigned((C + T - 1) / T), unsigned(chunks));
      float t4 = time([&] { outer_chunks<4><<<g, T>>>(in, R, C, cl, partial, out, chunks); sum_partials<<<unsigned((C + T - 1) / T), T>>>(partial, C, chunks, out); });
      float t8 = time([&] { outer_chunks<8><<<g, T>>>(in, R, C, cl, partial, out, chunks); sum_partials<<<unsigned((C + T - 1) / T), T>>>(partial, C, chunks, out); });
      float k1 = time([&] { outer_chunks<4><<<g, T>>>(in, R, C, cl, partial, out, chunks); });
      float f4 = time([&] { outer_fold<4><<<g, T>>>(in, R, C, cl, partial, out, chunks, counters); });
      float f8 = time([&] { outer_fold<8><<<g, T>>>(in, R, C, cl, partial, out, chunks, counters); });
      printf("chunks %3d: two-launch ilp4 %.1f us (%.0f GB/s), ilp8 %.1f (%.0f); first kernel alone %.1f (%.0f); fold ilp4 %.1f (%.0f), ilp8 %.1f (%.0f)\n",
             chunks, t4, bytes / t4 / 1e3, t8, bytes / t8 / 1e3, k1, bytes / k1 / 1e3, f4, bytes / f4 / 1e3, f8, bytes / f8 / 1e3);
    }
  }
  if (R != 8192 || C != 8192) return 0;
  // correctness of fold
  std::vector<float> h(R * C);
  for (int64_t i = 0; i < R * C; ++i) h[i] = float((i * 7) % 13) - 6.f;
  cudaMemcpy(in, h.data(), R * C * 4, cudaMemcpyHostToDevice);
  outer_fold<8><<<dim3(C / T, 32), T>>>(in, R, C, R / 32, partial, out, 32, counters);
  std::vector<float> ho(C); cudaMemcpy(ho.data(), out, C * 4, cudaMemcpyDeviceToHost);
  double maxerr = 0;
  for (int64_t c = 0; c < C; ++c) { double s = 0; for (int64_t r = 0; r < R; ++r) s += h[r * C + c]; maxerr = std::max(maxerr, std::abs(s - ho[c])); }
  printf("fold max err %.3g; %s\n", maxerr, cudaGetErrorString(cudaGetLastError()));
  return 0;
}
