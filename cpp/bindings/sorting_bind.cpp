// Sorting and searching entry points (private; python/gpuarr/_sorting.py arranges the
// arguments NumPy-style). Every argument array is already a gpuarr array.
#include <pybind11/stl.h>

#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "core/sorting.hpp"
#include "ops/array_ops.hpp"
#include "ops/sorting.hpp"

namespace gpuarr::bind {
namespace {

const NDArray& arr(py::handle h) {
  if (!is_gpuarr_array(h)) throw TypeError("expected a gpuarr.ndarray");
  return as_array(h).a;
}

// The array to sort and the normalised axis; axis None flattens (C order).
NDArray for_axis(const NDArray& a, py::handle axis, int64_t& ax) {
  if (axis.is_none()) {
    ax = 0;
    return reshape_array(a, Dims{a.size()}, 'C');
  }
  ax = normalize_axis(axis.cast<int64_t>(), a.ndim());
  return a;
}

py::object sort(py::handle a_obj, py::handle axis) {
  int64_t ax;
  const NDArray a = for_axis(arr(a_obj), axis, ax);
  return make_owner(sort_array(a, ax));
}

py::object argsort(py::handle a_obj, py::handle axis) {
  int64_t ax;
  const NDArray a = for_axis(arr(a_obj), axis, ax);
  return make_owner(argsort_array(a, ax));
}

void sort_in_place(py::handle a_obj, int64_t axis) {
  const NDArray& a = arr(a_obj);
  sort_inplace(a, normalize_axis(axis, a.ndim()));
}

py::object lexsort(const py::sequence& keys, int64_t axis) {
  std::vector<NDArray> k;
  for (py::handle h : keys) k.push_back(arr(h));
  if (k.empty()) throw TypeError("need sequence of keys with len > 0 in lexsort");
  const int64_t ax = normalize_axis(axis, k.front().ndim());
  return make_owner(lexsort_array(k, ax));
}

py::object searchsorted(py::handle a_obj, py::handle v_obj, bool right, py::handle sorter) {
  const NDArray& a = arr(a_obj);
  if (a.ndim() != 1) throw ValueError("object too deep for desired array");
  if (sorter.is_none()) return make_owner(searchsorted_array(a, arr(v_obj), right, nullptr));
  const NDArray& s = arr(sorter);
  return make_owner(searchsorted_array(a, arr(v_obj), right, &s));
}

py::tuple unique(py::handle a_obj, bool idx, bool inv, bool cnt, bool equal_nan) {
  const NDArray a = arr(a_obj);
  UniqueResult r;
  {
    py::gil_scoped_release release;
    r = unique_array(a, idx, inv, cnt, equal_nan);
  }
  auto opt = [](bool want, NDArray& x) -> py::object {
    return want ? make_owner(std::move(x)) : py::none();
  };
  return py::make_tuple(make_owner(std::move(r.values)), opt(idx, r.index), opt(inv, r.inverse),
                        opt(cnt, r.counts));
}

py::object bincount(py::handle x_obj, py::handle weights, int64_t minlength) {
  const NDArray x = arr(x_obj);
  NDArray w;
  const bool has_w = !weights.is_none();
  if (has_w) w = arr(weights);
  NDArray out;
  {
    py::gil_scoped_release release;
    out = bincount_array(x, has_w ? &w : nullptr, minlength);
  }
  return make_owner(std::move(out));
}

py::tuple minmax(py::handle a_obj) {
  const NDArray a = arr(a_obj);
  double lo, hi;
  {
    py::gil_scoped_release release;
    minmax_array(a, lo, hi);
  }
  return py::make_tuple(lo, hi);
}

py::object histogram(py::handle a_obj, py::handle weights, py::handle edges, bool uniform,
                     double first, double last, double norm, bool density, py::handle widths) {
  const NDArray& a = arr(a_obj);
  const NDArray* w = weights.is_none() ? nullptr : &arr(weights);
  const NDArray* wd = widths.is_none() ? nullptr : &arr(widths);
  if (density && !wd) throw ValueError("histogram: density needs the bin widths");
  return make_owner(histogram_array(a, w, arr(edges), uniform, first, last, norm, density, wd));
}

// The sorted rows for order statistics over `axes` (a tuple of normalised axes, or None for
// all): the other axes first, the reduced ones merged last, as a (rows, n) array.
py::object sorted_rows(py::handle a_obj, py::handle axes) {
  const NDArray& a = arr(a_obj);
  Dims reduced;
  if (axes.is_none()) {
    for (int64_t d = 0; d < a.ndim(); ++d) reduced.push_back(d);
  } else {
    for (py::handle h : axes) reduced.push_back(normalize_axis(h.cast<int64_t>(), a.ndim()));
  }
  Dims perm;
  std::vector<bool> is_reduced(static_cast<size_t>(a.ndim()), false);
  for (int64_t d : reduced) is_reduced[static_cast<size_t>(d)] = true;
  int64_t n = 1;
  for (int64_t d = 0; d < a.ndim(); ++d)
    if (!is_reduced[static_cast<size_t>(d)]) perm.push_back(d);
  for (int64_t d = 0; d < a.ndim(); ++d)
    if (is_reduced[static_cast<size_t>(d)]) {
      perm.push_back(d);
      n *= a.shape[static_cast<size_t>(d)];
    }
  NDArray v = a;
  transpose_layout(v.shape, v.strides, perm);
  const NDArray c = v.c_contiguous() ? v : copy_array(v, a.dtype, 'C');
  const int64_t nseg = n == 0 ? 0 : a.size() / n;
  NDArray out = empty_array(Dims{nseg, n}, a.dtype, 'C');
  sort_rows(c.data(), a.dtype, nseg, n, out.data(), stream_for(a));
  return make_owner(std::move(out));
}

py::object quantile_rows(py::handle rows, const std::vector<int64_t>& prev,
                         const std::vector<int64_t>& next, const std::vector<double>& gamma,
                         int mode, py::handle out_dtype) {
  return make_owner(
      quantile_sorted_rows(arr(rows), prev, next, gamma, mode, dtype_from_py(out_dtype)));
}

py::object quantile_rows_nan(py::handle rows, py::handle counts,
                             const std::vector<int64_t>& sizes, int64_t nq,
                             const std::vector<int64_t>& prev, const std::vector<int64_t>& next,
                             const std::vector<double>& gamma, int mode, py::handle out_dtype) {
  return make_owner(quantile_sorted_rows_nan(arr(rows), arr(counts), sizes, nq, prev, next,
                                             gamma, mode, dtype_from_py(out_dtype)));
}

py::object nonnan_counts(py::handle rows) {
  return make_owner(nonnan_counts_sorted_rows(arr(rows)));
}

int64_t kth_check(int64_t kth, int64_t n) { return normalize_kth(kth, n); }

}  // namespace

GPUARR_BINDINGS(110) {
  m.def("_sort", &sort, py::arg("a"), py::arg("axis"));
  m.def("_argsort", &argsort, py::arg("a"), py::arg("axis"));
  m.def("_sort_inplace", &sort_in_place, py::arg("a"), py::arg("axis"));
  m.def("_lexsort", &lexsort, py::arg("keys"), py::arg("axis"));
  m.def("_searchsorted", &searchsorted, py::arg("a"), py::arg("v"), py::arg("right"),
        py::arg("sorter"));
  m.def("_unique", &unique, py::arg("a"), py::arg("return_index"), py::arg("return_inverse"),
        py::arg("return_counts"), py::arg("equal_nan"));
  m.def("_bincount", &bincount, py::arg("x"), py::arg("weights"), py::arg("minlength"));
  m.def("_minmax", &minmax, py::arg("a"));
  m.def("_histogram", &histogram, py::arg("a"), py::arg("weights"), py::arg("edges"),
        py::arg("uniform"), py::arg("first"), py::arg("last"), py::arg("norm"),
        py::arg("density"), py::arg("widths"));
  m.def("_sorted_rows", &sorted_rows, py::arg("a"), py::arg("axes"));
  m.def("_quantile_rows", &quantile_rows, py::arg("rows"), py::arg("prev"), py::arg("next"),
        py::arg("gamma"), py::arg("mode"), py::arg("out_dtype"));
  m.def("_quantile_rows_nan", &quantile_rows_nan, py::arg("rows"), py::arg("counts"),
        py::arg("sizes"), py::arg("nq"), py::arg("prev"), py::arg("next"), py::arg("gamma"),
        py::arg("mode"), py::arg("out_dtype"));
  m.def("_nonnan_counts", &nonnan_counts, py::arg("rows"));
  m.def("_normalize_kth", &kth_check, py::arg("kth"), py::arg("n"));
}

}  // namespace gpuarr::bind
