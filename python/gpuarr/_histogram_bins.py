"""histogram_bin_edges (numpy.histogram_bin_edges): NumPy's edge computation on the few
values it depends on, read from the device (the minimum and maximum, or the statistics of
a named bin-width estimator: standard deviation, quartiles, skewness, or the histograms
that Stone's estimator compares); the estimators are _sorting's, shared with histogram."""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING, Any

import numpy as _np

from gpuarr import _core, _reductions, _sorting
from gpuarr._core import ndarray as _ndarray
from gpuarr._sorting import _outer_edges  # noqa: F401  (host-only; _statistics uses it)

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["histogram_bin_edges"]


def _scalar(x):
    """The host value of a device 0-d result, as a NumPy scalar."""
    return _core.asnumpy(x)[()] if isinstance(x, _ndarray) else x


def _min_max(a):
    """A host array of ``a``'s dtype holding its minimum and maximum (empty for empty
    ``a``): every value that NumPy's automatic edges read. Through _reductions, so that
    NumPy can stand in for the device in the functions composed here and in _statistics."""
    if a.size == 0:
        return _np.empty(0, a.dtype)
    lo = _scalar(_reductions.min(a))
    hi = _scalar(_reductions.max(a))
    return _np.array([lo, hi], dtype=a.dtype)


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
        bins = _sorting._estimated_bin_count(a, bins, range, weights)
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
