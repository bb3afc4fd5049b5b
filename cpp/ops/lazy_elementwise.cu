#include "ops/lazy_elementwise.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <cuda_pipeline_primitives.h>
#include <memory>
#include <vector>

#include "ops/array_ops.hpp"
#include "ops/device_types.cuh"
#include "gpuarr/ufunc_math.cuh"
#include "ops/strided.cuh"
#include "runtime/config.hpp"
#include "runtime/deferred_work.hpp"
#include "runtime/device.hpp"
#include "runtime/stream.hpp"

namespace gpuarr {
namespace {

// Limits of one fused expression (kernel parameters and registers).
constexpr int kMaxLeaves = 8;
constexpr int kMaxCode = 32;
constexpr int kMaxConsts = 8;
constexpr int kStackSlots = 4;
constexpr int kMaxOuter = 3;     // dimensions besides the innermost, after coalescing
constexpr int64_t kMinInner = 32;  // a shorter innermost extent leaves most lanes idle

// Instructions of the postfix program. The code byte is kind * kStackSlots + slot: the slot
// the result lands in (binary operations combine `slot` and `slot + 1`), so that the
// kernel's stack lives in registers.
enum Kind : uint8_t { kLeaf, kConst, kAdd, kSub, kMul, kDiv, kSqrt, kNeg, kSquare, kAbs };

struct Instr {
  uint8_t kind;
  uint8_t arg;  // leaf or constant index
};

bool is_binary(uint8_t k) { return k >= kAdd && k <= kDiv; }

Kind kind_of(LazyOp op) {
  switch (op) {
    case LazyOp::Add: return kAdd;
    case LazyOp::Subtract: return kSub;
    case LazyOp::Multiply: return kMul;
    case LazyOp::Divide: return kDiv;
    case LazyOp::Sqrt: return kSqrt;
    case LazyOp::Negative: return kNeg;
    case LazyOp::Square: return kSquare;
    case LazyOp::Absolute: return kAbs;
  }
  return kAdd;
}

// ---- the kernel ---------------------------------------------------------------------

// The tiled kernel's leaves staged in shared memory: kTile, a leaf contiguous along the last
// outer dim instead of the innermost (a.T + b), read along that dim and then across, so that
// its reads are coalesced too; kStaged, another leaf read from memory.
enum LeafMode : int { kBroadcast, kVector, kStrided, kTile, kStaged };

struct LeafArg {
  const char* base;
  int64_t inner_stride;
  int64_t outer_stride[kMaxOuter];
  int mode;
  int tile;  // kTile, kStaged: its tile in shared memory
};

// The tiled kernel's tiles are the transposing copy's (ops/strided.cuh: kTransposeTile^2
// elements, kTransposeTileRows<T> rows of threads), at most kMaxTileLeaves kTile leaves
// and kMaxStaged staged leaves in all.
constexpr int kMaxTileLeaves = 2;
constexpr int kMaxStaged = 4;

template <class T>
struct KernelArgs {
  T* out;
  int64_t inner;
  int64_t rows;
  int64_t outer_shape[kMaxOuter];  // padded with 1s in front
  LeafArg leaf[kMaxLeaves];
  T consts[kMaxConsts];
  uint8_t code[kMaxCode];
  uint8_t arg[kMaxCode];
  int ncode;
  int nstaged;                      // tiled kernel: its kTile and kStaged leaves
  uint8_t staged_leaf[kMaxStaged];
};

template <class T> struct Vec16;
template <> struct Vec16<float> { using type = float4; };
template <> struct Vec16<double> { using type = double2; };

template <class T, int V, bool kVec>
__device__ inline void load_leaf(const LeafArg& l, const int64_t (&c)[kMaxOuter], int64_t j0,
                                 int64_t inner, T (&d)[V]) {
  const char* row = l.base + c[0] * l.outer_stride[0] + c[1] * l.outer_stride[1] +
                    c[2] * l.outer_stride[2];
  if (l.mode == kBroadcast) {
    const T x = *reinterpret_cast<const T*>(row);
#pragma unroll
    for (int i = 0; i < V; ++i) d[i] = x;
  } else if (kVec && l.mode == kVector) {
    const auto v = *reinterpret_cast<const typename Vec16<T>::type*>(row + j0 * int64_t(sizeof(T)));
    std::memcpy(d, &v, sizeof(v));
  } else {
#pragma unroll
    for (int i = 0; i < V; ++i)
      d[i] = (kVec || j0 + i < inner) ? *reinterpret_cast<const T*>(row + (j0 + i) * l.inner_stride)
                                      : T(0);
  }
}

#define GPUARR_LAZY_SLOT(K, S, D, E, BODY) \
  case K * kStackSlots + S: {              \
    auto& d = D;                           \
    auto& e = E;                           \
    (void)e;                               \
    BODY;                                  \
  } break;
#define GPUARR_LAZY_CASES(K, BODY)         \
  GPUARR_LAZY_SLOT(K, 0, s0, s1, BODY)     \
  GPUARR_LAZY_SLOT(K, 1, s1, s2, BODY)     \
  GPUARR_LAZY_SLOT(K, 2, s2, s3, BODY)     \
  GPUARR_LAZY_SLOT(K, 3, s3, s3, BODY)
#define GPUARR_LAZY_EACH(EXPR) \
  _Pragma("unroll") for (int i = 0; i < V; ++i) d[i] = EXPR;

// The program over V elements a thread: load(leaf, d) fills d with a leaf's V elements;
// the result lands in s0.
template <class T, int V, class LoadLeaf>
__device__ __forceinline__ void run_program(const KernelArgs<T>& a, LoadLeaf&& load,
                                            T (&s0)[V]) {
  T s1[V], s2[V], s3[V];
  for (int pc = 0; pc < a.ncode; ++pc) {
    const int arg = a.arg[pc];
    switch (a.code[pc]) {
      GPUARR_LAZY_CASES(kLeaf, load(a.leaf[arg], d))
      GPUARR_LAZY_CASES(kConst, GPUARR_LAZY_EACH(a.consts[arg]))
      // The eager loops' functors: each operation rounded on its own (ufunc_math.cuh).
      GPUARR_LAZY_CASES(kAdd, GPUARR_LAZY_EACH(ufn::Add{}(d[i], e[i])))
      GPUARR_LAZY_CASES(kSub, GPUARR_LAZY_EACH(ufn::Subtract{}(d[i], e[i])))
      GPUARR_LAZY_CASES(kMul, GPUARR_LAZY_EACH(ufn::Multiply{}(d[i], e[i])))
      GPUARR_LAZY_CASES(kDiv, GPUARR_LAZY_EACH(ufn::TrueDivide{}(d[i], e[i])))
      GPUARR_LAZY_CASES(kSqrt, GPUARR_LAZY_EACH(ufn::Sqrt{}(d[i])))
      GPUARR_LAZY_CASES(kNeg, GPUARR_LAZY_EACH(ufn::Negative{}(d[i])))
      GPUARR_LAZY_CASES(kSquare, GPUARR_LAZY_EACH(ufn::Square{}(d[i])))
      GPUARR_LAZY_CASES(kAbs, GPUARR_LAZY_EACH(ufn::Absolute{}(d[i])))
      default: break;
    }
  }
}

// The outer coordinates of row `row` (outer_shape padded with 1s in front).
template <class T>
__device__ __forceinline__ void outer_coords(const KernelArgs<T>& a, int64_t row,
                                             int64_t (&c)[kMaxOuter]) {
  c[0] = 0;
  c[1] = 0;
  c[2] = row;
  if (a.outer_shape[0] != 1 || a.outer_shape[1] != 1) {
    c[2] = row % a.outer_shape[2];
    const int64_t t = row / a.outer_shape[2];
    c[1] = t % a.outer_shape[1];
    c[0] = t / a.outer_shape[1];
  }
}

// One thread computes V consecutive elements of a row: 16 bytes, loaded and stored as one
// vector when every operand allows it.
template <class T, bool kVec>
__global__ void lazy_elementwise_kernel(const KernelArgs<T> a) {
  constexpr int V = kPer16Bytes<T>;
  const int64_t items = (a.inner + V - 1) / V;
  const int64_t item = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (item >= items) return;
  const int64_t j0 = item * V;
  for (int64_t row = blockIdx.y; row < a.rows; row += gridDim.y) {
    int64_t c[kMaxOuter];
    outer_coords(a, row, c);
    T s0[V];
    run_program<T, V>(
        a, [&](const LeafArg& l, T(&d)[V]) { load_leaf<T, V, kVec>(l, c, j0, a.inner, d); },
        s0);
    T* out = a.out + row * a.inner + j0;
    if (kVec) {
      typename Vec16<T>::type v;
      std::memcpy(&v, s0, sizeof(v));
      *reinterpret_cast<typename Vec16<T>::type*>(out) = v;
    } else {
#pragma unroll
      for (int i = 0; i < V; ++i)
        if (j0 + i < a.inner) out[i] = s0[i];
    }
  }
}

// The layout where some leaves are contiguous along the last outer dim (Y) instead of the
// innermost (X): a block computes a kTransposeTile^2 tile of the output, thread (tx, ty)
// the elements (y0 + ty + k * R, x0 + tx). A kTile leaf's tile is read along Y by
// consecutive threads into shared memory, so that its reads are as coalesced as the
// output's writes (read in rows, a.T's lanes are 16 KB apart). The staged leaves go to
// shared memory by cp.async, which holds no registers: loaded through registers, beside the
// program's own, too few loads were in flight a block for the bandwidth. The other dims are
// the batch; gridDim.z walks it.
template <class T>
__global__ void __launch_bounds__(kTransposeTileThreads<T>)
    lazy_tiled_kernel(const KernelArgs<T> a) {
  constexpr int R = kTransposeTileRows<T>, V = kTransposeTile / R;
  __shared__ TransposeTile<T> tiles[kMaxStaged];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t x0 = blockIdx.x * int64_t(kTransposeTile);
  const int64_t y0 = blockIdx.y * int64_t(kTransposeTile);
  const int64_t ny = a.outer_shape[2];
  const int64_t x = x0 + tx;
  const int64_t nbatch = a.outer_shape[0] * a.outer_shape[1];
  // A tile inside the plane (all but the edges) goes without bounds checks, each leaf's
  // elements a fixed stride apart from one pointer.
  const bool inside = x0 + kTransposeTile <= a.inner && y0 + kTransposeTile <= ny;
  for (int64_t b = blockIdx.z; b < nbatch; b += gridDim.z) {
    const int64_t c[kMaxOuter] = {b / a.outer_shape[1], b % a.outer_shape[1], 0};
    for (int s = 0; s < a.nstaged; ++s) {
      const LeafArg& l = a.leaf[a.staged_leaf[s]];
      const bool across = l.mode == kTile;
      // Thread (tx, ty) stages element (Y, X) = (ly, lx + k * R) of a kTile leaf into
      // tiles[s][lx + k * R - x0][ly - y0], and of a kStaged leaf (ly + k * R, lx) into
      // tiles[s][ly + k * R - y0][lx - x0].
      const int64_t ly = y0 + (across ? tx : ty), lx = x0 + (across ? ty : tx);
      const int64_t along = across ? l.inner_stride : l.outer_stride[2];
      const char* p = l.base + c[0] * l.outer_stride[0] + c[1] * l.outer_stride[1] +
                      ly * l.outer_stride[2] + lx * l.inner_stride;
#pragma unroll
      for (int k = 0; k < V; ++k) {
        T* dst = &tiles[s][ty + k * R][tx];
        const char* src = p + k * R * along;
        if (inside) {
          __pipeline_memcpy_async(dst, src, sizeof(T));
        } else if (across ? (ly < ny && lx + k * R < a.inner)
                          : (ly + k * R < ny && lx < a.inner)) {
          *dst = *reinterpret_cast<const T*>(src);
        }
      }
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    T s0[V];
    run_program<T, V>(
        a,
        [&](const LeafArg& l, T(&d)[V]) {
          if (l.mode == kTile) {
#pragma unroll
            for (int k = 0; k < V; ++k) d[k] = tiles[l.tile][tx][ty + k * R];
          } else if (l.mode == kStaged) {
#pragma unroll
            for (int k = 0; k < V; ++k) d[k] = tiles[l.tile][ty + k * R][tx];
          } else {
            const char* p = l.base + c[0] * l.outer_stride[0] + c[1] * l.outer_stride[1] +
                            x * l.inner_stride + (y0 + ty) * l.outer_stride[2];
#pragma unroll
            for (int k = 0; k < V; ++k)
              d[k] = inside || (x < a.inner && y0 + ty + k * R < ny)
                         ? *reinterpret_cast<const T*>(p + k * R * l.outer_stride[2])
                         : T(0);
          }
        },
        s0);
    T* out = a.out + (b * ny + y0 + ty) * a.inner + x;
#pragma unroll
    for (int k = 0; k < V; ++k) {
      if (inside || (x < a.inner && y0 + ty + k * R < ny)) out[k * R * a.inner] = s0[k];
    }
    __syncthreads();  // the tiles are read before the next batch item overwrites them
  }
}

#undef GPUARR_LAZY_EACH
#undef GPUARR_LAZY_CASES
#undef GPUARR_LAZY_SLOT

// ---- the pending expression -----------------------------------------------------------

// The stack slot each instruction's result lands in (the kernel's register), and the
// deepest the stack gets.
int stack_slots(const std::vector<Instr>& code, uint8_t* slots) {
  int depth = 0, most = 0;
  for (size_t pc = 0; pc < code.size(); ++pc) {
    const uint8_t k = code[pc].kind;
    int slot;
    if (k == kLeaf || k == kConst) slot = depth++;
    else if (is_binary(k)) slot = --depth - 1;
    else slot = depth - 1;
    most = std::max(most, depth);
    if (slots) slots[pc] = static_cast<uint8_t>(slot);
  }
  return most;
}

class LazyElementwise final : public DeferredWork {
 public:
  DType dtype = DType::Float32;
  Dims shape;
  std::vector<NDArray> leaves;  // each with `shape` and strides broadcast to it
  std::vector<Instr> code;
  std::vector<std::array<unsigned char, 8>> consts;
  std::shared_ptr<Stream> stream;  // null: the legacy default stream
  int device = 0;
  // The operation's compiled loop when the expression is one operation over leaves and
  // constants (no pending operand folded in), else null; it runs when the layout is one of
  // the loop's vector layouts (run_loop).
  UfuncLaunch single_op_loop = nullptr;
  // The launch layout, coalesced once: its shape, then one stride vector for the output
  // (C order) and one per leaf.
  Dims launch_shape;
  std::vector<Dims> launch_strides;

  // Coalesces the layout; false when the kernel cannot index it.
  bool plan_launch() {
    launch_strides.assign(1, contiguous_strides(shape, itemsize(dtype), 'C'));
    for (const NDArray& l : leaves) launch_strides.push_back(l.strides);
    launch_shape = shape;
    coalesce_dims(launch_shape, launch_strides);
    return !launch_shape.empty() && launch_shape.size() <= size_t(kMaxOuter + 1) &&
           launch_shape.back() >= kMinInner;
  }

  void launch(void* output) override {
    DeviceGuard guard(device);
    if (!single_op_loop || !run_loop(static_cast<char*>(output))) {
      if (dtype == DType::Float32) run<float>(static_cast<float*>(output));
      else run<double>(static_cast<double*>(output));
    }
    leaves.clear();  // the inputs may be freed now, in stream order
  }

 private:
  // The one operation through its ufunc loop (code is its operands, a leaf or a constant
  // each, in order, then the operation) when the launch takes the loop's contiguous kernel
  // or its rows in 16-byte vectors (a + row of 4096^2 float64: 75.9 us through the loop,
  // 90.7 through the fused pass, whose 48 registers a thread leave 62% of the warps an SM);
  // false, launching nothing, for any other layout, which the fused pass takes: its rows of
  // V elements a thread beat the loop's strided and unaligned paths (a[::2] + b[::2] and
  // a[1:] - a[:-1] of 16M float32: 1.4x and 1.3x CuPy's time through the loop).
  bool run_loop(char* out) {
    const int nin = static_cast<int>(code.size()) - 1;
    UfuncOperandView views[kMaxUfuncInputs + 1];
    int sizes[kMaxUfuncInputs + 1];
    views[0].data = out;
    views[0].strides = &launch_strides[0];
    for (int k = 0; k <= nin; ++k) sizes[k] = static_cast<int>(itemsize(dtype));
    for (int k = 0; k < nin; ++k) {
      const Instr in = code[k];
      UfuncOperandView& v = views[k + 1];
      if (in.kind == kLeaf) {
        v.data = leaves[in.arg].data();  // launches the work that writes it, if any
        v.strides = &launch_strides[in.arg + 1];
      } else {
        v.is_scalar = true;
        std::memcpy(v.scalar, consts[in.arg].data(), itemsize(dtype));
      }
    }
    if (!contiguous_aligned_launch(launch_shape, views, nin + 1, sizes) &&
        !vector_rows_launch(launch_shape, views, nin + 1, sizes))
      return false;
    single_op_loop(launch_shape, views, stream ? stream->handle() : nullptr);
    return true;
  }

  // Marks the leaves contiguous along the last outer dim instead of the innermost as kTile,
  // and the other leaves read from memory as kStaged up to kMaxStaged staged leaves, and
  // lists them in `a`, when the tiled kernel takes the layout: one to kMaxTileLeaves kTile
  // leaves, the tile's two dims at least a tile long, the grid's y within its limit. False,
  // marking nothing, otherwise.
  template <class T>
  static bool tiled(KernelArgs<T>& a, int nouter, int nleaves) {
    const int64_t ny = a.outer_shape[kMaxOuter - 1];
    if (nouter < 1 || a.inner < kTransposeTile || ny < kTransposeTile ||
        (ny + kTransposeTile - 1) / kTransposeTile > 65535)
      return false;
    auto across = [&](const LeafArg& l) {
      return l.mode == kStrided && l.outer_stride[kMaxOuter - 1] == int64_t(sizeof(T)) &&
             l.inner_stride != 0;
    };
    int ntile = 0;
    for (int i = 0; i < nleaves; ++i) ntile += across(a.leaf[i]);
    if (ntile == 0 || ntile > kMaxTileLeaves) return false;
    a.nstaged = 0;
    for (int i = 0; i < nleaves; ++i) {
      LeafArg& l = a.leaf[i];
      const bool tile = across(l);
      if (!tile && (l.mode == kBroadcast || a.nstaged + ntile >= kMaxStaged)) continue;
      if (tile) --ntile;
      l.mode = tile ? kTile : kStaged;
      l.tile = a.nstaged;
      a.staged_leaf[a.nstaged++] = static_cast<uint8_t>(i);
    }
    return true;
  }

  template <class T>
  void run(T* out) {
    const Dims& s = launch_shape;
    const std::vector<Dims>& strides = launch_strides;
    KernelArgs<T> a{};
    a.out = out;
    a.inner = s.back();
    a.rows = 1;
    const int nouter = static_cast<int>(s.size()) - 1;
    for (int k = 0; k < kMaxOuter; ++k) {
      const int d = k - (kMaxOuter - nouter);
      a.outer_shape[k] = d >= 0 ? s[d] : 1;
      a.rows *= a.outer_shape[k];
    }
    bool vec = a.inner % (16 / int64_t(sizeof(T))) == 0 &&
               reinterpret_cast<uintptr_t>(out) % 16 == 0;
    for (size_t i = 0; i < leaves.size(); ++i) {
      const Dims& st = strides[i + 1];
      LeafArg& l = a.leaf[i];
      l.base = leaves[i].data();  // launches the work that writes it, if any
      l.inner_stride = st.back();
      bool outer_aligned = reinterpret_cast<uintptr_t>(l.base) % 16 == 0;
      for (int k = 0; k < kMaxOuter; ++k) {
        const int d = k - (kMaxOuter - nouter);
        l.outer_stride[k] = d >= 0 ? st[d] : 0;
        outer_aligned = outer_aligned && l.outer_stride[k] % 16 == 0;
      }
      l.mode = l.inner_stride == 0 ? kBroadcast
               : (l.inner_stride == int64_t(sizeof(T)) && outer_aligned) ? kVector
                                                                        : kStrided;
    }
    for (size_t i = 0; i < consts.size(); ++i) std::memcpy(&a.consts[i], consts[i].data(), sizeof(T));
    a.ncode = static_cast<int>(code.size());
    uint8_t slots[kMaxCode];
    stack_slots(code, slots);
    for (size_t pc = 0; pc < code.size(); ++pc) {
      a.code[pc] = static_cast<uint8_t>(code[pc].kind * kStackSlots + slots[pc]);
      a.arg[pc] = code[pc].arg;
    }
    const cudaStream_t st = stream ? stream->handle() : nullptr;
    if (tiled(a, nouter, static_cast<int>(leaves.size()))) {
      const dim3 grid(static_cast<unsigned>((a.inner + kTransposeTile - 1) / kTransposeTile),
                      static_cast<unsigned>((a.outer_shape[2] + kTransposeTile - 1) /
                                            kTransposeTile),
                      static_cast<unsigned>(
                          std::min<int64_t>(a.outer_shape[0] * a.outer_shape[1], 65535)));
      lazy_tiled_kernel<T><<<grid, dim3(kTransposeTile, kTransposeTileRows<T>), 0, st>>>(a);
      check_launch("lazy_tiled_kernel");
      return;
    }
    constexpr int V = kPer16Bytes<T>;
    const int64_t items = (a.inner + V - 1) / V;
    const unsigned threads = 256;
    const dim3 grid(static_cast<unsigned>((items + threads - 1) / threads),
                    static_cast<unsigned>(std::min<int64_t>(a.rows, 65535)));
    if (vec) lazy_elementwise_kernel<T, true><<<grid, threads, 0, st>>>(a);
    else lazy_elementwise_kernel<T, false><<<grid, threads, 0, st>>>(a);
    check_launch("lazy_elementwise_kernel");
  }
};

bool same_leaf(const NDArray& a, const NDArray& b) {
  return a.memory == b.memory && a.offset == b.offset && a.strides == b.strides;
}

// Appends `x` (broadcast to `shape`) as a leaf of `node`; its index, or -1 past the limit.
int add_leaf(LazyElementwise& node, NDArray x, const Dims& shape) {
  if (x.shape != shape) {
    x.strides = broadcast_strides(x.shape, x.strides, shape);
    x.shape = shape;
  }
  for (size_t i = 0; i < node.leaves.size(); ++i)
    if (same_leaf(node.leaves[i], x)) return static_cast<int>(i);
  if (node.leaves.size() >= size_t(kMaxLeaves)) return -1;
  node.leaves.push_back(std::move(x));
  return static_cast<int>(node.leaves.size()) - 1;
}

int add_const(LazyElementwise& node, const unsigned char* bytes) {
  if (node.consts.size() >= size_t(kMaxConsts)) return -1;
  std::array<unsigned char, 8> c{};
  std::memcpy(c.data(), bytes, itemsize(node.dtype));
  node.consts.push_back(c);
  return static_cast<int>(node.consts.size()) - 1;
}

// The pending expression that `x` is the whole result of, if any.
std::shared_ptr<LazyElementwise> pending_expression(const NDArray& x) {
  auto p = std::dynamic_pointer_cast<LazyElementwise>(deferred_producer(*x.memory));
  if (!p || x.offset != 0 || x.dtype != p->dtype || x.shape != p->shape ||
      x.strides != contiguous_strides(p->shape, x.itemsize(), 'C'))
    return nullptr;
  return p;
}

// Appends operand `o`'s program to `node`: a pending operand's own expression, else a leaf
// or a constant. False past the limits.
bool append_operand(LazyElementwise& node, const LazyOperand& o, const Dims& shape) {
  if (!o.array) {
    const int c = add_const(node, o.scalar);
    if (c < 0) return false;
    node.code.push_back({kConst, static_cast<uint8_t>(c)});
    return true;
  }
  if (auto p = pending_expression(*o.array)) {
    std::vector<int> leaf_map, const_map;
    for (const NDArray& l : p->leaves) {
      const int i = add_leaf(node, l, shape);
      if (i < 0) return false;
      leaf_map.push_back(i);
    }
    for (const auto& c : p->consts) {
      const int i = add_const(node, c.data());
      if (i < 0) return false;
      const_map.push_back(i);
    }
    for (Instr in : p->code) {
      if (in.kind == kLeaf) in.arg = static_cast<uint8_t>(leaf_map[in.arg]);
      else if (in.kind == kConst) in.arg = static_cast<uint8_t>(const_map[in.arg]);
      node.code.push_back(in);
    }
    return true;
  }
  // Memory others may write outside gpuarr's stream order cannot be read later.
  if (o.array->memory->shared_outside()) return false;
  const int i = add_leaf(node, *o.array, shape);
  if (i < 0) return false;
  node.code.push_back({kLeaf, static_cast<uint8_t>(i)});
  return true;
}

}  // namespace

int64_t lazy_min_size() { return config::lazy_min_size.get(); }

int64_t set_lazy_min_size(int64_t n) { return config::lazy_min_size.exchange(n); }

std::optional<NDArray> defer_elementwise(LazyOp op, DType t, const Dims& shape,
                                         const LazyOperand* operands, int nin, UfuncLaunch loop) {
  auto node = std::make_shared<LazyElementwise>();
  node->dtype = t;
  node->shape = shape;
  for (int k = 0; k < nin; ++k)
    if (!append_operand(*node, operands[k], shape)) return std::nullopt;
  if (node->code.size() == size_t(nin)) node->single_op_loop = loop;
  node->code.push_back({static_cast<uint8_t>(kind_of(op)), 0});
  if (node->code.size() > size_t(kMaxCode) || stack_slots(node->code, nullptr) > kStackSlots)
    return std::nullopt;
  if (!node->plan_launch()) return std::nullopt;
  node->device = current_device();
  node->stream = current_stream_ptr(node->device);
  NDArray result = empty_array(shape, t, 'C');
  std::vector<std::shared_ptr<Memory>> inputs;
  for (const NDArray& l : node->leaves) inputs.push_back(l.memory);
  defer_work(result.memory, std::move(node), inputs);
  return result;
}

}  // namespace gpuarr
