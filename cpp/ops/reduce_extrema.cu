#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_extrema(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                           char* out, int64_t sms, cudaStream_t stream) {
  if (kind != ReduceKind::Max && kind != ReduceKind::Min && kind != ReduceKind::NanMax &&
      kind != ReduceKind::NanMin)
    return false;
  run_extremum_family<ExtremumOp, false>(kind == ReduceKind::Max || kind == ReduceKind::NanMax,
                                         kind == ReduceKind::NanMax || kind == ReduceKind::NanMin,
                                         dtype, p, in, out, sms, stream);
  return true;
}

}  // namespace gpuarr
