// unique: stable sort, flag the first element of each run, inclusive scan of the flags
// (run ids), one small read of the number of runs, then one scatter kernel.
#include <cub/device/device_scan.cuh>

#include "ops/array_ops.hpp"
#include "ops/kernels.hpp"
#include "ops/sort_common.cuh"
#include "ops/sorting.hpp"

namespace gpuarr {
namespace {

using namespace sortdev;

template <class T>
__global__ void run_flags_kernel(const T* __restrict__ s, int64_t n, bool equal_nan,
                                 int64_t* __restrict__ flags) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t f = 1;
    if (i > 0) {
      const T a = s[i - 1], b = s[i];
      if (num_equal<T>(a, b)) f = 0;
      else if (equal_nan && is_nan<T>(a) && is_nan<T>(b)) f = 0;
    }
    flags[i] = f;
  }
}

template <class T>
__global__ void unique_scatter_kernel(const T* __restrict__ s, const int64_t* __restrict__ ids,
                                      const int64_t* __restrict__ perm, int64_t n,
                                      T* __restrict__ values, int64_t* __restrict__ starts,
                                      int64_t* __restrict__ index,
                                      int64_t* __restrict__ inverse) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t id = ids[i] - 1;
    const bool first = i == 0 || ids[i - 1] != ids[i];
    if (first) {
      values[id] = s[i];
      if (starts) starts[id] = i;
      if (index) index[id] = perm[i];
    }
    if (inverse) inverse[perm[i]] = id;
  }
}

__global__ void run_counts_kernel(const int64_t* __restrict__ starts, int64_t u, int64_t n,
                                  int64_t* __restrict__ counts) {
  for (int64_t k = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; k < u;
       k += int64_t(gridDim.x) * blockDim.x)
    counts[k] = (k + 1 < u ? starts[k + 1] : n) - starts[k];
}

template <class T>
__global__ void gather_kernel(const T* __restrict__ src, const int64_t* __restrict__ perm,
                              int64_t n, T* __restrict__ out) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = src[perm[i]];
}

}  // namespace

UniqueResult unique_array(const NDArray& a, bool want_index, bool want_inverse, bool want_counts,
                          bool equal_nan) {
  const int64_t n = a.size();
  const NDArray flat = reshape_array(a, Dims{n}, 'C');
  const NDArray src = flat.c_contiguous() ? flat : copy_array(flat, a.dtype, 'C');
  const cudaStream_t stream = stream_for(a);
  UniqueResult r;
  if (n == 0) {
    r.values = empty_array(Dims{0}, a.dtype, 'C');
    if (want_index) r.index = empty_array(Dims{0}, DType::Int64, 'C');
    if (want_inverse) r.inverse = empty_array(Dims{0}, DType::Int64, 'C');
    if (want_counts) r.counts = empty_array(Dims{0}, DType::Int64, 'C');
    return r;
  }
  const bool need_perm = want_index || want_inverse;
  NDArray sorted = empty_array(Dims{n}, a.dtype, 'C');
  NDArray perm;
  if (need_perm) {
    perm = empty_array(Dims{n}, DType::Int64, 'C');
    argsort_rows(src.data(), a.dtype, 1, n, nullptr, reinterpret_cast<int64_t*>(perm.data()),
                 stream);
  } else {
    sort_rows(src.data(), a.dtype, 1, n, sorted.data(), stream);
  }
  auto flags_mem = scratch(size_t(n) * sizeof(int64_t) * 2);
  int64_t* flags = static_cast<int64_t*>(flags_mem->ptr());
  int64_t* ids = flags + n;
  int64_t u = 0;
  dispatch_dtype(a.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = reinterpret_cast<const T*>(sorted.data());
    if (need_perm) {
      gather_kernel<T><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
          reinterpret_cast<const T*>(src.data()), reinterpret_cast<const int64_t*>(perm.data()), n,
          reinterpret_cast<T*>(sorted.data()));
      check_launch("gather_kernel");
    }
    run_flags_kernel<T><<<grid_for(n, kThreads), kThreads, 0, stream>>>(s, n, equal_nan, flags);
    check_launch("run_flags_kernel");
    size_t bytes = 0;
    check_cub(cub::DeviceScan::InclusiveSum(nullptr, bytes, flags, ids, n, stream),
              "cub::DeviceScan::InclusiveSum");
    auto tmp = scratch(bytes);
    check_cub(cub::DeviceScan::InclusiveSum(tmp->ptr(), bytes, flags, ids, n, stream),
              "cub::DeviceScan::InclusiveSum");
    read_small_device_bytes(&u, ids + (n - 1), sizeof(int64_t), stream);
    r.values = empty_array(Dims{u}, a.dtype, 'C');
    if (want_index) r.index = empty_array(Dims{u}, DType::Int64, 'C');
    if (want_inverse) r.inverse = empty_array(Dims{n}, DType::Int64, 'C');
    NDArray starts;
    if (want_counts) {
      r.counts = empty_array(Dims{u}, DType::Int64, 'C');
      starts = empty_array(Dims{u}, DType::Int64, 'C');
    }
    unique_scatter_kernel<T><<<grid_for(n, kThreads), kThreads, 0, stream>>>(
        s, ids, need_perm ? reinterpret_cast<const int64_t*>(perm.data()) : nullptr, n,
        reinterpret_cast<T*>(r.values.data()),
        want_counts ? reinterpret_cast<int64_t*>(starts.data()) : nullptr,
        want_index ? reinterpret_cast<int64_t*>(r.index.data()) : nullptr,
        want_inverse ? reinterpret_cast<int64_t*>(r.inverse.data()) : nullptr);
    check_launch("unique_scatter_kernel");
    if (want_counts) {
      run_counts_kernel<<<grid_for(u, kThreads), kThreads, 0, stream>>>(
          reinterpret_cast<const int64_t*>(starts.data()), u, n,
          reinterpret_cast<int64_t*>(r.counts.data()));
      check_launch("run_counts_kernel");
    }
  });
  return r;
}

}  // namespace gpuarr
