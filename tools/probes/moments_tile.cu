// std of 16M float32 in one pass (MomentsOp) took 27.0 us on the H200 against the sum's 21.9
// with the same loop and launch. Where does the difference go? One cooperative launch
// (the library's whole-array form) per variant:
//   - the loop: the library's (four 16-byte loads, then the tile's arithmetic), or the next
//     tile's loads issued before this tile's arithmetic (prefetch);
//   - the tile's arithmetic: the library's (sequential sums of the 16 values and of their
//     squared deviations), or NumPy's pairwise order for 16 values (eight accumulators, then
//     a tree), whose dependent chain is 4 adds deep instead of 16;
//   - 4 or 8 blocks an SM.
// The sum of float32 with the library's loop is the reference, beside the copy of 64 MiB.
// Then the chunks rounded to whole block steps (4096 float32: no element left to the
// one-vector loop after them), and the kernel without block 0's pass over the partials.
// Each variant's std is checked against the host's (float64) to 1e-5.
// H200, us back to back: sum 21.0, prefetched 20.7; std 25.9, prefetched 25.7, pairwise
// tile 25.7, 8 blocks an SM 28.1; chunks of 4096: sum 19.7, std 23.9 (prefetched 24.0);
// without the final pass: sum 20.6, std 23.5 (chunks of 4096: 21.7); the copy 34.7.
// So the loop is not what std pays for: about 2 us goes to the elements after the last
// whole step (Welford updates behind loads that wait one after another), about 2 us to
// the pass over the partials (each merge a reciprocal and int64 conversions, eleven in a
// chain). The library now rounds chunks to whole steps (core reduce_chunk_len).
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/moments_tile.cu -o /tmp/moments_tile && /tmp/moments_tile
#include <cooperative_groups.h>

#include <cmath>
#include <vector>

#include "ops/reduce.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;

__global__ void fill_kernel(float* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    p[i] = float(index_hash(i) % 2000) * 0.01f + 3.0f;
}

// NumPy's pairwise order for a block of 16: eight partial sums, each of two elements, then
// ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)).
template <class C, int K> __device__ __forceinline__ C pairwise16(const C (&v)[K]) {
  static_assert(K == 16);
  C r[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) r[j] = v[j] + v[j + 8];
  return ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
}
struct MomentsTreeOp : MomentsOp<float> {
  template <int K> __device__ Acc combine_tile(const Acc& a, const float (&x)[K]) const {
    const float mean = pairwise16(x) * (1.0f / K);
    float d[K];
#pragma unroll
    for (int i = 0; i < K; ++i) d[i] = (x[i] - mean) * (x[i] - mean);
    return combine(a, Acc{mean, pairwise16(d), K});
  }
};

template <class Op, bool Prefetch>
__device__ __forceinline__ typename Op::Acc accumulate(const Op& op, const float* row,
                                                       int64_t r0, int64_t r1) {
  using Acc = typename Op::Acc;
  using Vec = VecOf<float, 4, 16>;
  const int T = kReduceThreads, t = threadIdx.x;
  const auto* pv = reinterpret_cast<const Vec*>(row + r0);
  const int64_t nv = (r1 - r0) / 4;
  Acc acc = op.identity();
  auto tile = [&](const Vec (&v)[4]) {
    if constexpr (Op::kCombinesTiles) {
      float x[16];
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int j = 0; j < 4; ++j) x[u * 4 + j] = v[u].v[j];
      acc = op.combine_tile(acc, x);
    } else {
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc = op.combine(acc, op.map(v[u].v[j], 0));
    }
  };
  int64_t k = t;
  if constexpr (Prefetch) {
    Vec v[4];
    if (k + 3 * T < nv) {
#pragma unroll
      for (int u = 0; u < 4; ++u) v[u] = pv[k + u * T];
      for (k += 4 * T; k + 3 * T < nv; k += 4 * T) {
        Vec w[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) w[u] = pv[k + u * T];
        tile(v);
#pragma unroll
        for (int u = 0; u < 4; ++u) v[u] = w[u];
      }
      tile(v);
    }
  } else {
    for (; k + 3 * T < nv; k += 4 * T) {
      Vec v[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) v[u] = pv[k + u * T];
      tile(v);
    }
  }
  for (; k < nv; k += T)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc = op.combine(acc, op.map(pv[k].v[j], 0));
  return acc;
}

template <class Op, bool Prefetch, int BlocksPerSm>
__global__ void __launch_bounds__(kReduceThreads, BlocksPerSm)
grid_kernel(const float* in, int64_t n, int64_t chunk_len, typename Op::Acc* partial,
            float* out, int skip_final) {
  using Acc = typename Op::Acc;
  using BlockReduce = cub::BlockReduce<Acc, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  ReduceArgs args{};
  args.params.divisor = double(n);
  args.params.root = true;
  const Op op = op_of<Op>(args);
  const int64_t r0 = blockIdx.x * chunk_len, r1 = min(n, r0 + chunk_len);
  const Acc acc = accumulate<Op, Prefetch>(op, in, r0, r1);
  const Acc total = BlockReduce(temp).Reduce(acc, CombineOp<Op>{op});
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
  cooperative_groups::this_grid().sync();
  if (blockIdx.x != 0) return;
  if (skip_final) {
    if (threadIdx.x == 0) *out = op.template finish<float>(partial[0]);
    return;
  }
  Acc a = op.identity();
  for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x)
    a = op.combine(a, partial[i]);  // the grid barrier orders the stores before
  __syncthreads();
  const Acc t = BlockReduce(temp).Reduce(a, CombineOp<Op>{op});
  if (threadIdx.x == 0) *out = op.template finish<float>(t);
}

template <class Op, bool Prefetch, int BlocksPerSm>
void variant(const char* name, const float* x, int64_t n, int sms, double want,
             int64_t align = 64, int skip_final = 0) {
  using Acc = typename Op::Acc;
  Acc* partial;
  float* out;
  CK(cudaMalloc(&partial, 65536 * sizeof(Acc)));
  CK(cudaMalloc(&out, 16));
  const int64_t chunks0 = int64_t(sms) * BlocksPerSm;
  int64_t chunk_len = std::max<int64_t>(align, ((n + chunks0 - 1) / chunks0 + align - 1) / align * align);
  const unsigned chunks = unsigned((n + chunk_len - 1) / chunk_len);
  const float* xc = x;
  int64_t nn = n;
  auto run = [&] {
    void* params[] = {&xc, &nn, &chunk_len, &partial, &out, &skip_final};
    CK(cudaLaunchCooperativeKernel(
        reinterpret_cast<const void*>(&grid_kernel<Op, Prefetch, BlocksPerSm>), dim3(chunks),
        dim3(kReduceThreads), params, 0, st));
  };
  run();
  CK(cudaStreamSynchronize(st));
  float got;
  CK(cudaMemcpy(&got, out, 4, cudaMemcpyDeviceToHost));
  const double err = skip_final ? 0.0 : std::fabs(got - want) / std::fabs(want);
  printf("%-44s %6.1f / %6.1f us  (one call / back to back)  %u chunks, rel err %.1e%s\n",
         name, 1000 * timed(run, 51), 1000 * queued(run, 200), chunks, err,
         err > 1e-5 ? "  WRONG" : "");
  CK(cudaFree(partial));
  CK(cudaFree(out));
}

int main() {
  CK(cudaStreamCreate(&st));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int64_t n = int64_t(1) << 24;
  double s = 0, s2 = 0, total = 0;
  for (int64_t i = 0; i < n; ++i) total += double(float(index_hash(i) % 2000) * 0.01f + 3.0f);
  const double mean = total / double(n);
  for (int64_t i = 0; i < n; ++i) {
    const double d = double(float(index_hash(i) % 2000) * 0.01f + 3.0f) - mean;
    s += d * d;
  }
  s2 = std::sqrt(s / double(n));
  float* x;
  CK(cudaMalloc(&x, n * 4));
  fill_kernel<<<4096, 256, 0, st>>>(x, n);
  CK(cudaStreamSynchronize(st));
  variant<SumOp<float, false>, false, 4>("sum float32 (library loop)", x, n, sms, total);
  variant<SumOp<float, false>, true, 4>("sum float32, prefetch", x, n, sms, total);
  variant<MomentsOp<float>, false, 4>("std float32 (library)", x, n, sms, s2);
  variant<MomentsOp<float>, true, 4>("std, prefetch", x, n, sms, s2);
  variant<MomentsTreeOp, false, 4>("std, pairwise tile", x, n, sms, s2);
  variant<MomentsOp<float>, false, 8>("std, 8 blocks an SM", x, n, sms, s2);
  // Chunks of whole block tiles (4 vectors of 4 floats a thread): no element left over.
  variant<SumOp<float, false>, false, 4>("sum, chunks of 4096", x, n, sms, total, 4096);
  variant<MomentsOp<float>, false, 4>("std, chunks of 4096", x, n, sms, s2, 4096);
  variant<MomentsOp<float>, true, 4>("std, chunks of 4096, prefetch", x, n, sms, s2, 4096);
  // Without block 0's pass over the partials (the result is block 0's partial only).
  variant<SumOp<float, false>, false, 4>("sum, no final pass", x, n, sms, total, 64, 1);
  variant<MomentsOp<float>, false, 4>("std, no final pass", x, n, sms, s2, 64, 1);
  variant<MomentsOp<float>, false, 4>("std, chunks of 4096, no final pass", x, n, sms, s2,
                                      4096, 1);
  char* dst;
  CK(cudaMalloc(&dst, n * 4));
  auto copy = [&] { CK(cudaMemcpyAsync(dst, x, n * 4, cudaMemcpyDeviceToDevice, st)); };
  printf("%-40s %6.1f / %6.1f us (64 MiB read and written)\n", "copy", 1000 * timed(copy, 51),
         1000 * queued(copy, 200));
  return 0;
}
