#include "ops/array_ops.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/shape_ops.hpp"
#include "ops/kernels.hpp"
#include "ops/shape_ops.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/stream.hpp"
#include "runtime/transfer.hpp"

namespace gpuarr {

cudaStream_t stream_for(const NDArray& a) { return current_stream_handle(a.device()); }

NDArray empty_array(const Dims& shape, DType dtype, char order) {
  NDArray a;
  const int64_t n = checked_size(shape, itemsize(dtype));
  a.memory = allocate_device_memory(static_cast<size_t>(n * itemsize(dtype)));
  a.dtype = dtype;
  a.shape = shape;
  a.strides = contiguous_strides(shape, itemsize(dtype), order == 'F' ? 'F' : 'C');
  return a;
}

NDArray empty_like_array(const NDArray& like, DType dtype, char order) {
  if (order == 'A') order = like.f_contiguous() && !like.c_contiguous() ? 'F' : 'C';
  if (order == 'K') {
    if (like.c_contiguous()) order = 'C';
    else if (like.f_contiguous()) order = 'F';
  }
  if (order == 'C' || order == 'F') return empty_array(like.shape, dtype, order);
  NDArray a = empty_array(like.shape, dtype, 'C');
  if (a.size() > 0) a.strides = strides_like(like.shape, like.strides, itemsize(dtype));
  return a;
}

void fill_array(const NDArray& a, const void* value) {
  if (a.size() == 0) return;
  DeviceGuard guard(a.device());
  bool zero = true;
  for (int64_t i = 0; i < a.itemsize(); ++i) zero = zero && static_cast<const char*>(value)[i] == 0;
  const cudaStream_t stream = stream_for(a);
  if (zero && (a.c_contiguous() || a.f_contiguous())) {
    GPUARR_CUDA_CHECK(cudaMemsetAsync(a.data(), 0, static_cast<size_t>(a.nbytes()), stream));
    return;
  }
  launch_fill(a.data(), a.shape, a.strides, a.itemsize(), value, stream);
}

void assign_array(const NDArray& dst, const NDArray& src) {
  const Dims src_strides = broadcast_strides(src.shape, src.strides, dst.shape);
  if (dst.size() == 0) return;
  if (src.device() != dst.device()) {
    throw ValueError("cannot copy between arrays on different devices (" +
                     std::to_string(src.device()) + " and " + std::to_string(dst.device()) + ")");
  }
  DeviceGuard guard(dst.device());
  if (src.memory == dst.memory &&
      extents_overlap(dst.offset, dst.shape, dst.strides, src.offset, src.shape, src.strides,
                      std::max(dst.itemsize(), src.itemsize()))) {
    // NumPy's result is as if the right-hand side were copied first.
    const NDArray staged = copy_array(src, src.dtype, 'K');
    launch_cast(dst.data(), dst.strides, dst.dtype, staged.data(),
                broadcast_strides(staged.shape, staged.strides, dst.shape), staged.dtype,
                dst.shape, stream_for(dst));
    return;
  }
  launch_cast(dst.data(), dst.strides, dst.dtype, src.data(), src_strides, src.dtype, dst.shape,
              stream_for(dst));
}

namespace {

// The concatenation in one pass over out, when concat_rows_layout takes it and no piece
// needs a cast, another device or overlaps out (assign_array's rules then apply); false,
// launching nothing, otherwise.
bool concatenate_in_one_pass(const NDArray& out, const std::vector<const NDArray*>& arrays,
                             int64_t axis) {
  if (!out.c_contiguous()) return false;
  std::vector<Dims> shapes, strides;
  for (const NDArray* a : arrays) {
    if (a->dtype != out.dtype || a->device() != out.device() || a->memory == out.memory)
      return false;
    shapes.push_back(a->shape);
    strides.push_back(a->strides);
  }
  int64_t rows = 0;
  std::vector<ConcatRowsPiece> pieces;
  if (!concat_rows_layout(out.shape, shapes, strides, axis, out.itemsize(), rows, pieces))
    return false;
  DeviceGuard guard(out.device());
  std::vector<const char*> data;
  for (const NDArray* a : arrays) data.push_back(a->data());  // launches pending work
  launch_concat_rows(out.data(), rows, data.data(), pieces.data(),
                     static_cast<int>(pieces.size()), out.itemsize(), stream_for(out));
  return true;
}

}  // namespace

void concatenate_into(const NDArray& out, const std::vector<const NDArray*>& arrays,
                      int64_t axis) {
  if (out.size() > 0 && concatenate_in_one_pass(out, arrays, axis)) return;
  int64_t pos = 0;
  for (const NDArray* a : arrays) {
    NDArray v = out;
    v.shape[axis] = a->shape[axis];
    if (v.size() > 0) {
      v.offset += pos * out.strides[axis];
      assign_array(v, *a);
    }
    pos += a->shape[axis];
  }
}

std::optional<NDArray> pad_array(const NDArray& a,
                                 const std::vector<std::pair<int64_t, int64_t>>& pads,
                                 PadMode mode, const void* value) {
  if (pads.size() != a.shape.size())
    throw std::logic_error("pad_array: one (before, after) pair a dim");
  if (mode != PadMode::Constant && a.size() == 0)
    throw std::logic_error("pad_array: modes other than constant need a non-empty array");
  PadLayout layout;
  if (!pad_layout(a.shape, a.strides, pads, mode, layout)) return std::nullopt;
  DeviceGuard guard(a.device());
  Dims shape = a.shape;
  for (size_t d = 0; d < shape.size(); ++d) shape[d] += pads[d].first + pads[d].second;
  NDArray out = empty_array(shape, a.dtype, 'C');
  if (out.size() > 0) {
    launch_pad(out.data(), a.size() > 0 ? a.data() : nullptr, layout, mode, value,
               a.itemsize(), stream_for(out));
  }
  return out;
}

NDArray copy_array(const NDArray& src, DType dtype, char order) {
  DeviceGuard guard(src.device());
  NDArray out = empty_like_array(src, dtype, order);
  assign_array(out, src);
  return out;
}

NDArray copy_to_current_device(const NDArray& src, DType dtype, char order) {
  const int here = current_device();
  if (src.device() == here) return copy_array(src, dtype, order);
  NDArray contiguous = src;
  cudaEvent_t ready = nullptr;
  {
    DeviceGuard guard(src.device());
    if (!src.c_contiguous() && !src.f_contiguous()) contiguous = copy_array(src, src.dtype, 'C');
    GPUARR_CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    GPUARR_CUDA_CHECK(cudaEventRecord(ready, stream_for(contiguous)));
  }
  NDArray moved = empty_array(src.shape, src.dtype, contiguous.c_contiguous() ? 'C' : 'F');
  const cudaStream_t stream = stream_for(moved);
  const cudaError_t waited = cudaStreamWaitEvent(stream, ready, 0);
  cudaEventDestroy(ready);  // released once the recorded work completes
  check_cuda(waited, "cudaStreamWaitEvent");
  GPUARR_CUDA_CHECK(cudaMemcpyPeerAsync(moved.data(), here, contiguous.data(), src.device(),
                                        static_cast<size_t>(src.nbytes()), stream));
  if (dtype == src.dtype && (order == 'K' || order == 'A' ||
                             (order == 'C' && moved.c_contiguous()) ||
                             (order == 'F' && moved.f_contiguous()))) {
    return moved;
  }
  return copy_array(moved, dtype, order);
}

NDArray reshape_array(const NDArray& a, const Dims& new_shape_in, char order) {
  const Dims new_shape = resolve_reshape(a.size(), new_shape_in);
  if (auto strides = reshape_strides(a.shape, a.strides, new_shape, a.itemsize(), order)) {
    NDArray v = a;
    v.shape = new_shape;
    v.strides = *strides;
    return v;
  }
  // Copy into the requested order, then view it with the new shape.
  NDArray c = copy_array(a, a.dtype, order);
  c.shape = new_shape;
  c.strides = contiguous_strides(new_shape, a.itemsize(), order);
  return c;
}

void upload_contiguous(const NDArray& dst, const void* host, bool allow_async) {
  if (dst.nbytes() == 0) return;
  DeviceGuard guard(dst.device());
  copy_host_to_device(dst.data(), host, static_cast<size_t>(dst.nbytes()), stream_for(dst),
                      allow_async);
}

void download_contiguous(void* host, const NDArray& src, bool allow_async) {
  if (src.nbytes() == 0) return;
  DeviceGuard guard(src.device());
  if (static_cast<size_t>(src.nbytes()) <= kSmallReadbackBytes && !allow_async) {
    read_small_device_bytes(host, src.data(), static_cast<size_t>(src.nbytes()), stream_for(src));
    return;
  }
  copy_device_to_host(host, src.data(), static_cast<size_t>(src.nbytes()), stream_for(src),
                      allow_async);
}

}  // namespace gpuarr
