// median / percentile / quantile from sorted rows: gather the order statistics and
// interpolate as NumPy's _lerp and np.mean do, operation by operation in NumPy's dtypes.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "gpuarr/rounded_arith.cuh"
#include "ops/sort_common.cuh"
#include "ops/sorting.hpp"

namespace gpuarr {
namespace {

using namespace sortdev;

// Arithmetic in C with NumPy's rounding (float16: computed in float, rounded each time):
// NumPy's _lerp rounds the product diff_b_a * t before the add/subtract (rounded_arith.cuh).

template <class C>
struct Arith {
  static_assert(std::is_same_v<C, float> || std::is_same_v<C, double>,
                "Arith<C>: float or double (float16 has its own)");
  static __device__ C add(C a, C b) { return rn_add(a, b); }
  static __device__ C sub(C a, C b) { return rn_sub(a, b); }
  static __device__ C mul(C a, C b) { return rn_mul(a, b); }
  static __device__ C div(C a, C b) { return a / b; }
  template <class T>
  static __device__ C from(const T& v) {
    if constexpr (std::is_same_v<T, __half>) return static_cast<C>(__half2float(v));
    else if constexpr (std::is_same_v<T, bool>) return v ? C(1) : C(0);
    else return static_cast<C>(v);
  }
  static __device__ C from_double(double v) { return static_cast<C>(v); }
  static __device__ C nan() { return static_cast<C>(NAN); }
};
template <>
struct Arith<__half> {
  using H = __half;
  static __device__ H r(float f) { return __float2half_rn(f); }
  static __device__ H add(H a, H b) { return r(__half2float(a) + __half2float(b)); }
  static __device__ H sub(H a, H b) { return r(__half2float(a) - __half2float(b)); }
  static __device__ H mul(H a, H b) { return r(__half2float(a) * __half2float(b)); }
  static __device__ H div(H a, H b) { return r(__half2float(a) / __half2float(b)); }
  template <class T>
  static __device__ H from(const T& v) {
    if constexpr (std::is_same_v<T, __half>) return v;
    else if constexpr (std::is_same_v<T, bool>) return r(v ? 1.f : 0.f);
    else if constexpr (std::is_same_v<T, double>) return __double2half(v);
    else return r(static_cast<float>(v));
  }
  static __device__ H from_double(double v) { return __double2half(v); }
  static __device__ H nan() { return r(NAN); }
};

// b - a in T (NumPy's diff_b_a): wrapping for integers.
template <class T>
__device__ __forceinline__ T diff_in(const T& b, const T& a) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(__half2float(b) - __half2float(a));
  } else if constexpr (std::is_same_v<T, bool>) {
    return b != a;  // NumPy refuses boolean subtract; never reached (checked in Python)
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(b) - static_cast<U>(a)));
  } else {
    return b - a;
  }
}

// The parameters of row s: offset of its per-q block in prev/next/gamma, or -1 when the
// row has no element to use (an all-NaN row in the NaN-ignoring variant). Without counts
// every row uses block 0. With counts, row s uses its first counts[s] elements and the
// block k where sizes[k] == counts[s] (sizes ascending).
__device__ __forceinline__ int64_t param_block(const int64_t* __restrict__ counts,
                                               const int64_t* __restrict__ sizes,
                                               int64_t nsizes, int64_t s, int64_t nq) {
  if (counts == nullptr) return 0;
  const int64_t c = counts[s];
  if (c <= 0) return -1;
  int64_t lo = 0, hi = nsizes;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (sizes[mid] < c) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= nsizes) lo = nsizes - 1;  // cannot happen: sizes holds every count
  return lo * nq;
}

template <class T, class C>
__global__ void quantile_kernel(const T* __restrict__ rows, int64_t nseg, int64_t n,
                                const int64_t* __restrict__ prev,
                                const int64_t* __restrict__ next,
                                const double* __restrict__ gamma, int64_t nq, int mode,
                                const int64_t* __restrict__ counts,
                                const int64_t* __restrict__ sizes, int64_t nsizes,
                                C* __restrict__ out) {
  using A = Arith<C>;
  const int64_t total = nq * nseg;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t q = i / nseg, s = i % nseg;
    const T* row = rows + s * n;
    const int64_t blk = param_block(counts, sizes, nsizes, s, nq);
    if (blk < 0) {  // all-NaN row (NaN-ignoring variant)
      out[i] = A::nan();
      continue;
    }
    // Without counts, a NaN (sorted last) makes the result NaN, as in np.quantile.
    const bool row_nan = counts == nullptr && is_nan<T>(row[n - 1]);
    const int64_t ip = prev[blk + q], in = next[blk + q];
    const T a = row[ip];
    C r;
    if (mode == 0) {
      r = A::template from<T>(a);
    } else if (mode == 1) {
      const T b = row[in];
      const double g = gamma[blk + q];
      const C dc = A::template from<T>(diff_in<T>(b, a));
      if (g >= 0.5) r = A::sub(A::template from<T>(b), A::mul(dc, A::from_double(1.0 - g)));
      else r = A::add(A::template from<T>(a), A::mul(dc, A::from_double(g)));
    } else {
      // np.mean of one or two elements: float16 accumulates in float32.
      const T b = row[in];
      using Acc = std::conditional_t<std::is_same_v<C, __half>, float, C>;
      const Acc x = Arith<Acc>::template from<T>(a);
      if (ip == in) {
        r = A::from_double(static_cast<double>(x));
      } else {
        const Acc y = Arith<Acc>::template from<T>(b);
        r = A::from_double(static_cast<double>((x + y) / Acc(2)));
      }
    }
    if (row_nan) r = A::nan();
    out[i] = r;
  }
}

template <class T>
__global__ void take_kernel(const T* __restrict__ rows, int64_t nseg, int64_t n,
                            const int64_t* __restrict__ prev, int64_t nq,
                            const int64_t* __restrict__ counts,
                            const int64_t* __restrict__ sizes, int64_t nsizes,
                            T* __restrict__ out) {
  const int64_t total = nq * nseg;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t q = i / nseg, s = i % nseg;
    const T* row = rows + s * n;
    const int64_t blk = param_block(counts, sizes, nsizes, s, nq);
    if (blk < 0) {  // all-NaN row: its last element is a NaN
      out[i] = row[n - 1];
      continue;
    }
    T v = row[prev[blk + q]];
    if constexpr (is_float_v<T>) {
      if (counts == nullptr && is_nan<T>(row[n - 1])) v = row[n - 1];  // a NaN
    }
    out[i] = v;
  }
}

// Number of non-NaN elements of each sorted row (NaNs sort last): the first NaN's index.
template <class T>
__global__ void nonnan_count_kernel(const T* __restrict__ rows, int64_t nseg, int64_t n,
                                    int64_t* __restrict__ out) {
  for (int64_t s = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; s < nseg;
       s += int64_t(gridDim.x) * blockDim.x) {
    const T* row = rows + s * n;
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (is_nan<T>(row[mid])) hi = mid;
      else lo = mid + 1;
    }
    out[s] = lo;
  }
}

}  // namespace

namespace {

NDArray quantile_rows_impl(const NDArray& rows, const std::vector<int64_t>& prev,
                           const std::vector<int64_t>& next, const std::vector<double>& gamma,
                           int mode, DType out_dtype, const NDArray* counts,
                           const std::vector<int64_t>& sizes, int64_t nq) {
  const int64_t n = rows.shape.back();
  const int64_t nseg = n == 0 ? 0 : rows.size() / n;
  // One block of nq parameters, or one per distinct count (none when all rows are NaN).
  const int64_t nblocks = counts ? static_cast<int64_t>(sizes.size()) : 1;
  if (nq < 0) throw ValueError("quantile_sorted_rows: negative nq");
  if (next.size() != prev.size() || gamma.size() != prev.size() ||
      static_cast<int64_t>(prev.size()) != nq * nblocks)
    throw ValueError("quantile_sorted_rows: index arrays differ in length");
  NDArray out = empty_array(Dims{nq, nseg}, out_dtype, 'C');
  if (nq * nseg == 0) return out;
  if (mode != 0 && mode != 1 && mode != 2) throw ValueError("quantile_sorted_rows: bad mode");
  if (counts) {
    if (counts->dtype != DType::Int64 || counts->size() != nseg || !counts->c_contiguous())
      throw ValueError("quantile_sorted_rows: counts must be contiguous int64 of one per row");
    for (int64_t k = 0; k < nblocks; ++k)
      if (sizes[k] <= 0 || sizes[k] > n || (k > 0 && sizes[k] <= sizes[k - 1]))
        throw ValueError("quantile_sorted_rows: sizes must be ascending in [1, n]");
  }
  for (size_t k = 0; k < prev.size(); ++k) {
    const int64_t lim = counts ? sizes[k / size_t(nq)] : n;
    if (prev[k] < 0 || prev[k] >= lim || next[k] < 0 || next[k] >= lim)
      throw IndexError("quantile index out of range");
  }
  const cudaStream_t stream = stream_for(rows);
  // The parameters (prev, next, gamma, sizes) in one small upload.
  const size_t nb = prev.size() * 8, sb = counts ? sizes.size() * 8 : 0;
  // (All rows all-NaN: no parameters at all; one byte keeps the scratch non-empty.)
  auto params = scratch(std::max<size_t>(3 * nb + sb, 1));
  char* p = static_cast<char*>(params->ptr());
  std::vector<char> host(3 * nb + sb);
  std::memcpy(host.data(), prev.data(), nb);
  std::memcpy(host.data() + nb, next.data(), nb);
  std::memcpy(host.data() + 2 * nb, gamma.data(), nb);
  if (sb) std::memcpy(host.data() + 3 * nb, sizes.data(), sb);
  if (!host.empty())
    GPUARR_CUDA_CHECK(
        cudaMemcpyAsync(p, host.data(), host.size(), cudaMemcpyHostToDevice, stream));
  const int64_t* dprev = reinterpret_cast<const int64_t*>(p);
  const int64_t* dnext = reinterpret_cast<const int64_t*>(p + nb);
  const double* dgamma = reinterpret_cast<const double*>(p + 2 * nb);
  const int64_t* dsizes = counts ? reinterpret_cast<const int64_t*>(p + 3 * nb) : nullptr;
  const int64_t* dcounts = counts ? reinterpret_cast<const int64_t*>(counts->data()) : nullptr;
  const int64_t nsizes = counts ? nblocks : 0;
  const int64_t total = nq * nseg;
  dispatch_dtype(rows.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* r = reinterpret_cast<const T*>(rows.data());
    if (mode == 0) {
      if (out_dtype != rows.dtype) throw TypeError("quantile: take keeps the dtype");
      take_kernel<T><<<grid_for(total, kThreads), kThreads, 0, stream>>>(
          r, nseg, n, dprev, nq, dcounts, dsizes, nsizes, reinterpret_cast<T*>(out.data()));
      check_launch("take_kernel");
      return;
    }
    if constexpr (is_complex_v<T>) {
      throw TypeError("a must be an array of real numbers");
    } else {
      auto launch = [&](auto ctag) {
        using C = typename decltype(ctag)::type;
        quantile_kernel<T, C><<<grid_for(total, kThreads), kThreads, 0, stream>>>(
            r, nseg, n, dprev, dnext, dgamma, nq, mode, dcounts, dsizes, nsizes,
            reinterpret_cast<C*>(out.data()));
        check_launch("quantile_kernel");
      };
      switch (out_dtype) {
        case DType::Float16: return launch(TypeTag<__half>{});
        case DType::Float32: return launch(TypeTag<float>{});
        case DType::Float64: return launch(TypeTag<double>{});
        default: throw TypeError("quantile: unsupported result dtype");
      }
    }
  });
  return out;
}

}  // namespace

NDArray quantile_sorted_rows(const NDArray& rows, const std::vector<int64_t>& prev,
                             const std::vector<int64_t>& next, const std::vector<double>& gamma,
                             int mode, DType out_dtype) {
  return quantile_rows_impl(rows, prev, next, gamma, mode, out_dtype, nullptr, {},
                            static_cast<int64_t>(prev.size()));
}

NDArray quantile_sorted_rows_nan(const NDArray& rows, const NDArray& counts,
                                 const std::vector<int64_t>& sizes, int64_t nq,
                                 const std::vector<int64_t>& prev,
                                 const std::vector<int64_t>& next,
                                 const std::vector<double>& gamma, int mode, DType out_dtype) {
  return quantile_rows_impl(rows, prev, next, gamma, mode, out_dtype, &counts, sizes, nq);
}

NDArray nonnan_counts_sorted_rows(const NDArray& rows) {
  const int64_t n = rows.shape.back();
  const int64_t nseg = n == 0 ? 0 : rows.size() / n;
  NDArray out = empty_array(Dims{nseg}, DType::Int64, 'C');
  if (nseg == 0) return out;
  const cudaStream_t stream = stream_for(rows);
  dispatch_dtype(rows.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T> || is_complex_v<T>) {
      nonnan_count_kernel<T><<<grid_for(nseg, kThreads), kThreads, 0, stream>>>(
          reinterpret_cast<const T*>(rows.data()), nseg, n,
          reinterpret_cast<int64_t*>(out.data()));
      check_launch("nonnan_count_kernel");
    } else {
      fill_array(out, &n);  // no NaN in integer/bool rows
    }
  });
  return out;
}

}  // namespace gpuarr
