"""Vector and matrix norms: numpy.linalg.norm and the Array API's vector_norm / matrix_norm,
each one C++ norm reduction (matrix 2-norms through the singular values)."""

from __future__ import annotations

import operator
from math import inf
from typing import TYPE_CHECKING

import numpy as _np
from numpy.lib.array_utils import normalize_axis_tuple as _normalize_axis_tuple

from gpuarr import _core
from gpuarr._core import ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, ndarray

__all__ = ["norm", "matrix_norm", "vector_norm"]

# Codes of _core._reduce_norm.
_L1, _L2, _SUMSQ, _MAX, _MIN, _COUNT, _POW, _SUM = range(8)


def _vector(x, axes, ord, keepdims):
    if ord == inf:
        return _core._reduce_norm(x, axes, _MAX, 0.0, keepdims)
    if ord == -inf:
        return _core._reduce_norm(x, axes, _MIN, 0.0, keepdims)
    if ord == 0:
        return _core._reduce_norm(x, axes, _COUNT, 0.0, keepdims)
    if ord == 1:
        return _core._reduce_norm(x, axes, _L1, 0.0, keepdims)
    if ord is None or ord == 2:
        return _core._reduce_norm(x, axes, _L2, 0.0, keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    return _core._reduce_norm(x, axes, _POW, float(ord), keepdims)


def _svd_reduce(x, row_axis, col_axis, code):
    s = _core._singular_values(_core._move_axes_last(x, (row_axis, col_axis)))
    return _core._reduce_norm(s, (-1,), code, 0.0, False)


def norm(x: ArrayLike, ord=None, axis: AxisLike = None, keepdims: bool = False) -> ndarray:
    """numpy.linalg.norm: vector norms (ord None/2/1/inf/-inf/0/p) and matrix norms
    ('fro'/'nuc'/1/-1/2/-2/inf/-inf) over an int or a pair of axes."""
    if not isinstance(x, ndarray):
        x = _core.asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_np.float64)
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            return _core._reduce_norm(x, tuple(range(nd)), _L2, 0.0, keepdims)
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        axis = (_int_axis(axis),)

    if len(axis) == 1:
        return _vector(x, axis, ord, keepdims)
    if len(axis) == 2:
        row_axis, col_axis = (_np_normalize(a, nd) for a in axis)
        if row_axis == col_axis:
            raise ValueError("Duplicate axes given.")
        if ord == 2:
            ret = _svd_reduce(x, row_axis, col_axis, _MAX)
        elif ord == -2:
            ret = _svd_reduce(x, row_axis, col_axis, _MIN)
        elif ord in (1, -1, inf, -inf):
            if ord in (1, -1):
                inner_axis, outer_axis = row_axis, col_axis   # sum over rows, extreme over cols
            else:
                inner_axis, outer_axis = col_axis, row_axis
            sums = _core._reduce_norm(x, (inner_axis,), _L1, 0.0, True)
            ret = _core._reduce_norm(sums, (outer_axis,), _MAX if ord > 0 else _MIN, 0.0, True)
            if not keepdims:
                ret = _core._reduce_norm(ret, (inner_axis, outer_axis), _SUM, 0.0, False)
            return ret
        elif ord in (None, "fro", "f"):
            return _core._reduce_norm(x, (row_axis, col_axis), _L2, 0.0, keepdims)
        elif ord == "nuc":
            ret = _svd_reduce(x, row_axis, col_axis, _L1)
        else:
            raise ValueError("Invalid norm order for matrices.")
        if keepdims:
            ret = _core._expand_axes(ret, (row_axis, col_axis))
        return ret
    raise ValueError("Improper number of dimensions to norm.")


def _int_axis(axis):
    """NumPy's norm takes a non-tuple axis through int() (so 1.0 is axis 1)."""
    try:
        return int(axis)
    except Exception as e:
        raise TypeError("'axis' must be None, an integer or a tuple of integers") from e


def _np_normalize(axis, nd):
    axis = operator.index(axis)
    if not -nd <= axis < nd:
        raise _np.exceptions.AxisError(axis, nd)
    return axis % nd


def vector_norm(x: ArrayLike, /, *, axis: AxisLike = None, keepdims: bool = False,
                ord=2) -> ndarray:
    """Array API vector_norm (axis None: over all elements)."""
    if not isinstance(x, ndarray):
        x = _core.asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_np.float64)
    if axis is None:
        axis = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        # NumPy: normalize_axis_tuple (AxisError, "repeated axis")
        axis = _normalize_axis_tuple(axis, x.ndim)
    else:
        axis = (_np_normalize(_int_axis(axis), x.ndim),)
    return _vector(x, axis, ord, keepdims)


def matrix_norm(x: ArrayLike, /, *, keepdims: bool = False, ord="fro") -> ndarray:
    """Array API matrix_norm over the last two axes."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)
