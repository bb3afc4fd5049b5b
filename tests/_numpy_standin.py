"""NumPy in place of the device, through the one seam (``_device_standin``), for the
Python-level functions built from other gpuarr operations (index tricks, grids, windows,
log-spaced ranges, text I/O): with every operation they call replaced by NumPy's, their
argument handling, dtype rules and order of operations are checked against NumPy on a
machine without a GPU, bit for bit."""

import numpy as np

import _device_standin


def _array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0):
    return np.array(obj, dtype=dtype, copy=copy, order=order, ndmin=ndmin)


def _triangle(m, k, lower):
    return np.tril(m, k) if lower else np.triu(m, k)


def _reduce(op, a, axis, keepdims):
    return getattr(np, op)(a, axis=axis, keepdims=keepdims)


_UFUNCS = ["add", "subtract", "multiply", "divide", "power", "cos", "less", "less_equal",
           "greater_equal", "not_equal", "logical_or", "logical_not", "remainder",
           "floor_divide", "isfinite", "clip", "sqrt", "i0"]


class DeviceArray(np.ndarray):
    """A stood-in device array: what the stand-in operations return, so that the ufuncs
    can refuse host arrays as gpuarr's do."""


def _on_device(r):
    if isinstance(r, np.ndarray):
        return r.view(DeviceArray)
    if isinstance(r, (tuple, list)):
        return type(r)(_on_device(x) for x in r)
    return r


def _device_op(f):
    def op(*args, **kwargs):
        return _on_device(f(*args, **kwargs))
    return op


def _ufunc(f):
    """NumPy's ufunc ``f`` taking what gpuarr's ufuncs take: device arrays and scalars, not
    host arrays (NumPy converts those silently)."""
    def op(*args, **kwargs):
        for a in args:
            if isinstance(a, np.ndarray) and not isinstance(a, DeviceArray) or isinstance(
                    a, (list, tuple)):
                raise TypeError(f"Unsupported type {type(a)!r}: gpuarr operations take gpuarr "
                                "arrays and scalars; move host data with gpuarr.asarray")
        return _on_device(f(*args, **kwargs))
    return op


STANDIN = {
    # the extension
    "ndarray": DeviceArray, "_ndarray": DeviceArray,
    "asnumpy": np.asarray,
    **{name: _device_op(f) for name, f in {
        "array": _array, "asarray": np.asarray,
        "empty": np.empty, "zeros": np.zeros, "ones": np.ones, "_empty_result": np.empty,
        "_triangle": _triangle, "_reduce": _reduce, "_moveaxis": np.moveaxis,
        # Python-level operations the functions under test call
        "arange": np.arange, "linspace": np.linspace,
        "nonzero": np.nonzero, "where": np.where, "any": np.any, "cumprod": np.cumprod,
        "broadcast_to": np.broadcast_to, "broadcast_arrays": np.broadcast_arrays,
        "concatenate": np.concatenate, "indices": np.indices}.items()},
    **{name: _ufunc(getattr(np, name)) for name in _UFUNCS},
}


def install(monkeypatch):
    _device_standin.install(monkeypatch, STANDIN)
