// Host logic of direct convolution/correlation: mode and boundary parsing (SciPy's and
// NumPy's messages), the output length and the padding of each axis, and the boundary index
// rule shared with the device kernels (cpp/ops/convolve_direct.cu).
//
// Every direct convolution in gpuarr is reduced to one form, per axis:
//     out[i] = sum_u w[u] * in_b(i + u - pad),   0 <= i < out_len,
// where w is the prepared filter (reversed for a convolution, conjugated for a complex
// correlation) and in_b reads the input with the boundary rule outside [0, n).
#pragma once
#include <cstdint>
#include <string>

#include "core/host_device.hpp"

namespace gpuarr {

enum class ConvMode : int { Valid = 0, Same = 1, Full = 2 };
enum class ConvBoundary : int { Fill = 0, Symm = 1, Wrap = 2 };

// 'valid' | 'same' | 'full'; ValueError with SciPy's message otherwise.
ConvMode parse_conv_mode(const std::string& mode);
// The same with NumPy's message (numpy.convolve / numpy.correlate).
ConvMode parse_numpy_conv_mode(const std::string& mode);
// 'fill' | 'pad' | 'symm' | 'symmetric' | 'wrap' | 'circular'; ValueError (SciPy's) otherwise.
ConvBoundary parse_conv_boundary(const std::string& boundary);

// How 'same' centres the output: SciPy's convolve2d, convolve, correlate, fftconvolve and
// NumPy's convolve/correlate use pad = k // 2; SciPy's correlate2d uses (k - 1) // 2.
enum class SamePad : int { HalfUp = 0, HalfDown = 1 };

struct ConvAxisPlan {
  int64_t out_len;
  int64_t pad;
};

// Output length and padding of one axis of length n with a filter of length k.
// 'valid' gives |n - k| + 1 outputs: with k > n the centre of 'full', which is what SciPy's
// correlate/convolve compute (they swap, correlate and reverse); n or k of 0 gives 0.
ConvAxisPlan conv_axis_plan(int64_t n, int64_t k, ConvMode mode, SamePad same_pad);

// The index that boundary b reads for position i of an axis of length n (n >= 1); -1 for
// 'fill' outside [0, n). 'wrap' is periodic; 'symm' reflects with the edge repeated
// (-1 -> 0, n -> n-1), periodic with period 2n for filters longer than the axis.
GPUARR_HD int64_t conv_boundary_index(int64_t i, int64_t n, ConvBoundary b) {
  if (i >= 0 && i < n) return i;
  if (b == ConvBoundary::Fill) return -1;
  if (b == ConvBoundary::Wrap) {
    int64_t r = i % n;
    return r < 0 ? r + n : r;
  }
  const int64_t p = 2 * n;
  int64_t r = i % p;
  if (r < 0) r += p;
  return r < n ? r : p - 1 - r;
}

}  // namespace gpuarr
