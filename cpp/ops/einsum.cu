// einsum execution: each operand becomes a strided view over its distinct labels (diagonals
// for repeated labels), labels no later step needs are summed out by the row kernel, and
// operands are contracted pairwise as batched GEMMs (batch = labels in both and kept,
// contracted = in both and not kept, free = the rest), then permuted to the output order.
#include <algorithm>
#include <set>

#include "core/einsum_parse.hpp"
#include "core/errors.hpp"
#include "core/promotion.hpp"
#include "ops/array_ops.hpp"
#include "ops/products.hpp"

namespace gpuarr {
namespace {

struct Term {
  NDArray view;            // shape/strides over `labels`
  std::vector<int> labels;
};

int index_of(const std::vector<int>& v, int l) {
  auto it = std::find(v.begin(), v.end(), l);
  return it == v.end() ? -1 : static_cast<int>(it - v.begin());
}

// Sums out every label of `t` not in `keep`; the result is a fresh C-contiguous term.
Term reduce_term(const Term& t, const std::set<int>& keep) {
  std::vector<int> kept, summed;
  for (int l : t.labels) (keep.count(l) ? kept : summed).push_back(l);
  if (summed.empty()) return t;
  Dims axes;
  for (int l : summed) axes.push_back(index_of(t.labels, l));
  NDArray v = move_axes_last(t.view, axes);
  const size_t nb = kept.size();
  const Dims batch(v.shape.begin(), v.shape.begin() + nb);
  Dims kshape(v.shape.begin() + nb, v.shape.end());
  std::vector<Dims> kst{Dims(v.strides.begin() + nb, v.strides.end())};
  const int64_t K = shape_size(kshape);
  coalesce_dims(kshape, kst);
  if (kshape.size() > 1) {
    v = copy_array(v, v.dtype, 'C');
    kst = {{v.itemsize()}};
  }
  const int64_t kstride = kst[0].empty() ? 0 : kst[0][0];
  NDArray out = empty_array(batch, v.dtype, 'C');
  if (out.size() > 0) {
    if (K == 0) {
      static const char zero[16] = {};
      fill_array(out, zero);
    } else {
      RowOperand x{v.data(), Dims(v.strides.begin(), v.strides.begin() + nb), kstride};
      row_reduce(RowOp::Sum, 0, v.dtype, v.dtype, batch, K, x, nullptr, out.data(), out.strides,
                 stream_for(out));
    }
  }
  return Term{out, kept};
}

Term contract_pair(const Term& a, const Term& b, const std::set<int>& keep) {
  std::vector<int> batch, contracted, free_a, free_b;
  for (int l : a.labels) {
    if (index_of(b.labels, l) >= 0) (keep.count(l) ? batch : contracted).push_back(l);
    else free_a.push_back(l);
  }
  for (int l : b.labels) {
    if (index_of(a.labels, l) < 0) free_b.push_back(l);
  }
  auto pick = [](const Term& t, const std::vector<int>& ls, Dims* shape) {
    Dims s;
    for (int l : ls) {
      const int i = index_of(t.labels, l);
      s.push_back(t.view.strides[i]);
      if (shape) shape->push_back(t.view.shape[i]);
    }
    return s;
  };
  Dims bshape, mshape, kshape, nshape;
  pick(a, batch, &bshape);
  pick(a, free_a, &mshape);
  pick(a, contracted, &kshape);
  pick(b, free_b, &nshape);
  Dims out_shape = bshape;
  out_shape.insert(out_shape.end(), mshape.begin(), mshape.end());
  out_shape.insert(out_shape.end(), nshape.begin(), nshape.end());
  NDArray c = empty_array(out_shape, a.view.dtype, 'C');
  GroupedView ga{a.view, pick(a, batch, nullptr), pick(a, free_a, nullptr), pick(a, contracted, nullptr)};
  GroupedView gb{b.view, pick(b, batch, nullptr), pick(b, contracted, nullptr), pick(b, free_b, nullptr)};
  const size_t nb = bshape.size(), nm = mshape.size();
  GroupedView gc{c, Dims(c.strides.begin(), c.strides.begin() + nb),
                 Dims(c.strides.begin() + nb, c.strides.begin() + nb + nm),
                 Dims(c.strides.begin() + nb + nm, c.strides.end())};
  contract_gemm(bshape, mshape, kshape, nshape, ga, gb, gc);
  std::vector<int> labels = batch;
  labels.insert(labels.end(), free_a.begin(), free_a.end());
  labels.insert(labels.end(), free_b.begin(), free_b.end());
  return Term{c, labels};
}

}  // namespace

NDArray einsum(const std::string& subscripts, const std::vector<NDArray>& operands,
               int dtype_or_neg, bool greedy) {
  std::vector<Dims> shapes;
  for (const auto& op : operands) shapes.push_back(op.shape);
  const EinsumSpec spec = parse_einsum(subscripts, shapes);
  if (operands.empty()) throw ValueError("No input operands");
  DType t = operands[0].dtype;
  for (const auto& op : operands) t = promote_types(t, op.dtype);
  if (dtype_or_neg >= 0) t = static_cast<DType>(dtype_or_neg);

  std::vector<Term> terms;
  for (size_t i = 0; i < operands.size(); ++i) {
    const NDArray x = operands[i].dtype == t ? operands[i] : copy_array(operands[i], t, 'K');
    const EinsumOperandView v = einsum_operand_view(spec, static_cast<int>(i), x.shape, x.strides);
    NDArray view = x;
    view.shape = v.shape;
    view.strides = v.strides;
    terms.push_back(Term{view, v.labels});
  }
  const std::set<int> out_set(spec.output_labels.begin(), spec.output_labels.end());
  auto keep_except = [&](size_t i, size_t j) {
    std::set<int> keep = out_set;
    for (size_t k = 0; k < terms.size(); ++k) {
      if (k != i && k != j) keep.insert(terms[k].labels.begin(), terms[k].labels.end());
    }
    return keep;
  };
  const auto steps = einsum_contraction_order(spec, greedy);
  for (const auto& [i, j] : steps) {
    const std::set<int> keep = keep_except(i, j);
    std::set<int> keep_a = keep, keep_b = keep;
    keep_a.insert(terms[j].labels.begin(), terms[j].labels.end());
    keep_b.insert(terms[i].labels.begin(), terms[i].labels.end());
    const Term a = reduce_term(terms[i], keep_a);
    const Term b = reduce_term(terms[j], keep_b);
    terms[i] = contract_pair(a, b, keep);
    terms.erase(terms.begin() + j);
  }
  Term last = reduce_term(terms[0], out_set);
  NDArray v = last.view;
  v.shape.clear();
  v.strides.clear();
  for (int l : spec.output_labels) {
    const int i = index_of(last.labels, l);
    v.shape.push_back(last.view.shape[i]);
    v.strides.push_back(last.view.strides[i]);
  }
  // A fresh array in the output order (NumPy returns a view when nothing is computed; a
  // copy has the same values).
  if (v.memory == last.view.memory && v.c_contiguous() && last.view.memory != operands[0].memory) {
    bool from_operand = false;
    for (const auto& op : operands) from_operand |= op.memory == v.memory;
    if (!from_operand) return v;
  }
  return copy_array(v, t, 'C');
}

}  // namespace gpuarr
