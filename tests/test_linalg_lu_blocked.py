"""Our blocked LU (cpp/ops/lu_blocked.cuh: panels factored in registers by one thread block
or a thread-block cluster; trsm + GEMM updates by cuBLAS, or up to n = 512 by one kernel of ours), the route of det/slogdet/inv/solve
for float32/float64 wherever cuSOLVER Xgetrf was taken, against numpy.linalg and against
the cuSOLVER route (GPUARR_LU_ROUTE=cusolver). The sizes cross the panel width (64 float32,
32 float64), one block's 512 rows (clusters of 2..16 blocks above), the last narrow panel,
and the outer blocking of n >= 4096; the matrices are general (row interchanges happen
in every panel), singular (an exact zero pivot) or hold a NaN."""

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test
from gpuarr import _config

SIZES = [1, 2, 31, 33, 64, 65, 130, 511, 512, 513, 1100]
EPS = {"float32": np.finfo(np.float32).eps, "float64": np.finfo(np.float64).eps}


def _g(x):
    return gpuarr.asnumpy(x)


def _backward_error(a, x, b):
    """||a x - b|| / (||a|| ||x|| + ||b||) in the inf-norm, in float64: small (a few n eps)
    for any LU with partial pivoting, whatever the conditioning."""
    a, x, b = (np.asarray(v, dtype=np.float64) for v in (a, x, b))
    r = np.abs(a @ x - b).sum(axis=1).max()
    norm = lambda m: np.abs(m).sum(axis=1).max()
    return r / (norm(a) * norm(x) + norm(b))


@pytest.fixture(params=["own", "cusolver"])
def route(request):
    with _config.override(GPUARR_LU_ROUTE="auto" if request.param == "own" else "cusolver"):
        yield request.param


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", SIZES)
def test_lu_routes_slogdet_inv_solve(rng, route, dt, n):
    a = rng.standard_normal((n, n)).astype(dt)
    d = gpuarr.asarray(a)
    sw, lw = np.linalg.slogdet(a.astype(np.float64))
    sg, lg = gpuarr.linalg.slogdet(d)
    assert _g(sg) == sw
    np.testing.assert_allclose(_g(lg), lw, rtol=0, atol=(2e-3 if dt == "float32" else 1e-9) * n)
    if n <= 65:  # in the input's dtype: float32 overflows to inf from n ~ 40, as NumPy's
        np.testing.assert_allclose(_g(gpuarr.linalg.det(d)), np.linalg.det(a),
                                   rtol=(2e-3 if dt == "float32" else 1e-9) * n)
    bound = 4 * n * EPS[dt]
    x = _g(gpuarr.linalg.inv(d))
    assert x.dtype == np.dtype(dt)
    assert _backward_error(a, x, np.eye(n)) < bound
    b = rng.standard_normal((n, 3)).astype(dt)
    y = _g(gpuarr.linalg.solve(d, gpuarr.asarray(b)))
    assert _backward_error(a, y, b) < bound


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_lu_outer_blocking(rng, dt):
    """n >= 4096 takes outer blocks of 256 columns: the row interchanges of a block's later
    panels must reach its earlier L columns for det too (the trailing update reads them)."""
    n = 4160
    a = rng.standard_normal((n, n)).astype(dt)
    d = gpuarr.asarray(a)
    sw, lw = np.linalg.slogdet(a.astype(np.float64))
    sg, lg = gpuarr.linalg.slogdet(d)
    assert _g(sg) == sw
    np.testing.assert_allclose(_g(lg), lw, rtol=1e-4 if dt == "float32" else 1e-10)
    b = rng.standard_normal((n, 2)).astype(dt)
    y = _g(gpuarr.linalg.solve(d, gpuarr.asarray(b)))
    assert _backward_error(a, y, b) < 4 * n * EPS[dt]


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n,col", [(3, 0), (64, 63), (200, 70), (700, 650), (1100, 3)])
def test_lu_routes_singular(rng, route, dt, n, col):
    """An exact zero column is an exact zero pivot on both routes: det 0, slogdet (0, -inf),
    inv and solve raise LinAlgError("Singular matrix")."""
    a = rng.standard_normal((n, n)).astype(dt)
    a[:, col] = 0
    d = gpuarr.asarray(a)
    assert _g(gpuarr.linalg.det(d)) == 0
    s, l = gpuarr.linalg.slogdet(d)
    assert _g(s) == 0 and _g(l) == -np.inf
    with pytest.raises(gpuarr.linalg.LinAlgError, match="Singular matrix"):
        gpuarr.linalg.inv(d)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        gpuarr.linalg.solve(d, gpuarr.ones((n, 1), dtype=dt))


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [5, 300, 1100])
def test_lu_own_nan(rng, dt, n):
    """A NaN is taken as pivot and propagates: det and slogdet NaN as NumPy gives (cuSOLVER's
    pivot search can step over it), inv all-NaN, no error, no hang."""
    a = rng.standard_normal((n, n)).astype(dt)
    a[n // 2, n // 3] = np.nan
    d = gpuarr.asarray(a)
    assert np.isnan(_g(gpuarr.linalg.det(d)))
    assert np.isnan(np.linalg.det(a))
    s, l = gpuarr.linalg.slogdet(d)
    assert np.isnan(_g(l))
    assert np.isnan(_g(gpuarr.linalg.inv(d))).all()


@gpu_test
def test_lu_own_batch_and_views(rng):
    """Per-matrix loop over a batch, from a non-contiguous, negatively strided view."""
    base = rng.standard_normal((3, 300, 600)).astype(np.float32)
    a = base[:, ::-1, ::2]
    d = gpuarr.asarray(base)[:, ::-1, ::2]
    sw, lw = np.linalg.slogdet(a.astype(np.float64))
    sg, lg = gpuarr.linalg.slogdet(d)
    np.testing.assert_array_equal(_g(sg), sw)
    np.testing.assert_allclose(_g(lg), lw, rtol=1e-4)
    x = _g(gpuarr.linalg.inv(d))
    for i in range(3):
        assert _backward_error(a[i], x[i], np.eye(300)) < 4 * 300 * EPS["float32"]
