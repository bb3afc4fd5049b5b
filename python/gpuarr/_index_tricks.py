"""Index tricks with NumPy's semantics: open and dense grids (``ix_``, ``mgrid``,
``ogrid``), the concatenators ``r_`` and ``c_``, the index arrays of diagonals, triangles and
masks, and conversions between multi-indices and flat indices. Index arrays are computed on
the device; only argument checks (and, for ``mode='raise'``, one bounds flag) touch the
host."""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING, Any, Callable

import numpy as _np
from numpy import index_exp, s_  # noqa: F401  (re-exported: they build host slice tuples)

from gpuarr import _core, _creation, _grid_creation, _indexing, _reductions, _shape_ops, _ufuncs

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ShapeLike, ndarray

_INTP_MAX = _np.iinfo(_np.intp).max


def _as_device(a):
    return a if isinstance(a, _core.ndarray) else _core.asarray(a)


# --- open and dense grids -------------------------------------------------------------------


def ix_(*args) -> tuple:
    """Open mesh from sequences, for cross-product indexing (``numpy.ix_``).

    Parameters
    ----------
    *args : 1-d array_like
        Integer or boolean index sequences; a boolean one stands for its nonzero indices.

    Returns
    -------
    tuple of ndarray
        ``len(args)`` device arrays, the k-th of shape ``(1, ..., n_k, ..., 1)``: indexing
        ``a[ix_(i, j)]`` picks the cross product of ``i`` and ``j``.
    """
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        if not isinstance(new, _core.ndarray):
            if not isinstance(new, _np.ndarray):
                new = _np.asarray(new)
                if new.size == 0:
                    # An empty sequence is an empty index list, not an empty float array.
                    new = new.astype(_np.intp)
            new = _core.asarray(new)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == _np.bool_:
            new, = _indexing.nonzero(new)
        new = new.reshape((1,) * k + (new.size,) + (1,) * (nd - k - 1))
        out.append(new)
    return tuple(out)


def _slice_parts(key):
    start = 0 if key.start is None else key.start
    step = 1 if key.step is None else key.step
    return start, key.stop, step


class _NdGrid:
    """``mgrid`` (sparse=False) and ``ogrid`` (sparse=True): NumPy's nd_grid on the device."""

    __slots__ = ("sparse",)

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        try:
            size = []
            # NumPy's arange rule: at least the default integer (the 0 in num_list).
            num_list = [0]
            for k in range(len(key)):
                start, stop, step = _slice_parts(key[k])
                if isinstance(step, (_np.complexfloating, complex)):
                    step = abs(step)
                    size.append(int(step))
                else:
                    size.append(math.ceil((stop - start) / step))
                num_list += [start, stop, step]
            typ = _np.result_type(*num_list)
            if self.sparse:
                nn = [_creation.arange(n, dtype=typ) for n in size]
            else:
                nn = _shape_ops.indices(size, typ)
            for k, kk in enumerate(key):
                start, _, step = _slice_parts(kk)
                if isinstance(step, (_np.complexfloating, complex)):
                    step = int(abs(step))
                    if step != 1:
                        step = (kk.stop - start) / float(step - 1)
                nn[k] = nn[k] * step + start
            if self.sparse:
                ndim = len(size)
                return tuple(nn[k].reshape((1,) * k + (-1,) + (1,) * (ndim - k - 1))
                             for k in range(ndim))
            return nn
        except (IndexError, TypeError):
            start, stop, step = key.start, key.stop, key.step
            if start is None:
                start = 0
            if isinstance(step, (_np.complexfloating, complex)):
                step_float = abs(step)
                step = length = int(step_float)
                if step != 1:
                    step = (key.stop - start) / float(step - 1)
                typ = _np.result_type(start, stop, step_float)
                return _creation.arange(0, length, 1, dtype=typ) * step + start
            return _creation.arange(start, stop, step)

    def __len__(self):
        return 0


class MGridClass(_NdGrid):
    """A dense multi-dimensional mesh grid, built by indexing (numpy.mgrid).

    ``mgrid[0:3, 0:4]`` is an array of shape (2, 3, 4) whose k-th slice holds the k-th
    coordinate. A complex step ``5j`` asks for that many points with the stop included.
    """

    __slots__ = ()

    def __init__(self):
        super().__init__(sparse=False)


class OGridClass(_NdGrid):
    """An open multi-dimensional mesh grid, built by indexing (numpy.ogrid).

    ``ogrid[0:3, 0:4]`` is a tuple of arrays of shapes (3, 1) and (1, 4) that broadcast to
    the dense grid. A complex step ``5j`` asks for that many points with the stop included.
    """

    __slots__ = ()

    def __init__(self):
        super().__init__(sparse=True)


mgrid = MGridClass()
ogrid = OGridClass()


# --- concatenators ------------------------------------------------------------------------


def _with_ndmin(obj, ndmin, dtype=None):
    """NumPy's ``array(obj, dtype, copy=None, ndmin=ndmin)``: copied only when needed, with
    leading axes of length 1 up to ``ndmin`` dimensions."""
    a = _core.asarray(obj, dtype)
    if a.ndim < ndmin:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


class AxisConcatenator:
    """Translates slice objects and arrays into a concatenation along an axis (NumPy's
    AxisConcatenator, behind ``r_`` and ``c_``); the pieces and the result live on the
    device."""

    __slots__ = ("axis", "matrix", "trans1d", "ndmin")

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        self.axis = axis
        self.matrix = matrix
        self.trans1d = trans1d
        self.ndmin = ndmin

    def __getitem__(self, key):
        if isinstance(key, str) or self.matrix:
            raise ValueError("gpuarr has no matrix type: matrix building (np.bmat strings, "
                             "the 'r' and 'c' directives) is not supported")
        if not isinstance(key, tuple):
            key = (key,)
        trans1d, ndmin, axis = self.trans1d, self.ndmin, self.axis
        objs = []
        # dtypes, or the scalars themselves so that they promote weakly as in NumPy
        result_type_objs = []
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                start, stop, step = _slice_parts(item)
                if isinstance(step, (_np.complexfloating, complex)):
                    newobj = _creation.linspace(start, stop, num=int(abs(step)))
                else:
                    newobj = _creation.arange(start, stop, step)
                if ndmin > 1:
                    newobj = _with_ndmin(newobj, ndmin)
                    if trans1d != -1:
                        newobj = newobj.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise ValueError("gpuarr has no matrix type: the 'r' and 'c' directives "
                                     "are not supported")
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = [int(x) for x in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
            elif type(item) in _np.ScalarType:
                scalar = True
                newobj = item
            else:
                item_ndim = _np.ndim(item)
                newobj = _with_ndmin(item, ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    defaxes = list(range(ndmin))
                    axes = defaxes[:k1] + defaxes[k2:] + defaxes[k1:k2]
                    newobj = newobj.transpose(tuple(axes))
            objs.append(newobj)
            result_type_objs.append(item if scalar else newobj.dtype)
        if result_type_objs:
            final_dtype = _np.result_type(*result_type_objs)
            objs = [_with_ndmin(obj, ndmin, final_dtype) for obj in objs]
        return _shape_ops.concatenate(tuple(objs), axis=axis)

    def __len__(self):
        return 0


class RClass(AxisConcatenator):
    """Concatenates slices, scalars and arrays along the first axis (``numpy.r_``).

    ``r_[1:4, 0, [7, 8]]`` is ``array([1, 2, 3, 0, 7, 8])``; a complex step ``5j`` is a
    linspace with that many points; a leading string ``'axis,ndmin,trans1d'`` sets the axis,
    the minimum number of dimensions and where 1-d pieces go.
    """

    __slots__ = ()

    def __init__(self):
        super().__init__(0)


class CClass(AxisConcatenator):
    """Stacks slices, scalars and arrays as columns (``numpy.c_``): ``r_['-1,2,0', ...]``."""

    __slots__ = ()

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()


# --- index arrays of diagonals, triangles and masks -----------------------------------------


def diag_indices(n, ndim=2) -> tuple:
    """Indices of the main diagonal of an ``ndim``-dimensional cube of side ``n``
    (numpy.diag_indices).

    Parameters
    ----------
    n : int
        The side of the arrays the indices are for.
    ndim : int, optional
        Their number of dimensions.

    Returns
    -------
    tuple of ndarray
        ``ndim`` references to the one device array ``arange(n)``.
    """
    idx = _creation.arange(n)
    return (idx,) * ndim


def diag_indices_from(arr: ArrayLike) -> tuple:
    """Indices of the main diagonal of ``arr``, whose sides must all be equal
    (numpy.diag_indices_from).

    Parameters
    ----------
    arr : ndarray
        At least 2-d, all dimensions of equal length (only its shape is read).

    Returns
    -------
    tuple of ndarray
        As ``diag_indices(arr.shape[0], arr.ndim)``.
    """
    if not arr.ndim >= 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def mask_indices(n, mask_func: Callable[..., Any], k=0) -> tuple:
    """Indices where ``mask_func(ones((n, n)), k)`` is nonzero (numpy.mask_indices).

    Parameters
    ----------
    n : int
        The side of the square arrays the indices are for.
    mask_func : callable
        Called as ``mask_func(a, k)`` on a device array of ones, like ``gpuarr.triu``.
    k : scalar, optional
        Passed on to ``mask_func``.

    Returns
    -------
    tuple of ndarray
        The row and column indices (``nonzero`` of the mask).
    """
    m = _core.ones((n, n), int)
    a = mask_func(m, k)
    return _indexing.nonzero(_ufuncs.not_equal(a, 0))


def tril_indices(n, k=0, m=None) -> tuple:
    """Indices of the lower triangle of an ``(n, m)`` array (numpy.tril_indices).

    Parameters
    ----------
    n : int
        Number of rows.
    k : int, optional
        Diagonal offset, as for ``tril``.
    m : int, optional
        Number of columns; ``n`` by default.

    Returns
    -------
    tuple of ndarray
        Row and column indices, rows sorted and columns increasing within a row.
    """
    return _indexing.nonzero(_grid_creation.tri(n, m, k=k, dtype=bool))


def triu_indices(n, k=0, m=None) -> tuple:
    """Indices of the upper triangle of an ``(n, m)`` array (numpy.triu_indices).

    Parameters
    ----------
    n : int
        Number of rows.
    k : int, optional
        Diagonal offset, as for ``triu``.
    m : int, optional
        Number of columns; ``n`` by default.

    Returns
    -------
    tuple of ndarray
        Row and column indices, rows sorted and columns increasing within a row.
    """
    return _indexing.nonzero(_ufuncs.logical_not(_grid_creation.tri(n, m, k=k - 1, dtype=bool)))


def tril_indices_from(arr: ArrayLike, k=0) -> tuple:
    """Indices of the lower triangle of a 2-d array (numpy.tril_indices_from).

    Parameters
    ----------
    arr : ndarray
        2-d (only its shape is read).
    k : int, optional
        Diagonal offset, as for ``tril``.

    Returns
    -------
    tuple of ndarray
        As ``tril_indices(*arr.shape)`` with offset ``k``.
    """
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr: ArrayLike, k=0) -> tuple:
    """Indices of the upper triangle of a 2-d array (numpy.triu_indices_from).

    Parameters
    ----------
    arr : ndarray
        2-d (only its shape is read).
    k : int, optional
        Diagonal offset, as for ``triu``.

    Returns
    -------
    tuple of ndarray
        As ``triu_indices(*arr.shape)`` with offset ``k``.
    """
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


# --- multi-indices and flat indices ---------------------------------------------------------


def _dims(shape):
    try:
        return (operator.index(shape),)
    except TypeError:
        return tuple(operator.index(d) for d in shape)


def _unravel_size(dims):
    """NumPy's size of the shape unravel_index reads (PyArray_OverflowMultiplyList): 0 at
    the first zero dimension, an error when the product leaves intp or is -1 (NumPy's
    overflow sentinel: a shape of (-1,) is refused, (2, -1) is not)."""
    size = 1
    for d in dims:
        if d == 0:
            return 0
        size *= d
        if not -2**63 <= size < 2**63:
            break
    else:
        if size != -1:
            return size
    raise ValueError("dimensions are too large; arrays and shapes with a total size "
                     "greater than 'intp' are not supported.")


def _check_order(order):
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")


def _strides(dims, order):
    """The element strides of an array of shape ``dims`` in the given order."""
    strides = [1] * len(dims)
    walk = range(len(dims) - 1, 0, -1) if order == "C" else range(len(dims) - 1)
    for i in walk:
        j = i - 1 if order == "C" else i + 1
        strides[j] = strides[i] * dims[i]
    return strides


def _int_index_array(a, empty_message=None):
    """``a`` on the device with an integer (or boolean) dtype, else NumPy's TypeError."""
    if not isinstance(a, _core.ndarray):
        host = _np.asarray(a)
        if empty_message and host.size == 0 and host.dtype == _np.float64 and not (
                isinstance(a, _np.ndarray)):
            raise TypeError(empty_message)
        a = _core.asarray(host)
    if a.dtype.kind not in "biu":
        raise TypeError("only int indices permitted")
    return a


def ravel_multi_index(multi_index, dims: ShapeLike, mode="raise", order="C") -> ndarray:
    """Flat indices from a tuple of coordinate arrays (numpy.ravel_multi_index).

    Parameters
    ----------
    multi_index : tuple of array_like
        One integer array per dimension, broadcast together.
    dims : tuple of ints
        The shape the coordinates index.
    mode : {'raise', 'wrap', 'clip'} or tuple of them, optional
        Out-of-range coordinates raise ValueError, wrap around, or are clipped; one mode
        for all dimensions or one per dimension.
    order : {'C', 'F'}, optional
        Row-major or column-major flat indices.

    Returns
    -------
    ndarray
        intp flat indices of the broadcast shape (0-d for scalar coordinates). With
        ``mode='raise'`` one flag is read back from the device to check the bounds.
    """
    dims = _dims(dims)
    if isinstance(mode, str):
        modes = (mode,) * len(dims)
    else:
        modes = tuple(mode)
        if len(modes) != len(dims):
            raise ValueError(f"list of clipmodes has wrong length ({len(modes)} instead of "
                             f"{len(dims)})")
    for m in modes:
        if m not in ("raise", "wrap", "clip"):
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    _check_order(order)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    size = 1
    for d in dims:
        size *= max(d, 0)
        if size > _INTP_MAX:
            raise ValueError("invalid dims: array size defined by dims is larger than the "
                             "maximum possible size.")
    for d, m in zip(dims, modes):
        if d == 0 and m != "raise":
            raise ValueError("cannot unravel if shape has zero entries (is empty).")
    if not dims:
        return _core.zeros((), _np.intp)
    coords = _shape_ops.broadcast_arrays(*[_int_index_array(i) for i in multi_index])
    shape = coords[0].shape
    result = _core.zeros(shape, _np.intp)
    bad = None
    for idx, d, m, stride in zip(coords, dims, modes, _strides(dims, order)):
        idx = idx.astype(_np.intp)
        if m == "wrap":
            idx = _ufuncs.remainder(idx, d)
        elif m == "clip":
            idx = _ufuncs.clip(idx, 0, d - 1)
        else:
            out_of_range = _ufuncs.logical_or(_ufuncs.less(idx, 0),
                                              _ufuncs.greater_equal(idx, d))
            bad = out_of_range if bad is None else _ufuncs.logical_or(bad, out_of_range)
        result = _ufuncs.add(result, _ufuncs.multiply(idx, stride))
    if bad is not None and bool(_reductions.any(bad)):
        raise ValueError("invalid entry in coordinates array")
    return result


def unravel_index(indices: ArrayLike, shape: ShapeLike, order="C") -> tuple:
    """Coordinate arrays from flat indices into an array of ``shape``
    (numpy.unravel_index).

    Parameters
    ----------
    indices : array_like
        Integer flat indices, each in ``[0, prod(shape))``.
    shape : tuple of ints
        The shape the flat indices index.
    order : {'C', 'F'}, optional
        Whether the flat indices are row-major or column-major.

    Returns
    -------
    tuple of ndarray
        One intp device array per dimension, of the shape of ``indices``. One flag is read
        back from the device to check the bounds (and the offending index, to name it in
        the error).
    """
    dims = _dims(shape)
    _check_order(order)
    size = _unravel_size(dims)
    idx = _int_index_array(indices, empty_message=(
        "indices must be integral: the provided empty sequence was inferred as float. "
        "Wrap it with 'np.array(indices, dtype=np.intp)'"))
    if not dims:
        raise ValueError("multiple indices are not supported for 0d arrays")
    idx = idx.astype(_np.intp)
    if idx.size == 0:
        return tuple(_core.empty(idx.shape, _np.intp) for _ in dims)
    out_of_range = _ufuncs.logical_or(_ufuncs.less(idx, 0), _ufuncs.greater_equal(idx, size))
    if bool(_reductions.any(out_of_range)):
        # The error path only: the indices come to the host to name the first bad one.
        host = _core.asnumpy(idx).reshape(-1)
        first = host[(host < 0) | (host >= size)][0]
        raise ValueError(f"index {first} is out of bounds for array with size {size}")
    return tuple(_ufuncs.remainder(_ufuncs.floor_divide(idx, stride), d)
                 for d, stride in zip(dims, _strides(dims, order)))


__all__ = [
    "c_", "diag_indices", "diag_indices_from", "index_exp", "ix_", "mask_indices", "mgrid",
    "ogrid", "r_", "ravel_multi_index", "s_", "tril_indices", "tril_indices_from",
    "triu_indices", "triu_indices_from", "unravel_index",
]
