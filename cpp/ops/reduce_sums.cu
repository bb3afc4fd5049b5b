#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_sums(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                        char* out, cudaStream_t stream) {
  if (kind != ReduceKind::Sum && kind != ReduceKind::NanSum) return false;
  run_sum_family<SumOp>(kind == ReduceKind::NanSum, dtype, p, in, out, stream);
  return true;
}

}  // namespace gpuarr
