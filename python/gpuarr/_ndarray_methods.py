"""Every Python-level method of ``gpuarr.ndarray`` (and of ``gpuarr.ufunc``), attached from
the tables at the end of this module; the C++ bindings define the rest.

The methods here that are NumPy's own behaviour applied to a host copy (printing,
formatting, conversion to Python scalars) each cost one small device-to-host copy (one
element for scalars), so NumPy's rules and messages apply exactly. The others call the
module-level function of the same name (``a.sum()`` is ``gpuarr.sum(a)``)."""

import contextlib
import operator
import os
import pickle
import sys

import numpy as _np

from gpuarr import (
    _array_api,
    _assignment,
    _core,
    _flatiter,
    _indexing,
    _io,
    _numpy_dispatch,
    _products,
    _reductions,
    _shape_ops,
    _sorting,
    _ufunc_methods,
    _ufuncs,
)


def _repr(self):
    return repr(self.get())


def _str(self):
    return str(self.get())


def _format(self, spec):
    # NumPy formats 0-d arrays as their item and refuses a spec for larger arrays.
    if self.ndim == 0:
        return format(self._host_scalar(), spec)
    return format(self.get(), spec)


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _reduce(self):
    # Through host memory, onto the current device when unpickled.
    return (_core.array, (self.get(),))


def _copy(self):
    # As NumPy's, the copy keeps the memory layout.
    return self.copy(order="K")


def _deepcopy(self, memo):
    return self.copy(order="K")


def _bool(self):
    return bool(self._host_scalar())


def _float(self):
    return float(self._host_scalar())


def _int(self):
    return int(self._host_scalar())


def _complex(self):
    return complex(self._host_scalar())


def _index(self):
    h = self._host_scalar()
    return h.__index__()


def _clip(self, min=None, max=None, out=None, **kwargs):  # noqa: A002
    return _ufuncs.clip(self, min, max, out, **kwargs)


def _round(self, decimals=0, out=None):
    return _ufuncs.round(self, decimals, out)


def _choose(self, choices, out=None, mode="raise"):
    return _assignment.choose(self, choices, out, mode)


_UNSET = object()
_NOT_A_SUBTYPE = "Type must be a sub-type of ndarray type"


def _view_layout(shape, strides, itemsize, new_itemsize):
    """NumPy's shape and strides of a view with elements of ``new_itemsize`` bytes: the last
    axis (contiguous, or of length 1) is split or merged; errors as NumPy's."""
    if new_itemsize == itemsize:
        return shape, strides
    if not shape:
        raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize "
                         "is unchanged")
    n = shape[-1]
    size = 1
    for d in shape:
        size *= d
    if n != 1 and size != 0 and strides[-1] != itemsize:
        raise ValueError("To change to a dtype of a different size, the last axis must be "
                         "contiguous")
    if new_itemsize < itemsize:
        if itemsize % new_itemsize:
            raise ValueError("When changing to a smaller dtype, its size must be a divisor of "
                             "the size of original dtype")
        n *= itemsize // new_itemsize
    else:
        if (n * itemsize) % new_itemsize:
            raise ValueError("When changing to a larger dtype, its size must be a divisor of "
                             "the total size in bytes of the last axis of the array.")
        n = n * itemsize // new_itemsize
    return shape[:-1] + (n,), strides[:-1] + (new_itemsize,)


def _view(self, *args, **kwargs):
    """A new view of the array's memory (numpy.ndarray.view): ``view()``, ``view(dtype)``
    reinterpreting the bytes (the last axis changes length when the itemsize does, as in
    NumPy), ``view(type)`` for ``gpuarr.ndarray``. Unlike NumPy, a view whose elements would
    be misaligned raises ValueError (device loads need aligned elements)."""
    if len(args) > 2:
        raise TypeError(f"view() takes from 0 to 2 positional arguments but {len(args)} were "
                        "given")
    for k in kwargs:
        if k not in ("dtype", "type"):
            raise TypeError(f"view() got an unexpected keyword argument '{k}'")
    for i, k in enumerate(("dtype", "type")):
        if len(args) > i and k in kwargs:
            raise TypeError(f"argument for view() given by name ('{k}') and position ({i + 1})")
    dtype = args[0] if args else kwargs.get("dtype", _UNSET)
    typ = args[1] if len(args) > 1 else kwargs.get("type")
    if len(args) > 1 and typ is None:
        raise ValueError(_NOT_A_SUBTYPE)
    if isinstance(dtype, type) and issubclass(dtype, (_core.ndarray, _np.ndarray)):
        if typ is not None:
            raise ValueError("Cannot specify output type twice.")
        dtype, typ = _UNSET, dtype
    if typ is not None and not (isinstance(typ, type) and issubclass(typ, _core.ndarray)):
        raise ValueError(_NOT_A_SUBTYPE)
    if dtype is _UNSET:
        return _core._strided_view(self, self.shape, self.strides, 0)
    dtype = _np.dtype(dtype)
    shape, strides = _view_layout(self.shape, self.strides, self.itemsize, dtype.itemsize)
    return _core._strided_view(self, shape, strides, 0, dtype)


def _getfield(self, dtype, offset=0):
    """The view of ``dtype`` at byte ``offset`` inside each element (numpy.ndarray.getfield);
    ValueError where the field's elements would be misaligned on the device."""
    dtype = _np.dtype(dtype)
    offset = operator.index(offset)
    if offset < 0:
        raise ValueError("offset is negative")
    if dtype.itemsize > self.itemsize:
        raise ValueError("new type is larger than original type")
    if offset + dtype.itemsize > self.itemsize:
        raise ValueError("new type plus offset is larger than original type")
    return _core._strided_view(self, self.shape, self.strides, offset, dtype)


def _setfield(self, val, dtype, offset=0):
    """Writes ``val`` into the field of ``dtype`` at byte ``offset`` of each element
    (numpy.ndarray.setfield)."""
    _getfield(self, dtype, offset)[...] = val


def _byteswap(self, inplace=False):
    """The array with the bytes of each element reversed (each component's, for complex), as
    numpy.ndarray.byteswap; ``inplace=True`` writes them back into the array and returns it.
    One device copy through a reversed byte view."""
    dtype = self.dtype
    size = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
    if size == 1:
        return self if inplace else self.copy()
    flat = self.reshape(-1) if self.flags.c_contiguous else self.flatten()
    swapped = _view(flat, _np.uint8).reshape(-1, size)[:, ::-1].copy()
    out = _view(swapped.reshape(-1), dtype).reshape(self.shape)
    if inplace:
        self[...] = out
        return self
    return out


def _tobytes(self, order="C"):
    """The raw bytes of the elements in ``order`` (numpy.ndarray.tobytes): a copy to the
    host, which a bytes object needs."""
    if order is None:
        order = "C"
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order == "A":
        order = "F" if self.flags.f_contiguous and not self.flags.c_contiguous else "C"
    # NumPy writes 'K' in C order (whatever the layout), as the host copy's tobytes does.
    return self.get().tobytes("C" if order == "K" else order)


def _dumps(self):
    """The pickle of the array (numpy.ndarray.dumps)."""
    return pickle.dumps(self, protocol=2)


def _dump(self, file):
    """Pickles the array into ``file``, a path or a writable binary file (numpy.ndarray.dump)."""
    ctx = contextlib.nullcontext(file) if hasattr(file, "write") else open(os.fspath(file), "wb")
    with ctx as f:
        pickle.dump(self, f, protocol=2)


def _setflags(self, write=None, align=None, uic=None):
    """numpy.ndarray.setflags within gpuarr's flags: every array is writeable and aligned and
    none is a write-back copy, so ``write=False`` and ``align=False`` raise ValueError, as
    does ``uic=True`` (as in NumPy); the other values change nothing."""
    if write is not None and not write:
        raise ValueError("cannot set WRITEABLE flag to False: gpuarr arrays are always "
                         "writeable")
    if align is not None and not align:
        raise ValueError("cannot set ALIGNED flag to False: gpuarr arrays are always aligned")
    if uic is not None and uic:
        raise ValueError("cannot set WRITEBACKIFCOPY flag to True")


_REFCOUNT_PROBE = object()
_REFCHECK_MESSAGE = ("cannot resize an array that references or is referenced\n"
                     "by another object in this way.\n"
                     "Use the np.resize function to get a new resized copy or\n"
                     " set refcheck=False to disable this check")


def _resize_shape(new_shape):
    if len(new_shape) == 1 and not isinstance(new_shape[0], (int, _np.integer)) \
            and hasattr(new_shape[0], "__iter__"):
        new_shape = tuple(new_shape[0])
    shape = []
    for d in new_shape:
        try:
            shape.append(operator.index(d))
        except TypeError:
            if len(new_shape) == 1:
                raise TypeError("expected a sequence of integers or a single integer, got "
                                f"'{d}'") from None
            raise TypeError(f"'{type(d).__name__}' object cannot be interpreted as an "
                            "integer") from None
        if shape[-1] < 0:
            raise ValueError("negative dimensions not allowed")
    return tuple(shape)


def _resize(self, *new_shape, refcheck=True):
    """Changes the array's shape and size in place (numpy.ndarray.resize): new elements are
    zero, the kept ones are the first in memory order. As in NumPy, an array that does not own
    its memory, or (``refcheck=True``) that other objects reference, is not resized when its
    size changes (ValueError); the array takes new device memory and a copy of its kept
    elements."""
    refs = sys.getrefcount(self)
    if new_shape == (_REFCOUNT_PROBE,):
        return refs
    if len(new_shape) == 1 and new_shape[0] is None:
        return None
    fortran = self.ndim > 1 and self.flags.f_contiguous and not self.flags.c_contiguous
    if not (self.flags.c_contiguous or self.flags.f_contiguous):
        raise ValueError("resize only works on single-segment arrays")
    shape = _resize_shape(new_shape)
    order = "F" if fortran else "C"
    size = 1
    for d in shape:
        size *= d
    if size == self.size:
        self._adopt(self.reshape(shape, order=order))
        return None
    if self.base is not None:
        raise ValueError("cannot resize this array: it does not own its data")
    if refcheck and refs > _UNREFERENCED:
        raise ValueError(_REFCHECK_MESSAGE)
    new = _core.zeros((size,), dtype=self.dtype)
    kept = min(size, self.size)
    if kept:
        new[:kept] = self.reshape(-1, order=order)[:kept]
    self._adopt(new.reshape(shape, order=order))
    return None


def _unreferenced_count():
    # The references an array has inside _resize when only the caller's name refers to it
    # (interpreter-dependent, so measured the way a method call makes them).
    class Probe:
        resize = _resize
    probe = Probe()
    return probe.resize(_REFCOUNT_PROBE)


_UNREFERENCED = _unreferenced_count()


def _method(fn):
    """``fn`` as a method: ``a.name(...)`` is ``fn(a, ...)``, with fn's name and docstring."""
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__qualname__ = "ndarray." + fn.__name__
    method.__doc__ = fn.__doc__
    return method


_NDARRAY_METHODS = {
    # host copies: NumPy's printing, formatting and scalar conversions
    "__repr__": _repr,
    "__str__": _str,
    "__format__": _format,
    "__iter__": _iter,
    "__reduce__": _reduce,
    "__copy__": _copy,
    "__deepcopy__": _deepcopy,
    "__bool__": _bool,
    "__float__": _float,
    "__int__": _int,
    "__complex__": _complex,
    "__index__": _index,
    # NumPy's dispatch protocols and the Array API
    "__array_ufunc__": _numpy_dispatch._array_ufunc,
    "__array_function__": _numpy_dispatch._array_function,
    "__array_namespace__": _array_api._array_namespace,
    "to_device": _array_api._to_device,
    "__divmod__": _ufuncs._divmod_method,
    "__rdivmod__": _ufuncs._rdivmod_method,
    # reductions
    **{name: _method(getattr(_reductions, name))
       for name in ("sum", "prod", "max", "min", "argmax", "argmin", "all", "any", "mean",
                    "var", "std", "cumsum", "cumprod")},
    # shape operations
    "ravel": _shape_ops._m_ravel,
    "flatten": _shape_ops._m_flatten,
    "squeeze": _shape_ops._m_squeeze,
    "swapaxes": _shape_ops._m_swapaxes,
    "repeat": _shape_ops._m_repeat,
    "diagonal": _shape_ops._m_diagonal,
    "trace": _shape_ops._m_trace,
    "mT": property(_shape_ops._mT),
    # sorting and searching
    "sort": _sorting._method_sort,
    "argsort": _sorting._method_argsort,
    "partition": _sorting._method_partition,
    "argpartition": _sorting._method_argpartition,
    "searchsorted": _sorting._method_searchsorted,
    # indexing
    "take": _indexing._m_take,
    "put": _indexing._m_put,
    "compress": _indexing._m_compress,
    # elementwise, selection and memory layout
    "clip": _clip,
    "round": _round,
    "choose": _choose,
    "flat": property(_flatiter.flat, _flatiter.set_flat),
    "view": _view,
    "getfield": _getfield,
    "setfield": _setfield,
    "byteswap": _byteswap,
    "resize": _resize,
    "setflags": _setflags,
    # products, bytes and files
    "dot": _products._ndarray_dot,
    "tofile": _io._tofile,
    "tobytes": _tobytes,
    "dump": _dump,
    "dumps": _dumps,
    # Keeps NumPy from treating gpuarr arrays as sequences to iterate over element by element.
    "__array_priority__": 100.0,
}

_UFUNC_METHODS = {
    "reduce": _ufunc_methods._ufunc_reduce,
    "accumulate": _ufunc_methods._ufunc_accumulate,
    "outer": _ufunc_methods._ufunc_outer,
}

for _name, _value in _NDARRAY_METHODS.items():
    setattr(_core.ndarray, _name, _value)
for _name, _value in _UFUNC_METHODS.items():
    setattr(_core.ufunc, _name, _value)
_core.ndarray.__module__ = "gpuarr"
_core.ufunc.__module__ = "gpuarr"
