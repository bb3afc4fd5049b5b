// searchsorted: one thread per needle, a binary search with NumPy's order (NaNs last).
#include "ops/array_ops.hpp"
#include "ops/sort_common.cuh"
#include "ops/sorting.hpp"

namespace gpuarr {
namespace {

using namespace sortdev;

// a: 1-d with byte stride; sorter (may be null): contiguous int64 indices into a.
// needles: contiguous. right: first index i with v < a[i]; left: first with !(a[i] < v).
template <class T>
__global__ void searchsorted_kernel(const char* __restrict__ a, int64_t a_stride, int64_t na,
                                    const int64_t* __restrict__ sorter,
                                    const T* __restrict__ needles, int64_t nv, bool right,
                                    int64_t* __restrict__ out) {
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
  dispatch_dtype(v.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    searchsorted_kernel<T><<<grid_for(nv, kThreads), kThreads, 0, stream>>>(
        na > 0 ? a.data() : nullptr, stride, na,
        sorter ? reinterpret_cast<const int64_t*>(srt.data()) : nullptr,
        reinterpret_cast<const T*>(needles.data()), nv, right,
        reinterpret_cast<int64_t*>(out.data()));
    check_launch("searchsorted_kernel");
  });
  return out;
}

}  // namespace gpuarr
