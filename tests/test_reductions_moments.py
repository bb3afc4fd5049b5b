"""var/std of float32/float64 data in one pass (MomentsOp: each output's count, mean and
squared deviations merged as the data is read, a thread's tile of loaded elements at a
time, divided by n - ddof and std's root taken in the same kernel): sizes around the tile, vector and block widths, misaligned starts, every kernel
path (a block an output, lanes an output, a thread an output, strided and multi-dim
reductions, chunked whole arrays), data far from zero, and inf/NaN where NumPy's x - mean
gives NaN, against NumPy."""

import warnings

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test

RTOL = {"float32": 2e-5, "float64": 1e-12}


def _close(got, want, dt, scale=1.0):
    got = gpuarr.asnumpy(got)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=RTOL[dt] * scale, atol=0)


def _truth(h, **kw):
    """NumPy's var in float64 of the same values, cast to the input's type."""
    return np.var(h.astype(np.float64), **kw).astype(h.dtype)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 7, 8, 15, 16, 17, 63, 64, 65, 1023, 1024, 1025, 4099,
                               100_003, 1 << 20, (1 << 22) + 5])
def test_whole_array_sizes(rng, dt, n):
    h = rng.standard_normal(n).astype(dt)
    d = gpuarr.asarray(h)
    _close(gpuarr.var(d), _truth(h), dt, scale=10)
    if n > 1:
        _close(gpuarr.std(d, ddof=1), np.std(h.astype(np.float64), ddof=1).astype(dt), dt,
               scale=10)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("start", [1, 2, 3, 5])
def test_misaligned_starts(rng, dt, start):
    """Views whose first element is not on a vector boundary: the scalar head and tail."""
    h = rng.standard_normal(70_001).astype(dt)
    d = gpuarr.asarray(h)
    _close(gpuarr.var(d[start:]), _truth(h[start:]), dt, scale=10)
    _close(gpuarr.var(d[start:-start]), _truth(h[start:-start]), dt, scale=10)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_far_from_zero(rng, dt):
    """A mean 1e4 standard deviations from zero: the merged means and deviations keep the
    variance as NumPy's two passes do (a sum of squares minus the squared sum would not)."""
    h = (1e4 + rng.standard_normal(300_007)).astype(dt)
    d = gpuarr.asarray(h)
    _close(gpuarr.var(d), _truth(h), dt, scale=50)
    m = (1e4 + rng.standard_normal((3001, 77))).astype(dt)
    for axis in (0, 1):
        _close(gpuarr.var(gpuarr.asarray(m), axis=axis), _truth(m, axis=axis), dt, scale=50)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("shape,axis", [
    ((5000, 3), 0),          # a thread an output (Outer), single-element updates
    ((3, 5000), 1),          # a block an output
    ((4000, 9), 1),          # lanes an output (short rows)
    ((200, 300, 7), (0, 2)),  # several reduced dims in rows
    ((40, 50, 60), (0, 1)),
    ((6, 1 << 18), 1),       # long rows, chunked
])
def test_axis_paths(rng, dt, shape, axis):
    h = rng.standard_normal(shape).astype(dt) * 3 + 2
    d = gpuarr.asarray(h)
    _close(gpuarr.var(d, axis=axis), _truth(h, axis=axis), dt, scale=10)
    _close(gpuarr.std(d, axis=axis, keepdims=True),
           np.std(h.astype(np.float64), axis=axis, keepdims=True).astype(dt), dt, scale=10)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_strided_and_reversed_views(rng, dt):
    h = rng.standard_normal((600, 500)).astype(dt)
    d = gpuarr.asarray(h)
    for view in (np.s_[::2, ::3], np.s_[::-1, ::-2], np.s_[:, 7], np.s_[3, ::-1]):
        for axis in (None, 0, -1):
            _close(gpuarr.var(d[view], axis=axis), _truth(h[view], axis=axis), dt, scale=10)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 17, 5000, 1 << 20])
def test_inf_and_nan_give_nan(rng, dt, n):
    """NumPy's x - mean is NaN at an inf element (and everywhere with both signs), so var is
    NaN; the one pass gives NaN wherever the merged mean is not finite. The inf is tried as
    the first, a middle and the last element."""
    for where in sorted({0, n // 2, n - 1}):
        for bad in (np.inf, -np.inf, np.nan):
            h = rng.standard_normal(n).astype(dt)
            h[where] = bad
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = np.var(h)
                got = float(gpuarr.var(gpuarr.asarray(h)))
            assert np.isnan(want) and np.isnan(got), (where, bad, want, got)
    h = rng.standard_normal((n, 3)).astype(dt)
    h[n - 1, 1] = np.inf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.var(h, axis=0)
        got = gpuarr.asnumpy(gpuarr.var(gpuarr.asarray(h), axis=0))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


@gpu_test
def test_half_and_integer_inputs_reduce_in_float(rng):
    """float16 reduces in float32 and integers in float64 (NumPy's dtypes), dtype=float32
    of integers in float32: all take the one pass."""
    f16 = rng.standard_normal(10_001).astype(np.float16)
    got = gpuarr.var(gpuarr.asarray(f16))
    assert got.dtype == np.float16
    np.testing.assert_allclose(float(got), np.var(f16), rtol=2e-3)
    ints = rng.integers(-1000, 1000, (301, 17))
    for kw in ({}, {"axis": 0}, {"dtype": np.float32, "axis": 1}):
        want = np.var(ints, **kw)
        got = gpuarr.asnumpy(gpuarr.var(gpuarr.asarray(ints), **kw))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-5 if want.dtype == np.float32 else 1e-12)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("op", ["var", "std"])
def test_divisor_and_root_in_the_kernel(rng, dt, op):
    """The kernel divides by n - ddof and takes std's root: fractional ddof, ddof = n (a
    division by zero: inf, or NaN for a constant row) and beyond, with NumPy's warning."""
    h = rng.standard_normal((5, 9)).astype(dt)
    h[3] = 2.5  # a constant row: 0 / 0 where ddof >= n
    d = gpuarr.asarray(h)
    for ddof in (0, 1, 2.5, 9, 11):
        for axis in (None, 1):
            with warnings.catch_warnings(record=True) as w_np:
                warnings.simplefilter("always")
                want = getattr(np, op)(h, axis=axis, ddof=ddof)
            with warnings.catch_warnings(record=True) as w_ga:
                warnings.simplefilter("always")
                got = gpuarr.asnumpy(getattr(gpuarr, op)(d, axis=axis, ddof=ddof))
            assert got.dtype == want.dtype and got.shape == np.shape(want)
            np.testing.assert_allclose(got, want, rtol=RTOL[dt] * 10)
            assert (any("Degrees of freedom" in str(m.message) for m in w_np)
                    == any("Degrees of freedom" in str(m.message) for m in w_ga))


@gpu_test
@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "complex64", "complex128"])
def test_mean_divides_in_the_sum_kernel(rng, dt):
    """mean of floating and complex data: the sum's kernel divides by the count (float16
    sums in float32 and stores float16; complex parts divided each), over whole arrays, each
    axis, keepdims and out=."""
    h = rng.standard_normal((300, 7, 50))
    if dt.startswith("complex"):
        h = h + 1j * rng.standard_normal(h.shape)
    h = h.astype(dt)
    d = gpuarr.asarray(h)
    rtol = {"float16": 2e-3, "float32": 1e-5, "complex64": 1e-5}.get(dt, 1e-12)
    for axis, keepdims in ((None, False), (0, False), (2, True), ((0, 2), False), (-2, True)):
        want = np.mean(h, axis=axis, keepdims=keepdims)
        got = gpuarr.asnumpy(gpuarr.mean(d, axis=axis, keepdims=keepdims))
        assert got.dtype == want.dtype and got.shape == np.shape(want)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)  # data of scale 1
    out = gpuarr.empty((7, 50), dtype=dt)
    r = gpuarr.mean(d, axis=0, out=out)
    assert r is out
    np.testing.assert_allclose(gpuarr.asnumpy(out), np.mean(h, axis=0), rtol=rtol, atol=rtol)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        empty = gpuarr.mean(gpuarr.asarray(h[:0]), axis=0)
    assert np.isnan(gpuarr.asnumpy(empty)).all()
