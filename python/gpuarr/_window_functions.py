"""Window functions (numpy.bartlett, blackman, hamming, hanning, kaiser).

bartlett, blackman, hamming and hanning are computed on the device from ``arange`` and
ufuncs, in NumPy's order of operations, so that they agree with NumPy's values up to the
device's cosine (a window can be long, and it usually feeds device work such as an FFT).
kaiser evaluates ``i0`` on the device as well (NumPy's Cephes expansion, one kernel)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _creation, _indexing, _ufuncs

if TYPE_CHECKING:
    from gpuarr._typing import ndarray


def _window_length(M):
    """NumPy's rule: M as float64 (a complex M fails the comparisons below as NumPy's), and
    the trivial windows of length 0 and 1."""
    values = _np.array([0.0, M])
    M = values[1]
    if M < 1:
        return M, _core.array(_np.array([], dtype=values.dtype))
    if M == 1:
        return M, _core.ones(1, dtype=values.dtype)
    return M, None


def _cos_term(n, scale, M):
    # NumPy's cos(scale * pi * n / (M - 1)), evaluated left to right.
    return _ufuncs.cos(_ufuncs.divide(_ufuncs.multiply(scale * _np.pi, n), M - 1))


def bartlett(M) -> ndarray:
    """The Bartlett (triangular) window of ``M`` points (numpy.bartlett).

    Parameters
    ----------
    M : int
        Number of points; an empty array for ``M < 1``.

    Returns
    -------
    ndarray
        float64 window rising from 0 to 1 and back to 0, computed on the device.
    """
    M, trivial = _window_length(M)
    if trivial is not None:
        return trivial
    n = _creation.arange(1 - M, M, 2)
    ratio = _ufuncs.divide(n, M - 1)
    return _indexing.where(_ufuncs.less_equal(n, 0), _ufuncs.add(1, ratio),
                           _ufuncs.subtract(1, ratio))


def blackman(M) -> ndarray:
    """The Blackman window of ``M`` points (numpy.blackman).

    Parameters
    ----------
    M : int
        Number of points; an empty array for ``M < 1``.

    Returns
    -------
    ndarray
        float64 window ``0.42 + 0.5 cos(pi n/(M-1)) + 0.08 cos(2 pi n/(M-1))``, computed on
        the device.
    """
    M, trivial = _window_length(M)
    if trivial is not None:
        return trivial
    n = _creation.arange(1 - M, M, 2)
    first = _ufuncs.add(0.42, _ufuncs.multiply(0.5, _cos_term(n, 1, M)))
    return _ufuncs.add(first, _ufuncs.multiply(0.08, _cos_term(n, 2.0, M)))


def hamming(M) -> ndarray:
    """The Hamming window of ``M`` points (numpy.hamming).

    Parameters
    ----------
    M : int
        Number of points; an empty array for ``M < 1``.

    Returns
    -------
    ndarray
        float64 window ``0.54 + 0.46 cos(pi n/(M-1))``, computed on the device.
    """
    M, trivial = _window_length(M)
    if trivial is not None:
        return trivial
    n = _creation.arange(1 - M, M, 2)
    return _ufuncs.add(0.54, _ufuncs.multiply(0.46, _cos_term(n, 1, M)))


def hanning(M) -> ndarray:
    """The Hann window of ``M`` points (numpy.hanning).

    Parameters
    ----------
    M : int
        Number of points; an empty array for ``M < 1``.

    Returns
    -------
    ndarray
        float64 window ``0.5 + 0.5 cos(pi n/(M-1))``, computed on the device.
    """
    M, trivial = _window_length(M)
    if trivial is not None:
        return trivial
    n = _creation.arange(1 - M, M, 2)
    return _ufuncs.add(0.5, _ufuncs.multiply(0.5, _cos_term(n, 1, M)))


def kaiser(M, beta) -> ndarray:
    """The Kaiser window of ``M`` points and shape ``beta`` (numpy.kaiser).

    Parameters
    ----------
    M : int
        Number of points; an empty array for ``M < 1``.
    beta : float
        Shape parameter (0 is rectangular; larger values narrow the window).

    Returns
    -------
    ndarray
        float64 window ``i0(beta sqrt(1 - ((n - alpha)/alpha)^2)) / i0(beta)`` with
        ``alpha = (M - 1)/2``, computed on the device in NumPy's order of operations.
    """
    values = _np.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if values.dtype == object:
        # A Python int beyond int64 makes NumPy's array an object one; NumPy then computes
        # in float64 (the int converted as a float), and so does gpuarr, which has no object
        # dtype.
        M, beta = (v if isinstance(v, float) else _np.float64(v) for v in (M, beta))
        values = _np.array([0.0, M, beta])
    if M == 1:
        return _core.ones(1, dtype=values.dtype)
    n = _creation.arange(0, M)
    alpha = (M - 1) / 2.0
    ratio = _ufuncs.power(_ufuncs.divide(_ufuncs.subtract(n, alpha), alpha), 2.0)
    arg = _ufuncs.multiply(beta, _ufuncs.sqrt(_ufuncs.subtract(1, ratio)))
    return _ufuncs.divide(_ufuncs.i0(arg), _ufuncs.i0(beta))


__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]
