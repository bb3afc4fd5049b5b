// Advanced (integer-array and boolean) indexing of device arrays, from a key described by
// core's IndexEntry list and each entry's index data: mask expansion, source offsets and
// NumPy's bounds checks (prepare_advanced_index), then gather or scatter. Planning is
// core/advanced_indexing; the kernels are behind ops/indexing_ops.hpp. Everything runs on
// the indexed array's current stream; the functions that wait for the device say so.
#pragma once
#include <cstdint>
#include <vector>

#include "core/advanced_indexing.hpp"
#include "ops/indexing_ops.hpp"
#include "ops/ndarray.hpp"

namespace gpuarr {

// The index data of one key entry (parallel to the entries; all empty for entries without
// data). IntArray: a device integer or boolean array (its values count as integers), or
// host int64 values. BoolArray: a device array (any dtype: its truth) or host mask bytes
// (nonzero = true). Host data is C-contiguous over the entry's shape and must stay alive
// and unchanged during the call.
struct IndexData {
  NDArray device;  // set when device.memory is
  const int64_t* values = nullptr;
  const uint8_t* mask = nullptr;
};

struct PreparedIndex {
  AdvancedPlan plan;
  // What gather and scatter read per result element: the key's one index array itself
  // (int32 or int64, turned into an offset by `mode` in the kernel), or, for several
  // arrays, the int64 source byte offsets they combine into (`offsets`).
  NDArray index;
  Dims index_strides;  // per result dim, bytes into `index` (0 on non-index dims)
  bool offsets = true;
  IndexMode mode = IndexMode::Raise;
  int64_t axis = 0;  // one array: the indexed axis, its length and byte stride
  int64_t axis_size = 0;
  int64_t stride = 1;
  // Raise mode with one device index array whose bounds are not checked yet: a gather
  // flags a bad value as it reads and then finds the first; a scatter checks first.
  bool bounds_pending = false;
  int64_t mask_count = -1;  // true elements of the key's mask when is_full_mask_key
};

// True when prepare_advanced_index may wait for the device (a device mask's count, the
// bounds of device indices in Raise mode) or move much host data (large host indices or
// masks): the caller then drops the GIL around it. Host-only keys of a few indices do
// neither, and keep it.
bool prepare_may_wait(const std::vector<IndexEntry>& index, const std::vector<IndexData>& data,
                      IndexMode mode);

// Expands masks into per-axis indices, plans, and checks the indices in NumPy's order (the
// key's shapes, then each index array in turn), with NumPy's IndexErrors; several index
// arrays are combined into source offsets, one is kept as it is. `take`: take/put's rules
// (check_take_axes). Reads back from the device: one int64 per device mask (its count);
// in Raise mode with several arrays of device integer indices, one read of the error slots
// (all arrays at once), plus one index value when one is out of bounds (one such array is
// checked by the gather or scatter: bounds_pending). A mask's coordinates are in range by
// construction and are not checked. Nothing else waits.
PreparedIndex prepare_advanced_index(const NDArray& a, const std::vector<IndexEntry>& index,
                                     const std::vector<IndexData>& data, IndexMode mode,
                                     bool take);

// a[key] as a fresh array laid out as NumPy lays out fancy-indexing results. Waits for the
// device when p.bounds_pending (the bounds flag).
NDArray gather_advanced(const NDArray& a, const PreparedIndex& p);

// a[key] = value, `value` of a's dtype on a's device, not sharing a's memory, broadcast
// to the result shape (ValueError, or NumPy's full-mask assignment errors, otherwise).
// Waits for the device when p.bounds_pending (the bounds check runs before any write).
void scatter_advanced(const NDArray& a, const PreparedIndex& p, const NDArray& value);

// put's a[index] = value for a 1-d `a` and one 1-d index array, with NumPy's rule for
// repeated targets: the last write wins. `value` as for scatter_advanced, of length n.
// Targets that never descend (found by mode raise's bounds check) write each run's last
// value; others claim their targets in one int32 of scratch per element of `a`, where
// put_claims_fit allows. Returns false, having written nothing, where neither applies (or
// n >= 2^31): the caller then orders the writes itself (put's sort). Mode raise's check
// has run either way: an index out of range has thrown.
bool scatter_last_write(const NDArray& a, const PreparedIndex& p, const NDArray& value);

// The (max(ndim, 1), count) int64 coordinates of the nonzero elements of `a` (rows are
// numpy.nonzero's arrays). Waits for the count (one int64 read back).
NDArray nonzero_coordinates(const NDArray& a);

// Row d of nonzero_coordinates' result, as a 1-d view.
NDArray coordinate_row(const NDArray& rows, int64_t d);

}  // namespace gpuarr
