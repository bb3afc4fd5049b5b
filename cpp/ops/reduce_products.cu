#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_products(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                        char* out, cudaStream_t stream) {
  if (kind != ReduceKind::Prod && kind != ReduceKind::NanProd) return false;
  run_sum_family<ProdOp>(kind == ReduceKind::NanProd, dtype, p, in, out, stream);
  return true;
}

}  // namespace gpuarr
