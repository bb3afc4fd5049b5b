// Planning of NumPy's advanced (integer-array and boolean) indexing on shapes alone: which
// axes each index consumes, the result shape, where the broadcast index dimensions go, and
// NumPy's IndexError messages. The index data (values, mask contents) is the device's
// business; here only shapes are known. No CUDA, no Python.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/indexing.hpp"
#include "core/layout.hpp"

namespace gpuarr {

struct IndexEntry {
  enum class Kind : uint8_t { Integer, Slice, NewAxis, Ellipsis, IntArray, BoolArray, BoolScalar };
  Kind kind = Kind::Integer;
  int64_t value = 0;                       // Integer; BoolScalar: 0 or 1
  int64_t start = 0, stop = 0, step = 1;   // Slice, with PySlice_Unpack's sentinels
  Dims shape;                              // IntArray / BoolArray

  static IndexEntry integer(int64_t v) { IndexEntry e; e.kind = Kind::Integer; e.value = v; return e; }
  static IndexEntry slice(int64_t b, int64_t s, int64_t st) {
    IndexEntry e; e.kind = Kind::Slice; e.start = b; e.stop = s; e.step = st; return e;
  }
  static IndexEntry newaxis() { IndexEntry e; e.kind = Kind::NewAxis; return e; }
  static IndexEntry ellipsis() { IndexEntry e; e.kind = Kind::Ellipsis; return e; }
  static IndexEntry int_array(Dims shape) {
    IndexEntry e; e.kind = Kind::IntArray; e.shape = std::move(shape); return e;
  }
  static IndexEntry bool_array(Dims shape) {
    IndexEntry e; e.kind = Kind::BoolArray; e.shape = std::move(shape); return e;
  }
  static IndexEntry bool_scalar(bool v) { IndexEntry e; e.kind = Kind::BoolScalar; e.value = v; return e; }

  bool is_array() const {
    return kind == Kind::IntArray || kind == Kind::BoolArray || kind == Kind::BoolScalar;
  }
};

// True when any entry is an array or a boolean scalar (NumPy's "fancy" indexing).
bool has_advanced(const std::vector<IndexEntry>& index);

// The checks NumPy's prepare_index makes before looking at index data: at most one
// ellipsis, not too many indices (a boolean array consumes its ndim axes, a boolean scalar
// none), boolean array shapes matching the axes they cover. Returns, for each entry, the
// first array axis it consumes (-1 for entries that consume none).
std::vector<int64_t> check_index(const Dims& shape, const std::vector<IndexEntry>& index);

// Replaces each BoolArray entry by `ndim` IntArray entries of shape (count,), where
// counts[i] is the number of true elements of the i-th BoolArray (in order): the
// per-axis indices of its nonzero elements. Also returns, through `origin`, the index of
// the original entry each new entry came from.
std::vector<IndexEntry> expand_bool_arrays(const std::vector<IndexEntry>& index,
                                           const std::vector<int64_t>& counts,
                                           std::vector<size_t>* origin = nullptr);

// An advanced index on a strided view, with no BoolArray entries left (expand them first).
struct AdvancedPlan {
  struct Array {
    size_t entry;        // position in the index
    int64_t axis;        // axis of the indexed array (-1: a boolean scalar's new axis)
    int64_t axis_size;   // length of that axis (1 for a boolean scalar)
    int64_t stride;      // byte stride of that axis (0 for a boolean scalar)
    Dims shape;          // the index array's own shape
  };
  int64_t offset = 0;       // bytes added by integers and slice starts
  Dims index_shape;         // broadcast shape of all index arrays
  int64_t index_pos = 0;    // first result dimension of the broadcast index dimensions
  Dims result_shape;        // the shape NumPy returns
  Dims src_strides;         // per result dim: source byte stride (0 on index dims)
  Dims result_order;        // NumPy's memory order of a fresh result: result dims from
                            // outermost to innermost (index dims first, then the rest)
  std::vector<Array> arrays;  // one per IntArray / BoolScalar entry, in index order

  // Element strides of a fresh C-ordered-in-`result_order` result array (times itemsize
  // for bytes), as NumPy lays out the result of fancy indexing.
  Dims result_strides(int64_t itemsize) const;
  // Per result dim: the stride (elements) into a C-contiguous array of index_shape (0 on
  // dims that are not index dims).
  Dims index_strides() const;
};

// Throws IndexError as NumPy: too many indices, integers out of bounds, index arrays that
// cannot be broadcast together ("shape mismatch: indexing arrays could not be broadcast
// together with shapes (2,) (3,) ").
AdvancedPlan plan_advanced_index(const Dims& shape, const Dims& strides,
                                 const std::vector<IndexEntry>& index);

// Broadcast strides of `shape`/`strides` to `target` for advanced assignment; leading
// length-1 axes beyond the target's may be dropped. Throws ValueError "shape mismatch:
// value array of shape (3,) could not be broadcast to indexing result of shape (2,)".
Dims setitem_value_strides(const Dims& shape, const Dims& strides, const Dims& target);

// NumPy's "index 10 is out of bounds for axis 0 with size 5".
std::string out_of_bounds_message(int64_t index, int64_t axis, int64_t size);

// The Python modes of take/put: 'raise' (negative indices wrap, out of range raises),
// 'wrap' (modulo the axis length), 'clip' (clamped to [0, n-1]).
enum class IndexMode : int { Raise = 0, Wrap = 1, Clip = 2 };
IndexMode index_mode_from_string(const std::string& s);

// Host version of the device rule (used to test it and for host-side index checks):
// the in-range index, or false when out of range in Raise mode.
bool apply_index_mode(int64_t& v, int64_t n, IndexMode mode);

}  // namespace gpuarr
