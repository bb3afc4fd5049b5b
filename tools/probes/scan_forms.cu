// 1-d cumulative sums of 16M elements, one call at a time: the library's form of
// cub::DeviceScan (input through a transform iterator over a counting iterator that maps
// each element and folds in a piece's carry, output through a transform output iterator;
// cpp/ops/scan.cu) against plain pointers (cub::DeviceScan::InclusiveSum, float32 ->
// float32) and a plain cast iterator (int32 -> int64, NumPy's accumulator); a
// device-to-device copy of the same bytes for the bandwidth. Median GPU time of calls
// timed one by one (the surface sweep's calls run back to back, and there the library's
// form was not slower: docs/decisions.md). Build and run on the GPU machine, from the
// repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/scan_forms.cu -o /tmp/scan_forms && /tmp/scan_forms
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include "ops/reduce.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;

template <class Op, class In, class Out> struct PieceLoad {
  Op op;
  const In* in;
  const Out* carry;
  __device__ typename Op::Acc operator()(uint32_t j) const {
    typename Op::Acc x = op.map(to_compute(in[j]), j);
    if (carry != nullptr && j == 0)
      x = op.combine(acc_convert<typename Op::Acc>(to_compute(*carry)), x);
    return x;
  }
};
template <class Out> struct Store {
  template <class Acc> __device__ Out operator()(const Acc& a) const { return from_compute<Out>(a); }
};
template <class Out> struct Cast {
  template <class In> __device__ Out operator()(const In& a) const { return Out(a); }
};

template <class T>
__global__ void fill_kernel(T* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    p[i] = T((uint32_t(i) * 2654435761u) % 7) - T(3);
}

template <class In, class Out>
void run(const char* name, int64_t n) {
  In* x;
  Out* y;
  CK(cudaMalloc(&x, n * sizeof(In)));
  CK(cudaMalloc(&y, n * sizeof(Out)));
  fill_kernel<In><<<4096, 256, 0, st>>>(x, n);
  using Op = SumOp<Out, false>;
  using InIt = thrust::transform_iterator<PieceLoad<Op, In, Out>, thrust::counting_iterator<uint32_t>>;
  using OutIt = thrust::transform_output_iterator<Store<Out>, Out*>;
  const InIt lib_in(thrust::counting_iterator<uint32_t>(0), PieceLoad<Op, In, Out>{Op{}, x, nullptr});
  const OutIt lib_out(y, Store<Out>{});
  const auto cast_in = thrust::make_transform_iterator(x, Cast<Out>{});
  size_t b1 = 0, b2 = 0, b3 = 0;
  CK(cub::DeviceScan::InclusiveScan(nullptr, b1, lib_in, lib_out, CombineOp<Op>{Op{}}, uint32_t(n), st));
  CK(cub::DeviceScan::InclusiveSum(nullptr, b2, cast_in, y, uint32_t(n), st));
  void* tmp;
  CK(cudaMalloc(&tmp, std::max({b1, b2, b3, size_t(16)})));
  const float lib = 1000 * timed([&] {
    size_t b = b1;
    cub::DeviceScan::InclusiveScan(tmp, b, lib_in, lib_out, CombineOp<Op>{Op{}}, uint32_t(n), st);
  }, 51);
  const float cast = 1000 * timed([&] {
    size_t b = b2;
    cub::DeviceScan::InclusiveSum(tmp, b, cast_in, y, uint32_t(n), st);
  }, 51);
  float plain = 0;
  if constexpr (std::is_same_v<In, Out>) {
    size_t b = 0;
    CK(cub::DeviceScan::InclusiveSum(nullptr, b, x, y, uint32_t(n), st));
    void* t2;
    CK(cudaMalloc(&t2, std::max(b, size_t(16))));
    plain = 1000 * timed([&] {
      size_t bb = b;
      cub::DeviceScan::InclusiveSum(t2, bb, x, y, uint32_t(n), st);
    }, 51);
    CK(cudaFree(t2));
  }
  const double bytes = double(n) * (sizeof(In) + sizeof(Out));
  const float copy = 1000 * timed([&] {
    cudaMemcpyAsync(y, reinterpret_cast<const char*>(x), n * sizeof(In), cudaMemcpyDeviceToDevice, st);
    if (sizeof(Out) > sizeof(In))
      cudaMemcpyAsync(reinterpret_cast<char*>(y) + n * sizeof(In), reinterpret_cast<const char*>(x),
                      n * (sizeof(Out) - sizeof(In)), cudaMemcpyDeviceToDevice, st);
  }, 51);
  printf("%s, %lld elements (%.0f MB read + written): library form %.1f us (%.0f GB/s)   "
         "cast iterator %.1f   plain pointers %.1f   copy of the bytes %.1f (%.0f GB/s)\n",
         name, (long long)n, bytes / 1e6, lib, bytes / lib / 1e3, cast, plain, copy,
         bytes / copy / 1e3);
  CK(cudaFree(tmp));
  CK(cudaFree(x));
  CK(cudaFree(y));
}

int main() {
  CK(cudaStreamCreate(&st));
  run<float, float>("cumsum float32", int64_t(1) << 24);
  run<double, double>("cumsum float64", int64_t(1) << 24);
  run<int32_t, int64_t>("cumsum int32 -> int64", int64_t(1) << 24);
  run<int64_t, int64_t>("cumsum int64", int64_t(1) << 24);
  run<float, float>("cumsum float32", int64_t(1) << 26);
  return 0;
}
