#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_args(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                        char* out, int64_t sms, cudaStream_t stream) {
  if (kind != ReduceKind::ArgMax && kind != ReduceKind::ArgMin &&
      kind != ReduceKind::NanArgMax && kind != ReduceKind::NanArgMin)
    return false;
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    constexpr bool inexact = !std::is_integral_v<C>;
    switch (kind) {
      case ReduceKind::ArgMax: return run_reduction<ArgOp<C, true, false>, T, int64_t>(p, in, out, sms, stream);
      case ReduceKind::ArgMin: return run_reduction<ArgOp<C, false, false>, T, int64_t>(p, in, out, sms, stream);
      case ReduceKind::NanArgMax:
        if constexpr (inexact) return run_reduction<ArgOp<C, true, true>, T, int64_t>(p, in, out, sms, stream);
        else return run_reduction<ArgOp<C, true, false>, T, int64_t>(p, in, out, sms, stream);
      default:
        if constexpr (inexact) return run_reduction<ArgOp<C, false, true>, T, int64_t>(p, in, out, sms, stream);
        else return run_reduction<ArgOp<C, false, false>, T, int64_t>(p, in, out, sms, stream);
    }
  });
  return true;
}

}  // namespace gpuarr
