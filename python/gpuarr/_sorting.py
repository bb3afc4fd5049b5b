"""Sorting, searching, counting and order statistics (NumPy 2 semantics).

Sorting uses CUB radix sorts on keys whose unsigned order is NumPy's (NaNs last, -0.0 ==
0.0, complex by (class, real, imag)). ``kind`` and ``stable`` are checked as NumPy checks
them and otherwise ignored: argsort (and everything built on it) is always stable, as
``kind='stable'``; ``sort`` returns NumPy's sorted values (equal values, e.g. -0.0 and 0.0,
may come in either order, as with NumPy's default quicksort). ``partition``/``argpartition`` sort fully, which meets
their contract (CuPy does the same). Small host-side computations (bin edges, quantile
indices) run NumPy itself on a handful of values so that the rules are NumPy's.
"""

from __future__ import annotations

import functools
import operator
import warnings
from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _indexing, _reductions, _shape_ops, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, ndarray

__all__ = [
    "sort", "argsort", "lexsort", "searchsorted", "partition", "argpartition", "unique",
    "unique_values", "unique_counts", "unique_inverse", "unique_all", "bincount",
    "histogram", "median", "percentile", "quantile", "nanmedian", "nanpercentile",
    "nanquantile",
]


def _as(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _check_order(order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")


# --- sort / argsort ---------------------------------------------------------------------


def _reversed(a, axis):
    """A view of ``a`` in reverse order along ``axis`` (a valid, non-negative axis)."""
    return a[(slice(None),) * axis + (slice(None, None, -1),)]


def _check_sort_kind(kind, stable):
    """NumPy's checks of sort's ``kind`` (a name NumPy knows, by its first letter, any case)
    and ``stable`` (not both)."""
    if kind is not None and stable is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                         "Use only one of them.")
    if kind is None:
        return
    if not isinstance(kind, str):
        raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
    if not kind or kind[0].lower() not in "qhms":
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")


def _check_select_kind(kind):
    """NumPy's check of partition's ``kind``: only 'introselect'."""
    if not isinstance(kind, str):
        raise TypeError(f"select kind must be str, not {type(kind).__name__}")
    if kind != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")


def _sort_axis(axis):
    """``axis`` as an int (operator.index: TypeError for 1.0, as NumPy) or None."""
    return None if axis is None else operator.index(axis)


def _flat_axis(a, axis):
    """(array, axis) with ``axis=None`` spelt as axis 0 of the flattened array."""
    if axis is None:
        return a.reshape(-1), 0
    return a, _np.lib.array_utils.normalize_axis_index(axis, a.ndim)


def sort(a: ArrayLike, axis: AxisLike = -1, kind=None, order=None, *, stable=None,
         descending=False) -> ndarray:
    """A sorted copy (numpy.sort); ``kind`` and ``stable`` are checked as NumPy's and
    otherwise ignored, NaNs sort last. ``descending=True`` (the Array API's) gives the
    reverse order, NaNs first."""
    _check_sort_kind(kind, stable)
    _check_order(order)
    axis = _sort_axis(axis)
    if descending:
        a, axis = _flat_axis(_as(a), axis)
        return _reversed(_core._sort(a, axis), axis)
    return _core._sort(_as(a), axis)


def argsort(a: ArrayLike, axis: AxisLike = -1, kind=None, order=None, *, stable=None,
            descending=False) -> ndarray:
    """The indices that sort an array (numpy.argsort); always stable (``kind`` and ``stable``
    are checked as NumPy's and otherwise ignored). ``descending=True`` (the Array API's)
    sorts in decreasing
    order, equal elements keeping their relative order."""
    _check_sort_kind(kind, stable)
    _check_order(order)
    axis = _sort_axis(axis)
    a = _as(a)
    if a.ndim == 0 and axis is not None:
        axis = None  # NumPy: argsort of a 0-d array is array([0])
    if descending:
        # The stable ascending order of the reversed input, reversed and mapped back to the
        # input's positions: decreasing order that keeps equal elements in input order.
        a, axis = _flat_axis(a, axis)
        r = _core._argsort(_reversed(a, axis), axis)
        return (a.shape[axis] - 1) - _reversed(r, axis)
    return _core._argsort(a, axis)


def _method_sort(self, axis=-1, kind=None, order=None, *, stable=None):
    _check_sort_kind(kind, stable)
    _check_order(order)
    _core._sort_inplace(self, operator.index(axis))


def _method_argsort(self, axis=-1, kind=None, order=None, *, stable=None):
    return argsort(self, axis, kind, order, stable=stable)


def _kth_list(kth):
    k = _np.asarray(kth.get() if isinstance(kth, _ndarray) else kth)
    if k.dtype.kind not in "iu":
        if k.dtype.kind == "b":
            raise TypeError("Partitioning with boolean index")
        raise TypeError("Partition index must be integer")
    if k.ndim > 1:
        raise ValueError("kth array must have dimension <= 1")
    return [int(x) for x in k.reshape(-1)]


def _partition_args(a, kth, axis, kind, flat_0d=False):
    """The array and axis to partition, after NumPy's checks: kind, then the axis, then kth
    (its type always; its range only for a non-empty array, as NumPy). ``flat_0d``:
    argpartition takes a 0-d array as 1-d."""
    _check_select_kind(kind)
    a = _as(a)
    if axis is None or (flat_0d and a.ndim == 0):
        a = a.reshape(-1)
        axis = 0 if axis is None else axis
    axis = operator.index(axis)
    n = a.shape[_np.lib.array_utils.normalize_axis_index(axis, a.ndim)] if a.ndim else 0
    if a.ndim == 0:
        _np.lib.array_utils.normalize_axis_index(axis, 0)  # AxisError as NumPy
    ks = _kth_list(kth)
    if a.size:
        for k in ks:
            _core._normalize_kth(k, n)
    return a, axis


def partition(a: ArrayLike, kth, axis: AxisLike = -1, kind="introselect", order=None) -> ndarray:
    """A partitioned copy (numpy.partition); sorts fully, which meets the contract."""
    _check_order(order)
    a, axis = _partition_args(a, kth, axis, kind)
    return _core._sort(a, axis)


def argpartition(a: ArrayLike, kth, axis: AxisLike = -1, kind="introselect",
                 order=None) -> ndarray:
    """Indices that partition an array (numpy.argpartition); sorts fully, which meets the
    contract."""
    _check_order(order)
    a, axis = _partition_args(a, kth, axis, kind, flat_0d=True)
    return _core._argsort(a, axis)


def _method_partition(self, kth, axis=-1, kind="introselect", order=None):
    _check_order(order)
    a, ax = _partition_args(self, kth, axis, kind)
    _core._sort_inplace(self, ax)


def _method_argpartition(self, kth, axis=-1, kind="introselect", order=None):
    return argpartition(self, kth, axis, kind, order)


def lexsort(keys, axis: AxisLike = -1) -> ndarray:
    """Indirect stable sort by several keys, the last key primary (numpy.lexsort)."""
    if isinstance(keys, _ndarray):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    elif isinstance(keys, _np.ndarray):
        keys = [keys[i] for i in range(keys.shape[0])] if keys.ndim else []
    else:
        keys = list(keys)
    if len(keys) == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    keys = [_as(k) for k in keys]
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:
        return _core.zeros((), dtype=_np.int64)
    return _core._lexsort(keys, axis)


# --- searchsorted -----------------------------------------------------------------------


def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left", sorter=None) -> ndarray:
    """Indices where ``v`` would be inserted to keep ``a`` sorted (numpy.searchsorted)."""
    a = _as(a)
    if side not in ("left", "right"):
        raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")
    if a.ndim != 1:
        raise ValueError(
            "object of too small depth for desired array" if a.ndim == 0
            else "object too deep for desired array")
    if isinstance(v, _ndarray):
        vdt = v.dtype
    else:
        v = _np.asarray(v)
        vdt = v.dtype
    common = _np.result_type(a.dtype, vdt)
    a = a.astype(common, copy=False)
    v = _as(v).astype(common, copy=False) if isinstance(v, _ndarray) else _core.asarray(v, dtype=common)
    if sorter is not None:
        sorter = _as(sorter)
        if sorter.dtype.kind not in "iu":
            raise TypeError("sorter must only contain integers")
        if sorter.ndim != 1 or sorter.size != a.size:
            raise ValueError("sorter.size must equal a.size")
        sorter = sorter.astype(_np.int64, copy=False)
        if sorter.size and v.size:
            lo, hi = _core._minmax(sorter)  # two scalars read back: the kernel trusts them
            if lo < 0 or hi >= sorter.size:
                raise ValueError("Sorter index out of range.")
    return _core._searchsorted(a, v, side == "right", sorter)


def _method_searchsorted(self, v, side="left", sorter=None):
    return searchsorted(self, v, side, sorter)


# --- unique -----------------------------------------------------------------------------


def _unique_axis(ar, axis, return_index, return_inverse, return_counts):
    """numpy.unique along ``axis`` of an array of 2 or more dimensions: the slices along
    the axis compared as NumPy compares its structured rows, field by field in order with
    the element dtype's order (NaNs last, -0.0 == 0.0, complex by NumPy's sort order); a
    slice holding a NaN equals no other (``equal_nan`` does not apply, as in NumPy). The
    indices are int64 and the inverse 1-d, as NumPy's."""
    ax = _np.lib.array_utils.normalize_axis_index(axis, ar.ndim)
    moved = _shape_ops.moveaxis(ar, ax, 0)
    n, rest = moved.shape[0], moved.shape[1:]
    m = 1
    for d in rest:
        m *= d
    i64 = _np.dtype(_np.int64)
    if n == 0 or m == 0:
        # No slices, or slices without elements (all equal: one of them, counted n times).
        k = min(n, 1)
        values = moved[:k]
        index = _core.zeros((k,), dtype=i64)
        inverse = _core.zeros((n,), dtype=i64)
        counts = _core.full((k,), n, dtype=i64)
    else:
        rows = moved.reshape(n, m)
        # The first element of a slice is its primary key (lexsort's last key), and the
        # sort is stable, so the first of equal slices keeps its place (return_index).
        order = _core._lexsort([rows[:, j] for j in range(m - 1, -1, -1)], 0)
        srt = rows[order]
        head = _core.full((1,), True, dtype=_np.bool_)
        if n > 1:
            differs = _reductions.any(_ufuncs.not_equal(srt[1:], srt[:-1]), axis=1)
            mask = _shape_ops.concatenate([head, differs])
        else:
            mask = head
        first = _indexing.flatnonzero(mask)
        values = srt[first].reshape((first.shape[0],) + rest)
        index = order[first]
        inverse = _core.empty((n,), dtype=i64)
        inverse[order] = _ufuncs.subtract(_reductions.cumsum(mask), 1)
        counts = _ufuncs.subtract(
            _shape_ops.concatenate([first[1:], _core.full((1,), n, dtype=i64)]), first)
    values = _shape_ops.moveaxis(values, 0, ax)
    if not (return_index or return_inverse or return_counts):
        return values
    out = [values]
    if return_index:
        out.append(index)
    if return_inverse:
        out.append(inverse)
    if return_counts:
        out.append(counts)
    return tuple(out)


def unique(ar: ArrayLike, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: AxisLike = None, *, equal_nan: bool = True,
           sorted=True):
    """The sorted unique elements, with optional indices, inverse and counts (numpy.unique).

    Parameters
    ----------
    ar : array_like
        Input array; flattened unless ``axis`` is given.
    return_index : bool, optional
        Also return the index of the first occurrence of each unique value.
    return_inverse : bool, optional
        Also return the indices that rebuild ``ar`` from the unique values (``ar``'s shape
        with ``axis=None``, 1-d along an axis, as NumPy 2).
    return_counts : bool, optional
        Also return how many times each unique value occurs.
    axis : int, optional
        The axis whose slices are compared (any axis, negative counting from the end);
        slices holding a NaN are all distinct, as in NumPy.
    equal_nan : bool, optional
        With ``axis=None``: count all NaNs as one value.
    sorted : bool, optional
        Accepted; the result is always sorted (allowed by NumPy's contract).

    Returns
    -------
    ndarray or tuple of ndarray
        The unique values, then the requested index arrays (int64).
    """
    ar = _as(ar)
    if axis is not None and ar.ndim != 1:
        return _unique_axis(ar, axis, return_index, return_inverse, return_counts)
    if axis is not None:
        _np.lib.array_utils.normalize_axis_index(axis, ar.ndim)
    values, index, inverse, counts = _core._unique(
        ar, bool(return_index), bool(return_inverse), bool(return_counts), bool(equal_nan))
    if not (return_index or return_inverse or return_counts):
        return values
    out = [values]
    if return_index:
        out.append(index)
    if return_inverse:
        # NumPy 2: with axis=None the inverse has the input's shape (unique[inv] == ar).
        out.append(inverse.reshape(ar.shape) if axis is None else inverse)
    if return_counts:
        out.append(counts)
    return tuple(out)


UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def unique_values(x: ArrayLike) -> ndarray:
    """The unique elements (the Array API's ``unique_values``)."""
    return unique(x, equal_nan=False)


def unique_counts(x: ArrayLike):
    """The unique elements and their counts (the Array API's ``unique_counts``)."""
    v, c = unique(x, return_counts=True, equal_nan=False)
    return UniqueCountsResult(v, c)


def unique_inverse(x: ArrayLike):
    """The unique elements and the inverse indices (the Array API's ``unique_inverse``)."""
    v, inv = unique(x, return_inverse=True, equal_nan=False)
    return UniqueInverseResult(v, inv)


def unique_all(x: ArrayLike):
    """The unique elements, first indices, inverse indices and counts (the Array API's
    ``unique_all``)."""
    v, i, inv, c = unique(x, return_index=True, return_inverse=True, return_counts=True,
                          equal_nan=False)
    return UniqueAllResult(v, i, inv, c)


# --- counting ---------------------------------------------------------------------------


def bincount(x: ArrayLike, weights: ArrayLike | None = None, minlength=0) -> ndarray:
    """Count the occurrences of each non-negative integer, optionally weighted (numpy.bincount)."""
    x = _as(x)
    if x.ndim != 1:
        raise ValueError("object of too small depth for desired array" if x.ndim == 0
                         else "object too deep for desired array")
    if x.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    minlength = operator.index(minlength)
    if weights is not None:
        weights = _as(weights)
        if weights.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
        if weights.dtype.kind == "c":
            raise TypeError("Cannot cast array data from dtype('complex128') to "
                            "dtype('float64') according to the rule 'safe'")
    return _core._bincount(x, weights, minlength)


def _bin_edges(a, bins, range, weights=None):
    """NumPy's own edge computation, run on at most two host values (the device min and
    max when the range is automatic)."""
    if isinstance(bins, str):
        # NumPy's estimators on the device data (a few statistics read back); they refuse
        # weights and unknown names as NumPy does.
        bins = _estimated_bin_count(a.reshape(-1), bins, range, weights)
    if isinstance(bins, _ndarray):
        bins = bins.get()
    if range is None and _np.ndim(bins) == 0:
        proxy = _min_max(a)
    else:
        proxy = _np.empty(0, dtype=a.dtype)
    edges = _np.histogram_bin_edges(proxy, bins, range)  # NumPy's checks and messages
    if _np.ndim(bins) != 0:
        return edges, None
    # Equal bins: the kernel computes the bin of x as (x - first) * norm, with NumPy's values.
    if proxy.dtype == _np.bool_:  # as numpy.histogram: bool data counts as uint8
        proxy = proxy.astype(_np.uint8)
    first, last = _outer_edges(proxy, range)
    norm = operator.index(bins) / _unsigned_subtract(last, first)
    return edges, (float(first), float(last), float(norm))


# --- NumPy's bin-width estimators and edges, on the device data -------------------


_range = range  # the estimators' parameter ``range`` (NumPy's name) hides the builtin


def _scalar(x):
    """The host value of a device 0-d result, as a NumPy scalar."""
    return _core.asnumpy(x)[()] if isinstance(x, _ndarray) else x


def _min_max(a):
    """A host array of ``a``'s dtype holding its minimum and maximum (empty for empty
    ``a``), from one device pass: every value that NumPy's automatic edges read."""
    if a.size == 0:
        return _np.empty(0, a.dtype)
    return _np.array(_core._minmax(a)).astype(a.dtype)


_SIGNED_TO_UNSIGNED = {_np.byte: _np.ubyte, _np.short: _np.ushort, _np.intc: _np.uintc,
                       _np.int_: _np.uint, _np.longlong: _np.ulonglong}


def _unsigned_subtract(a, b):
    # a - b for a >= b without overflow: signed integers subtract in their unsigned type.
    dt = _np.result_type(a, b)
    unsigned = _SIGNED_TO_UNSIGNED.get(dt.type)
    if unsigned is None:
        return _np.subtract(a, b, dtype=dt)
    return _np.subtract(_np.asarray(a, dtype=dt), _np.asarray(b, dtype=dt),
                        casting="unsafe", dtype=unsigned)


def _outer_edges(proxy, range):
    """NumPy's first and last edge (with its checks) from the min/max proxy."""
    if range is not None:
        first_edge, last_edge = range
        if first_edge > last_edge:
            raise ValueError("max must be larger than min in range parameter.")
        if not (_np.isfinite(first_edge) and _np.isfinite(last_edge)):
            raise ValueError(f"supplied range of [{first_edge}, {last_edge}] is not finite")
    elif proxy.size == 0:
        first_edge, last_edge = 0, 1
    else:
        first_edge, last_edge = proxy.min(), proxy.max()
        if not (_np.isfinite(first_edge) and _np.isfinite(last_edge)):
            raise ValueError(
                f"autodetected range of [{first_edge}, {last_edge}] is not finite")
    if first_edge == last_edge:
        first_edge = first_edge - 0.5
        last_edge = last_edge + 0.5
    return first_edge, last_edge


# --- NumPy's bin-width estimators, on the device data (x is non-empty, trimmed to range) ---


def _ptp(x):
    proxy = _min_max(x)
    return _unsigned_subtract(proxy[1], proxy[0])


def _bin_sqrt(x, range):
    return _ptp(x) / _np.sqrt(x.size)


def _bin_sturges(x, range):
    return _ptp(x) / (_np.log2(x.size) + 1.0)


def _bin_rice(x, range):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _bin_scott(x, range):
    return (24.0 * _np.pi**0.5 / x.size)**(1.0 / 3.0) * _scalar(_reductions.std(x))


def _bin_stone(x, range):
    n = x.size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0

    def jhat(nbins):
        hh = ptp_x / nbins
        p_k = _core.asnumpy(histogram(x, bins=nbins, range=range)[0]) / n
        return (2 - (n + 1) * p_k.dot(p_k)) / hh

    nbins_upper_bound = max(100, int(_np.sqrt(n)))
    nbins = min(_range(1, nbins_upper_bound + 1), key=jhat)
    if nbins == nbins_upper_bound:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning,
                      stacklevel=3)
    return ptp_x / nbins



def _bin_doane(x, range):
    if x.size > 2:
        sg1 = _np.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        sigma = _scalar(_reductions.std(x))
        if sigma > 0.0:
            temp = _ufuncs.subtract(x, _reductions.mean(x))
            temp = _ufuncs.true_divide(temp, sigma)
            temp = _ufuncs.power(temp, 3)
            g1 = _scalar(_reductions.mean(temp))
            return _ptp(x) / (1.0 + _np.log2(x.size) + _np.log2(1.0 + _np.absolute(g1) / sg1))
    return 0.0


def _bin_fd(x, range):
    q = _core.asnumpy(percentile(x, [75, 25]))
    iqr = _np.subtract(*q)
    return 2.0 * iqr * x.size ** (-1.0 / 3.0)


def _bin_auto(x, range):
    fd_bw = _bin_fd(x, range)
    sturges_bw = _bin_sturges(x, range)
    sqrt_bw = _bin_sqrt(x, range)
    fd_bw_corrected = max(fd_bw, sqrt_bw / 2)
    return min(fd_bw_corrected, sturges_bw)


_BIN_SELECTORS = {"stone": _bin_stone, "auto": _bin_auto, "doane": _bin_doane, "fd": _bin_fd,
                  "rice": _bin_rice, "scott": _bin_scott, "sqrt": _bin_sqrt,
                  "sturges": _bin_sturges}


def _estimated_bin_count(a, bins, range, weights):
    if bins not in _BIN_SELECTORS:
        raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
    if weights is not None:
        raise TypeError("Automated estimation of the number of bins is not supported for "
                        "weighted data")
    first_edge, last_edge = _outer_edges(_min_max(a) if range is None else
                                         _np.empty(0, a.dtype), range)
    if range is not None:
        keep = _ufuncs.logical_and(_ufuncs.greater_equal(a, first_edge),
                                   _ufuncs.less_equal(a, last_edge))
        if not bool(_reductions.all(keep)):
            a = a[keep]
    if a.size == 0:
        return 1
    width = _BIN_SELECTORS[bins](a, (first_edge, last_edge))
    if not width:
        return 1
    if _np.issubdtype(a.dtype, _np.integer) and width < 1:
        width = 1
    return int(_np.ceil(_unsigned_subtract(last_edge, first_edge) / width))


def histogram(a: ArrayLike, bins=10, range=None, density=None, weights: ArrayLike | None = None):
    """Histogram of a dataset with NumPy's bin edges (numpy.histogram).

    Parameters
    ----------
    a : array_like
        Input data (real; complex values are not supported), flattened.
    bins : int or sequence of scalars, optional
        The number of equal-width bins in ``range``, the bin edges, or the name of one of
        NumPy's bin-width estimators ('auto', 'fd', 'doane', 'scott', 'stone', 'rice',
        'sturges', 'sqrt'; not with ``weights``, as NumPy).
    range : (float, float), optional
        The lower and upper edge of equal bins (default: the data's minimum and maximum).
    density : bool, optional
        Return the probability density (counts / total / bin width) instead of counts.
    weights : array_like, optional
        A weight for each value of ``a`` (same shape): each bin holds the sum of its
        weights, in the weights' dtype; complex weights give complex sums, as NumPy's.

    Returns
    -------
    hist : ndarray
        The counts (int64), sums of weights, or densities.
    bin_edges : ndarray
        The ``len(hist) + 1`` bin edges (float64, or as NumPy makes them).
    """
    a = _as(a)
    if a.dtype.kind == "c":
        raise NotImplementedError("gpuarr.histogram of complex values is not supported")
    if weights is not None:
        weights = _as(weights)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
    edges, uniform = _bin_edges(a, bins, range, weights)
    edges_dev = _core.asarray(edges.astype(_np.float64))
    first, last, norm = uniform if uniform is not None else (0.0, 0.0, 0.0)

    def counts(w, dens):
        widths = _core.asarray(_np.array(_np.diff(edges), float)) if dens else None
        hist = _core._histogram(a, w, edges_dev, uniform is not None, first, last, norm,
                                bool(dens), widths)
        if w is not None and not dens and hist.dtype != w.dtype:
            hist = hist.astype(w.dtype)
        return hist

    if weights is None or weights.dtype.kind != "c":
        return counts(weights, density), _core.asarray(edges)
    # Complex weights: NumPy sums the real and imaginary parts apart (equal bins), or takes
    # differences of the complex cumulative sum (given edges: the same sums, rounded
    # otherwise), in the weights' dtype; a density is then n / widths / n.sum().
    hist = _core.empty((len(edges) - 1,), dtype=weights.dtype)
    hist.real[...] = counts(weights.real, False)
    hist.imag[...] = counts(weights.imag, False)
    if density:
        widths = _core.asarray(_np.array(_np.diff(edges), float))
        hist = _ufuncs.true_divide(_ufuncs.true_divide(hist, widths), _reductions.sum(hist))
    return hist, _core.asarray(edges)


# --- order statistics -------------------------------------------------------------------


def _reduced_axes(a, axis):
    if axis is None:
        return None, tuple(range(a.ndim))
    axes = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    return axes, axes


def _out_shape(a, axes, keepdims):
    if keepdims:
        return tuple(1 if d in axes else s for d, s in enumerate(a.shape))
    return tuple(s for d, s in enumerate(a.shape) if d not in axes)


def _write_out(res, out, rule):
    """Writes ``res`` into ``out`` by the rule of the NumPy operation that writes it:
    "reduce" (a ufunc reduction: exact dimensions and shape, any dtype), "take" (exact
    shape, any dtype), "add" (a ufunc: the output cast 'same_kind', checked first, then
    ``res`` broadcast to out's shape), "assign" (``out[...] = res``)."""
    if rule == "assign":
        out[...] = res
        return
    if rule == "reduce":
        _reductions._check_out(out, res.shape)
    elif not isinstance(out, _ndarray):
        raise TypeError("return arrays must be of ArrayType")
    elif rule == "take":
        if tuple(out.shape) != tuple(res.shape):
            raise ValueError("output array does not match result of ndarray.take")
    else:
        if not _np.can_cast(res.dtype, out.dtype, "same_kind"):
            raise _reductions._cast_error(rule, res.dtype, out.dtype)
        try:
            fits = _np.broadcast_shapes(tuple(res.shape), tuple(out.shape)) == tuple(out.shape)
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"non-broadcastable output operand with shape {tuple(out.shape)} "
                             f"doesn't match the broadcast shape {tuple(res.shape)}")
    out[...] = res


def _finish(res, out, rule="assign", a=None, axes=(), keepdims=False):
    """The result, or ``out`` holding it. With keepdims, NumPy's _ureduce hands the function
    out indexed at 0 along the reduced axes (IndexError where out has too few dimensions),
    and ``res`` is the result without the kept dimensions."""
    if out is None:
        return res
    target = out
    if keepdims and a is not None:
        target = out[(Ellipsis,) + tuple(0 if d in axes else slice(None) for d in range(a.ndim))]
    _write_out(res, target, rule)
    return out


def _complex_median_rows(a, axes_arg, nan_ignoring, all_reduced):
    """The median of each reduced slice of a complex array, as NumPy computes it: the
    slices sorted (lexicographically, elements with a NaN part last), then the mean of the
    middle one or two, ``x / 1`` or ``(x + y) / 2`` in the complex dtype (NumPy's np.mean).

    Without ``nan_ignoring`` a slice whose last sorted element has a NaN part gives that
    element (NumPy's _median_nancheck). With it, the elements with a NaN part are left out
    and NumPy's nanmedian has two routes: one slice (``all_reduced``) or slices of 600 or
    more go through np.median of the rest (as above; an all-NaN slice gives its last
    element); shorter slices along an axis through a masked median, whose middle of an odd
    count is ``(x + x) / 2`` and whose all-NaN slice gives ``nan+0j``. Returns one value per
    slice (1-d)."""
    rows = _core._sorted_rows(a, axes_arg)
    n = rows.shape[-1]
    if not nan_ignoring:
        p, q = ((n - 1) // 2,) * 2 if n % 2 else (n // 2 - 1, n // 2)
        lo, hi = rows[:, p], rows[:, q]
        res = _ufuncs.true_divide(lo, 1) if p == q else _ufuncs.true_divide(
            _ufuncs.add(lo, hi), 2)
        last = rows[:, n - 1]
        return _indexing.where(_ufuncs.isnan(last), last, res)
    counts = _reductions.sum(_ufuncs.logical_not(_ufuncs.isnan(rows)), axis=-1)
    lo_idx = _ufuncs.floor_divide(_ufuncs.subtract(counts, 1), 2)
    lo_idx = _indexing.where(_ufuncs.less(lo_idx, 0), 0, lo_idx)
    hi_idx = _ufuncs.floor_divide(counts, 2)
    hi_idx = _indexing.where(_ufuncs.greater_equal(hi_idx, n), n - 1, hi_idx)
    lo = _indexing.take_along_axis(rows, lo_idx[:, None], axis=-1)[:, 0]
    hi = _indexing.take_along_axis(rows, hi_idx[:, None], axis=-1)[:, 0]
    odd = _ufuncs.equal(lo_idx, hi_idx)
    mean2 = _ufuncs.true_divide(_ufuncs.add(lo, hi), 2)
    masked_route = not all_reduced and n < 600
    res = _indexing.where(odd, mean2 if masked_route else _ufuncs.true_divide(lo, 1), mean2)
    empty = _ufuncs.equal(counts, 0)
    if bool(_reductions.any(empty)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)
        if masked_route:
            res = _indexing.where(empty, complex(_np.nan, 0), res)
        else:
            # The slice's last element in its own order (all of them have a NaN part).
            axes = _reduced_axes(a, axes_arg)[1]
            unsorted = _shape_ops.moveaxis(a, axes, tuple(range(-len(axes), 0)))
            last = unsorted.reshape(rows.shape)[:, n - 1]
            res = _indexing.where(empty, last, res)
    return res.astype(a.dtype, copy=False)


def median(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None, overwrite_input=False,
           keepdims: bool = False) -> ndarray:
    """Median along the given axes (numpy.median).

    Parameters
    ----------
    a : array_like
        Input data; complex values are ordered as NumPy sorts them (real part, then
        imaginary part, elements with a NaN part last).
    axis : int or tuple of ints, optional
        The axes to reduce (default: all).
    out : ndarray, optional
        Where to put the result.
    overwrite_input : bool, optional
        Accepted and ignored (the input is never modified).
    keepdims : bool, optional
        Keep the reduced axes as size-1 dimensions.

    Returns
    -------
    ndarray
        The median; NaN where a reduced slice holds a NaN, as NumPy.
    """
    return _median(_as(a), axis, out, keepdims, "reduce")


def _median(a, axis, out, keepdims, rule):
    """median; ``rule`` writes out= (_write_out): numpy.median's is np.mean's (a
    reduction), nanmedian's an assignment."""
    axes_arg, axes = _reduced_axes(a, axis)
    n = 1
    for d in axes:
        n *= a.shape[d]
    keep = keepdims and out is None
    if a.size == 0 or n == 0:
        # NumPy's own result (NaN with its warning, or its error) on the empty host array.
        return _finish(_core.asarray(_np.asarray(_np.median(
            _np.zeros(a.shape, a.dtype), axis=axis, keepdims=keep))), out, rule, a, axes,
            keepdims)
    if a.dtype.kind == "c":
        res = _complex_median_rows(a, axes_arg, False, True)
        return _finish(res.reshape(_out_shape(a, axes, keep)), out, rule, a, axes, keepdims)
    out_dtype = _np.median(_np.zeros(2, a.dtype)).dtype
    rows = _core._sorted_rows(a, axes_arg)
    if n % 2:
        p = q = (n - 1) // 2
    else:
        p, q = n // 2 - 1, n // 2
    res = _core._quantile_rows(rows, [p], [q], [0.0], 2, out_dtype)
    return _finish(res.reshape(_out_shape(a, axes, keep)), out, rule, a, axes, keepdims)


# NumPy's quantile methods (numpy.quantile's ``method``): for n sorted values, the virtual
# index of each quantile and the rule that adjusts the interpolation weight gamma. The
# formulas and their floating-point order are NumPy's, so that indexes and weights are
# bit-identical to NumPy's.


def _virtual_index(n, quantiles, alpha, beta):
    return n * quantiles + (alpha + quantiles * (1 - alpha - beta)) - 1


def _gamma_mask(shape, default_value, conditioned_value, where):
    out = _np.full(shape, default_value)
    _np.copyto(out, conditioned_value, where=where, casting="unsafe")
    return out


def _discrete_index(index, condition):
    previous = _np.floor(index)
    res = _gamma_mask(index.shape, previous + 1, previous,
                      condition(index - previous, index)).astype(_np.intp)
    res[res < 0] = 0  # some methods give out-of-bounds indexes
    return res


def _continuous(alpha, beta):
    return {"get_virtual_index": lambda n, q: _virtual_index(n, q, alpha, beta),
            "fix_gamma": lambda gamma, _: gamma}


_QUANTILE_METHODS = {
    "inverted_cdf": {
        "get_virtual_index": lambda n, q: _discrete_index(n * q - 1, lambda g, _: g == 0),
        "fix_gamma": None},
    "averaged_inverted_cdf": {
        "get_virtual_index": lambda n, q: n * q - 1,
        "fix_gamma": lambda gamma, _: _gamma_mask(gamma.shape, 1.0, 0.5, gamma == 0)},
    "closest_observation": {
        # the nearest even order statistic at g == 0 (1-based: odd 0-based indexes)
        "get_virtual_index": lambda n, q: _discrete_index(
            n * q - 1 - 0.5, lambda g, index: (g == 0) & (_np.floor(index) % 2 == 1)),
        "fix_gamma": None},
    "interpolated_inverted_cdf": _continuous(0, 1),
    "hazen": _continuous(0.5, 0.5),
    "weibull": _continuous(0, 0),
    # (n - 1) * q rather than _virtual_index(n, q, 1, 1): equal, with less rounding
    "linear": {"get_virtual_index": lambda n, q: (n - 1) * q,
               "fix_gamma": lambda gamma, _: gamma},
    "median_unbiased": _continuous(1 / 3.0, 1 / 3.0),
    "normal_unbiased": _continuous(3 / 8.0, 3 / 8.0),
    "lower": {"get_virtual_index": lambda n, q: _np.floor((n - 1) * q).astype(_np.intp),
              "fix_gamma": None},
    "higher": {"get_virtual_index": lambda n, q: _np.ceil((n - 1) * q).astype(_np.intp),
               "fix_gamma": None},
    "midpoint": {
        "get_virtual_index": lambda n, q: 0.5 * (_np.floor((n - 1) * q)
                                                 + _np.ceil((n - 1) * q)),
        "fix_gamma": lambda gamma, index: _gamma_mask(gamma.shape, 0.5, 0.0, index % 1 == 0)},
    "nearest": {"get_virtual_index": lambda n, q: _np.around((n - 1) * q).astype(_np.intp),
                "fix_gamma": None},
}


def _quantile_method(method):
    try:
        return _QUANTILE_METHODS[method]
    except KeyError:
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"{_QUANTILE_METHODS.keys()}") from None


def _neighbour_indexes(dtype, virtual_indexes, n):
    """The indexes below and above each virtual index, clamped to [0, n) as NumPy's
    (-1 stands for the last value)."""
    previous = _np.array(_np.floor(virtual_indexes))
    nxt = _np.array(previous + 1)
    above = virtual_indexes >= n - 1
    previous[above] = -1
    nxt[above] = -1
    below = virtual_indexes < 0
    previous[below] = 0
    nxt[below] = 0
    if _np.issubdtype(dtype, _np.inexact):
        nans = _np.isnan(virtual_indexes)
        previous[nans] = -1
        nxt[nans] = -1
    return previous.astype(_np.intp), nxt.astype(_np.intp)


def _gamma(virtual_indexes, previous_indexes, props):
    gamma = _np.asanyarray(virtual_indexes - previous_indexes)
    return _np.asanyarray(props["fix_gamma"](gamma, virtual_indexes),
                          dtype=virtual_indexes.dtype)


def _lerp_dtype(dtype, t):
    """The dtype of NumPy's interpolation ``a + (b - a) * t`` between values of ``dtype``."""
    a = _np.zeros(1, dtype)
    return _np.asarray(a + (a - a) * t).dtype


def _quantile_params(n, q, props, method, dtype, weak_q):
    """NumPy's order statistics for rows of n sorted values: (prev, next, gamma, mode,
    out_dtype), prev/next int64 in [0, n) and gamma float64, one per element of q, computed
    by NumPy's own _quantile helpers on the host (n as a Python int, as NumPy has it)."""
    vi = _np.asanyarray(props["get_virtual_index"](n, q))
    if props["fix_gamma"] is None or (method == "linear" and vi.dtype.kind in "iu"):
        prev = vi.astype(_np.int64).reshape(-1)
        prev = _np.where(prev < 0, prev + n, prev)
        return prev, prev, _np.zeros(prev.size), 0, dtype
    p, nx = _neighbour_indexes(_np.dtype(dtype), vi, n)
    g = _gamma(vi, p, props)
    sample = float(g.reshape(-1)[0]) if weak_q else g.reshape(-1)[:1]
    out_dtype = _lerp_dtype(dtype, sample)
    prev = p.reshape(-1).astype(_np.int64)
    nxt = nx.reshape(-1).astype(_np.int64)
    prev = _np.where(prev < 0, prev + n, prev)
    nxt = _np.where(nxt < 0, nxt + n, nxt)
    return prev, nxt, g.reshape(-1).astype(_np.float64), 1, out_dtype


def _quantile_impl(a, q, axis, out, method, keepdims, weights, weak_q, out_rule=None):
    """``out_rule``: how out= is written (None: numpy.quantile's, by the method: take()
    for the methods that pick a value, the ufunc add of its interpolation otherwise)."""
    if weights is not None:
        raise NotImplementedError("gpuarr.quantile: weights are not supported")
    props = _quantile_method(method)
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    axes_arg, axes = _reduced_axes(a, axis)
    keep = keepdims and out is None
    n = 1
    for d in axes:
        n *= a.shape[d]
    if a.size == 0 or n == 0:
        h = _np.quantile(_np.zeros(a.shape, a.dtype), q, axis=axis, method=method,
                         keepdims=keep)
        return _finish(_core.asarray(_np.asarray(h)), out, out_rule or "assign", a, axes,
                       keepdims)
    prev, nxt, gamma, mode, out_dtype = _quantile_params(n, q, props, method, a.dtype, weak_q)
    rows = _core._sorted_rows(a, axes_arg)
    res = _core._quantile_rows(rows, prev.tolist(), nxt.tolist(), gamma.tolist(), mode,
                               out_dtype)
    rule = out_rule or ("take" if mode == 0 else "add")
    return _finish(res.reshape(q.shape + _out_shape(a, axes, keep)), out, rule, a, axes,
                   keepdims)


@functools.cache
def _numpy_all_nan_first_slice_keeps_dtype():
    """Whether this NumPy's nanquantile gives the result a's dtype when the first slice is
    all NaN (apply_along_axis takes the first slice's dtype, and NumPy before 2.5.5 made an
    all-NaN slice's NaN in a's dtype), rather than the quantile's dtype as for any other
    slice (NumPy 2.5.5 on). Asked of NumPy once, on one element."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        h = _np.nanquantile(_np.full(1, _np.nan, _np.float32), _np.zeros(1))
    return h.dtype == _np.float32


def _nan_rows(a, axes_arg, nq, params):
    """Order statistics of each reduced slice of a float array over its non-NaN values.
    params(m) gives (prev, next, gamma, mode, out_dtype) for m values. Returns the
    (nq, slices) result; all-NaN slices give NaN with NumPy's RuntimeWarning, and an all-NaN
    first slice makes the result a's dtype where the installed NumPy does so."""
    rows = _core._sorted_rows(a, axes_arg)
    counts_d = _core._nonnan_counts(rows)
    counts = counts_d.get()  # one small read: the warning and the per-size parameters
    sizes = _np.unique(counts)
    sizes = sizes[sizes > 0]
    plans = [params(int(m)) for m in sizes]
    mode, out_dtype = (plans[0] if plans else params(1))[3:]
    cat = (lambda k, t: _np.concatenate([pl[k] for pl in plans]).astype(t).tolist()
           if plans else [])
    res = _core._quantile_rows_nan(rows, counts_d, sizes.tolist(), nq, cat(0, _np.int64),
                                   cat(1, _np.int64), cat(2, _np.float64), mode, out_dtype)
    if counts.size and (counts == 0).any():
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        if (counts[0] == 0 and res.dtype != a.dtype
                and _numpy_all_nan_first_slice_keeps_dtype()):
            res = res.astype(a.dtype)
    return res


def _nan_quantile_impl(a, q, axis, out, method, keepdims, weights, weak_q):
    if a.size == 0:
        # NumPy: np.nanmean of the empty array (q ignored, any dtype), with its warning.
        h = _np.nanquantile(_np.zeros(a.shape, a.dtype), q, axis=axis, method=method,
                            keepdims=keepdims)
        return _finish(_core.asarray(_np.asarray(h)), out, "reduce")
    if a.dtype.kind != "f":
        # Nothing to ignore: NumPy's quantile of the values, written as out[...] = result.
        return _quantile_impl(a, q, axis, out, method, keepdims, weights, weak_q, "assign")
    if weights is not None:
        raise NotImplementedError("gpuarr.nanquantile: weights are not supported")
    props = _quantile_method(method)
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    axes_arg, axes = _reduced_axes(a, axis)
    keep = keepdims and out is None
    res = _nan_rows(a, axes_arg, q.size,
                    lambda m: _quantile_params(m, q, props, method, a.dtype, weak_q))
    return _finish(res.reshape(q.shape + _out_shape(a, axes, keep)), out, "assign", a, axes,
                   keepdims)


def nanmedian(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
              overwrite_input=False, keepdims: bool = False) -> ndarray:
    """Median ignoring NaNs (numpy.nanmedian).

    Parameters
    ----------
    a : array_like
        Input data; complex elements with a NaN part are left out, the rest ordered as
        NumPy sorts them (real part, then imaginary part).
    axis : int or tuple of ints, optional
        The axes to reduce (default: all).
    out : ndarray, optional
        Where to put the result.
    overwrite_input : bool, optional
        Accepted and ignored (the input is never modified).
    keepdims : bool, optional
        Keep the reduced axes as size-1 dimensions.

    Returns
    -------
    ndarray
        The median of the non-NaN values; NaN with a RuntimeWarning for an all-NaN slice.
    """
    a = _as(a)
    if a.dtype.kind not in "fc":  # no NaN possible
        return _median(a, axis, out, keepdims, "assign")
    axes_arg, axes = _reduced_axes(a, axis)
    if a.size == 0:
        # NumPy: np.nanmean of the empty array, with its warning.
        return _finish(_core.asarray(_np.asarray(_np.nanmedian(
            _np.zeros(a.shape, a.dtype), axis=axis, keepdims=keepdims))), out)
    if a.dtype.kind == "c":
        res = _complex_median_rows(a, axes_arg, True, len(axes) == a.ndim)
        return _finish(res.reshape(_out_shape(a, axes, keepdims)), out)
    out_dtype = _np.median(_np.zeros(2, a.dtype)).dtype

    def params(m):
        p, r = ((m - 1) // 2, (m - 1) // 2) if m % 2 else (m // 2 - 1, m // 2)
        return _np.array([p]), _np.array([r]), _np.zeros(1), 2, out_dtype

    res = _nan_rows(a, axes_arg, 1, params)
    return _finish(res.reshape(_out_shape(a, axes, keepdims)), out)


def _host_q(q):
    return q.get() if isinstance(q, _ndarray) else q


def _quantile_driver(impl, percent, a, q, axis, out, method, keepdims, weights,
                     interpolation):
    """The argument handling NumPy shares between quantile, percentile and their nan-forms:
    `interpolation` is the old name of `method`, complex input is refused, percentages are
    divided by 100 before the range check, and a Python-scalar q stays weak (NEP 50)."""
    if interpolation is not None:
        method = interpolation
    a = _as(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    q = _host_q(q)
    weak_q = type(q) in (int, float)
    if percent:
        q = _np.true_divide(q, 100)
    q = _np.asanyarray(q)
    if not _quantile_valid(q):
        raise ValueError("Percentiles must be in the range [0, 100]" if percent
                         else "Quantiles must be in the range [0, 1]")
    return impl(a, q, axis, out, method, keepdims, weights, weak_q)


def quantile(a: ArrayLike, q: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
             overwrite_input=False, method="linear", keepdims: bool = False, *,
             weights: ArrayLike | None = None, interpolation=None) -> ndarray:
    """The q-th quantiles along the given axes (numpy.quantile), every ``method``; ``weights``
    is not supported."""
    return _quantile_driver(_quantile_impl, False, a, q, axis, out, method, keepdims,
                            weights, interpolation)


def percentile(a: ArrayLike, q: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
               overwrite_input=False, method="linear", keepdims: bool = False, *,
               weights: ArrayLike | None = None, interpolation=None) -> ndarray:
    """The q-th percentiles along the given axes (numpy.percentile), every ``method``;
    ``weights`` is not supported."""
    return _quantile_driver(_quantile_impl, True, a, q, axis, out, method, keepdims,
                            weights, interpolation)


def nanquantile(a: ArrayLike, q: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
                overwrite_input=False, method="linear", keepdims: bool = False, *,
                weights: ArrayLike | None = None, interpolation=None) -> ndarray:
    """The q-th quantiles ignoring NaNs (numpy.nanquantile); ``weights`` is not supported."""
    return _quantile_driver(_nan_quantile_impl, False, a, q, axis, out, method, keepdims,
                            weights, interpolation)


def nanpercentile(a: ArrayLike, q: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
                  overwrite_input=False, method="linear", keepdims: bool = False, *,
                  weights: ArrayLike | None = None, interpolation=None) -> ndarray:
    """The q-th percentiles ignoring NaNs (numpy.nanpercentile); ``weights`` is not
    supported."""
    return _quantile_driver(_nan_quantile_impl, True, a, q, axis, out, method, keepdims,
                            weights, interpolation)


def _quantile_valid(q):
    if q.size == 0:
        return True
    return bool(q.min() >= 0 and q.max() <= 1)
