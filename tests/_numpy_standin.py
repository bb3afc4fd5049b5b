"""NumPy in place of the device, through the one seam (``_device_standin``), for the
Python-level functions built from other gpuarr operations (index tricks, grids, windows,
log-spaced ranges, text I/O): with every operation they call replaced by NumPy's, their
argument handling, dtype rules and order of operations are checked against NumPy on a
machine without a GPU, bit for bit."""

import numpy as np

import _device_standin


def _array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0):
    # gpuarr.array's copy=False copies only when needed: NumPy 2's copy=None.
    return np.array(obj, dtype=dtype, copy=True if copy else None, order=order, ndmin=ndmin)


def _triangle(m, k, lower):
    return np.tril(m, k) if lower else np.triu(m, k)


def _reduce(op, a, axis, keepdims):
    return getattr(np, op)(a, axis=axis, keepdims=keepdims)


_UFUNCS = ["add", "subtract", "multiply", "divide", "power", "cos", "less", "less_equal",
           "greater_equal", "not_equal", "logical_or", "logical_not", "remainder",
           "floor_divide", "isfinite", "clip"]

STANDIN = {
    # the extension
    "ndarray": np.ndarray, "_ndarray": np.ndarray,
    "array": _array, "asarray": np.asarray, "asnumpy": np.asarray,
    "empty": np.empty, "zeros": np.zeros, "ones": np.ones, "_empty_result": np.empty,
    "_triangle": _triangle, "_reduce": _reduce, "_moveaxis": np.moveaxis,
    # Python-level operations the functions under test call
    "arange": np.arange, "linspace": np.linspace,
    "nonzero": np.nonzero, "where": np.where, "any": np.any, "cumprod": np.cumprod,
    "broadcast_to": np.broadcast_to, "broadcast_arrays": np.broadcast_arrays,
    "concatenate": np.concatenate, "indices": np.indices,
    **{name: getattr(np, name) for name in _UFUNCS},
}


def install(monkeypatch):
    _device_standin.install(monkeypatch, STANDIN)
