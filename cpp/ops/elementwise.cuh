// The elementwise engine's device half: one kernel template for every ufunc loop, with
// 16-byte vector accesses along contiguous rows and a strided path; Python scalars arrive
// by value. A ufunc's table instantiates it per loop type (ufunc_*.cu); the host half that
// plans a launch is one function for all loops (elementwise_launch.cu).
#pragma once
#include <cuda/std/complex>
#include <cuda_fp16.h>

#include <atomic>
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

// How a launch walks its elements. Contiguous (a kernel of its own): every operand
// contiguous and 16-byte aligned, one vector a thread with nothing to check. The general
// kernel's modes: Flat: any other one dimension (after coalescing), one row that the grid
// walks together. Rows: strided operands whose innermost (coalesced) dim is long: one
// block per row finds the row's offsets once and walks the row with its inner strides, with
// no per-element index division (row/column broadcasts such as x[:, None] - y run at
// bandwidth). Strided: any other layout, each element's offsets found by 32-bit index
// division. A launch of the Rows or Strided mode holds at most INT32_MAX elements (the
// host cuts larger problems into pieces), so that the kernel indexes in 32 bits and no
// 64-bit path is compiled for every loop.
enum class EwMode : int { Flat, Rows, Strided };

template <int NIN>
struct EwArgs {
  StridedArgs<NIN + 1> s;  // operand 0 is the output
  EwMode mode;
  bool is_scalar[NIN];
  alignas(16) unsigned char scalar[NIN][16];
};


template <class Op, class C> struct ComputedAs;

// Functions whose float64 code holds enough registers that a thread of the contiguous
// kernel computes one element, not a 16-byte pair: the occupancy lost costs more than the
// second load in flight gains. Measured on the H200 (tools/probes/elementwise_width.cu, 16M
// elements, us, one element / pair): exp 77.9 / 84.4 (26 / 56 registers), exp2 78.1 / 83.7,
// arcsin 96.9 / 104.6, arctan 83.2 / 112.6, true_divide 100.3 / 105.6, floor_divide 200.0 /
// 208.5, tan 86.8 / 87.6; every other loop of 8-byte operands probed ran faster in pairs
// (log 86.7 / 74.4, sin 95.1 / 81.5, remainder of int64 136.4 / 102.3, isfinite 55.2 /
// 42.5).
template <class Op> constexpr bool kOneFloat64AThread = false;
#define GPUARR_ONE_FLOAT64_A_THREAD(OP) \
  template <> constexpr bool kOneFloat64AThread<ufn::OP> = true;
GPUARR_ONE_FLOAT64_A_THREAD(Exp)
GPUARR_ONE_FLOAT64_A_THREAD(Exp2)
GPUARR_ONE_FLOAT64_A_THREAD(Tan)
GPUARR_ONE_FLOAT64_A_THREAD(Arcsin)
GPUARR_ONE_FLOAT64_A_THREAD(Arctan)
GPUARR_ONE_FLOAT64_A_THREAD(TrueDivide)
GPUARR_ONE_FLOAT64_A_THREAD(FloorDivide)
GPUARR_ONE_FLOAT64_A_THREAD(DivmodQuotient)
#undef GPUARR_ONE_FLOAT64_A_THREAD
// Whether Op computes in float64 one of those functions (C, the loop's compute type; a
// converting loop's functor names its own).
template <class Op, class C>
constexpr bool kOneWideElement = kOneFloat64AThread<Op> && std::is_same_v<C, double>;
template <class Op, class CC, class C>
constexpr bool kOneWideElement<ComputedAs<Op, CC>, C> = kOneWideElement<Op, CC>;

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
  // The contiguous kernel's elements a thread: the 16-byte vector (a pair of 8-byte
  // operands), but one element of the float64 functions that hold many registers
  // (kOneWideElement; a warp still reads 256 contiguous bytes an access).
  static constexpr int kContiguousV = kOneWideElement<Op, C> ? 1 : V;

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
// its one value, b0 or bin), op applied, stored as one vector.
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

// Elements c0, c0 + cstep, ... of one row (`inner` elements along dim d, operand k
// starting at data[k] + off[k]). Where every array operand is contiguous along the row
// (16-byte aligned at the row's start) or broadcast along it (stride 0, read once), the
// row goes in 16-byte vectors: x[:, None] - y and y + v then run at copy bandwidth, where
// the element-at-a-time loop with stride products reached ~65% of it. The elements past
// the last whole vector, and rows that do not qualify, go one at a time with the strides.
template <class L, class Out, int NIN, class In, class In0, class Op>
__device__ __forceinline__ void row_loop(const Op& op, const EwArgs<NIN>& a,
                                         const int64_t (&off)[NIN + 1], int d, int64_t inner,
                                         int64_t c0, int64_t cstep) {
  constexpr int V = L::V;
  int64_t scalar_from = 0;
  if constexpr (V > 1) {
    bool vectorised = true;
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
        vectorised = false;
    }
    if (vectorised) {
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
      for (int64_t c = c0; c < nv; c += cstep)
        vector_chunk<L, Out, NIN, In, In0>(op, a, a.s.data[0] + off[0], in, bcast, b0, bin, c);
      scalar_from = nv * V;
    }
  }
  auto element = [&](int64_t j) {
    return L::apply(op, [&](int k, auto tag) {
      using T = decltype(tag);
      if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
      return *reinterpret_cast<const T*>(a.s.data[k + 1] + off[k + 1] +
                                         j * a.s.strides[k + 1][d]);
    });
  };
  auto store = [&](int64_t j, Out v) {
    *reinterpret_cast<Out*>(a.s.data[0] + off[0] + j * a.s.strides[0][d]) = v;
  };
  // Two elements an iteration, both computed before either is stored, so that their loads
  // are in flight together (no store between them that the loads might alias): the strided
  // loop is bound by its loads' latency (tools/probes/elementwise_flat_grid.cu).
  int64_t j = scalar_from + c0;
#pragma unroll 1
  for (; j + cstep < inner; j += 2 * cstep) {
    const Out v0 = element(j), v1 = element(j + cstep);
    store(j, v0);
    store(j + cstep, v1);
  }
  if (j < inner) store(j, element(j));
}

// The contiguous launch: a kernel of its own, because the general kernel's strided paths
// hold 70 registers a thread (three blocks an SM), which left exp of 16M float64 at 66% of
// DRAM bandwidth (113 us; CuPy's kernel of one element a thread, 25 registers, 95 us on
// the H100). V, the elements a thread, is the loop's kContiguousV; the other width (one
// element or the 16-byte vector) exists for tools/probes/elementwise_width.cu.
template <class Op, class Out, int NIN, class In, class In0,
          int V = EwLoop<Op, Out, NIN, In, In0>::kContiguousV>
__global__ void elementwise_contiguous_kernel(EwArgs<NIN> a, int64_t n) {
  using L = EwLoop<Op, Out, NIN, In, In0>;
  static_assert(V == 1 || V == L::V, "one element or the loop's 16-byte vector a thread");
  const Op op{};
  const int64_t tid = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  const int64_t nv = n / V;
  const char* in[NIN];
  const bool none[NIN] = {};
  const In0 b0{};
  const In bin[NIN > 1 ? NIN - 1 : 1] = {};
#pragma unroll
  for (int k = 0; k < NIN; ++k) in[k] = a.s.data[k + 1];
  // The loops stay rolled: nvcc unrolls a grid-stride loop four times (behind a 64-bit
  // division for its trip count), and the copies of a costly function hold registers at
  // once (exp of float64: 46 a thread and 130 us, against 26 and 97 rolled), while a thread
  // here mostly runs one iteration.
  if constexpr (V > 1) {
#pragma unroll 1
    for (int64_t c = tid; c < nv; c += step)
      vector_chunk<L, Out, NIN, In, In0>(op, a, a.s.data[0], in, none, b0, bin, c);
  }
#pragma unroll 1
  for (int64_t i = (V > 1 ? nv * V : 0) + tid; i < n; i += step) {
    reinterpret_cast<Out*>(a.s.data[0])[i] = L::apply(op, [&](int k, auto tag) {
      using T = decltype(tag);
      if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
      return reinterpret_cast<const T*>(a.s.data[k + 1])[i];
    });
  }
}

template <class Op, class Out, int NIN, class In, class In0>
__global__ void elementwise_kernel(EwArgs<NIN> a, int64_t n) {
  using L = EwLoop<Op, Out, NIN, In, In0>;
  const Op op{};
  if (a.mode == EwMode::Strided) {
    const uint32_t step = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
      int64_t off[NIN + 1];
      element_offsets32(a.s, i, off);
      *reinterpret_cast<Out*>(a.s.data[0] + off[0]) = L::apply(op, [&](int k, auto tag) {
        using T = decltype(tag);
        if (a.is_scalar[k]) return scalar_of<T>(a.scalar[k]);
        return *reinterpret_cast<const T*>(a.s.data[k + 1] + off[k + 1]);
      });
    }
    return;
  }
  // Flat: one row of n elements, walked by the whole grid; Rows: row r by block r.
  const bool flat = a.mode == EwMode::Flat;
  const int d = a.s.ndim - 1;
  const int64_t inner = flat ? n : a.s.shape[d];
  const int64_t rows = flat ? 1 : n / inner;
  const int64_t c0 = flat ? blockIdx.x * int64_t(blockDim.x) + threadIdx.x : threadIdx.x;
  const int64_t cstep = flat ? int64_t(gridDim.x) * blockDim.x : blockDim.x;
  for (int64_t r = flat ? 0 : blockIdx.x; r < rows; r += flat ? 1 : gridDim.x) {
    int64_t off[NIN + 1] = {};
    if (!flat) element_offsets32(a.s, static_cast<uint32_t>(r * inner), off);
    row_loop<L, Out, NIN, In, In0>(op, a, off, d, inner, c0, cstep);
  }
}

// The host half of every loop's launch (elementwise_launch.cu): checks the operands'
// layout, picks the mode and grid, and launches `kernel` (an elementwise_kernel whose
// operands have these sizes and vector width).
struct EwKernel {
  const void* kernel;
  std::atomic<void*>* handles;  // the kernel's driver handles (runtime/kernel_launch.hpp)
  const void* contiguous_kernel;
  std::atomic<void*>* contiguous_handles;
  int out_size, in0_size, in_size, contiguous_width;  // elements a thread of the contiguous kernel
};
template <int NIN>
void launch_elementwise_kernel(const EwKernel& k, const Dims& shape,
                               const UfuncOperandView* ops, cudaStream_t stream);

template <class Op, class Out, int NIN, class In, class In0>
void launch_elementwise(const Dims& shape, const UfuncOperandView* ops, cudaStream_t stream) {
  static std::atomic<void*> handles[kMaxKernelHandleDevices];
  static std::atomic<void*> contiguous_handles[kMaxKernelHandleDevices];
  const EwKernel k{reinterpret_cast<const void*>(&elementwise_kernel<Op, Out, NIN, In, In0>),
                   handles,
                   reinterpret_cast<const void*>(
                       &elementwise_contiguous_kernel<Op, Out, NIN, In, In0>),
                   contiguous_handles, int(sizeof(Out)), int(sizeof(In0)), int(sizeof(In)),
                   EwLoop<Op, Out, NIN, In, In0>::kContiguousV};
  launch_elementwise_kernel<NIN>(k, shape, ops, stream);
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

// Ops whose result bits follow from the operands' bits alone, whether an integer is signed
// or not (two's complement wraps; comparisons for equality; truth tests): a signed integer
// loop of these runs the unsigned loop of its width, one kernel compiled for both.
template <class Op> constexpr bool kSignBlind = false;
#define GPUARR_SIGN_BLIND(OP) template <> constexpr bool kSignBlind<ufn::OP> = true;
GPUARR_SIGN_BLIND(Add)
GPUARR_SIGN_BLIND(Subtract)
GPUARR_SIGN_BLIND(Multiply)
GPUARR_SIGN_BLIND(Negative)
GPUARR_SIGN_BLIND(Positive)
GPUARR_SIGN_BLIND(Square)
GPUARR_SIGN_BLIND(Conjugate)
GPUARR_SIGN_BLIND(BitwiseAnd)
GPUARR_SIGN_BLIND(BitwiseOr)
GPUARR_SIGN_BLIND(BitwiseXor)
GPUARR_SIGN_BLIND(Invert)
GPUARR_SIGN_BLIND(Equal)
GPUARR_SIGN_BLIND(NotEqual)
GPUARR_SIGN_BLIND(LogicalAnd)
GPUARR_SIGN_BLIND(LogicalOr)
GPUARR_SIGN_BLIND(LogicalXor)
GPUARR_SIGN_BLIND(LogicalNot)
GPUARR_SIGN_BLIND(Isnan)
GPUARR_SIGN_BLIND(Isinf)
GPUARR_SIGN_BLIND(Isfinite)
#undef GPUARR_SIGN_BLIND

template <class Op, class T,
          bool = kSignBlind<Op> && std::is_integral_v<T> && std::is_signed_v<T>>
struct KernelTypeOf { using type = T; };
template <class Op, class T> struct KernelTypeOf<Op, T, true> {
  using type = std::make_unsigned_t<T>;
};
template <class Op, class T> using KernelType = typename KernelTypeOf<Op, T>::type;

template <class Op, int NIN, class... Ts>
UfuncDef* make_ufunc(const char* name, UfuncResolver resolver, const char* doc,
                     UfuncRules rules = {}) {
  auto* def = new UfuncDef(name, NIN, resolver, doc, rules);
  def->functor = Op::name;
  auto add = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Out = typename OutStorage<T, typename OpResult<Op, NIN, compute_t<T>>::type>::type;
    using K = KernelType<Op, T>;
    using KOut = typename OutStorage<K, typename OpResult<Op, NIN, compute_t<K>>::type>::type;
    static_assert(sizeof(KOut) == sizeof(Out), "a shared loop keeps the output's size");
    UfuncLoopTypes lt{{dtype_of<T>(), dtype_of<T>(), dtype_of<T>()}, dtype_of<Out>()};
    def->loop_types.push_back(lt);
    def->launchers.push_back(&launch_elementwise<Op, KOut, NIN, K, K>);
  };
  (add(TypeTag<Ts>{}), ...);
  return def;
}

// Op with its inputs converted to C first: the converting loops' functor.
template <class Op, class C>
struct ComputedAs {
  template <class... A>
  __device__ __forceinline__ auto operator()(A... a) const {
    return Op{}(static_cast<C>(a)...);
  }
};

// Adds to `def` a converting loop (core/ufunc_info.hpp) per storage type in Ins: Op of
// inputs of that type read as they are and converted in the kernel to the compute type of
// def's loop of storage type T, which it stands in for.
template <class Op, int NIN, class T, class... Ins>
void add_converting_loops(UfuncDef* def) {
  int computes_as = -1;
  for (size_t i = 0; i < def->loop_types.size(); ++i)
    if (def->loop_types[i].in[0] == dtype_of<T>()) computes_as = static_cast<int>(i);
  using C = compute_t<T>;
  using Out = typename OutStorage<T, typename OpResult<Op, NIN, C>::type>::type;
  auto add = [&](auto tag) {
    using In = typename decltype(tag)::type;
    const DType in = dtype_of<In>();
    def->converting_loops.push_back({{{in, in, in}, dtype_of<Out>()}, computes_as});
    def->converting_launchers.push_back(
        &launch_elementwise<ComputedAs<Op, C>, Out, NIN, In, In>);
  };
  (add(TypeTag<Ins>{}), ...);
}

}  // namespace gpuarr
