#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_min(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                       char* out, cudaStream_t stream) {
  if (kind != ReduceKind::Min && kind != ReduceKind::NanMin) return false;
  run_extremum_family<ExtremumOp, false, false>(kind == ReduceKind::NanMin, dtype, p, in, out,
                                                stream);
  return true;
}

}  // namespace gpuarr
