"""Products: dot, vdot, inner, outer, tensordot, kron, cross, vecdot, einsum (NumPy 2
semantics). ``matmul`` and the ``@`` operators are bound directly in C++
(cpp/bindings/products_bind.cpp)."""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index

from gpuarr import _core
from gpuarr._core import matmul, ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, DTypeLike

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


def dot(a: ArrayLike, b: ArrayLike, out: ndarray | None = None) -> ndarray:
    """numpy.dot."""
    return _finish(_core._dot(a, b), out)


def vdot(a: ArrayLike, b: ArrayLike, /) -> ndarray:
    """numpy.vdot: conjugates the first argument, flattens both."""
    return _core._vdot(a, b)


def inner(a: ArrayLike, b: ArrayLike, /) -> ndarray:
    """Inner product over the last axes (numpy.inner)."""
    return _core._inner(a, b)


def outer(a: ArrayLike, b: ArrayLike, out: ndarray | None = None) -> ndarray:
    """Outer product of two arrays, flattened first (numpy.outer)."""
    return _finish(_core._outer(a, b), out)


def kron(a: ArrayLike, b: ArrayLike) -> ndarray:
    """Kronecker product (numpy.kron)."""
    return _core._kron(a, b)


def tensordot(a: ArrayLike, b: ArrayLike, axes=2) -> ndarray:
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


def _numpy_cross_rejects_2d():
    """True where the installed NumPy has removed 2-vector support from np.cross (NumPy 2.5
    raises ValueError; 2.0-2.4 warn with a DeprecationWarning). gpuarr follows it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _np.cross(_np.zeros(2), _np.zeros(2))
    except ValueError:
        return True
    return False


_CROSS_REJECTS_2D = _numpy_cross_rejects_2d()


def cross(a: ArrayLike, b: ArrayLike, axisa=-1, axisb=-1, axisc=-1,
          axis: AxisLike = None) -> ndarray:
    """numpy.cross: 3-vectors; 2-vectors as the installed NumPy does (deprecated in 2.0,
    an error from 2.5)."""
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a_ = a if isinstance(a, ndarray) else _core.asarray(a)
    b_ = b if isinstance(b, ndarray) else _core.asarray(b)
    if a_.ndim < 1 or b_.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    ca = a_.shape[_normalize_axis_index(axisa, a_.ndim, msg_prefix="axisa")]
    cb = b_.shape[_normalize_axis_index(axisb, b_.ndim, msg_prefix="axisb")]
    if _CROSS_REJECTS_2D:
        if ca != 3 or cb != 3:
            raise ValueError(
                "Both input arrays must be (arrays of) 3-dimensional vectors, "
                f"but they are {ca} and {cb} dimensional instead.")
    elif ca not in (2, 3) or cb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    elif ca == 2 or cb == 2:
        warnings.warn(
            "Arrays of 2-dimensional vectors are deprecated. Use arrays of "
            "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
            DeprecationWarning, stacklevel=2)
    return _core._cross(a_, b_, axisa, axisb, axisc)


def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: AxisLike = -1) -> ndarray:
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


def einsum(*operands, out: ndarray | None = None, optimize=False, dtype: DTypeLike = None,
           order="K", casting="safe"):
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
    ops = [o if isinstance(o, ndarray) else _core.asarray(o) for o in ops]
    if out is not None and not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType")
    op_dtype = _einsum_dtype(ops, out, dtype, casting)
    result = _core._einsum(subscripts, ops, op_dtype, bool(greedy))
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError("operands could not be broadcast together with remapped shapes: "
                         f"output operand has shape {out.shape}, einsum result has shape "
                         f"{result.shape}")
    out[...] = result
    return out


def _einsum_dtype(ops, out, dtype, casting):
    """The dtype einsum computes in, with NumPy's casting checks (its nditer's messages):
    ``dtype`` if given, else the result type of the operands and ``out``; each input must
    cast to it, and ``out`` (read-write) both ways, under ``casting``."""
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         "'unsafe'")
    dtypes = [o.dtype for o in ops]
    if not dtypes:
        return None if dtype is None else _np.dtype(dtype)
    if dtype is not None:
        op_dtype = _np.dtype(dtype)
    elif out is not None:
        op_dtype = _np.result_type(*dtypes, out.dtype)
    else:
        op_dtype = _np.result_type(*dtypes)
    for i, dt in enumerate(dtypes):
        if not _np.can_cast(dt, op_dtype, casting):
            raise TypeError(f"Iterator operand {i} dtype could not be cast from {dt!r} to "
                            f"{op_dtype!r} according to the rule '{casting}'")
    if out is not None:
        n = len(ops)
        if not _np.can_cast(out.dtype, op_dtype, casting):
            raise TypeError(f"Iterator operand {n} dtype could not be cast from {out.dtype!r} "
                            f"to {op_dtype!r} according to the rule '{casting}'")
        if not _np.can_cast(op_dtype, out.dtype, casting):
            raise TypeError(f"Iterator requested dtype could not be cast from {op_dtype!r} to "
                            f"{out.dtype!r}, the operand {n} dtype, according to the rule "
                            f"'{casting}'")
    return op_dtype if (dtype is not None or out is not None) else None


def _ndarray_dot(self, b, out=None):
    return dot(self, b, out=out)
