#include "ops/reduce_launch.hpp"

#include <algorithm>
#include <memory>

#include "core/errors.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/memory.hpp"

namespace gpuarr {
namespace {

void launch(const ReduceKernels& k, int which, dim3 grid, cudaStream_t stream, ReduceArgs& a,
            char* out, void* partial, const char* what) {
  void* params[] = {&a, &out, &partial};
  launch_with_cached_handle(k.kernel[which], k.handles[which], grid, kReduceThreads, 0, stream,
                            params);
  check_cuda(cudaGetLastError(), what);
}

unsigned inner_blocks(int64_t n_out) {
  return static_cast<unsigned>(std::min<int64_t>(n_out, 65535 * 16));
}
unsigned outer_blocks(int64_t n_out) {
  return static_cast<unsigned>(
      std::min<int64_t>((n_out + kReduceThreads - 1) / kReduceThreads, 1 << 20));
}

}  // namespace

void run_reduction_kernels(const ReduceKernels& k, const ReductionPlan& p, const char* in,
                           char* out, cudaStream_t stream, const ReduceOpParams& params) {
  if (p.n_out == 0) return;
  if (p.kept_shape.size() > kReduceDims || p.reduced_shape.size() > kReduceDims)
    throw ValueError("gpuarr reductions support at most 8 non-mergeable dimensions per group");
  ReduceArgs a{};
  a.in = in;
  a.params = params;
  a.nk = static_cast<int>(p.kept_shape.size());
  a.nr = static_cast<int>(p.reduced_shape.size());
  for (int d = 0; d < a.nk; ++d) {
    a.kshape[d] = p.kept_shape[d];
    a.kstride[d] = p.kept_strides[d];
  }
  for (int d = 0; d < a.nr; ++d) {
    a.rshape[d] = p.reduced_shape[d];
    a.rstride[d] = p.reduced_strides[d];
  }
  a.n_out = p.n_out;
  a.n_reduce = p.n_reduce;
  a.contiguous_reduce = a.nr == 1 && a.rstride[0] == k.in_size;
  // Rows of at least 512 bytes keep a warp's 16-byte loads full; shorter rows, or a
  // non-contiguous innermost dim, go element by element.
  const int64_t inner_len = a.rshape[a.nr - 1];
  a.row_len = p.strategy == ReduceStrategy::Inner && a.nr > 1 &&
                      a.rstride[a.nr - 1] == k.in_size && inner_len * k.in_size >= 512
                  ? inner_len
                  : 0;
  if (a.row_len > 0) {
    const int64_t rows = p.n_reduce / a.row_len;
    const int64_t rows_per_chunk = (rows + p.chunks - 1) / p.chunks;
    a.chunk_len = rows_per_chunk * a.row_len;
  } else {
    const bool block_reads_row = p.strategy == ReduceStrategy::Inner && a.contiguous_reduce;
    const int64_t per_vector = std::max<int64_t>(1, k.loads.vector_bytes / k.in_size);
    a.chunk_len = reduce_chunk_len(
        p.n_reduce, p.chunks,
        block_reads_row ? int64_t(kReduceThreads) * k.loads.loads * per_vector : 0);
  }
  a.chunks = std::max<int64_t>(1, (p.n_reduce + a.chunk_len - 1) / a.chunk_len);
  std::shared_ptr<Memory> partial_mem;
  void* partial = nullptr;
  if (a.chunks > 1) {
    partial_mem = allocate_device_memory(size_t(k.acc_size) * size_t(p.n_out) * size_t(a.chunks));
    partial = partial_mem->ptr();
  }
  const unsigned gy = static_cast<unsigned>(a.chunks);
  const bool inner = p.strategy == ReduceStrategy::Inner;
  a.lanes_per_output = p.lane_group_per_output && a.contiguous_reduce
                           ? reduce_lanes_per_output(p.n_reduce, k.in_size, k.loads)
                           : 0;
  // Outputs a block: each warp takes 32 / lanes_per_output of them.
  const int64_t per_block =
      a.lanes_per_output > 0 ? kReduceWarps * (32 / a.lanes_per_output) : 1;
  const dim3 inner_grid(inner_blocks((p.n_out + per_block - 1) / per_block), gy);
  if (inner && a.chunks > 1) {
    // One cooperative launch where the device holds the grid at once (the planner's chunks
    // are one wave): the partials pass's launch cost ~1.5 us of a 16M float32 sum's 22.4 on
    // the H200 (tools/probes/reduce_one_pass.cu).
    a.combine_partials_in_grid = true;
    void* params[] = {&a, &out, &partial};
    if (launch_cooperative_with_cached_handle(k.kernel[ReduceKernels::kInner],
                                              k.handles[ReduceKernels::kInner], inner_grid,
                                              kReduceThreads, 0, stream, params))
      return;
    a.combine_partials_in_grid = false;
  }
  if (inner)
    launch(k, ReduceKernels::kInner, inner_grid, stream, a, out, partial, "reduce_kernel");
  else
    launch(k, ReduceKernels::kOuter, dim3(outer_blocks(p.n_out), gy), stream, a, out, partial,
           "reduce_kernel");
  if (a.chunks == 1) return;
  // Second pass over the partial accumulators.
  ReduceArgs b{};
  b.in = static_cast<const char*>(partial);
  b.params = params;  // the finish step (a mean's count, a variance's divisor) runs here
  b.nk = 1;
  b.nr = 1;
  b.kshape[0] = p.n_out;
  b.rshape[0] = a.chunks;
  b.n_out = p.n_out;
  b.n_reduce = a.chunks;
  b.chunks = 1;
  b.chunk_len = a.chunks;
  if (inner) {
    b.kstride[0] = int64_t(k.acc_size) * a.chunks;
    b.rstride[0] = k.acc_size;
    b.contiguous_reduce = true;
    launch(k, ReduceKernels::kInnerPartials, dim3(inner_blocks(p.n_out)), stream, b, out,
           nullptr, "reduce_kernel (partials)");
  } else {
    b.kstride[0] = k.acc_size;
    b.rstride[0] = int64_t(k.acc_size) * p.n_out;
    launch(k, ReduceKernels::kOuterPartials, dim3(outer_blocks(p.n_out)), stream, b, out,
           nullptr, "reduce_kernel (partials)");
  }
}

}  // namespace gpuarr
