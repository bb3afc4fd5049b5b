#include "core/shape_ops.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/errors.hpp"

namespace gpuarr {

namespace {

int64_t normalize_axis_named(int64_t axis, int64_t ndim, const std::string& argname) {
  if (axis < -ndim || axis >= ndim) {
    throw AxisError((argname.empty() ? std::string() : argname + ": ") + "axis " +
                    std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  }
  return axis < 0 ? axis + ndim : axis;
}

}  // namespace

Dims broadcast_shapes(const std::vector<Dims>& shapes) {
  size_t nd = 0;
  for (const Dims& s : shapes) nd = std::max(nd, s.size());
  Dims out(nd, 1);
  // As NumPy's PyArray_Broadcast: axis by axis from the left, remembering which argument
  // set each dimension so that the message names the first conflicting pair.
  for (size_t i = 0; i < nd; ++i) {
    size_t src = 0;
    for (size_t j = 0; j < shapes.size(); ++j) {
      const int64_t k = static_cast<int64_t>(i) + static_cast<int64_t>(shapes[j].size()) -
                        static_cast<int64_t>(nd);
      if (k < 0) continue;
      const int64_t d = shapes[j][k];
      if (d == 1) continue;
      if (out[i] == 1) {
        out[i] = d;
        src = j;
      } else if (out[i] != d) {
        throw ValueError(
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between arg " +
            std::to_string(src) + " with shape " + shape_str(shapes[src]) + " and arg " +
            std::to_string(j) + " with shape " + shape_str(shapes[j]) + ".");
      }
    }
  }
  return out;
}

Dims normalize_axis_tuple(const Dims& axes, int64_t ndim, const std::string& argname) {
  Dims out;
  out.reserve(axes.size());
  for (int64_t a : axes) out.push_back(normalize_axis_named(a, ndim, argname));
  Dims sorted = out;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw ValueError(argname.empty() ? std::string("repeated axis")
                                     : "repeated axis in `" + argname + "` argument");
  }
  return out;
}

Dims moveaxis_permutation(int64_t ndim, const Dims& source, const Dims& destination) {
  const Dims src = normalize_axis_tuple(source, ndim, "source");
  const Dims dst = normalize_axis_tuple(destination, ndim, "destination");
  if (src.size() != dst.size()) {
    throw ValueError(
        "`source` and `destination` arguments must have the same number of elements");
  }
  Dims order;
  for (int64_t n = 0; n < ndim; ++n) {
    if (std::find(src.begin(), src.end(), n) == src.end()) order.push_back(n);
  }
  // NumPy inserts in order of sorted destination.
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (size_t i = 0; i < src.size(); ++i) pairs.emplace_back(dst[i], src[i]);
  std::sort(pairs.begin(), pairs.end());
  for (const auto& [d, s] : pairs) order.insert(order.begin() + d, s);
  return order;
}

void expand_dims_layout(Dims& shape, Dims& strides, const Dims& axes, int64_t itemsize) {
  const int64_t out_nd = static_cast<int64_t>(shape.size() + axes.size());
  const Dims ax = normalize_axis_tuple(axes, out_nd);
  std::vector<bool> is_new(out_nd, false);
  for (int64_t a : ax) is_new[a] = true;
  Dims new_shape;
  size_t k = 0;
  for (int64_t i = 0; i < out_nd; ++i) new_shape.push_back(is_new[i] ? 1 : shape[k++]);
  auto s = reshape_strides(shape, strides, new_shape, itemsize, 'C');
  if (!s) {
    // Inserting length-1 axes never needs a copy; keep the old strides as a fallback.
    Dims fb;
    k = 0;
    for (int64_t i = 0; i < out_nd; ++i) fb.push_back(is_new[i] ? itemsize : strides[k++]);
    s = fb;
  }
  shape = std::move(new_shape);
  strides = std::move(*s);
}

void squeeze_layout(Dims& shape, Dims& strides, const Dims& axes, bool all) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  std::vector<bool> drop(nd, false);
  if (all) {
    for (int64_t i = 0; i < nd; ++i) drop[i] = shape[i] == 1;
  } else {
    for (int64_t a : axes) {
      const int64_t n = normalize_axis(a, nd);
      if (drop[n]) throw ValueError("duplicate value in 'axis'");
      drop[n] = true;
    }
    for (int64_t i = 0; i < nd; ++i) {
      if (drop[i] && shape[i] != 1) {
        throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
      }
    }
  }
  Dims ns, nst;
  for (int64_t i = 0; i < nd; ++i) {
    if (!drop[i]) {
      ns.push_back(shape[i]);
      nst.push_back(strides[i]);
    }
  }
  shape = std::move(ns);
  strides = std::move(nst);
}

Dims concatenate_shape(const std::vector<Dims>& shapes, int64_t axis) {
  if (shapes.empty()) throw ValueError("need at least one array to concatenate");
  const int64_t nd = static_cast<int64_t>(shapes[0].size());
  if (nd == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
  const int64_t ax = normalize_axis(axis, nd);
  Dims out = shapes[0];
  for (size_t j = 1; j < shapes.size(); ++j) {
    const Dims& s = shapes[j];
    if (static_cast<int64_t>(s.size()) != nd) {
      throw ValueError(
          "all the input arrays must have same number of dimensions, but the array at index 0 "
          "has " +
          std::to_string(nd) + " dimension(s) and the array at index " + std::to_string(j) +
          " has " + std::to_string(s.size()) + " dimension(s)");
    }
    for (int64_t d = 0; d < nd; ++d) {
      if (d == ax) continue;
      if (s[d] != shapes[0][d]) {
        throw ValueError(
            "all the input array dimensions except for the concatenation axis must match "
            "exactly, but along dimension " +
            std::to_string(d) + ", the array at index 0 has size " +
            std::to_string(shapes[0][d]) + " and the array at index " + std::to_string(j) +
            " has size " + std::to_string(s[d]));
      }
    }
    out[ax] += s[ax];
  }
  return out;
}

namespace {

// Dims [lo, hi) of one view as a single dim (coalesce_dims over them): its extent and
// stride; false when they do not collapse to one.
bool collapse_dims(const Dims& shape, const Dims& strides, size_t lo, size_t hi,
                   int64_t& extent, int64_t& stride) {
  Dims range(shape.begin() + lo, shape.begin() + hi);
  std::vector<Dims> range_strides{Dims(strides.begin() + lo, strides.begin() + hi)};
  coalesce_dims(range, range_strides);
  if (range.size() > 1) return false;
  extent = range.empty() ? 1 : range[0];
  stride = range.empty() ? 0 : range_strides[0][0];
  return true;
}

}  // namespace

bool concat_rows_layout(const Dims& out_shape, const std::vector<Dims>& shapes,
                        const std::vector<Dims>& strides, int64_t axis, int64_t itemsize,
                        int64_t& rows, std::vector<ConcatRowsPiece>& pieces) {
  pieces.clear();
  const size_t n = shapes.size();
  if (n < 1 || n > size_t(kMaxConcatRowsPieces)) return false;
  const size_t ax = static_cast<size_t>(axis), nd = out_shape.size();
  if (shape_size(out_shape) > INT32_MAX) return false;
  rows = 1;
  for (size_t d = 0; d < ax; ++d) rows *= out_shape[d];
  bool narrow = false, contiguous_rows = true;
  for (size_t p = 0; p < n; ++p) {
    int64_t prow, pwidth;
    ConcatRowsPiece piece{};
    if (!collapse_dims(shapes[p], strides[p], 0, ax, prow, piece.row_stride) ||
        !collapse_dims(shapes[p], strides[p], ax, nd, pwidth, piece.col_stride))
      return false;
    piece.width = pwidth;
    narrow = narrow || (pwidth > 0 && pwidth * itemsize < 128);
    contiguous_rows = contiguous_rows && (pwidth <= 1 || piece.col_stride == itemsize);
    pieces.push_back(piece);
  }
  const bool one_pass = narrow || (n >= 2 && contiguous_rows);
  if (!one_pass) pieces.clear();
  return one_pass;
}

PadMode pad_mode_from_name(const std::string& name) {
  static const std::pair<const char*, PadMode> kModes[] = {
      {"constant", PadMode::Constant}, {"edge", PadMode::Edge},
      {"reflect", PadMode::Reflect},   {"symmetric", PadMode::Symmetric},
      {"wrap", PadMode::Wrap}};
  for (const auto& [n, mode] : kModes)
    if (name == n) return mode;
  throw ValueError("mode '" + name + "' is not supported");
}

bool pad_layout(const Dims& shape, const Dims& strides,
                const std::vector<std::pair<int64_t, int64_t>>& pads, PadMode mode,
                PadLayout& layout) {
  layout = PadLayout{};
  int64_t total = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t lo = pads[d].first, hi = pads[d].second, n = shape[d];
    total *= n + lo + hi;
    if (total > INT32_MAX) return false;
    if (lo == 0 && hi == 0) {
      if (n == 1) continue;
      const bool outer_unpadded =
          !layout.shape.empty() && layout.shape.back() == layout.extent.back();
      if (!layout.shape.empty() && layout.strides.back() == strides[d] * n &&
          (mode == PadMode::Constant || outer_unpadded)) {
        layout.shape.back() *= n;
        layout.before.back() *= n;
        layout.extent.back() *= n;
        layout.strides.back() = strides[d];
        continue;
      }
    }
    layout.shape.push_back(n + lo + hi);
    layout.before.push_back(lo);
    layout.extent.push_back(n);
    layout.strides.push_back(strides[d]);
  }
  if (layout.shape.empty()) layout = PadLayout{{1}, {0}, {1}, {0}};
  if (mode != PadMode::Constant)
    for (int64_t e : layout.extent)
      if (e > INT32_MAX / 2) return false;  // the kernel's source index is 32-bit
  return layout.shape.size() <= size_t(kMaxPadDims);
}

Dims array_split_bounds(int64_t n, int64_t sections, bool equal) {
  if (sections <= 0) throw ValueError("number sections must be larger than 0.");
  if (equal && n % sections != 0) {
    throw ValueError("array split does not result in an equal division");
  }
  const int64_t each = n / sections, extras = n % sections;
  Dims b{0};
  for (int64_t i = 0; i < sections; ++i) b.push_back(b.back() + each + (i < extras ? 1 : 0));
  return b;
}

void diagonal_layout(Dims& shape, Dims& strides, int64_t& offset_bytes, int64_t offset,
                     int64_t axis1, int64_t axis2) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (nd < 2) throw ValueError("diag requires an array of at least two dimensions");
  const int64_t a1 = normalize_axis_named(axis1, nd, "axis1");
  const int64_t a2 = normalize_axis_named(axis2, nd, "axis2");
  if (a1 == a2) throw ValueError("axis1 and axis2 cannot be the same");
  int64_t n1 = shape[a1], n2 = shape[a2];
  const int64_t s1 = strides[a1], s2 = strides[a2];
  int64_t len;
  if (offset >= 0) {
    len = std::max<int64_t>(0, std::min(n1, n2 - offset));
    if (len > 0) offset_bytes += offset * s2;
  } else {
    len = std::max<int64_t>(0, std::min(n1 + offset, n2));
    if (len > 0) offset_bytes += -offset * s1;
  }
  Dims ns, nst;
  for (int64_t i = 0; i < nd; ++i) {
    if (i == a1 || i == a2) continue;
    ns.push_back(shape[i]);
    nst.push_back(strides[i]);
  }
  ns.push_back(len);
  nst.push_back(s1 + s2);
  shape = std::move(ns);
  strides = std::move(nst);
}

Dims tile_shape(const Dims& shape, const Dims& reps, Dims& in_shape) {
  const size_t nd = std::max(shape.size(), reps.size());
  in_shape.assign(nd - shape.size(), 1);
  in_shape.insert(in_shape.end(), shape.begin(), shape.end());
  Dims r(nd - reps.size(), 1);
  r.insert(r.end(), reps.begin(), reps.end());
  Dims out(nd);
  for (size_t i = 0; i < nd; ++i) {
    if (r[i] < 0) throw ValueError("negative dimensions are not allowed");
    out[i] = in_shape[i] * r[i];
  }
  return out;
}

}  // namespace gpuarr

namespace gpuarr {

Dims multi_sorted_stride_perm(const std::vector<Dims>& shapes, const std::vector<Dims>& strides) {
  const size_t nd = shapes.empty() ? 0 : shapes[0].size();
  Dims perm(nd);
  for (size_t i = 0; i < nd; ++i) perm[i] = static_cast<int64_t>(i);
  for (size_t i0 = 1; i0 < nd; ++i0) {
    size_t ipos = i0;
    const int64_t j0 = perm[i0];
    for (size_t k = i0; k-- > 0;) {
      bool ambig = true, swap = false;
      const int64_t j1 = perm[k];
      for (size_t a = 0; a < shapes.size(); ++a) {
        if (shapes[a][j0] != 1 && shapes[a][j1] != 1) {
          if (std::llabs(strides[a][j0]) <= std::llabs(strides[a][j1])) {
            swap = false;
          } else if (ambig) {
            swap = true;
          }
          ambig = false;
        }
      }
      if (!ambig) {
        if (swap) ipos = k;
        else break;
      }
    }
    if (ipos != i0) {
      for (size_t k = i0; k > ipos; --k) perm[k] = perm[k - 1];
      perm[ipos] = j0;
    }
  }
  return perm;
}

Dims strides_for_perm(const Dims& shape, const Dims& perm, int64_t itemsize) {
  Dims st(shape.size(), 0);
  if (shape_size(shape) == 0) return st;  // NumPy 2: zero strides for empty arrays
  int64_t s = itemsize;
  for (size_t i = perm.size(); i-- > 0;) {
    st[perm[i]] = s;
    s *= shape[perm[i]];
  }
  return st;
}

Dims broadcast_to_strides(const Dims& shape, const Dims& strides, const Dims& target) {
  for (int64_t d : target) {
    if (d < 0) throw ValueError("all elements of broadcast shape must be non-negative");
  }
  if (shape.size() > target.size()) {
    throw ValueError("input operand has more dimensions than allowed by the axis remapping");
  }
  const size_t lead = target.size() - shape.size();
  Dims out(target.size(), 0);
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t t = target[lead + i];
    if (shape[i] == t) {
      out[lead + i] = strides[i];
    } else if (shape[i] != 1) {
      throw ValueError(
          "operands could not be broadcast together with remapped shapes "
          "[original->remapped]: " +
          compact_shape_str(shape) + "  and requested shape " + compact_shape_str(target));
    }
  }
  return out;
}

}  // namespace gpuarr
