// Whole-array sums of 16M float32 / float64 (one output, the reduced range split into
// chunks, then the partials pass): the library's kernels (`reduce_inner_kernel`,
// cpp/ops/reduce.cuh) at several chunk counts, against a kernel that takes only the
// contiguous path at 4 and at 8 blocks an SM (`__launch_bounds__`), and cub::DeviceReduce::Sum
// (what CuPy runs). The library's kernel holds 64 registers, so 4 blocks of 256 fit an SM.
// Then sums and a max along axis 1 of rows of 32 to 4096 elements: the library's kernel a
// block a row and a group of lanes a row (reduce_lanes_per_output's count), against a block
// a row on the contiguous path alone (4 and 8 blocks an SM), a warp a row, and
// cub::DeviceSegmentedReduce. Median GPU time. Build and run on the GPU
// machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/reduce_blocks.cu cpp/core/reduction_plan.cpp cpp/core/layout.cpp \
//        -o /tmp/reduce_blocks && /tmp/reduce_blocks
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

#include <vector>

#include "ops/reduce.cuh"
#include "probe_reduce_args.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;

template <class T>
__global__ void fill_kernel(T* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    p[i] = T(index_hash(i) % 2000000) / T(1e6) - T(1);
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
  const T acc = accumulate_contiguous<Op, T, false>(op, in, r0, r1, threadIdx.x, kReduceThreads, 0);
  const T total = BlockReduce(temp).Reduce(acc, CombineOp<Op>{op});
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

// A block a row of n contiguous elements, only the contiguous path.
template <class Op, class T, int kMinBlocks>
__global__ void __launch_bounds__(kReduceThreads, kMinBlocks)
contiguous_rows_kernel(const T* in, int64_t n, T* out) {
  using Acc = typename Op::Acc;
  using BlockReduce = cub::BlockReduce<Acc, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  const Op op{};
  const Acc acc = accumulate_contiguous<Op, T, false>(op, in + blockIdx.x * n, 0, n, threadIdx.x,
                                                      kReduceThreads, 0);
  const Acc total = BlockReduce(temp).Reduce(acc, CombineOp<Op>{op});
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// A warp a row of n contiguous elements: 8 rows a block.
template <class Op, class T>
__global__ void __launch_bounds__(kReduceThreads)
warp_rows_kernel(const T* in, int64_t rows, int64_t n, T* out) {
  using Acc = typename Op::Acc;
  using WarpReduce = cub::WarpReduce<Acc>;
  __shared__ typename WarpReduce::TempStorage temp[kReduceThreads / 32];
  const Op op{};
  const int w = threadIdx.x / 32;
  const int64_t r = blockIdx.x * int64_t(kReduceThreads / 32) + w;
  if (r >= rows) return;
  const Acc acc = accumulate_contiguous<Op, T, false>(op, in + r * n, 0, n, threadIdx.x % 32, 32, 0);
  const Acc total = WarpReduce(temp[w]).Reduce(acc, CombineOp<Op>{op});
  if (threadIdx.x % 32 == 0) out[r] = total;
}

// init: the op's identity, given from the host (Op::identity is device code).
template <class Op, class T>
void axis1_rows(const char* name, int64_t rows, int64_t n, T init) {
  T *x, *out;
  int64_t* offsets;
  CK(cudaMalloc(&x, rows * n * sizeof(T)));
  CK(cudaMalloc(&out, rows * sizeof(T)));
  CK(cudaMalloc(&offsets, (rows + 1) * sizeof(int64_t)));
  std::vector<int64_t> h(rows + 1);
  for (int64_t i = 0; i <= rows; ++i) h[i] = i * n;
  CK(cudaMemcpy(offsets, h.data(), h.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
  fill_kernel<T><<<4096, 256, 0, st>>>(x, rows * n);
  ReduceArgs a{};
  a.in = reinterpret_cast<const char*>(x);
  a.nk = 1;
  a.nr = 1;
  a.kshape[0] = rows;
  a.kstride[0] = n * sizeof(T);
  a.rshape[0] = n;
  a.rstride[0] = sizeof(T);
  a.n_out = rows;
  a.n_reduce = n;
  a.chunks = 1;
  a.chunk_len = n;
  a.contiguous_reduce = true;
  const float lib = 1000 * timed([&] {
    reduce_inner_kernel<Op, T, T, false><<<dim3(unsigned(rows), 1), kReduceThreads, 0, st>>>(
        a, reinterpret_cast<char*>(out), nullptr);
  }, 51);
  ReduceArgs g = a;
  g.lanes_per_output = reduce_lanes_per_output(n, sizeof(T), kReduceLoads<typename Op::Acc, T>);
  const int64_t per_block = kReduceWarps * (32 / g.lanes_per_output);
  const float lanes = 1000 * timed([&] {
    reduce_inner_kernel<Op, T, T, false>
        <<<dim3(unsigned((rows + per_block - 1) / per_block), 1), kReduceThreads, 0, st>>>(
            g, reinterpret_cast<char*>(out), nullptr);
  }, 51);
  const float c4 = 1000 * timed([&] {
    contiguous_rows_kernel<Op, T, 4><<<unsigned(rows), kReduceThreads, 0, st>>>(x, n, out);
  }, 51);
  const float c8 = 1000 * timed([&] {
    contiguous_rows_kernel<Op, T, 8><<<unsigned(rows), kReduceThreads, 0, st>>>(x, n, out);
  }, 51);
  const float warp = 1000 * timed([&] {
    warp_rows_kernel<Op, T><<<unsigned((rows + 7) / 8), kReduceThreads, 0, st>>>(x, rows, n, out);
  }, 51);
  size_t bytes = 0;
  CK(cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, x, out, rows, offsets, offsets + 1,
                                        CombineOp<Op>{Op{}}, init, st));
  void* tmp;
  CK(cudaMalloc(&tmp, bytes + 1));
  const float cubt = 1000 * timed([&] {
    cub::DeviceSegmentedReduce::Reduce(tmp, bytes, x, out, rows, offsets, offsets + 1,
                                       CombineOp<Op>{Op{}}, init, st);
  }, 51);
  CK(cudaGetLastError());
  printf("%s %lldx%lld axis=1: block a row %6.1f us   %d lanes a row %6.1f   contiguous-only "
         "lb4 %6.1f   lb8 %6.1f   warp a row %6.1f   cub segmented %6.1f\n",
         name, (long long)rows, (long long)n, lib, g.lanes_per_output, lanes, c4, c8, warp, cubt);
  CK(cudaFree(tmp));
  CK(cudaFree(x));
  CK(cudaFree(out));
  CK(cudaFree(offsets));
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
    const ReduceArgs a = whole_array_args(x, n, int64_t(sms) * per_sm);
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
  setvbuf(stdout, nullptr, _IONBF, 0);
  CK(cudaStreamCreate(&st));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  rows<float>("sum float32", int64_t(1) << 24, sms);
  rows<double>("sum float64", int64_t(1) << 24, sms);
  rows<float>("sum float32", int64_t(1) << 26, sms);
  axis1_rows<SumOp<float, false>, float>("sum float32", 4096, 4096, 0.0f);
  axis1_rows<SumOp<double, false>, double>("sum float64", 4096, 4096, 0.0);
  axis1_rows<ExtremumOp<double, true, false>, double>("max float64", 4096, 4096, -HUGE_VAL);
  axis1_rows<SumOp<float, false>, float>("sum float32", 16384, 1024, 0.0f);
  axis1_rows<SumOp<float, false>, float>("sum float32", 65536, 256, 0.0f);
  axis1_rows<SumOp<float, false>, float>("sum float32", 262144, 32, 0.0f);
  return 0;
}
