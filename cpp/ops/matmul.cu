// Host logic of matmul, tensordot, dot, vdot, inner, kron, vecdot and norms: shapes,
// dtypes and NumPy's errors, mapped onto contract_gemm and row_reduce.
#include <algorithm>
#include <numeric>

#include "core/errors.hpp"
#include "core/promotion.hpp"
#include "ops/array_ops.hpp"
#include "ops/products.hpp"

namespace gpuarr {
namespace {

const char* kMatmulSig = "(n?,k),(k,m?)->(n?,m?)";

NDArray as_dtype(const NDArray& a, DType t) {
  return a.dtype == t ? a : copy_array(a, t, 'K');
}

// Strides of the trailing-aligned `shape`/`strides` broadcast to `target` (0 where stretched).
Dims bcast(const Dims& shape, const Dims& strides, const Dims& target) {
  Dims out(target.size(), 0);
  const size_t off = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    out[off + i] = (shape[i] == 1 && target[off + i] != 1) ? 0 : strides[i];
  }
  return out;
}

bool broadcast_shapes(const Dims& a, const Dims& b, Dims& out) {
  const size_t n = std::max(a.size(), b.size());
  out.assign(n, 1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

Dims sub(const Dims& d, size_t from, size_t to) { return Dims(d.begin() + from, d.begin() + to); }

NDArray ravel(const NDArray& a) { return reshape_array(a, {a.size()}, 'C'); }

bool shares_memory(const NDArray& a, const NDArray& b) { return a.memory == b.memory; }

}  // namespace

NDArray move_axes_last(const NDArray& a, const Dims& axes) {
  NDArray v = a;
  v.shape.clear();
  v.strides.clear();
  for (int64_t d = 0; d < a.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
      v.shape.push_back(a.shape[d]);
      v.strides.push_back(a.strides[d]);
    }
  }
  for (int64_t d : axes) {
    v.shape.push_back(a.shape[d]);
    v.strides.push_back(a.strides[d]);
  }
  return v;
}

NDArray contiguous(const NDArray& a) { return a.c_contiguous() ? a : copy_array(a, a.dtype, 'C'); }

NDArray matmul(const NDArray& a_in, const NDArray& b_in, const NDArray* out) {
  // NumPy resolves the loop's dtype and checks the cast to `out` before any shape.
  const DType t = promote_types(a_in.dtype, b_in.dtype);
  if (out && !can_cast(t, out->dtype, Casting::SameKind)) {
    throw TypeError(std::string("Cannot cast ufunc 'matmul' output from dtype('") + name(t) +
                    "') to dtype('" + name(out->dtype) + "') with casting rule 'same_kind'");
  }
  for (int i = 0; i < 2; ++i) {
    const NDArray& x = i ? b_in : a_in;
    if (x.ndim() == 0) {
      throw ValueError("matmul: Input operand " + std::to_string(i) +
                       " does not have enough dimensions (has 0, gufunc core with signature " +
                       kMatmulSig + " requires 1)");
    }
  }
  const bool a1 = a_in.ndim() == 1, b1 = b_in.ndim() == 1;
  const int64_t K = a_in.shape.back();
  const int64_t K2 = b1 ? b_in.shape[0] : b_in.shape[b_in.ndim() - 2];
  if (K != K2) {
    throw ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                     "gufunc signature " + std::string(kMatmulSig) + " (size " +
                     std::to_string(K2) + " is different from " + std::to_string(K) + ")");
  }
  const int64_t M = a1 ? 1 : a_in.shape[a_in.ndim() - 2];
  const int64_t N = b1 ? 1 : b_in.shape.back();
  const Dims abatch = a1 ? Dims{} : sub(a_in.shape, 0, a_in.ndim() - 2);
  const Dims bbatch = b1 ? Dims{} : sub(b_in.shape, 0, b_in.ndim() - 2);
  Dims batch;
  if (!broadcast_shapes(abatch, bbatch, batch)) {
    throw ValueError("operands could not be broadcast together with remapped shapes "
                     "[original->remapped]: " + compact_shape_str(a_in.shape) + "->" +
                     compact_shape_str(abatch) + " " + compact_shape_str(b_in.shape) + "->" +
                     compact_shape_str(bbatch) + " and requested shape " +
                     compact_shape_str(batch));
  }
  Dims mdims = a1 ? Dims{} : Dims{M}, ndims = b1 ? Dims{} : Dims{N};
  Dims out_shape = batch;
  out_shape.insert(out_shape.end(), mdims.begin(), mdims.end());
  out_shape.insert(out_shape.end(), ndims.begin(), ndims.end());
  if (out && out->shape != out_shape) {
    const size_t core = mdims.size() + ndims.size();
    const bool has_core = out->ndim() >= int64_t(core);
    const Dims oc = has_core ? sub(out->shape, out->ndim() - core, out->ndim()) : out->shape;
    const Dims ec = sub(out_shape, out_shape.size() - core, out_shape.size());
    if (has_core && oc != ec) {
      size_t i = 0;
      while (oc[i] == ec[i]) ++i;
      throw ValueError("matmul: Output operand 0 has a mismatch in its core dimension " +
                       std::to_string(i) + ", with gufunc signature " + kMatmulSig +
                       " (size " + std::to_string(oc[i]) + " is different from " +
                       std::to_string(ec[i]) + ")");
    }
    // As any ufunc output, `out` may have more (or longer) loop dimensions than the inputs'
    // broadcast, as long as that broadcast stretches to them: the result is repeated.
    bool stretches = has_core;
    if (stretches) {
      const Dims obatch = sub(out->shape, 0, out->ndim() - core);
      Dims joint;
      stretches = broadcast_shapes(batch, obatch, joint) && joint == obatch;
    }
    if (!stretches) {
      throw ValueError("non-broadcastable output operand with shape " +
                       compact_shape_str(out->shape) + " doesn't match the broadcast shape " +
                       compact_shape_str(out_shape));
    }
  }
  const NDArray a = as_dtype(a_in, t), b = as_dtype(b_in, t);
  const bool direct = out && out->shape == out_shape && out->dtype == t &&
                      !shares_memory(*out, a) && !shares_memory(*out, b);
  NDArray c = direct ? *out : empty_array(out_shape, t, 'C');
  GroupedView ga{a, bcast(abatch, a1 ? Dims{} : sub(a.strides, 0, a.ndim() - 2), batch),
                 a1 ? Dims{} : Dims{a.strides[a.ndim() - 2]}, Dims{a.strides.back()}};
  GroupedView gb{b, bcast(bbatch, b1 ? Dims{} : sub(b.strides, 0, b.ndim() - 2), batch),
                 Dims{b1 ? b.strides[0] : b.strides[b.ndim() - 2]},
                 b1 ? Dims{} : Dims{b.strides.back()}};
  const size_t nb = batch.size();
  GroupedView gc{c, sub(c.strides, 0, nb), sub(c.strides, nb, nb + mdims.size()),
                 sub(c.strides, nb + mdims.size(), c.strides.size())};
  contract_gemm(batch, mdims, Dims{K}, ndims, ga, gb, gc);
  if (out && !direct) {
    assign_array(*out, c);
    return *out;
  }
  return c;
}

NDArray tensordot(const NDArray& a_in, const Dims& axes_a, const NDArray& b_in,
                  const Dims& axes_b) {
  if (axes_a.size() != axes_b.size()) throw ValueError("shape-mismatch for sum");
  Dims aa, ab;
  for (size_t i = 0; i < axes_a.size(); ++i) {
    aa.push_back(normalize_axis(axes_a[i], a_in.ndim()));
    ab.push_back(normalize_axis(axes_b[i], b_in.ndim()));
    if (a_in.shape[aa.back()] != b_in.shape[ab.back()]) throw ValueError("shape-mismatch for sum");
  }
  const DType t = promote_types(a_in.dtype, b_in.dtype);
  const NDArray a = as_dtype(a_in, t), b = as_dtype(b_in, t);
  Dims m, ms, n, ns, k, kas, kbs;
  for (int64_t d = 0; d < a.ndim(); ++d) {
    if (std::find(aa.begin(), aa.end(), d) == aa.end()) {
      m.push_back(a.shape[d]);
      ms.push_back(a.strides[d]);
    }
  }
  for (int64_t d = 0; d < b.ndim(); ++d) {
    if (std::find(ab.begin(), ab.end(), d) == ab.end()) {
      n.push_back(b.shape[d]);
      ns.push_back(b.strides[d]);
    }
  }
  for (size_t i = 0; i < aa.size(); ++i) {
    k.push_back(a.shape[aa[i]]);
    kas.push_back(a.strides[aa[i]]);
    kbs.push_back(b.strides[ab[i]]);
  }
  Dims out_shape = m;
  out_shape.insert(out_shape.end(), n.begin(), n.end());
  NDArray c = empty_array(out_shape, t, 'C');
  GroupedView ga{a, {}, ms, kas}, gb{b, {}, kbs, ns};
  GroupedView gc{c, {}, sub(c.strides, 0, m.size()), sub(c.strides, m.size(), c.strides.size())};
  contract_gemm({}, m, k, n, ga, gb, gc);
  return c;
}

NDArray dot(const NDArray& a, const NDArray& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return tensordot(a, {}, b, {});
  const int64_t bax = b.ndim() == 1 ? 0 : b.ndim() - 2;
  if (a.shape.back() != b.shape[bax]) {
    throw ValueError("shapes " + compact_shape_str(a.shape) + " and " +
                     compact_shape_str(b.shape) + " not aligned: " +
                     std::to_string(a.shape.back()) + " (dim " + std::to_string(a.ndim() - 1) +
                     ") != " + std::to_string(b.shape[bax]) + " (dim " + std::to_string(bax) +
                     ")");
  }
  return tensordot(a, {a.ndim() - 1}, b, {bax});
}

NDArray inner(const NDArray& a, const NDArray& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return tensordot(a, {}, b, {});
  if (a.shape.back() != b.shape.back()) {
    throw ValueError("shapes " + compact_shape_str(a.shape) + " and " +
                     compact_shape_str(b.shape) + " not aligned: " +
                     std::to_string(a.shape.back()) + " (dim " + std::to_string(a.ndim() - 1) +
                     ") != " + std::to_string(b.shape.back()) + " (dim " +
                     std::to_string(b.ndim() - 1) + ")");
  }
  return tensordot(a, {a.ndim() - 1}, b, {b.ndim() - 1});
}


NDArray vdot(const NDArray& a_in, const NDArray& b_in) {
  const DType t = promote_types(a_in.dtype, b_in.dtype);
  const NDArray a = ravel(as_dtype(a_in, t)), b = ravel(as_dtype(b_in, t));
  if (a.size() != b.size()) throw ValueError("vectors have different lengths");
  NDArray c = empty_array({}, t, 'C');
  RowOperand x{a.data(), {}, a.strides[0]}, y{b.data(), {}, b.strides[0]};
  row_reduce(RowOp::Dotc, 0, t, t, {}, a.size(), x, &y, c.data(), {}, stream_for(c));
  return c;
}

NDArray vecdot(const NDArray& a_in, const NDArray& b_in, int64_t axis) {
  const DType t = promote_types(a_in.dtype, b_in.dtype);
  if (a_in.ndim() == 0 || b_in.ndim() == 0) {
    const int i = a_in.ndim() == 0 ? 0 : 1;
    throw ValueError("vecdot: Input operand " + std::to_string(i) +
                     " does not have enough dimensions (has 0, gufunc core with signature "
                     "(n),(n)->() requires 1)");
  }
  const NDArray a = move_axes_last(as_dtype(a_in, t), {normalize_axis(axis, a_in.ndim())});
  const NDArray b = move_axes_last(as_dtype(b_in, t), {normalize_axis(axis, b_in.ndim())});
  const int64_t K = a.shape.back();
  if (b.shape.back() != K) {
    throw ValueError("vecdot: Input operand 1 has a mismatch in its core dimension 0, with "
                     "gufunc signature (n),(n)->() (size " + std::to_string(b.shape.back()) +
                     " is different from " + std::to_string(K) + ")");
  }
  const Dims ab = sub(a.shape, 0, a.ndim() - 1), bb = sub(b.shape, 0, b.ndim() - 1);
  Dims batch;
  if (!broadcast_shapes(ab, bb, batch)) {
    throw ValueError("operands could not be broadcast together with remapped shapes "
                     "[original->remapped]: " + compact_shape_str(a_in.shape) + "->" +
                     compact_shape_str(ab) + " " + compact_shape_str(b_in.shape) + "->" +
                     compact_shape_str(bb) + " and requested shape " + compact_shape_str(batch));
  }
  NDArray c = empty_array(batch, t, 'C');
  if (c.size() == 0) return c;
  RowOperand x{a.data(), bcast(ab, sub(a.strides, 0, a.ndim() - 1), batch), a.strides.back()};
  RowOperand y{b.data(), bcast(bb, sub(b.strides, 0, b.ndim() - 1), batch), b.strides.back()};
  row_reduce(RowOp::Dotc, 0, t, t, batch, K, x, &y, c.data(), c.strides, stream_for(c));
  return c;
}

NDArray kron(const NDArray& a_in, const NDArray& b_in) {
  const int64_t nd = std::max(a_in.ndim(), b_in.ndim());
  auto pad = [nd](NDArray x) {
    while (x.ndim() < nd) {
      x.shape.insert(x.shape.begin(), 1);
      x.strides.insert(x.strides.begin(), 0);
    }
    return x;
  };
  const NDArray a = pad(a_in), b = pad(b_in);
  NDArray o = tensordot(a, {}, b, {});  // shape a..., b...
  NDArray v = o;
  Dims final_shape;
  v.shape.clear();
  v.strides.clear();
  for (int64_t d = 0; d < nd; ++d) {
    v.shape.push_back(o.shape[d]);
    v.strides.push_back(o.strides[d]);
    v.shape.push_back(o.shape[nd + d]);
    v.strides.push_back(o.strides[nd + d]);
    final_shape.push_back(a.shape[d] * b.shape[d]);
  }
  return reshape_array(copy_array(v, v.dtype, 'C'), final_shape, 'C');
}

NDArray reduce_norm(const NDArray& x_in, const Dims& axes_in, RowOp op, double p, bool keepdims) {
  const NDArray x = (is_float(x_in.dtype) || is_complex(x_in.dtype))
                        ? x_in : copy_array(x_in, DType::Float64, 'K');
  Dims axes;
  for (int64_t ax : axes_in) axes.push_back(normalize_axis(ax, x.ndim()));
  NDArray v = move_axes_last(x, axes);
  const size_t nb = v.shape.size() - axes.size();
  const Dims batch = sub(v.shape, 0, nb);
  Dims kshape = sub(v.shape, nb, v.shape.size());
  std::vector<Dims> kst{sub(v.strides, nb, v.strides.size())};
  const int64_t K = shape_size(kshape);
  if (K == 0 && (op == RowOp::NormMax || op == RowOp::NormMin) && shape_size(batch) >= 0) {
    throw ValueError(std::string("zero-size array to reduction operation ") +
                     (op == RowOp::NormMax ? "maximum" : "minimum") + " which has no identity");
  }
  coalesce_dims(kshape, kst);
  if (kshape.size() > 1) {
    v = copy_array(v, v.dtype, 'C');
    kshape = {K};
    kst = {{v.itemsize()}};
  }
  const int64_t kstride = kshape.empty() ? 0 : kst[0][0];
  const DType rt = real_dtype(x.dtype);
  NDArray out = empty_array(batch, rt, 'C');
  if (out.size() > 0) {
    RowOperand xo{v.data(), sub(v.strides, 0, nb), kstride};
    row_reduce(op, p, x.dtype, rt, batch, K, xo, nullptr, out.data(), out.strides,
               stream_for(out));
  }
  if (keepdims) {
    Dims shape, strides;
    size_t j = 0;
    for (int64_t d = 0; d < x.ndim(); ++d) {
      if (std::find(axes.begin(), axes.end(), d) != axes.end()) {
        shape.push_back(1);
        strides.push_back(0);
      } else {
        shape.push_back(out.shape[j]);
        strides.push_back(out.strides[j]);
        ++j;
      }
    }
    out.shape = shape;
    out.strides = strides;
  }
  return out;
}

}  // namespace gpuarr
