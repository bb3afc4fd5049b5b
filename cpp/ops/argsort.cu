// argsort of rows (the permutation that sorts each row stably), by CUB radix sorts of
// (key, index) pairs: one row -> cub::DeviceRadixSort::SortPairs, several rows ->
// cub::DeviceSegmentedSort::StableSortPairs. Complex rows take one pass per key part.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "ops/sort_common.cuh"
#include "ops/sorting.hpp"

namespace gpuarr {
namespace sortdev {
namespace {

__global__ void segment_offsets_kernel(int64_t* offsets, int64_t nseg, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i <= nseg;
       i += int64_t(gridDim.x) * blockDim.x)
    offsets[i] = i * n;
}

}  // namespace

Segments make_segments(int64_t nseg, int64_t n, cudaStream_t stream) {
  Segments s;
  if (nseg <= 1) return s;
  s.mem = scratch(size_t(nseg + 1) * sizeof(int64_t));
  auto* off = static_cast<int64_t*>(s.mem->ptr());
  segment_offsets_kernel<<<grid_for(nseg + 1, kThreads), kThreads, 0, stream>>>(off, nseg, n);
  check_launch("segment_offsets_kernel");
  s.offsets = off;
  return s;
}

}  // namespace sortdev

namespace {

using namespace sortdev;

template <class K>
void sort_pairs(const K* kin, K* kout, const int64_t* vin, int64_t* vout, int64_t total,
                int64_t nseg, const Segments& seg, cudaStream_t stream) {
  size_t bytes = 0;
  if (nseg <= 1) {
    check_cub(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kin, kout, vin, vout, total, 0,
                                              int(sizeof(K) * 8), stream),
              "cub::DeviceRadixSort::SortPairs");
    auto tmp = scratch(bytes);
    check_cub(cub::DeviceRadixSort::SortPairs(tmp->ptr(), bytes, kin, kout, vin, vout, total, 0,
                                              int(sizeof(K) * 8), stream),
              "cub::DeviceRadixSort::SortPairs");
  } else {
    check_cub(cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, kin, kout, vin, vout,
                                                        total, nseg, seg.offsets,
                                                        seg.offsets + 1, stream),
              "cub::DeviceSegmentedSort::StableSortPairs");
    auto tmp = scratch(bytes);
    check_cub(cub::DeviceSegmentedSort::StableSortPairs(tmp->ptr(), bytes, kin, kout, vin, vout,
                                                        total, nseg, seg.offsets,
                                                        seg.offsets + 1, stream),
              "cub::DeviceSegmentedSort::StableSortPairs");
  }
}

// One stable pass: keys of data (read through perm_in if given) with values perm_in (or
// local iota) sorted into perm_out.
template <class T>
void argsort_pass(const T* data, int64_t nseg, int64_t n, const int64_t* perm_in,
                  int64_t* perm_out, int part, const Segments& seg, cudaStream_t stream) {
  using K = typename KeyType<T>::type;
  const int64_t total = nseg * n;
  auto keys = scratch(size_t(total) * sizeof(K) * 2);
  K* kin = static_cast<K*>(keys->ptr());
  K* kout = kin + total;
  std::shared_ptr<Memory> iota_mem;
  int64_t* iota = nullptr;
  if (!perm_in) {
    iota_mem = scratch(size_t(total) * sizeof(int64_t));
    iota = static_cast<int64_t*>(iota_mem->ptr());
  }
  make_keys_kernel<T, K><<<grid_for(total, kThreads), kThreads, 0, stream>>>(
      data, perm_in, total, n, true, part, kin, iota);
  check_launch("make_keys_kernel");
  sort_pairs<K>(kin, kout, perm_in ? perm_in : iota, perm_out, total, nseg, seg, stream);
}

template <class T>
void argsort_rows_typed(const T* data, int64_t nseg, int64_t n, const int64_t* perm_in,
                        int64_t* perm_out, cudaStream_t stream) {
  const Segments seg = make_segments(nseg, n, stream);
  if constexpr (is_complex_v<T>) {
    const int64_t total = nseg * n;
    auto buf = scratch(size_t(total) * sizeof(int64_t));
    int64_t* mid = static_cast<int64_t*>(buf->ptr());
    if constexpr (std::is_same_v<T, complex64_t>) {
      argsort_pass<T>(data, nseg, n, perm_in, mid, 0, seg, stream);
      argsort_pass<T>(data, nseg, n, mid, perm_out, 2, seg, stream);
    } else {
      argsort_pass<T>(data, nseg, n, perm_in, perm_out, 0, seg, stream);
      argsort_pass<T>(data, nseg, n, perm_out, mid, 1, seg, stream);
      argsort_pass<T>(data, nseg, n, mid, perm_out, 2, seg, stream);
    }
  } else {
    argsort_pass<T>(data, nseg, n, perm_in, perm_out, 0, seg, stream);
  }
}

}  // namespace

void argsort_rows(const char* data, DType dtype, int64_t nseg, int64_t n, const int64_t* perm_in,
                  int64_t* perm_out, cudaStream_t stream) {
  if (nseg * n == 0) return;
  dispatch_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    argsort_rows_typed<T>(reinterpret_cast<const T*>(data), nseg, n, perm_in, perm_out, stream);
  });
}

}  // namespace gpuarr
