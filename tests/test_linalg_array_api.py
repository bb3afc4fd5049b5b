"""gpuarr.linalg's Array API functions (matmul tensordot vecdot matrix_transpose outer trace
diagonal cross, with the standard's signatures) and multi_dot, against numpy.linalg.

Each case runs twice: on the device (skipped without one) and with NumPy standing in for the
top-level operations they are built from (``_numpy_standin`` plus the products below), which
checks their own argument rules (1-d only outer, 3-element cross, last-two-axes trace and
diagonal, multi_dot's order and reshapes) on any machine."""

import inspect

import numpy as np
import pytest

import _device_standin
import _numpy_standin
import gpuarr
from gpuarr.linalg import _products
from numpy.linalg import _linalg  # NumPy's chain order, the reference for multi_dot's
from conftest import assert_same_exception, outcome, requires_gpu

_PRODUCTS = {"matmul": np.matmul, "tensordot": np.tensordot, "vecdot": np.vecdot,
             "outer": np.outer, "cross": np.cross, "dot": np.dot,
             "matrix_transpose": np.matrix_transpose, "diagonal": np.diagonal,
             "trace": np.trace}


@pytest.fixture(params=["standin", pytest.param("device", marks=[pytest.mark.gpu,
                                                                    requires_gpu])])
def mode(request, monkeypatch):
    if request.param == "standin":
        _numpy_standin.install(monkeypatch)
        _device_standin.install(monkeypatch, _PRODUCTS)
    return request.param


def _dev(mode, x):
    return x if mode == "standin" else gpuarr.asarray(x)


def _host(mode, x):
    if mode == "device":
        assert isinstance(x, gpuarr.ndarray), type(x)
        return gpuarr.asnumpy(x)
    return np.asarray(x)


def _check(mode, fn, np_fn, args, kwargs=None, *, rtol=None, message=True):
    """gpuarr.linalg.fn(*args) against numpy.linalg.np_fn on the same host arrays: same
    values/dtype/shape, or the same exception type."""
    kwargs = kwargs or {}
    exp = outcome(np_fn, *args, **kwargs)
    got = outcome(fn, *[_dev(mode, a) if isinstance(a, np.ndarray) else a for a in args],
                  **kwargs)
    if exp[0] == "raise":
        assert got[0] == "raise", f"NumPy raised {exp[1]!r}, gpuarr returned"
        assert_same_exception(got[1], exp[1], message=message)
        return
    assert got[0] == "ok", got[1]
    g = _host(mode, got[1])
    e = np.asarray(exp[1])
    assert g.dtype == e.dtype and g.shape == e.shape
    if rtol is None:
        rtol = 1e-5 if e.dtype in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(g, e, rtol=rtol, atol=rtol)


def _rand(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    return rng.integers(-4 if dtype.kind == "i" else 0, 5, shape).astype(dtype)


NAMES = ["matmul", "tensordot", "vecdot", "matrix_transpose", "outer", "trace", "diagonal",
         "cross", "multi_dot"]


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_numpys(name):
    def params(fn):
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]
    assert params(getattr(gpuarr.linalg, name)) == params(getattr(np.linalg, name))
    assert name in gpuarr.linalg.__all__


DTYPES = ["int8", "int32", "uint16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((2, 3, 4), (4, 2)), ((4,), (4, 3)),
                                    ((4,), (4,)), ((0, 3), (3, 2)), ((2, 0), (0, 3)),
                                    ((3, 4), (5, 4)), ((), (3,)), ((1, 2, 3), (2, 3, 2))])
def test_matmul(mode, rng, dtype, shapes):
    args = [_rand(rng, s, dtype) for s in shapes]
    _check(mode, gpuarr.linalg.matmul, np.linalg.matmul, args, message=False)


def test_matmul_noncontiguous(mode, rng):
    a = _rand(rng, (6, 8), "float64")[::2, ::-2]
    b = _rand(rng, (4, 5), "float64").T[::-1]
    _check(mode, gpuarr.linalg.matmul, np.linalg.matmul, [a, b])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", [((3, 4, 5), (4, 5, 2), 2), ((3, 4), (4, 2), 1),
                                  ((3, 4), (2, 5), 0), ((2, 3, 4), (3, 2, 5), ([0, 1], [1, 0])),
                                  ((3, 0), (0, 2), 1), ((3, 4), (5, 2), 1)])
def test_tensordot(mode, rng, dtype, case):
    sa, sb, axes = case
    args = [_rand(rng, sa, dtype), _rand(rng, sb, dtype)]
    _check(mode, gpuarr.linalg.tensordot, np.linalg.tensordot, args, {"axes": axes},
           message=False)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", [((3, 4), (3, 4), -1), ((3, 4), (3, 4), 0), ((2, 3, 4), (4,), -1),
                                  ((5,), (5,), -1), ((0, 3), (0, 3), -1), ((3, 4), (3, 5), -1),
                                  ((3, 4), (3, 4), 2)])
def test_vecdot(mode, rng, dtype, case):
    sa, sb, axis = case
    args = [_rand(rng, sa, dtype), _rand(rng, sb, dtype)]
    _check(mode, gpuarr.linalg.vecdot, np.linalg.vecdot, args, {"axis": axis}, message=False)


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (0, 3), (5,), ()])
def test_matrix_transpose(mode, rng, shape):
    _check(mode, gpuarr.linalg.matrix_transpose, np.linalg.matrix_transpose,
           [_rand(rng, shape, "float32")])


@pytest.mark.parametrize("dtype", DTYPES + ["bool"])
@pytest.mark.parametrize("shapes", [((3,), (4,)), ((0,), (2,)), ((1,), (1,)),
                                    ((2, 2), (3,)), ((3,), ()), ((), ())])
def test_outer(mode, rng, dtype, shapes):
    args = [_rand(rng, s, dtype) for s in shapes]
    _check(mode, gpuarr.linalg.outer, np.linalg.outer, args)


@requires_gpu
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
def test_outer_keeps_signed_zeros(dtype):
    # 0 * -0 is -0: a product, not a sum of products that starts from +0.
    a = np.array([0.0, -0.0, 2.0, -1.0], dtype)
    b = np.array([-0.0, 0.0, -3.0], dtype)
    for f, g in ((np.outer, gpuarr.outer), (np.linalg.outer, gpuarr.linalg.outer)):
        got = gpuarr.asnumpy(g(gpuarr.asarray(a), gpuarr.asarray(b)))
        want = f(a, b)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))


def test_outer_noncontiguous(mode, rng):
    a = _rand(rng, (9,), "complex128")[::-3]
    b = _rand(rng, (8,), "complex128")[1::2]
    _check(mode, gpuarr.linalg.outer, np.linalg.outer, [a, b])


@pytest.mark.parametrize("dtype", DTYPES + ["bool"])
@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (2, 3, 3), (0, 2), (2, 0, 0), (5,), ()])
@pytest.mark.parametrize("offset", [0, 1, -2, 7])
def test_trace_and_diagonal(mode, rng, dtype, shape, offset):
    x = _rand(rng, shape, dtype)
    _check(mode, gpuarr.linalg.trace, np.linalg.trace, [x], {"offset": offset})
    _check(mode, gpuarr.linalg.diagonal, np.linalg.diagonal, [x], {"offset": offset})


@pytest.mark.parametrize("dtype", ["int8", "float32", "float64", "complex128"])
def test_trace_dtype(mode, rng, dtype):
    x = _rand(rng, (2, 3, 3), "int8")
    _check(mode, gpuarr.linalg.trace, np.linalg.trace, [x], {"dtype": dtype})


def test_diagonal_is_a_view_of_the_last_two_axes(mode, rng):
    x = _rand(rng, (2, 3, 4), "float64")
    d = gpuarr.linalg.diagonal(_dev(mode, x), offset=1)
    assert d.base is not None
    assert _host(mode, d).shape == (2, 3)


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex64"])
@pytest.mark.parametrize("case", [((3,), (3,), -1), ((4, 3), (4, 3), -1), ((3, 4), (3, 4), 0),
                                  ((2, 3), (3,), -1), ((0, 3), (0, 3), -1), ((2,), (2,), -1),
                                  ((2, 3), (2, 3), 0), ((3, 2), (3, 3), 0), ((4, 3), (4, 3), 1),
                                  ((3,), (3,), 2)])
def test_cross(mode, rng, dtype, case):
    sa, sb, axis = case
    args = [_rand(rng, sa, dtype), _rand(rng, sb, dtype)]
    _check(mode, gpuarr.linalg.cross, np.linalg.cross, args, {"axis": axis})


@pytest.mark.parametrize("shapes", [
    [(10, 100), (100, 5), (5, 50)],
    [(2, 30), (30, 3), (3, 40), (40, 5)],
    [(30,), (30, 4), (4, 7)],
    [(3, 4), (4, 5), (5,)],
    [(6,), (6, 2), (2, 3), (3,)],
    [(2, 3), (3, 4)],
    [(2, 3), (3,)],
    [(5, 6), (6, 1), (1, 7), (7, 8), (8, 2)],
    [(0, 3), (3, 4), (4, 2)],
    [(2, 3)],
    [],
    [(2, 3), (3, 4, 1), (1, 2)],
    [(2, 3), (4, 2), (2, 2)],
])
def test_multi_dot(mode, rng, shapes):
    args = [_rand(rng, s, "float64") for s in shapes]
    exp = outcome(np.linalg.multi_dot, args)
    got = outcome(gpuarr.linalg.multi_dot, [_dev(mode, a) for a in args])
    if exp[0] == "raise":
        assert got[0] == "raise", "NumPy raised, gpuarr returned"
        # multi_dot's own messages match; a product's shape mismatch is dot's wording.
        own = isinstance(exp[1], np.linalg.LinAlgError) or "Expecting" in str(exp[1])
        assert_same_exception(got[1], exp[1], message=own)
        return
    assert got[0] == "ok", got[1]
    g = _host(mode, got[1])
    assert g.shape == np.shape(exp[1])
    np.testing.assert_allclose(g, exp[1], rtol=1e-12)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_multi_dot_chooses_numpys_order(n, rng):
    dims = list(rng.integers(1, 40, n + 1))
    arrays = [np.empty((dims[i], dims[i + 1])) for i in range(n)]
    ref = _linalg._multi_dot_matrix_chain_order(arrays)
    got = _products._chain_order([a.shape for a in arrays])
    for i in range(n):
        for j in range(i + 1, n):
            assert got[i][j] == ref[i, j], (dims, i, j)


def test_multi_dot_out(mode, rng):
    args = [_rand(rng, s, "float64") for s in [(3, 4), (4, 5), (5, 2)]]
    out = _dev(mode, np.zeros((3, 2)))
    r = gpuarr.linalg.multi_dot([_dev(mode, a) for a in args], out=out)
    assert r is out
    np.testing.assert_allclose(_host(mode, out), np.linalg.multi_dot(args), rtol=1e-12)
