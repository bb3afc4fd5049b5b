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
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_reduction<MeanOp<compute_t<T>, false>, T, T>(p, in, out, stream, params);
  };
  switch (dtype) {
    case DType::Float16: return run(TypeTag<__half>{});
    case DType::Float32: return run(TypeTag<float>{});
    case DType::Float64: return run(TypeTag<double>{});
    case DType::Complex64: return run(TypeTag<complex64_t>{});
    case DType::Complex128: return run(TypeTag<complex128_t>{});
    default:
      throw TypeError(std::string("the folded mean takes floating or complex data, not ") +
                      name(dtype));
  }
}

}  // namespace gpuarr
