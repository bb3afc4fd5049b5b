"""Array utilities of NumPy's namespace: shape queries (shape, ndim, size), type helpers
(common_type, min_scalar_type, mintypecode, typename, isscalar, iterable), memory overlap
(may_share_memory, shares_memory), block assembly and per-slice application (block,
apply_along_axis, apply_over_axes, piecewise, require), iteration protocols (broadcast,
ndenumerate, ndindex) and einsum_path.

What depends only on shapes and dtypes runs NumPy's own function on shape-only stand-ins
(zero-strided arrays that own no memory), so that its rules and messages apply exactly;
what touches values composes device operations."""

from __future__ import annotations

import collections.abc
import operator
from typing import TYPE_CHECKING, Any

import numpy as _np

from gpuarr import _core, _reductions, _shape_ops
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from gpuarr._typing import ArrayLike, DTypeLike, ndarray

__all__ = ["apply_along_axis", "apply_over_axes", "block", "broadcast", "common_type",
           "einsum_path", "isscalar", "iterable", "little_endian", "may_share_memory",
           "shares_memory", "min_scalar_type", "mintypecode", "ndenumerate", "ndim",
           "ndindex", "piecewise", "require", "shape", "size", "typename"]

# Host-only helpers whose NumPy definitions already treat gpuarr arrays as NumPy's
# (isscalar: an array, 0-d included, is not a scalar; iterable: 0-d arrays refuse iter()).
isscalar = _np.isscalar
iterable = _np.iterable
typename = _np.typename
ndindex = _np.ndindex
# Byte order of the host, which is also the device's (every CUDA GPU is little-endian).
little_endian = _np.little_endian


def _stand_in(a):
    """A NumPy array of ``a``'s shape and dtype that owns no memory (zero strides), for
    NumPy functions that read only shapes and dtypes; other objects pass unchanged."""
    if isinstance(a, _ndarray):
        return _np.broadcast_to(_np.empty((), dtype=a.dtype), a.shape)
    return a


# --- shape queries -------------------------------------------------------------------------


def shape(a: ArrayLike) -> tuple:
    """The shape of an array (numpy.shape).

    Parameters
    ----------
    a : array_like
        Input array.

    Returns
    -------
    tuple of ints
        The lengths of the array's dimensions.
    """
    if isinstance(a, _ndarray):
        return a.shape
    return _np.shape(a)


def ndim(a: ArrayLike) -> int:
    """The number of dimensions of an array (numpy.ndim).

    Parameters
    ----------
    a : array_like
        Input array.

    Returns
    -------
    int
        The number of dimensions (0 for a scalar).
    """
    if isinstance(a, _ndarray):
        return a.ndim
    return _np.ndim(a)


def size(a: ArrayLike, axis: int | tuple | None = None) -> int:
    """The number of elements along given axes (numpy.size).

    Parameters
    ----------
    a : array_like
        Input array.
    axis : int or tuple of ints, optional
        The axes counted; all of them by default.

    Returns
    -------
    int
        The number of elements.
    """
    if isinstance(a, _ndarray):
        if axis is None:
            return a.size
        return _np.size(_stand_in(a), axis)
    return _np.size(a, axis)


# --- dtype helpers -------------------------------------------------------------------------


def common_type(*arrays: ArrayLike) -> type:
    """The inexact scalar type common to the input arrays (numpy.common_type): integers
    count as float64; booleans and non-numeric arrays raise TypeError.

    Parameters
    ----------
    *arrays : array_like
        Input arrays (of any shape; only their dtypes matter).

    Returns
    -------
    type
        A NumPy floating or complex scalar type.
    """
    return _np.common_type(*(_stand_in(a) for a in arrays))


def min_scalar_type(a: ArrayLike, /) -> _np.dtype:
    """The smallest dtype that holds ``a`` (numpy.min_scalar_type): an array of ndim > 0
    gives its own dtype; a scalar or 0-d array gives the smallest type holding its value
    (read from the device: one element).

    Parameters
    ----------
    a : scalar or array_like
        The value whose minimal dtype is found.

    Returns
    -------
    numpy.dtype
        The minimal data type.
    """
    if isinstance(a, _ndarray):
        if a.ndim:
            return a.dtype
        a = _core.asnumpy(a)
    return _np.min_scalar_type(a)


def mintypecode(typechars: Any, typeset: str = "GDFgdf", default: str = "d") -> str:
    """The type character of the smallest type in ``typeset`` that the types of
    ``typechars`` can be safely cast to (numpy.mintypecode).

    Parameters
    ----------
    typechars : list of str or array_like
        Type characters, or arrays whose dtypes' characters are used.
    typeset : str or list of str, optional
        The type characters the result is chosen from.
    default : str, optional
        The result when no character of ``typechars`` is in ``typeset``.

    Returns
    -------
    str
        A type character.
    """
    if isinstance(typechars, _ndarray):
        # NumPy iterates over the array: each element has the array's type character
        typechars = (_np.empty((), typechars.dtype) if typechars.ndim == 0
                     else [typechars.dtype.char] * len(typechars))
    else:
        typechars = [t.dtype.char if isinstance(t, _ndarray) else t for t in typechars]
    return _np.mintypecode(typechars, typeset, default)


# --- memory overlap ------------------------------------------------------------------------


class _DeviceMemory:
    """A host array interface over a device array's addresses (never dereferenced), so that
    NumPy's overlap solver compares device memory ranges by the same arithmetic as host
    ones (device pointers share one virtual address space)."""

    def __init__(self, shape, typestr, strides, address):
        self.__array_interface__ = {"shape": shape, "typestr": typestr, "strides": strides,
                                    "data": (address, True), "version": 3}


def _device_memory(a):
    """``a``'s device memory as a _DeviceMemory; None for host memory."""
    if hasattr(type(a), "_data_ptr"):
        # A gpuarr array: its address without exporting it (__cuda_array_interface__ marks
        # the memory as shared outside gpuarr, which stops deferring work on it).
        return _DeviceMemory(a.shape, a.dtype.str, a.strides, a._data_ptr)
    if isinstance(a, _np.ndarray) or not hasattr(a, "__cuda_array_interface__"):
        return None
    cai = a.__cuda_array_interface__
    return _DeviceMemory(tuple(cai["shape"]), cai["typestr"], cai.get("strides"),
                         cai["data"][0])


def _overlap(a, b, max_work, numpy_fn):
    mem_a, mem_b = _device_memory(a), _device_memory(b)
    if mem_a is None and mem_b is None:
        return numpy_fn(a, b, max_work=max_work)
    if mem_a is None or mem_b is None:
        return False  # host memory and device memory
    if a.size == 0 or b.size == 0:
        return False
    return numpy_fn(_np.asarray(mem_a), _np.asarray(mem_b), max_work=max_work)


def may_share_memory(a: ArrayLike, b: ArrayLike, /, max_work: int = 0) -> bool:
    """Whether two arrays might share memory (numpy.may_share_memory): with the default
    ``max_work=0``, whether the device address ranges of their elements overlap.

    Parameters
    ----------
    a, b : ndarray
        Input arrays (a device array never shares memory with a host one).
    max_work : int, optional
        As numpy.may_share_memory: 0 compares bounds only; -1 solves exactly.

    Returns
    -------
    bool
        False when the arrays certainly do not overlap.
    """
    return _overlap(a, b, max_work, _np.may_share_memory)


def shares_memory(a: ArrayLike, b: ArrayLike, /, max_work: int = -1) -> bool:
    """Whether two arrays share memory (numpy.shares_memory): exactly, by NumPy's solver
    over the arrays' device addresses, shapes and strides (no device access).

    Parameters
    ----------
    a, b : ndarray
        Input arrays (a device array never shares memory with a host one).
    max_work : int, optional
        The effort bound of NumPy's solver (-1: exact; 0: bounds only).

    Returns
    -------
    bool
        Whether some element's bytes are in both arrays.

    Raises
    ------
    numpy.exceptions.TooHardError
        When the problem exceeds ``max_work``.
    """
    return _overlap(a, b, max_work, _np.shares_memory)


# --- einsum_path ---------------------------------------------------------------------------


def einsum_path(*operands: Any, optimize: Any = "greedy", einsum_call: bool = False) -> Any:
    """The contraction order of an einsum expression with the lowest cost
    (numpy.einsum_path): NumPy's search on the operands' shapes (no device data read).

    Parameters
    ----------
    *operands : str and array_like
        The subscripts and operands, as einsum takes them.
    optimize : {bool, list, tuple, 'greedy', 'optimal'}, optional
        The path search, as numpy.einsum_path.
    einsum_call : bool, optional
        NumPy's internal flag, passed on.

    Returns
    -------
    path : list
        The contraction order, ``['einsum_path', (i, j), ...]``.
    string_repr : str
        NumPy's printable report of the contraction.
    """
    return _np.einsum_path(*(_stand_in(o) for o in operands), optimize=optimize,
                           einsum_call=einsum_call)


# --- block ---------------------------------------------------------------------------------


def _block_format_index(index):
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _block_check_depths_match(arrays, parent_index=()):
    """(index of the first leaf, largest leaf ndim) of a nested list, with NumPy's errors."""
    if isinstance(arrays, tuple):
        raise TypeError(
            f"{_block_format_index(parent_index)} is a tuple. Only lists can be used to "
            "arrange blocks, and np.block does not allow implicit conversion from tuple to "
            "ndarray.")
    if isinstance(arrays, list) and arrays:
        results = [_block_check_depths_match(arr, parent_index + (i,))
                   for i, arr in enumerate(arrays)]
        first_index, max_ndim = results[0]
        for index, nd in results[1:]:
            max_ndim = max(max_ndim, nd)
            if len(index) != len(first_index):
                raise ValueError(
                    "List depths are mismatched. First element was at depth "
                    f"{len(first_index)}, but there is an element at depth {len(index)} "
                    f"({_block_format_index(index)})")
            if index[-1] is None:
                first_index = index
        return first_index, max_ndim
    if isinstance(arrays, list):
        return parent_index + (None,), 0
    return parent_index, ndim(arrays)


def _atleast_nd(a, nd):
    a = _core.asarray(a)
    if a.ndim < nd:
        a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    return a


def _block(arrays, max_depth, result_ndim, depth=0):
    if depth < max_depth:
        parts = [_block(arr, max_depth, result_ndim, depth + 1) for arr in arrays]
        return _shape_ops.concatenate(parts, axis=-(max_depth - depth))
    return _atleast_nd(arrays, result_ndim)


def block(arrays: Any) -> ndarray:
    """An array assembled from nested lists of blocks (numpy.block): the innermost lists
    are joined along the last axis, the next ones along the second-last, and so on.

    Parameters
    ----------
    arrays : nested list of array_like or scalars
        The blocks; lists nest to the same depth everywhere (tuples are refused).

    Returns
    -------
    ndarray
        The assembled array, of ndim ``max(list depth, largest block ndim)``.
    """
    bottom_index, arr_ndim = _block_check_depths_match(arrays)
    list_ndim = len(bottom_index)
    if bottom_index and bottom_index[-1] is None:
        raise ValueError(f"List at {_block_format_index(bottom_index)} cannot be empty")
    result_ndim = max(arr_ndim, list_ndim)
    result = _block(arrays, list_ndim, result_ndim)
    if list_ndim == 0:
        result = result.copy()  # a single block: a new array, as from concatenation
    return result


# --- per-slice application -----------------------------------------------------------------


def apply_along_axis(func1d: Callable[..., Any], axis: int, arr: ArrayLike, *args: Any,
                     **kwargs: Any) -> ndarray:
    """Applies a function to the 1-d slices of an array along an axis
    (numpy.apply_along_axis): one call of ``func1d`` per slice, each on a device view.

    Parameters
    ----------
    func1d : callable
        ``func1d(a, *args, **kwargs)`` of a 1-d slice ``a``.
    axis : int
        The axis the slices run along.
    arr : array_like
        Input array.
    *args, **kwargs
        Further arguments of ``func1d``.

    Returns
    -------
    ndarray
        The results, with ``axis`` replaced by the result's dimensions.
    """
    arr = _core.asarray(arr)
    nd = arr.ndim
    axis = int(_np.lib.array_utils.normalize_axis_index(axis, nd))
    in_dims = list(range(nd))
    inarr_view = _shape_ops.transpose(arr, tuple(in_dims[:axis] + in_dims[axis + 1:] + [axis]))
    inds = (ind + (Ellipsis,) for ind in _np.ndindex(inarr_view.shape[:-1]))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError(
            "Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = _core.asarray(func1d(inarr_view[ind0], *args, **kwargs))
    buff = _core.zeros(inarr_view.shape[:-1] + res.shape, dtype=res.dtype)
    buff_dims = list(range(buff.ndim))
    buff_permute = tuple(buff_dims[0:axis] + buff_dims[buff.ndim - res.ndim:buff.ndim]
                         + buff_dims[axis:buff.ndim - res.ndim])
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _core.asarray(func1d(inarr_view[ind], *args, **kwargs))
    return _shape_ops.transpose(buff, buff_permute)


def apply_over_axes(func: Callable[..., Any], a: ArrayLike, axes: Any) -> ndarray:
    """Applies ``func(a, axis)`` repeatedly over several axes (numpy.apply_over_axes),
    keeping the reduced axes as length 1.

    Parameters
    ----------
    func : callable
        ``func(a, axis)``, returning an array of ``a``'s ndim or one less.
    a : array_like
        Input array.
    axes : int or sequence of ints
        The axes, in order.

    Returns
    -------
    ndarray
        The result, of ``a``'s ndim.
    """
    val = _core.asarray(a)
    n = a.ndim  # NumPy reads the dimension count of the argument itself
    if _np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim == val.ndim:
            val = res
        else:
            res = _shape_ops.expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError("function is not returning an array of the correct shape")
    return val


def _is_condition_array(c):
    # An element of a 1-d condition array is a scalar (NumPy's indexing gives np.bool_;
    # gpuarr's gives a 0-d array): a single condition, to be wrapped in a list.
    if isinstance(c, _ndarray):
        return c.ndim > 0
    return isinstance(c, (list, _np.ndarray))


def piecewise(x: ArrayLike, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> ndarray:
    """A piecewise-defined function (numpy.piecewise): where ``condlist[i]`` holds, the
    result is ``funclist[i](x[cond], *args, **kw)`` (or the constant ``funclist[i]``); one
    extra function is the value where no condition holds.

    Parameters
    ----------
    x : array_like
        The domain.
    condlist : list of bool arrays or a bool scalar
        The conditions, each of ``x``'s shape.
    funclist : list of callables or scalars
        One per condition, optionally one more for the "otherwise" case.
    *args, **kw
        Further arguments of the functions.

    Returns
    -------
    ndarray
        Of ``x``'s shape and dtype; zero where no condition holds.
    """
    x = _core.asarray(x)
    n2 = len(funclist)
    if isscalar(condlist) or (not _is_condition_array(condlist[0]) and x.ndim != 0):
        condlist = [condlist]
    if isinstance(condlist, _ndarray):
        condlist = condlist.astype(bool)
    else:
        condlist = _shape_ops.stack([_core.asarray(c).astype(bool) for c in condlist]) \
            if len(condlist) else _core.asarray(_np.zeros((0,) + x.shape, bool))
    n = len(condlist)
    if n == n2 - 1:  # the "otherwise" condition
        condelse = ~_reductions.any(condlist, axis=0, keepdims=True)
        condlist = _shape_ops.concatenate([condlist, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(
            f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    shape = x.shape
    if x.ndim == 0:
        # A 0-d x selected by 0-d masks gives the functions 1-d arrays of 0 or 1 element,
        # as a length-1 x does: computed as one, without 0-d boolean masks.
        x = x.reshape(1)
        condlist = condlist.reshape(n, 1)
    y = _core.zeros(x.shape, dtype=x.dtype)
    for cond, func in zip(condlist, funclist):
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y.reshape(shape)


_REQUIREMENT_FLAGS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C",
                      "F": "F", "F_CONTIGUOUS": "F", "FORTRAN": "F",
                      "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W",
                      "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a: ArrayLike, dtype: DTypeLike = None, requirements: Any = None, *,
            like: Any = None) -> ndarray:
    """An array of the given dtype meeting the given flag requirements (numpy.require),
    copied only when it does not.

    Parameters
    ----------
    a : array_like
        Input data.
    dtype : data-type, optional
        The required dtype.
    requirements : str or sequence of str, optional
        Flags: 'C'/'C_CONTIGUOUS', 'F'/'F_CONTIGUOUS', 'A'/'ALIGNED', 'W'/'WRITEABLE',
        'O'/'OWNDATA', 'E'/'ENSUREARRAY' (device arrays are always aligned and writeable).
    like : object, optional
        Accepted for NumPy's signature; ignored.

    Returns
    -------
    ndarray
        An array with the requirements met.
    """
    if not requirements:
        return _core.asarray(a, dtype=dtype)
    requirements = {_REQUIREMENT_FLAGS[x.upper()] for x in requirements}
    requirements.discard("E")  # gpuarr has no ndarray subclasses
    order = None
    if requirements >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    elif "C" in requirements:
        order = "C"
        requirements.remove("C")
    elif "F" in requirements:
        order = "F"
        requirements.remove("F")
    arr = _core.asarray(a, dtype=dtype, order=order)
    for prop in requirements:
        if not arr.flags[prop]:
            return arr.copy(order or "A")
    return arr


# --- iteration protocols -------------------------------------------------------------------


class broadcast:
    """The broadcast of several arrays against each other (numpy.broadcast): its shape,
    ndim, size and the number of operands; iterating yields tuples of elements, read from
    one host copy of each operand made at the first step (element-by-element iteration is a
    host protocol).

    Parameters
    ----------
    *args : array_like
        Up to 64 operands (broadcast objects contribute their operands).

    Attributes
    ----------
    shape, ndim, nd, size, numiter, iters, index
        As numpy.broadcast's.
    """

    def __init__(self, *args: Any) -> None:
        operands = []
        for a in args:
            if isinstance(a, broadcast):
                operands.extend(a._operands)
            elif isinstance(a, _ndarray):
                operands.append(a)
            else:
                operands.append(_np.asarray(a))
        shapes = _np.broadcast(*(_stand_in(o) for o in operands))  # NumPy's checks
        self._operands = operands
        self._shape = shapes.shape
        self._host = None

    def _iterator(self):
        if self._host is None:
            self._host = _np.broadcast(*(_core.asnumpy(o) if isinstance(o, _ndarray) else o
                                         for o in self._operands))
        return self._host

    @property
    def shape(self) -> tuple:
        """The broadcast shape."""
        return self._shape

    @property
    def ndim(self) -> int:
        """The number of dimensions of the broadcast shape."""
        return len(self._shape)

    nd = ndim

    @property
    def size(self) -> int:
        """The number of elements of the broadcast shape."""
        return operator.index(_np.prod(self._shape, dtype=_np.int64))

    @property
    def numiter(self) -> int:
        """The number of operands."""
        return len(self._operands)

    @property
    def iters(self) -> tuple:
        """One flat iterator per operand, over its broadcast host copy."""
        return self._iterator().iters

    @property
    def index(self) -> int:
        """The current position of the iteration."""
        return 0 if self._host is None else self._host.index

    def reset(self) -> None:
        """Restarts the iteration."""
        if self._host is not None:
            self._host.reset()

    def __iter__(self) -> broadcast:
        return self

    def __next__(self) -> tuple:
        return next(self._iterator())


class ndenumerate:
    """An iterator of (index, value) pairs over an array (numpy.ndenumerate), in C order;
    the values come from one host copy of the array made at the first step (element-by-
    element iteration is a host protocol).

    Parameters
    ----------
    arr : array_like
        Input array.
    """

    def __init__(self, arr: ArrayLike) -> None:
        self._arr = arr
        self._iter = None

    def __iter__(self) -> Iterator[tuple[tuple, Any]]:
        return self

    def __next__(self) -> tuple[tuple, Any]:
        if self._iter is None:
            arr = self._arr
            host = _core.asnumpy(arr) if isinstance(arr, _ndarray) else _np.asarray(arr)
            self._iter = _np.ndenumerate(host)
        return next(self._iter)
