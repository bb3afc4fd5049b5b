"""histogram of large arrays against NumPy: the bins counted per block in shared memory (up
to 8192 bins of counts, 4096 of weighted sums, with a copy per warp where they fit) and
the global-atomic kernel past those sizes; the one-pass device min/max of the automatic
range."""

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE, dtype_id

pytestmark = GPU_MODULE


def _check(h, d, w=None, dw=None, **kw):
    gh, ge = gpuarr.histogram(d, weights=dw, **kw)
    rh, re = np.histogram(h, weights=w, **kw)
    assert gh.dtype == rh.dtype
    np.testing.assert_array_equal(ge.get(), re)
    if w is None and not kw.get("density"):
        np.testing.assert_array_equal(gh.get(), rh)
    else:
        np.testing.assert_allclose(gh.get(), rh, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("kw", [{"bins": 256}, {"bins": 256, "range": (-3.0, 2.5)},
                                {"bins": 256, "density": True}, {"bins": 1},
                                {"bins": np.array([-4.0, -1.0, -0.5, 0.0, 0.25, 3.0])}],
                         ids=["auto", "range", "density", "one_bin", "edges"])
def test_histogram_16m_float32(kw, rng):
    h = rng.standard_normal(1 << 24).astype(np.float32)
    _check(h, gpuarr.asarray(h), **kw)
    w = rng.random(h.size)
    _check(h[:1 << 20], gpuarr.asarray(h[:1 << 20]), w[:1 << 20], gpuarr.asarray(w[:1 << 20]), **kw)


@pytest.mark.parametrize("bins", [255, 4096, 4097, 8192, 8193, 20000])
@pytest.mark.parametrize("weighted", [False, True])
def test_histogram_bin_counts_around_shared_limits(bins, weighted, rng):
    h = rng.uniform(-1, 1, 3 * 10**6 + 7)
    w = rng.standard_normal(h.size) if weighted else None
    _check(h, gpuarr.asarray(h), w, gpuarr.asarray(w) if weighted else None, bins=bins)


@pytest.mark.filterwarnings("ignore:Converting input from bool:RuntimeWarning")
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "uint64", "float16",
                                   "float64"], ids=dtype_id)
def test_histogram_dtypes_auto_range(dtype, rng):
    n = 10**6 + 3
    dt = np.dtype(dtype)
    if dt.kind == "b":
        h = rng.random(n) < 0.3
    elif dt.kind in "iu" and dt.itemsize == 8:
        # Within 2^50: the device min/max travel as float64 (exact below 2^53).
        h = rng.integers(0 if dt.kind == "u" else -(1 << 50), 1 << 50, size=n, dtype=dt)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        h = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    else:
        h = (rng.standard_normal(n) * 10).astype(dt)
    _check(h, gpuarr.asarray(h), bins=100)


def test_histogram_last_edge_inclusive_and_out_of_range():
    # Many values on the last edge (counted in the last bin), on inner edges, outside the
    # range, and non-finite (ignored with an explicit range).
    n = 2 * 10**6
    h = np.tile(np.array([0.0, 0.25, 0.5, 1.0, 1.0, -0.1, 1.1, np.nan, np.inf, -np.inf]), n // 10)
    for kw in [{"bins": 4, "range": (0.0, 1.0)}, {"bins": np.array([0.0, 0.5, 1.0])}]:
        _check(h, gpuarr.asarray(h), **kw)


def test_histogram_views(rng):
    h = rng.standard_normal((3000, 1000)).astype(np.float32)
    d = gpuarr.asarray(h)
    _check(h[::-1, ::3], d[::-1, ::3], bins=64)
    _check(h.T, d.T, bins=64, range=(-1, 1))


def test_histogram_nan_autorange_raises():
    h = np.ones(10**6)
    h[777_777] = np.nan
    with pytest.raises(ValueError, match="autodetected range"):
        np.histogram(h)
    with pytest.raises(ValueError, match="autodetected range"):
        gpuarr.histogram(gpuarr.asarray(h))
