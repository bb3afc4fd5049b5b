// Batched 1-d FFTs over the last axis of C-contiguous arrays (cuFFT). The Python layer
// (python/gpuarr/fft) moves the transformed axis last, pads/truncates to n, casts to the
// compute dtype and applies the norm scaling; these run on the array's current stream.
#pragma once
#include <cstdint>

#include "ops/ndarray.hpp"

namespace gpuarr {

// Complex-to-complex over the last `rank` (1 to 3) axes (complex64 or complex128,
// C-contiguous). `inplace` overwrites x (which must then own its rows alone) and returns it.
NDArray fft_c2c(const NDArray& x, int rank, bool forward, bool inplace);
// Real-to-complex over the last `rank` axes: float32/float64 (..., n) -> complex
// (..., n/2+1).
NDArray fft_r2c(const NDArray& x, int rank);
// Complex-to-real: complex (..., n/2+1) -> real (..., n). The input is not modified (cuFFT
// overwrites its C2R input, so a copy is transformed).
NDArray fft_c2r(const NDArray& x, int64_t n);

}  // namespace gpuarr
