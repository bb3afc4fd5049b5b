// gpuarr.random's device generators: counter-based Philox4x32-10.
//
// A generator is a 64-bit key (derived from the seed) and a 64-bit call counter; each call
// uses one counter value and the generator advances by one. Element i of a call draws its
// random words from the Philox blocks counter = (i_lo, i_hi, j, call) for j = 0, 1, ...
// (the fast paths use block b = i / values_per_block with j = 0), so results depend only on
// (key, call, i): never on the launch configuration or the device.
//
// Every entry point writes into `out`, which must be a C-contiguous array of the dtype the
// function names (the Python layer allocates it); it runs on `out`'s device's current
// stream and returns without waiting.
#pragma once
#include <cstdint>

#include "core/random_algorithms.hpp"
#include "ops/ndarray.hpp"

namespace gpuarr {

// A per-element parameter: a contiguous float64 array of out.size() elements, or a scalar.
struct RandomParam {
  const double* data = nullptr;  // device pointer or nullptr
  double value = 0.0;
};

// out (float32/float64) = low + (high - low) * u, u uniform on [0, 1).
void random_uniform(const NDArray& out, PhiloxState s, double low, double high);
// out (float32/float64) = loc + scale * z, z standard normal (Box-Muller).
void random_normal(const NDArray& out, PhiloxState s, double loc, double scale);
// out (float32/float64) = scale * e, e standard exponential.
void random_exponential(const NDArray& out, PhiloxState s, double scale);
// out (float32/float64) = scale * standard_gamma(shape) (Marsaglia-Tsang).
void random_gamma(const NDArray& out, PhiloxState s, RandomParam shape, double scale);
// out (int64) = poisson(lam) (inversion below lam 10, PTRS above).
void random_poisson(const NDArray& out, PhiloxState s, RandomParam lam);
// out (int64) = binomial(n, p) (inversion for small n*min(p,1-p), BTRS above).
void random_binomial(const NDArray& out, PhiloxState s, RandomParam n, RandomParam p);
// out (any integer or bool dtype) = low + k, k uniform on [0, range] (range inclusive,
// up to 2**64 - 1), by Lemire's multiply-and-reject. `low` is the bits of a signed or
// unsigned 64-bit value; the sum wraps to the output type. With low_array/range_array
// (device pointers to out.size() uint64 each, both or neither) element i uses those.
void random_integers(const NDArray& out, PhiloxState s, uint64_t low, uint64_t range,
                     const uint64_t* low_array = nullptr, const uint64_t* range_array = nullptr);
// out (int64, n elements) = a random permutation of range(n): Thrust's bijective shuffle,
// its Feistel round keys drawn from (key, call).
void random_permutation(const NDArray& out, PhiloxState s);

}  // namespace gpuarr
