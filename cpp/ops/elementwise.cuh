// The elementwise engine's device half: one kernel template for every ufunc loop, with a
// vectorised path for contiguous operands (16-byte accesses), a contiguous scalar path
// and a strided path; Python scalars arrive by value. A ufunc's table instantiates it per
// loop type (ufunc_*.cu).
#pragma once
#include <cuda/std/complex>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "ops/device_types.cuh"
#include "ops/strided.cuh"
#include "ops/ufunc.hpp"
#include "gpuarr/ufunc_complex.cuh"
#include "runtime/kernel_launch.hpp"

namespace gpuarr {

// Storage type (as in memory) -> the type functors compute in, and back.
template <class T> struct ComputeOf { using type = T; };
template <> struct ComputeOf<__half> { using type = float; };
template <class F> struct ComputeOf<Complex<F>> { using type = cuda::std::complex<F>; };
template <class T> using compute_t = typename ComputeOf<T>::type;

template <class T> __device__ __forceinline__ compute_t<T> to_compute(T x) {
  if constexpr (std::is_same_v<T, __half>) return ufn::half_to_float(x);
  else if constexpr (std::is_same_v<T, complex64_t> || std::is_same_v<T, complex128_t>)
    return compute_t<T>(x.re, x.im);
  else return x;
}
template <class S, class C> __device__ __forceinline__ S from_compute(C x) {
  if constexpr (std::is_same_v<S, __half>) return __float2half(x);
  else if constexpr (std::is_same_v<S, complex64_t> || std::is_same_v<S, complex128_t>)
    return S{x.real(), x.imag()};
  else return static_cast<S>(x);
}

// The storage type of a loop's output, from the storage type of its inputs and the type
// the functor returns: bool stays bool, a real result of complex input is the component
// type (absolute), otherwise the input's own type.
template <class In, class R> struct OutStorage {
  using type = std::conditional_t<
      std::is_same_v<R, bool>, bool,
      std::conditional_t<std::is_same_v<R, compute_t<In>>, In,
                         std::conditional_t<std::is_same_v<R, float>, float, R>>>;
};
template <> struct OutStorage<__half, float> { using type = __half; };

template <class T> constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return DType::Bool;
  else if constexpr (std::is_same_v<T, int8_t>) return DType::Int8;
  else if constexpr (std::is_same_v<T, int16_t>) return DType::Int16;
  else if constexpr (std::is_same_v<T, int32_t>) return DType::Int32;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::Int64;
  else if constexpr (std::is_same_v<T, uint8_t>) return DType::UInt8;
  else if constexpr (std::is_same_v<T, uint16_t>) return DType::UInt16;
  else if constexpr (std::is_same_v<T, uint32_t>) return DType::UInt32;
  else if constexpr (std::is_same_v<T, uint64_t>) return DType::UInt64;
  else if constexpr (std::is_same_v<T, __half>) return DType::Float16;
  else if constexpr (std::is_same_v<T, float>) return DType::Float32;
  else if constexpr (std::is_same_v<T, double>) return DType::Float64;
  else if constexpr (std::is_same_v<T, complex64_t>) return DType::Complex64;
  else return DType::Complex128;
}

// Rows: strided operands whose innermost (coalesced) dim is long: one block per row finds
// the row's offsets once and walks the row with its inner strides, with no per-element
// index division (row/column broadcasts such as x[:, None] - y run at bandwidth).
enum class EwMode : int { Vector, Contiguous, Strided, Rows };
constexpr int64_t kEwRowsMinInner = 128;

template <int NIN>
struct EwArgs {
  StridedArgs<NIN + 1> s;  // operand 0 is the output
  EwMode mode;
  bool is_scalar[NIN];
  alignas(16) unsigned char scalar[NIN][16];
};

template <class T, int V> struct alignas(sizeof(T) * V >= 16 ? 16 : alignof(T)) VecOf {
  T v[V];
};

// One loop: Out op(In, In, ...) for NIN inputs of one storage type (InLast may differ
// for the first input of `where`, whose condition is bool).
template <class Op, class Out, int NIN, class In, class In0>
struct EwLoop {
  using C = compute_t<In>;
  using C0 = compute_t<In0>;
  static constexpr int kMaxSize =
      sizeof(Out) > sizeof(In) ? (sizeof(Out) > sizeof(In0) ? sizeof(Out) : sizeof(In0))
                               : (sizeof(In) > sizeof(In0) ? sizeof(In) : sizeof(In0));
  static constexpr int V = kMaxSize >= 16 ? 1 : 16 / kMaxSize;

  template <class Load> __device__ static Out apply(const Op& op, Load&& load) {
    if constexpr (NIN == 1) return from_compute<Out>(op(to_compute(load(0, In0{}))));
    else if constexpr (NIN == 2)
      return from_compute<Out>(op(to_compute(load(0, In0{})), to_compute(load(1, In{}))));
    else
      return from_compute<Out>(op(to_compute(load(0, In0{})), to_compute(load(1, In{})),
                                  to_compute(load(2, In{}))));
  }
};

template <class T> __device__ __forceinline__ T scalar_of(const unsigned char* p) {
  return *reinterpret_cast<const T*>(p);
}

// Vector c (V elements) of every operand from its base pointer (a broadcast operand gives
// its one value, b0 or bin), op applied, stored as one vector: the body of the Vector mode
// and of the Rows mode's vector rows.
template <class L, class Out, int NIN, class In, class In0, class Op>
__device__ __forceinline__ void vector_chunk(const Op& op, const EwArgs<NIN>& a, char* out,
                                             const char* const (&in)[NIN],
                                             const bool (&bcast)[NIN], In0 b0,
                                             const In (&bin)[NIN > 1 ? NIN - 1 : 1],
                                             int64_t c) {
  constexpr int V = L::V;
  VecOf<In0, V> v0;
  VecOf<In, V> vin[NIN > 1 ? NIN - 1 : 1];
  if (!a.is_scalar[0] && !bcast[0]) v0 = reinterpret_cast<const VecOf<In0, V>*>(in[0])[c];
#pragma unroll
  for (int k = 1; k < NIN; ++k)
    if (!a.is_scalar[k] && !bcast[k])
      vin[k - 1] = reinterpret_cast<const VecOf<In, V>*>(in[k])[c];
  VecOf<Out, V> res;
#pragma unroll
  for (int j = 0; j < V; ++j) {
    res.v[j] = L::apply(op, [&](int k, auto tag) {
      using T = decltype(tag);
      if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
      if constexpr (std::is_same_v<T, In0>) {
        if (k == 0) return bcast[0] ? b0 : v0.v[j];
      }
      if constexpr (std::is_same_v<T, In>) return bcast[k] ? bin[k - 1] : vin[k - 1].v[j];
      else return T{};
    });
  }
  reinterpret_cast<VecOf<Out, V>*>(out)[c] = res;
}

// One row of the Rows mode with 16-byte loads and stores, where every array operand is
// contiguous along the row (16-byte aligned at the row's start) or broadcast along it
// (stride 0, read once per row): x[:, None] - y and y + v then run at copy bandwidth,
// where the element-at-a-time loop with 64-bit stride products reached ~65% of it.
// Returns false (nothing done) where a row does not qualify.
template <class L, class Out, int NIN, class In, class In0, class Op>
__device__ __forceinline__ bool rows_vector_step(const Op& op, const EwArgs<NIN>& a,
                                                 const int64_t (&off)[NIN + 1], int d,
                                                 int64_t inner) {
  constexpr int V = L::V;
  if constexpr (V == 1) {
    return false;
  } else {
    bool bcast[NIN];
    for (int k = 0; k <= NIN; ++k) {
      const int64_t size = k == 0 ? sizeof(Out) : (k == 1 ? sizeof(In0) : sizeof(In));
      if (k > 0) {
        bcast[k - 1] = false;
        if (a.is_scalar[k - 1]) continue;
        if (a.s.strides[k][d] == 0) {
          bcast[k - 1] = true;
          continue;
        }
      }
      if (a.s.strides[k][d] != size ||
          reinterpret_cast<uintptr_t>(a.s.data[k] + off[k]) % 16 != 0)
        return false;
    }
    // The broadcast values of this row (an operand of the other type than its slot is
    // never read: `apply` asks operand 0 for In0 and the others for In).
    In0 b0{};
    In bin[NIN > 1 ? NIN - 1 : 1] = {};
    if (bcast[0]) b0 = *reinterpret_cast<const In0*>(a.s.data[1] + off[1]);
#pragma unroll
    for (int k = 1; k < NIN; ++k)
      if (bcast[k]) bin[k - 1] = *reinterpret_cast<const In*>(a.s.data[k + 1] + off[k + 1]);
    const char* in[NIN];
#pragma unroll
    for (int k = 0; k < NIN; ++k) in[k] = a.s.data[k + 1] + off[k + 1];
    const int64_t nv = inner / V;
    for (int64_t c = threadIdx.x; c < nv; c += blockDim.x)
      vector_chunk<L, Out, NIN, In, In0>(op, a, a.s.data[0] + off[0], in, bcast, b0, bin, c);
    for (int64_t j = nv * V + threadIdx.x; j < inner; j += blockDim.x) {
      reinterpret_cast<Out*>(a.s.data[0] + off[0])[j] = L::apply(op, [&](int k, auto tag) {
        using T = decltype(tag);
        if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
        const int64_t step = bcast[k] ? 0 : static_cast<int64_t>(sizeof(T));
        return *reinterpret_cast<const T*>(a.s.data[k + 1] + off[k + 1] + j * step);
      });
    }
    return true;
  }
}

template <class Op, class Out, int NIN, class In, class In0>
__global__ void elementwise_kernel(EwArgs<NIN> a, int64_t n) {
  using L = EwLoop<Op, Out, NIN, In, In0>;
  const Op op{};
  const int64_t tid = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  if (a.mode == EwMode::Vector) {
    constexpr int V = L::V;
    const int64_t nv = n / V;
    const char* in[NIN];
    const bool none[NIN] = {};
    const In0 b0{};
    const In bin[NIN > 1 ? NIN - 1 : 1] = {};
#pragma unroll
    for (int k = 0; k < NIN; ++k) in[k] = a.s.data[k + 1];
    for (int64_t c = tid; c < nv; c += step)
      vector_chunk<L, Out, NIN, In, In0>(op, a, a.s.data[0], in, none, b0, bin, c);
    for (int64_t i = nv * V + tid; i < n; i += step) {
      reinterpret_cast<Out*>(a.s.data[0])[i] = L::apply(op, [&](int k, auto tag) {
        using T = decltype(tag);
        if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
        return reinterpret_cast<const T*>(a.s.data[k + 1])[i];
      });
    }
  } else if (a.mode == EwMode::Contiguous) {
    for (int64_t i = tid; i < n; i += step) {
      reinterpret_cast<Out*>(a.s.data[0])[i] = L::apply(op, [&](int k, auto tag) {
        using T = decltype(tag);
        if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
        return reinterpret_cast<const T*>(a.s.data[k + 1])[i];
      });
    }
  } else if (a.mode == EwMode::Rows) {
    const int d = a.s.ndim - 1;
    const int64_t inner = a.s.shape[d];
    const int64_t rows = n / inner;
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
      int64_t off[NIN + 1];
      element_offsets(a.s, r * inner, off);
      if (rows_vector_step<L, Out, NIN, In, In0>(op, a, off, d, inner)) continue;
      for (int64_t j = threadIdx.x; j < inner; j += blockDim.x) {
        *reinterpret_cast<Out*>(a.s.data[0] + off[0] + j * a.s.strides[0][d]) =
            L::apply(op, [&](int k, auto tag) {
              using T = decltype(tag);
              if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
              return *reinterpret_cast<const T*>(a.s.data[k + 1] + off[k + 1] +
                                                 j * a.s.strides[k + 1][d]);
            });
      }
    }
  } else if (n <= INT32_MAX) {
    for (int64_t i = tid; i < n; i += step) {
      int64_t off[NIN + 1];
      element_offsets32(a.s, static_cast<uint32_t>(i), off);
      *reinterpret_cast<Out*>(a.s.data[0] + off[0]) = L::apply(op, [&](int k, auto tag) {
        using T = decltype(tag);
        if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
        return *reinterpret_cast<const T*>(a.s.data[k + 1] + off[k + 1]);
      });
    }
  } else {
    for (int64_t i = tid; i < n; i += step) {
      int64_t off[NIN + 1];
      element_offsets(a.s, i, off);
      *reinterpret_cast<Out*>(a.s.data[0] + off[0]) = L::apply(op, [&](int k, auto tag) {
        using T = decltype(tag);
        if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
        return *reinterpret_cast<const T*>(a.s.data[k + 1] + off[k + 1]);
      });
    }
  }
}

template <class Op, class Out, int NIN, class In, class In0>
void launch_elementwise(const Dims& shape, const UfuncOperandView* ops, cudaStream_t stream) {
  using L = EwLoop<Op, Out, NIN, In, In0>;
  constexpr int N = NIN + 1;
  constexpr int kThreads = 256;
  const int64_t total = shape_size(shape);
  if (total == 0) return;
  EwArgs<NIN> args{};
  const Dims zeros(shape.size(), 0);
  std::array<const Dims*, N> strides;
  std::array<char*, N> data;
  bool contiguous = shape.size() <= 1;
  bool aligned = true;
  for (int k = 0; k < N; ++k) {
    const UfuncOperandView& o = ops[k];
    const bool scalar = k > 0 && o.is_scalar;
    strides[k] = scalar ? &zeros : o.strides;
    data[k] = scalar ? nullptr : o.data;
    if (k > 0) {
      args.is_scalar[k - 1] = scalar;
      if (scalar) std::memcpy(args.scalar[k - 1], o.scalar, 16);
    }
    if (!scalar) {
      const int64_t size = k == 0 ? sizeof(Out) : (k == 1 ? sizeof(In0) : sizeof(In));
      if (shape.size() == 1 && (*o.strides)[0] != size) contiguous = false;
      if (reinterpret_cast<uintptr_t>(o.data) % 16 != 0) aligned = false;
    }
  }
  args.mode = !contiguous ? EwMode::Strided : (aligned && L::V > 1 && total >= L::V)
                                                  ? EwMode::Vector
                                                  : EwMode::Contiguous;
  if (contiguous) {
    args.s.ndim = 1;
    args.s.shape[0] = total;
    for (int k = 0; k < N; ++k) args.s.data[k] = data[k];
    const int64_t work = args.mode == EwMode::Vector ? (total + L::V - 1) / L::V : total;
    launch_kernel<&elementwise_kernel<Op, Out, NIN, In, In0>>(grid_for(work, kThreads),
                                                              kThreads, 0, stream, args, total);
    check_launch("elementwise_kernel");
    return;
  }
  for_each_launch<N>(shape, strides, data, [&](const StridedArgs<N>& s, int64_t n) {
    args.s = s;
    const int64_t inner = s.ndim >= 2 ? s.shape[s.ndim - 1] : 0;
    args.mode = inner >= kEwRowsMinInner ? EwMode::Rows : EwMode::Strided;
    const dim3 grid = args.mode == EwMode::Rows
                          ? dim3(static_cast<unsigned>(std::min<int64_t>(n / inner, 1 << 20)))
                          : grid_for(n, kThreads);
    launch_kernel<&elementwise_kernel<Op, Out, NIN, In, In0>>(grid, kThreads, 0, stream, args, n);
    check_launch("elementwise_kernel");
  });
}

// Builds a UfuncDef whose loops are Op over each storage type in Ts (inputs all of that
// type; the output type follows from what Op returns).
template <class Op, int NIN, class C> struct OpResult;
template <class Op, class C> struct OpResult<Op, 1, C> {
  using type = decltype(std::declval<const Op&>()(std::declval<C>()));
};
template <class Op, class C> struct OpResult<Op, 2, C> {
  using type = decltype(std::declval<const Op&>()(std::declval<C>(), std::declval<C>()));
};
template <class Op, class C> struct OpResult<Op, 3, C> {
  using type = decltype(std::declval<const Op&>()(std::declval<C>(), std::declval<C>(),
                                                   std::declval<C>()));
};

template <class Op, int NIN, class... Ts>
UfuncDef* make_ufunc(const char* name, UfuncResolver resolver, const char* doc,
                     UfuncRules rules = {}) {
  auto* def = new UfuncDef(name, NIN, resolver, doc, rules);
  def->functor = Op::name;
  auto add = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    using R = typename OpResult<Op, NIN, C>::type;
    using Out = typename OutStorage<T, R>::type;
    UfuncLoopTypes lt{{dtype_of<T>(), dtype_of<T>(), dtype_of<T>()}, dtype_of<Out>()};
    def->loop_types.push_back(lt);
    def->launchers.push_back(&launch_elementwise<Op, Out, NIN, T, T>);
  };
  (add(TypeTag<Ts>{}), ...);
  return def;
}

}  // namespace gpuarr
