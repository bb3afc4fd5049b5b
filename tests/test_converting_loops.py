"""Converting loops: integer true_divide reads its integer inputs as they are and divides
in float64 in the kernel, where NumPy casts them first. Bitwise against NumPy over every
integer dtype (values near the type's limits, division by zero), Python int scalars, views
(strided, reversed, broadcast, 0-d, empty), out= of float64 and float32, an out that
overlaps an input, and the calls that keep the cast (mixed dtypes, a float scalar, a Python
int the dtype cannot hold, dtype=)."""

import warnings

import numpy as np
import pytest

import gpuarr as ga
from conftest import GPU_MODULE, assert_bits_equal, dtype_id

pytestmark = GPU_MODULE

INT_DTYPES = [np.dtype(t) for t in
              ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")]


def _ints(rng, shape, dt):
    info = np.iinfo(dt)
    a = rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    flat = a.reshape(-1)
    edges = np.array([info.min, info.max, 0, 1, info.max - 1], dtype=dt)
    flat[:min(flat.size, edges.size)] = edges[:flat.size]
    return a


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert_bits_equal(got.get(), want)


def _np(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args, **kw)


@pytest.mark.parametrize("dt", INT_DTYPES, ids=dtype_id)
def test_integer_true_divide_matches_numpy(rng, dt):
    a, b = _ints(rng, (7, 300), dt), _ints(rng, (7, 300), dt)
    b[0, :3] = 0  # division by zero: inf and nan as NumPy
    da, db = ga.asarray(a), ga.asarray(b)
    _same(da / db, _np(np.true_divide, a, b))
    _same(ga.divide(da[:, ::-3], db[::-1, 1::3]), _np(np.divide, a[:, ::-3], b[::-1, 1::3]))
    _same(da / db[3], _np(np.true_divide, a, b[3]))                # broadcast row
    _same(da[2, 5] / db[4, 7], _np(np.true_divide, a[2, 5], b[4, 7]))  # 0-d
    _same(da[:0] / db[:0], _np(np.true_divide, a[:0], b[:0]))
    for s in (3, -1, 0, 127, 300):  # -1 and 300 beyond some dtypes: the cast path
        _same(da / s, _np(np.true_divide, a, s))
        _same(s / da, _np(np.true_divide, s, a))


@pytest.mark.parametrize("dt", [np.dtype("int32"), np.dtype("uint64")], ids=dtype_id)
def test_out_and_the_calls_that_keep_the_cast(rng, dt):
    a, b = _ints(rng, (1000,), dt), _ints(rng, (1000,), dt) | 1
    da, db = ga.asarray(a), ga.asarray(b)
    for out_dtype in ("float64", "float32"):
        out = ga.empty(1000, dtype=out_dtype)
        r = ga.divide(da, db, out=out)
        assert r is out
        _same(out, np.divide(a, b, out=np.empty(1000, dtype=out_dtype)))
    _same(da / 2.5, np.true_divide(a, 2.5))
    _same(da / 2**40, np.true_divide(a, 2**40))
    _same(da / db.astype(np.int16), np.true_divide(a, b.astype(np.int16)))
    _same(ga.divide(da, db, dtype=np.float32), np.divide(a, b, dtype=np.float32))
    # out= the first input's own memory, reinterpreted: the input is read before it is
    # overwritten (a cast copy)
    buf = ga.asarray(np.arange(16, dtype=np.int32))
    hbuf = np.arange(16, dtype=np.int32)
    view = buf.view(np.float64)
    want = np.true_divide(hbuf[:8], 3)
    ga.divide(buf[:8], 3, out=view)
    assert_bits_equal(view.get(), want)
