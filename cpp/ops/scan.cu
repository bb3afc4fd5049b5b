// Cumulative sums and products along the last axis of a C-contiguous array. Many rows: a
// block per row, cub::BlockScan over tiles of the row with the running total carried
// between tiles. Few long rows (core/scan_plan.hpp): cub::DeviceScan over each row, reading
// through the op's map and writing through from_compute, with the tiles of
// ops/scan_policy.cuh.
#include <cub/block/block_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include "core/errors.hpp"
#include "core/scan_plan.hpp"
#include "runtime/cuda_check.hpp"
#include "ops/reduce.cuh"
#include "ops/scan.hpp"
#include "ops/scan_iterators.cuh"
#include "ops/scan_policy.cuh"

namespace gpuarr {
namespace {

constexpr int kScanThreads = 256;

template <class Op, class In, class Out>
__global__ void scan_rows_kernel(Op op, const In* in, Out* out, int64_t rows, int64_t len) {
  using Acc = typename Op::Acc;
  using BlockScan = cub::BlockScan<Acc, kScanThreads>;
  __shared__ typename BlockScan::TempStorage temp;
  __shared__ Acc carry;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    if (threadIdx.x == 0) carry = op.identity();
    __syncthreads();
    for (int64_t t0 = 0; t0 < len; t0 += kScanThreads) {
      const int64_t j = t0 + threadIdx.x;
      const Acc x = j < len ? op.map(to_compute(in[row * len + j]), j) : op.identity();
      Acc incl, tile_total;
      BlockScan(temp).InclusiveScan(x, incl, CombineOp<Op>{op}, tile_total);
      const Acc c = carry;
      if (j < len) out[row * len + j] = from_compute<Out>(op.combine(c, incl));
      __syncthreads();
      if (threadIdx.x == 0) carry = op.combine(c, tile_total);
      __syncthreads();
    }
  }
}

// NumPy's float16 scans round every partial result to float16 (so an overflow to inf, then
// inf * 0 = NaN, happens as in NumPy); the float accumulator alone would stay finite.
template <class Op> struct HalfRounded : Op {
  __device__ typename Op::Acc combine(typename Op::Acc a, typename Op::Acc b) const {
    return __half2float(__float2half_rn(Op::combine(a, b)));
  }
};

// A sum or product op with another accumulator type.
template <class Op, class A> struct WithAccOf;
template <class A0, bool S, class A> struct WithAccOf<SumOp<A0, S>, A> {
  using type = SumOp<A, S>;
};
template <class A0, bool S, class A> struct WithAccOf<ProdOp<A0, S>, A> {
  using type = ProdOp<A, S>;
};
template <class Op, class A> using WithAcc = typename WithAccOf<Op, A>::type;

// One cub::DeviceScan per row (per piece of 2^30 elements for longer rows), all on `stream`
// with one scratch allocation sized for the longest piece.
template <class Op, class In, class Out>
void device_scan_rows(const Op& op, const In* in, Out* out, int64_t rows, int64_t len,
                      cudaStream_t stream) {
  using Load = ScanPieceLoad<Op, In, Out>;
  using InIt = thrust::transform_iterator<Load, thrust::counting_iterator<uint32_t>>;
  using OutIt = thrust::transform_output_iterator<ScanStore<Out>, Out*>;
  auto scan = [&](void* tmp, size_t& bytes, const In* src, const Out* carry, Out* dst, int64_t n) {
    check_cuda(inclusive_scan_with<ScanTilePolicy<typename Op::Acc>>(
                   tmp, bytes, InIt(thrust::counting_iterator<uint32_t>(0), Load{op, src, carry}),
                   OutIt(dst, ScanStore<Out>{}), CombineOp<Op>{op}, static_cast<uint32_t>(n), stream),
               "cub::DispatchScan::Dispatch");
  };
  const int64_t max_piece = std::min(len, kScanMaxPiece);
  size_t bytes = 0;
  scan(nullptr, bytes, in, nullptr, out, max_piece);
  // CUB rejects a null temp pointer on the second call even when it asked for zero bytes.
  auto tmp = allocate_device_memory(bytes > 0 ? bytes : 1);
  const int64_t pieces = scan_piece_count(len);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t p = 0; p < pieces; ++p) {
      const int64_t start = r * len + p * kScanMaxPiece;
      const int64_t n = std::min(kScanMaxPiece, len - p * kScanMaxPiece);
      size_t piece_bytes = bytes;
      scan(tmp->ptr(), piece_bytes, in + start, p ? out + start - 1 : nullptr, out + start, n);
    }
  }
}

}  // namespace

void launch_scan_rows(bool product, bool skip_nan, DType in_type, DType out_type, const char* in,
                      char* out, int64_t rows, int64_t len, cudaStream_t stream) {
  if (rows == 0 || len == 0) return;
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>(rows, 65535 * 8));
  dispatch_dtype(in_type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = typename SumAcc<T>::type;  // NumPy's accumulator and result, as for sums
    using O = typename SumOut<T>::type;
    if (dtype_of<O>() != out_type) throw TypeError("scan: unexpected output dtype");
    auto run = [&](auto op_tag) {
      using Op = std::conditional_t<std::is_same_v<T, __half>, HalfRounded<decltype(op_tag)>,
                                    decltype(op_tag)>;
      const Op op{};
      const T* src = reinterpret_cast<const T*>(in);
      O* dst = reinterpret_cast<O*>(out);
      if (choose_scan_path(rows, len) == ScanPath::DeviceWidePerRow) {
        if constexpr (std::is_same_v<T, bool>) {
          // 4-byte partials: cumsum of 16M bool 67 -> 56 us on the H200 (docs/decisions.md).
          if (bool_scan_fits_int32(len))
            return device_scan_rows<WithAcc<Op, int32_t>, T, O>({}, src, dst, rows, len, stream);
        }
        return device_scan_rows<Op, T, O>(op, src, dst, rows, len, stream);
      }
      scan_rows_kernel<Op, T, O><<<grid, kScanThreads, 0, stream>>>(op, src, dst, rows, len);
      check_launch("scan_rows_kernel");
    };
    constexpr bool inexact = !std::is_integral_v<compute_t<T>>;
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
