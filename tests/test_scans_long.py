"""Scans of long rows against NumPy: one long 1-d array or a few long rows take a device-wide
scan per row (core/scan_plan.hpp), many short rows a block per row.

Most data here is built so that every partial result is exact in any order of combination:
sums of floats are differences of a bounded integer walk (every range sum is an integer
well inside the mantissa), products of floats are signed powers of two with a bounded
exponent walk, integer sums and products wrap modulo 2^64 (associative and commutative).
So the parallel scan must match NumPy's sequential one exactly, which checks every carry
between tiles, pieces and rows. A NaN for the nan-variants replaces one element and its
value moves into the next, so the walk (with NaN taken as the identity) stays bounded.
Random (inexact) float data is checked against a float64 oracle, relative to the running
sum of magnitudes.
"""

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE, dtype_id

pytestmark = GPU_MODULE

DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint16", "int32", "int64", "float16", "float32",
                                "float64", "complex64")]
OPS = ["cumsum", "cumprod", "nancumsum", "nancumprod"]
# Around the block scan's 256-element tiles, the device-wide path's threshold (4096 for one
# row) and large.
LENGTHS = [1, 255, 256, 257, 4095, 4096, 4097, 10**5 + 3, 2**24]

# Bound of the integer walks that float sums follow: every range sum stays exact.
_SUM_BOUND = {"float16": 1000, "float32": 1 << 21, "float64": 1 << 40}
# Bound of the exponent walks of float products: every range product stays a normal number.
_EXP_BOUND = {"float16": 7, "float32": 60, "float64": 500}


def _component(dtype):
    return np.dtype({"complex64": "float32", "complex128": "float64"}.get(dtype.name, dtype.name))


def _walk_steps(rng, n, bound):
    """n integer steps whose partial sums (from 0) stay within [-bound, bound]."""
    s = rng.integers(-bound // 2, bound // 2 + 1, size=n)
    return np.diff(s, prepend=0)


def _put_nans(rng, x, combine):
    """NaN at a few positions; the value there folds into the next element (combine)."""
    n = x.size
    if n < 3:
        return x
    pos = np.unique(rng.integers(0, n - 1, size=max(1, n // 50)))
    pos = pos[np.diff(pos, append=n) > 1]  # no two adjacent (and never the last element)
    x[pos + 1] = combine(x[pos + 1], x[pos])
    x[pos] = np.nan
    return x


def exact_data(rng, op, n, dtype):
    """Data of `n` elements of `dtype` whose scan under `op` is exact in any order."""
    product = "prod" in op
    if dtype.kind == "b":
        return rng.random(n) < (0.9999 if product else 0.5)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
        # Odd factors: the running product never becomes 0.
        return (x | 1).astype(dtype) if product else x
    comp = _component(dtype)
    if product:
        e = _walk_steps(rng, n, _EXP_BOUND[comp.name]).astype(np.float64)
        x = rng.choice(np.array([-1.0, 1.0]), size=n) * np.exp2(e)
        if dtype.kind == "c":  # a power of two times a power of i: products stay exact
            x = x * rng.choice(np.array([1, -1, 1j, -1j]), size=n)
    else:
        x = _walk_steps(rng, n, _SUM_BOUND[comp.name]).astype(np.float64)
        if dtype.kind == "c":
            x = x + 1j * _walk_steps(rng, n, _SUM_BOUND[comp.name])
    if op.startswith("nan"):
        x = _put_nans(rng, x, np.multiply if product else np.add)
    return x.astype(dtype)


def exact_data_along(rng, op, shape, dtype, axis):
    """exact_data of `shape` whose scans along `axis` (or flattened, axis None) are exact:
    the walk runs along that axis."""
    n = int(np.prod(shape))
    if axis is None or axis % len(shape) == len(shape) - 1:
        return exact_data(rng, op, n, dtype).reshape(shape)
    return np.ascontiguousarray(exact_data(rng, op, n, dtype).reshape(shape[::-1]).T)


def _check_exact(op, h, d, **kw):
    r = getattr(gpuarr, op)(d, **kw)
    e = getattr(np, op)(h, **kw)
    assert r.dtype == e.dtype
    assert r.shape == e.shape
    np.testing.assert_array_equal(r.get(), e)
    return r


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_scan_1d_exact(op, dtype, n, rng):
    h = exact_data(rng, op, n, dtype)
    _check_exact(op, h, gpuarr.asarray(h))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("n", [10**5 + 3, 2**24])
def test_cumsum_1d_random_floats(dtype, n, rng):
    # Positive mean: a lost or doubled carry moves the sum by a visible fraction of itself.
    h = (rng.standard_normal(n) + 0.5)
    if dtype == "complex64":
        h = h + 1j * (rng.standard_normal(n) - 0.5)
    h = h.astype(dtype)
    r = gpuarr.cumsum(gpuarr.asarray(h))
    assert r.dtype == h.dtype
    e = np.cumsum(h.astype(np.complex128 if dtype == "complex64" else np.float64))
    scale = np.cumsum(np.abs(h.astype(np.complex128)))
    rtol = 1e-4 if dtype in ("float32", "complex64") else 1e-12
    assert (np.abs(r.get() - e) <= rtol * scale + 1e-6).all()


@pytest.mark.parametrize("n", [10**5 + 3, 2**20])
def test_cumprod_1d_random_float64(n, rng):
    # Factors near one: the running product stays in range; relative error per element.
    h = np.exp(rng.standard_normal(n) * 1e-3) * rng.choice(np.array([-1.0, 1.0]), size=n)
    r = gpuarr.cumprod(gpuarr.asarray(h)).get()
    e = np.cumprod(h)
    np.testing.assert_allclose(r, e, rtol=1e-9)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("n", [257, 5000, 10**5 + 3])
def test_float16_rounds_every_partial(op, n):
    # Each partial is rounded to float16, as in NumPy: 40000 + 40000 overflows to inf (a
    # float accumulator would hold 80000), and inf - inf / inf * 0 is NaN from there on.
    # Any order of combination gives the same here (every range of two or more overflows).
    product = "prod" in op
    h = np.full(n, 300 if product else 40000, dtype=np.float16)
    h[40] = 0 if product else -np.inf
    r = getattr(gpuarr, op)(gpuarr.asarray(h)).get()
    e = getattr(np, op)(h)
    assert np.isnan(e[40:]).all() and np.isinf(e[1:40]).all()
    np.testing.assert_array_equal(r, e)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("view", ["step2", "reversed", "step_minus3"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex64"])
def test_scan_1d_views(op, dtype, view, rng):
    dtype = np.dtype(dtype)
    n = 3 * 10**5 + 7
    sl = {"step2": slice(None, None, 2), "reversed": slice(None, None, -1),
          "step_minus3": slice(None, None, -3)}[view]
    h = exact_data(rng, op, n, dtype)
    # The view's own elements form the walk (a strided pick of a walk is not bounded).
    h[sl] = exact_data(rng, op, len(range(n)[sl]), dtype)
    _check_exact(op, h[sl], gpuarr.asarray(h)[sl])


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(2, 3 * 10**6), (3, 10**5 + 3), (40, 5000), (5000, 40)])
def test_scan_2d_few_long_rows(op, dtype, shape, rng):
    dtype = np.dtype(dtype)
    for axis in (1, -1, 0, None):
        h = exact_data_along(rng, op, shape, dtype, axis)
        d = gpuarr.asarray(h)
        _check_exact(op, h, d, axis=axis)
        if axis == 1:
            # A transposed view and a reversed one: the scan runs on a moved copy.
            _check_exact(op, h.T, d.T, axis=0)
            _check_exact(op, h[:, ::-1], d[:, ::-1], axis=1)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_scan_out(op, rng):
    n = 10**5 + 3
    h = exact_data(rng, op, n, np.dtype("int32"))
    o = gpuarr.empty(n, dtype=np.int64)
    r = getattr(gpuarr, op)(gpuarr.asarray(h), out=o)
    assert r is o
    np.testing.assert_array_equal(o.get(), getattr(np, op)(h))
    # out= of another dtype: the scan accumulates in the out's dtype, as NumPy.
    hf = exact_data(rng, op, n, np.dtype("float32"))
    of = gpuarr.empty(n, dtype=np.float64)
    getattr(gpuarr, op)(gpuarr.asarray(hf), out=of)
    np.testing.assert_array_equal(of.get(), getattr(np, op)(hf, out=np.empty(n, np.float64)))
    # Into a strided view of a larger array.
    big = gpuarr.zeros((n, 2), dtype=np.int64)
    getattr(gpuarr, op)(gpuarr.asarray(h), out=big[:, 1])
    np.testing.assert_array_equal(big.get()[:, 1], getattr(np, op)(h))
    assert not big.get()[:, 0].any()


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("src,dst", [("int8", "float32"), ("int32", "float64"),
                                     ("uint16", "int16"), ("bool", "int32"),
                                     ("int8", "complex64"), ("float32", "float64")])
def test_scan_dtype_argument(op, src, dst, rng):
    n = 10**5 + 3
    if np.dtype(src).kind in "biu" and np.dtype(dst).kind in "fc":
        # Small integers: every partial sum exact in float32; products of +-1 exact.
        vals = [-1, 1] if "prod" in op else [-3, 0, 3]
        h = rng.choice(np.array(vals if src != "bool" else [True]).astype(src), size=n)
    else:
        h = exact_data(rng, op, n, np.dtype(src))
    r = getattr(gpuarr, op)(gpuarr.asarray(h), dtype=dst)
    e = getattr(np, op)(h, dtype=dst)
    assert r.dtype == e.dtype
    np.testing.assert_array_equal(r.get(), e)


@pytest.mark.parametrize("n", [1, 4097, 10**5 + 3])
@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative_sum_prod_long(n, include_initial, rng):
    h = exact_data(rng, "cumsum", n, np.dtype("float32"))
    r = gpuarr.cumulative_sum(gpuarr.asarray(h), include_initial=include_initial)
    np.testing.assert_array_equal(r.get(), np.cumulative_sum(h, include_initial=include_initial))
    h = exact_data(rng, "cumprod", n, np.dtype("int64"))
    r = gpuarr.cumulative_prod(gpuarr.asarray(h), include_initial=include_initial)
    np.testing.assert_array_equal(r.get(), np.cumulative_prod(h, include_initial=include_initial))


def test_scan_row_longer_than_one_piece():
    """A row over 2^30 elements is scanned in pieces, each starting from the last result of
    the one before (about 9 GiB: 1 GiB of bool in, 8 GiB of int64 out)."""
    n = 2**30 + 3
    if gpuarr.cuda.runtime.memGetInfo()[0] < 12 * 2**30:
        pytest.skip("needs 12 GiB of free GPU memory")
    x = gpuarr.ones(n, dtype=bool)
    x[2**30 - 1] = False  # the last element of the first piece
    r = gpuarr.cumsum(x)
    del x
    assert r.dtype == np.int64
    at = np.array([0, 2**30 - 3, 2**30 - 2, 2**30 - 1, 2**30, 2**30 + 1, n - 1])
    expected = np.where(at < 2**30 - 1, at + 1, at)
    np.testing.assert_array_equal(r[gpuarr.asarray(at)].get(), expected)


def test_bool_scan_past_int32():
    """A bool row of 2^31 or more elements scans in int64 partials (below that, int32
    partials hold every partial sum): results past 2^31 - 1 are exact (about 19 GiB: 2 GiB
    of bool in, 16 GiB of int64 out)."""
    n = 2**31 + 5
    if gpuarr.cuda.runtime.memGetInfo()[0] < 20 * 2**30:
        pytest.skip("needs 20 GiB of free GPU memory")
    x = gpuarr.ones(n, dtype=bool)
    x[7] = False
    r = gpuarr.cumsum(x)
    del x
    assert r.dtype == np.int64
    at = np.array([0, 6, 7, 8, 2**31 - 3, 2**31 - 1, 2**31, n - 1])
    expected = np.where(at < 7, at + 1, at)
    np.testing.assert_array_equal(r[gpuarr.asarray(at)].get(), expected)
