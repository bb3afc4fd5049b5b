"""Products: dot, vdot, inner, outer, tensordot, kron, cross, vecdot, einsum (NumPy 2
semantics). ``matmul`` and the ``@`` operators are bound directly in C++
(cpp/bindings/products_bind.cpp)."""

import operator
import warnings

import numpy as _np

from gpuarr import _core
from gpuarr._core import matmul, ndarray

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "kron", "cross", "vecdot",
           "einsum"]


def _finish(result, out):
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if out.shape != result.shape:
        raise ValueError("output array is not acceptable (must have the right datatype, "
                         "number of dimensions, and be a C-Array)")
    out[...] = result
    return out


def dot(a, b, out=None):
    """numpy.dot."""
    return _finish(_core._dot(a, b), out)


def vdot(a, b, /):
    """numpy.vdot: conjugates the first argument, flattens both."""
    return _core._vdot(a, b)


def inner(a, b, /):
    return _core._inner(a, b)


def outer(a, b, out=None):
    return _finish(_core._outer(a, b), out)


def kron(a, b):
    return _core._kron(a, b)


def tensordot(a, b, axes=2):
    """numpy.tensordot: ``axes`` an int N (last N of a with first N of b) or a pair of
    sequences."""
    try:
        iter(axes)
    except Exception:
        n = operator.index(axes)
        nda, ndb = len(a.shape), len(b.shape)
        if n < 0 or n > nda or n > ndb:
            raise ValueError("shape-mismatch for sum")
        axes_a = list(range(nda - n, nda))
        axes_b = list(range(0, n))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
    return _core._tensordot(a, b, tuple(axes_a), tuple(axes_b))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross (2-vectors deprecated as in NumPy 2)."""
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a_ = a if isinstance(a, ndarray) else _core.asarray(a)
    b_ = b if isinstance(b, ndarray) else _core.asarray(b)
    try:
        ca = a_.shape[axisa]
        cb = b_.shape[axisb]
    except Exception:
        ca = cb = 3
    if ca == 2 or cb == 2:
        if ca in (2, 3) and cb in (2, 3):
            warnings.warn(
                "Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                DeprecationWarning, stacklevel=2)
    return _core._cross(a_, b_, axisa, axisb, axisc)


def vecdot(x1, x2, /, *, axis=-1):
    """Array API vecdot: sum over ``axis`` of conj(x1) * x2, broadcasting the rest."""
    return _core._vecdot(x1, x2, axis)


def _sublist_to_str(sub):
    chars = []
    for s in sub:
        if s is Ellipsis:
            chars.append("...")
        else:
            s = operator.index(s)
            if 0 <= s < 26:
                chars.append(chr(ord("A") + s))
            elif 26 <= s < 52:
                chars.append(chr(ord("a") + s - 26))
            else:
                raise ValueError("subscript is not within the valid range [0, 52)")
    return "".join(chars)


def einsum(*operands, out=None, optimize=False, dtype=None, order="K", casting="safe"):
    """numpy.einsum: any subscripts NumPy accepts (also the interleaved form). ``optimize``
    (False/True/'greedy'/'optimal'/an explicit path) chooses left-to-right or greedy pairwise
    contraction order."""
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subscripts, ops = operands[0], list(operands[1:])
    else:
        ops, subs = [], []
        rest = list(operands)
        while len(rest) >= 2:
            ops.append(rest.pop(0))
            subs.append(_sublist_to_str(rest.pop(0)))
        subscripts = ",".join(subs)
        if rest:
            subscripts += "->" + _sublist_to_str(rest[0])
    greedy = optimize not in (False, None)
    result = _core._einsum(subscripts, ops, dtype, bool(greedy))
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("return arrays must be of ArrayType")
        out[...] = result
        return out
    return result


def _ndarray_dot(self, b, out=None):
    return dot(self, b, out=out)


ndarray.dot = _ndarray_dot
