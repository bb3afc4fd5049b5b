// Host logic of sorting and searching that does not need CUDA: NumPy's sort order as
// unsigned radix keys, histogram binning, axis permutations and kth checks. The key and
// binning functions are also compiled into the device code (GPUARR_HD), so the GTest unit
// tests check exactly what the kernels run.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/host_device.hpp"
#include "core/layout.hpp"

namespace gpuarr {
namespace sortkey {

// IEEE binary floats of `Bits` bits as unsigned integers whose unsigned order is NumPy's
// sort order: -inf < ... < -0.0 <= +0.0 < ... < +inf < NaN.
//  canonical = true: -0.0 and +0.0 get the same key and every NaN gets the largest key,
//    so that equal values (as NumPy compares them) have equal keys; a stable radix sort
//    then orders them as NumPy's stable sort does. Not invertible.
//  canonical = false: NaNs keep their payload (sign cleared) above +inf and -0.0 sorts just
//    before +0.0; invertible with float_from_key (the NaN sign is lost). Used to sort
//    values without an index array; -0.0 before +0.0 is one of the orders NumPy's
//    (unstable) sort may produce.
template <class U>
struct FloatBits;
template <>
struct FloatBits<uint16_t> {
  static constexpr uint16_t sign = 0x8000u, exp = 0x7C00u, mant = 0x03FFu;
};
template <>
struct FloatBits<uint32_t> {
  static constexpr uint32_t sign = 0x80000000u, exp = 0x7F800000u, mant = 0x007FFFFFu;
};
template <>
struct FloatBits<uint64_t> {
  static constexpr uint64_t sign = 0x8000000000000000ull, exp = 0x7FF0000000000000ull,
                            mant = 0x000FFFFFFFFFFFFFull;
};

template <class U>
GPUARR_HD bool float_bits_isnan(U bits) {
  using F = FloatBits<U>;
  return (bits & F::exp) == F::exp && (bits & F::mant) != 0;
}

template <class U>
GPUARR_HD U float_key(U bits, bool canonical) {
  using F = FloatBits<U>;
  if (float_bits_isnan(bits)) {
    if (canonical) return static_cast<U>(~U(0));
    bits = static_cast<U>(bits & ~F::sign);
  } else if (canonical && bits == F::sign) {
    bits = 0;  // -0.0 -> +0.0
  }
  return (bits & F::sign) ? static_cast<U>(~bits) : static_cast<U>(bits | F::sign);
}

template <class U>
GPUARR_HD U float_from_key(U key) {
  using F = FloatBits<U>;
  return (key & F::sign) ? static_cast<U>(key ^ F::sign) : static_cast<U>(~key);
}

// Two's-complement integers: flipping the sign bit makes unsigned order signed order.
template <class U>
GPUARR_HD U signed_key(U bits) {
  return static_cast<U>(bits ^ (U(1) << (sizeof(U) * 8 - 1)));
}

}  // namespace sortkey

// NumPy's histogram bin of x for `nbins` equal bins over [first, last] with the bin edges
// `edges` (nbins + 1 values, as np.linspace made them): the bin from the scaled position,
// then corrected against the edges as NumPy does; -1 when x is outside [first, last] or NaN.
GPUARR_HD int64_t histogram_uniform_bin(double x, double first, double last, double norm,
                                        const double* edges, int64_t nbins) {
  if (!(x >= first) || !(x <= last)) return -1;
  double f = (x - first) * norm;
  int64_t i = static_cast<int64_t>(f);
  if (i >= nbins) i = nbins - 1;  // x == last
  if (i < 0) i = 0;
  if (x < edges[i]) i -= 1;
  else if (i != nbins - 1 && x >= edges[i + 1]) i += 1;
  if (i < 0) i = 0;
  if (i >= nbins) i = nbins - 1;
  return i;
}

// The bin of x for monotonically increasing edges (nbins + 1 of them): [e_i, e_{i+1})
// with the last bin closed on the right; -1 outside or NaN.
GPUARR_HD int64_t histogram_edges_bin(double x, const double* edges, int64_t nbins) {
  if (!(x >= edges[0]) || !(x <= edges[nbins])) return -1;
  // The last bin is closed on the right (NumPy counts x == last edge in it, also when
  // edges repeat).
  if (x == edges[nbins]) return nbins - 1;
  int64_t lo = 0, hi = nbins + 1;  // first index with edges[idx] > x
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (edges[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

// Axes order that moves `axis` to the end (others keep their order).
Dims axis_last_permutation(int64_t ndim, int64_t axis);
Dims inverse_permutation(const Dims& perm);

// NumPy's kth normalisation for partition: negative counts from the end; ValueError
// "kth(=k) out of bounds (n)" otherwise.
int64_t normalize_kth(int64_t kth, int64_t n);

}  // namespace gpuarr
