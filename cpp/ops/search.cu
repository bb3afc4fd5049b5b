// searchsorted: one thread per needle, a binary search with NumPy's order (NaNs last).
// A small haystack without a sorter (digitize's bins) is staged in each block's shared
// memory and searched there without branches; a large one is searched where it lies.
#include <algorithm>

#include "ops/array_ops.hpp"
#include "ops/sort_common.cuh"
#include "ops/sorting.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

using namespace sortdev;

// Haystacks of at most this many bytes are staged (8 resident blocks an SM then use 128 KB
// of shared memory).
constexpr int64_t kStagedHaystackBytes = 16 * 1024;

// The staged search: h (shared) holds the na < 2^31 sorted values; the answer is how many
// of them precede v, i.e. satisfy the predicate, a prefix of h. Powers of two from `top`
// (the largest <= na) down: no divergent loop bounds, one shared load a step.
template <class T>
__device__ __forceinline__ int64_t staged_search(const T* h, int na, int top, const T& v,
                                                 bool right) {
  int lo = 0;
  for (int step = top; step > 0; step >>= 1) {
    const int j = lo + step;
    if (j <= na) {
      const T& x = h[j - 1];
      if (right ? !less_nan_last(v, x) : less_nan_last(x, v)) lo = j;
    }
  }
  return lo;
}

// a: 1-d with byte stride; sorter (may be null): contiguous int64 indices into a.
// needles: contiguous. right: first index i with v < a[i]; left: first with !(a[i] < v).
// staged: a (no sorter) is copied to the block's dynamic shared memory first.
template <class T>
__global__ void searchsorted_kernel(const char* __restrict__ a, int64_t a_stride, int64_t na,
                                    const int64_t* __restrict__ sorter,
                                    const T* __restrict__ needles, int64_t nv, bool right,
                                    bool staged, int64_t* __restrict__ out) {
  if (staged) {
    extern __shared__ __align__(16) unsigned char haystack_bytes[];
    T* h = reinterpret_cast<T*>(haystack_bytes);
    for (int64_t i = threadIdx.x; i < na; i += blockDim.x)
      h[i] = *reinterpret_cast<const T*>(a + i * a_stride);
    __syncthreads();
    const int n = static_cast<int>(na);
    const int top = n > 0 ? 1 << (31 - __clz(n)) : 0;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < nv;
         i += int64_t(gridDim.x) * blockDim.x)
      out[i] = staged_search(h, n, top, needles[i], right);
    return;
  }
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < nv;
       i += int64_t(gridDim.x) * blockDim.x) {
    const T v = needles[i];
    int64_t lo = 0, hi = na;
    while (lo < hi) {
      const int64_t mid = lo + ((hi - lo) >> 1);
      int64_t j = sorter ? sorter[mid] : mid;
      if (j < 0) j += na;  // NumPy's sorter takes negative indices
      if (j < 0 || j >= na) {  // out of range: treated as +inf-like (NumPy leaves it undefined)
        hi = mid;
        continue;
      }
      const T x = *reinterpret_cast<const T*>(a + j * a_stride);
      const bool go_right = right ? !less_nan_last(v, x) : less_nan_last(x, v);
      if (go_right) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
}

}  // namespace

NDArray searchsorted_array(const NDArray& a, const NDArray& v, bool right, const NDArray* sorter) {
  const NDArray needles = v.c_contiguous() ? v : copy_array(v, v.dtype, 'C');
  NDArray srt;
  if (sorter) srt = sorter->c_contiguous() ? *sorter : copy_array(*sorter, DType::Int64, 'C');
  NDArray out = empty_array(v.shape, DType::Int64, 'C');
  const int64_t nv = v.size();
  if (nv == 0) return out;
  const cudaStream_t stream = stream_for(v);
  const int64_t na = a.shape.at(0);
  const int64_t stride = a.strides.at(0);
  const int64_t staged_bytes = na * a.itemsize();
  const bool staged = !sorter && staged_bytes <= kStagedHaystackBytes;
  dim3 grid = grid_for(nv, kThreads);
  if (staged) {
    // One wave of resident blocks (each stages the haystack once), looping over needles.
    const int64_t wave = resident_threads(v.device()) / kThreads;
    grid.x = static_cast<unsigned>(std::min<int64_t>(grid.x, wave));
  }
  dispatch_dtype(v.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    searchsorted_kernel<T><<<grid, kThreads, staged ? size_t(staged_bytes) : 0, stream>>>(
        na > 0 ? a.data() : nullptr, stride, na,
        sorter ? reinterpret_cast<const int64_t*>(srt.data()) : nullptr,
        reinterpret_cast<const T*>(needles.data()), nv, right, staged,
        reinterpret_cast<int64_t*>(out.data()));
    check_launch("searchsorted_kernel");
  });
  return out;
}

}  // namespace gpuarr
