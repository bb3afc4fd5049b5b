// row_reduce: one bandwidth-bound pass of dots and norms along one strided dimension, for
// every index of a (broadcast) batch. Long rows are split into chunks whose partial
// results a second launch combines; short rows take a thread each.
#include <cmath>
#include <type_traits>

#include "core/errors.hpp"
#include "ops/device_types.cuh"
#include "ops/products.hpp"
#include "ops/products_arith.cuh"
#include "ops/strided.cuh"
#include "runtime/memory.hpp"

namespace gpuarr {
namespace {

constexpr int kRowThreads = 256;
constexpr int kUnroll = 8;

struct RowArgs {
  int nd;
  int64_t shape[kKernelDims];
  int64_t strides[3][kKernelDims];  // x, y, out
  const char* x;
  const char* y;
  char* out;
  int64_t k, kx, ky;
  int64_t rows;
  double p, inv_p;
};

template <class T> struct is_cplx : std::false_type {};
template <class R> struct is_cplx<Complex<R>> : std::true_type {};

template <class T, RowOp OP>
struct RowFn {
  static constexpr bool kNorm = !(OP == RowOp::Dot || OP == RowOp::Dotc || OP == RowOp::Sum);
  using Acc = std::conditional_t<kNorm, typename RealOf<T>::type, typename AccOf<T>::type>;
  // The output element type: T, or its real type for norms (float16 stays float16).
  using Real = std::conditional_t<std::is_same_v<T, __half>, __half, typename RealOf<T>::type>;
  using Out = std::conditional_t<kNorm, Real, T>;

  __device__ static Acc identity() {
    if constexpr (OP == RowOp::NormMin) return Acc(INFINITY);
    else return acc_zero<Acc>();
  }
  __device__ static Acc absval(T v) {
    if constexpr (is_cplx<T>::value) return hypot(v.re, v.im);
    else if constexpr (std::is_same_v<T, __half>) return fabsf(__half2float(v));
    else return fabs(v);
  }
  __device__ static Acc term(const char* px, const char* py) {
    const T x = *reinterpret_cast<const T*>(px);
    if constexpr (OP == RowOp::Dot || OP == RowOp::Dotc) {
      const auto ax = to_acc(x);
      const auto ay = to_acc(*reinterpret_cast<const T*>(py));
      if constexpr (OP == RowOp::Dotc) return acc_mul(acc_conj(ax), ay);
      else return acc_mul(ax, ay);
    } else if constexpr (OP == RowOp::Sum) {
      return to_acc(x);
    } else if constexpr (OP == RowOp::NormL2 || OP == RowOp::NormSumSq) {
      if constexpr (is_cplx<T>::value) return x.re * x.re + x.im * x.im;
      else {
        const Acc a = to_acc(x);
        return a * a;
      }
    } else if constexpr (OP == RowOp::NormCount) {
      if constexpr (is_cplx<T>::value) return (x.re != 0 || x.im != 0) ? Acc(1) : Acc(0);
      else return to_acc(x) != 0 ? Acc(1) : Acc(0);
    } else {
      return absval(x);
    }
  }
  __device__ static Acc powterm(Acc a, double p) {
    if constexpr (OP == RowOp::NormPow) return Acc(pow(double(a), p));
    else return a;
  }
  __device__ static Acc combine(Acc a, Acc b) {
    if constexpr (OP == RowOp::NormMax) return (a != a) ? a : ((b != b) ? b : (a > b ? a : b));
    else if constexpr (OP == RowOp::NormMin) return (a != a) ? a : ((b != b) ? b : (a < b ? a : b));
    else return acc_add(a, b);
  }
  __device__ static Out finalize(Acc a, double inv_p) {
    Acc r = a;
    if constexpr (OP == RowOp::NormL2) r = sqrt(a);
    if constexpr (OP == RowOp::NormPow) r = Acc(pow(double(a), inv_p));
    if constexpr (kNorm) {
      if constexpr (std::is_same_v<Out, __half>) return __float2half(r);
      else return static_cast<Out>(r);
    } else {
      return from_acc<T>(r);
    }
  }
};

__device__ __forceinline__ void row_offsets(const RowArgs& r, int64_t row, int64_t& ox,
                                            int64_t& oy, int64_t& oo) {
  ox = oy = oo = 0;
  for (int d = r.nd - 1; d >= 0; --d) {
    const int64_t idx = row % r.shape[d];
    row /= r.shape[d];
    ox += idx * r.strides[0][d];
    oy += idx * r.strides[1][d];
    oo += idx * r.strides[2][d];
  }
}

// Phase 1: block per (row, chunk). `partials` null: write the final value to out.
template <class F>
__global__ void __launch_bounds__(kRowThreads)
    row_reduce_kernel(RowArgs r, int64_t nchunks, int64_t chunk_len, typename F::Acc* partials) {
  using Acc = typename F::Acc;
  __shared__ Acc sm[kRowThreads];
  const int64_t work = r.rows * nchunks;
  for (int64_t w = blockIdx.x; w < work; w += gridDim.x) {
    const int64_t row = w / nchunks, chunk = w % nchunks;
    int64_t ox, oy, oo;
    row_offsets(r, row, ox, oy, oo);
    const char* px = r.x + ox;
    const char* py = r.y ? r.y + oy : nullptr;
    const int64_t begin = chunk * chunk_len;
    const int64_t end = min(r.k, begin + chunk_len);
    Acc acc = F::identity();
    int64_t i = begin + threadIdx.x;
    for (; i + (kUnroll - 1) * kRowThreads < end; i += kUnroll * kRowThreads) {
      Acc t[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const int64_t j = i + u * kRowThreads;
        t[u] = F::term(px + j * r.kx, py + j * r.ky);
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) acc = F::combine(acc, F::powterm(t[u], r.p));
    }
    for (; i < end; i += kRowThreads) {
      acc = F::combine(acc, F::powterm(F::term(px + i * r.kx, py + i * r.ky), r.p));
    }
    sm[threadIdx.x] = acc;
    __syncthreads();
    for (int s = kRowThreads / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) sm[threadIdx.x] = F::combine(sm[threadIdx.x], sm[threadIdx.x + s]);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      if (partials) partials[w] = sm[0];
      else *reinterpret_cast<typename F::Out*>(r.out + oo) = F::finalize(sm[0], r.inv_p);
    }
    __syncthreads();
  }
}

// Phase 2: one block per row combines its chunks' partials.
template <class F>
__global__ void __launch_bounds__(kRowThreads)
    row_combine_kernel(RowArgs r, int64_t nchunks, const typename F::Acc* partials) {
  using Acc = typename F::Acc;
  __shared__ Acc sm[kRowThreads];
  for (int64_t row = blockIdx.x; row < r.rows; row += gridDim.x) {
    Acc acc = F::identity();
    for (int64_t i = threadIdx.x; i < nchunks; i += kRowThreads) {
      acc = F::combine(acc, partials[row * nchunks + i]);
    }
    sm[threadIdx.x] = acc;
    __syncthreads();
    for (int s = kRowThreads / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) sm[threadIdx.x] = F::combine(sm[threadIdx.x], sm[threadIdx.x + s]);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      int64_t ox, oy, oo;
      row_offsets(r, row, ox, oy, oo);
      *reinterpret_cast<typename F::Out*>(r.out + oo) = F::finalize(sm[0], r.inv_p);
    }
    __syncthreads();
  }
}

// Short rows: a thread per row.
template <class F>
__global__ void row_reduce_short_kernel(RowArgs r) {
  using Acc = typename F::Acc;
  for (int64_t row = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; row < r.rows;
       row += int64_t(gridDim.x) * blockDim.x) {
    int64_t ox, oy, oo;
    row_offsets(r, row, ox, oy, oo);
    const char* px = r.x + ox;
    const char* py = r.y ? r.y + oy : nullptr;
    Acc acc = F::identity();
    for (int64_t i = 0; i < r.k; ++i) {
      acc = F::combine(acc, F::powterm(F::term(px + i * r.kx, py + i * r.ky), r.p));
    }
    *reinterpret_cast<typename F::Out*>(r.out + oo) = F::finalize(acc, r.inv_p);
  }
}

template <class F>
void launch_rows(const RowArgs& r, cudaStream_t stream) {
  using Acc = typename F::Acc;
  if (r.rows == 0) return;
  if (r.k <= 32 && r.rows >= 1024) {
    row_reduce_short_kernel<F><<<grid_for(r.rows, 256), 256, 0, stream>>>(r);
    check_launch("row_reduce_short_kernel");
    return;
  }
  constexpr int64_t kTargetBlocks = 132 * 8;
  constexpr int64_t kMinChunk = kRowThreads * kUnroll * 2;
  int64_t nchunks = 1;
  if (r.rows < kTargetBlocks) {
    nchunks = std::min<int64_t>((kTargetBlocks + r.rows - 1) / r.rows,
                                (r.k + kMinChunk - 1) / kMinChunk);
    nchunks = std::max<int64_t>(nchunks, 1);
  }
  const int64_t chunk_len = (r.k + nchunks - 1) / nchunks;
  const int64_t work = r.rows * nchunks;
  const dim3 grid(static_cast<unsigned>(std::min<int64_t>(work, int64_t(1) << 20)));
  if (nchunks == 1) {
    row_reduce_kernel<F><<<grid, kRowThreads, 0, stream>>>(r, 1, chunk_len, nullptr);
    check_launch("row_reduce_kernel");
    return;
  }
  auto ws = allocate_device_memory(static_cast<size_t>(work) * sizeof(Acc));
  Acc* partials = static_cast<Acc*>(ws->ptr());
  row_reduce_kernel<F><<<grid, kRowThreads, 0, stream>>>(r, nchunks, chunk_len, partials);
  check_launch("row_reduce_kernel");
  row_combine_kernel<F><<<grid_for(r.rows, 1).x, kRowThreads, 0, stream>>>(r, nchunks, partials);
  check_launch("row_combine_kernel");
}

template <RowOp OP>
void dispatch_op(DType t, const RowArgs& r, cudaStream_t stream) {
  dispatch_dtype(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    constexpr bool inexact = std::is_same_v<T, __half> || std::is_floating_point_v<T> ||
                             is_cplx<T>::value;
    if constexpr (RowFn<T, OP>::kNorm && !inexact) {
      throw TypeError("norm reductions need a floating-point or complex array");
    } else if constexpr (OP == RowOp::Dotc && !is_cplx<T>::value) {
      launch_rows<RowFn<T, RowOp::Dot>>(r, stream);  // conjugation is the identity
    } else {
      launch_rows<RowFn<T, OP>>(r, stream);
    }
  });
}

}  // namespace

void row_reduce(RowOp op, double p, DType x_dtype, DType out_dtype, const Dims& batch,
                int64_t k, const RowOperand& x, const RowOperand* y, char* out,
                const Dims& out_strides, cudaStream_t stream) {
  (void)out_dtype;
  Dims shape = batch;
  std::vector<Dims> strides{x.batch_strides, y ? y->batch_strides : Dims(batch.size(), 0),
                            out_strides};
  coalesce_dims(shape, strides);
  if (shape.size() > static_cast<size_t>(kKernelDims)) {
    throw ValueError("too many dimensions for a row reduction");
  }
  RowArgs r{};
  r.nd = static_cast<int>(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    r.shape[d] = shape[d];
    for (int j = 0; j < 3; ++j) r.strides[j][d] = strides[j][d];
  }
  r.rows = shape_size(shape);
  r.x = x.data;
  r.y = y ? y->data : nullptr;
  r.out = out;
  r.k = k;
  r.kx = x.k_stride;
  r.ky = y ? y->k_stride : 0;
  r.p = p;
  r.inv_p = 1.0 / p;
  switch (op) {
    case RowOp::Dot: return dispatch_op<RowOp::Dot>(x_dtype, r, stream);
    case RowOp::Dotc: return dispatch_op<RowOp::Dotc>(x_dtype, r, stream);
    case RowOp::Sum: return dispatch_op<RowOp::Sum>(x_dtype, r, stream);
    case RowOp::NormL1: return dispatch_op<RowOp::NormL1>(x_dtype, r, stream);
    case RowOp::NormL2: return dispatch_op<RowOp::NormL2>(x_dtype, r, stream);
    case RowOp::NormSumSq: return dispatch_op<RowOp::NormSumSq>(x_dtype, r, stream);
    case RowOp::NormMax: return dispatch_op<RowOp::NormMax>(x_dtype, r, stream);
    case RowOp::NormMin: return dispatch_op<RowOp::NormMin>(x_dtype, r, stream);
    case RowOp::NormCount: return dispatch_op<RowOp::NormCount>(x_dtype, r, stream);
    case RowOp::NormPow: return dispatch_op<RowOp::NormPow>(x_dtype, r, stream);
  }
}

}  // namespace gpuarr
