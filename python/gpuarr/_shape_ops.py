"""Shape and data-movement operations with NumPy 2 semantics: views exactly where NumPy
returns views (reshape, ravel, transpose, swapaxes, moveaxis, expand_dims, squeeze,
broadcast_to, split, flip, rot90, diagonal, ...), copies otherwise. Layout arithmetic is
in the C++ core (``_core._squeeze``, ``_core._diagonal``, ...); joins assign each input
into a slice of the result (one copy kernel per input, no host round trip)."""

from __future__ import annotations

import builtins
import itertools
import operator
import warnings
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _creation
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, DTypeLike, ShapeLike, ndarray

_asarray = _core.asarray


def _arr(a):
    return a if type(a) is _ndarray else _asarray(a)


def _is_view_of(r, a):
    """True when ``r`` shares ``a``'s memory (as a view gpuarr made of it)."""
    owner = a if a.base is None else a.base
    return r.base is owner


# --- reshaping ---------------------------------------------------------------------------


def reshape(a: ArrayLike, /, shape: ShapeLike | None = None, order="C", *, newshape=None,
            copy=None) -> ndarray:
    """numpy.reshape: a view whenever one is possible, else a copy."""
    if newshape is not None:
        if shape is not None:
            raise TypeError(
                "You cannot specify 'newshape' and 'shape' arguments at the same time.")
        shape = newshape
    if shape is None:
        raise TypeError("reshape() missing 1 required positional argument: 'shape'")
    a = _arr(a)
    if copy:
        o = order if order in ("C", "F") else "C"
        if order == "A":
            o = "F" if (a.flags.f_contiguous and not a.flags.c_contiguous) else "C"
        return a.copy(order=o).reshape(shape, order=order)
    # positional when C order: a keyword costs pybind11 a dictionary walk per call
    r = a.reshape(shape) if order == "C" else a.reshape(shape, order=order)
    if copy is False and r.size and not _is_view_of(r, a):
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    return r


def _k_perm(a):
    # Axes by decreasing |stride| (stable): NumPy's K order (negative strides not flipped).
    return sorted(range(a.ndim), key=lambda i: -builtins.abs(a.strides[i]))


def _k_is_contiguous(a):
    perm = _k_perm(a)
    stride = a.itemsize
    for i in reversed(perm):
        if a.shape[i] == 1:
            continue
        if a.strides[i] != stride:
            return False
        stride *= a.shape[i]
    return True


def _resolve_order(a, order):
    if order is None:
        order = "C"
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got '{order}')")
    if order == "A":
        order = "F" if (a.flags.f_contiguous and not a.flags.c_contiguous) else "C"
    return order


def _flatten_copy(a, order):
    if order == "K":
        perm = _k_perm(a)
        return a.transpose(perm).copy(order="C").reshape(-1)
    return a.copy(order=order).reshape(-1, order=order)


def _m_flatten(self, order="C"):
    """A copy of the array collapsed into one dimension (numpy.ndarray.flatten)."""
    return _flatten_copy(self, _resolve_order(self, order))


def ravel(a: ArrayLike, order="C") -> ndarray:
    """numpy.ravel: a view when the array is contiguous in the requested order."""
    a = _arr(a)
    order = _resolve_order(a, order)
    if order == "C" and a.flags.c_contiguous:
        return _core._strided_view(a, (a.size,), (a.itemsize,), 0)
    if order == "F" and a.flags.f_contiguous:
        return _core._strided_view(a, (a.size,), (a.itemsize,), 0)
    if order == "K" and _k_is_contiguous(a):
        # The element at the lowest address comes first (all strides are positive here).
        return _core._strided_view(a, (a.size,), (a.itemsize,), 0)
    return _flatten_copy(a, order)


def _permuted(a, axes):
    a = _arr(a)
    # ndarray.transpose takes no axes (or ()) as "reverse them"; an explicit empty
    # permutation is one of the wrong length for any array with dimensions, as NumPy says.
    if isinstance(axes, (tuple, list)) and not axes and a.ndim:
        raise ValueError("axes don't match array")
    return a.transpose(axes)


def transpose(a: ArrayLike, axes=None) -> ndarray:
    """Permute the axes (numpy.transpose); a view."""
    return _permuted(a, axes)


def permute_dims(a: ArrayLike, /, axes=None) -> ndarray:
    """Permute the axes (the Array API's ``permute_dims``; ``axes`` defaults to reversing
    them, as NumPy's does); a view."""
    return _permuted(a, axes)


def swapaxes(a: ArrayLike, axis1, axis2) -> ndarray:
    """Interchange two axes (numpy.swapaxes); a view."""
    return _core._swapaxes(_arr(a), operator.index(axis1), operator.index(axis2))


def moveaxis(a: ArrayLike, source, destination) -> ndarray:
    """Move axes to new positions (numpy.moveaxis); a view."""
    return _core._moveaxis(_arr(a), source, destination)


def matrix_transpose(x: ArrayLike, /) -> ndarray:
    """Transpose the last two axes (numpy.matrix_transpose); a view."""
    x = _arr(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return _core._swapaxes(x, -1, -2)


def _mT(self):
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return _core._swapaxes(self, -1, -2)


def expand_dims(a: ArrayLike, axis: AxisLike) -> ndarray:
    """Insert axes of length one (numpy.expand_dims); a view."""
    return _core._expand_dims(_arr(a), axis)


def squeeze(a: ArrayLike, axis: AxisLike = None) -> ndarray:
    """Remove axes of length one (numpy.squeeze); a view."""
    return _core._squeeze(_arr(a), axis)


# --- broadcasting ------------------------------------------------------------------------


def broadcast_shapes(*args):
    """The shape that the given shapes broadcast to (numpy.broadcast_shapes)."""
    return _core._broadcast_shapes(*[(s,) if isinstance(s, int) else s for s in args])


def broadcast_to(array: ArrayLike, shape: ShapeLike, subok=False) -> ndarray:
    """A view with zero strides along the broadcast axes (gpuarr arrays have no writeable
    flag: do not write to it)."""
    if isinstance(shape, int):
        shape = (shape,)
    return _core._broadcast_to(_arr(array), shape)


def broadcast_arrays(*args, subok=False):
    """Broadcast arrays against each other (numpy.broadcast_arrays); views (gpuarr arrays
    have no writeable flag: writing to them is not refused). A list, as the Array API
    2024.12 (gpuarr's ``__array_api_version__``) and CuPy return; NumPy 2 returns a tuple."""
    arrays = [_arr(a) for a in args]
    shape = _core._broadcast_shapes(*[a.shape for a in arrays])
    if all(a.shape == shape for a in arrays):
        return arrays
    return [_core._broadcast_to(a, shape) for a in arrays]


def atleast_1d(*arys):
    """Views with at least one dimension (numpy.atleast_1d)."""
    res = []
    for a in arys:
        a = _arr(a)
        if a.ndim == 0:
            a = a.reshape(1)
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    """Views with at least two dimensions (numpy.atleast_2d)."""
    res = []
    for a in arys:
        a = _arr(a)
        if a.ndim == 0:
            a = a.reshape(1, 1)
        elif a.ndim == 1:
            a = a[None, :]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    """Views with at least three dimensions (numpy.atleast_3d)."""
    res = []
    for a in arys:
        a = _arr(a)
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:
            a = a[None, :, None]
        elif a.ndim == 2:
            a = a[:, :, None]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


# --- joining -----------------------------------------------------------------------------


def _check_cast(from_dt, to_dt, casting):
    if not _np.can_cast(from_dt, to_dt, casting):
        raise TypeError(
            f"Cannot cast array data from {from_dt!r} to {to_dt!r} according to the rule "
            f"'{casting}'")


def concatenate(arrays, /, axis: AxisLike = 0, out: ndarray | None = None, *,
                dtype: DTypeLike = None, casting="same_kind") -> ndarray:
    """numpy.concatenate: result dtype is the result_type of the inputs (or ``dtype``)."""
    if out is not None and dtype is not None:
        raise TypeError(
            "concatenate() only takes `out` or `dtype` as an argument, but both were "
            "provided.")
    arrs = [_arr(a) for a in arrays]
    if axis is None:
        arrs = [ravel(a) for a in arrs]
        axis = 0
    else:
        axis = operator.index(axis)
    if not arrs:
        raise ValueError("need at least one array to concatenate")
    shape = _core._concat_shape(arrs, axis)
    if out is not None:
        if not isinstance(out, _ndarray):
            raise TypeError("'out' must be a gpuarr array")
        if out.shape != shape:
            raise ValueError("Output array is the wrong shape")
        for a in arrs:
            _check_cast(a.dtype, out.dtype, casting)
        _core._concat_into(out, arrs, axis)
        return out
    if dtype is None:
        dt = _np.result_type(*[a.dtype for a in arrs])
    else:
        dt = _np.dtype(dtype)
    for a in arrs:
        _check_cast(a.dtype, dt, casting)
    return _core._concatenate(arrs, axis, dt)


def concat(arrays, /, *, axis: AxisLike = 0) -> ndarray:
    """Array API concat."""
    return concatenate(arrays, axis=axis)


def stack(arrays, axis: AxisLike = 0, out: ndarray | None = None, *, dtype: DTypeLike = None,
          casting="same_kind") -> ndarray:
    """Join arrays along a new axis (numpy.stack)."""
    arrs = [_arr(a) for a in arrays]
    if not arrs:
        raise ValueError("need at least one array to stack")
    shapes = {a.shape for a in arrs}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape")
    result_ndim = arrs[0].ndim + 1
    axis = _core._normalize_axis_tuple(operator.index(axis), result_ndim)[0]
    expanded = [_core._expand_dims(a, axis) for a in arrs]
    return concatenate(expanded, axis=axis, out=out, dtype=dtype, casting=casting)


def _seq(tup, name):
    if not isinstance(tup, (list, tuple)) and not isinstance(tup, _ndarray):
        raise TypeError(
            "arrays to stack must be passed as a \"sequence\" type such as list or tuple.")
    return list(tup)


def vstack(tup, *, dtype: DTypeLike = None, casting="same_kind") -> ndarray:
    """Stack arrays row-wise (numpy.vstack)."""
    arrs = atleast_2d(*_seq(tup, "vstack"))
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    return concatenate(arrs, 0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype: DTypeLike = None, casting="same_kind") -> ndarray:
    """Stack arrays column-wise (numpy.hstack)."""
    arrs = atleast_1d(*_seq(tup, "hstack"))
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    if arrs and arrs[0].ndim == 1:
        return concatenate(arrs, 0, dtype=dtype, casting=casting)
    return concatenate(arrs, 1, dtype=dtype, casting=casting)


def dstack(tup) -> ndarray:
    """Stack arrays along the third axis (numpy.dstack)."""
    arrs = atleast_3d(*_seq(tup, "dstack"))
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    return concatenate(arrs, 2)


def column_stack(tup) -> ndarray:
    """Stack 1-d arrays as columns of a 2-d array (numpy.column_stack)."""
    arrays = []
    for v in _seq(tup, "column_stack"):
        arr = _arr(v)
        if arr.ndim < 2:
            arr = atleast_2d(arr).T
        arrays.append(arr)
    return concatenate(arrays, 1)


# --- splitting ---------------------------------------------------------------------------


def array_split(ary: ArrayLike, indices_or_sections, axis: AxisLike = 0):
    """Split into sub-arrays, possibly of unequal size (numpy.array_split); views."""
    ary = _arr(ary)
    axis = operator.index(axis)
    try:
        ntotal = ary.shape[axis]
    except IndexError:
        raise _np.exceptions.AxisError(axis, ary.ndim) from None
    axis = axis % ary.ndim
    try:
        indices = list(indices_or_sections)
    except TypeError:
        sections = int(indices_or_sections)
        div_points = _core._array_split_bounds(ntotal, sections, False)
    else:
        div_points = [0] + [operator.index(i) for i in indices] + [ntotal]
    pre = (slice(None),) * axis
    return [ary[pre + (slice(div_points[i], div_points[i + 1]),)]
            for i in range(len(div_points) - 1)]


def split(ary: ArrayLike, indices_or_sections, axis: AxisLike = 0):
    """Split into equal sub-arrays or at given indices (numpy.split); views."""
    try:
        len(indices_or_sections)
    except TypeError:
        sections = indices_or_sections
        n = _arr(ary).shape[axis]
        if n % sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary: ArrayLike, indices_or_sections):
    """Split column-wise (numpy.hsplit); views."""
    ary = _arr(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary: ArrayLike, indices_or_sections):
    """Split row-wise (numpy.vsplit); views."""
    ary = _arr(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary: ArrayLike, indices_or_sections):
    """Split along the third axis (numpy.dsplit); views."""
    ary = _arr(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


# --- tiling and repeating ----------------------------------------------------------------


def tile(A: ArrayLike, reps) -> ndarray:
    """Repeat an array the given number of times per axis (numpy.tile)."""
    A = _arr(A)
    try:
        reps = tuple(operator.index(r) for r in reps)
    except TypeError:
        reps = (operator.index(reps),)
    return _core._tile(A, reps)


def _host_repeats(repeats):
    if isinstance(repeats, _ndarray):
        repeats = repeats.get()
    r = _np.asarray(repeats)
    if r.dtype != _np.intp:
        r = r.astype(_np.intp)  # NumPy truncates float counts as well
    return r


def repeat(a: ArrayLike, repeats, axis: AxisLike = None) -> ndarray:
    """numpy.repeat: a scalar count is one broadcasting copy; per-element counts become a
    gather through an index vector built on the host (device counts are read back once)."""
    a = _arr(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    else:
        axis = _core._normalize_axis_tuple(operator.index(axis), a.ndim)[0]
    r = _host_repeats(repeats)
    n = a.shape[axis]
    if r.ndim > 1:
        raise ValueError("object too deep for desired array")
    if r.ndim == 0 or r.size == 1:
        k = int(r.reshape(-1)[0]) if r.ndim else int(r)
        if k < 0:
            raise ValueError("negative dimensions are not allowed")
        if k == 0 or a.size == 0:  # the gather gives an empty result NumPy's zero strides
            idx = _np.repeat(_np.arange(n, dtype=_np.int64), k)
            return _core._repeat_gather(a, _asarray(idx), axis)
        shape = a.shape[:axis + 1] + (k,) + a.shape[axis + 1:]
        strides = a.strides[:axis + 1] + (0,) + a.strides[axis + 1:]
        src = _core._strided_view(a, shape, strides, 0)
        out = _core.empty(shape, a.dtype)
        out[...] = src
        return out.reshape(a.shape[:axis] + (n * k,) + a.shape[axis + 1:])
    if r.shape[0] != n:
        raise ValueError(
            f"operands could not be broadcast together with shape ({n},) ({r.shape[0]},)")
    if (r < 0).any():
        raise ValueError("repeats may not contain negative values.")
    idx = _np.repeat(_np.arange(n, dtype=_np.int64), r)
    return _core._repeat_gather(a, _asarray(idx), axis)


# --- reordering --------------------------------------------------------------------------


def flip(m: ArrayLike, axis: AxisLike = None) -> ndarray:
    """Reverse the order of elements along the given axes (numpy.flip); a view."""
    m = _arr(m)
    if axis is None:
        key = (slice(None, None, -1),) * m.ndim
    else:
        axes = _core._normalize_axis_tuple(axis, m.ndim)
        key = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(m.ndim))
    return m[key]


def fliplr(m: ArrayLike) -> ndarray:
    """Reverse the columns (numpy.fliplr); a view."""
    m = _arr(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m: ArrayLike) -> ndarray:
    """Reverse the rows (numpy.flipud); a view."""
    m = _arr(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


def roll(a: ArrayLike, shift, axis: AxisLike = None) -> ndarray:
    """numpy.roll: along one axis the concatenation of the axis's two parts; along several,
    one slice assignment per combination of parts."""
    a = _arr(a)
    if axis is None:
        return roll(ravel(a), shift, 0).reshape(a.shape)
    b = _np.broadcast(_np.asarray(shift), _np.asarray(axis))
    if b.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = {ax: 0 for ax in range(a.ndim)}
    for sh, ax in b:
        ax = _core._normalize_axis_tuple(int(ax), a.ndim)[0]
        shifts[ax] += int(sh)
    rolls = [((slice(None), slice(None)),)] * a.ndim
    rolled = []
    for ax, offset in shifts.items():
        offset %= a.shape[ax] or 1
        if offset:
            rolls[ax] = ((slice(None, -offset), slice(offset, None)),
                         (slice(-offset, None), slice(None, offset)))
            rolled.append((ax, offset))
    result = _core.empty_like(a)
    if len(rolled) == 1:
        # Along one axis the result is the concatenation of the two parts, in one pass
        # where one part's rows are short (roll along the last axis by a few elements).
        ax, offset = rolled[0]
        head = (slice(None),) * ax
        _core._concat_into(result, (a[head + (slice(-offset, None),)],
                                    a[head + (slice(None, -offset),)]), ax)
        return result
    for indices in itertools.product(*rolls):
        arr_index, res_index = zip(*indices)
        result[res_index] = a[arr_index]
    return result


def rot90(m: ArrayLike, k=1, axes=(0, 1)) -> ndarray:
    """Rotate by 90 degrees in the plane of two axes (numpy.rot90); a view."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = _arr(m)
    if axes[0] == axes[1] or builtins.abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    if not isinstance(k, (int, _np.integer)):
        # NumPy 2.5 casts a non-integer k to an integer, with this warning
        warnings.warn(f"Passing a value for k ({k}) that is not an integer type has been "
                      "deprecated in NumPy 2.5. The value will be cast to an integer.  In the "
                      "future this will be an error.", DeprecationWarning, stacklevel=2)
        k = int(k)
    k %= 4
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    axes_list = list(range(m.ndim))
    axes_list[axes[0]], axes_list[axes[1]] = axes_list[axes[1]], axes_list[axes[0]]
    if k == 1:
        return flip(m, axes[1]).transpose(axes_list)
    return flip(m.transpose(axes_list), axes[1])


# --- diagonals and triangles -------------------------------------------------------------


def diagonal(a: ArrayLike, offset=0, axis1=0, axis2=1) -> ndarray:
    """A view (NumPy 2's is read-only; gpuarr's is writeable)."""
    return _core._diagonal(_arr(a), operator.index(offset), operator.index(axis1),
                           operator.index(axis2))


def _diag_from_1d(v, k):
    n = v.shape[0] + builtins.abs(k)
    res = _core.zeros((n, n), v.dtype)
    if v.shape[0]:
        _core._diagonal(res, k, 0, 1)[...] = v
    return res


def diag(v: ArrayLike, k=0) -> ndarray:
    """Extract a diagonal or build a diagonal array (numpy.diag)."""
    v = _arr(v)
    k = operator.index(k)
    if v.ndim == 1:
        return _diag_from_1d(v, k)
    if v.ndim == 2:
        return _core._diagonal(v, k, 0, 1)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v: ArrayLike, k=0) -> ndarray:
    """A 2-d array with the flattened input on a diagonal (numpy.diagflat)."""
    return _diag_from_1d(ravel(_arr(v)), operator.index(k))


def trace(a: ArrayLike, offset=0, axis1=0, axis2=1, dtype: DTypeLike = None,
          out: ndarray | None = None) -> ndarray:
    """Sum along diagonals; the sum is the reductions area's ndarray.sum."""
    return diagonal(a, offset, axis1, axis2).sum(-1, dtype=dtype, out=out)


def _triangle(m, k, lower):
    m = _arr(m)
    if m.ndim == 0:
        raise TypeError("tri() missing 1 required positional argument: 'N'")
    if (not isinstance(k, (int, _np.integer)) or isinstance(k, bool)
            or not -2**63 <= k < 2**63):
        # NumPy's own mask, tri(N, M, k) (k - 1 for triu): its arange(-k, M - k) runs in an
        # integer dtype, which gives a float k a band of its own (and refuses NaN, complex,
        # ints beyond int64, ... with its exceptions). Host work of the matrix's size.
        mask = _np.tri(*m.shape[-2:], k=k if lower else k - 1, dtype=bool)
        mask, zero = _core.asarray(mask), _core.zeros((), m.dtype)
        return _core._where3(mask, m, zero) if lower else _core._where3(mask, zero, m)
    if m.ndim == 1:
        m = _core._broadcast_to(m, (m.shape[0], m.shape[0]))
    return _core._triangle(m, k, lower)


def triu(m: ArrayLike, k=0) -> ndarray:
    """Upper triangle of an array, or of each matrix in a stack (numpy.triu)."""
    return _triangle(m, k, False)


def tril(m: ArrayLike, k=0) -> ndarray:
    """Lower triangle of an array, or of each matrix in a stack (numpy.tril)."""
    return _triangle(m, k, True)


# --- grids -------------------------------------------------------------------------------


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate matrices from coordinate vectors (numpy.meshgrid). A list, as the Array
    API 2024.12 (gpuarr's ``__array_api_version__``) and CuPy return; NumPy 2 returns a
    tuple."""
    ndim = len(xi)
    if indexing not in ["xy", "ij"]:
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    s0 = (1,) * ndim
    output = [_arr(x).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + s0[2:])
        output[1] = output[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        output = broadcast_arrays(*output)
    if copy:
        output = [x.copy() for x in output]
    return list(output)


def indices(dimensions, dtype: DTypeLike = int, sparse=False):
    """An array of the indices of a grid (numpy.indices)."""
    dimensions = tuple(dimensions)
    n = len(dimensions)
    shape = (1,) * n
    if sparse:
        res = ()
    else:
        res = _core._empty_result((n,) + dimensions, dtype)
    for i, dim in enumerate(dimensions):
        idx = _creation.arange(dim, dtype=dtype).reshape(shape[:i] + (dim,) + shape[i + 1:])
        if sparse:
            res = res + (idx,)
        else:
            res[i] = idx
    return res


def asfortranarray(a: ArrayLike, dtype: DTypeLike = None, *, like=None) -> ndarray:
    """An array laid out in Fortran order (numpy.asfortranarray); ``like`` is not
    supported."""
    a = _core.array(a, dtype=dtype, copy=None, order="F")
    if a.ndim == 0:  # NumPy's ndmin=1: shape (1,), stride itemsize (the stride is not 0)
        a = _core._strided_view(a, (1,), (a.itemsize,), 0)
    return a


# --- ndarray methods (attached by _ndarray_methods) ---------------------------------------------------------------------


def _m_ravel(self, order="C"):
    return ravel(self, order)


def _m_squeeze(self, axis=None):
    return _core._squeeze(self, axis)


def _m_swapaxes(self, axis1, axis2):
    return swapaxes(self, axis1, axis2)


def _m_repeat(self, repeats, axis=None):
    return repeat(self, repeats, axis)


def _m_diagonal(self, offset=0, axis1=0, axis2=1):
    return diagonal(self, offset, axis1, axis2)


def _m_trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return trace(self, offset, axis1, axis2, dtype, out)


__all__ = [
    "reshape", "ravel", "transpose", "permute_dims", "swapaxes", "moveaxis",
    "matrix_transpose", "expand_dims", "squeeze", "broadcast_shapes", "broadcast_to",
    "broadcast_arrays", "atleast_1d", "atleast_2d", "atleast_3d", "concatenate", "concat",
    "stack", "vstack", "hstack", "dstack", "column_stack", "array_split", "split", "hsplit",
    "vsplit", "dsplit", "tile", "repeat", "flip", "fliplr", "flipud", "roll", "rot90",
    "diagonal", "diag", "diagflat", "trace", "triu", "tril", "meshgrid", "indices",
    "asfortranarray",
]
