"""gpuarr.linalg.norm against numpy.linalg.norm."""

import math

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE
from _products_util import check, data

pytestmark = GPU_MODULE

VECTOR_ORDS = [None, 1, 2, math.inf, -math.inf, 0, 3, 0.5, -1, -2]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf]
DTYPES = ["float32", "float64", "complex64", "complex128", "int32", "float16"]


def _cmp(x, **kw):
    expected = np.linalg.norm(x, **kw)
    got = gpuarr.linalg.norm(gpuarr.asarray(x), **kw)
    rtol = 3e-2 if x.dtype == np.float16 else (1e-4 if x.dtype in (np.float32, np.complex64) else 1e-9)
    check(got, np.asarray(expected), rtol=rtol)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_vector_norms(rng, dtype, ord, keepdims):
    x = data(rng, (17,), dtype)
    _cmp(x, ord=ord, keepdims=keepdims)
    y = data(rng, (3, 5, 4), dtype)
    _cmp(y, ord=ord, axis=1, keepdims=keepdims)
    _cmp(y, ord=ord, axis=-1, keepdims=keepdims)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norms(rng, dtype, ord, keepdims):
    x = data(rng, (5, 3), dtype)
    _cmp(x, ord=ord, keepdims=keepdims)
    y = data(rng, (2, 4, 3), dtype)
    _cmp(y, ord=ord, axis=(1, 2), keepdims=keepdims)
    _cmp(y, ord=ord, axis=(2, 0), keepdims=keepdims)


@pytest.mark.parametrize("shape", [(), (0,), (4, 0), (2, 3, 4)], ids=str)
def test_default_norm_any_ndim(rng, shape):
    x = data(rng, shape, "float64")
    _cmp(x)
    _cmp(x, keepdims=True)


def test_norm_noncontiguous(rng):
    x = data(rng, (8, 6), "float64")
    g = gpuarr.asarray(x)[::2, ::-1]
    check(gpuarr.linalg.norm(g), np.asarray(np.linalg.norm(x[::2, ::-1])))
    check(gpuarr.linalg.norm(g, axis=0), np.linalg.norm(x[::2, ::-1], axis=0))


def test_norm_large(rng):
    x = data(rng, (3_000_001,), "float32")
    check(gpuarr.linalg.norm(gpuarr.asarray(x)), np.asarray(np.linalg.norm(x)), rtol=1e-4)


def test_norm_errors():
    v = gpuarr.ones(3)
    m = gpuarr.ones((2, 2))
    with pytest.raises(ValueError, match="Invalid norm order 'fro' for vectors"):
        gpuarr.linalg.norm(v, ord="fro", axis=0)
    with pytest.raises(ValueError, match="Invalid norm order for matrices."):
        gpuarr.linalg.norm(m, ord=3)
    with pytest.raises(ValueError, match="Improper number of dimensions to norm."):
        gpuarr.linalg.norm(gpuarr.ones((2, 2, 2)), ord=2)
    with pytest.raises(ValueError, match="Duplicate axes given."):
        gpuarr.linalg.norm(m, axis=(0, 0))
    # NumPy takes int(axis) for a non-tuple axis: 1.5 is axis 1, a string is a TypeError.
    h = np.ones((2, 2))
    check(gpuarr.linalg.norm(m, axis=1.5), np.linalg.norm(h, axis=1.5))
    with pytest.raises(TypeError, match="'axis' must be None, an integer or a tuple of integers"):
        np.linalg.norm(h, axis="x")
    with pytest.raises(TypeError, match="'axis' must be None, an integer or a tuple of integers"):
        gpuarr.linalg.norm(m, axis="x")
    with pytest.raises(ValueError):
        gpuarr.linalg.norm(gpuarr.ones(0), ord=math.inf)
