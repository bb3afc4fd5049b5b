// Advanced (integer-array and boolean) indexing of gpuarr arrays: ndarray.__getitem__ /
// __setitem__ for every key NumPy accepts, and the C++ halves of take/put/nonzero.
// Planning is in core/advanced_indexing; the device work (offsets, gather, scatter, CUB
// nonzero) in ops/gather.cu and ops/nonzero.cu. Host index arrays (NumPy arrays, lists)
// are bounds-checked on the host; device index arrays through an error slot that one
// small read brings back (the one sync of such a call).
#include <pybind11/stl.h>

#include <climits>
#include <cstring>
#include <map>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/advanced_indexing.hpp"
#include "core/errors.hpp"
#include "ops/array_ops.hpp"
#include "ops/indexing_ops.hpp"
#include "ops/kernels.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"

namespace gpuarr::bind {

bool try_basic_items(py::handle key, std::vector<IndexItem>& items);  // indexing_bind.cpp

namespace {

const char* const kInvalidIndex =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices";
const char* const kNonIntArray = "arrays used as indices must be of integer (or boolean) type";

// numpy.<name>, looked up once per name (a handful of names; leaked on purpose).
const py::object& np_attr(const char* name) {
  static auto* np = new py::object(py::module_::import("numpy"));
  static auto* cache = new std::map<std::string, py::object*>();
  auto it = cache->find(name);
  if (it != cache->end()) return *it->second;
  auto* obj = new py::object(np->attr(name));
  (*cache)[name] = obj;
  return *obj;
}

// One index entry's data: a device array or a host (NumPy) array, or nothing.
struct Source {
  bool device = false;
  NDArray dev;
  py::object host;  // numpy array (int64 for integer indices, bool for masks)
};

struct ParsedIndex {
  std::vector<IndexEntry> entries;
  std::vector<Source> sources;  // parallel to entries
  bool force_copy = false;      // a 0-d NumPy integer array: an integer, but a copy
};

// The basic view of a parsed key without arrays.
NDArray basic_view(const NDArray& a, const ParsedIndex& p) {
  std::vector<IndexItem> items;
  for (const auto& e : p.entries) {
    switch (e.kind) {
      case IndexEntry::Kind::Integer: items.push_back(IndexItem::integer(e.value)); break;
      case IndexEntry::Kind::Slice: items.push_back(IndexItem::slice(e.start, e.stop, e.step)); break;
      case IndexEntry::Kind::NewAxis: items.push_back(IndexItem::newaxis()); break;
      case IndexEntry::Kind::Ellipsis: items.push_back(IndexItem::ellipsis()); break;
      default: throw std::logic_error("basic_view: array entry");
    }
  }
  NDArray v = a;
  apply_basic_index(v.shape, v.strides, v.offset, items);
  return v;
}

template <class T>
T read_device_value(const void* ptr, cudaStream_t stream) {
  T v{};
  py::gil_scoped_release release;
  read_small_device_bytes(&v, ptr, sizeof(T), stream);
  return v;
}

bool read_device_bool(const NDArray& a) {
  DeviceGuard guard(a.device());
  return read_device_value<uint8_t>(a.data(), stream_for(a)) != 0;
}

void add_array_entry(ParsedIndex& p, const py::object& host_in, bool from_list) {
  py::array host = py::reinterpret_borrow<py::array>(host_in);
  const char kind = host.dtype().kind();
  const Dims shape(host.shape(), host.shape() + host.ndim());
  if (kind == 'b') {
    if (host.ndim() == 0) {
      p.entries.push_back(IndexEntry::bool_scalar(host.attr("item")().cast<bool>()));
      p.sources.emplace_back();
      return;
    }
    p.entries.push_back(IndexEntry::bool_array(shape));
    p.sources.push_back({false, {}, host});
    return;
  }
  // Empty lists (float64 to NumPy's asarray) index as intp.
  if (kind != 'i' && kind != 'u' && !(from_list && host.size() == 0)) {
    throw IndexError(from_list ? kInvalidIndex : kNonIntArray);
  }
  static auto* int64 = new py::object(py::dtype::of<int64_t>());
  py::object h = np_attr("ascontiguousarray")(host, *int64);
  if (shape.empty()) {
    p.entries.push_back(IndexEntry::integer(h.attr("item")().cast<int64_t>()));
    p.sources.emplace_back();
    p.force_copy = true;
    return;
  }
  p.entries.push_back(IndexEntry::int_array(shape));
  p.sources.push_back({false, {}, h});
}

void parse_item(ParsedIndex& p, py::handle k) {
  PyObject* o = k.ptr();
  if (PyBool_Check(o)) {
    p.entries.push_back(IndexEntry::bool_scalar(o == Py_True));
    p.sources.emplace_back();
  } else if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) throw IndexError("cannot fit 'int' into an index-sized integer");
    p.entries.push_back(IndexEntry::integer(v));
    p.sources.emplace_back();
  } else if (PySlice_Check(o)) {
    Py_ssize_t b, e, s;
    if (PySlice_Unpack(o, &b, &e, &s) < 0) throw py::error_already_set();
    p.entries.push_back(IndexEntry::slice(b, e, s));
    p.sources.emplace_back();
  } else if (o == Py_None) {
    p.entries.push_back(IndexEntry::newaxis());
    p.sources.emplace_back();
  } else if (o == Py_Ellipsis) {
    p.entries.push_back(IndexEntry::ellipsis());
    p.sources.emplace_back();
  } else if (is_gpuarr_array(k)) {
    const NDArray& a = as_array(k).a;
    if (a.dtype == DType::Bool) {
      if (a.ndim() == 0) {
        p.entries.push_back(IndexEntry::bool_scalar(read_device_bool(a)));
        p.sources.emplace_back();
      } else {
        p.entries.push_back(IndexEntry::bool_array(a.shape));
        p.sources.push_back({true, a, py::none()});
      }
    } else if (is_integer(a.dtype)) {
      p.entries.push_back(IndexEntry::int_array(a.shape));
      p.sources.push_back({true, a, py::none()});
    } else {
      throw IndexError(kNonIntArray);
    }
  } else if (py::isinstance<py::array>(k)) {
    add_array_entry(p, py::reinterpret_borrow<py::object>(k), false);
  } else if (PyList_Check(o) || PyTuple_Check(o)) {
    py::object h;
    try {
      h = np_attr("asarray")(k);
    } catch (py::error_already_set&) {
      throw IndexError(kInvalidIndex);
    }
    add_array_entry(p, h, true);
  } else if (py::isinstance(k, np_attr("bool_"))) {
    p.entries.push_back(IndexEntry::bool_scalar(k.cast<bool>()));
    p.sources.emplace_back();
  } else if (PyIndex_Check(o)) {
    p.entries.push_back(IndexEntry::integer(
        py::reinterpret_steal<py::int_>(PyNumber_Index(o)).cast<long long>()));
    p.sources.emplace_back();
  } else {
    throw IndexError(kInvalidIndex);
  }
}

ParsedIndex parse_key(py::handle key) {
  ParsedIndex p;
  if (PyTuple_Check(key.ptr())) {
    const Py_ssize_t n = PyTuple_GET_SIZE(key.ptr());
    bool seen_ellipsis = false;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* item = PyTuple_GET_ITEM(key.ptr(), i);
      // NumPy checks items left to right: a second Ellipsis fails before later arrays.
      if (item == Py_Ellipsis) {
        if (seen_ellipsis) throw IndexError("an index can only have a single ellipsis ('...')");
        seen_ellipsis = true;
      }
      parse_item(p, item);
    }
  } else {
    parse_item(p, key);
  }
  return p;
}

// Rows of a (ndim, count) int64 device array of nonzero coordinates of a device mask.
NDArray device_nonzero(const NDArray& mask_in, int64_t& count) {
  DeviceGuard guard(mask_in.device());
  const cudaStream_t stream = stream_for(mask_in);
  NDArray mask = mask_in;
  if (mask.dtype != DType::Bool || !mask.c_contiguous()) mask = copy_array(mask_in, DType::Bool, 'C');
  const int64_t n = mask.size();
  NDArray scratch = empty_array({2}, DType::Int64, 'C');
  int64_t* d_count = reinterpret_cast<int64_t*>(scratch.data());
  launch_count_true(reinterpret_cast<const bool*>(mask.data()), n, d_count, stream);
  count = read_device_value<int64_t>(d_count, stream);
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

NDArray row_of(const NDArray& rows, int64_t d) {
  NDArray r = rows;
  r.shape = {rows.shape[1]};
  r.strides = {8};
  r.offset += d * rows.shape[1] * 8;
  return r;
}

struct Prepared {
  AdvancedPlan plan;
  NDArray offsets;        // int64, C-contiguous over plan.index_shape
  Dims off_strides;       // per result dim, bytes into offsets
  int64_t bool_count = -1;  // true elements when the key is one full-rank mask
  bool single_full_mask = false;
};

// Expands masks, plans, computes the source offsets of every index position and checks
// the indices (NumPy's order: each array in turn).
Prepared prepare(const NDArray& a, ParsedIndex& p, IndexMode mode, bool take_mode) {
  check_index(a.shape, p.entries);
  Prepared r;
  r.single_full_mask = p.entries.size() == 1 &&
                       p.entries[0].kind == IndexEntry::Kind::BoolArray &&
                       static_cast<int64_t>(p.entries[0].shape.size()) == a.ndim();
  // Masks -> per-axis integer index arrays.
  std::vector<int64_t> counts;
  std::vector<Source> expanded_sources;
  for (size_t i = 0; i < p.entries.size(); ++i) {
    const auto& e = p.entries[i];
    Source& s = p.sources[i];
    if (e.kind != IndexEntry::Kind::BoolArray) {
      expanded_sources.push_back(s);
      continue;
    }
    if (s.device) {
      int64_t count = 0;
      NDArray rows = device_nonzero(s.dev, count);
      counts.push_back(count);
      for (size_t d = 0; d < e.shape.size(); ++d) {
        expanded_sources.push_back({true, row_of(rows, static_cast<int64_t>(d)), py::none()});
      }
    } else {
      py::tuple nz = np_attr("nonzero")(s.host);
      counts.push_back(static_cast<int64_t>(py::len(nz[0])));
      static auto* int64 = new py::object(py::dtype::of<int64_t>());
      for (size_t d = 0; d < e.shape.size(); ++d) {
        expanded_sources.push_back({false, {}, np_attr("ascontiguousarray")(nz[d], *int64)});
      }
    }
  }
  if (r.single_full_mask) r.bool_count = counts[0];
  const std::vector<IndexEntry> entries = expand_bool_arrays(p.entries, counts);
  r.plan = plan_advanced_index(a.shape, a.strides, entries);
  const AdvancedPlan& plan = r.plan;
  const int64_t nidx = shape_size(plan.index_shape);
  if (take_mode && mode != IndexMode::Raise && nidx > 0) {
    for (const auto& arr : plan.arrays) {
      if (arr.axis_size == 0) throw IndexError("cannot do a non-empty take from an empty axes.");
    }
  }
  DeviceGuard guard(a.device());
  const cudaStream_t stream = stream_for(a);
  r.offsets = empty_array(plan.index_shape, DType::Int64, 'C');
  {
    Dims is = plan.index_strides();
    r.off_strides.resize(is.size());
    for (size_t d = 0; d < is.size(); ++d) r.off_strides[d] = is[d] * 8;
  }
  const size_t K = plan.arrays.size();
  // Error slots for device-sourced indices in raise mode.
  NDArray err;
  bool any_device = false;
  std::vector<NDArray> uploaded(K);
  std::vector<const Source*> srcs(K, nullptr);
  for (size_t k = 0; k < K; ++k) {
    const Source& s = expanded_sources[plan.arrays[k].entry];
    srcs[k] = &s;
    if (s.device) any_device = true;
  }
  if (any_device && mode == IndexMode::Raise && nidx > 0) {
    err = empty_array({static_cast<int64_t>(K)}, DType::UInt64, 'C');
    GPUARR_CUDA_CHECK(cudaMemsetAsync(err.data(), 0xFF, K * 8, stream));
  }
  for (size_t k = 0; k < K; ++k) {
    const auto& arr = plan.arrays[k];
    const Source& s = *srcs[k];
    const char* idx = nullptr;
    Dims idx_strides(plan.index_shape.size(), 0);
    if (s.device) {
      NDArray d = s.dev;
      if (d.device() != a.device()) d = copy_to_current_device(d, DType::Int64, 'C');
      else if (d.dtype != DType::Int64) d = copy_array(d, DType::Int64, 'K');
      uploaded[k] = d;
    } else if (s.host && !s.host.is_none()) {
      if (nidx > 0) uploaded[k] = upload_new(py::reinterpret_borrow<py::array>(s.host));
    }
    if (uploaded[k].memory) {
      idx = uploaded[k].data();
      idx_strides = broadcast_strides(uploaded[k].shape, uploaded[k].strides, plan.index_shape);
    }
    unsigned long long* slot =
        (err.memory && s.device) ? reinterpret_cast<unsigned long long*>(err.data()) + k : nullptr;
    launch_index_offsets(reinterpret_cast<int64_t*>(r.offsets.data()), plan.index_shape, idx,
                         idx_strides, arr.axis_size, arr.stride, mode, k > 0, slot, stream);
  }
  if (mode != IndexMode::Raise || nidx == 0) return r;
  // Bounds, array by array as NumPy reports them.
  std::vector<unsigned long long> errs;
  for (size_t k = 0; k < K; ++k) {
    const auto& arr = plan.arrays[k];
    const Source& s = *srcs[k];
    if (s.device) {
      if (errs.empty()) {
        errs.resize(K);
        py::gil_scoped_release release;
        read_small_device_bytes(errs.data(), err.data(), K * 8, stream);
      }
      if (errs[k] == ULLONG_MAX) continue;
      // The offending value: position errs[k] of the index shape, through the strides.
      int64_t j = static_cast<int64_t>(errs[k]);
      const Dims bs = broadcast_strides(uploaded[k].shape, uploaded[k].strides, plan.index_shape);
      int64_t off = 0;
      for (size_t d = plan.index_shape.size(); d-- > 0;) {
        off += (j % plan.index_shape[d]) * bs[d];
        j /= plan.index_shape[d];
      }
      const int64_t v = read_device_value<int64_t>(uploaded[k].data() + off, stream);
      throw IndexError(out_of_bounds_message(v, arr.axis, arr.axis_size));
    } else if (s.host && !s.host.is_none()) {
      py::array h = py::reinterpret_borrow<py::array>(s.host);
      const int64_t n = arr.axis_size;
      const int64_t* data = static_cast<const int64_t*>(h.data());
      for (py::ssize_t i = 0; i < h.size(); ++i) {
        if (data[i] < -n || data[i] >= n) throw IndexError(out_of_bounds_message(data[i], arr.axis, n));
      }
    }
  }
  return r;
}

NDArray gather(const NDArray& a, const Prepared& r) {
  const AdvancedPlan& plan = r.plan;
  DeviceGuard guard(a.device());  // the result lives on a's device
  NDArray out = empty_array(plan.result_shape, a.dtype, 'C');
  out.strides = plan.result_strides(a.itemsize());
  if (out.size() == 0) {
    out.strides = contiguous_strides(plan.result_shape, a.itemsize(), 'C');
    return out;
  }
  launch_gather(out.data(), out.strides, a.data() + plan.offset, plan.src_strides,
                reinterpret_cast<const int64_t*>(r.offsets.data()), r.off_strides,
                plan.result_shape, a.itemsize(), stream_for(a));
  return out;
}

// The value of an assignment as a device array of dst's dtype (not sharing dst's memory).
NDArray value_array(const NDArray& dst, py::handle value) {
  DeviceGuard guard(dst.device());
  if (is_gpuarr_array(value)) {
    const NDArray& v = as_array(value).a;
    if (v.dtype != dst.dtype || v.memory == dst.memory || v.device() != dst.device()) {
      return copy_to_current_device(v, dst.dtype, 'K');
    }
    return v;
  }
  if (is_python_scalar(value)) {
    const std::string bytes = scalar_bytes(value, dst.dtype);
    NDArray v = empty_array({}, dst.dtype, 'C');
    fill_array(v, bytes.data());
    return v;
  }
  if (py::isinstance<py::array>(value)) {
    NDArray v = upload_new(host_array_for_upload(value, py::none(), 'K'));
    if (v.dtype != dst.dtype) v = copy_array(v, dst.dtype, 'K');
    return v;
  }
  return upload_new(host_array_for_upload(value, numpy_dtype(dst.dtype), 'K'));
}

void scatter(const NDArray& a, const Prepared& r, const NDArray& v) {
  const AdvancedPlan& plan = r.plan;
  if (r.single_full_mask) {
    if (v.ndim() > 1) {
      throw TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional "
                      "input, input has " + std::to_string(v.ndim()) + " dimensions");
    }
    if (v.ndim() == 1 && v.size() != 1 && v.size() != r.bool_count) {
      throw ValueError("NumPy boolean array indexing assignment cannot assign " +
                       std::to_string(v.size()) + " input values to the " +
                       std::to_string(r.bool_count) + " output values where the mask is true");
    }
  }
  const Dims vs = setitem_value_strides(v.shape, v.strides, plan.result_shape);
  if (shape_size(plan.result_shape) == 0) return;
  DeviceGuard guard(a.device());
  launch_scatter(a.data() + plan.offset, plan.src_strides,
                 reinterpret_cast<const int64_t*>(r.offsets.data()), r.off_strides, v.data(), vs,
                 plan.result_shape, a.itemsize(), stream_for(a));
}

py::object getitem(py::handle self, py::handle key) {
  const NDArray& a = as_array(self).a;
  std::vector<IndexItem> items;
  if (try_basic_items(key, items)) {
    NDArray v = a;
    apply_basic_index(v.shape, v.strides, v.offset, items);
    return make_view(self, std::move(v));
  }
  ParsedIndex p = parse_key(key);
  if (!has_advanced(p.entries)) {
    const NDArray v = basic_view(a, p);
    DeviceGuard guard(a.device());
    return make_owner(copy_array(v, v.dtype, 'C'));
  }
  Prepared r = prepare(a, p, IndexMode::Raise, false);
  return make_owner(gather(a, r));
}

void setitem(py::handle self, py::handle key, py::handle value) {
  const NDArray& a = as_array(self).a;
  std::vector<IndexItem> items;
  if (try_basic_items(key, items)) {
    NDArray v = a;
    apply_basic_index(v.shape, v.strides, v.offset, items);
    assign_from_py(v, value);
    return;
  }
  ParsedIndex p = parse_key(key);
  if (!has_advanced(p.entries)) {
    assign_from_py(basic_view(a, p), value);
    return;
  }
  Prepared r = prepare(a, p, IndexMode::Raise, false);
  scatter(a, r, value_array(a, value));
}

// The index of take/put: an integer array (bool casts to int, as NumPy's take does).
void parse_take_indices(ParsedIndex& p, py::handle indices) {
  if (is_gpuarr_array(indices)) {
    const NDArray& d = as_array(indices).a;
    if (!is_integer(d.dtype) && d.dtype != DType::Bool) {
      throw TypeError(std::string("Cannot cast array data from dtype('") + name(d.dtype) +
                      "') to dtype('int64') according to the rule 'safe'");
    }
    p.entries.push_back(IndexEntry::int_array(d.shape));
    p.sources.push_back({true, d.dtype == DType::Bool ? copy_array(d, DType::Int64, 'C') : d,
                         py::none()});
    return;
  }
  py::array h = np_attr("asarray")(indices);
  const char kind = h.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u' && !(h.size() == 0 && !py::isinstance<py::array>(indices))) {
    throw TypeError("Cannot cast array data from " + py::repr(h.dtype()).cast<std::string>() +
                    " to dtype('int64') according to the rule 'safe'");
  }
  static auto* int64 = new py::object(py::dtype::of<int64_t>());
  p.entries.push_back(IndexEntry::int_array(Dims(h.shape(), h.shape() + h.ndim())));
  p.sources.push_back({false, {}, np_attr("ascontiguousarray")(h, *int64)});
}

ParsedIndex axis_index(int64_t axis) {
  ParsedIndex p;
  for (int64_t d = 0; d < axis; ++d) {
    p.entries.push_back(IndexEntry::slice(0, LLONG_MAX, 1));
    p.sources.emplace_back();
  }
  return p;
}

// take(a, indices, axis, mode): `a` already flattened by the caller when axis is None.
py::object take(py::handle self, py::handle indices, int64_t axis, const std::string& mode_s) {
  const NDArray& a = as_array(self).a;
  const IndexMode mode = index_mode_from_string(mode_s);
  axis = normalize_axis(axis, a.ndim());
  ParsedIndex p = axis_index(axis);
  parse_take_indices(p, indices);
  Prepared r = prepare(a, p, mode, true);
  return make_owner(gather(a, r));
}

// a[indices] = values along axis 0 of a 1-d view with take/put's modes (put's core).
void put_flat(py::handle self, py::handle indices, py::handle values, const std::string& mode_s) {
  const NDArray& a = as_array(self).a;
  const IndexMode mode = index_mode_from_string(mode_s);
  ParsedIndex p;
  parse_take_indices(p, indices);
  Prepared r = prepare(a, p, mode, true);
  scatter(a, r, value_array(a, values));
}

// (ndim, count) int64 coordinates of the nonzero elements (rows are nonzero()'s arrays).
py::object nonzero_rows(py::handle self) {
  const NDArray& a = as_array(self).a;
  int64_t count = 0;
  return make_owner(device_nonzero(a, count));
}

py::tuple nonzero(py::handle self) {
  const NDArray& a = as_array(self).a;
  if (a.ndim() == 0) {
    throw ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                     "np.atleast_1d(scalar).nonzero() instead.");
  }
  py::object rows = nonzero_rows(self);
  const NDArray& ra = as_array(rows).a;
  py::tuple out(a.ndim());
  for (int64_t d = 0; d < a.ndim(); ++d) out[d] = make_view(rows, row_of(ra, d));
  return out;
}

// Host-only planning of a key made of host objects (no gpuarr arrays): the shape and
// strides (float64 items) of NumPy's result, with NumPy's errors. Lets the planner and the
// key parser be checked against NumPy without a device.
py::tuple plan_for_host_key(const Dims& shape, py::handle key) {
  ParsedIndex p = parse_key(key);
  if (!has_advanced(p.entries)) {
    NDArray fake;
    fake.shape = shape;
    fake.strides = contiguous_strides(shape, 8, 'C');
    const NDArray v = basic_view(fake, p);
    return py::make_tuple(dims_to_tuple(v.shape), dims_to_tuple(contiguous_strides(v.shape, 8, 'C')));
  }
  check_index(shape, p.entries);
  std::vector<int64_t> counts;
  std::vector<py::object> hosts;
  for (size_t i = 0; i < p.entries.size(); ++i) {
    const auto& e = p.entries[i];
    if (e.kind == IndexEntry::Kind::BoolArray) {
      py::tuple nz = np_attr("nonzero")(p.sources[i].host);
      counts.push_back(static_cast<int64_t>(py::len(nz[0])));
      for (size_t d = 0; d < e.shape.size(); ++d) hosts.push_back(nz[d]);
    } else {
      hosts.push_back(p.sources[i].host);
    }
  }
  const auto entries = expand_bool_arrays(p.entries, counts);
  const AdvancedPlan plan = plan_advanced_index(shape, contiguous_strides(shape, 8, 'C'), entries);
  if (shape_size(plan.index_shape) > 0) {
    for (const auto& arr : plan.arrays) {
      if (!hosts[arr.entry] || hosts[arr.entry].is_none()) continue;
      py::array h = np_attr("ascontiguousarray")(hosts[arr.entry], py::dtype::of<int64_t>());
      const int64_t* data = static_cast<const int64_t*>(h.data());
      for (py::ssize_t i = 0; i < h.size(); ++i) {
        if (data[i] < -arr.axis_size || data[i] >= arr.axis_size) {
          throw IndexError(out_of_bounds_message(data[i], arr.axis, arr.axis_size));
        }
      }
    }
  }
  return py::make_tuple(dims_to_tuple(plan.result_shape), dims_to_tuple(plan.result_strides(8)));
}

}  // namespace

GPUARR_BINDINGS(100) {
  m.def("_plan_for_host_key", &plan_for_host_key, py::arg("shape"), py::arg("key"));
  py::object cls = m.attr("ndarray");
  // Replace (no py::sibling): a sibling appends this overload AFTER ndarray_bind's basic
  // (self, key) one, which accepts every key and raises for array keys, so this one would
  // never run. getitem/setitem handle basic keys themselves.
  cls.attr("__getitem__") =
      py::cpp_function(&getitem, py::name("__getitem__"), py::is_method(cls));
  cls.attr("__setitem__") =
      py::cpp_function(&setitem, py::name("__setitem__"), py::is_method(cls));
  cls.attr("nonzero") = py::cpp_function(&nonzero, py::name("nonzero"), py::is_method(cls));
  m.def("_take", &take, py::arg("a"), py::arg("indices"), py::arg("axis"), py::arg("mode"));
  m.def("_put_flat", &put_flat, py::arg("a"), py::arg("indices"), py::arg("values"),
        py::arg("mode"));
  m.def("_nonzero_rows", &nonzero_rows, py::arg("a"));
}

}  // namespace gpuarr::bind
