"""Every Python-level method of ``gpuarr.ndarray`` (and of ``gpuarr.ufunc``), attached from
the tables at the end of this module; the C++ bindings define the rest.

The methods here that are NumPy's own behaviour applied to a host copy (printing,
formatting, conversion to Python scalars) each cost one small device-to-host copy (one
element for scalars), so NumPy's rules and messages apply exactly. The others call the
module-level function of the same name (``a.sum()`` is ``gpuarr.sum(a)``)."""

from gpuarr import (
    _array_api,
    _core,
    _indexing,
    _io,
    _numpy_dispatch,
    _products,
    _reductions,
    _shape_ops,
    _sorting,
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
    # products and files
    "dot": _products._ndarray_dot,
    "tofile": _io._tofile,
    # Keeps NumPy from treating gpuarr arrays as sequences to iterate over element by element.
    "__array_priority__": 100.0,
}

_UFUNC_METHODS = {
    "reduce": _reductions._ufunc_reduce,
    "accumulate": _reductions._ufunc_accumulate,
    "outer": _ufuncs._ufunc_outer,
}

for _name, _value in _NDARRAY_METHODS.items():
    setattr(_core.ndarray, _name, _value)
for _name, _value in _UFUNC_METHODS.items():
    setattr(_core.ufunc, _name, _value)
_core.ndarray.__module__ = "gpuarr"
_core.ufunc.__module__ = "gpuarr"
