"""Routes of the LU/QR solvers chosen for speed, against numpy.linalg:
det/slogdet on both LU routes (cuBLAS getrfBatched for small n and batches, cuSOLVER
Xgetrf per matrix for one matrix with n >= 128 and small batches of large n), inv's two
solves (trsm, or Xgetrs), the own
one-block Householder QR of small real matrices (vs cuSOLVER for complex and larger ones),
and inv/solve on two streams with a singular matrix on the second (the early info check)."""

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test


def _g(x):
    return gpuarr.asnumpy(x)


def _near_one(rng, shape, dt):
    """Random matrices with |det| near 1: (X + (2n+3) I) / (2n+3)."""
    n = shape[-1]
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return ((x + (2 * n + 3) * np.eye(n)) / (2 * n + 3)).astype(dt)


# ------------------------------------------------------------------ det / slogdet routes
# (batch, n): one matrix n >= 128 -> cuSOLVER; batch 2 x 128 -> cuBLAS; 2 x 256 -> cuSOLVER,
# 3 x 256 -> cuBLAS; 7 x 512 -> cuSOLVER; 8 x 512 -> cuBLAS; 600 -> cuSOLVER.
DET_SHAPES = [(127, 127), (128, 128), (2, 128, 128), (200, 200), (2, 256, 256), (3, 256, 256),
              (512, 512), (7, 512, 512), (8, 512, 512), (600, 600), (2, 600, 600)]


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("shape", DET_SHAPES, ids=str)
def test_det_routes(rng, dt, shape):
    a = _near_one(rng, shape, dt)
    d = gpuarr.asarray(a)
    tol = 2e-3 if dt in ("float32", "complex64") else 1e-9
    want = np.linalg.det(a.astype(np.complex128 if dt == "complex64" else np.float64))
    got = _g(gpuarr.linalg.det(d))
    assert got.dtype == np.dtype(dt) and got.shape == shape[:-2]
    np.testing.assert_allclose(got, want, rtol=tol, atol=0)
    sw, lw = np.linalg.slogdet(a.astype(np.complex128 if dt == "complex64" else np.float64))
    sg, lg = gpuarr.linalg.slogdet(d)
    np.testing.assert_allclose(_g(lg), lw, rtol=0, atol=tol * 10)
    np.testing.assert_allclose(_g(sg), sw, rtol=0, atol=tol)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(200, 200), (2, 200, 200), (3, 256, 256), (8, 512, 512)],
                         ids=str)
def test_det_routes_singular(rng, dt, shape):
    """A zero column stays exactly zero through the elimination: an exact zero pivot, so
    det 0 and slogdet (0, -inf) on either route, without an error and next to regular
    matrices of the same batch."""
    a = _near_one(rng, shape, dt)
    a[..., 5] = 0
    if len(shape) > 2:
        a[1:] = _near_one(rng, (shape[0] - 1,) + shape[1:], dt)  # only matrix 0 singular
    d = gpuarr.asarray(a)
    got = np.atleast_1d(_g(gpuarr.linalg.det(d)))
    assert got[0] == 0
    sg, lg = (np.atleast_1d(_g(v)) for v in gpuarr.linalg.slogdet(d))
    assert sg[0] == 0 and lg[0] == -np.inf
    if len(shape) > 2:
        tol = 2e-3 if dt == "float32" else 1e-9
        np.testing.assert_allclose(got[1:], np.linalg.det(a[1:].astype(np.float64)), rtol=tol)


# ------------------------------------------------------------------ inv: the trsm solves
@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (17, 17), (65, 65), (300, 300), (2, 70, 70)],
                         ids=str)
def test_inv_cusolver_route_solves(rng, dt, shape):
    """One matrix (any n) and batches of n > 64 take the per-matrix LU; the inverse then
    comes from a permuted identity and two trsm. General matrices, so that the row
    interchanges matter."""
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    a = x.astype(dt)
    got = _g(gpuarr.linalg.inv(gpuarr.asarray(a)))
    assert got.dtype == np.dtype(dt) and got.shape == shape
    want = np.linalg.inv(a.astype(np.complex128 if dt[0] == "c" else np.float64))
    single = np.dtype(dt) in (np.float32, np.complex64)
    scale = np.abs(want).max()
    np.testing.assert_allclose(got, want, rtol=0, atol=(2e-4 if single else 1e-10) * scale * shape[-1])
    ident = np.broadcast_to(np.eye(shape[-1]), shape)
    np.testing.assert_allclose(got @ a, ident, atol=(2e-4 if single else 1e-10) * scale * shape[-1])


# ------------------------------------------------------------------ own small QR
# The own kernel holds 16, 32 or 64 rows per thread: sizes on both sides of each.
QR_SMALL_SHAPES = [(1, 1), (1, 7), (7, 1), (5, 3), (3, 5), (4, 4), (64, 64), (64, 10),
                   (10, 64), (33, 31), (3, 2, 5, 3), (50, 8, 8), (2, 64, 64),
                   (16, 16), (17, 40), (32, 64), (64, 33), (16, 64),
                   (0, 3), (3, 0), (0, 4, 4), (65, 65), (70, 20)]


def _qr_tol(dt):
    return 5e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "int32"])
@pytest.mark.parametrize("shape", QR_SMALL_SHAPES, ids=str)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr_small(rng, dt, shape, mode):
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    a = (x * 4).astype(dt) if np.dtype(dt).kind == "i" else x.astype(dt)
    want = np.linalg.qr(a, mode=mode)
    got = gpuarr.linalg.qr(gpuarr.asarray(a), mode=mode)
    rt = want.dtype if mode == "r" else want.Q.dtype
    tol = _qr_tol(rt)
    scale = max(1.0, float(np.abs(a).max(initial=0)))
    m, n = shape[-2:]
    # The own kernel (real, 1 <= m, n <= 64) follows LAPACK's geqrf conventions (beta =
    # -sign(alpha) ||x||): its R and Q match NumPy's with signs; cuSOLVER's (complex,
    # larger) are compared up to the signs, as in test_linalg_solvers.py.
    own = rt.kind == "f" and 1 <= m <= 64 and 1 <= n <= 64
    fix = (lambda v: v) if own else np.abs
    if mode == "r":
        r = _g(got)
        assert r.shape == want.shape and r.dtype == want.dtype
        np.testing.assert_array_equal(r, np.triu(r))
        np.testing.assert_allclose(fix(r), fix(want), rtol=0, atol=tol * scale * 10)
        return
    q, r = (_g(v) for v in got)
    assert type(got).__name__ == "QRResult"
    assert q.shape == want.Q.shape and r.shape == want.R.shape
    assert q.dtype == want.Q.dtype and r.dtype == want.R.dtype
    np.testing.assert_array_equal(r, np.triu(r))
    np.testing.assert_allclose(q @ r, a.astype(rt), rtol=0, atol=tol * scale * 10)
    k = q.shape[-1]
    np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q,
                               np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), atol=tol * 10)
    np.testing.assert_allclose(fix(r), fix(want.R), rtol=0, atol=tol * scale * 10)
    if own:
        np.testing.assert_allclose(q, want.Q, rtol=0, atol=tol * 10)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_qr_small_views_and_special(rng, dt):
    a = rng.standard_normal((3, 12, 9)).astype(dt)
    d = gpuarr.asarray(a)
    tol = _qr_tol(dt)
    for hv, dv in ((a[:, ::-1, :], d[:, ::-1, :]), (a.transpose(0, 2, 1), d.transpose(0, 2, 1)),
                   (a[::-2, 1:, ::2], d[::-2, 1:, ::2])):
        q, r = (_g(v) for v in gpuarr.linalg.qr(dv))
        wq, wr = np.linalg.qr(hv)
        np.testing.assert_allclose(q @ r, hv, atol=tol * 10)
        np.testing.assert_allclose(r, wr, atol=tol * 10)
    # A zero column below the diagonal (tau = 0, H = I) and a rank-deficient matrix.
    z = rng.standard_normal((6, 4)).astype(dt)
    z[1:, 0] = 0
    z[:, 2] = z[:, 1]
    q, r = (_g(v) for v in gpuarr.linalg.qr(gpuarr.asarray(z), mode="complete"))
    wq, wr = np.linalg.qr(z, mode="complete")
    np.testing.assert_allclose(q @ r, z, atol=tol * 10)
    np.testing.assert_allclose(q.T @ q, np.eye(6), atol=tol * 10)
    np.testing.assert_allclose(r[:, :2], wr[:, :2], atol=tol * 10)
    # raw stays on cuSOLVER and agrees with the own kernel's R (full rank: unique R).
    f = gpuarr.asarray(rng.standard_normal((6, 4)).astype(dt))
    h, tau = (_g(v) for v in gpuarr.linalg.qr(f, mode="raw"))
    np.testing.assert_allclose(np.triu(h.T[:4]), _g(gpuarr.linalg.qr(f, mode="r")),
                               atol=tol * 10)


@gpu_test
def test_qr_small_on_stream(rng):
    a = rng.standard_normal((16, 32, 32)).astype("float32")
    s = gpuarr.cuda.Stream()
    with s:
        d = gpuarr.asarray(a)
        q, r = gpuarr.linalg.qr(d)
        qh, rh = _g(q), _g(r)
    np.testing.assert_allclose(qh @ rh, a, atol=5e-4)


# ------------------------------------------------------------------ inv / solve, two streams
@gpu_test
@pytest.mark.parametrize("n", [40, 600])
def test_inv_two_streams_singular_second(rng, n):
    a = _near_one(rng, (n, n), "float32")
    bad = _near_one(rng, (n, n), "float32")
    bad[:, 3] = 0  # exact zero pivot
    da, dbad = gpuarr.asarray(a), gpuarr.asarray(bad)
    s1, s2 = gpuarr.cuda.Stream(), gpuarr.cuda.Stream()
    with s1:
        x = gpuarr.linalg.inv(da)
    with s2:
        with pytest.raises(gpuarr.linalg.LinAlgError, match="Singular matrix"):
            gpuarr.linalg.inv(dbad)
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            gpuarr.linalg.solve(dbad, gpuarr.ones((n, 2), dtype="float32"))
    with s1:
        xh = _g(x)
    np.testing.assert_allclose(xh @ a, np.eye(n), atol=2e-3)
    # The second stream still works after the error.
    with s2:
        y = gpuarr.linalg.inv(da)
        np.testing.assert_allclose(_g(y), xh, atol=1e-3)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "complex128"])
@pytest.mark.parametrize("shape", [(3, 4, 4), (2, 600, 600), (3, 80, 80)], ids=str)
def test_inv_nan_matrix_in_batch(rng, dt, shape):
    """The matrices with a NaN invert (and solve) to all-NaN (LAPACK's result, set on the
    device after getrs/getri); the others are unaffected, without an error."""
    a = _near_one(rng, shape, dt)
    a[1, 0, 1] = np.nan
    got = _g(gpuarr.linalg.inv(gpuarr.asarray(a)))
    assert np.isnan(got[1]).all()
    keep = [0] + list(range(2, shape[0]))
    wide = np.complex128 if dt[0] == "c" else np.float64
    want = np.linalg.inv(a[keep].astype(wide))
    np.testing.assert_allclose(got[keep], want, atol=2e-3 if dt == "float32" else 1e-9)
    b = rng.standard_normal(shape[:2] + (3,)).astype(dt)
    x = _g(gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.asarray(b)))
    assert x.shape == b.shape and np.isnan(x[1]).all()
    want = np.linalg.solve(a[keep].astype(wide), b[keep].astype(wide))
    np.testing.assert_allclose(x[keep], want, atol=2e-3 if dt == "float32" else 1e-9)
