// The host half of a reduction's launch, one function for every (op, input type): the
// instantiations differ only in their four kernels and their types' sizes (ReduceKernels),
// so the plan's arguments, the grid and the partials pass are compiled once
// (reduce_launch.cpp), not once per instantiation.
#pragma once
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>

#include "core/reduction_plan.hpp"
#include "runtime/kernel_launch.hpp"

namespace gpuarr {

constexpr int kReduceDims = 8;

// What an op reads besides the data: SquaredDeviationOp's centres (one value per output),
// MomentsOp's divisor and square root (var/std's last steps, folded into the reduction).
struct ReduceOpParams {
  const void* center = nullptr;
  double divisor = 1.0;
  bool root = false;
};

struct ReduceArgs {
  const char* in;
  int nk, nr;
  int64_t kshape[kReduceDims], kstride[kReduceDims];
  int64_t rshape[kReduceDims], rstride[kReduceDims];
  int64_t n_out, n_reduce, chunks, chunk_len;
  bool contiguous_reduce;  // one reduced dim with stride == element size
  // Several reduced dims whose innermost is contiguous: its length, the reduced range being
  // rows of that many elements that warps read whole (chunks then hold whole rows); else 0.
  int64_t row_len;
  ReduceOpParams params;
  // The Inner kernel gives each output this many lanes of a warp instead of a block
  // (ReductionPlan::lane_group_per_output, reduce_lanes_per_output); 0: a block an output.
  int lanes_per_output;
  // The Inner kernel's chunks, launched cooperatively, synchronise the grid and blocks of
  // chunk 0 reduce their outputs' partials: the partials pass without a second launch.
  bool combine_partials_in_grid;
};

// One reduction's kernels, each (ReduceArgs, char* out, Acc* partial): Inner and Outer over
// the input, and the same two over the partial accumulators of a chunked first pass.
struct ReduceKernels {
  enum { kInner, kOuter, kInnerPartials, kOuterPartials };
  const void* kernel[4];
  std::atomic<void*>* handles[4];  // each kernel's driver handles (runtime/kernel_launch.hpp)
  int in_size, acc_size;
  ReduceLoads loads;  // what a thread of the kernels over the input loads at once
};

// Runs one planned reduction: `in` has the plan's layout, `out` is a contiguous array of
// n_out elements of the kernels' output type.
void run_reduction_kernels(const ReduceKernels& k, const ReductionPlan& p, const char* in,
                           char* out, cudaStream_t stream, const ReduceOpParams& params = {});

}  // namespace gpuarr
