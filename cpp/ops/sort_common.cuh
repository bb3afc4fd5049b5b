// Device helpers shared by the sorting files: NumPy's sort order as radix keys per dtype,
// NumPy's "less" (NaNs last) for searching, pool-backed CUB temporaries.
#pragma once
#include <cuda_fp16.h>

#include <cstdint>
#include <memory>
#include <type_traits>

#include "core/sorting.hpp"
#include "ops/device_types.cuh"
#include "ops/strided.cuh"
#include "runtime/cuda_check.hpp"
#include "runtime/memory.hpp"

namespace gpuarr {
namespace sortdev {

constexpr int kThreads = 256;

// A pool allocation of at least one byte (CUB rejects a null temp pointer on the second
// call even when it asked for zero bytes).
inline std::shared_ptr<Memory> scratch(size_t nbytes) {
  return allocate_device_memory(nbytes > 0 ? nbytes : 1);
}

// The unsigned key type of each element type (complex types: see ComplexKey).
template <class T> struct KeyType;
template <> struct KeyType<bool> { using type = uint8_t; };
template <> struct KeyType<int8_t> { using type = uint8_t; };
template <> struct KeyType<uint8_t> { using type = uint8_t; };
template <> struct KeyType<int16_t> { using type = uint16_t; };
template <> struct KeyType<uint16_t> { using type = uint16_t; };
template <> struct KeyType<__half> { using type = uint16_t; };
template <> struct KeyType<int32_t> { using type = uint32_t; };
template <> struct KeyType<uint32_t> { using type = uint32_t; };
template <> struct KeyType<float> { using type = uint32_t; };
template <> struct KeyType<int64_t> { using type = uint64_t; };
template <> struct KeyType<uint64_t> { using type = uint64_t; };
template <> struct KeyType<double> { using type = uint64_t; };
template <> struct KeyType<complex64_t> { using type = uint64_t; };    // (re, im) packed
template <> struct KeyType<complex128_t> { using type = uint64_t; };   // one part per pass

template <class T>
constexpr bool is_complex_v =
    std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>;
template <class T>
constexpr bool is_float_v =
    std::is_same_v<T, __half> || std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class U, class T>
__device__ __forceinline__ U bits_of(const T& v) {
  static_assert(sizeof(U) == sizeof(T), "size");
  U u;
  memcpy(&u, &v, sizeof(U));
  return u;
}

// Key of a real (non-complex) element. `canonical`: see sortkey::float_key.
template <class T>
__device__ __forceinline__ typename KeyType<T>::type real_key(const T& v, bool canonical) {
  using U = typename KeyType<T>::type;
  if constexpr (std::is_same_v<T, bool>) {
    return static_cast<U>(v ? 1 : 0);
  } else if constexpr (is_float_v<T>) {
    return sortkey::float_key<U>(bits_of<U>(v), canonical);
  } else if constexpr (std::is_signed_v<T>) {
    return sortkey::signed_key<U>(bits_of<U>(v));
  } else {
    return static_cast<U>(v);
  }
}

// The inverse of real_key(v, false).
template <class T>
__device__ __forceinline__ T real_from_key(typename KeyType<T>::type k) {
  using U = typename KeyType<T>::type;
  if constexpr (std::is_same_v<T, bool>) {
    return k != 0;
  } else if constexpr (is_float_v<T>) {
    const U b = sortkey::float_from_key<U>(k);
    T v;
    memcpy(&v, &b, sizeof(T));
    return v;
  } else if constexpr (std::is_signed_v<T>) {
    const U b = sortkey::signed_key<U>(k);
    T v;
    memcpy(&v, &b, sizeof(T));
    return v;
  } else {
    return static_cast<T>(k);
  }
}

// Complex keys. NumPy orders complex numbers by class first, R+Rj < R+nanj < nan+Rj <
// nan+nanj (R: not NaN), then lexicographically by the non-NaN parts. Sorted in stable
// passes, least significant first:
//   part 0: complex64: (real key << 32 | imag key); complex128: imag key
//   part 1: complex128 only: real key
//   part 2: the class, 2 * isnan(real) + isnan(imag)
// (NaN parts get the largest key, so they do not reorder a class.)
template <class T>
__device__ __forceinline__ uint64_t sort_key(const T& v, bool canonical, int part) {
  if constexpr (is_complex_v<T>) {
    const bool rn = v.re != v.re, in = v.im != v.im;
    if (part == 2) return uint64_t(rn ? 2 : 0) + uint64_t(in ? 1 : 0);
    if constexpr (std::is_same_v<T, complex64_t>) {
      const uint64_t re = sortkey::float_key<uint32_t>(bits_of<uint32_t>(v.re), true);
      const uint64_t im = sortkey::float_key<uint32_t>(bits_of<uint32_t>(v.im), true);
      return (re << 32) | im;
    } else {
      return sortkey::float_key<uint64_t>(bits_of<uint64_t>(part == 0 ? v.im : v.re), true);
    }
  } else {
    return real_key<T>(v, canonical);
  }
}

// NaN test and numeric equality/order as NumPy compares (NaNs never equal; "less" puts
// NaNs last, for complex lexicographically with NaN parts last).
template <class T>
__device__ __forceinline__ bool is_nan(const T& v) {
  if constexpr (std::is_same_v<T, __half>) {
    return __hisnan(v);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return v != v;
  } else if constexpr (is_complex_v<T>) {
    return v.re != v.re || v.im != v.im;
  } else {
    return false;
  }
}

template <class T>
__device__ __forceinline__ bool num_equal(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, __half>) {
    return __half2float(a) == __half2float(b);
  } else if constexpr (is_complex_v<T>) {
    return a.re == b.re && a.im == b.im;
  } else {
    return a == b;
  }
}

template <class F>
__device__ __forceinline__ bool float_less_nan_last(F a, F b) {
  return a < b || (b != b && a == a);
}

template <class T>
__device__ __forceinline__ bool less_nan_last(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, __half>) {
    return float_less_nan_last(__half2float(a), __half2float(b));
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return float_less_nan_last(a, b);
  } else if constexpr (is_complex_v<T>) {
    // NumPy's npy::complex less (npysort_common.h).
    if (a.re < b.re) return a.im == a.im || b.im != b.im;
    if (a.re > b.re) return b.im != b.im && a.im == a.im;
    if (a.re == b.re || (a.re != a.re && b.re != b.re))
      return a.im < b.im || (b.im != b.im && a.im == a.im);
    return b.re != b.re;
  } else {
    return a < b;
  }
}

// Segment offsets (row r spans [offsets[r], offsets[r + 1])) for CUB's segmented sorts of
// nseg rows of n elements; none (null offsets) for one row.
struct Segments {
  std::shared_ptr<Memory> mem;
  const int64_t* offsets = nullptr;
};
Segments make_segments(int64_t nseg, int64_t n, cudaStream_t stream);  // argsort.cu

// Keys of the elements of each row, read directly or in the order perm (local indices).
// Internal linkage: each file that launches it has its own copy of the kernel.
namespace {
template <class T, class K>
__global__ void make_keys_kernel(const T* __restrict__ data, const int64_t* __restrict__ perm,
                                 int64_t total, int64_t n, bool canonical, int part,
                                 K* __restrict__ keys, int64_t* __restrict__ iota) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t local = i % n;
    const int64_t src = perm ? (i - local) + perm[i] : i;
    if constexpr (is_complex_v<T>) {
      keys[i] = static_cast<K>(sort_key<T>(data[src], canonical, part));
    } else {
      keys[i] = real_key<T>(data[src], canonical);
    }
    if (iota) iota[i] = local;
  }
}
}  // namespace

inline void check_cub(cudaError_t status, const char* what) { check_cuda(status, what); }

}  // namespace sortdev
}  // namespace gpuarr
