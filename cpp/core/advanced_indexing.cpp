#include "core/advanced_indexing.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/errors.hpp"

namespace gpuarr {
namespace {

using Kind = IndexEntry::Kind;

int64_t axes_consumed(const IndexEntry& e) {
  switch (e.kind) {
    case Kind::Integer:
    case Kind::Slice:
    case Kind::IntArray:
      return 1;
    case Kind::BoolArray:
      return static_cast<int64_t>(e.shape.size());
    default:
      return 0;
  }
}

}  // namespace

bool has_advanced(const std::vector<IndexEntry>& index) {
  for (const auto& e : index) {
    if (e.is_array()) return true;
  }
  return false;
}

bool put_claims_fit(int64_t array_size, int64_t index_count) {
  constexpr int64_t kElementsPerIndex = 64, kElementsAny = int64_t(1) << 24;
  return array_size <= kElementsAny || array_size <= kElementsPerIndex * index_count;
}

std::string out_of_bounds_message(int64_t index, int64_t axis, int64_t size) {
  return "index " + std::to_string(index) + " is out of bounds for axis " +
         std::to_string(axis) + " with size " + std::to_string(size);
}

std::vector<int64_t> check_index(const Dims& shape, const std::vector<IndexEntry>& index) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  int64_t consumed = 0;
  int ellipses = 0;
  for (const auto& e : index) {
    consumed += axes_consumed(e);
    if (e.kind == Kind::Ellipsis) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > nd) {
    throw IndexError("too many indices for array: array is " + std::to_string(nd) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }
  std::vector<int64_t> first(index.size(), -1);
  int64_t axis = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    const auto& e = index[i];
    if (e.kind == Kind::Ellipsis) {
      axis += nd - consumed;
      continue;
    }
    const int64_t c = axes_consumed(e);
    if (c == 0) continue;
    first[i] = axis;
    if (e.kind == Kind::BoolArray) {
      // As NumPy: a mask axis of size 0 matches an axis of any size (it selects nothing).
      for (int64_t d = 0; d < c; ++d) {
        if (e.shape[d] != 0 && e.shape[d] != shape[axis + d]) {
          throw IndexError("boolean index did not match indexed array along axis " +
                           std::to_string(axis + d) + "; size of axis is " +
                           std::to_string(shape[axis + d]) +
                           " but size of corresponding boolean axis is " +
                           std::to_string(e.shape[d]));
        }
      }
    }
    axis += c;
  }
  return first;
}

std::vector<IndexEntry> expand_bool_arrays(const std::vector<IndexEntry>& index,
                                           const std::vector<int64_t>& counts,
                                           std::vector<size_t>* origin) {
  std::vector<IndexEntry> out;
  out.reserve(index.size());
  if (origin) origin->clear();
  size_t b = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    const auto& e = index[i];
    if (e.kind != Kind::BoolArray) {
      out.push_back(e);
      if (origin) origin->push_back(i);
      continue;
    }
    if (b >= counts.size()) throw std::logic_error("expand_bool_arrays: missing count");
    const int64_t n = counts[b++];
    for (size_t d = 0; d < e.shape.size(); ++d) {
      out.push_back(IndexEntry::int_array({n}));
      if (origin) origin->push_back(i);
    }
  }
  return out;
}

Dims AdvancedPlan::result_strides(int64_t itemsize) const {
  Dims s(result_shape.size(), 0);
  int64_t acc = itemsize;
  for (size_t k = result_order.size(); k-- > 0;) {
    const int64_t d = result_order[k];
    s[d] = acc;
    acc *= std::max<int64_t>(result_shape[d], 1);
  }
  return s;
}

Dims AdvancedPlan::index_strides() const {
  Dims s(result_shape.size(), 0);
  int64_t acc = 1;
  const int64_t ni = static_cast<int64_t>(index_shape.size());
  for (int64_t k = ni; k-- > 0;) {
    s[index_pos + k] = acc;
    acc *= std::max<int64_t>(index_shape[k], 1);
  }
  return s;
}

AdvancedPlan plan_advanced_index(const Dims& shape, const Dims& strides,
                                 const std::vector<IndexEntry>& index) {
  for (const auto& e : index) {
    if (e.kind == Kind::BoolArray) {
      throw std::logic_error("plan_advanced_index: expand boolean arrays first");
    }
  }
  check_index(shape, index);
  const int64_t nd = static_cast<int64_t>(shape.size());
  int64_t consumed = 0;
  for (const auto& e : index) consumed += axes_consumed(e);

  AdvancedPlan p;
  Dims sub_shape, sub_strides;  // the non-index result dims, in order
  int64_t index_pos = -1;       // sub dims before the first advanced entry
  bool separated = false, seen_adv = false, gap = false;
  int64_t axis = 0;
  std::vector<Dims> shapes;
  auto mark_adv = [&]() {
    if (!seen_adv) {
      seen_adv = true;
      index_pos = static_cast<int64_t>(sub_shape.size());
    } else if (gap) {
      separated = true;
    }
  };
  for (size_t i = 0; i < index.size(); ++i) {
    const auto& e = index[i];
    switch (e.kind) {
      case Kind::Integer: {
        int64_t v = e.value;
        const int64_t n = shape[axis];
        if (v < -n || v >= n) throw IndexError(out_of_bounds_message(v, axis, n));
        if (v < 0) v += n;
        p.offset += v * strides[axis];
        ++axis;
        mark_adv();
        break;
      }
      case Kind::IntArray:
        p.arrays.push_back({i, axis, shape[axis], strides[axis], e.shape});
        shapes.push_back(e.shape);
        ++axis;
        mark_adv();
        break;
      case Kind::BoolScalar:
        p.arrays.push_back({i, -1, 1, 0, Dims{e.value ? 1 : 0}});
        shapes.push_back(Dims{e.value ? 1 : 0});
        mark_adv();
        break;
      case Kind::Slice: {
        int64_t b = e.start, s = e.stop;
        const int64_t len = adjust_slice(shape[axis], b, s, e.step);
        if (len > 0) p.offset += b * strides[axis];
        sub_shape.push_back(len);
        sub_strides.push_back(strides[axis] * e.step);
        ++axis;
        if (seen_adv) gap = true;
        break;
      }
      case Kind::NewAxis:
        sub_shape.push_back(1);
        sub_strides.push_back(0);
        if (seen_adv) gap = true;
        break;
      case Kind::Ellipsis:
        for (int64_t k = 0; k < nd - consumed; ++k, ++axis) {
          sub_shape.push_back(shape[axis]);
          sub_strides.push_back(strides[axis]);
        }
        if (seen_adv) gap = true;
        break;
      case Kind::BoolArray:
        break;  // excluded above
    }
  }
  for (; axis < nd; ++axis) {
    sub_shape.push_back(shape[axis]);
    sub_strides.push_back(strides[axis]);
  }
  if (!seen_adv) index_pos = 0;  // integers only: not called that way, but harmless
  if (separated) index_pos = 0;

  // Broadcast the index arrays together.
  size_t bnd = 0;
  for (const auto& s : shapes) bnd = std::max(bnd, s.size());
  Dims b(bnd, 1);
  for (const auto& s : shapes) {
    for (size_t k = 0; k < s.size(); ++k) {
      int64_t& t = b[bnd - s.size() + k];
      const int64_t v = s[k];
      if (v == t || v == 1) continue;
      if (t == 1) {
        t = v;
        continue;
      }
      std::string msg = "shape mismatch: indexing arrays could not be broadcast together with shapes ";
      for (const auto& x : shapes) msg += compact_shape_str(x) + " ";
      throw IndexError(msg);
    }
  }
  p.index_shape = b;
  p.index_pos = index_pos;
  const int64_t ni = static_cast<int64_t>(bnd);
  p.result_shape.assign(sub_shape.begin(), sub_shape.begin() + index_pos);
  p.result_shape.insert(p.result_shape.end(), b.begin(), b.end());
  p.result_shape.insert(p.result_shape.end(), sub_shape.begin() + index_pos, sub_shape.end());
  p.src_strides.assign(sub_strides.begin(), sub_strides.begin() + index_pos);
  p.src_strides.insert(p.src_strides.end(), ni, 0);
  p.src_strides.insert(p.src_strides.end(), sub_strides.begin() + index_pos, sub_strides.end());
  // NumPy allocates the result as the index dims followed by the subspace in the source's
  // memory order (NPY_KEEPORDER: by decreasing |stride|, ties in C order).
  for (int64_t k = 0; k < ni; ++k) p.result_order.push_back(index_pos + k);
  Dims subspace;
  for (int64_t d = 0; d < static_cast<int64_t>(p.result_shape.size()); ++d) {
    if (d < index_pos || d >= index_pos + ni) subspace.push_back(d);
  }
  auto abs_stride = [&](int64_t d) {
    return p.src_strides[d] < 0 ? -p.src_strides[d] : p.src_strides[d];
  };
  std::stable_sort(subspace.begin(), subspace.end(),
                   [&](int64_t a, int64_t b) { return abs_stride(a) > abs_stride(b); });
  p.result_order.insert(p.result_order.end(), subspace.begin(), subspace.end());
  return p;
}

std::vector<IndexItem> basic_items(const std::vector<IndexEntry>& index) {
  std::vector<IndexItem> items;
  items.reserve(index.size());
  for (const auto& e : index) {
    switch (e.kind) {
      case Kind::Integer: items.push_back(IndexItem::integer(e.value)); break;
      case Kind::Slice: items.push_back(IndexItem::slice(e.start, e.stop, e.step)); break;
      case Kind::NewAxis: items.push_back(IndexItem::newaxis()); break;
      case Kind::Ellipsis: items.push_back(IndexItem::ellipsis()); break;
      default: throw std::logic_error("basic_items: array entry");
    }
  }
  return items;
}

std::vector<std::vector<int64_t>> mask_nonzero(const uint8_t* mask, const Dims& shape) {
  const size_t nd = shape.size();
  const int64_t n = shape_size(shape);
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += mask[i] != 0;
  std::vector<std::vector<int64_t>> out(nd);
  for (auto& v : out) v.reserve(static_cast<size_t>(count));
  if (count == 0) return out;
  Dims coord(nd, 0);  // coordinates of element i, C order
  for (int64_t i = 0; i < n; ++i) {
    if (mask[i]) {
      for (size_t d = 0; d < nd; ++d) out[d].push_back(coord[d]);
    }
    for (size_t d = nd; d-- > 0;) {
      if (++coord[d] < shape[d]) break;
      coord[d] = 0;
    }
  }
  return out;
}

bool is_full_mask_key(const std::vector<IndexEntry>& index, int64_t ndim) {
  return index.size() == 1 && index[0].kind == Kind::BoolArray &&
         static_cast<int64_t>(index[0].shape.size()) == ndim;
}

void check_mask_assignment(int64_t value_ndim, int64_t value_size, int64_t true_count) {
  if (value_ndim > 1) {
    throw TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                    "input, input has " + std::to_string(value_ndim) + " dimensions");
  }
  if (value_ndim == 1 && value_size != 1 && value_size != true_count) {
    throw ValueError("NumPy boolean array indexing assignment cannot assign " +
                     std::to_string(value_size) + " input values to the " +
                     std::to_string(true_count) + " output values where the mask is true");
  }
}

void check_index_values(const int64_t* values, int64_t n, int64_t axis, int64_t axis_size) {
  for (int64_t i = 0; i < n; ++i) {
    if (values[i] < -axis_size || values[i] >= axis_size) {
      throw IndexError(out_of_bounds_message(values[i], axis, axis_size));
    }
  }
}

int64_t broadcast_element_offset(int64_t j, const Dims& shape, const Dims& strides) {
  int64_t off = 0;
  for (size_t d = shape.size(); d-- > 0;) {
    off += (j % shape[d]) * strides[d];
    j /= shape[d];
  }
  return off;
}

void check_take_axes(const AdvancedPlan& plan, IndexMode mode) {
  if (mode == IndexMode::Raise || shape_size(plan.index_shape) == 0) return;
  for (const auto& arr : plan.arrays) {
    if (arr.axis_size == 0) throw IndexError("cannot do a non-empty take from an empty axes.");
  }
}

IndexLayout host_index_layout(const Dims& shape, int64_t itemsize,
                              const std::vector<IndexEntry>& index,
                              const std::vector<HostIndexData>& data) {
  const Dims strides = contiguous_strides(shape, itemsize, 'C');
  if (!has_advanced(index)) {
    Dims s = shape, st = strides;
    int64_t offset = 0;
    apply_basic_index(s, st, offset, basic_items(index));
    return {s, contiguous_strides(s, itemsize, 'C')};
  }
  check_index(shape, index);
  // Masks -> their nonzero coordinates; values[i] is the data of expanded entry i.
  size_t mask_dims = 0;
  for (const auto& e : index) {
    if (e.kind == Kind::BoolArray) mask_dims += e.shape.size();
  }
  std::vector<std::vector<int64_t>> coords;
  coords.reserve(mask_dims);  // values points into its vectors
  std::vector<int64_t> counts;
  std::vector<const int64_t*> values;
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i].kind != Kind::BoolArray) {
      values.push_back(data[i].values);
      continue;
    }
    if (!data[i].mask) throw std::logic_error("host_index_layout: a mask without host data");
    auto nz = mask_nonzero(data[i].mask, index[i].shape);
    counts.push_back(static_cast<int64_t>(nz[0].size()));
    for (auto& v : nz) {
      coords.push_back(std::move(v));
      values.push_back(coords.back().data());
    }
  }
  const auto entries = expand_bool_arrays(index, counts);
  const AdvancedPlan plan = plan_advanced_index(shape, strides, entries);
  if (shape_size(plan.index_shape) > 0) {
    for (const auto& arr : plan.arrays) {
      const int64_t* v = values[arr.entry];
      if (v) check_index_values(v, shape_size(arr.shape), arr.axis, arr.axis_size);
    }
  }
  return {plan.result_shape, plan.result_strides(itemsize)};
}

Dims setitem_value_strides(const Dims& shape_in, const Dims& strides_in, const Dims& target) {
  size_t skip = 0;
  while (shape_in.size() - skip > target.size() && shape_in[skip] == 1) ++skip;
  const size_t nd = shape_in.size() - skip, tnd = target.size();
  auto fail = [&]() {
    throw ValueError("shape mismatch: value array of shape " + compact_shape_str(shape_in) +
                     " could not be broadcast to indexing result of shape " +
                     compact_shape_str(target));
  };
  if (nd > tnd) fail();
  Dims out(tnd, 0);
  for (size_t i = tnd - nd; i < tnd; ++i) {
    const size_t j = skip + i - (tnd - nd);
    if (shape_in[j] == target[i]) out[i] = strides_in[j];
    else if (shape_in[j] == 1) out[i] = 0;
    else fail();
  }
  return out;
}

IndexMode index_mode_from_string(const std::string& s) {
  if (s == "raise") return IndexMode::Raise;
  if (s == "wrap") return IndexMode::Wrap;
  if (s == "clip") return IndexMode::Clip;
  throw ValueError("clipmode must be one of 'clip', 'raise', or 'wrap' (got '" + s + "')");
}

}  // namespace gpuarr
