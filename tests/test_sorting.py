"""Sorting and searching against NumPy: sort, argsort, partition, lexsort, searchsorted,
unique (+ Array API variants), bincount, histogram, median/percentile/quantile."""

import numpy as np
import pytest

import gpuarr as ga
from conftest import (
    ALL_DTYPES, FLOAT_DTYPES, dtype_id, float_specials, gpu_test, random_array,
    assert_same_exception, outcome,
)

REAL_DTYPES = [d for d in ALL_DTYPES if d.kind != "c"]
SORT_SHAPES = [(0,), (1,), (7,), (1000,), (3, 0), (4, 33), (3, 5, 6)]


def data_with_specials(rng, shape, dtype):
    """Random values with duplicates; floats/complex also NaN, inf and -0.0."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        x = random_array(rng, shape, dtype)
        if x.size > 4:  # duplicates
            x.reshape(-1)[: x.size // 3] = x.reshape(-1)[x.size // 3: 2 * (x.size // 3)]
        return x
    if dtype.kind == "b":
        return random_array(rng, shape, dtype)
    x = np.round(random_array(rng, shape, dtype) / 50).astype(dtype)  # many duplicates
    flat = x.reshape(-1)
    sp = float_specials(dtype)
    if flat.size:
        idx = rng.integers(0, flat.size, size=min(flat.size, sp.size))
        flat[idx] = sp[: idx.size]
    return x


def views(h):
    """(name, host view, device view) triples: contiguous, strided, negative strides."""
    d = ga.asarray(h)
    out = [("c", h, d)]
    if h.ndim >= 1 and h.shape[-1] > 1:
        out.append(("rev", h[..., ::-1], d[..., ::-1]))
    if h.ndim >= 2:
        out.append(("T", h.T, d.T))
    return out


def nan_equal(actual, desired):
    np.testing.assert_array_equal(actual, desired)  # NaN == NaN, -0.0 == 0.0


# --- sort / argsort ---------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", SORT_SHAPES, ids=str)
def test_sort_argsort(rng, dtype, shape):
    h0 = data_with_specials(rng, shape, dtype)
    for name, h, d in views(h0):
        for axis in list(range(-h.ndim, h.ndim)) + [None]:
            s = ga.sort(d, axis=axis)
            assert s.shape == np.sort(h, axis=axis).shape
            nan_equal(s.get(), np.sort(h, axis=axis))
            a = ga.argsort(d, axis=axis)
            assert a.dtype == np.int64
            np.testing.assert_array_equal(a.get(), np.argsort(h, axis=axis, kind="stable"),
                                          err_msg=f"{name} axis={axis}")


@gpu_test
@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int16], ids=dtype_id)
def test_argsort_stable_duplicates(rng, dtype):
    h = np.array(rng.integers(0, 3, size=5000), dtype=dtype)
    if np.dtype(dtype).kind in "fc":
        h[::7] = np.nan
        h[1::11] = -0.0
    np.testing.assert_array_equal(ga.argsort(ga.asarray(h)).get(), np.argsort(h, kind="stable"))


@gpu_test
def test_complex_order():
    v = np.array([complex(r, i) for r in (np.nan, -1.0, 0.0, 2.0) for i in (np.nan, -3.0, 0.0, 5.0)])
    rng = np.random.default_rng(0)
    h = rng.permutation(np.repeat(v, 3))
    np.testing.assert_array_equal(ga.argsort(ga.asarray(h)).get(), np.argsort(h, kind="stable"))
    nan_equal(ga.sort(ga.asarray(h)).get(), np.sort(h))


@gpu_test
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=dtype_id)
@pytest.mark.parametrize("n", [1, 5, 300_001], ids=str)
def test_sort_nans_of_either_sign_last(rng, dtype, n):
    # NaNs with the sign bit set order before -inf in IEEE bit order; NumPy puts every NaN
    # last. Mixed with +NaN, both infinities and both zeros; then NaNs only.
    h = np.round(rng.standard_normal(n) * 100).astype(dtype)
    pick = rng.random(n)
    h[pick < 0.1] = -np.array(np.nan, dtype)
    h[(pick >= 0.1) & (pick < 0.15)] = np.nan
    h[(pick >= 0.15) & (pick < 0.17)] = -np.inf
    h[(pick >= 0.17) & (pick < 0.19)] = np.inf
    h[(pick >= 0.19) & (pick < 0.21)] = -0.0
    assert np.signbit(h[np.isnan(h)]).any() or n < 10
    for x in (h, np.full(n, -np.array(np.nan, dtype)), h[::-1]):
        d = ga.asarray(x)
        nan_equal(ga.sort(d).get(), np.sort(x))
        nan_equal(ga.partition(d, n // 2).get()[n // 2], np.partition(x, n // 2)[n // 2])
        nan_equal(ga.median(d).get(), np.median(x))
        nan_equal(ga.percentile(d, [5, 50, 95]).get(), np.percentile(x, [5, 50, 95]))
        nan_equal(ga.unique(d).get(), np.unique(x))


@gpu_test
@pytest.mark.parametrize("dtype", [np.float64, np.uint8, np.bool_], ids=dtype_id)
def test_sort_method_in_place(rng, dtype):
    h = data_with_specials(rng, (6, 9), dtype)
    for axis in (0, 1, -1):
        hh = h.copy()  # host mirror of d: sorted in place through the same view
        d = ga.asarray(hh)
        view = d[:, ::-2]
        hv = hh[:, ::-2]
        assert view.sort(axis=axis) is None
        hv.sort(axis=axis)
        nan_equal(view.get(), hv)
        nan_equal(d.get(), hh)  # the base: sorted columns written back, the others untouched
        np.testing.assert_array_equal(d.argsort(axis=axis).get(), hh.argsort(axis=axis, kind="stable"))


@gpu_test
def test_sort_0d_and_errors():
    d = ga.asarray(np.array(3.0))
    np.testing.assert_array_equal(ga.sort(d, axis=None).get(), np.sort(np.array(3.0), axis=None))
    np.testing.assert_array_equal(ga.argsort(d).get(), np.argsort(np.array(3.0)))
    for fn in (ga.sort, ga.argsort):
        with pytest.raises(np.exceptions.AxisError):
            fn(ga.zeros((2, 3)), axis=2)
    with pytest.raises(np.exceptions.AxisError):
        ga.sort(d)


# --- partition --------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float16], ids=dtype_id)
def test_partition_contract(rng, dtype):
    h = data_with_specials(rng, (5, 40), dtype)
    d = ga.asarray(h)
    for kth, axis in [(3, -1), ([0, 10, -1], 1), (2, 0), (7, None)]:
        p = ga.partition(d, kth, axis=axis).get()
        ref = np.partition(h, kth, axis=axis)
        for k in np.atleast_1d(kth):
            nan_equal(np.take(p, k, axis=axis or 0), np.take(ref, k, axis=axis or 0))
        ap = ga.argpartition(d, kth, axis=axis).get()
        src = h.reshape(-1) if axis is None else h
        nan_equal(np.take_along_axis(src, ap, axis=axis or 0).take(np.atleast_1d(kth), axis=axis or 0),
                  ref.take(np.atleast_1d(kth), axis=axis or 0))


@gpu_test
def test_partition_errors():
    d = ga.arange(5)
    for kth in (5, -6):
        k1, e1, _ = outcome(ga.partition, d, kth)
        k2, e2, _ = outcome(np.partition, np.arange(5), kth)
        assert k1 == k2 == "raise"
        assert_same_exception(e1, e2)
    with pytest.raises(np.exceptions.AxisError):
        ga.partition(ga.asarray(np.array(3)), 0)


# --- lexsort ----------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("shape,axis", [((50,), -1), ((4, 30), -1), ((4, 30), 0)], ids=str)
def test_lexsort(rng, shape, axis):
    k1 = rng.integers(0, 3, size=shape)
    k2 = np.round(rng.standard_normal(shape)).astype(np.float32)
    k2.reshape(-1)[::9] = np.nan
    k3 = rng.integers(0, 2, size=shape).astype(np.complex128)
    keys = (k1, k2, k3)
    np.testing.assert_array_equal(
        ga.lexsort([ga.asarray(k) for k in keys], axis=axis).get(), np.lexsort(keys, axis=axis))
    st = np.stack([k1, k1[::-1] if k1.ndim == 1 else k1])
    np.testing.assert_array_equal(ga.lexsort(ga.asarray(st), axis=axis).get(), np.lexsort(st, axis=axis))


@gpu_test
def test_lexsort_errors():
    with pytest.raises(TypeError, match="need sequence of keys"):
        ga.lexsort([])
    with pytest.raises(ValueError, match="all keys need to be the same shape"):
        ga.lexsort([ga.arange(2), ga.arange(3)])


# --- searchsorted -----------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted(rng, dtype, side):
    a = np.sort(data_with_specials(rng, (100,), dtype))
    v = data_with_specials(rng, (3, 17), dtype)
    v.reshape(-1)[:5] = a[[0, 5, 50, -1, -2]]
    got = ga.searchsorted(ga.asarray(a), ga.asarray(v), side=side)
    np.testing.assert_array_equal(got.get(), np.searchsorted(a, v, side=side))
    # sorter, strided a, scalar needle
    perm = rng.permutation(a.size)
    unsorted = a[perm]
    sorter = np.argsort(unsorted, kind="stable")
    np.testing.assert_array_equal(
        ga.searchsorted(ga.asarray(unsorted), ga.asarray(v), side=side, sorter=ga.asarray(sorter)).get(),
        np.searchsorted(unsorted, v, side=side, sorter=sorter))
    np.testing.assert_array_equal(
        ga.searchsorted(ga.asarray(a)[::2], ga.asarray(v), side=side).get(),
        np.searchsorted(a[::2], v, side=side))
    assert int(ga.asarray(a).searchsorted(v.reshape(-1)[3], side=side)) == np.searchsorted(a, v.reshape(-1)[3], side=side)


@gpu_test
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int64,
                                   np.uint32, np.bool_, np.complex64, np.complex128],
                         ids=dtype_id)
def test_searchsorted_haystack_sizes(rng, dtype):
    # Haystacks up to 16 KB are searched in shared memory: sizes around powers of two and
    # around that limit, and more needles than one wave of blocks holds threads.
    limit = 16 * 1024 // np.dtype(dtype).itemsize
    v = data_with_specials(rng, (300_001,), dtype)
    dv = ga.asarray(v)
    for n in (0, 1, 2, 3, 4, 5, 7, 8, 9, 255, 256, 257, limit - 1, limit, limit + 1):
        a = np.sort(data_with_specials(rng, (n,), dtype))
        da = ga.asarray(a)
        for side in ("left", "right"):
            np.testing.assert_array_equal(ga.searchsorted(da, dv[:3001], side=side).get(),
                                          np.searchsorted(a, v[:3001], side=side))
        if n in (257, limit, limit + 1):
            for side in ("left", "right"):
                np.testing.assert_array_equal(ga.searchsorted(da, dv, side=side).get(),
                                              np.searchsorted(a, v, side=side))
            # a strided haystack staged: every other element of a sorted one
            np.testing.assert_array_equal(ga.searchsorted(da[::2], dv[:3001]).get(),
                                          np.searchsorted(a[::2], v[:3001]))


@gpu_test
def test_searchsorted_mixed_and_errors():
    a = np.array([1, 2, 3], np.int8)
    assert int(ga.searchsorted(ga.asarray(a), 300)) == np.searchsorted(a, 300)
    assert int(ga.searchsorted(ga.asarray(a), 2.5)) == np.searchsorted(a, 2.5)
    assert ga.searchsorted(ga.asarray(a), []).shape == (0,)
    assert int(ga.searchsorted(ga.zeros(0), 1.0)) == 0
    for args, kw in [(([[1, 2, 3]], [1]), {}), (([1, 2, 3], [1]), {"side": "x"}),
                     (([1, 2, 3], [1]), {"sorter": [0, 1]})]:
        k1, e1, _ = outcome(np.searchsorted, *args, **kw)
        dargs = tuple(ga.asarray(np.asarray(x)) for x in args)
        dkw = {k: (ga.asarray(np.asarray(v)) if k == "sorter" else v) for k, v in kw.items()}
        k2, e2, _ = outcome(ga.searchsorted, *dargs, **dkw)
        assert k1 == k2 == "raise"
        assert_same_exception(e2, e1)


# --- unique -----------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", [(0,), (1,), (200,), (7, 9)], ids=str)
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique(rng, dtype, shape, equal_nan):
    h = data_with_specials(rng, shape, dtype)
    if dtype.kind in "iu":
        h = (h % 7).astype(dtype)
    d = ga.asarray(h)
    got = ga.unique(d, return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
    ref = np.unique(h, return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
    assert len(got) == 4
    for g, r in zip(got, ref):
        assert g.shape == r.shape and g.dtype == r.dtype
        nan_equal(g.get(), r)
    nan_equal(ga.unique(d, equal_nan=equal_nan).get(), np.unique(h, equal_nan=equal_nan))
    v, c = ga.unique(d[::-1] if h.ndim == 1 else d.T, return_counts=True, equal_nan=equal_nan)
    rv, rc = np.unique(h[::-1] if h.ndim == 1 else h.T, return_counts=True, equal_nan=equal_nan)
    nan_equal(v.get(), rv)
    nan_equal(c.get(), rc)


@gpu_test
def test_unique_array_api(rng):
    h = np.array([3.0, np.nan, 1.0, 3.0, np.nan, -0.0, 0.0]).reshape(7, 1)
    d = ga.asarray(h)
    for name, fields in [("unique_all", ("values", "indices", "inverse_indices", "counts")),
                         ("unique_counts", ("values", "counts")),
                         ("unique_inverse", ("values", "inverse_indices"))]:
        g, r = getattr(ga, name)(d), getattr(np, name)(h)
        assert type(g).__name__ == type(r).__name__
        assert g._fields == fields
        for f in fields:
            assert getattr(g, f).shape == getattr(r, f).shape, (name, f)
            nan_equal(getattr(g, f).get(), getattr(r, f))
    nan_equal(np.sort(ga.unique_values(d).get()), np.sort(np.unique_values(h)))


@gpu_test
def test_unique_0d_and_axis():
    nan_equal(ga.unique(ga.asarray(np.array(3))).get(), np.unique(np.array(3)))
    nan_equal(ga.unique(ga.arange(4)[::-1], axis=0).get(), np.unique(np.arange(4)[::-1], axis=0))


# --- bincount ---------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.uint64], ids=dtype_id)
def test_bincount(rng, dtype):
    h = rng.integers(0, 2 if dtype == np.bool_ else 50, size=3000).astype(dtype)
    d = ga.asarray(h)
    r = ga.bincount(d)
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r.get(), np.bincount(h))
    np.testing.assert_array_equal(ga.bincount(d[::-3], minlength=100).get(), np.bincount(h[::-3], minlength=100))
    w = rng.standard_normal(h.size).astype(np.float32)
    rw = ga.bincount(d, weights=ga.asarray(w))
    assert rw.dtype == np.float64
    np.testing.assert_allclose(rw.get(), np.bincount(h, weights=w), rtol=1e-12, atol=1e-9)
    np.testing.assert_array_equal(ga.bincount(ga.asarray(h[:0]), minlength=3).get(),
                                  np.bincount(h[:0], minlength=3))


@gpu_test
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.uint32, np.int64], ids=dtype_id)
@pytest.mark.parametrize("top", [7, 3000, 20000])  # shared bins, shared counts only, global
def test_bincount_many_values_and_bins(rng, dtype, top):
    top = min(top, np.iinfo(dtype).max)
    h = rng.integers(0, top, size=1 << 20).astype(dtype)
    h[-1] = top  # the largest value is the last one
    d = ga.asarray(h)
    np.testing.assert_array_equal(ga.bincount(d).get(), np.bincount(h))
    w = rng.standard_normal(h.size)
    np.testing.assert_allclose(ga.bincount(d, weights=ga.asarray(w)).get(),
                               np.bincount(h, weights=w), rtol=1e-9, atol=1e-9)


@gpu_test
def test_bincount_errors():
    cases = [([-1, 2], {}), ([1, 2], {"minlength": -1}), (np.array([1.0, 2.0]), {}),
             (np.zeros((2, 2), int), {}), ([1, 2], {"weights": [1.0]}), (np.array(3), {})]
    for x, kw in cases:
        k1, e1, _ = outcome(np.bincount, np.asarray(x), **kw)
        dkw = {k: (ga.asarray(np.asarray(v)) if k == "weights" else v) for k, v in kw.items()}
        k2, e2, _ = outcome(ga.bincount, ga.asarray(np.asarray(x)), **dkw)
        assert k1 == k2 == "raise", (x, kw)
        assert_same_exception(e2, e1)


# --- histogram --------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.int64, np.float16, np.float32, np.float64], ids=dtype_id)
def test_histogram(rng, dtype):
    h = random_array(rng, (20, 50), dtype)
    d = ga.asarray(h)
    w = rng.standard_normal(h.shape)
    for kwargs in [{}, {"bins": 7}, {"bins": 1}, {"bins": 13, "range": (-20, 30)},
                   {"bins": np.array([-50.0, -1.0, 0.0, 0.0, 3.5, 100.0])},
                   {"bins": 10, "density": True}, {"bins": [0, 1, 10, 100], "density": True}]:
        gh, ge = ga.histogram(d, **kwargs)
        rh, re = np.histogram(h, **kwargs)
        assert gh.dtype == rh.dtype and ge.dtype == re.dtype, kwargs
        np.testing.assert_array_equal(ge.get(), re)
        if kwargs.get("density"):
            np.testing.assert_allclose(gh.get(), rh, rtol=1e-12)
        else:
            np.testing.assert_array_equal(gh.get(), rh, err_msg=str(kwargs))
        gw, _ = ga.histogram(d.T, weights=ga.asarray(w.T), **kwargs)
        rw, _ = np.histogram(h.T, weights=w.T, **kwargs)
        np.testing.assert_allclose(gw.get(), rw, rtol=1e-10, atol=1e-10)


@gpu_test
def test_histogram_edges_and_errors():
    # Values on edges, equal min and max, empty input.
    h = np.array([0.0, 0.1, 0.2, 0.30000000000000004, 0.5, 1.0, 1.0])
    for kw in [{"bins": 10}, {"bins": 3, "range": (0.1, 0.5)}]:
        np.testing.assert_array_equal(ga.histogram(ga.asarray(h), **kw)[0].get(), np.histogram(h, **kw)[0])
    for x in (np.full(5, 2.0), np.zeros(0)):
        g, e = ga.histogram(ga.asarray(x))
        r, re = np.histogram(x)
        np.testing.assert_array_equal(g.get(), r)
        np.testing.assert_array_equal(e.get(), re)
    for x, kw in [([1, 2], {"bins": [3, 1]}), ([1, np.nan], {"bins": 3}), ([1, 2], {"bins": 0}),
                  ([1, 2], {"bins": 3, "range": (2, 1)})]:
        k1, e1, _ = outcome(np.histogram, np.asarray(x), **kw)
        k2, e2, _ = outcome(ga.histogram, ga.asarray(np.asarray(x)), **kw)
        assert k1 == k2 == "raise"
        assert_same_exception(e2, e1)


# --- median / quantile ------------------------------------------------------------------

METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
           "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "median_unbiased", "normal_unbiased"]


@gpu_test
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint32, np.float16, np.float32, np.float64], ids=dtype_id)
@pytest.mark.parametrize("shape", [(1,), (10,), (7, 6), (4, 3, 5)], ids=str)
def test_median(rng, dtype, shape):
    h = random_array(rng, shape, dtype)
    d = ga.asarray(h)
    axes = [None, 0, -1] + ([(0, 2), (1,)] if len(shape) == 3 else [])
    for axis in axes:
        for keepdims in (False, True):
            g = ga.median(d, axis=axis, keepdims=keepdims)
            r = np.asarray(np.median(h, axis=axis, keepdims=keepdims))
            assert g.dtype == r.dtype and g.shape == r.shape, (axis, keepdims)
            nan_equal(g.get(), r)
    if h.ndim >= 2:
        nan_equal(ga.median(d.T, axis=0).get(), np.median(h.T, axis=0))


@gpu_test
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=dtype_id)
def test_median_nan(rng, dtype):
    h = random_array(rng, (5, 8), dtype)
    h[1, 3] = np.nan
    for axis in (None, 0, 1):
        nan_equal(ga.median(ga.asarray(h), axis=axis).get(), np.asarray(np.median(h, axis=axis)))


@gpu_test
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.float32, np.float64], ids=dtype_id)
def test_quantile_methods(rng, dtype, method):
    h = random_array(rng, (6, 11), dtype)
    h[2, 4] = h[2, 5]
    if np.dtype(dtype).kind == "f":
        h[4, 0] = np.nan
    d = ga.asarray(h)
    for q in (0.5, 0.0, 1.0, np.array([0.1, 0.25, 0.999]), np.array([[0.3], [0.7]], np.float32)):
        for axis in (None, 1, 0):
            g = ga.quantile(d, q, axis=axis, method=method)
            r = np.asarray(np.quantile(h, q, axis=axis, method=method))
            assert g.dtype == r.dtype and g.shape == r.shape, (q, axis)
            nan_equal(g.get(), r)
    g = ga.percentile(d, [5, 50.5, 95], axis=1, method=method, keepdims=True)
    r = np.percentile(h, [5, 50.5, 95], axis=1, method=method, keepdims=True)
    assert g.dtype == r.dtype and g.shape == r.shape
    nan_equal(g.get(), r)


@gpu_test
def test_quantile_errors():
    d = ga.asarray(np.array([1.0, 2.0]))
    for fn, q, kw in [("quantile", 1.5, {}), ("percentile", -1, {}), ("quantile", 0.5, {"method": "foo"}),
                      ("quantile", np.nan, {})]:
        k1, e1, _ = outcome(getattr(np, fn), np.array([1.0, 2.0]), q, **kw)
        k2, e2, _ = outcome(getattr(ga, fn), d, q, **kw)
        assert k1 == k2 == "raise"
        assert_same_exception(e2, e1)
    with pytest.raises(TypeError, match="real numbers"):
        ga.quantile(ga.asarray(np.array([1j])), 0.5)
    with pytest.raises(np.exceptions.AxisError):
        ga.median(ga.zeros((2, 3)), axis=2)


# --- nanmedian / nanpercentile / nanquantile --------------------------------------------


def nan_data(rng, shape, dtype):
    """Random values with a varying number of NaNs per row (so rows have different valid
    counts), duplicates, and (floats) one all-NaN row that is not the first."""
    h = random_array(rng, shape, dtype)
    if np.dtype(dtype).kind in "iu":
        # A quarter of the range: NumPy's own interpolation subtracts neighbours in the integer
        # type and warns of the overflow at the extremes (a warning gpuarr need not copy).
        h = h // 4
    h[1, 3] = h[1, 4]
    if np.dtype(dtype).kind == "f":
        for r in range(shape[0]):
            h[r, rng.integers(0, shape[1], size=r)] = np.nan
        h[2] = np.nan
    return h


def check_nan_fn(np_fn, ga_fn, h, *args, **kw):
    k1, r, w1 = outcome(np_fn, h, *args, **kw)
    k2, g, w2 = outcome(ga_fn, ga.asarray(h), *args, **kw)
    assert k1 == k2 == "ok", (r, g)
    r = np.asarray(r)
    assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, r.dtype, g.shape, r.shape, kw)
    nan_equal(g.get(), r)
    assert w1 == w2, (w1, w2, kw)  # RuntimeWarning for all-NaN slices


@gpu_test
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.float32, np.float64], ids=dtype_id)
def test_nanquantile_methods(rng, dtype, method):
    h = nan_data(rng, (6, 11), dtype)
    for q in (0.5, 0.0, 1.0, np.array([0.1, 0.25, 0.999]), np.array([[0.3], [0.7]], np.float32)):
        for axis in (None, 1, 0):
            check_nan_fn(np.nanquantile, ga.nanquantile, h, q, axis=axis, method=method)
    check_nan_fn(np.nanpercentile, ga.nanpercentile, h, [5, 50.5, 95], axis=1, method=method,
                 keepdims=True)
    # The rows without their all-NaN one, through a strided view, over two axes.
    h3 = h[[0, 1, 3, 4, 5]].reshape(5, 11, 1)[:, ::-2]
    check_nan_fn(np.nanquantile, ga.nanquantile, h3, 0.3, axis=(0, 1), method=method)


@gpu_test
@pytest.mark.parametrize("dtype", [np.float16, np.float32], ids=dtype_id)
def test_nanquantile_all_nan_first_slice(rng, dtype):
    # NumPy (apply_along_axis) gives the first slice's dtype: a's when it is all-NaN before
    # NumPy 2.5.5, the quantile's dtype from 2.5.5 on (gpuarr follows the installed NumPy).
    h = nan_data(rng, (6, 11), dtype)[[2, 0, 1]]
    check_nan_fn(np.nanquantile, ga.nanquantile, h, np.array([0.2, 0.5]), axis=1)
    check_nan_fn(np.nanquantile, ga.nanquantile, h[1:], np.array([0.2, 0.5]), axis=1)
    check_nan_fn(np.nanquantile, ga.nanquantile, h[0], np.array([0.2, 0.5]))
    check_nan_fn(np.nanpercentile, ga.nanpercentile, h[0], 30)
    check_nan_fn(np.nanquantile, ga.nanquantile, np.full((2, 3), np.nan, dtype), 0.5, axis=0)


@gpu_test
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int16, np.bool_],
                         ids=dtype_id)
def test_nanmedian(rng, dtype):
    h = nan_data(rng, (6, 11), dtype)
    for axis in (None, 0, 1, -1, (0, 1)):
        for keepdims in (False, True):
            check_nan_fn(np.nanmedian, ga.nanmedian, h, axis=axis, keepdims=keepdims)
    check_nan_fn(np.nanmedian, ga.nanmedian, h.T[::-1], axis=0)
    check_nan_fn(np.nanmedian, ga.nanmedian, h[2], axis=None)  # all-NaN (floats)
    check_nan_fn(np.nanmedian, ga.nanmedian, h[[2, 0]], axis=1)  # first slice all-NaN
    check_nan_fn(np.nanmedian, ga.nanmedian, np.array(h[0, 0]))  # 0-d
    d = ga.empty((6,), dtype=np.nanmedian(h, axis=1).dtype)
    assert ga.nanmedian(ga.asarray(h), axis=1, out=d) is d
    nan_equal(d.get(), np.nanmedian(h, axis=1))


@gpu_test
def test_nan_order_statistics_empty_and_errors():
    for shape, axis in [((0,), None), ((3, 0), 1), ((0, 4), 0), ((0, 4), 1)]:
        h = np.zeros(shape)
        check_nan_fn(np.nanmedian, ga.nanmedian, h, axis=axis)
        check_nan_fn(np.nanquantile, ga.nanquantile, h, 0.5, axis=axis)
    d = ga.asarray(np.array([1.0, np.nan]))
    for fn, q, kw in [("nanquantile", 1.5, {}), ("nanpercentile", -1, {}),
                      ("nanquantile", 0.5, {"method": "foo"}), ("nanquantile", np.nan, {})]:
        k1, e1, _ = outcome(getattr(np, fn), np.array([1.0, np.nan]), q, **kw)
        k2, e2, _ = outcome(getattr(ga, fn), d, q, **kw)
        assert k1 == k2 == "raise"
        assert_same_exception(e2, e1)
    with pytest.raises(TypeError, match="real numbers"):
        ga.nanquantile(ga.asarray(np.array([1j])), 0.5)
