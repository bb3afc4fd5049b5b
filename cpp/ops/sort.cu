// sort / argsort / lexsort with CUB radix sorts. Elements become unsigned keys whose order
// is NumPy's (sort_common.cuh): one row -> cub::DeviceRadixSort, several rows ->
// cub::DeviceSegmentedSort (stable). Values-only sorts of real dtypes sort the keys alone
// and invert them (here); everything else sorts (key, index) pairs stably (argsort.cu, a
// file of its own so that nvcc compiles the two kinds of sort in parallel). One row of an
// integer, float32 or float64 dtype is sorted as CUB's own keys, without the two passes
// that make and invert our keys (see sort_native_row).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"
#include "core/sorting.hpp"
#include "ops/array_ops.hpp"
#include "ops/sort_common.cuh"
#include "ops/sorting.hpp"

namespace gpuarr {
namespace {

using namespace sortdev;

template <class T, class K>
__global__ void keys_to_values_kernel(K* __restrict__ buf, int64_t total) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const T v = real_from_key<T>(buf[i]);
    reinterpret_cast<T*>(buf)[i] = v;
  }
}

// out[i] = data[row(i) + perm[i]].
template <class T>
__global__ void gather_rows_kernel(const T* __restrict__ data, const int64_t* __restrict__ perm,
                                   int64_t total, int64_t n, T* __restrict__ out) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = data[i - i % n + perm[i]];
  }
}

// CUB's radix order of IEEE floats puts the NaNs with the sign bit set first (before -inf)
// and the others last; NumPy puts every NaN last. The NaNs with the sign bit are a prefix
// of CUB's result: its length, found by bisection.
template <class T>
__device__ int64_t leading_signed_nans(const T* v, int64_t n) {
  auto signed_nan = [v](int64_t i) {
    const T x = v[i];
    return x != x && signbit(x);
  };
  if (!signed_nan(0)) return 0;
  int64_t lo = 1, hi = n;  // the first index that is not such a NaN lies in [lo, hi]
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (signed_nan(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// rotated = sorted rotated left by the length k of its prefix of signed NaNs (which so end
// last, their bits kept); *shift = k. Nothing is copied when k == 0, the usual case.
template <class T>
__global__ void rotate_signed_nans_kernel(const T* __restrict__ sorted, int64_t n,
                                          T* __restrict__ rotated, int64_t* __restrict__ shift) {
  __shared__ int64_t k;
  if (threadIdx.x == 0) k = leading_signed_nans(sorted, n);
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) *shift = k;
  if (k == 0) return;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t j = i + k;
    rotated[i] = sorted[j < n ? j : j - n];
  }
}

template <class T>
__global__ void copy_if_rotated_kernel(const T* __restrict__ rotated,
                                       const int64_t* __restrict__ shift, int64_t n,
                                       T* __restrict__ out) {
  if (*shift == 0) return;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = rotated[i];
  }
}

// Blocks of the fix-up kernels: enough to stream a rotation at full bandwidth, few enough
// that the usual launch, which finds no signed NaN and returns, costs little.
constexpr int64_t kFixupBlocks = 1024;

template <class T>
constexpr bool has_native_key_v = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                  (std::is_integral_v<T> && !std::is_same_v<T, bool>);

// One row of n elements sorted by CUB's radix sort on the elements themselves: integers in
// their own order, floats in IEEE order with -0.0 equal to +0.0 (either order is one that
// NumPy's unstable sort may give) and the NaNs moved last.
template <class T>
void sort_native_row(const T* in, T* out, int64_t n, cudaStream_t stream) {
  size_t bytes = 0;
  check_cub(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n, 0, int(sizeof(T) * 8),
                                           stream),
            "cub::DeviceRadixSort::SortKeys");
  // The fix-up reuses CUB's temporary storage once the sort is done (same stream).
  const size_t fixup_bytes = is_float_v<T> ? size_t(n) * sizeof(T) + sizeof(int64_t) : 0;
  auto tmp = scratch(std::max(bytes, fixup_bytes));
  check_cub(cub::DeviceRadixSort::SortKeys(tmp->ptr(), bytes, in, out, n, 0, int(sizeof(T) * 8),
                                           stream),
            "cub::DeviceRadixSort::SortKeys");
  if constexpr (is_float_v<T>) {
    int64_t* shift = static_cast<int64_t*>(tmp->ptr());
    T* rotated = reinterpret_cast<T*>(shift + 1);
    const dim3 grid(unsigned(std::min<int64_t>(grid_for(n, kThreads).x, kFixupBlocks)));
    rotate_signed_nans_kernel<T><<<grid, kThreads, 0, stream>>>(out, n, rotated, shift);
    check_launch("rotate_signed_nans_kernel");
    copy_if_rotated_kernel<T><<<grid, kThreads, 0, stream>>>(rotated, shift, n, out);
    check_launch("copy_if_rotated_kernel");
  }
}

template <class K>
void sort_keys(const K* in, K* out, int64_t total, int64_t nseg, const Segments& seg,
               cudaStream_t stream) {
  size_t bytes = 0;
  if (nseg <= 1) {
    check_cub(cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, total, 0, int(sizeof(K) * 8),
                                             stream),
              "cub::DeviceRadixSort::SortKeys");
    auto tmp = scratch(bytes);
    check_cub(cub::DeviceRadixSort::SortKeys(tmp->ptr(), bytes, in, out, total, 0,
                                             int(sizeof(K) * 8), stream),
              "cub::DeviceRadixSort::SortKeys");
  } else {
    check_cub(cub::DeviceSegmentedSort::StableSortKeys(nullptr, bytes, in, out, total, nseg,
                                                       seg.offsets, seg.offsets + 1, stream),
              "cub::DeviceSegmentedSort::StableSortKeys");
    auto tmp = scratch(bytes);
    check_cub(cub::DeviceSegmentedSort::StableSortKeys(tmp->ptr(), bytes, in, out, total, nseg,
                                                       seg.offsets, seg.offsets + 1, stream),
              "cub::DeviceSegmentedSort::StableSortKeys");
  }
}

}  // namespace

void sort_rows(const char* data, DType dtype, int64_t nseg, int64_t n, char* out,
               cudaStream_t stream) {
  const int64_t total = nseg * n;
  if (total == 0) return;
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = reinterpret_cast<const T*>(data);
    if constexpr (is_complex_v<T>) {
      auto perm = scratch(size_t(total) * sizeof(int64_t));
      int64_t* p = static_cast<int64_t*>(perm->ptr());
      argsort_rows(data, dtype, nseg, n, nullptr, p, stream);
      gather_rows_kernel<T><<<grid_for(total, kThreads), kThreads, 0, stream>>>(
          src, p, total, n, reinterpret_cast<T*>(out));
      check_launch("gather_rows_kernel");
    } else if constexpr (has_native_key_v<T>) {
      if (nseg <= 1) {
        sort_native_row<T>(src, reinterpret_cast<T*>(out), total, stream);
        return;
      }
    }
    if constexpr (!is_complex_v<T>) {
      using K = typename KeyType<T>::type;
      static_assert(sizeof(K) == sizeof(T), "key size");
      const Segments seg = make_segments(nseg, n, stream);
      auto keys = scratch(size_t(total) * sizeof(K));
      K* kin = static_cast<K*>(keys->ptr());
      make_keys_kernel<T, K><<<grid_for(total, kThreads), kThreads, 0, stream>>>(
          src, nullptr, total, n, false, 0, kin, nullptr);
      check_launch("make_keys_kernel");
      K* kout = reinterpret_cast<K*>(out);
      sort_keys<K>(kin, kout, total, nseg, seg, stream);
      keys_to_values_kernel<T, K><<<grid_for(total, kThreads), kThreads, 0, stream>>>(kout, total);
      check_launch("keys_to_values_kernel");
    }
  });
}

NDArray rows_with_axis_last(const NDArray& a, int64_t axis, Dims& perm) {
  perm = axis_last_permutation(a.ndim(), axis);
  NDArray v = a;
  transpose_layout(v.shape, v.strides, perm);
  if (v.c_contiguous()) return v;
  return copy_array(v, a.dtype, 'C');
}

namespace {

// The result laid out with `axis` last, viewed in a's axis order.
NDArray back_to_axis_order(NDArray r, const Dims& perm) {
  transpose_layout(r.shape, r.strides, inverse_permutation(perm));
  return r;
}

int64_t rows_count(const NDArray& rows) {
  const int64_t n = rows.shape.empty() ? 1 : rows.shape.back();
  return n == 0 ? 0 : rows.size() / n;
}

}  // namespace

NDArray sort_array(const NDArray& a, int64_t axis) {
  Dims perm;
  const NDArray rows = rows_with_axis_last(a, axis, perm);
  NDArray out = empty_array(rows.shape, a.dtype, 'C');
  const int64_t n = rows.shape.back();
  sort_rows(rows.data(), a.dtype, rows_count(rows), n, out.data(), stream_for(a));
  return back_to_axis_order(std::move(out), perm);
}

NDArray argsort_array(const NDArray& a, int64_t axis) {
  Dims perm;
  const NDArray rows = rows_with_axis_last(a, axis, perm);
  NDArray out = empty_array(rows.shape, DType::Int64, 'C');
  const int64_t n = rows.shape.back();
  argsort_rows(rows.data(), a.dtype, rows_count(rows), n, nullptr,
               reinterpret_cast<int64_t*>(out.data()), stream_for(a));
  return back_to_axis_order(std::move(out), perm);
}

void sort_inplace(const NDArray& a, int64_t axis) {
  if (a.size() == 0) return;
  const NDArray sorted = sort_array(a, axis);
  assign_array(a, sorted);
}

NDArray lexsort_array(const std::vector<NDArray>& keys, int64_t axis) {
  if (keys.empty()) throw TypeError("need sequence of keys with len > 0 in lexsort");
  const NDArray& k0 = keys.front();
  for (const NDArray& k : keys)
    if (k.shape != k0.shape) throw ValueError("all keys need to be the same shape");
  Dims perm;
  NDArray tshape = k0;
  perm = axis_last_permutation(k0.ndim(), axis);
  transpose_layout(tshape.shape, tshape.strides, perm);
  NDArray out = empty_array(tshape.shape, DType::Int64, 'C');
  const int64_t n = tshape.shape.back();
  const int64_t nseg = n == 0 ? 0 : k0.size() / n;
  const cudaStream_t stream = stream_for(k0);
  int64_t* result = reinterpret_cast<int64_t*>(out.data());
  if (nseg * n > 0) {
    auto buf = sortdev::scratch(size_t(nseg * n) * sizeof(int64_t));
    int64_t* other = static_cast<int64_t*>(buf->ptr());
    // Keys from least to most significant; each pass refines the previous order. The
    // final pass must land in `result`: alternate so that it does.
    const size_t nk = keys.size();
    int64_t* cur_in = nullptr;
    for (size_t i = 0; i < nk; ++i) {
      int64_t* dst = ((nk - 1 - i) % 2 == 0) ? result : other;
      Dims p;
      const NDArray rows = rows_with_axis_last(keys[i], axis, p);
      argsort_rows(rows.data(), rows.dtype, nseg, n, cur_in, dst, stream);
      cur_in = dst;
    }
  }
  return back_to_axis_order(std::move(out), perm);
}

}  // namespace gpuarr
