// Direct (not FFT) 1-d and 2-d correlation on the device, in the one form of
// core/conv_plan.hpp:  out[i, j] = sum_{u, v} w[u, v] * in_b(i + u - pad0, j + v - pad1).
// The Python layer (python/gpuarr/signal, python/gpuarr/_convolve.py) prepares w (reversed
// for convolutions, conjugated for complex correlations), the dtype and the plan.
#pragma once
#include <cstdint>

#include "core/conv_plan.hpp"
#include "ops/ndarray.hpp"

namespace gpuarr {

// in: 1-d or 2-d, any strides (multiples of the itemsize); w: C-contiguous, same ndim and
// dtype as in (float32, float64, complex64 or complex128); out_shape/pad per axis (from
// conv_axis_plan); fill: the bytes of one element of the dtype (boundary Fill outside).
// Returns a new C-contiguous array of out_shape.
NDArray correlate_direct(const NDArray& in, const NDArray& w, const Dims& out_shape,
                         const Dims& pad, ConvBoundary boundary, const void* fill);

}  // namespace gpuarr
