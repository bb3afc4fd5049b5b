// gpuarr.random's device kernels (see random.hpp for the counter layout).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "core/random_algorithms.hpp"
#include "ops/array_ops.hpp"
#include "ops/device_types.cuh"
#include "ops/random.hpp"
#include "ops/strided.cuh"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

constexpr int kThreads = 256;

// The grid of `threads` threads of kThreads, at most four waves of the device's resident
// threads (the kernels loop).
dim3 loop_grid(int64_t threads, int device) { return waves_grid(threads, kThreads, device, 4); }

// One 16-byte store of a block's values (st.global.v2.f64 / v4.f32).
__device__ __forceinline__ void store16(double* p, const Vals<double>& v) {
  *reinterpret_cast<double2*>(p) = make_double2(v.v[0], v.v[1]);
}
__device__ __forceinline__ void store16(float* p, const Vals<float>& v) {
  *reinterpret_cast<float4*>(p) = make_float4(v.v[0], v.v[1], v.v[2], v.v[3]);
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

template <class T, class Gen>
void launch_block(const NDArray& out, PhiloxState s, const Gen& gen, const char* name) {
  const int64_t n = out.size();
  if (n == 0) return;
  DeviceGuard guard(out.device());
  constexpr int K = Vals<T>::K;
  const int64_t nblocks = (n + K - 1) / K;
  const bool vector_ok = reinterpret_cast<uintptr_t>(out.data()) % 16 == 0;
  // A thread a block of K values, each thread looping over blocks.
  block_kernel<T, Gen><<<loop_grid(nblocks, out.device()), kThreads, 0, stream_for(out)>>>(
      reinterpret_cast<T*>(out.data()), n, s, gen, vector_ok);
  check_launch(name);
}

void require_contiguous(const NDArray& out, const char* fn) {
  if (!out.c_contiguous()) throw ValueError(std::string(fn) + ": output must be C-contiguous");
}

__device__ __forceinline__ double param_at(const RandomParam& p, int64_t i) {
  return p.data ? p.data[i] : p.value;
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

// A thread an element, each thread looping over elements.
dim3 elem_grid(const NDArray& out) { return loop_grid(out.size(), out.device()); }

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

void random_gamma(const NDArray& out, PhiloxState s, RandomParam shape, double scale) {
  dispatch_float(out, "random_gamma", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t n = out.size();
    if (n == 0) return;
    DeviceGuard guard(out.device());
    gamma_kernel<T><<<elem_grid(out), kThreads, 0, stream_for(out)>>>(
        reinterpret_cast<T*>(out.data()), n, s, shape, scale);
    check_launch("random_gamma");
  });
}

void random_poisson(const NDArray& out, PhiloxState s, RandomParam lam) {
  require_int64(out, "random_poisson");
  const int64_t n = out.size();
  if (n == 0) return;
  DeviceGuard guard(out.device());
  poisson_kernel<<<elem_grid(out), kThreads, 0, stream_for(out)>>>(
      reinterpret_cast<int64_t*>(out.data()), n, s, lam);
  check_launch("random_poisson");
}

void random_binomial(const NDArray& out, PhiloxState s, RandomParam n_trials, RandomParam p) {
  require_int64(out, "random_binomial");
  const int64_t n = out.size();
  if (n == 0) return;
  DeviceGuard guard(out.device());
  binomial_kernel<<<elem_grid(out), kThreads, 0, stream_for(out)>>>(
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
      integers_array_kernel<T><<<elem_grid(out), kThreads, 0, stream_for(out)>>>(
          reinterpret_cast<T*>(out.data()), n, s, low_array, range_array);
    else
      integers_kernel<T><<<elem_grid(out), kThreads, 0, stream_for(out)>>>(
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
