#include "ops/reductions.hpp"

#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {

DType reduce_result_dtype(ReduceKind kind, DType in) {
  switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Prod:
    case ReduceKind::NanSum:
    case ReduceKind::NanProd:
      if (in == DType::Bool) return DType::Int64;
      if (kind_char(in) == 'i') return DType::Int64;
      if (kind_char(in) == 'u') return DType::UInt64;
      return in;
    case ReduceKind::ArgMax:
    case ReduceKind::ArgMin:
    case ReduceKind::NanArgMax:
    case ReduceKind::NanArgMin:
      return DType::Int64;
    case ReduceKind::All:
    case ReduceKind::Any:
      return DType::Bool;
    default:
      return in;
  }
}

NDArray reduce_array(ReduceKind kind, const NDArray& in, const std::vector<int64_t>& axes,
                     bool keepdims) {
  DeviceGuard guard(in.device());
  const int64_t sms = multiprocessor_count(in.device());
  const ReductionPlan plan = plan_reduction(in.shape, in.strides, axes, keepdims, sms);
  NDArray out = empty_array(plan.out_shape, reduce_result_dtype(kind, in.dtype), 'C');
  if (plan.n_out == 0) return out;
  const cudaStream_t stream = stream_for(out);
  // An empty reduced range leaves each output at the identity; only reductions with one
  // get here (the Python layer refuses max/min/argmax of empty ranges as NumPy does).
  bool done = false;
  for (ReduceLauncher launch : {launch_reduce_sums, launch_reduce_products, launch_reduce_max,
                                launch_reduce_min, launch_reduce_argmax, launch_reduce_argmin,
                                launch_reduce_logical}) {
    done = launch(kind, in.dtype, plan, in.data(), out.data(), stream);
    if (done) break;
  }
  if (!done) throw TypeError(std::string("reduction not supported for dtype ") + name(in.dtype));
  return out;
}

NDArray reduce_squared_deviations(const NDArray& in, const NDArray& center,
                                  const std::vector<int64_t>& axes, bool keepdims,
                                  bool skip_nan) {
  DeviceGuard guard(in.device());
  const ReductionPlan plan = plan_reduction(in.shape, in.strides, axes, keepdims, multiprocessor_count(in.device()));
  if (center.dtype != in.dtype || center.size() != plan.n_out || !center.c_contiguous())
    throw ValueError("the centres must be a C-contiguous array of the input's dtype with one "
                     "value per output");
  if (center.device() != in.device())
    throw ValueError("the centres must be on the input's device");
  const DType real = in.dtype == DType::Complex64    ? DType::Float32
                     : in.dtype == DType::Complex128 ? DType::Float64
                                                     : in.dtype;
  NDArray out = empty_array(plan.out_shape, real, 'C');
  if (plan.n_out == 0) return out;
  launch_reduce_squared_deviations(skip_nan, in.dtype, plan, in.data(), center.data(), out.data(),
                                   stream_for(out));
  return out;
}

namespace {
// A reduction whose result has the input's dtype, `launch(plan, out, stream)` its kernels.
template <class Launch>
NDArray reduce_in_input_dtype(const NDArray& in, const std::vector<int64_t>& axes,
                              bool keepdims, Launch launch) {
  DeviceGuard guard(in.device());
  const ReductionPlan plan =
      plan_reduction(in.shape, in.strides, axes, keepdims, multiprocessor_count(in.device()));
  NDArray out = empty_array(plan.out_shape, in.dtype, 'C');
  if (plan.n_out > 0) launch(plan, out, stream_for(out));
  return out;
}
}  // namespace

NDArray reduce_mean(const NDArray& in, const std::vector<int64_t>& axes, bool keepdims,
                    double count) {
  return reduce_in_input_dtype(in, axes, keepdims, [&](auto& plan, NDArray& out, auto stream) {
    launch_reduce_mean(in.dtype, plan, in.data(), out.data(), count, stream);
  });
}

NDArray reduce_variance(const NDArray& in, const std::vector<int64_t>& axes, bool keepdims,
                        double divisor, bool root) {
  return reduce_in_input_dtype(in, axes, keepdims, [&](auto& plan, NDArray& out, auto stream) {
    launch_reduce_variance(in.dtype, plan, in.data(), out.data(), divisor, root, stream);
  });
}

}  // namespace gpuarr
