// Launching JIT-compiled kernels: raw launches (RawKernel) and the elementwise launcher of
// ElementwiseKernel and fuse (broadcast, allocate outputs, coalesce, pick the contiguous
// or the strided kernel of the generated pair, launch on the current stream).
#pragma once
#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "ops/ndarray.hpp"
#include "runtime/jit_cache.hpp"

namespace gpuarr {

// Dimensions the generated strided kernels index (ga_shape / ga_strides in the source).
constexpr int kJitMaxDims = 16;

// One argument of a generated elementwise kernel, in parameter order:
//  'a' input array indexed elementwise (broadcast to the launch shape),
//  'o' output to allocate (C order, `dtype`), 'O' given output (its shape is the launch
//  shape), 'r' raw array (pointer + ga_raw_info: size, ndim, shape, byte strides),
//  's' scalar passed by value (`bytes`), 'R' reduction output (a new 0-d array of
//  `dtype`; passed as its pointer, then a partials buffer (16 bytes per block), per-block
//  flags and a zeroed unsigned counter; blocks of 512 threads, at least one, also for
//  n == 0; the generated kernel's last block combines the partials).
struct JitArg {
  char kind = 'a';
  NDArray array;
  DType dtype = DType::Float64;
  std::string bytes;
};

// Launches `name`_c (all indexed operands contiguous after coalescing) or `name`_s
// (strided) with grid-stride loops. `size` (>= 0) gives the launch size when no indexed
// operand exists. Returns the outputs ('o' and 'O' in order).
// `block_per_element` > 0: one block of that many threads per element of the launch shape
// (grid-stride over blocks), for kernels that reduce per output (ReductionKernel).
// `fn_cache` (optional, two entries: contiguous, strided) keeps the kernels looked up by
// name, so that a caller launching the same pair again (fuse) skips the lookup.
std::vector<NDArray> launch_jit_elementwise(JitModule& mod, const std::string& name,
                                            std::vector<JitArg>& args, int64_t size,
                                            int block_per_element = 0,
                                            const JitFunction** fn_cache = nullptr);

// The byte layout the generated kernels expect (checked by static_assert in the .cpp).
struct JitShape {
  int32_t ndim;
  int32_t pad;
  int64_t d[kJitMaxDims];
};
struct JitStrides {
  int64_t s[kJitMaxDims];
};
struct JitRawInfo {
  int64_t size;
  int32_t ndim;
  int32_t pad;
  int64_t shape[kJitMaxDims];
  int64_t strides[kJitMaxDims];
};

}  // namespace gpuarr
