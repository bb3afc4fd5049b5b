"""gpuarr.emath: mathematical functions with automatic domain (numpy.emath).

Each function is its ufunc, except that real input with values outside the real domain
(negative for sqrt and the logarithms, magnitude above 1 for arccos/arcsin/arctanh) is
converted to complex first, so that the result is the complex principal value instead of
NaN. Whether to convert depends on the values: one device reduction (``any``) and one
host read of its result per call, as NumPy checks on the host; dtypes that cannot hold
such values (booleans, unsigned integers for the sign checks, complex input) skip it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _reductions, _ufuncs

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# Types whose complex counterpart is complex64 (NumPy's _tocomplex); the others go to
# complex128.
_SINGLE_TYPES = (_np.single, _np.byte, _np.short, _np.ubyte, _np.ushort, _np.csingle)


def _tocomplex(x):
    if issubclass(x.dtype.type, _SINGLE_TYPES):
        return x.astype(_np.complex64)
    return x.astype(_np.complex128)


def _any_negative(x):
    # Complex input is already complex (its isreal & x < 0 elements change nothing);
    # booleans and unsigned integers are never negative.
    if x.dtype.kind not in "if":
        return False
    return bool(_reductions.any(_ufuncs.less(x, 0)))


def _fix_real_lt_zero(x):
    x = _core.asarray(x)
    if _any_negative(x):
        x = _tocomplex(x)
    return x


def _fix_int_lt_zero(x):
    x = _core.asarray(x)
    if _any_negative(x):
        x = _ufuncs.multiply(x, 1.0)
    return x


def _fix_real_abs_gt_1(x):
    x = _core.asarray(x)
    if x.dtype.kind in "iuf" and bool(_reductions.any(
            _ufuncs.greater(_ufuncs.absolute(x), 1))):
        x = _tocomplex(x)
    return x


def sqrt(x: ArrayLike) -> ndarray:
    """The square root, complex for negative real input (numpy.emath.sqrt).

    Parameters
    ----------
    x : array_like
        Input values.

    Returns
    -------
    ndarray
        ``sqrt(x)``; complex when some real value of ``x`` is negative.
    """
    return _ufuncs.sqrt(_fix_real_lt_zero(x))


def log(x: ArrayLike) -> ndarray:
    """The natural logarithm, complex for negative real input (numpy.emath.log).

    Parameters
    ----------
    x : array_like
        Input values.

    Returns
    -------
    ndarray
        ``log(x)``; complex when some real value of ``x`` is negative.
    """
    return _ufuncs.log(_fix_real_lt_zero(x))


def log10(x: ArrayLike) -> ndarray:
    """The base-10 logarithm, complex for negative real input (numpy.emath.log10).

    Parameters
    ----------
    x : array_like
        Input values.

    Returns
    -------
    ndarray
        ``log10(x)``; complex when some real value of ``x`` is negative.
    """
    return _ufuncs.log10(_fix_real_lt_zero(x))


def log2(x: ArrayLike) -> ndarray:
    """The base-2 logarithm, complex for negative real input (numpy.emath.log2).

    Parameters
    ----------
    x : array_like
        Input values.

    Returns
    -------
    ndarray
        ``log2(x)``; complex when some real value of ``x`` is negative.
    """
    return _ufuncs.log2(_fix_real_lt_zero(x))


def logn(n: ArrayLike, x: ArrayLike) -> ndarray:
    """The logarithm of ``x`` to base ``n``, ``log(x) / log(n)``, complex for negative
    real input (numpy.emath.logn).

    Parameters
    ----------
    n : array_like
        The base(s).
    x : array_like
        Input values.

    Returns
    -------
    ndarray
        The base-``n`` logarithm of ``x``.
    """
    x = _fix_real_lt_zero(x)
    n = _fix_real_lt_zero(n)
    return _ufuncs.divide(_ufuncs.log(x), _ufuncs.log(n))


def power(x: ArrayLike, p: ArrayLike) -> ndarray:
    """``x ** p``, complex for negative real ``x`` (numpy.emath.power); negative integer
    exponents are taken as floats.

    Parameters
    ----------
    x : array_like
        The bases.
    p : array_like
        The exponents.

    Returns
    -------
    ndarray
        ``x ** p``.
    """
    x = _fix_real_lt_zero(x)
    p = _fix_int_lt_zero(p)
    return _ufuncs.power(x, p)


def arccos(x: ArrayLike) -> ndarray:
    """The inverse cosine, complex for real input of magnitude above 1
    (numpy.emath.arccos).

    Parameters
    ----------
    x : array_like
        Input values.

    Returns
    -------
    ndarray
        ``arccos(x)``.
    """
    return _ufuncs.arccos(_fix_real_abs_gt_1(x))


def arcsin(x: ArrayLike) -> ndarray:
    """The inverse sine, complex for real input of magnitude above 1
    (numpy.emath.arcsin).

    Parameters
    ----------
    x : array_like
        Input values.

    Returns
    -------
    ndarray
        ``arcsin(x)``.
    """
    return _ufuncs.arcsin(_fix_real_abs_gt_1(x))


def arctanh(x: ArrayLike) -> ndarray:
    """The inverse hyperbolic tangent, complex for real input of magnitude above 1
    (numpy.emath.arctanh).

    Parameters
    ----------
    x : array_like
        Input values.

    Returns
    -------
    ndarray
        ``arctanh(x)``.
    """
    return _ufuncs.arctanh(_fix_real_abs_gt_1(x))
