"""Assignment by condition or index pattern (numpy's choose, copyto, putmask,
fill_diagonal): device selects (``where``) and strided writes; only the checks that NumPy
makes on values (``choose``'s range check in mode 'raise') read a flag back."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _creation, _indexing, _reductions, _shape_ops, _ufuncs
from gpuarr._core import ndarray as _ndarray
from gpuarr._indexing import _clipmode

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["choose", "copyto", "putmask", "fill_diagonal"]

_PY_SCALARS = (bool, int, float, complex)


def _as(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _dtype_operand(c):
    if type(c) in _PY_SCALARS:
        return c
    return c.dtype


def choose(a: ArrayLike, choices, out: ndarray | None = None, mode: str = "raise") -> ndarray:
    """An array built from ``choices`` by the index array ``a`` (numpy.choose).

    Parameters
    ----------
    a : int array_like
        Indices into ``choices``, broadcast with them.
    choices : sequence of array_like
        The arrays to choose from (an array's first axis is the sequence).
    out : ndarray, optional
        The array to write the result into, of the broadcast shape.
    mode : {'raise', 'wrap', 'clip'}, optional
        How out-of-range indices are treated ('raise': ValueError, read back as one flag).

    Returns
    -------
    ndarray
        The chosen values.
    """
    mode = _clipmode(mode)
    a = _as(a)
    if not _np.can_cast(a.dtype, _np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to "
                        f"{_np.dtype(_np.intp)!r} according to the rule 'safe'")
    if isinstance(choices, _ndarray):
        choices = [choices[i] for i in range(choices.shape[0])]
    else:
        choices = [c if type(c) in _PY_SCALARS else _as(c) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    dtype = _np.result_type(*[_dtype_operand(c) for c in choices])
    shape = _np.broadcast_shapes(a.shape, *[c.shape for c in choices
                                             if isinstance(c, _ndarray)])
    if out is not None:  # NumPy checks out= before the indices
        if not isinstance(out, _ndarray):
            raise TypeError("output must be an array")
        if out.shape != shape:
            raise TypeError("choose: invalid shape for output array.")
    if mode == "raise":
        if bool(_reductions.any(_ufuncs.logical_or(_ufuncs.less(a, 0),
                                                   _ufuncs.greater_equal(a, n)))):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = _ufuncs.remainder(a, n)
    else:
        a = _ufuncs.minimum(_ufuncs.maximum(a, 0), n - 1)
    result = _shape_ops.broadcast_to(_core.asarray(choices[0], dtype=dtype), shape)
    fresh = False  # whether result is a new array (not a view of an input)
    for k in range(1, n):
        result = _indexing.where(_ufuncs.equal(a, k), _core.asarray(choices[k], dtype=dtype),
                                 result)
        fresh = True
    if result.shape != shape:
        result = _shape_ops.broadcast_to(result, shape)
        fresh = False
    if out is not None:
        out[...] = result
        return out
    return result if fresh else _core.array(result, copy=True)


def copyto(dst: ndarray, src: ArrayLike, casting: str = "same_kind", where=True) -> None:
    """Copy values from ``src`` into ``dst``, broadcasting, where ``where`` is true
    (numpy.copyto).

    Parameters
    ----------
    dst : ndarray
        The array written into.
    src : array_like
        The values, broadcast to ``dst``'s shape.
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}, optional
        The casting rule from ``src``'s dtype to ``dst``'s.
    where : array_like of bool, optional
        Which elements to write, broadcast to ``dst``'s shape.

    Returns
    -------
    None
    """
    if not isinstance(dst, _ndarray):
        raise TypeError(f"copyto() argument 1 must be a gpuarr.ndarray, not "
                        f"{type(dst).__name__}")
    if type(src) in _PY_SCALARS:
        # NumPy's rules for Python scalars (NEP 50, the value's range), on one host element.
        host = _np.empty((), dst.dtype)
        _np.copyto(host, src, casting=casting)
        src = _core.asarray(host)
    else:
        src = _as(src)
        if not _np.can_cast(src.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from {src.dtype!r} to {dst.dtype!r} "
                            f"according to the rule '{casting}'")
    src = _shape_ops.broadcast_to(src, dst.shape) if src.shape != dst.shape else src
    if where is True:
        dst[...] = src.astype(dst.dtype, copy=False)
        return None
    mask = _as(where)
    if mask.dtype != _np.bool_:
        raise TypeError(f"Cannot cast array data from {mask.dtype!r} to "
                        f"{_np.dtype(_np.bool_)!r} according to the rule 'safe'")
    mask = _shape_ops.broadcast_to(mask, dst.shape)
    # Selected into dst itself: one pass, no temporary to copy back.
    _core._where3(mask, src.astype(dst.dtype, copy=False), dst, dst)
    return None


def _cycled(values, n):
    """The first n elements of the flat ``values`` repeated cyclically (NumPy's putmask,
    place and fill_diagonal)."""
    m = values.shape[0]
    if m == n:
        return values
    if m == 1:
        return _shape_ops.broadcast_to(values, (n,))
    return values[_ufuncs.remainder(_creation.arange(n, dtype=_np.int64), m)]


def putmask(a: ndarray, /, mask: ArrayLike, values: ArrayLike) -> None:
    """Set ``a.flat[n] = values[n % len(values)]`` where ``mask.flat[n]`` is true, in place
    (numpy.putmask).

    Parameters
    ----------
    a : ndarray
        The array written into.
    mask : array_like of bool
        Boolean mask of ``a``'s size.
    values : array_like
        The values, repeated cyclically over ``a``'s flat positions.

    Returns
    -------
    None
    """
    if not isinstance(a, _ndarray):
        raise TypeError("putmask: first argument must be an array")
    mask = _as(mask)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    if isinstance(values, (_ndarray, _np.ndarray)):
        # NumPy casts arrays safely; other values convert to a's dtype
        if not _np.can_cast(values.dtype, a.dtype, "safe"):
            raise TypeError(f"Cannot cast array data from {values.dtype!r} to {a.dtype!r} "
                            "according to the rule 'safe'")
    values = _core.asarray(values, dtype=a.dtype).reshape(-1)
    if values.shape[0] == 0 or a.size == 0:
        return None
    mask = mask.astype(_np.bool_, copy=False).reshape(-1)
    flat = a.reshape(-1)  # a copy when a is not C-contiguous
    vals = _cycled(values, a.size)
    a[...] = _indexing.where(mask, vals, flat).reshape(a.shape)
    return None


def fill_diagonal(a: ndarray, val, wrap: bool = False) -> None:
    """Fill the main diagonal of an array of at least 2 dimensions, in place
    (numpy.fill_diagonal).

    Parameters
    ----------
    a : ndarray
        The array, 2-d or with all dimensions equal.
    val : scalar or array_like
        The value(s), repeated cyclically along the diagonal.
    wrap : bool, optional
        For tall 2-d matrices, whether the diagonal wraps after N columns.

    Returns
    -------
    None
    """
    if not isinstance(a, _ndarray):
        raise TypeError("fill_diagonal needs a gpuarr.ndarray")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if any(s != a.shape[0] for s in a.shape):
            raise ValueError("All dimensions of input must be of equal length")
        step = 1
        acc = 1
        for s in a.shape[:-1]:
            acc *= s
            step += acc
    contiguous = a.flags.c_contiguous
    flat = a.reshape(-1) if contiguous else a.copy(order="C").reshape(-1)
    target = flat[:end:step]
    k = target.shape[0]
    if k:
        values = _core.asarray(val).reshape(-1)
        if values.shape[0] == 0:
            return None
        target[...] = _cycled(values.astype(a.dtype), k)
    if not contiguous:
        a[...] = flat.reshape(a.shape)
    return None
