// Cumulative sums and products along the last axis of a C-contiguous array: a block per
// row, cub::BlockScan over tiles of the row with the running total carried between tiles.
#include <cub/block/block_scan.cuh>

#include "ops/reduce.cuh"
#include "ops/scan.hpp"

namespace gpuarr {
namespace {

constexpr int kScanThreads = 256;

template <class Op, class In, class Out>
__global__ void scan_rows_kernel(const In* in, Out* out, int64_t rows, int64_t len) {
  using Acc = typename Op::Acc;
  using BlockScan = cub::BlockScan<Acc, kScanThreads>;
  __shared__ typename BlockScan::TempStorage temp;
  __shared__ Acc carry;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    if (threadIdx.x == 0) carry = Op::identity();
    __syncthreads();
    for (int64_t t0 = 0; t0 < len; t0 += kScanThreads) {
      const int64_t j = t0 + threadIdx.x;
      const Acc x = j < len ? Op::map(to_compute(in[row * len + j]), j) : Op::identity();
      Acc incl, tile_total;
      BlockScan(temp).InclusiveScan(x, incl, CombineOp<Op>{}, tile_total);
      const Acc c = carry;
      if (j < len) out[row * len + j] = from_compute<Out>(Op::combine(c, incl));
      __syncthreads();
      if (threadIdx.x == 0) carry = Op::combine(c, tile_total);
      __syncthreads();
    }
  }
}

template <class T> struct ScanAcc { using type = compute_t<T>; };
template <> struct ScanAcc<bool> { using type = int64_t; };
template <> struct ScanAcc<int8_t> { using type = int64_t; };
template <> struct ScanAcc<int16_t> { using type = int64_t; };
template <> struct ScanAcc<int32_t> { using type = int64_t; };
template <> struct ScanAcc<uint8_t> { using type = uint64_t; };
template <> struct ScanAcc<uint16_t> { using type = uint64_t; };
template <> struct ScanAcc<uint32_t> { using type = uint64_t; };

// NumPy's float16 scans round every partial result to float16 (so an overflow to inf, then
// inf * 0 = NaN, happens as in NumPy); the float accumulator alone would stay finite.
template <class Op> struct HalfRounded : Op {
  __device__ static typename Op::Acc combine(typename Op::Acc a, typename Op::Acc b) {
    return __half2float(__float2half_rn(Op::combine(a, b)));
  }
};

}  // namespace

void launch_scan_rows(bool product, bool skip_nan, DType in_type, DType out_type, const char* in,
                      char* out, int64_t rows, int64_t len, cudaStream_t stream) {
  if (rows == 0 || len == 0) return;
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>(rows, 65535 * 8));
  dispatch_dtype(in_type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = typename ScanAcc<T>::type;
    using O = std::conditional_t<std::is_same_v<A, int64_t>, int64_t,
                                 std::conditional_t<std::is_same_v<A, uint64_t>, uint64_t, T>>;
    if (dtype_of<O>() != out_type) throw TypeError("scan: unexpected output dtype");
    constexpr bool inexact = !std::is_integral_v<compute_t<T>>;
    auto run = [&](auto op_tag) {
      using Op = std::conditional_t<std::is_same_v<T, __half>, HalfRounded<decltype(op_tag)>,
                                    decltype(op_tag)>;
      scan_rows_kernel<Op, T, O><<<grid, kScanThreads, 0, stream>>>(
          reinterpret_cast<const T*>(in), reinterpret_cast<O*>(out), rows, len);
      check_launch("scan_rows_kernel");
    };
    if (product) {
      if constexpr (inexact) { if (skip_nan) return run(ProdOp<A, true>{}); }
      run(ProdOp<A, false>{});
    } else {
      if constexpr (inexact) { if (skip_nan) return run(SumOp<A, true>{}); }
      run(SumOp<A, false>{});
    }
  });
}

}  // namespace gpuarr
