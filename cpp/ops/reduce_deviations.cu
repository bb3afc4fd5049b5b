#include "core/errors.hpp"
#include "ops/reduce.cuh"

namespace gpuarr {

void launch_reduce_squared_deviations(bool skip_nan, DType dtype, const ReductionPlan& p,
                                      const char* in, const char* center, char* out,
                                      cudaStream_t stream) {
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = typename SquaredDeviationOp<T, false>::Acc;
    const ReduceOpParams params{center};
    if (skip_nan) run_reduction<SquaredDeviationOp<T, true>, T, R>(p, in, out, stream, params);
    else run_reduction<SquaredDeviationOp<T, false>, T, R>(p, in, out, stream, params);
  };
  switch (dtype) {
    case DType::Float32: return run(TypeTag<float>{});
    case DType::Float64: return run(TypeTag<double>{});
    case DType::Complex64: return run(TypeTag<complex64_t>{});
    case DType::Complex128: return run(TypeTag<complex128_t>{});
    default:
      throw TypeError(std::string("squared deviations are computed in float32, float64, "
                                  "complex64 or complex128, not ") + name(dtype));
  }
}

void launch_reduce_variance(DType dtype, const ReductionPlan& p, const char* in, char* out,
                            double divisor, bool root, cudaStream_t stream) {
  ReduceOpParams params;
  params.divisor = divisor;
  params.root = root;
  if (dtype == DType::Float32)
    return run_reduction<MomentsOp<float>, float, float>(p, in, out, stream, params);
  if (dtype == DType::Float64)
    return run_reduction<MomentsOp<double>, double, double>(p, in, out, stream, params);
  throw TypeError(std::string("the one-pass variance is computed in float32 or float64, not ") +
                  name(dtype));
}

}  // namespace gpuarr
