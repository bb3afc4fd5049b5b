#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_logical(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                           char* out, cudaStream_t stream) {
  if (kind != ReduceKind::All && kind != ReduceKind::Any) return false;
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (kind == ReduceKind::All) return run_reduction<LogicalOp<true>, T, bool>(p, in, out, stream);
    return run_reduction<LogicalOp<false>, T, bool>(p, in, out, stream);
  });
  return true;
}

}  // namespace gpuarr
