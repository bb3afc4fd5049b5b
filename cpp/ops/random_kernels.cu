// gpuarr.random's device kernels (see random.hpp for the counter layout).
#include <cstdint>
#include <type_traits>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "ops/array_ops.hpp"
#include "ops/device_types.cuh"
#include "ops/random.hpp"
#include "ops/strided.cuh"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ Philox4 block_bits(int64_t b, uint32_t j, PhiloxState s) {
  const uint64_t ub = static_cast<uint64_t>(b);
  return philox4x32_10(static_cast<uint32_t>(ub), static_cast<uint32_t>(ub >> 32), j, s.call,
                       static_cast<uint32_t>(s.key), static_cast<uint32_t>(s.key >> 32));
}

// [0, 1) from 53 bits / 24 bits; (0, 1] variants for logarithms.
__device__ __forceinline__ double u53(uint32_t lo, uint32_t hi) {
  return static_cast<double>(((static_cast<uint64_t>(hi) << 32) | lo) >> 11) * 0x1.0p-53;
}
__device__ __forceinline__ double u53_pos(uint32_t lo, uint32_t hi) {
  return static_cast<double>((((static_cast<uint64_t>(hi) << 32) | lo) >> 11) + 1) * 0x1.0p-53;
}
__device__ __forceinline__ float u24(uint32_t x) { return static_cast<float>(x >> 8) * 0x1.0p-24f; }
__device__ __forceinline__ float u24_pos(uint32_t x) {
  return static_cast<float>((x >> 8) + 1) * 0x1.0p-24f;
}

// ---- fast paths: one Philox block -> 16 bytes of output --------------------------------

template <class T>
struct alignas(16) Vals {
  static constexpr int K = 16 / sizeof(T);
  T v[K];
};

struct UniformGen {
  double low, scale;
  __device__ void operator()(const Philox4& r, Vals<double>& o) const {
    o.v[0] = low + scale * u53(r.v[0], r.v[1]);
    o.v[1] = low + scale * u53(r.v[2], r.v[3]);
  }
  __device__ void operator()(const Philox4& r, Vals<float>& o) const {
    const float l = static_cast<float>(low), s = static_cast<float>(scale);
#pragma unroll
    for (int k = 0; k < 4; ++k) o.v[k] = l + s * u24(r.v[k]);
  }
};

struct NormalGen {
  double loc, scale;
  __device__ void operator()(const Philox4& r, Vals<double>& o) const {
    const double rad = sqrt(-2.0 * log(u53_pos(r.v[0], r.v[1])));
    double sn, cs;
    sincospi(2.0 * u53(r.v[2], r.v[3]), &sn, &cs);
    o.v[0] = loc + scale * (rad * cs);
    o.v[1] = loc + scale * (rad * sn);
  }
  __device__ void operator()(const Philox4& r, Vals<float>& o) const {
    const float l = static_cast<float>(loc), s = static_cast<float>(scale);
#pragma unroll
    for (int k = 0; k < 4; k += 2) {
      const float rad = sqrtf(-2.0f * logf(u24_pos(r.v[k])));
      float sn, cs;
      sincospif(2.0f * u24(r.v[k + 1]), &sn, &cs);
      o.v[k] = l + s * (rad * cs);
      o.v[k + 1] = l + s * (rad * sn);
    }
  }
};

struct ExponentialGen {
  double scale;
  __device__ void operator()(const Philox4& r, Vals<double>& o) const {
    o.v[0] = -scale * log(u53_pos(r.v[0], r.v[1]));
    o.v[1] = -scale * log(u53_pos(r.v[2], r.v[3]));
  }
  __device__ void operator()(const Philox4& r, Vals<float>& o) const {
    const float s = static_cast<float>(scale);
#pragma unroll
    for (int k = 0; k < 4; ++k) o.v[k] = -s * logf(u24_pos(r.v[k]));
  }
};

struct BitsGen {
  __device__ void operator()(const Philox4& r, Vals<uint64_t>& o) const {
    o.v[0] = (static_cast<uint64_t>(r.v[1]) << 32) | r.v[0];
    o.v[1] = (static_cast<uint64_t>(r.v[3]) << 32) | r.v[2];
  }
};

// One 16-byte store of a block's values (st.global.v2.f64 / v4.f32 / v2.u64).
__device__ __forceinline__ void store16(double* p, const Vals<double>& v) {
  *reinterpret_cast<double2*>(p) = make_double2(v.v[0], v.v[1]);
}
__device__ __forceinline__ void store16(float* p, const Vals<float>& v) {
  *reinterpret_cast<float4*>(p) = make_float4(v.v[0], v.v[1], v.v[2], v.v[3]);
}
__device__ __forceinline__ void store16(uint64_t* p, const Vals<uint64_t>& v) {
  *reinterpret_cast<ulonglong2*>(p) = make_ulonglong2(v.v[0], v.v[1]);
}

template <class T, class Gen>
__global__ void block_kernel(T* out, int64_t n, PhiloxState s, Gen gen, bool vector_ok) {
  constexpr int K = Vals<T>::K;
  const int64_t nblocks = (n + K - 1) / K;
  for (int64_t b = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; b < nblocks;
       b += int64_t(gridDim.x) * blockDim.x) {
    Vals<T> v;
    gen(block_bits(b, 0, s), v);
    const int64_t base = b * K;
    if (vector_ok && base + K <= n) {
      store16(out + base, v);
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (base + k < n) out[base + k] = v.v[k];
    }
  }
}

// Multiprocessors of a device (cached: the attribute query is not free per call).
int sm_count(int device) {
  static int counts[kMaxDevices] = {};
  if (device < 0 || device >= kMaxDevices) return 132;
  if (counts[device] == 0) {
    int n = 0;
    check_cuda(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute(MultiProcessorCount)");
    counts[device] = n > 0 ? n : 132;
  }
  return counts[device];
}

template <class T, class Gen>
void launch_block(const NDArray& out, PhiloxState s, const Gen& gen, const char* name) {
  const int64_t n = out.size();
  if (n == 0) return;
  DeviceGuard guard(out.device());
  constexpr int K = Vals<T>::K;
  const int64_t nblocks = (n + K - 1) / K;
  const bool vector_ok = reinterpret_cast<uintptr_t>(out.data()) % 16 == 0;
  // A few waves of resident threads; each thread loops over blocks.
  const int64_t cap = int64_t(sm_count(out.device())) * (2048 / kThreads) * 4;
  const int64_t grid = std::min<int64_t>((nblocks + kThreads - 1) / kThreads, cap);
  block_kernel<T, Gen><<<dim3(static_cast<unsigned>(std::max<int64_t>(grid, 1))), kThreads, 0,
                         stream_for(out)>>>(reinterpret_cast<T*>(out.data()), n, s, gen,
                                            vector_ok);
  check_launch(name);
}

void require_contiguous(const NDArray& out, const char* fn) {
  if (!out.c_contiguous()) throw ValueError(std::string(fn) + ": output must be C-contiguous");
}

// ---- per-element streams: element i draws blocks (i, j = 0, 1, ...) -------------------

struct ElemRng {
  PhiloxState s;
  int64_t i;
  uint32_t j = 0;
  int used = 4;
  Philox4 buf;

  __device__ ElemRng(PhiloxState st, int64_t idx) : s(st), i(idx) {}
  __device__ uint32_t next32() {
    if (used == 4) {
      buf = block_bits(i, j++, s);
      used = 0;
    }
    return buf.v[used++];
  }
  __device__ uint64_t next64() {
    const uint32_t lo = next32();
    return (static_cast<uint64_t>(next32()) << 32) | lo;
  }
  __device__ double uniform() { return static_cast<double>(next64() >> 11) * 0x1.0p-53; }
  __device__ double uniform_pos() {
    return static_cast<double>((next64() >> 11) + 1) * 0x1.0p-53;
  }
  __device__ double normal() {
    const double rad = sqrt(-2.0 * log(uniform_pos()));
    return rad * cospi(2.0 * uniform());
  }
};

__device__ __forceinline__ double param_at(const RandomParam& p, int64_t i) {
  return p.data ? p.data[i] : p.value;
}

// Marsaglia and Tsang (2000); shape < 1 through gamma(shape + 1) * U**(1/shape).
__device__ double standard_gamma(ElemRng& g, double a) {
  if (a == 0.0) return 0.0;
  if (a == 1.0) return -log(g.uniform_pos());
  double boost = 1.0;
  if (a < 1.0) {
    boost = pow(g.uniform_pos(), 1.0 / a);
    a += 1.0;
  }
  const double d = a - 1.0 / 3.0;
  const double c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = g.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = g.uniform_pos();
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return boost * d * v;
    if (log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) return boost * d * v;
  }
}

// Poisson: multiplication (Knuth) below 10, PTRS (Hoermann 1993) above, as NumPy.
__device__ int64_t poisson(ElemRng& g, double lam) {
  if (lam == 0.0) return 0;
  if (lam < 10.0) {
    const double enlam = exp(-lam);
    int64_t x = 0;
    double prod = 1.0;
    for (;;) {
      prod *= g.uniform();
      if (prod > enlam)
        ++x;
      else
        return x;
    }
  }
  const double slam = sqrt(lam), loglam = log(lam);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = g.uniform() - 0.5;
    const double v = g.uniform();
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return static_cast<int64_t>(k);
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1.0))
      return static_cast<int64_t>(k);
  }
}

// log(k!) - Stirling's approximation of it.
__device__ double stirling_tail(double k) {
  const double table[10] = {0.08106146679532733, 0.04134069595540946, 0.027677925684997717,
                            0.02079067210376584, 0.01664469118982126, 0.013876128823072875,
                            0.011896709945893313, 0.010411265261973668, 0.00925546218270945,
                            0.008330563433359472};
  if (k <= 9.0) return table[static_cast<int>(k)];
  const double kp1sq = (k + 1.0) * (k + 1.0);
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1.0);
}

// Binomial with p <= 0.5: inversion for n*p < 10, BTRS (Hoermann 1993) above.
__device__ int64_t binomial_half(ElemRng& g, int64_t n, double p) {
  if (n == 0 || p == 0.0) return 0;
  const double nd = static_cast<double>(n);
  if (nd * p < 10.0) {
    const double q = 1.0 - p;
    const double s = p / q;
    const double a = (nd + 1.0) * s;
    const double r0 = exp(nd * log1p(-p));
    for (;;) {
      double r = r0;
      double u = g.uniform();
      int64_t x = 0;
      while (u > r) {
        u -= r;
        ++x;
        if (x > n) break;
        r *= (a / static_cast<double>(x) - s);
      }
      if (x <= n) return x;  // else rounding ran past n: draw again
    }
  }
  const double spq = sqrt(nd * p * (1.0 - p));
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = nd * p + 0.5;
  const double v_r = 0.92 - 4.2 / b;
  const double r = p / (1.0 - p);
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double m = floor((nd + 1.0) * p);
  for (;;) {
    const double u = g.uniform() - 0.5;
    double v = g.uniform();
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > nd) continue;
    if (us >= 0.07 && v <= v_r) return static_cast<int64_t>(k);
    v = log(v * alpha / (a / (us * us) + b));
    const double upper = (m + 0.5) * log((m + 1.0) / (r * (nd - m + 1.0))) +
                         (nd + 1.0) * log((nd - m + 1.0) / (nd - k + 1.0)) +
                         (k + 0.5) * log(r * (nd - k + 1.0) / (k + 1.0)) + stirling_tail(m) +
                         stirling_tail(nd - m) - stirling_tail(k) - stirling_tail(nd - k);
    if (v <= upper) return static_cast<int64_t>(k);
  }
}

template <class T>
__global__ void gamma_kernel(T* out, int64_t n, PhiloxState s, RandomParam shape, double scale) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    ElemRng g(s, i);
    out[i] = static_cast<T>(scale * standard_gamma(g, param_at(shape, i)));
  }
}

__global__ void poisson_kernel(int64_t* out, int64_t n, PhiloxState s, RandomParam lam) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    ElemRng g(s, i);
    out[i] = poisson(g, param_at(lam, i));
  }
}

__global__ void binomial_kernel(int64_t* out, int64_t n, PhiloxState s, RandomParam nn,
                                RandomParam pp) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    ElemRng g(s, i);
    const int64_t trials = static_cast<int64_t>(param_at(nn, i));
    const double p = param_at(pp, i);
    out[i] = p <= 0.5 ? binomial_half(g, trials, p) : trials - binomial_half(g, trials, 1.0 - p);
  }
}

// k uniform on [0, range] by Lemire's nearly-divisionless method.
__device__ uint64_t bounded(ElemRng& g, uint64_t range) {
  if (range == 0) return 0;
  if (range == ~uint64_t(0)) return g.next64();
  const uint64_t r = range + 1;
  if (r <= 0x100000000ull) {
    const uint32_t r32 = static_cast<uint32_t>(r);  // r == 2**32 wraps to 0: handled below
    if (r == 0x100000000ull) return g.next32();
    uint64_t m = static_cast<uint64_t>(g.next32()) * r32;
    uint32_t l = static_cast<uint32_t>(m);
    if (l < r32) {
      const uint32_t t = (0u - r32) % r32;
      while (l < t) {
        m = static_cast<uint64_t>(g.next32()) * r32;
        l = static_cast<uint32_t>(m);
      }
    }
    return m >> 32;
  }
  uint64_t x = g.next64();
  uint64_t lo = x * r;
  uint64_t hi = __umul64hi(x, r);
  if (lo < r) {
    const uint64_t t = (0ull - r) % r;
    while (lo < t) {
      x = g.next64();
      lo = x * r;
      hi = __umul64hi(x, r);
    }
  }
  return hi;
}

template <class T>
__global__ void integers_kernel(T* out, int64_t n, PhiloxState s, uint64_t low, uint64_t range) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    ElemRng g(s, i);
    const uint64_t v = low + bounded(g, range);
    if constexpr (std::is_same_v<T, bool>)
      out[i] = v != 0;
    else
      out[i] = static_cast<T>(v);
  }
}

template <class T>
__global__ void integers_array_kernel(T* out, int64_t n, PhiloxState s, const uint64_t* low,
                                      const uint64_t* range) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    ElemRng g(s, i);
    const uint64_t v = low[i] + bounded(g, range[i]);
    if constexpr (std::is_same_v<T, bool>)
      out[i] = v != 0;
    else
      out[i] = static_cast<T>(v);
  }
}

dim3 elem_grid(int64_t n) {
  return grid_for(std::min<int64_t>(n, int64_t(132) * 2048 * 4), kThreads);
}

template <class F>
void dispatch_float(const NDArray& out, const char* fn, F&& f) {
  require_contiguous(out, fn);
  if (out.dtype == DType::Float64) return f(TypeTag<double>{});
  if (out.dtype == DType::Float32) return f(TypeTag<float>{});
  throw TypeError(std::string(fn) + ": unsupported output dtype " + name(out.dtype));
}

void require_int64(const NDArray& out, const char* fn) {
  require_contiguous(out, fn);
  if (out.dtype != DType::Int64) throw TypeError(std::string(fn) + ": output must be int64");
}

}  // namespace

void random_uniform(const NDArray& out, PhiloxState s, double low, double high) {
  dispatch_float(out, "random_uniform", [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch_block<T>(out, s, UniformGen{low, high - low}, "random_uniform");
  });
}

void random_normal(const NDArray& out, PhiloxState s, double loc, double scale) {
  dispatch_float(out, "random_normal", [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch_block<T>(out, s, NormalGen{loc, scale}, "random_normal");
  });
}

void random_exponential(const NDArray& out, PhiloxState s, double scale) {
  dispatch_float(out, "random_exponential", [&](auto tag) {
    using T = typename decltype(tag)::type;
    launch_block<T>(out, s, ExponentialGen{scale}, "random_exponential");
  });
}

void random_bits64(const NDArray& out, PhiloxState s) {
  require_contiguous(out, "random_bits64");
  if (out.dtype != DType::UInt64) throw TypeError("random_bits64: output must be uint64");
  launch_block<uint64_t>(out, s, BitsGen{}, "random_bits64");
}

void random_gamma(const NDArray& out, PhiloxState s, RandomParam shape, double scale) {
  dispatch_float(out, "random_gamma", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t n = out.size();
    if (n == 0) return;
    DeviceGuard guard(out.device());
    gamma_kernel<T><<<elem_grid(n), kThreads, 0, stream_for(out)>>>(
        reinterpret_cast<T*>(out.data()), n, s, shape, scale);
    check_launch("random_gamma");
  });
}

void random_poisson(const NDArray& out, PhiloxState s, RandomParam lam) {
  require_int64(out, "random_poisson");
  const int64_t n = out.size();
  if (n == 0) return;
  DeviceGuard guard(out.device());
  poisson_kernel<<<elem_grid(n), kThreads, 0, stream_for(out)>>>(
      reinterpret_cast<int64_t*>(out.data()), n, s, lam);
  check_launch("random_poisson");
}

void random_binomial(const NDArray& out, PhiloxState s, RandomParam n_trials, RandomParam p) {
  require_int64(out, "random_binomial");
  const int64_t n = out.size();
  if (n == 0) return;
  DeviceGuard guard(out.device());
  binomial_kernel<<<elem_grid(n), kThreads, 0, stream_for(out)>>>(
      reinterpret_cast<int64_t*>(out.data()), n, s, n_trials, p);
  check_launch("random_binomial");
}

void random_integers(const NDArray& out, PhiloxState s, uint64_t low, uint64_t range,
                     const uint64_t* low_array, const uint64_t* range_array) {
  require_contiguous(out, "random_integers");
  const int64_t n = out.size();
  if (n == 0) return;
  DeviceGuard guard(out.device());
  auto launch = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (low_array)
      integers_array_kernel<T><<<elem_grid(n), kThreads, 0, stream_for(out)>>>(
          reinterpret_cast<T*>(out.data()), n, s, low_array, range_array);
    else
      integers_kernel<T><<<elem_grid(n), kThreads, 0, stream_for(out)>>>(
          reinterpret_cast<T*>(out.data()), n, s, low, range);
    check_launch("random_integers");
  };
  switch (out.dtype) {
    case DType::Bool: return launch(TypeTag<bool>{});
    case DType::Int8: return launch(TypeTag<int8_t>{});
    case DType::Int16: return launch(TypeTag<int16_t>{});
    case DType::Int32: return launch(TypeTag<int32_t>{});
    case DType::Int64: return launch(TypeTag<int64_t>{});
    case DType::UInt8: return launch(TypeTag<uint8_t>{});
    case DType::UInt16: return launch(TypeTag<uint16_t>{});
    case DType::UInt32: return launch(TypeTag<uint32_t>{});
    case DType::UInt64: return launch(TypeTag<uint64_t>{});
    default:
      throw TypeError(std::string("random_integers: unsupported output dtype ") +
                      name(out.dtype));
  }
}

}  // namespace gpuarr
