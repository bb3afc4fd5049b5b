#include "ops/advanced_indexing.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "ops/indexing_ops.hpp"
#include "ops/kernels.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr {
namespace {

using Kind = IndexEntry::Kind;

// Host index data from this size on takes longer to scan and upload than handing the GIL
// to another thread costs.
constexpr int64_t kLargeHostIndexBytes = 1 << 16;

template <class T>
T read_device_value(const void* ptr, cudaStream_t stream) {
  T v{};
  read_small_device_bytes(&v, ptr, sizeof(T), stream);
  return v;
}

// The index data of one entry after mask expansion: a device int array or host values.
struct ExpandedData {
  NDArray device;
  const int64_t* values = nullptr;
  bool in_range = false;  // a mask's coordinates: within the axes check_index matched
};

}  // namespace

NDArray nonzero_coordinates(const NDArray& a) {
  DeviceGuard guard(a.device());
  const cudaStream_t stream = stream_for(a);
  NDArray mask = a;
  if (mask.dtype != DType::Bool || !mask.c_contiguous()) mask = copy_array(a, DType::Bool, 'C');
  const int64_t n = mask.size();
  NDArray scratch = empty_array({2}, DType::Int64, 'C');
  int64_t* d_count = reinterpret_cast<int64_t*>(scratch.data());
  launch_count_true(reinterpret_cast<const bool*>(mask.data()), n, d_count, stream);
  const int64_t count = read_device_value<int64_t>(d_count, stream);
  const int64_t nd = std::max<int64_t>(mask.ndim(), 1);
  NDArray out = empty_array({nd, count}, DType::Int64, 'C');
  if (count == 0) return out;
  if (nd == 1) {
    launch_true_positions(reinterpret_cast<const bool*>(mask.data()), n,
                          reinterpret_cast<int64_t*>(out.data()), d_count + 1, stream);
  } else {
    NDArray pos = empty_array({count}, DType::Int64, 'C');
    launch_true_positions(reinterpret_cast<const bool*>(mask.data()), n,
                          reinterpret_cast<int64_t*>(pos.data()), d_count + 1, stream);
    launch_unravel(reinterpret_cast<const int64_t*>(pos.data()), count, mask.shape,
                   reinterpret_cast<int64_t*>(out.data()), stream);
  }
  return out;
}

NDArray coordinate_row(const NDArray& rows, int64_t d) {
  NDArray r = rows;
  r.shape = {rows.shape[1]};
  r.strides = {8};
  r.offset += d * rows.shape[1] * 8;
  return r;
}

bool prepare_may_wait(const std::vector<IndexEntry>& index, const std::vector<IndexData>& data,
                      IndexMode mode) {
  int64_t host_bytes = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    const IndexData& d = data[i];
    if (d.device.memory) {
      if (index[i].kind == Kind::BoolArray || mode == IndexMode::Raise) return true;
    } else if (d.values) {
      host_bytes += shape_size(index[i].shape) * 8;
    } else if (d.mask) {
      host_bytes += shape_size(index[i].shape);
    }
  }
  return host_bytes >= kLargeHostIndexBytes;
}

PreparedIndex prepare_advanced_index(const NDArray& a, const std::vector<IndexEntry>& index,
                                     const std::vector<IndexData>& data, IndexMode mode,
                                     bool take) {
  check_index(a.shape, index);
  PreparedIndex r;
  // Masks -> per-axis integer index arrays: device masks through the device (one count
  // read each), host masks on the host.
  size_t mask_dims = 0;
  for (const auto& e : index) {
    if (e.kind == Kind::BoolArray) mask_dims += e.shape.size();
  }
  std::vector<std::vector<int64_t>> host_coords;
  host_coords.reserve(mask_dims);  // expanded[].values points into its vectors
  std::vector<int64_t> counts;
  std::vector<ExpandedData> expanded;  // parallel to the expanded entries
  for (size_t i = 0; i < index.size(); ++i) {
    const IndexData& s = data[i];
    if (index[i].kind != Kind::BoolArray) {
      expanded.push_back({s.device, s.values, false});
      continue;
    }
    const size_t nd = index[i].shape.size();
    if (s.device.memory) {
      const NDArray rows = nonzero_coordinates(s.device);
      counts.push_back(rows.shape[1]);
      for (size_t d = 0; d < nd; ++d) {
        expanded.push_back({coordinate_row(rows, static_cast<int64_t>(d)), nullptr, true});
      }
    } else {
      if (!s.mask) throw std::logic_error("prepare_advanced_index: a mask without data");
      auto nz = mask_nonzero(s.mask, index[i].shape);
      counts.push_back(static_cast<int64_t>(nz[0].size()));
      for (auto& v : nz) {
        host_coords.push_back(std::move(v));
        expanded.push_back({NDArray{}, host_coords.back().data(), true});
      }
    }
  }
  if (is_full_mask_key(index, a.ndim())) r.mask_count = counts[0];
  const std::vector<IndexEntry> entries = expand_bool_arrays(index, counts);
  r.plan = plan_advanced_index(a.shape, a.strides, entries);
  const AdvancedPlan& plan = r.plan;
  const int64_t nidx = shape_size(plan.index_shape);
  if (take) check_take_axes(plan, mode);

  DeviceGuard guard(a.device());
  const cudaStream_t stream = stream_for(a);
  const size_t K = plan.arrays.size();
  if (K == 1 && (expanded[plan.arrays[0].entry].device.memory ||
                 expanded[plan.arrays[0].entry].values)) {
    // One index array: gather and scatter read it as it is.
    const auto& arr = plan.arrays[0];
    const ExpandedData& s = expanded[arr.entry];
    r.axis = arr.axis;
    r.axis_size = arr.axis_size;
    r.stride = arr.stride;
    r.offsets = false;
    r.mode = mode;
    if (s.device.memory) {
      NDArray d = s.device;
      const bool direct = d.dtype == DType::Int32 || d.dtype == DType::Int64;
      const DType t = direct ? d.dtype : DType::Int64;
      // A copy also where the index is a's own memory, which a scatter writes.
      if (d.device() != a.device()) d = copy_to_current_device(d, t, 'C');
      else if (!direct || d.memory == a.memory) d = copy_array(d, t, 'K');
      r.index = d;
      r.bounds_pending = mode == IndexMode::Raise && !s.in_range && nidx > 0;
    } else {
      if (mode == IndexMode::Raise)
        check_index_values(s.values, shape_size(arr.shape), arr.axis, arr.axis_size);
      if (nidx == 0) return r;
      r.index = empty_array(arr.shape, DType::Int64, 'C');
      upload_contiguous(r.index, s.values, false);
    }
    const Dims bs = broadcast_strides(r.index.shape, r.index.strides, plan.index_shape);
    r.index_strides.assign(plan.result_shape.size(), 0);
    for (size_t d = 0; d < bs.size(); ++d) r.index_strides[plan.index_pos + d] = bs[d];
    return r;
  }
  r.index = empty_array(plan.index_shape, DType::Int64, 'C');
  {
    const Dims is = plan.index_strides();
    r.index_strides.resize(is.size());
    for (size_t d = 0; d < is.size(); ++d) r.index_strides[d] = is[d] * 8;
  }
  // Error slots of device indices in Raise mode: the first bad position of each array.
  auto device_checked = [&](const ExpandedData& s) { return s.device.memory && !s.in_range; };
  bool any_device_checked = false;
  for (const auto& arr : plan.arrays) any_device_checked |= device_checked(expanded[arr.entry]);
  NDArray err;
  if (any_device_checked && mode == IndexMode::Raise && nidx > 0) {
    err = empty_array({static_cast<int64_t>(K)}, DType::UInt64, 'C');
    GPUARR_CUDA_CHECK(cudaMemsetAsync(err.data(), 0xFF, K * 8, stream));
  }
  std::vector<NDArray> uploaded(K);  // each array's int64 indices on a's device
  for (size_t k = 0; k < K; ++k) {
    const auto& arr = plan.arrays[k];
    const ExpandedData& s = expanded[arr.entry];
    if (s.device.memory) {
      NDArray d = s.device;
      if (d.device() != a.device()) d = copy_to_current_device(d, DType::Int64, 'C');
      else if (d.dtype != DType::Int64) d = copy_array(d, DType::Int64, 'K');
      uploaded[k] = d;
    } else if (s.values && nidx > 0) {
      NDArray d = empty_array(arr.shape, DType::Int64, 'C');
      upload_contiguous(d, s.values, false);
      uploaded[k] = d;
    }
    const char* idx = nullptr;  // none: a boolean scalar's index 0
    Dims idx_strides(plan.index_shape.size(), 0);
    if (uploaded[k].memory) {
      idx = uploaded[k].data();
      idx_strides = broadcast_strides(uploaded[k].shape, uploaded[k].strides, plan.index_shape);
    }
    unsigned long long* slot =
        (err.memory && device_checked(s)) ? reinterpret_cast<unsigned long long*>(err.data()) + k
                                          : nullptr;
    launch_index_offsets(reinterpret_cast<int64_t*>(r.index.data()), plan.index_shape, idx,
                         idx_strides, arr.axis_size, arr.stride, mode, k > 0, slot, stream);
  }
  if (mode != IndexMode::Raise || nidx == 0) return r;
  // Bounds, array by array as NumPy reports them.
  std::vector<unsigned long long> errs;
  for (size_t k = 0; k < K; ++k) {
    const auto& arr = plan.arrays[k];
    const ExpandedData& s = expanded[arr.entry];
    if (s.in_range) continue;
    if (s.device.memory) {
      if (errs.empty()) {
        errs.resize(K);
        read_small_device_bytes(errs.data(), err.data(), K * 8, stream);
      }
      if (errs[k] == ULLONG_MAX) continue;
      // The offending value: position errs[k] of the index shape, through the strides.
      const Dims bs = broadcast_strides(uploaded[k].shape, uploaded[k].strides, plan.index_shape);
      const int64_t off =
          broadcast_element_offset(static_cast<int64_t>(errs[k]), plan.index_shape, bs);
      const int64_t v = read_device_value<int64_t>(uploaded[k].data() + off, stream);
      throw IndexError(out_of_bounds_message(v, arr.axis, arr.axis_size));
    }
    if (s.values) check_index_values(s.values, shape_size(arr.shape), arr.axis, arr.axis_size);
  }
  return r;
}

namespace {

IndexSource source_of(const PreparedIndex& p) {
  IndexSource s;
  s.data = p.index.data();
  s.int32 = p.index.dtype == DType::Int32;
  s.offsets = p.offsets;
  s.mode = p.mode;
  s.axis_size = p.axis_size;
  s.stride = p.stride;
  return s;
}

// Result elements an index element from which a gather checks its index before it starts
// rather than flagging bad values as it reads them and waiting for it.
constexpr int64_t kCheckFirstResultPerIndex = 64;

// Raise mode, one device index array: IndexError for its first value out of bounds.
// ascending (a 1-d index of < 2^31 values): set to whether its targets never descend,
// found by the same pass and read-back.
void check_pending_bounds(const PreparedIndex& p, cudaStream_t stream,
                          bool* ascending = nullptr) {
  const AdvancedPlan& plan = p.plan;
  NDArray flags = empty_array({2}, DType::UInt64, 'C');  // first bad position, ascending
  auto* d = reinterpret_cast<unsigned long long*>(flags.data());
  GPUARR_CUDA_CHECK(cudaMemsetAsync(d, 0xFF, 16, stream));
  const Dims bs = broadcast_strides(p.index.shape, p.index.strides, plan.index_shape);
  launch_index_check(source_of(p), plan.index_shape, bs, d, stream,
                     ascending ? d + 1 : nullptr);
  unsigned long long h[2];
  read_small_device_bytes(h, d, ascending ? 16 : 8, stream);
  if (ascending) *ascending = h[1] != 0;
  const unsigned long long first = h[0];
  if (first == ULLONG_MAX) return;
  const char* at = p.index.data() +
                   broadcast_element_offset(static_cast<int64_t>(first), plan.index_shape, bs);
  const int64_t v = p.index.dtype == DType::Int32 ? read_device_value<int32_t>(at, stream)
                                                  : read_device_value<int64_t>(at, stream);
  throw IndexError(out_of_bounds_message(v, p.axis, p.axis_size));
}

}  // namespace

NDArray gather_advanced(const NDArray& a, const PreparedIndex& p) {
  const AdvancedPlan& plan = p.plan;
  DeviceGuard guard(a.device());  // the result lives on a's device
  NDArray out = empty_array(plan.result_shape, a.dtype, 'C');
  out.strides = plan.result_strides(a.itemsize());
  const cudaStream_t stream = stream_for(a);
  // An empty result reads no index, and an empty axis has no element 0 to read in place of
  // a bad one: check first. So too where the index is small beside the result (columns or
  // rows of a matrix): its check is short, and the gather then runs while the host returns
  // instead of the host waiting for it (a[:, idx] of 2048 columns of 4096^2 float32).
  const bool check_first = p.axis_size == 0 || out.size() == 0 ||
                           shape_size(p.index.shape) * kCheckFirstResultPerIndex <= out.size();
  if (p.bounds_pending && check_first) check_pending_bounds(p, stream);
  if (out.size() == 0) {
    out.strides = contiguous_strides(plan.result_shape, a.itemsize(), 'C');
    return out;
  }
  IndexSource src = source_of(p);
  NDArray flag;
  if (p.bounds_pending && !check_first) {
    flag = empty_array({1}, DType::UInt32, 'C');
    GPUARR_CUDA_CHECK(cudaMemsetAsync(flag.data(), 0, 4, stream));
    src.flag = reinterpret_cast<unsigned int*>(flag.data());
  }
  // NumPy's layout puts the index dims outermost in memory (a[:, idx] is contiguous along
  // its first dim): launch_gather writes such results through transposing tiles.
  launch_gather(out.data(), out.strides, a.data() + plan.offset, plan.src_strides, src,
                p.index_strides, plan.result_shape, a.itemsize(), stream);
  if (flag.memory && read_device_value<unsigned int>(flag.data(), stream) != 0)
    check_pending_bounds(p, stream);
  return out;
}

void scatter_advanced(const NDArray& a, const PreparedIndex& p, const NDArray& value) {
  const AdvancedPlan& plan = p.plan;
  DeviceGuard guard(a.device());
  const cudaStream_t stream = stream_for(a);
  if (p.bounds_pending) check_pending_bounds(p, stream);  // NumPy: the index before the value
  if (p.mask_count >= 0) check_mask_assignment(value.ndim(), value.size(), p.mask_count);
  const Dims vs = setitem_value_strides(value.shape, value.strides, plan.result_shape);
  if (shape_size(plan.result_shape) == 0) return;
  launch_scatter(a.data() + plan.offset, plan.src_strides, source_of(p), p.index_strides,
                 value.data(), vs, plan.result_shape, a.itemsize(), stream);
}

bool scatter_last_write(const NDArray& a, const PreparedIndex& p, const NDArray& value) {
  const AdvancedPlan& plan = p.plan;
  if (a.ndim() != 1 || p.offsets || p.index.ndim() != 1 || value.ndim() != 1 ||
      value.shape[0] != p.index.shape[0]) {
    throw std::logic_error("scatter_last_write: a 1-d array, index and value of one length");
  }
  const int64_t n = p.index.shape[0];
  if (n == 0) return true;
  DeviceGuard guard(a.device());
  const cudaStream_t stream = stream_for(a);
  // The check's pass also says whether the targets never descend (sorted indices): then
  // each run of equal targets' last write wins without claiming.
  bool ascending = false;
  if (p.bounds_pending) check_pending_bounds(p, stream, &ascending);
  if (n > INT32_MAX || (!ascending && !put_claims_fit(a.shape[0], n))) return false;
  NDArray winners;
  if (!ascending) {
    winners = empty_array({a.shape[0]}, DType::Int32, 'C');
    GPUARR_CUDA_CHECK(cudaMemsetAsync(winners.data(), 0xFF, a.shape[0] * 4, stream));
  }
  launch_last_write_scatter(a.data() + plan.offset, p.stride, source_of(p), p.index.strides[0],
                            value.data(), value.strides[0], n,
                            ascending ? nullptr : reinterpret_cast<int32_t*>(winners.data()),
                            a.itemsize(), stream);
  return true;
}

}  // namespace gpuarr
