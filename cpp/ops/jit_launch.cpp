#include "ops/jit_launch.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "core/shape_ops.hpp"
#include "ops/array_ops.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/stream.hpp"

namespace gpuarr {

static_assert(sizeof(JitShape) == 8 + 8 * kJitMaxDims, "ga_shape layout");
static_assert(sizeof(JitRawInfo) == 16 + 16 * kJitMaxDims, "ga_raw_info layout");

std::vector<NDArray> launch_jit_elementwise(JitModule& mod, const std::string& name,
                                            std::vector<JitArg>& args, int64_t size,
                                            int block_per_element,
                                            const JitFunction** fn_cache) {
  // The launch shape: the given outputs' shape, else the inputs' broadcast shape.
  const Dims* out_shape = nullptr;
  const Dims* first_in = nullptr;  // inputs of one shape (the common case) need no broadcast
  bool same_in = true;
  bool any_in = false;
  for (const auto& a : args) {
    if (a.kind == 'a') {
      any_in = true;
      if (!first_in) first_in = &a.array.shape;
      else if (same_in && *first_in != a.array.shape) same_in = false;
    }
    if (a.kind == 'O') {
      if (out_shape && *out_shape != a.array.shape)
        throw ValueError("Shape of output arrays must be the same");
      out_shape = &a.array.shape;
    }
  }
  Dims shape;
  if (out_shape) {
    shape = *out_shape;
  } else if (any_in && same_in) {
    shape = *first_in;
  } else if (any_in) {
    std::vector<Dims> in_shapes;
    for (const auto& a : args)
      if (a.kind == 'a') in_shapes.push_back(a.array.shape);
    shape = broadcast_shapes(in_shapes);
  } else if (size >= 0) {
    shape = Dims{size};
  } else {
    throw ValueError("Loop size is undecided");
  }
  if (size >= 0 && (any_in || out_shape) && shape_size(shape) != size)
    throw ValueError("size must be None when the kernel has indexed array arguments");

  std::vector<NDArray> outs;
  std::vector<Dims> strides;     // per indexed operand, broadcast to shape
  std::vector<size_t> indexed;   // arg positions of indexed operands
  bool reduction = false;        // an 'R' output: one block reduces everything
  for (size_t i = 0; i < args.size(); ++i) {
    auto& a = args[i];
    if (a.kind == 'o') {
      a.array = empty_array(shape, a.dtype, 'C');
      outs.push_back(a.array);
    } else if (a.kind == 'R') {
      a.array = empty_array(Dims{}, a.dtype, 'C');
      outs.push_back(a.array);
      reduction = true;
    } else if (a.kind == 'O') {
      outs.push_back(a.array);
    }
    if (a.kind == 'a' || a.kind == 'o' || a.kind == 'O') {
      strides.push_back(a.kind == 'a' ? broadcast_to_strides(a.array.shape, a.array.strides, shape)
                                      : a.array.strides);
      indexed.push_back(i);
    }
  }
  const int64_t n = shape_size(shape);
  if (n == 0 && !reduction) return outs;

  Dims cshape = shape;
  coalesce_dims(cshape, strides);
  bool contiguous = cshape.size() <= 1;
  for (size_t k = 0; contiguous && k < indexed.size(); ++k) {
    const auto& a = args[indexed[k]];
    if (!cshape.empty() && cshape[0] > 1 && strides[k][0] != a.array.itemsize()) contiguous = false;
  }
  if (!contiguous && static_cast<int>(cshape.size()) > kJitMaxDims)
    throw ValueError("gpuarr JIT kernels support at most " + std::to_string(kJitMaxDims) +
                     " dimensions after coalescing");

  // Reductions: blocks of kReduceBlock threads each reduce a share, write a partial, and
  // the last block (atomic ticket on a zeroed counter) reduces the partials.
  constexpr int64_t kReduceBlock = 512;
  constexpr int64_t kMaxReduceBlocks = 1024;
  const int64_t red_blocks =
      std::max<int64_t>(1, std::min<int64_t>((n + kReduceBlock - 1) / kReduceBlock, kMaxReduceBlocks));
  std::shared_ptr<Memory> red_temp;
  void* red_part = nullptr;
  void* red_has = nullptr;
  void* red_cnt = nullptr;
  cudaStream_t stream = current_stream_handle(current_device());
  if (reduction) {
    // partials (16 bytes each: any accumulator), flags, then the counter.
    const size_t part_bytes = static_cast<size_t>(red_blocks) * 16;
    const size_t has_bytes = (static_cast<size_t>(red_blocks) + 15) / 16 * 16;
    red_temp = allocate_device_memory(part_bytes + has_bytes + 16);
    char* base = static_cast<char*>(red_temp->ptr());
    red_part = base;
    red_has = base + part_bytes;
    red_cnt = base + part_bytes + has_bytes;
    GPUARR_CUDA_CHECK(cudaMemsetAsync(red_cnt, 0, sizeof(unsigned int), stream));
  }

  // Parameter storage, stable for the launch.
  std::vector<void*> argp;
  std::vector<void*> ptrs(args.size());
  std::vector<JitStrides> st(contiguous ? 0 : indexed.size());
  std::vector<JitRawInfo> raw;  // 272 bytes per argument: only when a raw array is passed
  for (const auto& a : args)
    if (a.kind == 'r') {
      raw.resize(args.size());
      break;
    }
  JitShape jshape{};
  long long nn = n;
  argp.push_back(&nn);
  if (!contiguous) {
    jshape.ndim = static_cast<int32_t>(cshape.size());
    for (size_t d = 0; d < cshape.size(); ++d) jshape.d[d] = cshape[d];
    argp.push_back(&jshape);
  }
  size_t k = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    auto& a = args[i];
    switch (a.kind) {
      case 'a':
      case 'o':
      case 'O':
        ptrs[i] = a.array.data();
        argp.push_back(&ptrs[i]);
        if (!contiguous) {
          for (size_t d = 0; d < cshape.size(); ++d) st[k].s[d] = strides[k][d];
          argp.push_back(&st[k]);
        }
        ++k;
        break;
      case 'r': {
        if (a.array.ndim() > kJitMaxDims)
          throw ValueError("raw arrays of gpuarr JIT kernels have at most " +
                           std::to_string(kJitMaxDims) + " dimensions");
        ptrs[i] = a.array.data();
        argp.push_back(&ptrs[i]);
        auto& info = raw[i];
        info.size = a.array.size();
        info.ndim = static_cast<int32_t>(a.array.ndim());
        for (int64_t d = 0; d < a.array.ndim(); ++d) {
          info.shape[d] = a.array.shape[d];
          info.strides[d] = a.array.strides[d];
        }
        argp.push_back(&info);
        break;
      }
      case 's':
        argp.push_back(a.bytes.data());
        break;
      case 'R':
        ptrs[i] = a.array.data();
        argp.push_back(&ptrs[i]);
        argp.push_back(&red_part);
        argp.push_back(&red_has);
        argp.push_back(&red_cnt);
        break;
      default:
        throw ValueError(std::string("bad JIT argument kind ") + a.kind);
    }
  }
  const JitFunction* fp = fn_cache ? fn_cache[contiguous ? 0 : 1] : nullptr;
  if (!fp) {
    fp = &mod.function(name + (contiguous ? "_c" : "_s"));  // stable: the module owns it
    if (fn_cache) fn_cache[contiguous ? 0 : 1] = fp;
  }
  const JitFunction& f = *fp;
  if (f.params_known && f.param_sizes.size() != argp.size())
    throw TypeError("generated kernel " + name + " takes " +
                    std::to_string(f.param_sizes.size()) + " parameters, launcher packed " +
                    std::to_string(argp.size()));
  // Reductions: kReduceBlock threads per block (the generated code's shared arrays).
  int64_t kBlock = reduction ? kReduceBlock : 256;
  int64_t blocks =
      reduction ? red_blocks : std::min<int64_t>((n + kBlock - 1) / kBlock, int64_t(1) << 20);
  if (block_per_element > 0) {
    kBlock = block_per_element;
    blocks = std::min<int64_t>(n, int64_t(1) << 20);
  }
  f.launch(dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(kBlock)),
           argp.data(), 0, stream);
  return outs;
}

}  // namespace gpuarr
