"""The Array API's linear-algebra products and views in gpuarr.linalg (matmul, tensordot,
vecdot, matrix_transpose, outer, trace, diagonal, cross, with the standard's signatures: the
matrix functions act on the last two axes) and numpy.linalg.multi_dot. Each is the top-level
gpuarr operation with the standard's argument rules; multi_dot picks the cheapest order of
its matrix products on the host (a dynamic program over the shapes only)."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from gpuarr import _core, _products, _shape_ops
from gpuarr._core import LinAlgError

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, DTypeLike, ndarray

__all__ = ["matmul", "tensordot", "vecdot", "matrix_transpose", "outer", "trace", "diagonal",
           "cross", "multi_dot"]


def _arr(x):
    return x if isinstance(x, _core.ndarray) else _core.asarray(x)


def matmul(x1: ArrayLike, x2: ArrayLike, /) -> ndarray:
    """Matrix product of the last two axes, broadcast over the others (Array API
    linalg.matmul; numpy.linalg.matmul)."""
    return _products.matmul(x1, x2)


def tensordot(x1: ArrayLike, x2: ArrayLike, /, *, axes=2) -> ndarray:
    """Tensor contraction over ``axes`` (Array API linalg.tensordot; numpy.linalg.tensordot)."""
    return _products.tensordot(x1, x2, axes=axes)


def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> ndarray:
    """Dot product of vectors along ``axis``, the first operand conjugated (Array API
    linalg.vecdot; numpy.linalg.vecdot)."""
    return _products.vecdot(x1, x2, axis=axis)


def matrix_transpose(x: ArrayLike, /) -> ndarray:
    """The last two axes swapped, a view (Array API linalg.matrix_transpose)."""
    return _shape_ops.matrix_transpose(x)


def outer(x1: ArrayLike, x2: ArrayLike, /) -> ndarray:
    """Outer product of two 1-d arrays (Array API linalg.outer; numpy.linalg.outer refuses
    other dimensions, unlike numpy.outer)."""
    x1 = _arr(x1)
    x2 = _arr(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return _products.outer(x1, x2)


def trace(x: ArrayLike, /, *, offset: int = 0, dtype: DTypeLike = None) -> ndarray:
    """Sum of the ``offset`` diagonal of the last two axes (Array API linalg.trace)."""
    return _shape_ops.trace(x, offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x: ArrayLike, /, *, offset: int = 0) -> ndarray:
    """The ``offset`` diagonal of the last two axes, a view (Array API linalg.diagonal)."""
    return _shape_ops.diagonal(x, offset, axis1=-2, axis2=-1)


def cross(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> ndarray:
    """Cross product of 3-element vectors along ``axis`` (Array API linalg.cross: both
    operands need 3 elements there). Its errors follow the installed NumPy's: from 2.5,
    where numpy.cross takes only 3-element vectors, numpy.linalg.cross is numpy.cross with one
    axis (AxisError 'axisa'/'axisb' for an axis out of range, checked first); before, it
    reads ``shape[axis]`` of each operand (IndexError) before the 3-element check."""
    x1 = _arr(x1)
    x2 = _arr(x2)
    axis = operator.index(axis)
    if _products._CROSS_REJECTS_2D:
        return _products.cross(x1, x2, axis=axis)
    n1, n2 = x1.shape[axis], x2.shape[axis]
    if n1 != 3 or n2 != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they are {n1} and {n2} dimensional instead.")
    return _products.cross(x1, x2, axis=axis)


def _chain_order(shapes):
    """split[i][j]: where the cheapest product of matrices i..j splits (fewest scalar
    multiplications; the textbook dynamic program, as numpy.linalg.multi_dot's)."""
    n = len(shapes)
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            best = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if best is None or q < best:
                    best = q
                    split[i][j] = k
            cost[i][j] = best
    return split


def _chain(arrays, split, i, j, out=None):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return _products.dot(_chain(arrays, split, i, k), _chain(arrays, split, k + 1, j),
                         out=out)


def multi_dot(arrays, *, out: ndarray | None = None) -> ndarray:
    """The product of two or more matrices in the order of fewest scalar multiplications
    (numpy.linalg.multi_dot): the first array may be 1-d (a row vector) and the last 1-d (a
    column vector), the others are 2-d; ``out`` receives the final product."""
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return _products.dot(arrays[0], arrays[1], out=out)
    arrays = [_arr(a) for a in arrays]
    ndim_first, ndim_last = arrays[0].ndim, arrays[-1].ndim
    if ndim_first == 1:
        arrays[0] = arrays[0].reshape(1, -1)
    if ndim_last == 1:
        arrays[-1] = arrays[-1].reshape(-1, 1)
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be "
                              "two-dimensional")
    result = _chain(arrays, _chain_order([a.shape for a in arrays]), 0, n - 1, out=out)
    if ndim_first == 1 and ndim_last == 1:
        return result[0, 0]
    if ndim_first == 1 or ndim_last == 1:
        return result.ravel()
    return result
