"""Creation functions defined over an index grid: ``tri`` (``i >= j - k``), ``vander``
(powers along each row) and ``fromfunction`` (a function of the index arrays). All values are
computed on the device."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Callable

import numpy as _np

from gpuarr import _core, _reductions, _shape_ops

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, DTypeLike, ShapeLike, ndarray


def tri(N, M=None, k=0, dtype: DTypeLike = float, *, like=None) -> ndarray:
    """An array with ones at and below the given diagonal and zeros elsewhere (numpy.tri).

    Parameters
    ----------
    N : int
        Number of rows.
    M : int, optional
        Number of columns; ``N`` by default.
    k : int, optional
        The diagonal at and below which the array is filled: 0 is the main diagonal, k < 0
        below it, k > 0 above it.
    dtype : dtype, optional
        The dtype of the result.
    like : None
        Not supported (NumPy's ``__array_function__`` dispatch); must be None.

    Returns
    -------
    ndarray
        Shape ``(N, M)``; ``T[i, j] == 1`` for ``j <= i + k``, 0 otherwise.
    """
    if like is not None:
        raise TypeError("gpuarr.tri does not support like= (NumPy's __array_function__ "
                        "dispatch)")
    if M is None:
        M = N
    try:
        N, M, k = operator.index(N), operator.index(M), operator.index(k)
    except TypeError:
        # Non-integer sizes or offset: NumPy's arange-based rule on the host (a rare
        # spelling; the values are uploaded once).
        return _core.array(_np.tri(N, M, k, dtype))
    # NumPy compares arange(N) with arange(-k, M - k): a negative N or M gives no rows or
    # columns rather than an error.
    return _core._tri(max(N, 0), max(M, 0), k, dtype)


def vander(x: ArrayLike, N=None, increasing=False) -> ndarray:
    """The Vandermonde matrix of a vector (numpy.vander).

    Parameters
    ----------
    x : array_like
        1-d input.
    N : int, optional
        Number of columns; ``len(x)`` by default.
    increasing : bool, optional
        Powers increase from left to right when True; by default they decrease.

    Returns
    -------
    ndarray
        Shape ``(len(x), N)`` of dtype ``promote_types(x.dtype, int)``; column ``j`` holds
        ``x ** (N - 1 - j)`` (``x ** j`` when increasing), formed by repeated multiplication
        as NumPy's.
    """
    x = x if isinstance(x, _core.ndarray) else _core.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = len(x)
    dt = _np.promote_types(x.dtype, int)
    v = _core.empty((len(x), N), dt)
    tmp = v[:, ::-1] if not increasing else v
    if N > 0:
        tmp[:, 0] = 1
    if N > 1:
        powers = _shape_ops.broadcast_to(x.reshape(len(x), 1), (len(x), N - 1))
        tmp[:, 1:] = _reductions.cumprod(powers, axis=1, dtype=dt)
    return v


def fromfunction(function: Callable[..., Any], shape: ShapeLike, *, dtype: DTypeLike = float,
                 like=None, **kwargs) -> Any:
    """Calls ``function`` with the index arrays of a grid (numpy.fromfunction).

    Parameters
    ----------
    function : callable
        Called as ``function(i0, i1, ..., **kwargs)`` with one device array per axis of
        ``shape``, each of shape ``shape`` holding that axis's index.
    shape : tuple of ints
        The grid's shape.
    dtype : dtype, optional
        The dtype of the index arrays.
    like : None
        Not supported (NumPy's ``__array_function__`` dispatch); must be None.
    **kwargs
        Passed on to ``function``.

    Returns
    -------
    object
        Whatever ``function`` returns; gpuarr functions of the index arrays give device
        arrays.
    """
    if like is not None:
        raise TypeError("gpuarr.fromfunction does not support like= (NumPy's "
                        "__array_function__ dispatch)")
    args = _shape_ops.indices(shape, dtype=dtype)
    return function(*args, **kwargs)


__all__ = ["fromfunction", "tri", "vander"]
