"""Adding, removing and regrouping elements (numpy's append, delete, insert, resize,
trim_zeros, rollaxis, unstack). The index arithmetic of host ``obj`` arguments runs on the
host, on the axis' length only (NumPy's own rules and messages); the data moves on the
device through slices, gathers and concatenation."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _indexing, _shape_ops, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, ShapeLike, ndarray

__all__ = ["append", "delete", "insert", "resize", "trim_zeros", "rollaxis", "unstack"]


def _as(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _normalize_axis(axis, ndim):
    return int(_np.lib.array_utils.normalize_axis_index(axis, ndim))


def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> ndarray:
    """``values`` appended to the end of ``arr`` (numpy.append).

    Parameters
    ----------
    arr : array_like
        The array to append to.
    values : array_like
        The values to append (flattened when ``axis`` is None).
    axis : int, optional
        The axis along which to append; both arrays are flattened when None.

    Returns
    -------
    ndarray
        A copy of ``arr`` with ``values`` appended.
    """
    arr = _as(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.reshape(-1)
        values = _as(values).reshape(-1)
        axis = arr.ndim - 1
    return _shape_ops.concatenate((arr, values), axis=axis)


def _flat_axis(arr, axis):
    if axis is None:
        if arr.ndim != 1:
            arr = arr.reshape(-1)
        return arr, arr.ndim - 1
    return arr, _normalize_axis(axis, arr.ndim)


def delete(arr: ArrayLike, obj, axis: int | None = None) -> ndarray:
    """A copy of ``arr`` with the sub-arrays at ``obj`` along an axis removed
    (numpy.delete).

    Parameters
    ----------
    arr : array_like
        Input array.
    obj : slice, int, array of ints or array of bools
        The sub-arrays to remove (a boolean mask of the axis' length removes where true).
    axis : int, optional
        The axis; ``arr`` is flattened when None.

    Returns
    -------
    ndarray
        A copy without the removed sub-arrays.
    """
    arr, axis = _flat_axis(_as(arr), axis)
    n = arr.shape[axis]
    lead = (slice(None),) * axis
    if isinstance(obj, _ndarray):
        if obj.dtype == _np.bool_:
            if obj.shape != (n,):
                raise ValueError("boolean array argument obj to delete must be one "
                                 f"dimensional and match the axis length of {n}")
            keep = _ufuncs.logical_not(obj)
        elif obj.dtype.kind in "iu":
            keep = _core.ones((n,), dtype=_np.bool_)
            keep[obj.reshape(-1)] = False
        else:
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return arr[lead + (keep,)]
    kept = _np.delete(_np.arange(n, dtype=_np.intp), obj)  # NumPy's rules on the index range
    return _indexing.take(arr, kept, axis=axis)


def insert(arr: ArrayLike, obj, values: ArrayLike, axis: int | None = None) -> ndarray:
    """``values`` inserted along an axis before the given indices (numpy.insert).

    Parameters
    ----------
    arr : array_like
        Input array.
    obj : int, slice or sequence of ints
        The indices before which ``values`` are inserted (a gpuarr index array is read to
        the host: the result's shape depends on it).
    values : array_like
        The values, cast to ``arr``'s dtype.
    axis : int, optional
        The axis; ``arr`` is flattened when None.

    Returns
    -------
    ndarray
        A copy of ``arr`` with ``values`` inserted.
    """
    arr, axis = _flat_axis(_as(arr), axis)
    ndim = arr.ndim
    n = arr.shape[axis]
    newshape = list(arr.shape)
    if isinstance(obj, slice):
        indices = _np.arange(*obj.indices(n), dtype=_np.intp)
    else:
        host_obj = _core.asnumpy(obj) if isinstance(obj, _ndarray) else obj
        indices = _np.array(host_obj)
        if indices.dtype == _np.bool_:
            if indices.ndim != 1:
                raise ValueError(
                    "boolean array argument obj to insert must be one dimensional")
            indices = _np.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError(
                "index array argument obj to insert must be one dimensional or scalar")
    values = _core.asarray(values, dtype=arr.dtype)
    if values.ndim < ndim:  # numpy.array(values, ndmin=ndim)
        values = values.reshape((1,) * (ndim - values.ndim) + values.shape)
    slobj = [slice(None)] * ndim
    if indices.size == 1:
        index = indices.item()
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if index < 0:
            index += n
        if indices.ndim == 0:
            values = _shape_ops.moveaxis(values, 0, axis)
        numnew = values.shape[axis]
        newshape[axis] += numnew
        new = _core.empty(tuple(newshape), dtype=arr.dtype)
        slobj[axis] = slice(None, index)
        new[tuple(slobj)] = arr[tuple(slobj)]
        slobj[axis] = slice(index, index + numnew)
        new[tuple(slobj)] = values
        slobj[axis] = slice(index + numnew, None)
        slobj2 = [slice(None)] * ndim
        slobj2[axis] = slice(index, None)
        new[tuple(slobj)] = arr[tuple(slobj2)]
        return new
    if indices.size == 0 and not isinstance(obj, (_np.ndarray, _ndarray)):
        indices = indices.astype(_np.intp)
    if indices.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    indices = indices.astype(_np.intp)
    if indices.size and (indices.min() < -n or indices.max() > n):
        bad = indices[(indices < -n) | (indices > n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n + 1}")
    indices[indices < 0] += n
    numnew = len(indices)
    order = indices.argsort(kind="mergesort")
    indices[order] += _np.arange(numnew)
    newshape[axis] += numnew
    old_mask = _np.ones(newshape[axis], dtype=bool)
    old_mask[indices] = False
    new = _core.empty(tuple(newshape), dtype=arr.dtype)
    slobj2 = [slice(None)] * ndim
    slobj[axis] = indices
    slobj2[axis] = _np.flatnonzero(old_mask)
    new[tuple(slobj)] = values
    new[tuple(slobj2)] = arr
    return new


def resize(a: ArrayLike, new_shape: ShapeLike) -> ndarray:
    """A new array of the given shape filled with repeated copies of ``a``
    (numpy.resize).

    Parameters
    ----------
    a : array_like
        The array to repeat (in C order).
    new_shape : int or tuple of ints
        The shape of the result.

    Returns
    -------
    ndarray
        The resized array (zeros when ``a`` is empty).
    """
    if isinstance(new_shape, (int, _np.integer)):
        new_shape = (new_shape,)
    a = _as(a).reshape(-1)
    new_size = 1
    for dim_length in new_shape:
        new_size *= dim_length
        if dim_length < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    if a.size == 0 or new_size == 0:
        return _core.zeros(tuple(new_shape), dtype=a.dtype)
    repeats = -(-new_size // a.size)
    return _shape_ops.tile(a, repeats)[:new_size].reshape(tuple(new_shape))


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: AxisLike = None) -> ndarray:
    """``filt`` with its leading and/or trailing zeros removed along the given axes
    (numpy.trim_zeros).

    Parameters
    ----------
    filt : array_like
        Input array.
    trim : {'fb', 'f', 'b'}, optional
        Trim the front ('f'), the back ('b') or both.
    axis : int or sequence of int, optional
        The axes to trim (default all).

    Returns
    -------
    ndarray
        A view of ``filt`` without the zeros at the trimmed edges (the first/last non-zero
        index of each axis is read to the host: the result's shape depends on it).
    """
    filt = _as(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if axis is None:
        axis_tuple = tuple(range(filt.ndim))
    else:
        axis_tuple = _np.lib.array_utils.normalize_axis_tuple(axis, filt.ndim, argname="axis")
    if not axis_tuple:
        return filt
    nonzero = _indexing.argwhere(filt)
    if nonzero.shape[0] == 0:
        start = stop = [0] * filt.ndim
    else:
        from_to = _core.asnumpy(_shape_ops.stack(
            (nonzero.min(axis=0), nonzero.max(axis=0) + 1)))
        start = [int(v) for v in from_to[0]]
        stop = [int(v) for v in from_to[1]]
        if "f" not in trim:
            start = [None] * filt.ndim
        if "b" not in trim:
            stop = [None] * filt.ndim
    sl = tuple(slice(start[ax], stop[ax]) if ax in axis_tuple else slice(None)
               for ax in range(filt.ndim))
    return filt[sl]


def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> ndarray:
    """A view with ``axis`` rolled backwards until it lies before ``start``
    (numpy.rollaxis).

    Parameters
    ----------
    a : ndarray
        Input array.
    axis : int
        The axis to roll.
    start : int, optional
        The axis is rolled until it lies before this position.

    Returns
    -------
    ndarray
        A view of ``a``.
    """
    a = _as(a)
    n = a.ndim
    axis = _normalize_axis(axis, n)
    # start stays as given, as in NumPy's rollaxis: a float start that makes the roll a
    # no-op returns the view, any other fails at the insert below.
    if start < 0:
        start += n
    msg = "'%s' arg requires %d <= %s < %d, but %d was passed in"
    if not (0 <= start < n + 1):
        raise _np.exceptions.AxisError(msg % ("start", -n, "start", n + 1, start))
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(0, n))
    axes.remove(axis)
    axes.insert(operator.index(start), axis)
    return a.transpose(tuple(axes))


def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple:
    """The views of ``x`` along an axis, as a tuple (numpy.unstack).

    Parameters
    ----------
    x : ndarray
        Input array, at least 1-d.
    axis : int, optional
        The axis to split along.

    Returns
    -------
    tuple of ndarray
        ``x.shape[axis]`` views.
    """
    x = _as(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    moved = _shape_ops.moveaxis(x, axis, 0)
    return tuple(moved[i] for i in range(moved.shape[0]))
