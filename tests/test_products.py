"""matmul / @, dot, vdot, inner, outer, tensordot, kron, cross, vecdot against NumPy."""

import re
import warnings

import numpy as np
import pytest

import gpuarr
from conftest import ALL_DTYPES, GPU_MODULE
from _products_util import check, data

pytestmark = GPU_MODULE

MATMUL_SHAPES = [
    ((3, 4), (4, 5)), ((4,), (4, 5)), ((3, 4), (4,)), ((4,), (4,)),
    ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((3, 4), (6, 4, 2)),
    ((0, 4), (4, 5)), ((3, 0), (0, 5)), ((2, 0, 3), (3, 4)), ((1, 1), (1, 1)),
    ((65, 70), (70, 33)), ((7, 2, 3), (3,)),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=str)
def test_matmul_dtypes_shapes(rng, dtype, shapes):
    a, b = data(rng, shapes[0], dtype), data(rng, shapes[1], dtype)
    check(gpuarr.matmul(gpuarr.asarray(a), gpuarr.asarray(b)), np.matmul(a, b))
    check(gpuarr.asarray(a) @ gpuarr.asarray(b), a @ b)


@pytest.mark.parametrize("pair", [("int8", "uint8"), ("int32", "float32"), ("float16", "float32"),
                                  ("bool", "int16"), ("float64", "complex64")])
def test_matmul_mixed_dtypes(rng, pair):
    a, b = data(rng, (3, 4), pair[0]), data(rng, (4, 2), pair[1])
    check(gpuarr.asarray(a) @ gpuarr.asarray(b), a @ b)


# Each layout: parent shapes and the view taken of each parent (same on host and device).
LAYOUTS = {
    "T_a": ((5, 6), (5, 7), lambda x: x.T, lambda y: y),
    "T_b": ((6, 5), (7, 5), lambda x: x, lambda y: y.T),
    "T_both": ((5, 6), (7, 5), lambda x: x.T, lambda y: y.T),
    "neg": ((6, 5), (5, 7), lambda x: x[::-1], lambda y: y[:, ::-1]),
    "step": ((12, 10), (5, 21), lambda x: x[::2, ::2], lambda y: y[:, ::3]),
    "batch_T": ((3, 5, 6), (3, 7, 5), lambda x: x[:, :, :].T.T, lambda y: y[::-1]),
    "batch_step": ((4, 6, 5), (5, 7), lambda x: x[::2], lambda y: y),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64", "float16"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_matmul_layouts(rng, dtype, layout):
    sa, sb, fa, fb = LAYOUTS[layout]
    ha, hb = data(rng, sa, dtype), data(rng, sb, dtype)
    if layout == "batch_T":
        ha = data(rng, (3, 6, 5), dtype)
        hb = data(rng, (3, 5, 7), dtype)
    a, b = fa(ha), fb(hb)
    ga, gb = fa(gpuarr.asarray(ha)), fb(gpuarr.asarray(hb))
    check(ga @ gb, a @ b)


@pytest.mark.parametrize("dtype", ["float32", "int32", "complex64"])
def test_matmul_out(rng, dtype):
    a, b = data(rng, (2, 3, 4), dtype), data(rng, (4, 5), dtype)
    out = gpuarr.empty((2, 3, 5), dtype=dtype)
    r = gpuarr.matmul(gpuarr.asarray(a), gpuarr.asarray(b), out=out)
    assert r is out
    check(out, a @ b)
    # out of a wider dtype (same kind) casts; a narrower kind refuses.
    out64 = gpuarr.empty((2, 3, 5), dtype=np.result_type(dtype, np.float64) if dtype != "int32" else "int64")
    gpuarr.matmul(gpuarr.asarray(a), gpuarr.asarray(b), out=out64)
    # NumPy computes in the operands' dtype and casts into out: the precision (and so the
    # tolerance) is the operands', not out's (cuBLAS and NumPy round differently).
    check(out64, (a @ b).astype(out64.dtype), rtol=None if dtype == "int32" else 2e-4)


def test_matmul_out_errors(rng):
    a, b = gpuarr.asarray(data(rng, (3, 4), "float64")), gpuarr.asarray(data(rng, (4, 5), "float64"))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'matmul' output"):
        gpuarr.matmul(a, b, out=gpuarr.empty((3, 5), dtype="int64"))
    with pytest.raises(ValueError):
        gpuarr.matmul(a, b, out=gpuarr.empty((3, 4)))


def test_imatmul(rng):
    a, b = data(rng, (3, 4), "float64"), data(rng, (4, 4), "float64")
    d = gpuarr.asarray(a)
    d2 = d
    d @= gpuarr.asarray(b)
    assert d is d2
    check(d, a @ b)
    with pytest.raises(ValueError, match="inplace matrix multiplication"):
        d @= gpuarr.asarray(np.ones(4))


def test_rmatmul_with_numpy_left():
    h = np.arange(6.0).reshape(2, 3)
    d = gpuarr.asarray(np.arange(3.0))
    check(gpuarr.matmul(h, d), h @ np.arange(3.0))


def test_matmul_errors():
    a = gpuarr.ones((3, 2))
    with pytest.raises(ValueError, match=r"matmul: Input operand 1 has a mismatch in its core "
                       r"dimension 0, with gufunc signature \(n\?,k\),\(k,m\?\)->\(n\?,m\?\) "
                       r"\(size 3 is different from 2\)"):
        a @ gpuarr.ones((3, 4))
    with pytest.raises(ValueError, match="matmul: Input operand 0 does not have enough dimensions"):
        gpuarr.matmul(gpuarr.asarray(np.float64(2.0)), a)
    with pytest.raises(ValueError, match="matmul: Input operand 1 does not have enough dimensions"):
        gpuarr.matmul(a, gpuarr.asarray(np.float64(2.0)))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        gpuarr.ones((2, 3, 4)) @ gpuarr.ones((3, 4, 5))


def test_matmul_bool_is_or_of_ands(rng):
    a, b = data(rng, (5, 7), bool), data(rng, (7, 3), bool)
    check(gpuarr.asarray(a) @ gpuarr.asarray(b), a @ b)


def test_matmul_int_exact_wraps():
    a = np.full((2, 3), 2**40, dtype=np.int64)
    b = np.full((3, 2), 2**30, dtype=np.int64)
    check(gpuarr.asarray(a) @ gpuarr.asarray(b), a @ b)
    a8 = np.full((2, 40), 100, dtype=np.int8)
    check(gpuarr.asarray(a8) @ gpuarr.asarray(a8.T.copy()), a8 @ a8.T)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((), (3,)), ((5,), (5,)), ((3, 4), (4,)), ((4,), (4, 2)),
                                    ((2, 3, 4), (5, 4, 2)), ((3, 4), (4, 2)), ((0,), (0,))], ids=str)
def test_dot(rng, dtype, shapes):
    a, b = data(rng, shapes[0], dtype), data(rng, shapes[1], dtype)
    check(gpuarr.dot(gpuarr.asarray(a), gpuarr.asarray(b)), np.dot(a, b))


def test_dot_method_and_out(rng):
    a, b = data(rng, (3, 4), "float32"), data(rng, (4, 2), "float32")
    check(gpuarr.asarray(a).dot(gpuarr.asarray(b)), a.dot(b))
    out = gpuarr.empty((3, 2), dtype="float32")
    assert gpuarr.dot(gpuarr.asarray(a), gpuarr.asarray(b), out=out) is out
    check(out, a.dot(b))


def test_dot_errors():
    with pytest.raises(ValueError, match=r"shapes \(2,3\) and \(4,5\) not aligned: 3 \(dim 1\) != 4 \(dim 0\)"):
        gpuarr.dot(gpuarr.ones((2, 3)), gpuarr.ones((4, 5)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int32", "bool"])
def test_vdot(rng, dtype):
    a, b = data(rng, (3, 4), dtype), data(rng, (12,), dtype)
    check(gpuarr.vdot(gpuarr.asarray(a), gpuarr.asarray(b)), np.vdot(a, b))
    with pytest.raises(ValueError):
        gpuarr.vdot(gpuarr.ones(3), gpuarr.ones(4))


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int16"])
def test_inner_outer_kron(rng, dtype):
    a, b = data(rng, (2, 3), dtype), data(rng, (4, 3), dtype)
    check(gpuarr.inner(gpuarr.asarray(a), gpuarr.asarray(b)), np.inner(a, b))
    check(gpuarr.outer(gpuarr.asarray(a), gpuarr.asarray(b)), np.outer(a, b))
    check(gpuarr.kron(gpuarr.asarray(a), gpuarr.asarray(b)), np.kron(a, b))
    c = data(rng, (2,), dtype)
    check(gpuarr.kron(gpuarr.asarray(c), gpuarr.asarray(a)), np.kron(c, a))
    with pytest.raises(ValueError, match="not aligned"):
        gpuarr.inner(gpuarr.ones((2, 3)), gpuarr.ones((2, 4)))


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([2], [1]), (1, 0)], ids=str)
def test_tensordot(rng, axes):
    a, b = data(rng, (3, 4, 5), "float64"), data(rng, (4, 5, 2), "float64")
    if axes in (([2], [1]), (1, 0)):
        b = data(rng, (4, 5, 2), "float64") if axes == ([2], [1]) else data(rng, (4, 3), "float64")
    try:
        expected = np.tensordot(a, b, axes)
    except ValueError:
        with pytest.raises(ValueError):
            gpuarr.tensordot(gpuarr.asarray(a), gpuarr.asarray(b), axes)
        return
    check(gpuarr.tensordot(gpuarr.asarray(a), gpuarr.asarray(b), axes), expected)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "complex128"])
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((4, 3), (3,)), ((2, 1, 3), (5, 3)),
                                    ((4, 2), (4, 3)), ((2,), (2,)), ((5, 2), (5, 2))], ids=str)
def test_cross(rng, dtype, shapes):
    a, b = data(rng, shapes[0], dtype), data(rng, shapes[1], dtype)
    _check_cross_like_numpy(a, b)


def _check_cross_like_numpy(a, b, **kw):
    """gpuarr.cross does what the installed NumPy does: 2-vectors are a DeprecationWarning
    (NumPy 2.0-2.4) or a ValueError (NumPy >= 2.5), with the same message."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            expected = np.cross(a, b, **kw)
        except ValueError as e:   # AxisError included
            with pytest.raises(type(e), match=re.escape(str(e))):
                gpuarr.cross(gpuarr.asarray(a), gpuarr.asarray(b), **kw)
            return
    np_warned = [str(x.message) for x in w if issubclass(x.category, DeprecationWarning)]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = gpuarr.cross(gpuarr.asarray(a), gpuarr.asarray(b), **kw)
    assert [str(x.message) for x in w if issubclass(x.category, DeprecationWarning)] == np_warned
    check(got, expected)


def test_cross_axes(rng):
    a, b = data(rng, (3, 4), "float64"), data(rng, (4, 3), "float64")
    check(gpuarr.cross(gpuarr.asarray(a), gpuarr.asarray(b), axisa=0, axisb=1, axisc=0),
          np.cross(a, b, axisa=0, axisb=1, axisc=0))
    c, d = data(rng, (3, 5), "float64"), data(rng, (3, 5), "float64")
    check(gpuarr.cross(gpuarr.asarray(c), gpuarr.asarray(d), axis=0), np.cross(c, d, axis=0))


@pytest.mark.parametrize("shapes,kw", [
    (((4,), (3,)), {}), (((3,), (4,)), {}), (((), (3,)), {}), (((3,), ()), {}),
    (((2, 3), (2, 3)), {"axisa": 2}), (((2, 3), (2, 3)), {"axisb": -3}),
    (((3,), (3,)), {"axisc": 1}), (((2, 5), (5, 2)), {"axisa": 0, "axisb": 1}),
], ids=str)
def test_cross_errors(shapes, kw):
    """Bad shapes and axes raise what NumPy raises (type and message), whatever its version."""
    a, b = np.ones(shapes[0]), np.ones(shapes[1])
    _check_cross_like_numpy(a, b, **kw)


@pytest.mark.parametrize("dtype", ["float32", "complex64", "int32"])
@pytest.mark.parametrize("shapes,axis", [(((3,), (3,)), -1), (((4, 3), (3,)), -1),
                                         (((2, 1, 3), (5, 3)), -1), (((3, 4), (3, 4)), 0),
                                         (((200, 40), (200, 40)), -1)], ids=str)
def test_vecdot(rng, dtype, shapes, axis):
    a, b = data(rng, shapes[0], dtype), data(rng, shapes[1], dtype)
    check(gpuarr.vecdot(gpuarr.asarray(a), gpuarr.asarray(b), axis=axis), np.vecdot(a, b, axis=axis))


@pytest.mark.parametrize("n", [1, 1000, 100_003, 3_000_000])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
def test_large_dot(rng, n, dtype):
    a, b = data(rng, n, dtype), data(rng, n, dtype)
    expected = np.dot(a.astype(np.float64), b.astype(np.float64)).astype(dtype)
    got = gpuarr.dot(gpuarr.asarray(a), gpuarr.asarray(b))
    rtol = {"float16": 5e-2, "float32": 1e-4}.get(dtype, 1e-9)
    if dtype == "float16":
        # NumPy accumulates float16 in float16; compare with the exact value instead.
        np.testing.assert_allclose(float(gpuarr.asnumpy(got)), float(np.dot(a.astype(np.float64), b.astype(np.float64))),
                                   rtol=rtol, atol=0.05 * np.sqrt(n))
        return
    check(got, expected, rtol=rtol) if dtype != "int64" else check(got, np.dot(a, b))


def test_large_matmul_float32(rng):
    a, b = data(rng, (300, 257), "float32"), data(rng, (257, 129), "float32")
    check(gpuarr.asarray(a) @ gpuarr.asarray(b), a @ b)
    check(gpuarr.asarray(a) @ gpuarr.asarray(b[:, 0].copy()), a @ b[:, 0])
    check(gpuarr.asarray(a[0].copy()) @ gpuarr.asarray(b), a[0] @ b)
