// Fill and same-dtype copy are dtype-agnostic: they move `itemsize`-byte words.
#include <cstring>

#include "ops/device_types.cuh"
#include "ops/kernels.hpp"
#include "ops/strided.cuh"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

// Contiguous fill with 16-byte stores; `pattern` holds the value repeated 16/sizeof(W)
// times, `head` elements are written singly until the pointer is 16-byte aligned.
template <class W>
__global__ void fill_contiguous_kernel(W* out, int64_t n, W value, uint4 pattern, int64_t head) {
  const int64_t tid = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  constexpr int64_t per_vec = kPer16Bytes<W>;
  if (tid < head) out[tid] = value;
  const int64_t nvec = (n - head) / per_vec;
  uint4* vout = reinterpret_cast<uint4*>(out + head);
  for (int64_t i = tid; i < nvec; i += stride) vout[i] = pattern;
  const int64_t tail_start = head + nvec * per_vec;
  if (tid < n - tail_start) out[tail_start + tid] = value;
}

template <class W>
__global__ void fill_strided_kernel(StridedArgs<1> a, int64_t n, W value) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[1];
    element_offsets(a, i, off);
    *reinterpret_cast<W*>(a.data[0] + off[0]) = value;
  }
}

template <class W>
void fill_typed(char* data, const Dims& shape, const Dims& strides, const void* value,
                cudaStream_t stream) {
  constexpr int64_t Size = sizeof(W);
  W v;
  std::memcpy(&v, value, Size);
  constexpr int kThreads = 256;
  if (shape.size() == 1 && strides[0] == Size) {
    const int64_t n = shape[0];
    uint4 pattern;
    for (int k = 0; k < 16 / Size; ++k) std::memcpy(reinterpret_cast<char*>(&pattern) + k * Size, &v, Size);
    const uintptr_t addr = reinterpret_cast<uintptr_t>(data);
    int64_t head = addr % 16 ? (16 - addr % 16) / Size : 0;
    if ((16 - addr % 16) % Size != 0) head = n;  // cannot reach alignment: scalar stores only
    head = std::min(head, n);
    if (head == n) {
      StridedArgs<1> a{};
      a.ndim = 1;
      a.shape[0] = n;
      a.strides[0][0] = Size;
      a.data[0] = data;
      fill_strided_kernel<W><<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, n, v);
    } else {
      const int64_t nvec = (n - head) / (16 / Size);
      const int64_t threads_needed = std::max<int64_t>({nvec, head, int64_t(16)});
      // One wave of resident threads at most; each thread loops.
      fill_contiguous_kernel<W><<<waves_grid(threads_needed, kThreads, current_device(), 1),
                                  kThreads, 0, stream>>>(
          reinterpret_cast<W*>(data), n, v, pattern, head);
    }
    check_launch("fill_contiguous_kernel");
    return;
  }
  for_each_launch<1>(shape, {&strides}, {data}, [&](const StridedArgs<1>& a, int64_t n) {
    fill_strided_kernel<W><<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, n, v);
    check_launch("fill_strided_kernel");
  });
}

}  // namespace

void launch_fill(char* data, const Dims& shape_in, const Dims& strides_in, int64_t itemsize,
                 const void* value, cudaStream_t stream) {
  Dims shape = shape_in;
  std::vector<Dims> strides{strides_in};
  if (shape_size(shape) == 0) return;
  coalesce_dims(shape, strides);
  dispatch_word(itemsize, [&](auto word) {
    fill_typed<decltype(word)>(data, shape, strides[0], value, stream);
  });
}

}  // namespace gpuarr
