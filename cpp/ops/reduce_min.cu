#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_min(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                       char* out, int64_t sms, cudaStream_t stream) {
  if (kind != ReduceKind::Min && kind != ReduceKind::NanMin) return false;
  run_extremum_family<ExtremumOp, false, false>(kind == ReduceKind::NanMin, dtype, p, in, out, sms,
                                                stream);
  return true;
}

}  // namespace gpuarr
