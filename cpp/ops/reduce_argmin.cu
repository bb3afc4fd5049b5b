#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_argmin(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                          char* out, cudaStream_t stream) {
  if (kind != ReduceKind::ArgMin && kind != ReduceKind::NanArgMin) return false;
  run_extremum_family<ArgOp, true, false>(kind == ReduceKind::NanArgMin, dtype, p, in, out,
                                          stream);
  return true;
}

}  // namespace gpuarr
