// Reductions over axes (sum, prod, max, min, argmax, argmin, all, any and the NaN-skipping
// variants): NumPy's result dtypes, a new array of the planned shape, on the current stream.
#pragma once
#include <cuda_runtime_api.h>

#include <vector>

#include "core/reduction_plan.hpp"
#include "ops/ndarray.hpp"

namespace gpuarr {

enum class ReduceKind {
  Sum, Prod, NanSum, NanProd,
  Max, Min, NanMax, NanMin,
  ArgMax, ArgMin, NanArgMax, NanArgMin,
  All, Any,
};

// NumPy's result dtype of the reduction of `in` (sum of int8 -> int64, argmax -> int64, ...).
DType reduce_result_dtype(ReduceKind kind, DType in);

// The reduction of `in` over normalized `axes` (empty: no axis reduced) into a new array.
// The caller has checked empty inputs for reductions without an identity.
NDArray reduce_array(ReduceKind kind, const NDArray& in, const std::vector<int64_t>& axes,
                     bool keepdims);

// The sum of |x - center|^2 over `axes` (var/std's second pass): `center` holds one value
// per output in `in`'s dtype (float32, float64, complex64 or complex128), C-ordered like the
// result; the result is real. skip_nan leaves NaN elements out (nanvar).
NDArray reduce_squared_deviations(const NDArray& in, const NDArray& center,
                                  const std::vector<int64_t>& axes, bool keepdims, bool skip_nan);

// The mean over `axes` of floating or complex data (float16 sums in float32, as NumPy):
// the sum divided by `count` in the sum's kernel.
NDArray reduce_mean(const NDArray& in, const std::vector<int64_t>& axes, bool keepdims,
                    double count);

// var (root false) or std (root true) over `axes` of float32/float64 data in one pass: each
// output's squared deviations from its own mean, divided by `divisor` (n - ddof, NumPy's
// division in the data's type), NaN where the data holds an inf or NaN.
NDArray reduce_variance(const NDArray& in, const std::vector<int64_t>& axes, bool keepdims,
                        double divisor, bool root);

// One file per family of reductions instantiates the kernels (small files keep each of nvcc's
// compiles short, so that a parallel build uses every core); each returns false for kinds it
// does not hold.
using ReduceLauncher = bool (*)(ReduceKind, DType, const ReductionPlan&, const char* in, char* out,
                                cudaStream_t);
bool launch_reduce_sums(ReduceKind, DType, const ReductionPlan&, const char*, char*, cudaStream_t);
bool launch_reduce_products(ReduceKind, DType, const ReductionPlan&, const char*, char*, cudaStream_t);
bool launch_reduce_max(ReduceKind, DType, const ReductionPlan&, const char*, char*, cudaStream_t);
bool launch_reduce_min(ReduceKind, DType, const ReductionPlan&, const char*, char*, cudaStream_t);
bool launch_reduce_argmax(ReduceKind, DType, const ReductionPlan&, const char*, char*, cudaStream_t);
bool launch_reduce_argmin(ReduceKind, DType, const ReductionPlan&, const char*, char*, cudaStream_t);
bool launch_reduce_logical(ReduceKind, DType, const ReductionPlan&, const char*, char*, cudaStream_t);
void launch_reduce_squared_deviations(bool skip_nan, DType, const ReductionPlan&, const char* in,
                                      const char* center, char* out, cudaStream_t);
void launch_reduce_variance(DType, const ReductionPlan&, const char* in, char* out,
                            double divisor, bool root, cudaStream_t);
void launch_reduce_mean(DType, const ReductionPlan&, const char* in, char* out, double count,
                        cudaStream_t);

}  // namespace gpuarr
