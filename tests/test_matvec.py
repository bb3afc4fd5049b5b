"""matvec and vecmat (NumPy 2.2's gufuncs) against NumPy: broadcasting of the stacked
dimensions, vecmat's conjugation, ``axes=``, ``out=`` and NumPy's errors. Each test runs on
the device and here with NumPy standing in for the device (tests/_numpy_standin.py, with the
operations these functions call: matmul, moveaxis, expand_dims)."""

import numpy as np
import pytest

import _numpy_standin
import gpuarr as ga
from conftest import GPU_AVAILABLE, NO_GPU_REASON, assert_same_exception, outcome


@pytest.fixture(params=["device", "standin"])
def xp_dev(request):
    """Moves a host array to where the backend's inputs live."""
    if request.param == "device":
        if not GPU_AVAILABLE:
            pytest.skip(NO_GPU_REASON)
        return ga.asarray
    monkeypatch = request.getfixturevalue("monkeypatch")
    _numpy_standin.install(monkeypatch)
    import _device_standin
    op = _numpy_standin._device_op
    _device_standin.install(monkeypatch, {"matmul": op(np.matmul), "moveaxis": op(np.moveaxis),
                                          "expand_dims": op(np.expand_dims)})
    return lambda h: np.array(h).view(_numpy_standin.DeviceArray)


def _host(r):
    return r.get() if hasattr(r, "get") else np.asarray(r)


def _data(shape, dtype, seed):
    g = np.random.default_rng(seed)
    x = g.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * g.standard_normal(shape)
    return x.astype(dtype)


MATVEC_SHAPES = [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)), ((2, 1, 3, 4), (5, 4)),
                 ((0, 4), (4,)), ((3, 0), (0,)), ((1, 1), (1,))]
VECMAT_SHAPES = [((4,), (4, 3)), ((5, 4), (4, 3)), ((4,), (2, 4, 3)), ((2, 1, 4), (6, 4, 3)),
                 ((0,), (0, 3)), ((4,), (4, 0))]
DTYPES = [np.float64, np.float32, np.complex128, np.int64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("s1,s2", MATVEC_SHAPES)
def test_matvec_values(xp_dev, s1, s2, dtype):
    a, v = _data(s1, dtype, 1), _data(s2, dtype, 2)
    r = ga.matvec(xp_dev(a), xp_dev(v))
    expected = np.matvec(a, v)
    assert r.dtype == expected.dtype and r.shape == expected.shape
    np.testing.assert_allclose(_host(r), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("s1,s2", VECMAT_SHAPES)
def test_vecmat_values_conjugate_the_vector(xp_dev, s1, s2, dtype):
    v, a = _data(s1, dtype, 3), _data(s2, dtype, 4)
    r = ga.vecmat(xp_dev(v), xp_dev(a))
    expected = np.vecmat(v, a)
    assert r.dtype == expected.dtype and r.shape == expected.shape
    np.testing.assert_allclose(_host(r), expected, rtol=1e-5, atol=1e-5)


def test_axes(xp_dev):
    a, v = _data((4, 2, 3), np.float64, 5), _data((3, 2), np.float64, 6)
    axes = [(0, 2), (0,), (0,)]
    r = ga.matvec(xp_dev(a), xp_dev(v), axes=axes)
    np.testing.assert_allclose(_host(r), np.matvec(a, v, axes=axes))
    w, m = _data((3, 5), np.complex128, 7), _data((3, 5, 2), np.complex128, 8)
    axes = [0, (0, 2), 0]
    r = ga.vecmat(xp_dev(w), xp_dev(m), axes=axes)
    np.testing.assert_allclose(_host(r), np.vecmat(w, m, axes=axes))


def test_out(xp_dev):
    a, v = _data((2, 3, 4), np.float64, 9), _data((4,), np.float64, 10)
    out = xp_dev(np.zeros((2, 3)))
    assert ga.matvec(xp_dev(a), xp_dev(v), out=out) is out
    np.testing.assert_allclose(_host(out), np.matvec(a, v))
    out_c = xp_dev(np.zeros((2, 3), np.complex128))
    ga.vecmat(xp_dev(a[:, 0]), xp_dev(a.transpose(0, 2, 1)), out=out_c)
    np.testing.assert_allclose(_host(out_c), np.vecmat(a[:, 0], a.transpose(0, 2, 1)))


# (name, shape 1, shape 2, kwargs, NumPy's message too): matmul words a mismatch of the
# stacked dimensions, and an unfitting out= or axes=, in its own terms.
ERROR_CASES = [
    ("matvec", (3,), (3,), {}, True),
    ("matvec", (2, 3), (2,), {}, True),
    ("matvec", (2, 3), (3,), {"axis": 0}, True),
    ("matvec", (2, 3), (), {}, True),
    ("matvec", (2, 3), (3,), {"out": ((3,), "float64")}, False),
    ("matvec", (2, 3), (3,), {"out": ((2,), "int64")}, True),
    ("matvec", (2, 2, 3), (3, 3), {}, False),
    ("vecmat", (3,), (3,), {}, True),
    ("vecmat", (2,), (3, 4), {}, True),
    ("vecmat", (), (3, 4), {}, True),
    ("vecmat", (3,), (3, 4), {"axis": -1}, True),
    ("vecmat", (3,), (3, 4), {"out": ((4,), "int64")}, True),
    ("vecmat", (3,), (3, 4), {"axes": [(0,), (0, 1)]}, False),
]


@pytest.mark.parametrize("name,s1,s2,kwargs,message", ERROR_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(ERROR_CASES)])
def test_errors_as_numpy(xp_dev, name, s1, s2, kwargs, message):
    a, b = np.ones(s1), np.ones(s2)
    kw, kw_np = dict(kwargs), dict(kwargs)
    if "out" in kw:
        shape, dt = kw["out"]
        kw_np["out"] = np.zeros(shape, dt)
        kw["out"] = xp_dev(np.zeros(shape, dt))
    expected = outcome(getattr(np, name), a, b, **kw_np)
    actual = outcome(getattr(ga, name), xp_dev(a), xp_dev(b), **kw)
    assert expected[0] == actual[0] == "raise", (expected, actual)
    assert_same_exception(actual[1], expected[1], message=message)
