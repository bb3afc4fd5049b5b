"""Index functions with NumPy's signatures: take, put, nonzero, argwhere, flatnonzero,
where (one argument), compress, extract, place, take_along_axis, put_along_axis, and the
ndarray methods take/put/nonzero/compress. The device work is advanced indexing in the C++
core (gather/scatter kernels, CUB nonzero)."""

from __future__ import annotations
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, ndarray

__all__ = [
    "take", "put", "nonzero", "argwhere", "flatnonzero", "where", "compress", "extract",
    "place", "take_along_axis", "put_along_axis",
]


def _as_device(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _ravel(a):
    return a.reshape(-1)


def _normalize_axis(axis, ndim):
    return int(_np.lib.array_utils.normalize_axis_index(axis, ndim))


def _check_take_out(out, shape):
    """take's (and compress's) out= rule, checked before the indices as NumPy does."""
    if out is None:
        return
    if not isinstance(out, _ndarray):
        raise TypeError("output must be an array")
    if out.shape != tuple(shape):
        raise ValueError("output array does not match result of ndarray.take")


def _copy_into(out, res):
    _check_take_out(out, res.shape)
    out[...] = res
    return out


def _index_array(ind, casting):
    """take/put indices as NumPy converts them: an array (NumPy or gpuarr) must cast to intp
    under `casting` ('same_kind' for take, 'safe' for put), anything else goes through
    np.array(ind, dtype=intp) element by element, so [1.5] indexes 1 and ['1'] too."""
    if isinstance(ind, (_ndarray, _np.ndarray)):
        if not _np.can_cast(ind.dtype, _np.intp, casting):
            what = "scalar" if ind.ndim == 0 else "array data"
            raise TypeError(f"Cannot cast {what} from {ind.dtype!r} to "
                            f"{_np.dtype(_np.intp)!r} according to the rule '{casting}'")
        return ind
    return _np.array(ind, dtype=_np.intp)


def take(a: ArrayLike, indices: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
         mode="raise") -> ndarray:
    """Take elements from an array along an axis (numpy.take); ``indices`` may be a host or
    gpuarr array."""
    a = _as_device(a)
    if axis is None:
        a = _ravel(a)
        axis = 0
    else:
        axis = _normalize_axis(axis, a.ndim)  # NumPy checks the axis before the indices
    indices = _index_array(indices, "same_kind")
    res = _core._take(a, indices, axis, mode)
    if out is not None:
        return _copy_into(out, res)
    return res


def _cyclic(values, n):
    """values (1-d device array) repeated to length n, as NumPy's put/place do."""
    m = values.shape[0]
    if m == n or m == 1:
        return values
    return values[_np.arange(n, dtype=_np.int64) % m]


def _clipmode(mode):
    """NumPy's clipmode argument (PyArray_ClipmodeConverter) as take/put's string."""
    if mode is None:
        return "raise"
    if isinstance(mode, str):
        if mode not in ("raise", "wrap", "clip"):
            raise ValueError(
                f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
        return mode
    if isinstance(mode, (bool, _np.bool_)) or not isinstance(mode, (int, _np.integer)):
        raise TypeError("clipmode not understood")
    return {0: "clip", 1: "wrap"}.get(int(mode), "raise")


def _last_writes(ind, v, size, mode):
    """put's values such that every write to one element carries the value NumPy's
    sequential loop leaves there (the last one), so that the device's unordered scatter
    gives NumPy's result with repeated indices; the indices keep their order. For arrays
    too large for the claiming scatter (``_put_flat`` says so, having checked the indices'
    bounds in mode 'raise')."""
    ind = _core.asarray(ind).astype(_np.int64)
    if mode == "wrap":
        target = _ufuncs.remainder(ind, size)
    elif mode == "clip":
        target = _ufuncs.minimum(_ufuncs.maximum(ind, 0), size - 1)
    else:  # mode 'raise': in range (checked), negative ones counted from the end
        target = _core._where3(_ufuncs.less(ind, 0), _ufuncs.add(ind, size), ind)
    order = _core._argsort(target, 0)  # stable: equal targets keep ind's order
    sorted_target = target[order]
    # In sorted order, the last of each run of equal targets is the last write in ind's.
    last = _ufuncs.subtract(_core._searchsorted(sorted_target, sorted_target, True, None), 1)
    values = _core.empty_like(v)
    values[order] = v[order[last]]
    return ind, values


def put(a: ArrayLike, ind: ArrayLike, v: ArrayLike, mode="raise"):
    """Replace the elements at the given flat indices (numpy.put), in place."""
    if not isinstance(a, _ndarray):
        raise TypeError("argument 1 must be gpuarr.ndarray, not " + type(a).__name__)
    mode = _clipmode(mode)
    ind = _index_array(ind, "safe")
    ind = _ravel(ind) if isinstance(ind, _ndarray) else ind.reshape(-1)
    n = ind.shape[0]
    if n and a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    v = _ravel(_core.asarray(v, dtype=a.dtype))
    if n == 0 or v.shape[0] == 0:
        return None
    v = _cyclic(v, n)
    last_write = n > 1 and v.shape[0] > 1  # one value: every write to an element is the same
    flat = a if a.flags.c_contiguous else a.copy(order="C")
    if not _core._put_flat(_ravel(flat), ind, v, mode, last_write):
        # Unsorted indices into an array too large for the device's claim scratch, already
        # checked in mode 'raise': 'wrap' maps them as 'raise' does, without a second check.
        ind, v = _last_writes(ind, v, a.size, mode)
        _core._put_flat(_ravel(flat), ind, v, "wrap" if mode == "raise" else mode, False)
    if flat is not a:
        a[...] = flat
    return None


def nonzero(a: ArrayLike):
    """The indices of the non-zero elements, one int64 array per dimension (numpy.nonzero)."""
    return _as_device(a).nonzero()


def argwhere(a: ArrayLike) -> ndarray:
    """The indices of the non-zero elements as an (N, ndim) int64 array (numpy.argwhere)."""
    a = _as_device(a)
    if a.ndim == 0:
        a = a.reshape(1)
        return _core._nonzero_rows(a).T[:, :0]
    return _core._nonzero_rows(a).T


def flatnonzero(a: ArrayLike) -> ndarray:
    """The indices of the non-zero elements of the flattened array (numpy.flatnonzero)."""
    return _ravel(_as_device(a)).nonzero()[0]


def where(condition: ArrayLike, x: ArrayLike | None = None, y=None):
    """``where(condition)`` is ``nonzero(condition)``; ``where(condition, x, y)`` picks from
    ``x`` where ``condition`` is true, else from ``y`` (numpy.where)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    return _core._where3(condition, x, y)


def _condition_indices(condition):
    if isinstance(condition, _ndarray):
        if condition.ndim != 1:
            raise ValueError("condition must be a 1-d array")
        return condition.nonzero()[0]
    c = _np.asarray(condition)
    if c.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return _np.nonzero(c)[0]


def compress(condition: ArrayLike, a: ArrayLike, axis: AxisLike = None,
             out: ndarray | None = None) -> ndarray:
    """The slices of ``a`` along ``axis`` where ``condition`` is true (numpy.compress)."""
    a = _as_device(a)
    idx = _condition_indices(condition)
    if axis is None:
        a = _ravel(a)
        axis = 0
    else:
        axis = _normalize_axis(axis, a.ndim)
    _check_take_out(out, a.shape[:axis] + (idx.shape[0],) + a.shape[axis + 1:])
    # NumPy: a condition shorter than the axis is padded with False; longer is an error
    # only where it is True past the end (take's bounds check reports it).
    res = _core._take(a, idx, axis, "raise")
    if out is not None:
        return _copy_into(out, res)
    return res


def extract(condition: ArrayLike, arr: ArrayLike) -> ndarray:
    """The elements of ``arr`` where ``condition`` is non-zero, flattened (numpy.extract)."""
    arr = _as_device(arr)
    if isinstance(condition, _ndarray):
        idx = _ravel(condition).nonzero()[0]
    else:
        idx = _np.nonzero(_np.ravel(condition))[0]
    return _core._take(_ravel(arr), idx, 0, "raise")


def place(arr: ArrayLike, mask: ArrayLike, vals: ArrayLike):
    """Put ``vals`` (cycled) into ``arr`` where ``mask`` is true, in place (numpy.place)."""
    if not isinstance(arr, _ndarray):
        raise TypeError("argument 1 must be gpuarr.ndarray, not " + type(arr).__name__)
    if not isinstance(mask, _ndarray):
        mask = _np.asarray(mask)
    if mask.size != arr.size:  # NumPy compares the sizes only: any shape of that size
        raise ValueError("place: mask and data must be the same size")
    if isinstance(mask, _ndarray):
        idx = _ravel(mask).nonzero()[0]
    else:
        idx = _np.nonzero(_np.ravel(mask))[0]
    n = idx.shape[0]
    # NumPy converts vals to arr's dtype without forcing the cast: an array must cast
    # safely, a list or scalar converts element by element (OverflowError out of range).
    if isinstance(vals, (_ndarray, _np.ndarray)):
        if not _np.can_cast(vals.dtype, arr.dtype, "safe"):
            what = "scalar" if vals.ndim == 0 else "array data"
            raise TypeError(f"Cannot cast {what} from {vals.dtype!r} to {arr.dtype!r} "
                            "according to the rule 'safe'")
    else:
        vals = _np.asarray(vals, dtype=arr.dtype)
    vals = _ravel(_core.asarray(vals, dtype=arr.dtype))
    if n == 0:
        return None
    if vals.shape[0] == 0:
        raise ValueError("Cannot insert from an empty array!")
    put(arr, idx, vals)
    return None


def _along_axis_index(arr_shape, indices, axis):
    # NumPy's _make_along_axis_idx: host aranges for the other axes.
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if len(arr_shape) != indices.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    shape_ones = (1,) * indices.ndim
    dest_dims = list(range(axis)) + [None] + list(range(axis + 1, indices.ndim))
    fancy = []
    for dim, n in zip(dest_dims, arr_shape):
        if dim is None:
            fancy.append(indices)
        else:
            ind_shape = shape_ones[:dim] + (-1,) + shape_ones[dim + 1:]
            fancy.append(_np.arange(n, dtype=_np.int64).reshape(ind_shape))
    return tuple(fancy)


def _along_axis_args(arr, indices, axis):
    arr = _as_device(arr)
    if not isinstance(indices, _ndarray):
        indices = _np.asarray(indices)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        return _ravel(arr), indices, 0
    return arr, indices, _normalize_axis(axis, arr.ndim)


def take_along_axis(arr: ArrayLike, indices: ArrayLike, axis: AxisLike = -1) -> ndarray:
    """Take values along an axis at 1-d indices matched to ``arr``
    (numpy.take_along_axis)."""
    arr, indices, axis = _along_axis_args(arr, indices, axis)
    return arr[_along_axis_index(arr.shape, indices, axis)]


def put_along_axis(arr: ArrayLike, indices: ArrayLike, values: ArrayLike, axis: AxisLike):
    """Put values along an axis at 1-d indices matched to ``arr``, in place
    (numpy.put_along_axis); ``axis=None`` needs a C-contiguous ``arr``."""
    if not isinstance(arr, _ndarray):
        raise TypeError("arr must be a gpuarr.ndarray")
    if axis is None:
        if not arr.flags.c_contiguous:
            raise ValueError("put_along_axis with axis=None needs a C-contiguous array")
    view, indices, axis = _along_axis_args(arr, indices, axis)
    view[_along_axis_index(view.shape, indices, axis)] = values


def _m_take(self, indices, axis=None, out=None, mode="raise"):
    return take(self, indices, axis, out, mode)


def _m_put(self, indices, values, mode="raise"):
    return put(self, indices, values, mode)


def _m_compress(self, condition, axis=None, out=None):
    return compress(condition, self, axis, out)
