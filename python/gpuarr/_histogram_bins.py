"""histogram_bin_edges (numpy.histogram_bin_edges): NumPy's edge computation on the few
values it depends on, read from the device (the minimum and maximum, or the statistics of
a named bin-width estimator: standard deviation, quartiles, skewness, or the histograms
that Stone's estimator compares)."""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING, Any

import numpy as _np

from gpuarr import _core, _reductions, _sorting, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["histogram_bin_edges"]

_range = range  # the estimators' parameter ``range`` (NumPy's name) hides the builtin


def _scalar(x):
    """The host value of a device 0-d result, as a NumPy scalar."""
    return _core.asnumpy(x)[()] if isinstance(x, _ndarray) else x


def _min_max(a):
    """A host array of ``a``'s dtype holding its minimum and maximum (empty for empty
    ``a``): every value that NumPy's automatic edges read."""
    if a.size == 0:
        return _np.empty(0, a.dtype)
    lo = _scalar(_reductions.min(a))
    hi = _scalar(_reductions.max(a))
    return _np.array([lo, hi], dtype=a.dtype)


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
        p_k = _core.asnumpy(_sorting.histogram(x, bins=nbins, range=range)[0]) / n
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
    q = _core.asnumpy(_sorting.percentile(x, [75, 25]))
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


def histogram_bin_edges(a: ArrayLike, bins: Any = 10, range: tuple | None = None,
                        weights: ArrayLike | None = None) -> ndarray:
    """The bin edges that numpy.histogram would use (numpy.histogram_bin_edges).

    Parameters
    ----------
    a : array_like
        Input data (flattened).
    bins : int, sequence of scalars or str, optional
        The number of equal-width bins, the edges themselves (increasing), or the name of
        a bin-width estimator: 'auto', 'fd', 'doane', 'scott', 'stone', 'rice', 'sturges'
        or 'sqrt'.
    range : (float, float), optional
        The lower and upper range of the bins; the data's minimum and maximum by default.
    weights : array_like, optional
        Of ``a``'s shape; only checked (estimators refuse weighted data, as NumPy's).

    Returns
    -------
    ndarray
        The bin edges (``bins + 1`` of them for an integer ``bins``).
    """
    a = _core.asarray(a)
    if a.dtype == _np.bool_:
        warnings.warn(f"Converting input from {a.dtype} to {_np.uint8} for compatibility.",
                      RuntimeWarning, stacklevel=2)
        a = a.astype(_np.uint8)
    if weights is not None:
        weights = _core.asarray(weights)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
    a = a.reshape(-1)
    if isinstance(bins, str):
        bins = _estimated_bin_count(a, bins, range, weights)
    elif isinstance(bins, _ndarray):
        bins = _core.asnumpy(bins)  # the edges themselves: NumPy checks and returns them
    needs_data = range is None and _np.ndim(bins) == 0
    if needs_data:
        try:
            operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
    proxy = _min_max(a) if needs_data else _np.empty(0, a.dtype)
    return _core.asarray(_np.histogram_bin_edges(proxy, bins, range))
