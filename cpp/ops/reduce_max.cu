#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_max(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                       char* out, cudaStream_t stream) {
  if (kind != ReduceKind::Max && kind != ReduceKind::NanMax) return false;
  run_extremum_family<ExtremumOp, false, true>(kind == ReduceKind::NanMax, dtype, p, in, out,
                                               stream);
  return true;
}

}  // namespace gpuarr
