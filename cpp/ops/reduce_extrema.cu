#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_extrema(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                           char* out, int64_t sms, cudaStream_t stream) {
  if (kind != ReduceKind::Max && kind != ReduceKind::Min && kind != ReduceKind::NanMax &&
      kind != ReduceKind::NanMin)
    return false;
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    constexpr bool inexact = !std::is_integral_v<C>;
    switch (kind) {
      case ReduceKind::Max: return run_reduction<ExtremumOp<C, true, false>, T, T>(p, in, out, sms, stream);
      case ReduceKind::Min: return run_reduction<ExtremumOp<C, false, false>, T, T>(p, in, out, sms, stream);
      case ReduceKind::NanMax:
        if constexpr (inexact) return run_reduction<ExtremumOp<C, true, true>, T, T>(p, in, out, sms, stream);
        else return run_reduction<ExtremumOp<C, true, false>, T, T>(p, in, out, sms, stream);
      default:
        if constexpr (inexact) return run_reduction<ExtremumOp<C, false, true>, T, T>(p, in, out, sms, stream);
        else return run_reduction<ExtremumOp<C, false, false>, T, T>(p, in, out, sms, stream);
    }
  });
  return true;
}

}  // namespace gpuarr
