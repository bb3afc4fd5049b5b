// median / percentile / quantile from sorted rows: gather the order statistics and
// interpolate as NumPy's _lerp and np.mean do, operation by operation in NumPy's dtypes.
#include <cstring>
#include <vector>

#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "ops/sort_common.cuh"
#include "ops/sorting.hpp"

namespace gpuarr {
namespace {

using namespace sortdev;

// Arithmetic in C with NumPy's rounding (float16: computed in float, rounded each time).
// NumPy's _lerp rounds the product diff_b_a * t before the add/subtract; nvcc would
// contract a + d * t into one FMA (one rounding), which differed from NumPy by an ulp on
// the H100. The _rn intrinsics are never contracted.
__device__ __forceinline__ float rn_add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float rn_sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ float rn_mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double rn_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double rn_sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ double rn_mul(double a, double b) { return __dmul_rn(a, b); }

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

template <class T, class C>
__global__ void quantile_kernel(const T* __restrict__ rows, int64_t nseg, int64_t n,
                                const int64_t* __restrict__ prev,
                                const int64_t* __restrict__ next,
                                const double* __restrict__ gamma, int64_t nq, int mode,
                                C* __restrict__ out) {
  using A = Arith<C>;
  const int64_t total = nq * nseg;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t q = i / nseg, s = i % nseg;
    const T* row = rows + s * n;
    const bool row_nan = is_nan<T>(row[n - 1]);
    const T a = row[prev[q]];
    C r;
    if (mode == 0) {
      r = A::template from<T>(a);
    } else if (mode == 1) {
      const T b = row[next[q]];
      const double g = gamma[q];
      const C dc = A::template from<T>(diff_in<T>(b, a));
      if (g >= 0.5) r = A::sub(A::template from<T>(b), A::mul(dc, A::from_double(1.0 - g)));
      else r = A::add(A::template from<T>(a), A::mul(dc, A::from_double(g)));
    } else {
      // np.mean of one or two elements: float16 accumulates in float32.
      const T b = row[next[q]];
      using Acc = std::conditional_t<std::is_same_v<C, __half>, float, C>;
      const Acc x = Arith<Acc>::template from<T>(a);
      if (prev[q] == next[q]) {
        r = A::from_double(static_cast<double>(x));
      } else {
        const Acc y = Arith<Acc>::template from<T>(b);
        r = A::from_double(static_cast<double>((x + y) / Acc(2)));
      }
    }
    if (row_nan && mode != 0) r = A::nan();
    if constexpr (is_float_v<T>) {
      if (row_nan && mode == 0) r = A::nan();
    }
    out[i] = r;
  }
}

template <class T>
__global__ void take_kernel(const T* __restrict__ rows, int64_t nseg, int64_t n,
                            const int64_t* __restrict__ prev, int64_t nq, T* __restrict__ out) {
  const int64_t total = nq * nseg;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t q = i / nseg, s = i % nseg;
    const T* row = rows + s * n;
    T v = row[prev[q]];
    if constexpr (is_float_v<T>) {
      if (is_nan<T>(row[n - 1])) v = row[n - 1];  // a NaN
    }
    out[i] = v;
  }
}

}  // namespace

NDArray quantile_sorted_rows(const NDArray& rows, const std::vector<int64_t>& prev,
                             const std::vector<int64_t>& next, const std::vector<double>& gamma,
                             int mode, DType out_dtype) {
  const int64_t n = rows.shape.back();
  const int64_t nseg = n == 0 ? 0 : rows.size() / n;
  const int64_t nq = static_cast<int64_t>(prev.size());
  NDArray out = empty_array(Dims{nq, nseg}, out_dtype, 'C');
  if (nq * nseg == 0) return out;
  if (next.size() != prev.size() || gamma.size() != prev.size())
    throw ValueError("quantile_sorted_rows: index arrays differ in length");
  for (size_t k = 0; k < prev.size(); ++k)
    if (prev[k] < 0 || prev[k] >= n || next[k] < 0 || next[k] >= n)
      throw IndexError("quantile index out of range");
  const cudaStream_t stream = stream_for(rows);
  // The per-q parameters: prev, next, gamma in one small upload.
  const size_t nb = size_t(nq) * 8;
  auto params = scratch(3 * nb);
  char* p = static_cast<char*>(params->ptr());
  std::vector<char> host(3 * nb);
  std::memcpy(host.data(), prev.data(), nb);
  std::memcpy(host.data() + nb, next.data(), nb);
  std::memcpy(host.data() + 2 * nb, gamma.data(), nb);
  GPUARR_CUDA_CHECK(cudaMemcpyAsync(p, host.data(), 3 * nb, cudaMemcpyHostToDevice, stream));
  const int64_t* dprev = reinterpret_cast<const int64_t*>(p);
  const int64_t* dnext = reinterpret_cast<const int64_t*>(p + nb);
  const double* dgamma = reinterpret_cast<const double*>(p + 2 * nb);
  const int64_t total = nq * nseg;
  dispatch_dtype(rows.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* r = reinterpret_cast<const T*>(rows.data());
    if (mode == 0) {
      if (out_dtype != rows.dtype) throw TypeError("quantile: take keeps the dtype");
      take_kernel<T><<<grid_for(total, kThreads), kThreads, 0, stream>>>(
          r, nseg, n, dprev, nq, reinterpret_cast<T*>(out.data()));
      check_launch("take_kernel");
      return;
    }
    if constexpr (is_complex_v<T>) {
      throw TypeError("a must be an array of real numbers");
    } else {
      auto launch = [&](auto ctag) {
        using C = typename decltype(ctag)::type;
        quantile_kernel<T, C><<<grid_for(total, kThreads), kThreads, 0, stream>>>(
            r, nseg, n, dprev, dnext, dgamma, nq, mode, reinterpret_cast<C*>(out.data()));
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

}  // namespace gpuarr
