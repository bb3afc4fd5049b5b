// Reductions on the device: one functor per reduction (identity, map of an element to the
// accumulator, combine), two kernels: Inner (a block per output, threads along the reduced
// range, cub::BlockReduce) and Outer (a thread per output, consecutive outputs adjacent in
// memory). A reduced range split into chunks leaves partial accumulators that the same
// launch combines where it is cooperative (Inner), else a second launch of the same
// kernel. Instantiated per (op, input type) in reduce_*.cu.
#pragma once
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>
#include <cuda/std/complex>

#include <cstring>
#include <limits>

#include "ops/elementwise.cuh"
#include "ops/reduce_launch.hpp"
#include "ops/reductions.hpp"

namespace gpuarr {

__device__ __forceinline__ int64_t dims_offset(int64_t i, int nd, const int64_t* shape,
                                               const int64_t* stride) {
  int64_t off = 0;
  for (int d = nd - 1; d >= 0; --d) {
    const int64_t n = shape[d];
    off += (i % n) * stride[d];
    i /= n;
  }
  return off;
}

template <class C> struct ArgAcc {
  C v;
  int64_t i;
};

// What a thread loads at once from a contiguous row (core/reduction_plan.hpp's table).
template <class Acc> constexpr bool kCarriesIndex = false;
template <class C> constexpr bool kCarriesIndex<ArgAcc<C>> = true;
template <class Acc, class In>
constexpr ReduceLoads kReduceLoads = reduce_loads(kCarriesIndex<Acc>, int(sizeof(In)));

template <class T> __device__ __forceinline__ T highest() {
  if constexpr (ufn::is_cplx_v<T>) {
    using F = typename T::value_type;
    return T(std::numeric_limits<F>::infinity(), std::numeric_limits<F>::infinity());
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::infinity();
  } else {
    return std::numeric_limits<T>::max();
  }
}
template <class T> __device__ __forceinline__ T lowest() {
  if constexpr (ufn::is_cplx_v<T>) {
    using F = typename T::value_type;
    return T(-std::numeric_limits<F>::infinity(), -std::numeric_limits<F>::infinity());
  } else if constexpr (std::is_floating_point_v<T>) {
    return -std::numeric_limits<T>::infinity();
  } else {
    return std::numeric_limits<T>::lowest();
  }
}
template <class T> __device__ __forceinline__ T quiet_nan_or(T fallback) {
  if constexpr (ufn::is_cplx_v<T>) {
    using F = typename T::value_type;
    return T(std::numeric_limits<F>::quiet_NaN(), std::numeric_limits<F>::quiet_NaN());
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::quiet_NaN();
  } else {
    return fallback;
  }
}

template <class To, class From> __device__ __forceinline__ To acc_convert(From x) {
  if constexpr (ufn::is_cplx_v<To> && !ufn::is_cplx_v<From>) return To(static_cast<typename To::value_type>(x), 0);
  else if constexpr (ufn::is_cplx_v<To>) return To(x.real(), x.imag());
  else return static_cast<To>(x);
}

template <class Out, class Acc> __device__ __forceinline__ Out finish(const Acc& a) {
  return from_compute<Out>(a);
}
template <class Out, class C> __device__ __forceinline__ Out finish(const ArgAcc<C>& a) {
  return static_cast<Out>(a.i);
}

// ---- the reductions ------------------------------------------------------------------
// Each: using Acc; identity(); map(compute value, flat reduced index); combine(a, b).
// SkipNan: the NaN-skipping form, chosen at compile time: as a run-time flag in map and
// combine it cost max of 16M float32 39 us instead of 35 and the sum of 256^3 float32
// over axes (0, 2) 115 us instead of 95 (H100).
// configure: the kernels call it once with the launch's arguments (MomentsOp reads its
// ReduceOpParams there). at_output: before reducing output o; ops that read a value per
// output (SquaredDeviationOp) load it there. finish: the output's value from its total.
template <bool SkipNan> struct NanRule {
  // Ops that reduce a thread's tile of loaded elements at once (combine_tile) set this.
  static constexpr bool kCombinesTiles = false;
  template <class C> __device__ bool skipped(C x) const {
    if constexpr (std::is_integral_v<C> || !SkipNan) return false;
    else return ufn::is_nan(x);
  }
  __device__ void configure(const ReduceArgs&) {}
  __device__ void at_output(const ReduceArgs&, int64_t) {}
  template <class Out, class Acc> __device__ Out finish(const Acc& a) const {
    return gpuarr::finish<Out>(a);
  }
};
template <class A, bool SkipNan> struct SumOp : NanRule<SkipNan> {
  using Acc = A;
  __device__ Acc identity() const { return Acc(0); }
  template <class C> __device__ Acc map(C x, int64_t) const {
    return this->skipped(x) ? Acc(0) : acc_convert<Acc>(x);
  }
  __device__ Acc combine(Acc a, Acc b) const { return ufn::Add{}(a, b); }
};
// The mean: the sum over ReduceOpParams::divisor (the count), divided in the accumulator's
// type as NumPy divides its sum, in the sum's kernel instead of a launch after it.
// A complex sum is divided by the complex (count, 0) as NumPy's true_divide does (Smith's
// method: a NaN or inf part makes the other part NaN, as x * 0 does).
template <class A, bool SkipNan> struct MeanOp : SumOp<A, SkipNan> {
  using Real = typename std::conditional_t<ufn::is_cplx_v<A>, A,
                                           cuda::std::complex<A>>::value_type;
  A divisor = A(1);
  __device__ void configure(const ReduceArgs& a) { divisor = A(Real(a.params.divisor)); }
  template <class Out> __device__ Out finish(const A& a) const {
    return from_compute<Out>(ufn::TrueDivide{}(a, divisor));
  }
};
template <class A, bool SkipNan> struct ProdOp : NanRule<SkipNan> {
  using Acc = A;
  __device__ Acc identity() const { return Acc(1); }
  template <class C> __device__ Acc map(C x, int64_t) const {
    return this->skipped(x) ? Acc(1) : acc_convert<Acc>(x);
  }
  __device__ Acc combine(Acc a, Acc b) const { return ufn::Multiply{}(a, b); }
};
// max/min propagate NaN; the nan-variants ignore it (their identity is NaN for floats,
// so that an all-NaN slice stays NaN).
template <class A, bool IsMax, bool SkipNan> struct ExtremumOp : NanRule<SkipNan> {
  using Acc = A;
  __device__ Acc identity() const {
    if constexpr (std::is_same_v<A, bool>) return !IsMax;
    else if constexpr (SkipNan) return quiet_nan_or<A>(IsMax ? lowest<A>() : highest<A>());
    else return IsMax ? lowest<A>() : highest<A>();
  }
  template <class C> __device__ Acc map(C x, int64_t) const { return x; }
  __device__ Acc combine(Acc a, Acc b) const {
    if constexpr (SkipNan) {
      return IsMax ? ufn::Fmax{}(a, b) : ufn::Fmin{}(a, b);
#if __CUDA_ARCH__ >= 800
    } else if constexpr (std::is_same_v<A, float>) {
      // One instruction that propagates NaN, where maximum's two NaN tests, compare and
      // select made max of 16M float32 8% slower than its sum (tools/probes/
      // reduce_extremum.cu). Its NaN is the canonical one and +0.0 wins over -0.0: NumPy's
      // max leaves both to the order it reduces in.
      float r;
      if constexpr (IsMax) asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
      else asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
      return r;
#endif
    } else {
      return IsMax ? ufn::Maximum{}(a, b) : ufn::Minimum{}(a, b);
    }
  }
};
// argmax/argmin: the first index of the extremum; a NaN is the extremum (first NaN wins)
// unless SkipNan, where NaNs are ignored and an all-NaN slice keeps index -1.
template <class C, bool IsMax, bool SkipNan> struct ArgOp : NanRule<SkipNan> {
  using Acc = ArgAcc<C>;
  __device__ Acc identity() const { return {IsMax ? lowest<C>() : highest<C>(), -1}; }
  __device__ Acc map(C x, int64_t r) const {
    return this->skipped(x) ? identity() : Acc{x, r};
  }
  __device__ Acc combine(Acc a, Acc b) const {
    if (a.i < 0) return b;
    if (b.i < 0) return a;
    const bool an = ufn::is_nan(a.v), bn = ufn::is_nan(b.v);
    if (an || bn) {
      if (an && bn) return a.i <= b.i ? a : b;
      return an ? a : b;
    }
    const bool a_better = IsMax ? ufn::lt(b.v, a.v) : ufn::lt(a.v, b.v);
    const bool b_better = IsMax ? ufn::lt(a.v, b.v) : ufn::lt(b.v, a.v);
    if (a_better) return a;
    if (b_better) return b;
    return a.i <= b.i ? a : b;
  }
};
// The sum of |x - c|^2 with c the output's centre (ReduceOpParams::center, stored as T): the
// second pass of var/std, which then reads the data once instead of writing and reading
// the deviations. Real result; NaN elements skipped in the nanvar form.
template <class T, bool SkipNan> struct SquaredDeviationOp : NanRule<SkipNan> {
  using C = compute_t<T>;
  static constexpr bool kComplex = ufn::is_cplx_v<C>;
  using Acc = typename std::conditional_t<kComplex, C, cuda::std::complex<C>>::value_type;
  C m{};
  __device__ void at_output(const ReduceArgs& a, int64_t o) {
    m = to_compute(reinterpret_cast<const T*>(a.params.center)[o]);
  }
  __device__ Acc identity() const { return Acc(0); }
  __device__ Acc map(C x, int64_t) const {
    if (this->skipped(x)) return Acc(0);
    const C d = x - m;
    if constexpr (kComplex) return d.real() * d.real() + d.imag() * d.imag();
    else return d * d;
  }
  __device__ Acc combine(Acc a, Acc b) const { return a + b; }
};

// The count, mean and sum of squared deviations from the mean of the elements seen, merged
// by Chan et al.'s update: var/std of real data in one pass over it, where the mean's pass
// and SquaredDeviationOp's doubled the bytes read (std of 16M float32 51.6 us on the H200,
// PyTorch's one-pass Welford 29.6). A thread's tile of loaded elements (16 float32, 8
// float64) is reduced exactly as NumPy does a slice, its mean and then its squared
// deviations, and merged with one division; single elements (strided and Outer paths)
// take Welford's update. The result is the sum of squared deviations over
// ReduceOpParams::divisor (var), or its square root (std), NaN where the mean is not
// finite: NumPy's x - mean is NaN at an inf element.
__device__ __forceinline__ float reciprocal(float x) { return __frcp_rn(x); }
__device__ __forceinline__ double reciprocal(double x) { return __drcp_rn(x); }
template <class C> struct Moments {
  C mean, m2;
  int64_t n;
};
template <class T> struct MomentsOp : NanRule<false> {
  using C = compute_t<T>;
  using Acc = Moments<C>;
  static constexpr bool kCombinesTiles = true;
  C divisor = C(1);
  bool root = false;
  __device__ void configure(const ReduceArgs& a) {
    divisor = C(a.params.divisor);
    root = a.params.root;
  }
  // m2 / divisor (var), its square root (std): NumPy's division and sqrt in C.
  template <class Out> __device__ Out finish(const Acc& a) const {
    if (!isfinite(a.mean)) return from_compute<Out>(std::numeric_limits<C>::quiet_NaN());
    const C v = a.m2 / divisor;
    return from_compute<Out>(root ? sqrt(v) : v);
  }
  __device__ Acc identity() const { return {C(0), C(0), 0}; }
  __device__ Acc map(C x, int64_t) const { return {x, C(0), 1}; }
  __device__ Acc combine(const Acc& a, const Acc& b) const {
    if (b.n == 0) return a;
    if (a.n == 0) return b;
    const int64_t n = a.n + b.n;
    // A correctly rounded reciprocal, not a division: float64's division routine spilled
    // the Inner kernel's registers.
    const C w = C(b.n) * reciprocal(C(n));
    const C d = b.mean - a.mean;
    return {a.mean + d * w, a.m2 + b.m2 + d * d * C(a.n) * w, n};
  }
  template <int K> __device__ Acc combine_tile(const Acc& a, const C (&x)[K]) const {
    C s = C(0);
#pragma unroll
    for (int i = 0; i < K; ++i) s += x[i];
    const C mean = s * (C(1) / C(K));
    C m2 = C(0);
#pragma unroll
    for (int i = 0; i < K; ++i) m2 += (x[i] - mean) * (x[i] - mean);
    return combine(a, Acc{mean, m2, K});
  }
};

template <bool IsAll> struct LogicalOp : NanRule<false> {
  using Acc = bool;
  __device__ Acc identity() const { return IsAll; }
  template <class C> __device__ Acc map(C x, int64_t) const { return ufn::truthy(x); }
  __device__ Acc combine(Acc a, Acc b) const { return IsAll ? (a && b) : (a || b); }
};

// ---- kernels -------------------------------------------------------------------------
template <class Op> struct CombineOp {
  Op op;
  __device__ typename Op::Acc operator()(const typename Op::Acc& a, const typename Op::Acc& b) const {
    return op.combine(a, b);
  }
};

template <class Op> __device__ __forceinline__ Op op_of(const ReduceArgs& a) {
  Op op{};
  op.configure(a);
  return op;
}

// Element r of the reduced range of output o, mapped to the accumulator. Partial mode
// (In == Acc): the elements are accumulators already.
template <class Op, class In, bool Partial>
__device__ __forceinline__ typename Op::Acc load_mapped(const Op& op, const char* base,
                                                        const ReduceArgs& a, int64_t r) {
  const char* p = a.contiguous_reduce ? base + r * int64_t(sizeof(In))
                                      : base + dims_offset(r, a.nr, a.rshape, a.rstride);
  if constexpr (Partial) return *reinterpret_cast<const typename Op::Acc*>(p);
  else return op.map(to_compute(*reinterpret_cast<const In*>(p)), r);
}

// Accumulates elements [r0, r1) of one contiguous row: thread t of `step` takes elements
// t, t + step, ..., in kReduceLoads' vectors where row + r0 is aligned (a row of floats is
// one vector load per 4), kReduceLoads' count of them at a time, element i mapped with
// the flat reduced index f + i. The whole block takes a row (step = kReduceThreads), or a
// group of a warp's lanes (accumulate_lanes_row).
template <class Op, class In, bool Partial>
__device__ __forceinline__ typename Op::Acc accumulate_contiguous(const Op& op, const In* row,
                                                                  int64_t r0, int64_t r1, int t,
                                                                  int step, int64_t f) {
  using Acc = typename Op::Acc;
  constexpr int kBytes = kReduceLoads<Acc, In>.vector_bytes;
  constexpr int V = sizeof(In) >= kBytes ? 1 : kBytes / sizeof(In);
  using Vec = VecOf<In, V, (V > 1 ? kBytes : alignof(In))>;
  auto mapped = [&](const In& x, int64_t r) -> Acc {
    if constexpr (Partial) return x;
    else return op.map(to_compute(x), f + r);
  };
  Acc acc0 = op.identity(), acc1 = op.identity();
  int64_t r = r0;
  if constexpr (V > 1) {
    if (reinterpret_cast<uintptr_t>(row + r0) % kBytes == 0) {
      const int64_t nv = (r1 - r0) / V;
      const auto* pv = reinterpret_cast<const Vec*>(row + r0);
      int64_t k = t;
      static_assert(kReduceLoads<Acc, In>.loads == 4 || kReduceLoads<Acc, In>.loads == 2);
      if constexpr (kReduceLoads<Acc, In>.loads == 4) {
        for (; k + 3 * step < nv; k += 4 * step) {
          Vec v[4];
#pragma unroll
          for (int u = 0; u < 4; ++u) v[u] = pv[k + u * step];
          if constexpr (Op::kCombinesTiles && !Partial) {
            // The four vectors as one tile (the op does not depend on element order).
            decltype(to_compute(v[0].v[0])) x[4 * V];
#pragma unroll
            for (int u = 0; u < 4; ++u)
#pragma unroll
              for (int j = 0; j < V; ++j) x[u * V + j] = to_compute(v[u].v[j]);
            acc0 = op.combine_tile(acc0, x);
          } else {
#pragma unroll
            for (int u = 0; u < 4; u += 2) {
#pragma unroll
              for (int j = 0; j < V; ++j) {
                acc0 = op.combine(acc0, mapped(v[u].v[j], r0 + (k + u * step) * V + j));
                acc1 = op.combine(acc1, mapped(v[u + 1].v[j], r0 + (k + (u + 1) * step) * V + j));
              }
            }
          }
        }
      }
      // Two at a time (the index-carrying accumulators' registers fit only this form), then
      // at most one left.
      for (; k + step < nv; k += 2 * step) {
        const Vec v0 = pv[k];
        const Vec v1 = pv[k + step];
#pragma unroll
        for (int j = 0; j < V; ++j) {
          acc0 = op.combine(acc0, mapped(v0.v[j], r0 + k * V + j));
          acc1 = op.combine(acc1, mapped(v1.v[j], r0 + (k + step) * V + j));
        }
      }
      if (k < nv) {
        const Vec v0 = pv[k];
#pragma unroll
        for (int j = 0; j < V; ++j) acc0 = op.combine(acc0, mapped(v0.v[j], r0 + k * V + j));
      }
      r = r0 + nv * V;
    }
  }
  for (int64_t i = r + t; i < r1; i += step) acc1 = op.combine(acc1, mapped(row[i], i));
  return op.combine(acc0, acc1);
}

// A group of `lanes` lanes of a warp accumulating a contiguous row of `len` elements whose
// first has the flat reduced index f; `sub` is the lane's place in its group. Not inlined:
// the row-per-lanes paths (accumulate_rows, and the Inner kernel's lanes an output) share
// one compiled copy per kernel.
template <class Op, class In>
__device__ __noinline__ typename Op::Acc accumulate_lanes_row(const Op& op, const In* row,
                                                             int64_t len, int sub, int lanes,
                                                             int64_t f) {
  return accumulate_contiguous<Op, In, false>(op, row, 0, len, sub, lanes, f);
}

// The accumulators of groups of `lanes` (a power of two <= 32) adjacent lanes combined:
// the group's first lane holds its group's total (the others hold partial values). Every
// lane of the warp takes part. Any trivially copyable Acc moves as 32-bit words.
template <class Op>
__device__ __forceinline__ typename Op::Acc reduce_lane_groups(const Op& op,
                                                               typename Op::Acc acc,
                                                               int lanes) {
  using Acc = typename Op::Acc;
  constexpr int kWords = (sizeof(Acc) + 3) / 4;
  for (int d = lanes / 2; d > 0; d >>= 1) {
    uint32_t w[kWords] = {};
    memcpy(w, &acc, sizeof(Acc));
#pragma unroll
    for (int i = 0; i < kWords; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], d, lanes);
    Acc other = acc;
    memcpy(&other, w, sizeof(Acc));
    acc = op.combine(acc, other);
  }
  return acc;
}

// Accumulates the whole rows of reduced elements [r0, r1) (both multiples of a.row_len) of
// the output at `base`, a warp a row, so that one row's offset is computed once rather than
// one per element.
template <class Op, class In>
__device__ __forceinline__ typename Op::Acc accumulate_rows(const Op& op, const char* base,
                                                            const ReduceArgs& a, int64_t r0,
                                                            int64_t r1) {
  const int64_t len = a.row_len;
  typename Op::Acc acc = op.identity();
  for (int64_t q = r0 / len + threadIdx.x / 32; q * len < r1; q += kReduceWarps) {
    const In* row = reinterpret_cast<const In*>(base + dims_offset(q, a.nr - 1, a.rshape, a.rstride));
    acc = op.combine(acc,
                     accumulate_lanes_row<Op, In>(op, row, len, threadIdx.x % 32, 32, q * len));
  }
  return acc;
}

// Accumulates elements [r0, r1) of one reduced dim whose byte stride `st` is not the
// element size (a[::2], a reversed view, a column): a thread's elements kReduceThreads
// apart, four loads in flight (the index-carrying accumulators' registers fit two, one for
// 1- and 2-byte elements: ptxas spilled the int8 and bool argmax kernels with two),
// addresses by pointer steps. dims_offset's 64-bit division an element took sum of a [::2]
// view of 16M float32 to 64.9 us on the H200 (PyTorch 37.3).
template <class Op, class In>
__device__ __forceinline__ typename Op::Acc accumulate_strided(const Op& op, const char* base,
                                                               int64_t st, int64_t r0,
                                                               int64_t r1) {
  using Acc = typename Op::Acc;
  constexpr int T = kReduceThreads, U = !kCarriesIndex<Acc> ? 4 : (sizeof(In) >= 4 ? 2 : 1);
  auto at = [](const char* p) { return to_compute(*reinterpret_cast<const In*>(p)); };
  Acc acc[2] = {op.identity(), op.identity()};
  int64_t r = r0 + threadIdx.x;
  const int64_t step = int64_t(T) * st;
  const char* p = base + r * st;
  for (; r + (U - 1) * T < r1; r += U * T, p += U * step) {
    decltype(at(p)) x[U];
#pragma unroll
    for (int u = 0; u < U; ++u) x[u] = at(p + u * step);
#pragma unroll
    for (int u = 0; u < U; ++u) acc[u % 2] = op.combine(acc[u % 2], op.map(x[u], r + u * T));
  }
  for (; r < r1; r += T, p += step) acc[0] = op.combine(acc[0], op.map(at(p), r));
  return op.combine(acc[0], acc[1]);
}

// Partial: the second pass, over the first pass's accumulators, always one contiguous
// reduced dim (run_reduction_kernels lays them out so): no strided path is compiled.
template <class Op, class In, class Out, bool Partial>
__global__ void __launch_bounds__(kReduceThreads, kReduceInnerBlocksPerSm)
reduce_inner_kernel(ReduceArgs a, char* out, typename Op::Acc* partial) {
  using Acc = typename Op::Acc;
  using BlockReduce = cub::BlockReduce<Acc, kReduceThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  const Op op0 = op_of<Op>(a);
  if constexpr (!Partial) {
    if (a.lanes_per_output > 0) {
      // A group of lanes an output (one contiguous reduced dim, one chunk): every lane
      // loops the same number of times, so the group reductions see whole warps.
      const int lanes = a.lanes_per_output, per_warp = 32 / lanes;
      const int lane = threadIdx.x % 32, sub = lane % lanes;
      const int64_t first = (blockIdx.x * int64_t(kReduceWarps) + threadIdx.x / 32) * per_warp;
      for (int64_t o0 = first; o0 < a.n_out; o0 += int64_t(gridDim.x) * kReduceWarps * per_warp) {
        const int64_t o = o0 + lane / lanes;
        Op op = op0;
        Acc acc = op.identity();
        if (o < a.n_out) {
          op.at_output(a, o);
          const In* row =
              reinterpret_cast<const In*>(a.in + dims_offset(o, a.nk, a.kshape, a.kstride));
          acc = accumulate_lanes_row<Op, In>(op, row, a.n_reduce, sub, lanes, 0);
        }
        const Acc total = reduce_lane_groups(op, acc, lanes);
        if (sub == 0 && o < a.n_out)
          reinterpret_cast<Out*>(out)[o] = op0.template finish<Out>(total);
      }
      return;
    }
  }
  const int64_t c = blockIdx.y;
  const int64_t r0 = c * a.chunk_len;
  const int64_t r1 = min(a.n_reduce, r0 + a.chunk_len);
  for (int64_t o = blockIdx.x; o < a.n_out; o += gridDim.x) {
    Op op = op0;
    if constexpr (!Partial) op.at_output(a, o);
    const char* base = a.in + dims_offset(o, a.nk, a.kshape, a.kstride);
    Acc acc;
    if (Partial || a.contiguous_reduce) {
      acc = accumulate_contiguous<Op, In, Partial>(op, reinterpret_cast<const In*>(base), r0, r1,
                                                   threadIdx.x, kReduceThreads, 0);
    } else if (a.row_len > 0) {
      // Partial passes read one contiguous dim: row_len is 0 there.
      if constexpr (!Partial) acc = accumulate_rows<Op, In>(op, base, a, r0, r1);
    } else if (a.nr == 1) {
      if constexpr (!Partial) acc = accumulate_strided<Op, In>(op, base, a.rstride[0], r0, r1);
    } else {
      Acc acc0 = op.identity(), acc1 = op.identity();
      int64_t r = r0 + threadIdx.x;
      for (; r + kReduceThreads < r1; r += 2 * kReduceThreads) {
        const Acc x0 = load_mapped<Op, In, Partial>(op, base, a, r);
        const Acc x1 = load_mapped<Op, In, Partial>(op, base, a, r + kReduceThreads);
        acc0 = op.combine(acc0, x0);
        acc1 = op.combine(acc1, x1);
      }
      if (r < r1) acc0 = op.combine(acc0, load_mapped<Op, In, Partial>(op, base, a, r));
      acc = op.combine(acc0, acc1);
    }
    const Acc total = BlockReduce(temp).Reduce(acc, CombineOp<Op>{op});
    if (threadIdx.x == 0) {
      if (a.chunks > 1) partial[o * a.chunks + c] = total;
      else reinterpret_cast<Out*>(out)[o] = op0.template finish<Out>(total);
    }
    __syncthreads();
  }
  if constexpr (!Partial) {
    if (a.combine_partials_in_grid) {
      // The partials pass of run_reduction_kernels, in this launch.
      cooperative_groups::this_grid().sync();
      if (c != 0) return;
      for (int64_t o = blockIdx.x; o < a.n_out; o += gridDim.x) {
        const Acc acc = accumulate_contiguous<Op, Acc, true>(op0, partial + o * a.chunks, 0,
                                                             a.chunks, threadIdx.x,
                                                             kReduceThreads, 0);
        const Acc total = BlockReduce(temp).Reduce(acc, CombineOp<Op>{op0});
        if (threadIdx.x == 0) reinterpret_cast<Out*>(out)[o] = op0.template finish<Out>(total);
        __syncthreads();
      }
    }
  }
}

template <class Op, class In, class Out, bool Partial>
__global__ void reduce_outer_kernel(ReduceArgs a, char* out, typename Op::Acc* partial) {
  using Acc = typename Op::Acc;
  const Op op0 = op_of<Op>(a);
  const int64_t c = blockIdx.y;
  const int64_t r0 = c * a.chunk_len;
  const int64_t r1 = min(a.n_reduce, r0 + a.chunk_len);
  for (int64_t o = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; o < a.n_out;
       o += int64_t(gridDim.x) * blockDim.x) {
    Op op = op0;
    if constexpr (!Partial) op.at_output(a, o);
    const char* base = a.in + dims_offset(o, a.nk, a.kshape, a.kstride);
    auto mapped = [&](const char* p, int64_t r) -> Acc {
      if constexpr (Partial) return *reinterpret_cast<const Acc*>(p);
      else return op.map(to_compute(*reinterpret_cast<const In*>(p)), r);
    };
    Acc acc = op.identity();
    if (Partial || a.nr == 1) {
      // One reduced dim: walk it by pointer, four loads in flight per step.
      const int64_t st = a.rstride[0];
      const char* p = base + r0 * st;
      int64_t r = r0;
      for (; r + 4 <= r1; r += 4, p += 4 * st) {
        const Acc x0 = mapped(p, r), x1 = mapped(p + st, r + 1);
        const Acc x2 = mapped(p + 2 * st, r + 2), x3 = mapped(p + 3 * st, r + 3);
        acc = op.combine(op.combine(acc, x0), x1);
        acc = op.combine(op.combine(acc, x2), x3);
      }
      for (; r < r1; ++r, p += st) acc = op.combine(acc, mapped(p, r));
    } else {
      for (int64_t r = r0; r < r1; ++r)
        acc = op.combine(acc, mapped(base + dims_offset(r, a.nr, a.rshape, a.rstride), r));
    }
    if (a.chunks > 1) partial[c * a.n_out + o] = acc;
    else reinterpret_cast<Out*>(out)[o] = op0.template finish<Out>(acc);
  }
}

// Runs one planned reduction (run_reduction_kernels, reduce_launch.hpp) with this op's
// kernels.
template <class Op, class In, class Out>
void run_reduction(const ReductionPlan& p, const char* in, char* out, cudaStream_t stream,
                   const ReduceOpParams& params = {}) {
  using Acc = typename Op::Acc;
  static std::atomic<void*> handles[4][kMaxKernelHandleDevices];
  const ReduceKernels k{{reinterpret_cast<const void*>(&reduce_inner_kernel<Op, In, Out, false>),
                         reinterpret_cast<const void*>(&reduce_outer_kernel<Op, In, Out, false>),
                         reinterpret_cast<const void*>(&reduce_inner_kernel<Op, Acc, Out, true>),
                         reinterpret_cast<const void*>(&reduce_outer_kernel<Op, Acc, Out, true>)},
                        {handles[0], handles[1], handles[2], handles[3]},
                        int(sizeof(In)),
                        int(sizeof(Acc)),
                        kReduceLoads<Acc, In>};
  run_reduction_kernels(k, p, in, out, stream, params);
}

// NumPy's accumulator: int64/uint64 for integers and bool, float32 for float16 (stored back
// as float16), the dtype itself otherwise.
template <class T> struct SumAcc { using type = compute_t<T>; };
template <> struct SumAcc<bool> { using type = int64_t; };
template <> struct SumAcc<int8_t> { using type = int64_t; };
template <> struct SumAcc<int16_t> { using type = int64_t; };
template <> struct SumAcc<int32_t> { using type = int64_t; };
template <> struct SumAcc<uint8_t> { using type = uint64_t; };
template <> struct SumAcc<uint16_t> { using type = uint64_t; };
template <> struct SumAcc<uint32_t> { using type = uint64_t; };
template <class T> struct SumOut { using type = T; };
template <> struct SumOut<bool> { using type = int64_t; };
template <> struct SumOut<int8_t> { using type = int64_t; };
template <> struct SumOut<int16_t> { using type = int64_t; };
template <> struct SumOut<int32_t> { using type = int64_t; };
template <> struct SumOut<uint8_t> { using type = uint64_t; };
template <> struct SumOut<uint16_t> { using type = uint64_t; };
template <> struct SumOut<uint32_t> { using type = uint64_t; };

// Sums and products (and their NaN-skipping forms) in NumPy's accumulator and result types.
template <template <class, bool> class Op>
void run_sum_family(bool skip_nan, DType dtype, const ReductionPlan& p, const char* in, char* out,
                    cudaStream_t stream) {
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = typename SumAcc<T>::type;
    using O = typename SumOut<T>::type;
    constexpr bool inexact = !std::is_integral_v<compute_t<T>>;
    if (inexact && skip_nan) run_reduction<Op<A, inexact>, T, O>(p, in, out, stream);
    else run_reduction<Op<A, false>, T, O>(p, in, out, stream);
  });
}

// The max/min family (max or min and its NaN-skipping form, argmax or argmin likewise): one
// dispatch for both operator templates, one direction per file (reduce_max.cu, reduce_min.cu,
// reduce_argmax.cu, reduce_argmin.cu). The NaN-skipping forms only differ for inexact types;
// for integers they are the plain ones.
template <template <class, bool, bool> class Op, bool kIndexOut, bool kIsMax>
void run_extremum_family(bool skip_nan, DType dtype, const ReductionPlan& p, const char* in,
                         char* out, cudaStream_t stream) {
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    using Out = std::conditional_t<kIndexOut, int64_t, T>;
    constexpr bool inexact = !std::is_integral_v<C>;
    if (inexact && skip_nan) run_reduction<Op<C, kIsMax, inexact>, T, Out>(p, in, out, stream);
    else run_reduction<Op<C, kIsMax, false>, T, Out>(p, in, out, stream);
  });
}

}  // namespace gpuarr
