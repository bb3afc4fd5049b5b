// bincount and histogram: atomics into the bins (int64 counts, float64 weighted sums); the
// bin of a value follows NumPy's rules (core/sorting.hpp), bincount's values are read in
// their own integer dtype. Up to a few thousand bins are counted in shared memory first (a copy of the bins per warp where they fit),
// then adds each block's bins to the result: a few hundred bins hit by millions of global
// atomics serialise on those addresses.
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <limits>

#include "core/errors.hpp"
#include "core/sorting.hpp"
#include "ops/array_ops.hpp"
#include "ops/kernels.hpp"
#include "ops/sort_common.cuh"
#include "ops/sorting.hpp"

namespace gpuarr {
namespace {

using namespace sortdev;

// The least and greatest of integers, in one pass.
struct IntRange {
  int64_t lo, hi;
};
struct IntRangeOp {
  __device__ IntRange operator()(const IntRange& a, const IntRange& b) const {
    return {b.lo < a.lo ? b.lo : a.lo, b.hi > a.hi ? b.hi : a.hi};
  }
};
template <class T> struct ToIntRange {
  __device__ IntRange operator()(const T& v) const {
    const auto x = static_cast<int64_t>(v);
    return {x, x};
  }
};
// NaN-propagating min and max of doubles, in one pass.
struct MinMax {
  double lo, hi;
};
struct MinMaxNanOp {
  __device__ static double lower(double a, double b) {
    if (a != a) return a;
    if (b != b) return b;
    return b < a ? b : a;
  }
  __device__ static double higher(double a, double b) {
    if (a != a) return a;
    if (b != b) return b;
    return b > a ? b : a;
  }
  __device__ MinMax operator()(const MinMax& a, const MinMax& b) const {
    return {lower(a.lo, b.lo), higher(a.hi, b.hi)};
  }
};

template <class T, class In, class Op>
void reduce_into(In in, int64_t n, T* out, Op op, T init, cudaStream_t stream) {
  size_t bytes = 0;
  check_cub(cub::DeviceReduce::Reduce(nullptr, bytes, in, out, n, op, init, stream),
            "cub::DeviceReduce::Reduce");
  auto tmp = scratch(bytes);
  check_cub(cub::DeviceReduce::Reduce(tmp->ptr(), bytes, in, out, n, op, init, stream),
            "cub::DeviceReduce::Reduce");
}

// a: contiguous, converted to double per element (exact for every real dtype but
// (u)int64 beyond 2**53, which NumPy also compares as float64).
template <class T>
__device__ __forceinline__ double to_double(const T& v) {
  if constexpr (std::is_same_v<T, __half>) return static_cast<double>(__half2float(v));
  else if constexpr (std::is_same_v<T, bool>) return v ? 1.0 : 0.0;
  else return static_cast<double>(v);
}

template <class T> struct ToMinMax {
  __device__ MinMax operator()(const T& v) const {
    const double x = to_double<T>(v);
    return {x, x};
  }
};

// The bin of a value: numpy.histogram's (uniform bins by arithmetic, others by search of
// the edges), or numpy.bincount's (the value itself). Negative: not counted.
struct HistogramBin {
  const double* edges;
  int64_t nbins;
  bool uniform;
  double first, last, norm;
  template <class T> __device__ int64_t operator()(const T& v) const {
    const double x = to_double<T>(v);
    return uniform ? histogram_uniform_bin(x, first, last, norm, edges, nbins)
                   : histogram_edges_bin(x, edges, nbins);
  }
};
struct ValueBin {
  template <class T> __device__ int64_t operator()(const T& v) const {
    return static_cast<int64_t>(v);
  }
};

// Bins counted per block in shared memory: `copies` copies of the bins (warp w adds to copy
// w % copies), summed and added to the result once per block. Bin is uint32_t for counts (a
// block sees fewer than 2^32 elements: count_into_bins sizes the grid so) and double for
// weighted sums.
template <class T, class Bin, class BinOf>
__global__ void histogram_shared_kernel(const T* __restrict__ a, const double* __restrict__ w,
                                        int64_t n, BinOf bin_of, int nbins, int copies,
                                        unsigned long long* __restrict__ counts,
                                        double* __restrict__ sums) {
  extern __shared__ __align__(8) unsigned char smem[];
  Bin* bins = reinterpret_cast<Bin*>(smem);
  for (int i = threadIdx.x; i < copies * nbins; i += blockDim.x) bins[i] = Bin(0);
  __syncthreads();
  Bin* mine = bins + (threadIdx.x / 32) % copies * nbins;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t b = bin_of(a[i]);
    if (b < 0) continue;
    if constexpr (std::is_same_v<Bin, double>) atomicAdd(mine + b, w[i]);
    else atomicAdd(mine + b, 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    Bin total = bins[b];
    for (int c = 1; c < copies; ++c) total += bins[c * nbins + b];
    if (total == Bin(0)) continue;  // (a NaN sum is added)
    if constexpr (std::is_same_v<Bin, double>) atomicAdd(sums + b, total);
    else atomicAdd(counts + b, static_cast<unsigned long long>(total));
  }
}

// Shared memory for the bins of one block, and the most bins counted there.
constexpr int kHistogramSharedBytes = 32 * 1024;
constexpr int kHistogramMaxCopies = 8;  // one per warp of a kThreads block
constexpr int64_t kHistogramMaxGrid = 1024;

template <class T, class BinOf>
__global__ void histogram_kernel(const T* __restrict__ a, const double* __restrict__ w,
                                 int64_t n, BinOf bin_of,
                                 unsigned long long* __restrict__ counts,
                                 double* __restrict__ sums) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t b = bin_of(a[i]);
    if (b < 0) continue;
    if (w) atomicAdd(sums + b, w[i]);
    else atomicAdd(counts + b, 1ull);
  }
}

// Adds the n values at `a` (weights `w`, or counts where w is null) into `nbins` bins of
// `out` (int64 counts or float64 sums, zeroed): in shared memory per block where the bins
// fit, else by global atomics.
template <class T, class BinOf>
void count_into_bins(const T* a, const double* w, int64_t n, BinOf bin_of, int64_t nbins,
                     NDArray& out, cudaStream_t stream) {
  auto* counts = reinterpret_cast<unsigned long long*>(out.data());
  auto* sums = reinterpret_cast<double*>(out.data());
  const bool weighted = w != nullptr;
  const int64_t bin_bytes = weighted ? int64_t(sizeof(double)) : int64_t(sizeof(uint32_t));
  if (nbins * bin_bytes <= kHistogramSharedBytes) {
    const int copies = static_cast<int>(
        std::min<int64_t>(kHistogramMaxCopies, kHistogramSharedBytes / (nbins * bin_bytes)));
    const size_t smem = size_t(copies * nbins * bin_bytes);
    // Enough blocks to fill the GPU, few enough that each block's bins reach the result in
    // few atomics; at least n / 2^31 blocks so that no block counts 2^32.
    const int64_t needed = (n + kThreads - 1) / kThreads;
    const unsigned grid = static_cast<unsigned>(
        std::min(needed, std::max(kHistogramMaxGrid, (n >> 31) + 1)));
    if (weighted) {
      histogram_shared_kernel<T, double, BinOf><<<grid, kThreads, smem, stream>>>(
          a, w, n, bin_of, int(nbins), copies, counts, sums);
    } else {
      histogram_shared_kernel<T, uint32_t, BinOf><<<grid, kThreads, smem, stream>>>(
          a, w, n, bin_of, int(nbins), copies, counts, sums);
    }
    check_launch("histogram_shared_kernel");
  } else {
    histogram_kernel<T, BinOf><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
        a, w, n, bin_of, counts, sums);
    check_launch("histogram_kernel");
  }
}

template <class T>
__global__ void density_kernel(const T* __restrict__ h, const double* __restrict__ widths,
                               const double* __restrict__ total, int64_t nbins,
                               double* __restrict__ out) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < nbins;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = static_cast<double>(h[i]) / widths[i] / *total;
}

struct SumD {
  __device__ double operator()(double a, double b) const { return a + b; }
};

template <class T>
__global__ void to_double_kernel(const T* __restrict__ h, int64_t n, double* __restrict__ out) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = static_cast<double>(h[i]);
}

NDArray contiguous(const NDArray& a, DType t) {
  if (a.dtype == t && a.c_contiguous()) return a;
  return copy_array(a, t, 'C');
}

}  // namespace

NDArray bincount_array(const NDArray& x_in, const NDArray* weights, int64_t minlength) {
  if (minlength < 0) throw ValueError("'minlength' must not be negative");
  // The values in their own integer dtype (uint64 as int64, which NumPy casts it to).
  const bool own = is_integer(x_in.dtype) && x_in.dtype != DType::UInt64;
  const NDArray x = contiguous(x_in, own || x_in.dtype == DType::Bool ? x_in.dtype : DType::Int64);
  const int64_t n = x.size();
  const cudaStream_t stream = stream_for(x_in);
  const bool weighted = weights != nullptr;
  NDArray w;
  if (weighted) w = contiguous(*weights, DType::Float64);
  NDArray out;
  dispatch_dtype(x.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_integral_v<T> || std::is_same_v<T, uint64_t>) {
      throw std::logic_error("bincount_array: values of a non-integer dtype");
    } else {
      const T* xs = reinterpret_cast<const T*>(x.data());
      int64_t nbins = minlength;
      if (n > 0) {
        auto mm = scratch(sizeof(IntRange));
        auto* r = static_cast<IntRange*>(mm->ptr());
        const thrust::transform_iterator<ToIntRange<T>, const T*> in(xs, ToIntRange<T>{});
        reduce_into<IntRange>(in, n, r, IntRangeOp{},
                              IntRange{std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min()},
                              stream);
        IntRange h;
        read_small_device_bytes(&h, r, sizeof(h), stream);
        if (h.lo < 0) throw ValueError("'list' argument must have no negative elements");
        nbins = std::max(nbins, h.hi + 1);
      }
      out = empty_array(Dims{nbins}, weighted ? DType::Float64 : DType::Int64, 'C');
      if (nbins > 0)
        GPUARR_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, size_t(nbins) * 8, stream));
      if (n > 0)
        count_into_bins(xs, weighted ? reinterpret_cast<const double*>(w.data()) : nullptr, n,
                        ValueBin{}, nbins, out, stream);
    }
  });
  return out;
}

void minmax_array(const NDArray& a_in, double& lo, double& hi) {
  const int64_t n = a_in.size();
  if (n == 0) throw ValueError("minmax of an empty array");
  const NDArray a = a_in.c_contiguous() ? a_in : copy_array(a_in, a_in.dtype, 'C');
  const cudaStream_t stream = stream_for(a_in);
  auto mm = scratch(sizeof(MinMax));
  MinMax* r = static_cast<MinMax*>(mm->ptr());
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_v<T>) {
      throw TypeError("minmax of complex values is not supported");
    } else {
      // Each element read once, as a double (no float64 copy of the array first).
      const thrust::transform_iterator<ToMinMax<T>, const T*> in(
          reinterpret_cast<const T*>(a.data()), ToMinMax<T>{});
      reduce_into<MinMax>(in, n, r, MinMaxNanOp{},
                          MinMax{std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity()},
                          stream);
    }
  });
  MinMax h;
  read_small_device_bytes(&h, r, sizeof(h), stream);
  lo = h.lo;
  hi = h.hi;
}

NDArray histogram_array(const NDArray& a_in, const NDArray* weights, const NDArray& edges_in,
                        bool uniform, double first, double last, double norm, bool density,
                        const NDArray* widths_in) {
  const NDArray a = a_in.c_contiguous() ? a_in : copy_array(a_in, a_in.dtype, 'C');
  const NDArray edges = contiguous(edges_in, DType::Float64);
  const int64_t nbins = edges.size() - 1;
  const int64_t n = a.size();
  const cudaStream_t stream = stream_for(a_in);
  const bool weighted = weights != nullptr;
  NDArray out = empty_array(Dims{nbins}, weighted ? DType::Float64 : DType::Int64, 'C');
  if (nbins > 0) GPUARR_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, size_t(nbins) * 8, stream));
  NDArray w;
  if (weighted) w = contiguous(*weights, DType::Float64);
  if (n > 0 && nbins > 0) {
    dispatch_dtype(a.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_complex_v<T>) {
        throw TypeError("histogram of complex values is not supported");
      } else {
        const double* wts = weighted ? reinterpret_cast<const double*>(w.data()) : nullptr;
        const HistogramBin bin_of{reinterpret_cast<const double*>(edges.data()), nbins,
                                  uniform, first, last, norm};
        count_into_bins(reinterpret_cast<const T*>(a.data()), wts, n, bin_of, nbins, out,
                        stream);
      }
    });
  }
  if (!density || nbins == 0) return out;
  const NDArray widths = contiguous(*widths_in, DType::Float64);
  NDArray dens = empty_array(Dims{nbins}, DType::Float64, 'C');
  auto tot = scratch(sizeof(double) + nbins * sizeof(double));
  double* total = static_cast<double*>(tot->ptr());
  double* hd = total + 1;
  if (weighted) {
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(hd, out.data(), size_t(nbins) * 8, cudaMemcpyDeviceToDevice,
                                      stream));
  } else {
    to_double_kernel<int64_t><<<grid_for(nbins, kThreads), kThreads, 0, stream>>>(
        reinterpret_cast<const int64_t*>(out.data()), nbins, hd);
    check_launch("to_double_kernel");
  }
  reduce_into<double>(hd, nbins, total, SumD{}, 0.0, stream);
  density_kernel<double><<<grid_for(nbins, kThreads), kThreads, 0, stream>>>(
      hd, reinterpret_cast<const double*>(widths.data()), total, nbins,
      reinterpret_cast<double*>(dens.data()));
  check_launch("density_kernel");
  return dens;
}

}  // namespace gpuarr
