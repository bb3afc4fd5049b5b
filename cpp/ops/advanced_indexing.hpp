// Advanced (integer-array and boolean) indexing of device arrays, from a key described by
// core's IndexEntry list and each entry's index data: mask expansion, source offsets and
// NumPy's bounds checks (prepare_advanced_index), then gather or scatter. Planning is
// core/advanced_indexing; the kernels are behind ops/indexing_ops.hpp. Everything runs on
// the indexed array's current stream; the functions that wait for the device say so.
#pragma once
#include <cstdint>
#include <vector>

#include "core/advanced_indexing.hpp"
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
  NDArray offsets;           // int64, C-contiguous over plan.index_shape: source byte offsets
  Dims offset_strides;       // per result dim, bytes into offsets (0 on non-index dims)
  int64_t mask_count = -1;   // true elements of the key's mask when is_full_mask_key
};

// True when prepare_advanced_index may wait for the device (a device mask's count, the
// bounds of device indices in Raise mode) or move much host data (large host indices or
// masks): the caller then drops the GIL around it. Host-only keys of a few indices do
// neither, and keep it.
bool prepare_may_wait(const std::vector<IndexEntry>& index, const std::vector<IndexData>& data,
                      IndexMode mode);

// Expands masks into per-axis indices, plans, computes the source offset of every index
// position and checks the indices in NumPy's order (the key's shapes, then each index array
// in turn), with NumPy's IndexErrors. `take`: take/put's rules (check_take_axes).
// Reads back from the device: one int64 per device mask (its count); in Raise mode with
// device integer indices, one read of the error slots (all arrays at once), plus one index
// value when one is out of bounds. A mask's coordinates are in range by construction and
// are not checked. Nothing else waits.
PreparedIndex prepare_advanced_index(const NDArray& a, const std::vector<IndexEntry>& index,
                                     const std::vector<IndexData>& data, IndexMode mode,
                                     bool take);

// a[key] as a fresh array laid out as NumPy lays out fancy-indexing results.
NDArray gather_advanced(const NDArray& a, const PreparedIndex& p);

// a[key] = value, `value` of a's dtype on a's device, not sharing a's memory, broadcast
// to the result shape (ValueError, or NumPy's full-mask assignment errors, otherwise).
void scatter_advanced(const NDArray& a, const PreparedIndex& p, const NDArray& value);

// The (max(ndim, 1), count) int64 coordinates of the nonzero elements of `a` (rows are
// numpy.nonzero's arrays). Waits for the count (one int64 read back).
NDArray nonzero_coordinates(const NDArray& a);

// Row d of nonzero_coordinates' result, as a 1-d view.
NDArray coordinate_row(const NDArray& rows, int64_t d);

}  // namespace gpuarr
