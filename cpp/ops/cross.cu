// numpy.cross: 3-vectors (or 2-vectors, with z = 0) along one axis of each operand,
// broadcast over the other dimensions; a thread per vector.
#include <algorithm>
#include <type_traits>

#include "core/errors.hpp"
#include "core/promotion.hpp"
#include "ops/array_ops.hpp"
#include "ops/device_types.cuh"
#include "ops/products.hpp"
#include "ops/products_arith.cuh"
#include "ops/strided.cuh"

namespace gpuarr {
namespace {

struct CrossArgs {
  StridedArgs<3> s;  // a, b, out over the batch
  int64_t n;
  int64_t ca, cb;          // component counts (2 or 3)
  int64_t sa, sb, so;      // component byte strides
  bool scalar_out;         // 2 x 2: only z
};

template <class T>
__global__ void cross_kernel(CrossArgs c) {
  using A = typename AccOf<T>::type;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < c.n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    element_offsets(c.s, i, off);
    const char* pa = c.s.data[0] + off[0];
    const char* pb = c.s.data[1] + off[1];
    char* po = c.s.data[2] + off[2];
    auto ld = [](const char* p, int64_t s, int64_t j, int64_t n) {
      return j < n ? to_acc(*reinterpret_cast<const T*>(p + j * s)) : acc_zero<A>();
    };
    const A a0 = ld(pa, c.sa, 0, c.ca), a1 = ld(pa, c.sa, 1, c.ca), a2 = ld(pa, c.sa, 2, c.ca);
    const A b0 = ld(pb, c.sb, 0, c.cb), b1 = ld(pb, c.sb, 1, c.cb), b2 = ld(pb, c.sb, 2, c.cb);
    auto sub = [](A x, A y) {
      if constexpr (std::is_same_v<A, Complex<float>> || std::is_same_v<A, Complex<double>>)
        return A{x.re - y.re, x.im - y.im};
      else return static_cast<A>(x - y);
    };
    const A z = sub(acc_mul(a0, b1), acc_mul(a1, b0));
    if (c.scalar_out) {
      *reinterpret_cast<T*>(po) = from_acc<T>(z);
    } else {
      *reinterpret_cast<T*>(po) = from_acc<T>(sub(acc_mul(a1, b2), acc_mul(a2, b1)));
      *reinterpret_cast<T*>(po + c.so) = from_acc<T>(sub(acc_mul(a2, b0), acc_mul(a0, b2)));
      *reinterpret_cast<T*>(po + 2 * c.so) = from_acc<T>(z);
    }
  }
}

int64_t norm_axis(int64_t axis, int64_t ndim, const char* prefix) {
  try {
    return normalize_axis(axis, ndim);
  } catch (const AxisError&) {
    throw AxisError(std::string(prefix) + ": axis " + std::to_string(axis) +
                    " is out of bounds for array of dimension " + std::to_string(ndim));
  }
}

}  // namespace

NDArray cross(const NDArray& a_in, const NDArray& b_in, int64_t axisa, int64_t axisb,
              int64_t axisc) {
  if (a_in.ndim() == 0 || b_in.ndim() == 0) {
    throw AxisError(std::string(a_in.ndim() == 0 ? "axisa" : "axisb") + ": axis " +
                    std::to_string(a_in.ndim() == 0 ? axisa : axisb) +
                    " is out of bounds for array of dimension 0");
  }
  const NDArray a = move_axes_last(a_in, {norm_axis(axisa, a_in.ndim(), "axisa")});
  const NDArray b = move_axes_last(b_in, {norm_axis(axisb, b_in.ndim(), "axisb")});
  const int64_t ca = a.shape.back(), cb = b.shape.back();
  if ((ca != 2 && ca != 3) || (cb != 2 && cb != 3)) {
    throw ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)");
  }
  const DType t = promote_types(a.dtype, b.dtype);
  if (t == DType::Bool) {
    throw TypeError("numpy boolean subtract, the `-` operator, is not supported, use the "
                    "bitwise_xor, the `^` operator, or the logical_xor function instead.");
  }
  const NDArray ac = a.dtype == t ? a : copy_array(a, t, 'K');
  const NDArray bc = b.dtype == t ? b : copy_array(b, t, 'K');
  const Dims ab(ac.shape.begin(), ac.shape.end() - 1), bb(bc.shape.begin(), bc.shape.end() - 1);
  const size_t nd = std::max(ab.size(), bb.size());
  Dims batch(nd, 1);
  for (size_t i = 0; i < nd; ++i) {
    const int64_t da = i < nd - ab.size() ? 1 : ab[i - (nd - ab.size())];
    const int64_t db = i < nd - bb.size() ? 1 : bb[i - (nd - bb.size())];
    if (da != db && da != 1 && db != 1) {
      throw ValueError("shape mismatch: objects cannot be broadcast to a single shape.  "
                       "Mismatch is between arg 0 with shape " + shape_str(ab) +
                       " and arg 1 with shape " + shape_str(bb) + ".");
    }
    batch[i] = da == 1 ? db : da;
  }
  const bool scalar_out = ca == 2 && cb == 2;
  Dims out_shape = batch;
  if (!scalar_out) out_shape.push_back(3);
  NDArray out = empty_array(out_shape, t, 'C');
  if (out.size() > 0) {
    auto bst = [&](const NDArray& x, const Dims& xb) {
      Dims s(nd, 0);
      const size_t off = nd - xb.size();
      for (size_t i = 0; i < xb.size(); ++i) s[off + i] = (xb[i] == 1 && batch[off + i] != 1) ? 0 : x.strides[i];
      return s;
    };
    Dims shape = batch;
    std::vector<Dims> st{bst(ac, ab), bst(bc, bb), Dims(out.strides.begin(), out.strides.begin() + nd)};
    coalesce_dims(shape, st);
    CrossArgs c{};
    c.ca = ca;
    c.cb = cb;
    c.sa = ac.strides.back();
    c.sb = bc.strides.back();
    c.so = scalar_out ? 0 : out.strides.back();
    c.scalar_out = scalar_out;
    const cudaStream_t stream = stream_for(out);
    for_each_launch<3>(shape, {&st[0], &st[1], &st[2]}, {ac.data(), bc.data(), out.data()},
                       [&](const StridedArgs<3>& s, int64_t n) {
                         c.s = s;
                         c.n = n;
                         dispatch_dtype(t, [&](auto tag) {
                           using T = typename decltype(tag)::type;
                           if constexpr (!std::is_same_v<T, bool>) {
                             cross_kernel<T><<<grid_for(n, 256), 256, 0, stream>>>(c);
                           }
                         });
                         check_launch("cross_kernel");
                       });
  }
  if (scalar_out) return out;
  // Move the vector axis to axisc (a view, as NumPy's moveaxis).
  const int64_t ac_axis = norm_axis(axisc, out.ndim(), "axisc");
  NDArray v = out;
  v.shape.pop_back();
  v.strides.pop_back();
  v.shape.insert(v.shape.begin() + ac_axis, 3);
  v.strides.insert(v.strides.begin() + ac_axis, out.strides.back());
  return v;
}

}  // namespace gpuarr
