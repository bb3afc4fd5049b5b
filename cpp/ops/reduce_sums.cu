#include "core/errors.hpp"
#include "ops/reduce.cuh"

namespace gpuarr {

bool launch_reduce_sums(ReduceKind kind, DType dtype, const ReductionPlan& p, const char* in,
                        char* out, cudaStream_t stream) {
  if (kind != ReduceKind::Sum && kind != ReduceKind::NanSum) return false;
  run_sum_family<SumOp>(kind == ReduceKind::NanSum, dtype, p, in, out, stream);
  return true;
}

void launch_reduce_mean(DType dtype, const ReductionPlan& p, const char* in, char* out,
                        double count, cudaStream_t stream) {
  ReduceOpParams params;
  params.divisor = count;
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (std::is_floating_point_v<C> || ufn::is_cplx_v<C>)
      run_reduction<MeanOp<C, false>, T, T>(p, in, out, stream, params);
    else
      throw TypeError(std::string("the folded mean takes floating or complex data, not ") +
                      name(dtype));
  });
}

}  // namespace gpuarr
