// 1-d cumulative sums of 16M and 64M elements: the library's form of cub::DeviceScan (input
// through a transform iterator over a counting iterator that maps each element and folds in
// a piece's carry, output through a transform output iterator: ops/scan_iterators.cuh) with
// the library's tiles (ops/scan_policy.cuh, 128 x 32) and others, with CUB's untuned default
// tiles (what CUB picks for an operator it does not know), and CUB's own sum of a cast
// iterator (its tuned policy for plus), beside a device-to-device copy of the same bytes.
// Each timed one call at a time (median GPU time) and back to back (20 calls queued between
// two events, as the surface sweep's loop runs them), in rounds whose order alternates.
// Build and run on the GPU machine, from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -Icpp -Icpp/include \
//        tools/probes/scan_forms.cu -o /tmp/scan_forms && /tmp/scan_forms
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include "ops/reduce.cuh"
#include "ops/scan_iterators.cuh"
#include "ops/scan_policy.cuh"
#include "probe_timing.cuh"

using namespace gpuarr;

template <class Out> struct Cast {
  template <class In> __device__ Out operator()(const In& a) const { return Out(a); }
};

template <class T>
__global__ void fill_kernel(T* p, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    p[i] = T((uint32_t(i) * 2654435761u) % 7) - T(3);
}

// The library's iterators and operator through cub::DispatchScan with other tiles than
// the library's (ops/scan_policy.cuh).
template <int Threads, int Items, class InIt, class OutIt, class ScanOp>
struct TunedScan {
  using Acc = typename std::iterator_traits<InIt>::value_type;
  static cudaError_t call(void* tmp, size_t& bytes, InIt in, OutIt out, ScanOp op, uint32_t n) {
    return inclusive_scan_with<ScanTilePolicy<Acc, Threads, Items>>(
        tmp, bytes, in, out, op, n, st);
  }
};

// `Acc` is the scan's accumulator: the output type, or int32 for a bool input of at most
// 2^31 - 1 elements, whose every partial sum fits.
template <class In, class Out, class Acc = Out>
void run(const char* name, int64_t n) {
  In* x;
  Out* y;
  CK(cudaMalloc(&x, n * sizeof(In)));
  CK(cudaMalloc(&y, n * sizeof(Out)));
  fill_kernel<In><<<4096, 256, 0, st>>>(x, n);
  using Op = SumOp<Acc, false>;
  using InIt = thrust::transform_iterator<ScanPieceLoad<Op, In, Out>, thrust::counting_iterator<uint32_t>>;
  using OutIt = thrust::transform_output_iterator<ScanStore<Out>, Out*>;
  const InIt lib_in(thrust::counting_iterator<uint32_t>(0), ScanPieceLoad<Op, In, Out>{Op{}, x, nullptr});
  const OutIt lib_out(y, ScanStore<Out>{});
  const auto cast_in = thrust::make_transform_iterator(x, Cast<Out>{});
  size_t b1 = 0, b2 = 0;
  CK(cub::DeviceScan::InclusiveScan(nullptr, b1, lib_in, lib_out, CombineOp<Op>{Op{}}, uint32_t(n), st));
  CK(cub::DeviceScan::InclusiveSum(nullptr, b2, cast_in, y, uint32_t(n), st));
  using Comb = CombineOp<Op>;
  // CUB's sm_90 tuning of float plus (128 x 24), and larger tiles.
  using T128x24 = TunedScan<128, 24, InIt, OutIt, Comb>;
  using T128x32 = TunedScan<128, 32, InIt, OutIt, Comb>;
  using T128x48 = TunedScan<128, 48, InIt, OutIt, Comb>;
  using T128x64 = TunedScan<128, 64, InIt, OutIt, Comb>;
  using T192x32 = TunedScan<192, 32, InIt, OutIt, Comb>;
  using T256x32 = TunedScan<256, 32, InIt, OutIt, Comb>;
  size_t tb = 0;
  for (auto q : {&T128x24::call, &T128x32::call, &T128x48::call, &T128x64::call, &T192x32::call,
                 &T256x32::call}) {
    size_t b = 0;
    CK(q(nullptr, b, lib_in, lib_out, Comb{Op{}}, uint32_t(n)));
    tb = std::max(tb, b);
  }
  void *tmp1, *tmp2, *tmp3;
  CK(cudaMalloc(&tmp1, std::max(b1, size_t(16))));
  CK(cudaMalloc(&tmp2, std::max(b2, size_t(16))));
  CK(cudaMalloc(&tmp3, std::max(tb, size_t(16))));
  auto tuned = [&](auto q) {
    return [&, q] {
      size_t b = tb;
      q(tmp3, b, lib_in, lib_out, Comb{Op{}}, uint32_t(n));
    };
  };
  std::vector<std::pair<const char*, std::function<void()>>> forms = {
      {"tiles 128x24", tuned(&T128x24::call)},
      {"tiles 128x32", tuned(&T128x32::call)},
      {"tiles 128x48", tuned(&T128x48::call)},
      {"tiles 128x64", tuned(&T128x64::call)},
      {"tiles 192x32", tuned(&T192x32::call)},
      {"tiles 256x32", tuned(&T256x32::call)},
      {"CUB default tiles", [&] {
         size_t b = b1;
         cub::DeviceScan::InclusiveScan(tmp1, b, lib_in, lib_out, CombineOp<Op>{Op{}}, uint32_t(n), st);
       }},
      {"CUB sum of a cast", [&] {
         size_t b = b2;
         cub::DeviceScan::InclusiveSum(tmp2, b, cast_in, y, uint32_t(n), st);
       }},
      {"copy of the bytes", [&] {
         cudaMemcpyAsync(y, reinterpret_cast<const char*>(x), n * sizeof(In), cudaMemcpyDeviceToDevice, st);
         if (sizeof(Out) > sizeof(In))  // the rest of the output's bytes written only
           cudaMemsetAsync(reinterpret_cast<char*>(y) + n * sizeof(In), 0, n * (sizeof(Out) - sizeof(In)), st);
       }}};
  // Five rounds, the forms' order reversed every other round (a form timed first does not
  // get the GPU's clocks or caches in a state of its own); medians over the rounds.
  const size_t k = forms.size();
  std::vector<std::vector<float>> one(k), loop(k);
  for (auto& f : forms) queued(f.second, 3);
  for (int round = 0; round < 5; ++round) {
    for (size_t j = 0; j < k; ++j) {
      const size_t i = round % 2 ? k - 1 - j : j;
      one[i].push_back(1000 * timed(forms[i].second, 11));
      loop[i].push_back(1000 * queued(forms[i].second, 20));
    }
  }
  const double bytes = double(n) * (sizeof(In) + sizeof(Out));
  printf("%s, %lld elements (%.0f MB read + written), us: one call at a time / back to back\n",
         name, (long long)n, bytes / 1e6);
  for (size_t i = 0; i < k; ++i) {
    std::sort(one[i].begin(), one[i].end());
    std::sort(loop[i].begin(), loop[i].end());
    printf("  %-20s %7.1f / %7.1f  (%.0f GB/s back to back)\n", forms[i].first, one[i][2],
           loop[i][2], bytes / loop[i][2] / 1e3);
  }
  CK(cudaFree(tmp1));
  CK(cudaFree(tmp2));
  CK(cudaFree(tmp3));
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
  run<bool, int64_t>("cumsum bool -> int64", int64_t(1) << 24);
  run<bool, int64_t, int32_t>("cumsum bool -> int64, int32 partials", int64_t(1) << 24);
  run<int8_t, int64_t>("cumsum int8 -> int64", int64_t(1) << 24);
  return 0;
}
