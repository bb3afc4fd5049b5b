#include "ops/reduce.cuh"

namespace gpuarr {
namespace {

// NumPy's accumulator: int64/uint64 for integers and bool, float32 for float16 (stored back
// as float16), the dtype itself otherwise.
template <class T> struct SumAcc { using type = compute_t<T>; };
template <> struct SumAcc<bool> { using type = int64_t; };
template <> struct SumAcc<int8_t> { using type = int64_t; };
template <> struct SumAcc<int16_t> { using type = int64_t; };
template <> struct SumAcc<int32_t> { using type = int64_t; };
template <> struct SumAcc<uint8_t> { using type = uint64_t; };
template <> struct SumAcc<uint16_t> { using type = uint64_t; };
template <> struct SumAcc<uint32_t> { using type = uint64_t; };
template <class T> struct SumOut { using type = T; };
template <> struct SumOut<bool> { using type = int64_t; };
template <> struct SumOut<int8_t> { using type = int64_t; };
template <> struct SumOut<int16_t> { using type = int64_t; };
template <> struct SumOut<int32_t> { using type = int64_t; };
template <> struct SumOut<uint8_t> { using type = uint64_t; };
template <> struct SumOut<uint16_t> { using type = uint64_t; };
template <> struct SumOut<uint32_t> { using type = uint64_t; };

}  // namespace

bool launch_reduce_sums(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                        char* out, int64_t sms, cudaStream_t stream) {
  if (kind != ReduceKind::Sum && kind != ReduceKind::Prod && kind != ReduceKind::NanSum &&
      kind != ReduceKind::NanProd)
    return false;
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = typename SumAcc<T>::type;
    using O = typename SumOut<T>::type;
    constexpr bool inexact = std::is_same_v<T, __half> || std::is_floating_point_v<T> ||
                             std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>;
    switch (kind) {
      case ReduceKind::Sum: return run_reduction<SumOp<A, false>, T, O>(p, in, out, sms, stream);
      case ReduceKind::Prod: return run_reduction<ProdOp<A, false>, T, O>(p, in, out, sms, stream);
      case ReduceKind::NanSum:
        if constexpr (inexact) return run_reduction<SumOp<A, true>, T, O>(p, in, out, sms, stream);
        else return run_reduction<SumOp<A, false>, T, O>(p, in, out, sms, stream);
      default:
        if constexpr (inexact) return run_reduction<ProdOp<A, true>, T, O>(p, in, out, sms, stream);
        else return run_reduction<ProdOp<A, false>, T, O>(p, in, out, sms, stream);
    }
  });
  return true;
}

}  // namespace gpuarr
