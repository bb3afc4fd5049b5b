#include "core/layout.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "core/errors.hpp"

namespace gpuarr {

int64_t checked_size(const Dims& shape, int64_t itemsize) {
  if (static_cast<int64_t>(shape.size()) > kMaxDims) {
    throw ValueError("maximum supported dimension for an ndarray is currently " +
                     std::to_string(kMaxDims) + ", found " + std::to_string(shape.size()));
  }
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  }
  for (int64_t d : shape) {
    if (d == 0) return 0;
    if (n > std::numeric_limits<int64_t>::max() / d) overflow = true;
    else n *= d;
  }
  if (overflow || n > std::numeric_limits<int64_t>::max() / std::max<int64_t>(itemsize, 1)) {
    throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                     "maximum possible size.");
  }
  return n;
}

std::string shape_str(const Dims& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

// Strides as if every zero-length axis had length 1 (what NumPy's reshape produces).
Dims dense_strides(const Dims& shape, int64_t itemsize, char order) {
  const size_t nd = shape.size();
  Dims strides(nd);
  int64_t s = itemsize;
  if (order == 'F') {
    for (size_t i = 0; i < nd; ++i) {
      strides[i] = s;
      s *= std::max<int64_t>(shape[i], 1);
    }
  } else {
    for (size_t i = nd; i-- > 0;) {
      strides[i] = s;
      s *= std::max<int64_t>(shape[i], 1);
    }
  }
  return strides;
}


Dims contiguous_strides(const Dims& shape, int64_t itemsize, char order) {
  // NumPy 2 gives fresh empty arrays all-zero strides.
  if (shape_size(shape) == 0) return Dims(shape.size(), 0);
  return dense_strides(shape, itemsize, order);
}

namespace {
bool has_zero_dim(const Dims& shape) {
  return std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d == 0; });
}
}  // namespace

bool is_c_contiguous(const Dims& shape, const Dims& strides, int64_t itemsize) {
  if (has_zero_dim(shape)) return true;
  int64_t expected = itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

bool is_f_contiguous(const Dims& shape, const Dims& strides, int64_t itemsize) {
  if (has_zero_dim(shape)) return true;
  int64_t expected = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

Dims strides_like(const Dims& shape, const Dims& strides, int64_t itemsize) {
  const size_t nd = shape.size();
  std::vector<size_t> perm(nd);
  std::iota(perm.begin(), perm.end(), 0);
  // Stable sort keeps C order among equal strides, as NumPy does for order='K'.
  std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) {
    return std::llabs(strides[a]) > std::llabs(strides[b]);
  });
  Dims out(nd);
  int64_t s = itemsize;
  for (size_t k = nd; k-- > 0;) {
    out[perm[k]] = s;
    s *= std::max<int64_t>(shape[perm[k]], 1);
  }
  return out;
}

int64_t normalize_axis(int64_t axis, int64_t ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(ndim));
  }
  return axis < 0 ? axis + ndim : axis;
}

void transpose_layout(Dims& shape, Dims& strides, const Dims& axes) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (axes.empty()) {
    std::reverse(shape.begin(), shape.end());
    std::reverse(strides.begin(), strides.end());
    return;
  }
  if (static_cast<int64_t>(axes.size()) != nd) throw ValueError("axes don't match array");
  std::vector<bool> seen(nd, false);
  Dims new_shape(nd), new_strides(nd);
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t a = normalize_axis(axes[i], nd);
    if (seen[a]) throw ValueError("repeated axis in transpose");
    seen[a] = true;
    new_shape[i] = shape[a];
    new_strides[i] = strides[a];
  }
  shape.swap(new_shape);
  strides.swap(new_strides);
}

Dims resolve_reshape(int64_t size, const Dims& new_shape) {
  // As in NumPy, any negative length marks the one unknown dimension.
  Dims out = new_shape;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0) {
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else {
      known *= out[i];
    }
  }
  auto fail = [&]() {
    std::string s = "(";
    for (size_t i = 0; i < new_shape.size(); ++i) {
      if (i) s += ",";
      s += new_shape[i] < 0 ? std::string("newaxis") : std::to_string(new_shape[i]);
    }
    if (new_shape.size() == 1) s += ",";
    throw ValueError("cannot reshape array of size " + std::to_string(size) + " into shape " + s +
                     ")");
  };
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) fail();
    out[unknown] = size / known;
  } else if (known != size) {
    fail();
  }
  return out;
}

std::optional<Dims> reshape_strides(const Dims& shape, const Dims& strides,
                                    const Dims& new_shape, int64_t itemsize, char order) {
  // Port of NumPy's _attempt_nocopy_reshape, on the shape without size-1 axes.
  Dims oldd, olds;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) {
      oldd.push_back(shape[i]);
      olds.push_back(strides[i]);
    }
  }
  const int64_t newnd = static_cast<int64_t>(new_shape.size());
  const int64_t oldnd = static_cast<int64_t>(oldd.size());
  if (shape_size(new_shape) == 0) return dense_strides(new_shape, itemsize, order);
  Dims newstrides(newnd, 0);
  const bool is_f = order == 'F';
  int64_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    int64_t np_ = new_shape[ni];
    int64_t op = oldd[oi];
    while (np_ != op) {
      if (np_ < op) np_ *= new_shape[nj++];
      else op *= oldd[oj++];
    }
    for (int64_t ok = oi; ok < oj - 1; ++ok) {
      if (is_f) {
        if (olds[ok + 1] != oldd[ok] * olds[ok]) return std::nullopt;
      } else {
        if (olds[ok] != oldd[ok + 1] * olds[ok + 1]) return std::nullopt;
      }
    }
    if (is_f) {
      newstrides[ni] = olds[oi];
      for (int64_t nk = ni + 1; nk < nj; ++nk) newstrides[nk] = newstrides[nk - 1] * new_shape[nk - 1];
    } else {
      newstrides[nj - 1] = olds[oj - 1];
      for (int64_t nk = nj - 1; nk > ni; --nk) newstrides[nk - 1] = newstrides[nk] * new_shape[nk];
    }
    ni = nj++;
    oi = oj++;
  }
  // Trailing size-1 axes get the stride NumPy gives them.
  int64_t last_stride = ni >= 1 ? newstrides[ni - 1] : itemsize;
  if (is_f && ni >= 1) last_stride *= new_shape[ni - 1];
  for (int64_t nk = ni; nk < newnd; ++nk) newstrides[nk] = last_stride;
  return newstrides;
}

std::string compact_shape_str(const Dims& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

Dims broadcast_strides(const Dims& shape_in, const Dims& strides_in, const Dims& target) {
  // As in NumPy's assignment, extra leading axes of length 1 in the source are dropped.
  size_t skip = 0;
  while (shape_in.size() - skip > target.size() && shape_in[skip] == 1) ++skip;
  const Dims shape(shape_in.begin() + skip, shape_in.end());
  const Dims strides(strides_in.begin() + skip, strides_in.end());
  const size_t nd = shape.size(), tnd = target.size();
  auto fail = [&]() {
    throw ValueError("could not broadcast input array from shape " + compact_shape_str(shape_in) +
                     " into shape " + compact_shape_str(target));
  };
  if (nd > tnd) fail();
  Dims out(tnd, 0);
  for (size_t i = tnd - nd; i < tnd; ++i) {
    const size_t j = i - (tnd - nd);
    if (shape[j] == target[i]) out[i] = strides[j];
    else if (shape[j] == 1) out[i] = 0;
    else fail();
  }
  return out;
}

void coalesce_dims(Dims& shape, std::vector<Dims>& strides) {
  if (shape_size(shape) == 0 || shape.empty()) return;
  // In place (the j-th kept dim is written at or before the i-th read): no allocation on
  // the per-call path of every elementwise op.
  size_t j = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    bool merge = j > 0;
    for (size_t k = 0; merge && k < strides.size(); ++k)
      merge = strides[k][j - 1] == strides[k][i] * shape[i];
    if (merge) {
      shape[j - 1] *= shape[i];
      for (auto& s : strides) s[j - 1] = s[i];
    } else {
      shape[j] = shape[i];
      for (auto& s : strides) s[j] = s[i];
      ++j;
    }
  }
  if (j == 0) {  // all dimensions were 1: one element
    shape[0] = 1;
    for (auto& s : strides) s[0] = 0;
    j = 1;
  }
  shape.resize(j);
  for (auto& s : strides) s.resize(j);
}

int64_t widen_innermost(Dims& shape, std::vector<Dims>& strides,
                        const std::vector<uintptr_t>& addresses, int64_t itemsize,
                        int64_t max_word) {
  if (shape.empty() || shape_size(shape) == 0) return itemsize;
  const size_t d = shape.size() - 1;
  for (const auto& s : strides)
    if (s[d] != itemsize) return itemsize;
  const int64_t bytes = shape[d] * itemsize;
  int64_t word = itemsize;
  for (int64_t w = max_word; w > itemsize; w /= 2) {
    bool fits = bytes % w == 0;
    for (uintptr_t a : addresses) fits = fits && a % static_cast<uintptr_t>(w) == 0;
    for (const auto& s : strides)
      for (size_t i = 0; fits && i < d; ++i) fits = s[i] % w == 0;
    if (fits) {
      word = w;
      break;
    }
  }
  if (word == itemsize) return itemsize;
  shape[d] = bytes / word;
  for (auto& s : strides) s[d] = word;
  return word;
}

void memory_extent(const Dims& shape, const Dims& strides, int64_t itemsize, int64_t& lo,
                   int64_t& hi) {
  lo = 0;
  hi = 0;
  if (shape_size(shape) == 0) return;
  hi = itemsize;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t span = (shape[i] - 1) * strides[i];
    if (span < 0) lo += span;
    else hi += span;
  }
}

bool extents_overlap(int64_t offset_a, const Dims& shape_a, const Dims& strides_a,
                     int64_t offset_b, const Dims& shape_b, const Dims& strides_b,
                     int64_t itemsize) {
  int64_t lo_a, hi_a, lo_b, hi_b;
  memory_extent(shape_a, strides_a, itemsize, lo_a, hi_a);
  memory_extent(shape_b, strides_b, itemsize, lo_b, hi_b);
  if (hi_a == lo_a || hi_b == lo_b) return false;
  return offset_a + lo_a < offset_b + hi_b && offset_b + lo_b < offset_a + hi_a;
}

}  // namespace gpuarr
