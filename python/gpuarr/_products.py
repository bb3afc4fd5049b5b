"""Products: dot, vdot, inner, outer, tensordot, kron, cross, vecdot, matvec, vecmat, einsum
(NumPy 2 semantics). ``matmul`` and the ``@`` operators are bound directly in C++
(cpp/bindings/products_bind.cpp)."""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index

from gpuarr import _core, _shape_ops, _ufuncs
from gpuarr._core import matmul, ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, DTypeLike

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "kron", "cross", "vecdot",
           "matvec", "vecmat", "einsum"]


_DOT_OUT_NOT_ACCEPTABLE = ("output array is not acceptable (must have the right datatype, "
                           "number of dimensions, and be a C-Array)")
# The dtypes of NumPy's BLAS path of dot (float32/64, complex64/128).
_BLAS_DTYPES = frozenset(map(_np.dtype, "fdFD"))


def dot(a: ArrayLike, b: ArrayLike, out: ndarray | None = None) -> ndarray:
    """Dot product of two arrays (numpy.dot).

    Parameters
    ----------
    a, b : array_like
        The operands: for 1-d arrays the inner product, for 2-d the matrix product, for a
        0-d operand the elementwise product, otherwise a sum product over the last axis of
        ``a`` and the second-to-last of ``b``.
    out : ndarray, optional
        Where to put the result. As NumPy's, it must be C-contiguous, with the result's
        number of dimensions and exactly its dtype (ValueError otherwise); where an operand
        is 0-d and the result is not a BLAS type (or an operand has more than 2 dimensions),
        NumPy computes ``multiply(a, b, out=out)`` and its ufunc rules apply instead.

    Returns
    -------
    ndarray
        The product (``out`` when given).
    """
    if out is None:
        return _core._dot(a, b)
    if not isinstance(out, ndarray):
        raise TypeError("'out' must be an array")
    a = a if isinstance(a, ndarray) else _core.asarray(a)
    b = b if isinstance(b, ndarray) else _core.asarray(b)
    dtype = _np.result_type(a.dtype, b.dtype)
    blas = a.ndim <= 2 and b.ndim <= 2 and dtype in _BLAS_DTYPES
    if (a.ndim == 0 or b.ndim == 0) and not blas:
        return _ufuncs.multiply(a, b, out=out)
    result = _core._dot(a, b)  # NumPy checks the operands' shapes before out
    if (out.ndim != result.ndim or out.dtype != dtype or not out.flags.c_contiguous
            or not out.flags.writeable):
        raise ValueError(_DOT_OUT_NOT_ACCEPTABLE)
    if out.shape != result.shape:
        raise ValueError("output array has wrong dimensions")
    out[...] = result
    return out


def vdot(a: ArrayLike, b: ArrayLike, /) -> ndarray:
    """numpy.vdot: conjugates the first argument, flattens both."""
    return _core._vdot(a, b)


def inner(a: ArrayLike, b: ArrayLike, /) -> ndarray:
    """Inner product over the last axes (numpy.inner)."""
    return _core._inner(a, b)


def outer(a: ArrayLike, b: ArrayLike, out: ndarray | None = None) -> ndarray:
    """Outer product of two arrays, flattened first (numpy.outer).

    Parameters
    ----------
    a, b : array_like
        The vectors (flattened when not 1-d).
    out : ndarray, optional
        Where to put the result: NumPy computes ``multiply(a.ravel()[:, None],
        b.ravel()[None, :], out)``, so ``out`` follows the ufunc rules (a shape the result
        broadcasts to, casting 'same_kind').

    Returns
    -------
    ndarray
        ``out[i, j] = a[i] * b[j]``.
    """
    # One elementwise product, as NumPy computes it: exact (signed zeros kept, which a
    # rank-1 GEMM's 0 + a*b loses) and bound by the result's write anyway.
    a = a if isinstance(a, ndarray) else _core.asarray(a)
    b = b if isinstance(b, ndarray) else _core.asarray(b)
    return _ufuncs.multiply(a.reshape(-1)[:, None], b.reshape(-1)[None, :], out=out)


def kron(a: ArrayLike, b: ArrayLike) -> ndarray:
    """Kronecker product (numpy.kron)."""
    return _core._kron(a, b)


def tensordot(a: ArrayLike, b: ArrayLike, axes=2) -> ndarray:
    """numpy.tensordot: ``axes`` an int N (last N of a with first N of b) or a pair of
    sequences. The axes are read as NumPy reads them (an int N is ``range(-N, 0)`` and
    ``range(N)``, each axis indexes the shapes), so its errors are NumPy's: IndexError for
    an axis out of range, ValueError "shape-mismatch for sum"."""
    try:
        iter(axes)
    except Exception:
        n = operator.index(axes)
        axes_a, axes_b = list(range(-n, 0)), list(range(0, n))
    else:
        axes_a, axes_b = axes
    axes_a, axes_b = _axis_list(axes_a), _axis_list(axes_b)
    for ax in (axes_a, axes_b):
        if len(set(ax)) != len(ax):
            raise ValueError("duplicate axes are not allowed in tensordot")
    a = a if isinstance(a, ndarray) else _core.asarray(a)
    b = b if isinstance(b, ndarray) else _core.asarray(b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    for k in range(len(axes_a)):
        if a.shape[axes_a[k]] != b.shape[axes_b[k]]:
            raise ValueError("shape-mismatch for sum")
        axes_a[k] += a.ndim if axes_a[k] < 0 else 0
        axes_b[k] += b.ndim if axes_b[k] < 0 else 0
    return _core._tensordot(a, b, tuple(axes_a), tuple(axes_b))


def _axis_list(axes):
    """One side of tensordot's axes as a list (a lone axis is a list of one)."""
    try:
        len(axes)
    except TypeError:
        return [axes]
    return list(axes)


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


def _gufunc_operand(x, name, sig, i, need):
    a = x if isinstance(x, ndarray) else _core.asarray(x)
    if a.ndim < need:
        raise ValueError(f"{name}: Input operand {i} does not have enough dimensions (has "
                         f"{a.ndim}, gufunc core with signature {sig} requires {need})")
    return a


def _gufunc_core_axes(axes, name, ndims):
    """NumPy's ``axes=`` of a gufunc: one entry per operand (inputs, then the output), a
    tuple of core axes or an int for a one-dimensional core."""
    if not isinstance(axes, list):
        raise TypeError(f"axes should be a list, got {axes!r}")
    if len(axes) != len(ndims):
        raise ValueError(f"axes should be a list with an entry for all {len(ndims)} inputs "
                         "and outputs; entries for outputs can only be omitted if none of "
                         "them has core axes.")
    entries = []
    for entry, n in zip(axes, ndims):
        t = (entry,) if n == 1 and not isinstance(entry, tuple) else entry
        if not isinstance(t, tuple) or len(t) != n:
            raise ValueError(f"{name}: axes item should be a tuple with {n} element"
                             f"{'s' if n != 1 else ''}")
        entries.append(tuple(operator.index(v) for v in t))
    return entries


def _matrix_vector(name, sig, x1, x2, out, axes, axis):
    """matvec/vecmat over matmul: the vector becomes a one-column (matvec) or one-row
    (vecmat, conjugated as NumPy's vecmat does) matrix, and the unit axis is dropped."""
    if axis is not None:
        raise TypeError(f"{name}: axis can only be used with a single shared core dimension, "
                        f"not with the 2 distinct ones implied by signature {sig}.")
    mat_first = name == "matvec"
    a = _gufunc_operand(x1, name, sig, 0, 2 if mat_first else 1)
    b = _gufunc_operand(x2, name, sig, 1, 1 if mat_first else 2)
    out_axis = -1
    if axes is not None:
        ax1, ax2, ax_out = _gufunc_core_axes(axes, name, (2, 1, 1) if mat_first else (1, 2, 1))
        a = _shape_ops.moveaxis(a, ax1, tuple(range(-len(ax1), 0)))
        b = _shape_ops.moveaxis(b, ax2, tuple(range(-len(ax2), 0)))
        out_axis = ax_out[0]
    n_mat, n_vec = (a.shape[-1], b.shape[-1]) if mat_first else (b.shape[-2], a.shape[-1])
    if n_mat != n_vec:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature {sig} (size {b.shape[-1 if mat_first else -2]}"
                         f" is different from {a.shape[-1]})")
    if mat_first:
        res = matmul(a, _shape_ops.expand_dims(b, -1))[..., 0]
    else:
        if a.dtype.kind == "c":
            a = a.conj()
        res = matmul(_shape_ops.expand_dims(a, -2), b)[..., 0, :]
    if out_axis != -1:
        res = _shape_ops.moveaxis(res, -1, out_axis)
    if out is None:
        return res
    if not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if out.shape != res.shape:
        raise ValueError(f"{name}: Output operand 0 has a shape {out.shape} that does not "
                         f"match the result shape {res.shape} (signature {sig})")
    if not _np.can_cast(res.dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {res.dtype!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")
    out[...] = res
    return out


def matvec(x1: ArrayLike, x2: ArrayLike, /, out: ndarray | None = None, *, axes=None,
           axis=None) -> ndarray:
    """Matrix-vector products over the last axes (or ``axes=``), broadcasting the leading
    ones (numpy.matvec, NumPy 2.2's gufunc ``(m,n),(n)->(m)``); computed by matmul, ``out=``
    filled from its result."""
    return _matrix_vector("matvec", "(m,n),(n)->(m)", x1, x2, out, axes, axis)


def vecmat(x1: ArrayLike, x2: ArrayLike, /, out: ndarray | None = None, *, axes=None,
           axis=None) -> ndarray:
    """The vector x1, conjugated, times the matrix x2 over the last axes (or ``axes=``),
    broadcasting the leading ones (numpy.vecmat, NumPy 2.2's gufunc ``(n),(n,m)->(m)``);
    computed by matmul, ``out=`` filled from its result."""
    return _matrix_vector("vecmat", "(n),(n,m)->(m)", x1, x2, out, axes, axis)


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
    if len(ops) == 1 and out is None:
        # NumPy returns a view here before its iterator looks at dtype= and casting= (so
        # the view keeps the operand's dtype even with dtype=); the arguments themselves are
        # still parsed first.
        if dtype is not None:
            _np.dtype(dtype)
        _check_casting(casting)
        layout = _einsum_view_layout(subscripts, ops[0].shape, ops[0].strides)
        if layout is not None:
            return _core._strided_view(ops[0], layout[0], layout[1], 0)
    if dtype is not None:
        _np.dtype(dtype)  # an unknown dtype is NumPy's TypeError before out='s checks
    if out is not None:
        _check_einsum_out(subscripts, ops, out)
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


def _check_einsum_out(subscripts, ops, out):
    """NumPy's einsum checks out='s number of dimensions, then the operands' and out's
    sizes, before any casting rule (TypeError): the result's shape worked out from the
    subscripts here, where they parse (the general path raises NumPy's error otherwise)."""
    result = _einsum_result_shape(subscripts, [o.shape for o in ops])
    if result is None:
        return
    ndim, shape = result
    if out.ndim != ndim:
        raise ValueError(f"out parameter does not have the correct number of dimensions, has "
                         f"{out.ndim} but should have {ndim}")
    if shape is None or out.shape != shape:
        raise ValueError("operands could not be broadcast together with remapped shapes: "
                         f"output operand has shape {out.shape}, einsum result has shape "
                         f"{shape}")


def _einsum_result_shape(subscripts, shapes):
    """(ndim, shape) of einsum's result for operands of ``shapes`` (shape None where the
    operands' sizes of a label or of the broadcast dimensions conflict), or None where the
    subscripts do not parse as C einsum's (string form)."""
    if not isinstance(subscripts, str):
        return None
    if "->" in subscripts:
        inputs, output = subscripts.split("->", 1)
    elif "-" in subscripts or ">" in subscripts:
        return None
    else:
        inputs, output = subscripts, None
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        return None
    sizes, counts, bshape, conflict = {}, {}, (), False
    for term, shape in zip(terms, shapes):
        parsed = _einsum_term(term)
        if parsed is None:
            return None
        before, after, ellipsis = parsed
        nletters = len(before) + len(after)
        if nletters > len(shape) or (not ellipsis and nletters != len(shape)):
            return None
        nb = len(shape) - nletters
        own = {}
        for c, d in zip(before + after, shape[:len(before)] + shape[len(before) + nb:]):
            if own.setdefault(c, d) != d:
                return None  # a diagonal of unequal sizes: NumPy's parse error
            counts[c] = counts.get(c, 0) + 1
        for c, d in own.items():
            seen = sizes.setdefault(c, d)
            if seen != d:
                if 1 in (seen, d):
                    sizes[c] = d if seen == 1 else seen
                else:
                    conflict = True
        try:
            bshape = _np.broadcast_shapes(bshape, shape[len(before):len(before) + nb])
        except ValueError:
            conflict = True
    if output is None:
        labels = sorted(c for c, n in counts.items() if n == 1)
        dims = list(bshape) + [sizes[c] for c in labels]
        ndim = len(bshape) + len(labels)
    else:
        parsed = _einsum_term(output)
        if parsed is None:
            return None
        obefore, oafter, oellipsis = parsed
        labels = obefore + oafter
        if len(set(labels)) != len(labels) or any(c not in sizes for c in labels):
            return None
        if bshape and not oellipsis:
            return None
        dims = [sizes[c] for c in obefore] + (list(bshape) if oellipsis else []) + [
            sizes[c] for c in oafter]
        ndim = len(dims)
    return ndim, (None if conflict else tuple(dims))


def _check_casting(casting):
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                         "'unsafe'")


def _einsum_term(term):
    """(labels before '...', labels after it, has '...') of one term, or None where C
    einsum refuses it (a character other than a letter, a space or one '...')."""
    before, after, ellipsis = [], [], False
    i = 0
    while i < len(term):
        c = term[i]
        if c == " ":
            i += 1
            continue
        if c == ".":
            if ellipsis or term[i:i + 3] != "...":
                return None
            ellipsis = True
            i += 3
            continue
        if not ("A" <= c <= "Z" or "a" <= c <= "z"):
            return None
        (after if ellipsis else before).append(c)
        i += 1
    return before, after, ellipsis


def _einsum_view_layout(subscripts, shape, strides):
    """The (shape, strides) of the view NumPy's einsum returns for one operand of ``shape``
    and ``strides``, at the operand's own address, or None where NumPy computes a result.

    NumPy (C einsum's get_single_op_view) returns a view when no label is summed: the
    output relabels and reorders the operand's axes, a repeated label taking the diagonal
    (its strides added). A 0-d result is a scalar there (a copy), so None. Subscripts that
    C einsum refuses give None too: the general path raises NumPy's error for them."""
    if not isinstance(subscripts, str):
        return None
    dash = subscripts.find("-")
    explicit = dash >= 0
    if explicit:
        if subscripts[dash + 1:dash + 2] != ">":
            return None
        inputs, output = subscripts[:dash], subscripts[dash + 2:]
    else:
        inputs, output = subscripts, ""
    if "," in inputs:
        return None
    term = _einsum_term(inputs)
    if term is None:
        return None
    before, after, ellipsis = term
    ndim = len(shape)
    nletters = len(before) + len(after)
    if nletters > ndim or (not ellipsis and nletters < ndim):
        return None
    nbroadcast = ndim - nletters
    # The broadcast dimensions get labels that sort before every letter: (0, k).
    labels = [(1, c) for c in before] + [(0, k) for k in range(nbroadcast)] + \
        [(1, c) for c in after]
    if explicit:
        term = _einsum_term(output)
        if term is None:
            return None
        obefore, oafter, oellipsis = term
        if nbroadcast and not oellipsis:
            return None
        out_labels = [(1, c) for c in obefore]
        if oellipsis:
            out_labels += [(0, k) for k in range(nbroadcast)]
        out_labels += [(1, c) for c in oafter]
        if len(set(out_labels)) != len(out_labels) or any(l not in labels for l in out_labels):
            return None
    else:
        counts = {}
        for lab in labels:
            counts[lab] = counts.get(lab, 0) + 1
        out_labels = [(0, k) for k in range(nbroadcast)] + sorted(
            lab for lab, c in counts.items() if lab[0] == 1 and c == 1)
    if not out_labels or any(lab not in out_labels for lab in labels):
        return None  # the result is 0-d, or a label is summed
    size, stride = {}, {}
    for lab, n, st in zip(labels, shape, strides):
        if lab not in size:
            size[lab], stride[lab] = n, st
            continue
        if size[lab] != n:
            if size[lab] == 0:
                # NumPy takes a size of 0 for "not seen yet" and would make a view of size
                # n over no elements; the general path refuses the mismatch instead.
                return None
            raise ValueError(f"dimensions in single operand for collapsing index "
                             f"'{lab[1]}' don't match ({size[lab]} != {n})")
        stride[lab] += st
    return (tuple(size[l] for l in out_labels), tuple(stride[l] for l in out_labels))


def _einsum_dtype(ops, out, dtype, casting):
    """The dtype einsum computes in, with NumPy's casting checks (its nditer's messages):
    ``dtype`` if given, else the result type of the operands and ``out``; each input must
    cast to it, and ``out`` (read-write) both ways, under ``casting``."""
    _check_casting(casting)
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
