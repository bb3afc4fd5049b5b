"""Real/complex type checks and non-finite replacement (numpy's type_check): nan_to_num,
real_if_close, isreal, iscomplex. Elementwise device work on the real and imaginary views."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _indexing, _reductions, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["nan_to_num", "real_if_close", "isreal", "iscomplex"]


def _as(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _replace_non_finite(d, nan, maxf, minf):
    """``d`` (a real float array) with NaN, +inf and -inf replaced, in d's dtype."""
    t = d.dtype.type
    isinf = _ufuncs.isinf(d)
    neg = _ufuncs.signbit(d)
    r = _indexing.where(_ufuncs.isnan(d), t(nan), d)
    r = _indexing.where(_ufuncs.logical_and(isinf, _ufuncs.logical_not(neg)), t(maxf), r)
    return _indexing.where(_ufuncs.logical_and(isinf, neg), t(minf), r)


def nan_to_num(x: ArrayLike, copy: bool = True, nan=0.0, posinf=None,
               neginf=None) -> ndarray:
    """NaN replaced by ``nan``, infinities by ``posinf``/``neginf`` (default: the dtype's
    largest and most negative finite values), in the real and imaginary parts
    (numpy.nan_to_num).

    Parameters
    ----------
    x : array_like
        Input data.
    copy : bool, optional
        Whether to return a new array (True) or replace in place when ``x`` is a gpuarr
        array (False).
    nan, posinf, neginf : scalar, optional
        The replacement values.

    Returns
    -------
    ndarray
        ``x`` with the non-finite values replaced (integer and bool input unchanged).
    """
    was_device = isinstance(x, _ndarray)
    x = _as(x)
    if x.dtype.kind not in "fc":
        return x.copy() if copy and was_device else x
    real_dtype = x.real.dtype
    info = _np.finfo(real_dtype)
    maxf = info.max if posinf is None else posinf
    minf = info.min if neginf is None else neginf
    with _np.errstate(over="ignore"):  # NumPy casts out-of-range replacements to inf too
        if x.dtype.kind == "c":
            re = _replace_non_finite(x.real, nan, maxf, minf)
            im = _replace_non_finite(x.imag, nan, maxf, minf)
            out = x.copy() if (copy or not was_device) else x
            out.real[...] = re
            out.imag[...] = im
            return out
        res = _replace_non_finite(x, nan, maxf, minf)
    if copy or not was_device:
        return res
    x[...] = res
    return x


def real_if_close(a: ArrayLike, tol: float = 100) -> ndarray:
    """The real part of a complex array whose imaginary parts are all within ``tol``
    machine epsilons of zero, else the array (numpy.real_if_close).

    Parameters
    ----------
    a : array_like
        Input array.
    tol : float, optional
        Tolerance in machine epsilons of the dtype (an absolute tolerance when <= 1).

    Returns
    -------
    ndarray
        ``a.real`` when every imaginary part is small, else ``a`` (one device-to-host read of
        the decision: the result's dtype depends on it).
    """
    a = _as(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = _np.finfo(a.dtype).eps * tol
    if bool(_reductions.all(_ufuncs.less(_ufuncs.absolute(a.imag), tol))):
        a = a.real
    return a


def isreal(x: ArrayLike) -> ndarray:
    """Whether each element has a zero imaginary part (numpy.isreal).

    Parameters
    ----------
    x : array_like
        Input array.

    Returns
    -------
    ndarray
        Boolean array of ``x``'s shape (all true for real dtypes).
    """
    x = _as(x)
    if x.dtype.kind != "c":
        return _core.ones(x.shape, dtype=_np.bool_)
    return _ufuncs.equal(x.imag, 0)


def iscomplex(x: ArrayLike) -> ndarray:
    """Whether each element has a non-zero imaginary part (numpy.iscomplex).

    Parameters
    ----------
    x : array_like
        Input array.

    Returns
    -------
    ndarray
        Boolean array of ``x``'s shape (all false for real dtypes).
    """
    x = _as(x)
    if x.dtype.kind != "c":
        return _core.zeros(x.shape, dtype=_np.bool_)
    return _ufuncs.not_equal(x.imag, 0)
