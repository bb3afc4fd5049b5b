"""ufunc.reduce and ufunc.accumulate for every binary ufunc, against NumPy: their dtype
rules (dtype=, out='s dtype, add's int64, the logical ufuncs' bool), axes, identities and
empty reductions, out= (a 1-tuple, cast into it), initial=, the composed device path of the
ufuncs without a reduction of their own, and NumPy's errors. Each case runs with NumPy
standing in for the device (the Python-level rules) and on a GPU."""

import numpy as np
import pytest

import _device_standin
import _numpy_standin
import gpuarr
from _numpy_standin import DeviceArray, _device_op, check_same_outcome
from conftest import requires_gpu
from gpuarr import _ufunc_methods


class _StandinUfunc:
    """NumPy's ufunc with gpuarr's loops, its methods gpuarr's."""

    def __init__(self, name):
        self._np = getattr(np, name)
        self.__name__ = name
        self.nin, self.nout = self._np.nin, self._np.nout
        self.types = getattr(gpuarr, name).types

    def __call__(self, *args, **kwargs):
        r = self._np(*args, **kwargs)
        return r.view(DeviceArray) if isinstance(r, np.ndarray) else r

    def reduce(self, *args, **kwargs):
        return _ufunc_methods._ufunc_reduce(self, *args, **kwargs)

    def accumulate(self, *args, **kwargs):
        return _ufunc_methods._ufunc_accumulate(self, *args, **kwargs)


@pytest.fixture(params=["standin", pytest.param("device", marks=[pytest.mark.gpu, requires_gpu])])
def mode(request, monkeypatch):
    if request.param == "standin":
        _numpy_standin.install(monkeypatch)
        _device_standin.install(monkeypatch, {
            "full": _device_op(np.full), "copy": _device_op(np.copy),
            "moveaxis": _device_op(np.moveaxis),
            **{n: _device_op(getattr(np, n)) for n in (
                "sum", "prod", "max", "min", "all", "any", "nanmax", "nanmin", "cumsum",
                "cumprod")}})
    return request.param


def _ufunc(mode, name):
    return _StandinUfunc(name) if mode == "standin" else getattr(gpuarr, name)


def _arg(mode, x):
    if isinstance(x, np.ndarray):
        return x.copy().view(DeviceArray) if mode == "standin" else gpuarr.asarray(x)
    if isinstance(x, tuple):
        return tuple(_arg(mode, v) for v in x)
    return x


A = np.array([[3, -1, 2], [0, 2, -3]], np.int8)
F = np.array([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]])
B = np.array([[True, False, True], [True, True, False]])
C = np.array([2j, 1 - 3j, 1 + 0j, 2 + 3j], np.complex64)

REDUCE = [
    ("add", A, {}), ("add", B, {}), ("add", A, {"axis": None}), ("multiply", A, {"axis": 1}),
    ("add", F, {"dtype": np.int8}), ("add", F, {"out": np.zeros(3, np.int8)}),
    ("subtract", A, {"axis": 1}), ("subtract", A, {"axis": (0, 1)}),
    ("subtract", A, {"axis": ()}), ("divide", A.astype(np.int64), {}),
    ("power", A, {"dtype": np.float16}), ("arctan2", F, {"axis": 1, "keepdims": True}),
    ("arctan2", np.array([-3, 3], np.int8), {"out": np.zeros((), np.uint8)}),
    ("less", A, {}), ("less", A, {"dtype": bool}), ("equal", B, {"axis": 1}),
    ("greater", B, {"out": np.zeros(3)}), ("logical_and", F, {}), ("logical_xor", B, {}),
    ("logical_or", B, {"dtype": np.int8}), ("maximum", F, {"dtype": np.float32}),
    ("minimum", A, {"axis": (0, 1), "dtype": np.int8}), ("fmax", F, {"keepdims": True}),
    ("bitwise_and", np.zeros((0, 3), np.uint8), {}), ("bitwise_and", np.zeros((0, 3), bool), {}),
    ("logaddexp", np.zeros((0, 2), np.float16), {}), ("hypot", F, {"axis": ()}),
    ("gcd", np.array(-2, np.int8), {}), ("lcm", np.zeros((0, 2), np.int8), {}),
    ("maximum", np.zeros((0, 3)), {"axis": 1}), ("maximum", np.zeros((0, 3)), {}),
    ("maximum", np.zeros((0, 3)), {"initial": 5}), ("subtract", F, {"initial": 1.0}),
    ("left_shift", A, {"dtype": bool}), ("add", F, {"axis": (0, 0)}),
    ("add", F, {"axis": 1.0}), ("add", F, {"axis": (0, 2)}), ("add", F, {"bogus": 1}),
    ("add", F, {"out": (np.zeros(3), np.zeros(3))}), ("add", F, {"out": np.zeros(4)}),
    ("bitwise_or", A.astype(np.uint8), {"out": np.zeros(3)}),
    ("nextafter", np.zeros(0, np.float16), {}), ("copysign", F, {"axis": 1}),
]

ACCUMULATE = [
    ("add", A, {}), ("add", B, {"axis": 1}), ("multiply", C, {"out": np.zeros(4, np.uint8)}),
    ("greater", B, {"axis": 1}), ("greater", A, {}), ("greater", A, {"dtype": bool}),
    ("logical_and", A, {}), ("subtract", F, {"axis": 1}), ("divide", A, {}),
    ("maximum", F, {"axis": 0}), ("bitwise_xor", A, {"axis": 1}), ("hypot", F, {"axis": -1}),
    ("lcm", A, {"axis": 1}), ("power", A, {"axis": 1, "dtype": np.float32}),
    ("add", np.array(True), {}), ("add", F, {"axis": 2}), ("add", F, {"axis": 1.0}),
    ("add", F, {"axis": None}), ("add", F[0], {"axis": None}), ("add", F, {"bogus": 1}),
    ("add", np.zeros(0, np.int8), {}), ("add", F, {"out": (np.zeros((2, 3)),)}),
    ("bitwise_or", A.astype(np.uint8), {"out": np.zeros((2, 3))}),
]


def _numpy_reduce(name, a, kwargs):
    if name == "arctan2" and kwargs == {"axis": 1, "keepdims": True}:
        # NumPy 2.5's arctan2.reduce drops the middle elements of the axis
        # (arctan2.reduce([2, 0, 3]) is arctan2(2, 3)): the definition, a left fold with
        # NumPy's arctan2, is the reference.
        r = a[:, :1]
        for j in range(1, a.shape[1]):
            r = np.arctan2(r, a[:, j:j + 1])
        return r
    return getattr(np, name).reduce(a.copy(), **kwargs)


@pytest.mark.parametrize("name, a, kwargs", REDUCE)
def test_reduce_as_numpy(mode, name, a, kwargs):
    check_same_outcome(
        mode, lambda: _ufunc(mode, name).reduce(_arg(mode, a), **{
            k: _arg(mode, v) for k, v in kwargs.items()}),
        lambda: _numpy_reduce(name, a, kwargs),
        ulps=4)


@pytest.mark.parametrize("name, a, kwargs", ACCUMULATE)
def test_accumulate_as_numpy(mode, name, a, kwargs):
    check_same_outcome(
        mode, lambda: _ufunc(mode, name).accumulate(_arg(mode, a), **{
            k: _arg(mode, v) for k, v in kwargs.items()}),
        lambda: getattr(np, name).accumulate(a.copy(), **kwargs), ulps=4)


def test_accumulate_refuses_an_out_of_another_shape(mode):
    """NumPy writes the accumulation into the first column of an out= with an extra
    trailing axis and leaves the rest; gpuarr asks for out= of the array's shape."""
    with pytest.raises(ValueError):
        _ufunc(mode, "add").accumulate(_arg(mode, F[0]), out=_arg(mode, np.zeros((3, 2))))
