"""NumPy in place of the device, through the one seam (``_device_standin``), for the
Python-level functions built from other gpuarr operations (index tricks, grids, windows,
log-spaced ranges, text I/O): with every operation they call replaced by NumPy's, their
argument handling, dtype rules and order of operations are checked against NumPy on a
machine without a GPU, bit for bit."""

import numpy as np
import pytest

import _device_standin
import gpuarr
from conftest import assert_same_exception, outcome, requires_gpu


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
        "_triangle": _triangle, "_tri": lambda n, m, k, dtype: np.tri(n, m, k, dtype),
        "_reduce": _reduce, "_moveaxis": np.moveaxis,
        # Python-level operations the functions under test call
        "arange": np.arange, "linspace": np.linspace,
        "nonzero": np.nonzero, "where": np.where, "any": np.any, "cumprod": np.cumprod,
        "broadcast_to": np.broadcast_to, "broadcast_arrays": np.broadcast_arrays,
        "concatenate": np.concatenate, "indices": np.indices}.items()},
    **{name: _ufunc(getattr(np, name)) for name in _UFUNCS},
}


def install(monkeypatch):
    _device_standin.install(monkeypatch, STANDIN)


# --- shared by the tests of these functions: each case runs with the stand-in and on the device


@pytest.fixture(params=["standin", pytest.param("device", marks=[pytest.mark.gpu, requires_gpu])])
def mode(request, monkeypatch):
    """'standin' (NumPy in place of the device operations) or 'device' (a GPU)."""
    if request.param == "standin":
        install(monkeypatch)
    return request.param


def to_host(mode, x):
    """A result as host data: a NumPy copy of a device array, the stand-in's array as it is."""
    if isinstance(x, (tuple, list)):
        return type(x)(to_host(mode, v) for v in x)
    if mode == "device":
        assert isinstance(x, gpuarr.ndarray), type(x)
        return gpuarr.asnumpy(x)
    # NumPy's ufuncs give scalars for 0-d operands where the device gives 0-d arrays.
    assert isinstance(x, (np.ndarray, np.generic)), type(x)
    return x


def check(mode, got, expected, *, ulps=0):
    """gpuarr's result equals NumPy's: same structure, dtype and shape, values bit for bit
    with the stand-in; on the device, inexact values within ``ulps`` units in the last place
    of NumPy's (relative to the largest magnitude: transcendental functions evaluated by
    another library)."""
    got = to_host(mode, got)
    ulps = ulps if mode == "device" else 0
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, type(expected)) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected):
            _compare(g, e, ulps)
        return
    _compare(got, expected, ulps)


def _compare(got, expected, ulps):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if ulps and expected.dtype.kind in "fc" and expected.size:
        eps = np.finfo(expected.dtype).eps
        scale = max(float(np.nanmax(np.abs(expected))), np.finfo(expected.dtype).tiny)
        np.testing.assert_allclose(got, expected, rtol=0, atol=ulps * eps * scale,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


def check_same_outcome(mode, gpu_fn, np_fn, *, ulps=0, message=False):
    """Both raise the same exception type (and message, with ``message``), or both return
    equal results (``check``)."""
    g_kind, g_val, _ = outcome(gpu_fn)
    e_kind, e_val, _ = outcome(np_fn)
    if e_kind == "raise":
        assert g_kind == "raise", f"NumPy raised {e_val!r}; gpuarr returned {g_val!r}"
        assert_same_exception(g_val, e_val, message=message)
        return
    assert g_kind == "ok", f"gpuarr raised {g_val!r}; NumPy returned a value"
    check(mode, g_val, e_val, ulps=ulps)
