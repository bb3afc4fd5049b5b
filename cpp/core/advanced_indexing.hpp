// Planning of NumPy's advanced (integer-array and boolean) indexing: which axes each index
// consumes, the result shape, where the broadcast index dimensions go, and NumPy's
// IndexError messages, from shapes; the checks and mask expansion of index data that is on
// the host. Index data on the device is ops/advanced_indexing's. No CUDA, no Python.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/host_device.hpp"
#include "core/indexing.hpp"
#include "core/layout.hpp"

namespace gpuarr {

// The Python modes of take/put: 'raise' (negative indices wrap, out of range raises),
// 'wrap' (modulo the axis length), 'clip' (clamped to [0, n-1]).
enum class IndexMode : int { Raise = 0, Wrap = 1, Clip = 2 };

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

// The basic index items of a key without array entries (IntArray, BoolArray and
// BoolScalar entries throw std::logic_error).
std::vector<IndexItem> basic_items(const std::vector<IndexEntry>& index);

// numpy.nonzero of a C-contiguous boolean mask of `shape` (at least one dimension), given
// as bytes (nonzero = true): one vector of coordinates per dimension, in C order.
std::vector<std::vector<int64_t>> mask_nonzero(const uint8_t* mask, const Dims& shape);

// True when the key is one boolean array covering all `ndim` axes: assigning through it
// takes NumPy's mask-assignment checks (check_mask_assignment) instead of broadcasting.
bool is_full_mask_key(const std::vector<IndexEntry>& index, int64_t ndim);

// NumPy's checks of the value of `a[mask] = value` for a full mask with `true_count` true
// elements: TypeError for a value of more than one dimension, ValueError for a 1-d value
// whose length is neither 1 nor true_count.
void check_mask_assignment(int64_t value_ndim, int64_t value_size, int64_t true_count);

// Throws IndexError (out_of_bounds_message) for the first of the n values outside
// [-axis_size, axis_size), NumPy's bounds check of one index array.
void check_index_values(const int64_t* values, int64_t n, int64_t axis, int64_t axis_size);

// Byte offset of element j (C order over `shape`) of an array whose byte strides,
// broadcast to `shape`, are `strides`.
int64_t broadcast_element_offset(int64_t j, const Dims& shape, const Dims& strides);

// take/put in Wrap or Clip mode: NumPy's IndexError "cannot do a non-empty take from an
// empty axes." when an indexed axis is empty and the index is not. No-op in Raise mode
// (there every index is out of bounds and the bounds check reports it).
void check_take_axes(const AdvancedPlan& plan, IndexMode mode);

// Host data of one key entry (parallel to the key): the int64 values of an IntArray or
// the mask bytes of a BoolArray, C-contiguous over the entry's shape.
struct HostIndexData {
  const int64_t* values = nullptr;
  const uint8_t* mask = nullptr;
};

// The layout of NumPy's a[key] for a C-contiguous array of `shape` with itemsize-byte
// elements, when all the key's arrays are host data: the result shape and byte strides,
// after NumPy's checks in NumPy's order (the key's shape checks, masks, planning, then
// the values of each index array in turn).
struct IndexLayout {
  Dims shape;
  Dims strides;
};
IndexLayout host_index_layout(const Dims& shape, int64_t itemsize,
                              const std::vector<IndexEntry>& index,
                              const std::vector<HostIndexData>& data);

// Broadcast strides of `shape`/`strides` to `target` for advanced assignment; leading
// length-1 axes beyond the target's may be dropped. Throws ValueError "shape mismatch:
// value array of shape (3,) could not be broadcast to indexing result of shape (2,)".
Dims setitem_value_strides(const Dims& shape, const Dims& strides, const Dims& target);

// NumPy's "index 10 is out of bounds for axis 0 with size 5".
// put's repeated-target rule (the last write wins) with unordered indices claims each target
// in a 4-byte scratch of the whole array: about 5 ps an element to clear on the H100, where
// sorting the indices costs about 270 ps an index. The scratch is the cheaper up to 64
// elements an index, or up to 2^24 elements whatever the count (below the sort's fixed
// cost of several launches).
bool put_claims_fit(int64_t array_size, int64_t index_count);

std::string out_of_bounds_message(int64_t index, int64_t axis, int64_t size);

IndexMode index_mode_from_string(const std::string& s);

// take/put's modes for one index v into an axis of length n: v becomes the in-range index,
// or the result is false (out of range in Raise mode; an empty axis in Wrap and Clip).
// The gather, scatter, bounds-check and offset kernels apply this same function.
GPUARR_HD bool apply_index_mode(int64_t& v, int64_t n, IndexMode mode) {
  switch (mode) {
    case IndexMode::Raise:
      if (v < -n || v >= n) return false;
      if (v < 0) v += n;
      return true;
    case IndexMode::Wrap:
      if (n == 0) return false;
      v %= n;
      if (v < 0) v += n;
      return true;
    case IndexMode::Clip:
      if (n == 0) return false;
      v = v < 0 ? 0 : (v >= n ? n - 1 : v);
      return true;
  }
  return false;
}

}  // namespace gpuarr
