// Whole-array sums of 16M float32 / float64 (one output, the reduced range split into
// chunks, then the partials pass): the library's kernels (`reduce_inner_kernel`,
// cpp/ops/reduce.cuh) at several chunk counts, against a kernel that takes only the
// contiguous path at 4 and at 8 blocks an SM (`__launch_bounds__`), and cub::DeviceReduce::Sum
// (what CuPy runs). The planner asks for 8 blocks of 256 an SM (reduction_plan.cpp); the
// library's kernel holds 64 registers, so 4 fit. Median GPU time. Build and run on the GPU
// machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/reduce_blocks.cu -o /tmp/reduce_blocks && /tmp/reduce_blocks
#include <cub/device/device_reduce.cuh>

#include "ops/reduce.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;

template <class T>
__global__ void fill_kernel(T* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u;
    h ^= h >> 13;
    p[i] = T(h % 2000000) / T(1e6) - T(1);
  }
}

// Only the contiguous path of reduce_inner_kernel (one output).
template <class T, int kMinBlocks>
__global__ void __launch_bounds__(kReduceThreads, kMinBlocks)
contiguous_sum_kernel(const T* in, int64_t n, int64_t chunk_len, T* partial) {
  using Op = SumOp<T, false>;
  using BlockReduce = cub::BlockReduce<T, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  const Op op{};
  const int64_t r0 = blockIdx.x * chunk_len;
  const int64_t r1 = min(n, r0 + chunk_len);
  const T acc = accumulate_contiguous<Op, T, false, kReduceThreads>(op, in, r0, r1, threadIdx.x, 0);
  const T total = BlockReduce(temp).Reduce(acc, CombineOp<Op>{op});
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

template <class T>
ReduceArgs args_for(const T* in, int64_t n, int64_t chunks) {
  ReduceArgs a{};
  a.in = reinterpret_cast<const char*>(in);
  a.nk = 0;
  a.nr = 1;
  a.rshape[0] = n;
  a.rstride[0] = sizeof(T);
  a.n_out = 1;
  a.n_reduce = n;
  a.contiguous_reduce = true;
  a.chunk_len = std::max<int64_t>(64, ((n + chunks - 1) / chunks + 63) / 64 * 64);
  a.chunks = (n + a.chunk_len - 1) / a.chunk_len;
  return a;
}

template <class T>
ReduceArgs partials_args(const T* partial, int64_t chunks) {
  ReduceArgs b{};
  b.in = reinterpret_cast<const char*>(partial);
  b.nk = 1;
  b.nr = 1;
  b.kshape[0] = 1;
  b.kstride[0] = int64_t(sizeof(T)) * chunks;
  b.rshape[0] = chunks;
  b.rstride[0] = sizeof(T);
  b.n_out = 1;
  b.n_reduce = chunks;
  b.chunks = 1;
  b.chunk_len = chunks;
  b.contiguous_reduce = true;
  return b;
}

template <class T>
void rows(const char* name, int64_t n, int sms) {
  using Op = SumOp<T, false>;
  T *x, *partial, *out;
  CK(cudaMalloc(&x, n * sizeof(T)));
  CK(cudaMalloc(&partial, 65536 * sizeof(T)));
  CK(cudaMalloc(&out, 16));
  fill_kernel<T><<<4096, 256, 0, st>>>(x, n);
  printf("%s, %lld elements (%.1f MB):\n", name, (long long)n, n * sizeof(T) / 1e6);
  for (int per_sm : {4, 8, 16, 32}) {
    const ReduceArgs a = args_for(x, n, int64_t(sms) * per_sm);
    const ReduceArgs b = partials_args(partial, a.chunks);
    const float lib = 1000 * timed([&] {
      reduce_inner_kernel<Op, T, T, false><<<dim3(1, unsigned(a.chunks)), kReduceThreads, 0, st>>>(
          a, reinterpret_cast<char*>(out), partial);
      reduce_inner_kernel<Op, T, T, true><<<1, kReduceThreads, 0, st>>>(
          b, reinterpret_cast<char*>(out), nullptr);
    }, 51);
    auto contiguous = [&](auto min_blocks) {
      constexpr int kMin = decltype(min_blocks)::value;
      return 1000 * timed([&] {
        contiguous_sum_kernel<T, kMin><<<unsigned(a.chunks), kReduceThreads, 0, st>>>(
            x, n, a.chunk_len, partial);
        reduce_inner_kernel<Op, T, T, true><<<1, kReduceThreads, 0, st>>>(
            b, reinterpret_cast<char*>(out), nullptr);
      }, 51);
    };
    const float c4 = contiguous(std::integral_constant<int, 4>{});
    const float c8 = contiguous(std::integral_constant<int, 8>{});
    CK(cudaGetLastError());
    printf("  %2d blocks/SM (%5lld): library %6.1f us   contiguous-only lb4 %6.1f   lb8 %6.1f\n",
           per_sm, (long long)a.chunks, lib, c4, c8);
  }
  size_t bytes = 0;
  CK(cub::DeviceReduce::Sum(nullptr, bytes, x, out, n, st));
  void* tmp;
  CK(cudaMalloc(&tmp, bytes));
  const float cubt = 1000 * timed([&] { cub::DeviceReduce::Sum(tmp, bytes, x, out, n, st); }, 51);
  printf("  cub::DeviceReduce::Sum %6.1f us   (%.0f GB/s)\n", cubt, n * sizeof(T) / cubt / 1e3);
  CK(cudaFree(tmp));
  CK(cudaFree(x));
  CK(cudaFree(partial));
  CK(cudaFree(out));
}

int main() {
  CK(cudaStreamCreate(&st));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  rows<float>("sum float32", int64_t(1) << 24, sms);
  rows<double>("sum float64", int64_t(1) << 24, sms);
  rows<float>("sum float32", int64_t(1) << 26, sms);
  return 0;
}
