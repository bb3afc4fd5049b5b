// Sorting, searching, unique, counting and order statistics (CUB). Each runs on the
// current stream of the array's device; only unique and bincount read a count back.
#pragma once
#include <cstdint>
#include <vector>

#include "ops/ndarray.hpp"

namespace gpuarr {

// --- row primitives: `nseg` contiguous rows of `n` elements -----------------------------

// Sorted values of each row (NumPy's order: NaNs last), written to `out` (same dtype).
void sort_rows(const char* data, DType dtype, int64_t nseg, int64_t n, char* out,
               cudaStream_t stream);
// Stable argsort of each row: local indices (0..n-1) into `perm_out`. With `perm_in`
// (local indices per row), the rows are read in that order and the result is a
// refinement of it (how lexsort chains keys): perm_out[i] = perm_in[j] reordered.
void argsort_rows(const char* data, DType dtype, int64_t nseg, int64_t n,
                  const int64_t* perm_in, int64_t* perm_out, cudaStream_t stream);

// --- array level ------------------------------------------------------------------------

// A C-contiguous array with `axis` moved last (a itself when already so), and the
// permutation used.
NDArray rows_with_axis_last(const NDArray& a, int64_t axis, Dims& perm);

// np.sort / np.argsort along a normalised axis (a.ndim >= 1). The result has a's shape;
// its memory is C-ordered with `axis` last (a transposed view when axis is not last).
NDArray sort_array(const NDArray& a, int64_t axis);
NDArray argsort_array(const NDArray& a, int64_t axis);  // int64, stable
// ndarray.sort: sorts `a` in place along `axis`.
void sort_inplace(const NDArray& a, int64_t axis);
// np.lexsort: keys of one shape (ndim >= 1), the last key primary.
NDArray lexsort_array(const std::vector<NDArray>& keys, int64_t axis);

// np.searchsorted(a, v, side, sorter): a is 1-d; v any shape, of a's dtype; int64 result
// of v's shape. sorter (may be null): int64 1-d of a's size.
NDArray searchsorted_array(const NDArray& a, const NDArray& v, bool right,
                           const NDArray* sorter);

// np.unique of the flattened array (sorted unique values and the optional extras).
struct UniqueResult {
  NDArray values, index, inverse, counts;  // index/inverse/counts int64, when asked for
};
UniqueResult unique_array(const NDArray& a, bool want_index, bool want_inverse,
                          bool want_counts, bool equal_nan);

// np.bincount: x 1-d int64 (non-negative checked here: ValueError), weights float64 1-d
// of x's size or null; result int64 (float64 with weights) of max(max(x)+1, minlength).
NDArray bincount_array(const NDArray& x, const NDArray* weights, int64_t minlength);

// Minimum and maximum of a real array as doubles (NaN when any element is NaN); one
// small read. Used for histogram's automatic range.
void minmax_array(const NDArray& a, double& lo, double& hi);

// np.histogram's counting: a (any shape, real), edges float64 1-d (nbins + 1, on the
// device), uniform: the equal-bin fast path with first/last/norm as NumPy computes them.
// weights: float64 of a's shape or null. Result float64 (weights) or int64 counts, of
// nbins. density: hist / widths / sum(hist), float64 (widths: NumPy's float(diff(edges))).
NDArray histogram_array(const NDArray& a, const NDArray* weights, const NDArray& edges,
                        bool uniform, double first, double last, double norm, bool density,
                        const NDArray* widths);

// Order statistics of sorted rows (nseg x n, C-contiguous, NaNs last): for each of the nq
// requests, out[q, s] from the elements prev[q] and next[q] of row s.
//   mode 0 (take): out = row[prev]                      (out dtype = row dtype)
//   mode 1 (lerp): NumPy's _lerp(row[prev], row[next], gamma[q]) in `out_dtype`; with
//                  weak_gamma the (1 - gamma) of NumPy's Python float is kept in double.
//   mode 2 (median): mean of row[prev] and row[next] as np.mean computes it.
// Rows whose last element is NaN give NaN (modes 1, 2; mode 0 for float rows too).
NDArray quantile_sorted_rows(const NDArray& rows, const std::vector<int64_t>& prev,
                             const std::vector<int64_t>& next, const std::vector<double>& gamma,
                             int mode, DType out_dtype);

// The NaN-ignoring variant (nanmedian/nanquantile): row s uses only its first counts[s]
// elements (int64 per row, from nonnan_counts_sorted_rows), with the nq parameters of the
// block k where sizes[k] == counts[s] (sizes ascending, in [1, n]; prev/next/gamma hold
// nq values per block, at k * nq + q). Rows with counts[s] == 0 give NaN.
NDArray quantile_sorted_rows_nan(const NDArray& rows, const NDArray& counts,
                                 const std::vector<int64_t>& sizes, int64_t nq,
                                 const std::vector<int64_t>& prev,
                                 const std::vector<int64_t>& next,
                                 const std::vector<double>& gamma, int mode, DType out_dtype);
// The number of non-NaN elements of each sorted row (n for integer rows), int64 (nseg,).
NDArray nonnan_counts_sorted_rows(const NDArray& rows);

}  // namespace gpuarr
