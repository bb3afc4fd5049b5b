"""Text files (numpy.loadtxt, genfromtxt, savetxt). Parsing and formatting text is serial
host work, so NumPy does it; the data crosses the bus once, as one upload after reading or
one download before writing."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, DTypeLike, ndarray


def _reject_like(name, like):
    if like is not None:
        raise TypeError(f"gpuarr.{name} does not support like= (NumPy's __array_function__ "
                        "dispatch)")


def _upload(result):
    # unpack=True gives a tuple of columns for structured dtypes (not representable on the
    # device: _core.array raises for them) and a transposed array otherwise.
    if isinstance(result, tuple):
        return tuple(_core.array(r) for r in result)
    return _core.array(result)


def loadtxt(fname, dtype: DTypeLike = float, comments="#", delimiter=None, converters=None,
            skiprows=0, usecols=None, unpack=False, ndmin=0, encoding=None, max_rows=None, *,
            quotechar=None, like=None) -> ndarray:
    """An array read from a text file (numpy.loadtxt), parsed by NumPy on the host and
    uploaded once.

    Parameters
    ----------
    fname : file, str, pathlib.Path, list of str, generator
        The file, file name or lines to read.
    dtype : dtype, optional
        The dtype of the result (numeric: gpuarr has no string or structured dtypes).
    comments, delimiter, converters, skiprows, usecols, unpack, ndmin, encoding, max_rows, quotechar
        As in ``numpy.loadtxt``.
    like : None
        Not supported (NumPy's ``__array_function__`` dispatch); must be None.

    Returns
    -------
    ndarray
        The data on the device.
    """
    _reject_like("loadtxt", like)
    return _upload(_np.loadtxt(
        fname, dtype=dtype, comments=comments, delimiter=delimiter, converters=converters,
        skiprows=skiprows, usecols=usecols, unpack=unpack, ndmin=ndmin, encoding=encoding,
        max_rows=max_rows, quotechar=quotechar))


def genfromtxt(fname, dtype: DTypeLike = float, comments="#", delimiter=None, skip_header=0,
               skip_footer=0, converters=None, missing_values=None, filling_values=None,
               usecols=None, names=None, excludelist=None,
               deletechars=" !#$%&'()*+,-./:;<=>?@[\\]^{|}~", replace_space="_",
               autostrip=False, case_sensitive=True, defaultfmt="f%i", unpack=None,
               usemask=False, loose=True, invalid_raise=True, max_rows=None, encoding=None,
               *, ndmin=0, like=None) -> ndarray:
    """An array read from a text file with missing values handled (numpy.genfromtxt),
    parsed by NumPy on the host and uploaded once.

    Parameters
    ----------
    fname : file, str, pathlib.Path, list of str, generator
        The file, file name or lines to read.
    dtype : dtype, optional
        The dtype of the result (numeric: gpuarr has no string or structured dtypes, so
        ``dtype=None`` works only where NumPy infers one numeric dtype for all columns).
    comments, delimiter, skip_header, skip_footer, converters, missing_values
        As in ``numpy.genfromtxt``.
    filling_values, usecols, names, excludelist, deletechars, replace_space
        As in ``numpy.genfromtxt``.
    autostrip, case_sensitive, defaultfmt, unpack, loose, invalid_raise
        As in ``numpy.genfromtxt``.
    max_rows, encoding, ndmin
        As in ``numpy.genfromtxt``.
    usemask : bool, optional
        Must be False: gpuarr has no masked arrays.
    like : None
        Not supported (NumPy's ``__array_function__`` dispatch); must be None.

    Returns
    -------
    ndarray
        The data on the device.
    """
    _reject_like("genfromtxt", like)
    if usemask:
        raise NotImplementedError("gpuarr has no masked arrays: genfromtxt(usemask=True) is "
                                  "not supported")
    return _upload(_np.genfromtxt(
        fname, dtype=dtype, comments=comments, delimiter=delimiter, skip_header=skip_header,
        skip_footer=skip_footer, converters=converters, missing_values=missing_values,
        filling_values=filling_values, usecols=usecols, names=names, excludelist=excludelist,
        deletechars=deletechars, replace_space=replace_space, autostrip=autostrip,
        case_sensitive=case_sensitive, defaultfmt=defaultfmt, unpack=unpack, usemask=False,
        loose=loose, invalid_raise=invalid_raise, max_rows=max_rows, encoding=encoding,
        ndmin=ndmin))


def savetxt(fname, X: ArrayLike, fmt="%.18e", delimiter=" ", newline="\n", header="",
            footer="", comments="# ", encoding=None) -> None:
    """Writes a 1-d or 2-d array to a text file (numpy.savetxt), downloaded once and
    formatted by NumPy on the host.

    Parameters
    ----------
    fname : str, pathlib.Path or file
        The file name or an open file (a name ending in ``.gz`` is gzip-compressed).
    X : array_like
        A gpuarr array or host data, 1-d or 2-d.
    fmt, delimiter, newline, header, footer, comments, encoding
        As in ``numpy.savetxt``.

    Returns
    -------
    None
    """
    if isinstance(X, _core.ndarray):
        X = _core.asnumpy(X)
    _np.savetxt(fname, X, fmt=fmt, delimiter=delimiter, newline=newline, header=header,
                footer=footer, comments=comments, encoding=encoding)


__all__ = ["genfromtxt", "loadtxt", "savetxt"]
