// The host half of the elementwise engine, one function for every ufunc loop: the loops
// differ only in the kernel they launch and their operands' sizes (EwKernel), so the
// planning below is compiled once per operand count, not once per loop.
#include <algorithm>
#include <array>
#include <cstring>

#include "ops/elementwise.cuh"

namespace gpuarr {

template <int NIN>
void launch_elementwise_kernel(const EwKernel& k, const Dims& shape,
                               const UfuncOperandView* ops, cudaStream_t stream) {
  constexpr int N = NIN + 1;
  constexpr int kThreads = 256;
  const int64_t total = shape_size(shape);
  if (total == 0) return;
  EwArgs<NIN> args{};
  const Dims zeros(shape.size(), 0);
  std::array<const Dims*, N> strides;
  std::array<char*, N> data;
  int sizes[N];
  for (int i = 0; i < N; ++i) {
    const UfuncOperandView& o = ops[i];
    const bool scalar = i > 0 && o.is_scalar;
    strides[i] = scalar ? &zeros : o.strides;
    data[i] = scalar ? nullptr : o.data;
    sizes[i] = i == 0 ? k.out_size : (i == 1 ? k.in0_size : k.in_size);
    if (i > 0) {
      args.is_scalar[i - 1] = scalar;
      if (scalar) std::memcpy(args.scalar[i - 1], o.scalar, 16);
    }
  }
  auto launch = [&](const void* kernel, std::atomic<void*>* handles, dim3 grid, int64_t n) {
    void* params[] = {&args, &n};
    launch_with_cached_handle(kernel, handles, grid, kThreads, 0, stream, params);
    check_launch("elementwise_kernel");
  };
  if (shape.size() <= 1) {
    args.s.ndim = 1;
    args.s.shape[0] = total;
    for (int i = 0; i < N; ++i) {
      args.s.data[i] = data[i];
      args.s.strides[i][0] = data[i] == nullptr || shape.empty() ? 0 : (*strides[i])[0];
    }
    if (contiguous_aligned_launch(shape, ops, N, sizes)) {
      launch(k.contiguous_kernel, k.contiguous_handles,
             grid_for((total + k.contiguous_width - 1) / k.contiguous_width, kThreads), total);
    } else {
      // One dimension, strided: the grid walks it with the strides, no index division,
      // several elements a thread (four waves of resident threads: an element a thread on
      // a full grid took exp of a[::2] of 16M float32 103.0 us GPU time on the H200, 61.1
      // with this grid and row_loop's two elements in flight).
      args.mode = EwMode::Flat;
      launch(k.kernel, k.handles, waves_grid(total, kThreads, current_device(), 4), total);
    }
    return;
  }
  for_each_launch<N>(
      shape, strides, data,
      [&](const StridedArgs<N>& s, int64_t n) {
        args.s = s;
        const int64_t inner = s.ndim >= 2 ? s.shape[s.ndim - 1] : 0;
        args.mode = inner >= kRowsMinInner ? EwMode::Rows : EwMode::Strided;
        launch(k.kernel, k.handles,
               args.mode == EwMode::Rows
                   ? dim3(static_cast<unsigned>(std::min<int64_t>(n / inner, 1 << 20)))
                   : grid_for(n, kThreads),
               n);
      },
      INT32_MAX);
}

template void launch_elementwise_kernel<1>(const EwKernel&, const Dims&,
                                           const UfuncOperandView*, cudaStream_t);
template void launch_elementwise_kernel<2>(const EwKernel&, const Dims&,
                                           const UfuncOperandView*, cudaStream_t);
template void launch_elementwise_kernel<3>(const EwKernel&, const Dims&,
                                           const UfuncOperandView*, cudaStream_t);

}  // namespace gpuarr
