#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_argmax(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                          char* out, cudaStream_t stream) {
  if (kind != ReduceKind::ArgMax && kind != ReduceKind::NanArgMax) return false;
  run_extremum_family<ArgOp, true, true>(kind == ReduceKind::NanArgMax, dtype, p, in, out,
                                         stream);
  return true;
}

}  // namespace gpuarr
