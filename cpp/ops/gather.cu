// Gather and scatter of advanced indexing, and the index-to-offset kernel they share. The
// element move is dtype-agnostic: itemsize-byte words (complex128 as two 8-byte words).
#include "ops/indexing_ops.hpp"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

constexpr int kThreads = 256;

template <int Size> struct WordOf;
template <> struct WordOf<1> { using type = uint8_t; };
template <> struct WordOf<2> { using type = uint16_t; };
template <> struct WordOf<4> { using type = uint32_t; };
template <> struct WordOf<8> { using type = uint64_t; };
template <> struct WordOf<16> { using type = Word16; };

// Operand 0: the offsets (C-contiguous int64 over the index shape); operand 1: the index.
__global__ void index_offsets_kernel(StridedArgs<2> a, int64_t n, const int64_t* base,
                                     bool has_idx, int64_t axis_size, int64_t stride, int mode,
                                     bool accumulate, unsigned long long* err) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    element_offsets(a, i, off);
    int64_t* o = reinterpret_cast<int64_t*>(a.data[0] + off[0]);
    int64_t v = has_idx ? *reinterpret_cast<const int64_t*>(a.data[1] + off[1]) : 0;
    bool ok = true;
    if (mode == static_cast<int>(IndexMode::Raise)) {
      if (v < -axis_size || v >= axis_size) ok = false;
      else if (v < 0) v += axis_size;
    } else if (axis_size == 0) {
      ok = false;
    } else if (mode == static_cast<int>(IndexMode::Wrap)) {
      v %= axis_size;
      if (v < 0) v += axis_size;
    } else {
      v = v < 0 ? 0 : (v >= axis_size ? axis_size - 1 : v);
    }
    if (!ok) {
      if (err) atomicMin(err, static_cast<unsigned long long>(o - base));
      v = 0;
    }
    const int64_t add = v * stride;
    *o = accumulate ? *o + add : add;
  }
}

// Operands: 0 out, 1 src (subspace strides), 2 offsets.
template <class W>
__global__ void gather_kernel(StridedArgs<3> a, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    element_offsets(a, i, off);
    const int64_t extra = *reinterpret_cast<const int64_t*>(a.data[2] + off[2]);
    *reinterpret_cast<W*>(a.data[0] + off[0]) =
        *reinterpret_cast<const W*>(a.data[1] + off[1] + extra);
  }
}

// Operands: 0 dst (subspace strides), 1 offsets, 2 value.
template <class W>
__global__ void scatter_kernel(StridedArgs<3> a, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    element_offsets(a, i, off);
    const int64_t extra = *reinterpret_cast<const int64_t*>(a.data[1] + off[1]);
    *reinterpret_cast<W*>(a.data[0] + off[0] + extra) =
        *reinterpret_cast<const W*>(a.data[2] + off[2]);
  }
}

template <int Size>
void gather_typed(char* out, const Dims& os, const char* src, const Dims& ss,
                  const int64_t* offsets, const Dims& fs, const Dims& shape, cudaStream_t stream) {
  using W = typename WordOf<Size>::type;
  for_each_launch<3>(shape, {&os, &ss, &fs},
                     {out, const_cast<char*>(src),
                      reinterpret_cast<char*>(const_cast<int64_t*>(offsets))},
                     [&](const StridedArgs<3>& a, int64_t n) {
                       gather_kernel<W><<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, n);
                       check_launch("gather_kernel");
                     });
}

template <int Size>
void scatter_typed(char* dst, const Dims& ds, const int64_t* offsets, const Dims& fs,
                   const char* val, const Dims& vs, const Dims& shape, cudaStream_t stream) {
  using W = typename WordOf<Size>::type;
  for_each_launch<3>(shape, {&ds, &fs, &vs},
                     {dst, reinterpret_cast<char*>(const_cast<int64_t*>(offsets)),
                      const_cast<char*>(val)},
                     [&](const StridedArgs<3>& a, int64_t n) {
                       scatter_kernel<W><<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, n);
                       check_launch("scatter_kernel");
                     });
}

}  // namespace

void launch_index_offsets(int64_t* offsets, const Dims& index_shape, const char* idx,
                          const Dims& idx_strides, int64_t axis_size, int64_t stride,
                          IndexMode mode, bool accumulate, unsigned long long* err,
                          cudaStream_t stream) {
  Dims shape = index_shape;
  if (shape_size(shape) == 0) return;
  const bool has_idx = idx != nullptr;
  std::vector<Dims> strides{contiguous_strides(index_shape, 8, 'C'),
                            has_idx ? idx_strides : Dims(index_shape.size(), 0)};
  coalesce_dims(shape, strides);
  for_each_launch<2>(shape, {&strides[0], &strides[1]},
                     {reinterpret_cast<char*>(offsets), const_cast<char*>(idx)},
                     [&](const StridedArgs<2>& a, int64_t n) {
                       index_offsets_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(
                           a, n, offsets, has_idx, axis_size, stride, static_cast<int>(mode),
                           accumulate, err);
                       check_launch("index_offsets_kernel");
                     });
}

void launch_gather(char* out, const Dims& out_strides, const char* src, const Dims& src_strides,
                   const int64_t* offsets, const Dims& off_strides, const Dims& shape_in,
                   int64_t itemsize, cudaStream_t stream) {
  Dims shape = shape_in;
  if (shape_size(shape) == 0) return;
  std::vector<Dims> s{out_strides, src_strides, off_strides};
  coalesce_dims(shape, s);
  switch (itemsize) {
    case 1: return gather_typed<1>(out, s[0], src, s[1], offsets, s[2], shape, stream);
    case 2: return gather_typed<2>(out, s[0], src, s[1], offsets, s[2], shape, stream);
    case 4: return gather_typed<4>(out, s[0], src, s[1], offsets, s[2], shape, stream);
    case 8: return gather_typed<8>(out, s[0], src, s[1], offsets, s[2], shape, stream);
    case 16: return gather_typed<16>(out, s[0], src, s[1], offsets, s[2], shape, stream);
  }
}

void launch_scatter(char* dst, const Dims& dst_strides, const int64_t* offsets,
                    const Dims& off_strides, const char* val, const Dims& val_strides,
                    const Dims& shape_in, int64_t itemsize, cudaStream_t stream) {
  Dims shape = shape_in;
  if (shape_size(shape) == 0) return;
  std::vector<Dims> s{dst_strides, off_strides, val_strides};
  coalesce_dims(shape, s);
  switch (itemsize) {
    case 1: return scatter_typed<1>(dst, s[0], offsets, s[1], val, s[2], shape, stream);
    case 2: return scatter_typed<2>(dst, s[0], offsets, s[1], val, s[2], shape, stream);
    case 4: return scatter_typed<4>(dst, s[0], offsets, s[1], val, s[2], shape, stream);
    case 8: return scatter_typed<8>(dst, s[0], offsets, s[1], val, s[2], shape, stream);
    case 16: return scatter_typed<16>(dst, s[0], offsets, s[1], val, s[2], shape, stream);
  }
}

}  // namespace gpuarr
