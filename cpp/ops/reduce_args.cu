#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_args(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                        char* out, int64_t sms, cudaStream_t stream) {
  if (kind != ReduceKind::ArgMax && kind != ReduceKind::ArgMin &&
      kind != ReduceKind::NanArgMax && kind != ReduceKind::NanArgMin)
    return false;
  run_extremum_family<ArgOp, true>(kind == ReduceKind::ArgMax || kind == ReduceKind::NanArgMax,
                                   kind == ReduceKind::NanArgMax || kind == ReduceKind::NanArgMin,
                                   dtype, p, in, out, sms, stream);
  return true;
}

}  // namespace gpuarr
