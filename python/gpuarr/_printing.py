"""Printing of arrays and numbers: array2string, array_repr, array_str, the float and
integer formatters, and the print options.

Printing is NumPy's own, applied to a host copy of the array (text is made on the host; the
copy is the one device read printing needs). The print options are therefore NumPy's:
``gpuarr.set_printoptions`` is ``numpy.set_printoptions``, and it governs the ``repr`` and
``str`` of gpuarr arrays exactly as those of NumPy arrays."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as _np

from gpuarr import _core
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike

__all__ = ["array2string", "array_repr", "array_str", "format_float_positional",
           "format_float_scientific", "get_printoptions", "set_printoptions", "printoptions",
           "base_repr", "binary_repr"]

# NumPy's options, shared: gpuarr arrays print through NumPy.
get_printoptions = _np.get_printoptions
set_printoptions = _np.set_printoptions
printoptions = _np.printoptions
# Formatting of Python integers: no array involved.
base_repr = _np.base_repr
binary_repr = _np.binary_repr


def _host(a):
    return _core.asnumpy(a) if isinstance(a, _ndarray) else a


def array2string(a: ArrayLike, max_line_width: int | None = None,
                 precision: int | None = None, suppress_small: bool | None = None,
                 separator: str = " ", prefix: str = "", *, formatter: dict | None = None,
                 threshold: int | None = None, edgeitems: int | None = None,
                 sign: str | None = None, floatmode: str | None = None, suffix: str = "",
                 legacy: Any = None) -> str:
    """The text of an array (numpy.array2string), made by NumPy from a host copy.

    Parameters
    ----------
    a : ndarray
        Input array.
    max_line_width, precision, suppress_small, separator, prefix : optional
        As numpy.array2string.
    formatter, threshold, edgeitems, sign, floatmode, suffix, legacy : optional
        As numpy.array2string (None: the current print options).

    Returns
    -------
    str
        The array's text.
    """
    return _np.array2string(_host(a), max_line_width, precision, suppress_small, separator,
                            prefix, formatter=formatter, threshold=threshold,
                            edgeitems=edgeitems, sign=sign, floatmode=floatmode,
                            suffix=suffix, legacy=legacy)


def array_repr(arr: ArrayLike, max_line_width: int | None = None,
               precision: int | None = None, suppress_small: bool | None = None) -> str:
    """The repr of an array (numpy.array_repr), made by NumPy from a host copy.

    Parameters
    ----------
    arr : ndarray
        Input array.
    max_line_width, precision, suppress_small : optional
        As numpy.array_repr (None: the current print options).

    Returns
    -------
    str
        ``array([...])`` text, with the dtype where NumPy shows it.
    """
    return _np.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a: ArrayLike, max_line_width: int | None = None, precision: int | None = None,
              suppress_small: bool | None = None) -> str:
    """The str of an array (numpy.array_str), made by NumPy from a host copy.

    Parameters
    ----------
    a : ndarray
        Input array.
    max_line_width, precision, suppress_small : optional
        As numpy.array_str (None: the current print options).

    Returns
    -------
    str
        The array's text.
    """
    return _np.array_str(_host(a), max_line_width, precision, suppress_small)


def format_float_positional(x: Any, precision: int | None = None, unique: bool = True,
                            fractional: bool = True, trim: str = "k", sign: bool = False,
                            pad_left: int | None = None, pad_right: int | None = None,
                            min_digits: int | None = None) -> str:
    """A floating-point scalar in positional notation (numpy.format_float_positional).

    Parameters
    ----------
    x : float, NumPy floating scalar or 0-d ndarray
        The value.
    precision, unique, fractional, trim, sign, pad_left, pad_right, min_digits : optional
        As numpy.format_float_positional.

    Returns
    -------
    str
        The value's text.
    """
    return _np.format_float_positional(_host(x), precision, unique, fractional, trim,
                                       sign, pad_left, pad_right, min_digits)


def format_float_scientific(x: Any, precision: int | None = None, unique: bool = True,
                            trim: str = "k", sign: bool = False, pad_left: int | None = None,
                            exp_digits: int | None = None,
                            min_digits: int | None = None) -> str:
    """A floating-point scalar in scientific notation (numpy.format_float_scientific).

    Parameters
    ----------
    x : float, NumPy floating scalar or 0-d ndarray
        The value.
    precision, unique, trim, sign, pad_left, exp_digits, min_digits : optional
        As numpy.format_float_scientific.

    Returns
    -------
    str
        The value's text.
    """
    return _np.format_float_scientific(_host(x), precision, unique, trim, sign,
                                       pad_left, exp_digits, min_digits)
