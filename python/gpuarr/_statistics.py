"""Covariance, correlation and multidimensional histograms (numpy.cov, numpy.corrcoef,
numpy.histogram2d, numpy.histogramdd) with NumPy's algorithms: centring and a matrix
product for the covariance; per-dimension searchsorted, a flat bin index and bincount for the
histograms. Bin edges are computed on the host from the sample's device minimum and maximum,
by NumPy's rules."""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _histogram_bins, _products, _reductions, _shape_ops, _sorting, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, DTypeLike, ndarray

__all__ = ["cov", "corrcoef", "histogram2d", "histogramdd"]

_range = range


def _as(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def cov(m: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, bias: bool = False,
        ddof: int | None = None, fweights: ArrayLike | None = None,
        aweights: ArrayLike | None = None, *, dtype: DTypeLike = None) -> ndarray:
    """The covariance matrix of the variables in the rows (or columns) of ``m`` and ``y``
    (numpy.cov).

    Parameters
    ----------
    m : array_like
        1-d or 2-d array of variables (rows when ``rowvar``) and observations.
    y : array_like, optional
        More variables, of ``m``'s layout.
    rowvar : bool, optional
        Whether each row is a variable (else each column).
    bias : bool, optional
        Normalise by N (True) or N - 1 (False); overridden by ``ddof``.
    ddof : int, optional
        Delta degrees of freedom.
    fweights, aweights : array_like, optional
        Integer frequency weights and analytic weights of the observations.
    dtype : data-type, optional
        The dtype of the result (default at least float64).

    Returns
    -------
    ndarray
        The covariance matrix (squeezed).
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _as(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _as(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        if y is None:
            dtype = _np.result_type(m.dtype, _np.float64)
        else:
            dtype = _np.result_type(m.dtype, y.dtype, _np.float64)
    X = _core.array(m, dtype=dtype, copy=True, ndmin=2)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return _core.empty((0, 0), dtype=_np.float64)
    if y is not None:
        y = _core.asarray(y, dtype=dtype)
        if y.ndim < 2:  # numpy.array(y, ndmin=2)
            y = y.reshape((1,) * (2 - y.ndim) + y.shape)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        X = _shape_ops.concatenate((X, y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        fweights = _as(fweights).astype(_np.float64)
        if not bool(_reductions.all(_ufuncs.equal(fweights, _ufuncs.rint(fweights)))):
            raise TypeError("fweights must be integer")
        if fweights.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if fweights.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if bool(_reductions.any(_ufuncs.less(fweights, 0))):
            raise ValueError("fweights cannot be negative")
        w = fweights
    if aweights is not None:
        aweights = _as(aweights).astype(_np.float64)
        if aweights.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if aweights.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if bool(_reductions.any(_ufuncs.less(aweights, 0))):
            raise ValueError("aweights cannot be negative")
        w = aweights if w is None else w * aweights
    avg, w_sum = _reductions.average(X, axis=1, weights=w, returned=True)
    if w is None:
        fact = X.shape[1] - ddof
    else:
        w_sum = w_sum[0]
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * _reductions.sum(w * aweights) / w_sum
        fact = _core.asnumpy(fact)[()]  # the degrees-of-freedom check reads it
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    X = X - avg[:, None]
    X_T = X.T if w is None else (X * w).T
    c = _products.dot(X, _ufuncs.conjugate(X_T) if X_T.dtype.kind == "c" else X_T)
    with _np.errstate(divide="ignore"):
        scale = _np.true_divide(1, fact)
    c = _ufuncs.multiply(c, scale, out=c)
    return _shape_ops.squeeze(c)


def corrcoef(x: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, *,
             dtype: DTypeLike = None) -> ndarray:
    """Pearson correlation coefficients (numpy.corrcoef).

    Parameters
    ----------
    x : array_like
        1-d or 2-d array of variables (rows when ``rowvar``) and observations.
    y : array_like, optional
        More variables, of ``x``'s layout.
    rowvar : bool, optional
        Whether each row is a variable (else each column).
    dtype : data-type, optional
        The dtype of the result.

    Returns
    -------
    ndarray
        The correlation matrix, values clipped to [-1, 1].
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = _shape_ops.diagonal(c)
    stddev = _ufuncs.sqrt(d.real if d.dtype.kind == "c" else d)
    c = c / stddev[:, None]
    c = c / stddev[None, :]
    if c.dtype.kind == "c":
        c.real[...] = _ufuncs.clip(c.real, -1, 1)
        c.imag[...] = _ufuncs.clip(c.imag, -1, 1)
    else:
        c = _ufuncs.clip(c, -1, 1)
    return c


def _outer_edges(col, rng):
    """The first and last edge of equal bins for one dimension, as numpy.histogramdd has
    them (the sample's minimum and maximum are read back when there is no range)."""
    return _histogram_bins._outer_edges(
        _histogram_bins._min_max(col) if rng is None else _np.empty(0, col.dtype), rng)


def _sample_2d(sample):
    if isinstance(sample, (list, tuple)):
        return _shape_ops.atleast_2d(_shape_ops.stack([_as(s) for s in sample])).T
    sample = _as(sample)
    if sample.ndim == 2:
        return sample
    sample = _shape_ops.atleast_2d(sample).T
    if sample.ndim != 2:
        raise ValueError(f"too many values to unpack (expected 2, got {sample.ndim})")
    return sample


def histogramdd(sample: ArrayLike, bins=10, range=None, density=None,  # noqa: A002
                weights: ArrayLike | None = None):
    """The multidimensional histogram of some data (numpy.histogramdd).

    Parameters
    ----------
    sample : (N, D) array_like, or sequence of D 1-d arrays
        The points to histogram.
    bins : sequence or int, optional
        Per dimension (or for all): the number of equal bins, or a monotonically increasing
        array of edges.
    range : sequence, optional
        Per dimension, the (lower, upper) outer edges when ``bins`` is a number.
    density : bool, optional
        Whether to return the probability density.
    weights : (N,) array_like, optional
        Weights of the points.

    Returns
    -------
    H : ndarray
        float64 histogram.
    edges : tuple of ndarrays
        The D arrays of bin edges.
    """
    sample = _sample_2d(sample)
    N, D = sample.shape
    nbin = _np.empty(D, _np.intp)
    edges = D * [None]
    dedges = D * [None]
    if weights is not None:
        weights = _as(weights)
    try:
        M = len(bins)
        if M != D:
            raise ValueError(
                "The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D  # noqa: A001
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    for i in _range(D):
        b = _core.asnumpy(bins[i]) if isinstance(bins[i], _ndarray) else bins[i]
        if _np.ndim(b) == 0:
            if b < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _outer_edges(sample[:, i], range[i])
            try:
                n = operator.index(b)
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges[i] = _np.linspace(smin, smax, n + 1)
        elif _np.ndim(b) == 1:
            edges[i] = _np.asarray(b)
            if _np.any(edges[i][:-1] > edges[i][1:]):
                raise ValueError(
                    f"`bins[{i}]` must be monotonically increasing, when an array")
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
        nbin[i] = len(edges[i]) + 1
        dedges[i] = _np.diff(edges[i])
    xy = None
    stride = 1
    for i in reversed(_range(D)):
        col = sample[:, i]
        e = _core.asarray(edges[i])
        idx = _sorting.searchsorted(e, col, side="right")
        if edges[i].size:
            on_edge = _ufuncs.equal(col, e[-1])
            idx = _ufuncs.subtract(idx, on_edge.astype(idx.dtype))
        term = idx if stride == 1 else _ufuncs.multiply(idx, stride)
        xy = term if xy is None else _ufuncs.add(xy, term)
        stride *= int(nbin[i])
    if xy is None:
        xy = _core.zeros((N,), dtype=_np.int64)
    hist = _sorting.bincount(xy, weights, minlength=int(nbin.prod()))
    hist = hist.reshape(tuple(int(v) for v in nbin))
    if not _np.can_cast(hist.dtype, _np.float64, "safe"):
        raise TypeError(f"Cannot cast array data from {hist.dtype!r} to "
                        f"{_np.dtype(_np.float64)!r} according to the rule 'safe'")
    hist = hist.astype(_np.float64, copy=False)
    hist = hist[D * (slice(1, -1),)]
    if density:
        s = _reductions.sum(hist)
        for i in _range(D):
            shape = [1] * D
            shape[i] = int(nbin[i]) - 2
            hist = hist / _core.asarray(dedges[i]).reshape(shape)
        hist = hist / s
    return hist, [_core.asarray(e) for e in edges]


def histogram2d(x: ArrayLike, y: ArrayLike, bins=10, range=None,  # noqa: A002
                density=None, weights: ArrayLike | None = None):
    """The bi-dimensional histogram of two data samples (numpy.histogram2d).

    Parameters
    ----------
    x, y : array_like
        The coordinates of the points (same length).
    bins : int or array_like or [int, int] or [array, array], optional
        The number of bins or the bin edges, for both dimensions or per dimension.
    range : array_like, shape (2, 2), optional
        The outer edges of the bins per dimension.
    density : bool, optional
        Whether to return the probability density.
    weights : array_like, optional
        Weights of the points.

    Returns
    -------
    H : ndarray
        The histogram (x along the first dimension).
    xedges, yedges : ndarray
        The bin edges.
    """
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = bins
        bins = [xedges, yedges]
    x = _as(x)
    y = _as(y)
    # NumPy compares the lengths (TypeError for a 0-d x or y), before anything else.
    if len(x) != len(y) or x.shape != y.shape:
        raise ValueError("x and y must have the same length.")
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
