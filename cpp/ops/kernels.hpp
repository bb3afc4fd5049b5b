// The narrow C++ entry points of the .cu operations. Views are passed as base pointer,
// shape and byte strides; everything runs on `stream` and returns without waiting.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace gpuarr {

// Writes the `itemsize`-byte pattern `value` to every element.
void launch_fill(char* data, const Dims& shape, const Dims& strides, int64_t itemsize,
                 const void* value, cudaStream_t stream);

// dst[...] = src[...] of one dtype (src strides may be 0 for broadcasting).
void launch_copy_same_type(char* dst, const Dims& dst_strides, const char* src,
                           const Dims& src_strides, const Dims& shape, int64_t itemsize,
                           cudaStream_t stream);

// dst[...] = cast(src[...]) between any two dtypes.
void launch_cast(char* dst, const Dims& dst_strides, DType dst_type, const char* src,
                 const Dims& src_strides, DType src_type, const Dims& shape, cudaStream_t stream);

// NumPy's arange fill for real dtypes: out[0] = first, out[1] = second,
// out[i] = first + i * (second - first) computed as NumPy's fill functions do.
void launch_arange(char* out, int64_t n, DType type, const void* first, const void* second,
                   cudaStream_t stream);

// NumPy's linspace in float32 or float64 (compute_type): out[i] = i * step + start, or
// (i / div) * delta + start when step underflows to 0; out[n-1] = stop when endpoint;
// floored when the caller will cast to an integer dtype. out_type: the compute type, or
// float32 for float64 (NumPy's float64 values cast to float32, in the same pass).
void launch_linspace(char* out, int64_t n, DType out_type, DType compute_type, double start,
                     double stop, double step, double delta, double div, bool step_is_zero,
                     bool endpoint, bool floor_values, cudaStream_t stream);

// Reads up to kSmallReadbackBytes of device memory into `dst` through mapped pinned
// memory (small_readback.cu), waiting for it in stream order.
constexpr size_t kSmallReadbackBytes = 64 << 10;
void read_small_device_bytes(void* dst, const void* src, size_t nbytes, cudaStream_t stream);

}  // namespace gpuarr
