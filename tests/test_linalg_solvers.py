"""gpuarr.linalg solvers and factorizations against numpy.linalg: inv det slogdet solve
matrix_power tensorinv tensorsolve qr cholesky lstsq pinv matrix_rank cond svd svdvals.

Host-only tests (dtype, shape and message rules) run without a GPU; the rest are marked
gpu. Decompositions are checked by reconstruction and orthogonality (signs of Q/U columns
are not unique), values against NumPy within a tolerance by dtype."""

import math

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test
from gpuarr import _config
from gpuarr.linalg import _solvers as S

DTYPES = ["float32", "float64", "complex64", "complex128"]
ALL_IN = DTYPES + ["int64", "bool"]


def _tol(dt):
    dt = np.dtype(dt)
    return 2e-4 if dt in (np.float32, np.complex64) else 1e-10


def _rand(rng, shape, dt):
    dt = np.dtype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return rng.integers(-5, 6, shape).astype(dt)
    return x.astype(dt)


def _wellcond(rng, shape, dt):
    """Random matrices plus n*I: well conditioned (and not singular for ints)."""
    x = _rand(rng, shape, dt)
    n = shape[-1]
    if np.dtype(dt).kind == "b":
        return x
    return (x + (2 * n + 3) * np.eye(n, dtype=np.dtype(dt) if np.dtype(dt).kind != "b" else None)).astype(dt)


def _g(x):
    return gpuarr.asnumpy(x) if isinstance(x, gpuarr.ndarray) else np.asarray(x)


def _close(got, want, dt, scale=1.0):
    got = _g(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    tol = _tol(want.dtype if want.dtype.kind in "fc" else dt) * scale
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.max(np.abs(want), initial=0))))


def _expect_dtype(dt):
    return S.common_type(np.dtype(dt))


# ------------------------------------------------------------------ host-only rules
@pytest.mark.parametrize("dts", [("float32",), ("float64",), ("complex64",), ("int8",), ("bool",),
                                 ("float32", "complex64"), ("float32", "float64"),
                                 ("int32", "complex64"), ("uint8", "float32")])
def test_common_type_matches_numpy(dts):
    arrays = [np.eye(2, dtype=d) for d in dts]
    if len(arrays) == 1:
        want = np.linalg.inv(arrays[0]).dtype
    else:
        want = np.linalg.solve(arrays[0], arrays[1]).dtype
    assert S.common_type(*dts) == want


def test_common_type_float16_rejected():
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg"):
        S.common_type(np.float16)
    with pytest.raises(TypeError) as e:
        np.linalg.inv(np.eye(2, dtype=np.float16))
    assert "float16 is unsupported" in str(e.value)


@pytest.mark.parametrize("shape", [(3,), (), (2, 3), (4, 2, 3)])
def test_shape_messages_match_numpy(shape):
    a = np.zeros(shape)
    for fn, check in ((np.linalg.inv, S.assert_stacked_square),
                      (np.linalg.qr, S.assert_stacked_2d)):
        try:
            fn(a)
            want = None
        except np.linalg.LinAlgError as e:
            want = str(e)
        if want is None:
            check(shape)
        else:
            with pytest.raises(np.linalg.LinAlgError) as got:
                check(shape)
            assert str(got.value) == want


@pytest.mark.parametrize("a_shape,b_shape", [((3, 3), (2,)), ((3, 3), (2, 2)), ((2, 3, 3), (3,)),
                                             ((2, 3, 3), (3, 1)), ((2, 3, 3), (4, 3, 2)),
                                             ((1, 3, 3), (4, 3, 2)), ((3, 3), (5, 3, 0))])
def test_solve_shape_rules(a_shape, b_shape):
    a = np.broadcast_to(np.eye(a_shape[-1]), a_shape)
    b = np.zeros(b_shape)
    try:
        want = np.linalg.solve(a, b)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            S.solve_shapes(a_shape, b_shape)
        if "core dimension" in str(e):
            assert str(got.value) == str(e)
        return
    batch, vector = S.solve_shapes(a_shape, b_shape)
    if vector:
        assert want.shape == batch + (a_shape[-1],)
    else:
        assert want.shape == batch + b_shape[-2:]


# ------------------------------------------------------------------ det / slogdet / inv
SQUARE = [(0, 0), (1, 1), (3, 3), (2, 4, 4), (0, 3, 3), (2, 0, 0), (3, 2, 5, 5), (2, 40, 40),
          (70, 70), (2, 90, 90)]


@gpu_test
@pytest.mark.parametrize("dt", ALL_IN)
@pytest.mark.parametrize("shape", SQUARE, ids=str)
def test_det_slogdet(rng, dt, shape):
    n = shape[-1]
    if dt == "bool":  # unit upper triangular: exactly non-singular
        a = np.triu(_rand(rng, shape, dt)) | np.eye(n, dtype=bool)
    elif np.dtype(dt).kind in "fc":
        a = (_wellcond(rng, shape, dt) / (2 * n + 3)).astype(dt)  # |det| near 1
    else:
        a = _wellcond(rng, shape, dt)
    want = np.linalg.det(a)
    got = gpuarr.linalg.det(gpuarr.asarray(a))
    _close(got, np.asarray(want, dtype=want.dtype), dt, scale=50)
    sw, lw = np.linalg.slogdet(a)
    res = gpuarr.linalg.slogdet(gpuarr.asarray(a))
    assert type(res).__name__ == "SlogdetResult"
    sg, lg = res
    _close(lg, np.asarray(lw), dt, scale=50)
    ok = np.isfinite(np.asarray(lw))
    np.testing.assert_allclose(_g(sg)[ok], np.asarray(sw)[ok], atol=_tol(_expect_dtype(dt)) * 100)
    assert _g(sg).dtype == np.asarray(sw).dtype


@gpu_test
@pytest.mark.parametrize("dt", DTYPES)
def test_det_singular(dt):
    a = np.array([[[1, 2], [2, 4]], [[1, 0], [0, 2]], [[0, 0], [0, 0]]], dtype=dt)
    got = _g(gpuarr.linalg.det(gpuarr.asarray(a)))
    np.testing.assert_allclose(got, np.linalg.det(a), atol=1e-6)
    sg, lg = gpuarr.linalg.slogdet(gpuarr.asarray(a))
    assert _g(sg)[0] == 0 and _g(lg)[0] == -np.inf
    assert _g(sg)[2] == 0 and _g(lg)[2] == -np.inf
    np.testing.assert_allclose(_g(lg)[1], np.log(2), rtol=1e-6)


@gpu_test
@pytest.mark.parametrize("dt", ALL_IN[:-1])
@pytest.mark.parametrize("shape", SQUARE, ids=str)
def test_inv(rng, dt, shape):
    a = _wellcond(rng, shape, dt) if shape[-1] else np.zeros(shape, dt)
    got = gpuarr.linalg.inv(gpuarr.asarray(a))
    want = np.linalg.inv(a)
    _close(got, want, dt, scale=10)
    if shape[-1]:
        eye = np.broadcast_to(np.eye(shape[-1]), shape)
        np.testing.assert_allclose(_g(got) @ a.astype(want.dtype), eye, atol=_tol(want.dtype) * 100)


@gpu_test
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("batch", [(), (3,), (40,)])
def test_inv_singular_raises(dt, batch):
    a = np.broadcast_to(np.eye(3, dtype=dt), batch + (3, 3)).copy()
    a[(0,) * len(batch)] = [[1, 2, 3], [2, 4, 6], [0, 0, 1]]
    a[(0,) * len(batch) + (1,)] = 2 * a[(0,) * len(batch) + (0,)]
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        gpuarr.linalg.inv(gpuarr.asarray(a))
    with pytest.raises(gpuarr.linalg.LinAlgError, match="Singular matrix"):
        gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.ones(batch + (3, 1), dtype=dt))


@gpu_test
def test_noncontiguous_inputs(rng):
    a = _wellcond(rng, (4, 6, 6), "float64")
    d = gpuarr.asarray(a)
    views = [(a[:, ::-1, :], d[:, ::-1, :]), (a.transpose(0, 2, 1), d.transpose(0, 2, 1)),
             (a[::-2], d[::-2])]
    for hv, dv in views:
        _close(gpuarr.linalg.inv(dv), np.linalg.inv(hv), "float64", 10)
        _close(gpuarr.linalg.det(dv), np.linalg.det(hv), "float64", scale=100)
        _close(gpuarr.linalg.solve(dv, dv[..., :2]), np.linalg.solve(hv, hv[..., :2]), "float64", 10)
        q, r = gpuarr.linalg.qr(dv)
        np.testing.assert_allclose(_g(q) @ _g(r), hv, atol=1e-9)


# ------------------------------------------------------------------ solve
@gpu_test
@pytest.mark.parametrize("dt", ["float32", "complex128", "int32"])
@pytest.mark.parametrize("a_shape,b_shape", [((3, 3), (3,)), ((3, 3), (3, 2)), ((4, 3, 3), (3,)),
                                             ((4, 3, 3), (4, 3, 5)), ((1, 3, 3), (2, 3, 1)),
                                             ((2, 1, 5, 5), (3, 5, 2)), ((3, 3), (3, 0)),
                                             ((0, 3, 3), (3,)), ((0, 0), (0,)),
                                             ((80, 80), (80, 3)), ((2, 80, 80), (80,))])
def test_solve(rng, dt, a_shape, b_shape):
    a = _wellcond(rng, a_shape, dt)
    b = _rand(rng, b_shape, dt)
    want = np.linalg.solve(a, b)
    got = gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.asarray(b))
    _close(got, want, dt, scale=10)


@gpu_test
def test_solve_mixed_dtypes(rng):
    a = _wellcond(rng, (4, 4), "float32")
    b = _rand(rng, (4,), "complex128")
    _close(gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.asarray(b)), np.linalg.solve(a, b), "complex128", 10)


@gpu_test
def test_solve_errors():
    with pytest.raises(ValueError, match="solve1: Input operand 1 has a mismatch"):
        gpuarr.linalg.solve(gpuarr.eye(3), gpuarr.ones(2))
    with pytest.raises(ValueError):
        gpuarr.linalg.solve(gpuarr.ones((2, 3, 3)), gpuarr.ones((3, 3, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        gpuarr.linalg.solve(gpuarr.ones((2, 3)), gpuarr.ones(2))
    with pytest.raises(TypeError, match="float16"):
        gpuarr.linalg.solve(gpuarr.eye(2, dtype="float16"), gpuarr.ones(2))


# ------------------------------------------------------------------ matrix_power, tensor*
@gpu_test
@pytest.mark.parametrize("dt", ["float64", "complex64", "int64"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, -1, -3])
def test_matrix_power(rng, dt, n):
    a = _wellcond(rng, (2, 4, 4), dt) if np.dtype(dt).kind != "i" else _rand(rng, (2, 4, 4), dt)
    if n < 0 and np.dtype(dt).kind == "i":
        a = a + 30 * np.eye(4, dtype=dt)
    want = np.linalg.matrix_power(a, n)
    got = gpuarr.linalg.matrix_power(gpuarr.asarray(a), n)
    _close(got, want, dt, scale=100)
    with pytest.raises(TypeError, match="exponent must be an integer"):
        gpuarr.linalg.matrix_power(gpuarr.asarray(a), 1.5)


@gpu_test
def test_tensorinv_tensorsolve(rng):
    a = np.eye(4 * 6).reshape(4, 6, 8, 3) + 0.1 * rng.standard_normal((4, 6, 8, 3))
    _close(gpuarr.linalg.tensorinv(gpuarr.asarray(a), ind=2), np.linalg.tensorinv(a, ind=2), "float64", 10)
    with pytest.raises(ValueError, match="Invalid ind argument."):
        gpuarr.linalg.tensorinv(gpuarr.asarray(a), ind=0)
    a2 = np.eye(2 * 3 * 4).reshape(2 * 3, 4, 2, 3, 4) + 0.1 * rng.standard_normal((6, 4, 2, 3, 4))
    b = rng.standard_normal((2 * 3, 4))
    _close(gpuarr.linalg.tensorsolve(gpuarr.asarray(a2), gpuarr.asarray(b)), np.linalg.tensorsolve(a2, b), "float64", 10)
    a3 = np.moveaxis(a2, 2, 0).copy()  # (2, 6, 4, 3, 4): axes=(0,) moves the 2 to the end
    _close(gpuarr.linalg.tensorsolve(gpuarr.asarray(a3), gpuarr.asarray(b), axes=(0,)),
           np.linalg.tensorsolve(a3, b, axes=(0,)), "float64", 10)
    with pytest.raises(np.linalg.LinAlgError):
        gpuarr.linalg.tensorsolve(gpuarr.ones((2, 3, 4)), gpuarr.ones(2))


# ------------------------------------------------------------------ cholesky
@gpu_test
@pytest.mark.parametrize("dt", DTYPES + ["int64"])
@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (4, 4), (3, 5, 5), (0, 2, 2), (70, 70),
                                   (2, 70, 70)], ids=str)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(rng, dt, shape, upper):
    x = _rand(rng, shape, dt if dt != "int64" else "float64")
    n = shape[-1]
    a = x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)
    if dt == "int64":
        a = np.round(a).astype(np.int64) + 2 * n * np.eye(n, dtype=np.int64)
    a = a.astype(dt)
    want = np.linalg.cholesky(a, upper=upper)
    # Only the named triangle is read: garbage in the other one must not matter.
    g = a.copy()
    if n > 1:
        iu = np.triu_indices(n, 1) if not upper else np.tril_indices(n, -1)
        g[(...,) + iu] = 1e3
    got = gpuarr.linalg.cholesky(gpuarr.asarray(g), upper=upper)
    _close(got, want, dt, scale=10)
    assert got.flags.c_contiguous


@gpu_test
@pytest.mark.parametrize("dt", DTYPES)
def test_cholesky_not_pd(dt):
    a = np.broadcast_to(np.eye(3, dtype=dt), (4, 3, 3)).copy()
    a[2, 1, 1] = -1
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        gpuarr.linalg.cholesky(gpuarr.asarray(a))
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions"):
        gpuarr.linalg.cholesky(gpuarr.ones((2, 3), dtype=dt))
    # One factorisation a matrix (one matrix, or matrices past the batched call's size).
    for shape, bad in (((5, 5), (3, 3)), ((2, 70, 70), (1, 40, 40))):
        a = np.broadcast_to(np.eye(shape[-1], dtype=dt), shape).copy()
        a[bad] = -1
        for upper in (False, True):
            with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
                gpuarr.linalg.cholesky(gpuarr.asarray(a), upper=upper)


# ------------------------------------------------------------------ qr
QR_SHAPES = [(5, 3), (3, 5), (4, 4), (2, 5, 3), (2, 3, 5), (0, 3), (3, 0), (0, 4, 4), (1, 1), (64, 64)]


@gpu_test
@pytest.mark.parametrize("dt", ALL_IN[:-1])
@pytest.mark.parametrize("shape", QR_SHAPES, ids=str)
@pytest.mark.parametrize("mode", ["reduced", "complete", "r", "raw"])
def test_qr(rng, dt, shape, mode):
    a = _rand(rng, shape, dt)
    want = np.linalg.qr(a, mode=mode)
    got = gpuarr.linalg.qr(gpuarr.asarray(a), mode=mode)
    rt = np.dtype(_expect_dtype(dt))
    tol = _tol(rt) * 100
    m, n = shape[-2:]
    if mode == "r":
        assert _g(got).shape == want.shape and _g(got).dtype == want.dtype
        np.testing.assert_allclose(np.abs(_g(got)), np.abs(want), atol=tol * max(1, np.abs(want).max(initial=0)))
        return
    if mode == "raw":
        h, tau = (_g(v) for v in got)
        assert h.shape == want[0].shape and h.dtype == want[0].dtype
        assert tau.shape == want[1].shape and tau.dtype == want[1].dtype
        k = min(m, n)
        r = np.triu(np.swapaxes(h, -1, -2)[..., :k, :])
        wr = np.triu(np.swapaxes(want[0], -1, -2)[..., :k, :])
        np.testing.assert_allclose(np.abs(r), np.abs(wr), atol=tol * max(1, np.abs(wr).max(initial=0)))
        return
    assert type(got).__name__ == "QRResult"
    q, r = (_g(v) for v in got)
    assert q.shape == want.Q.shape and r.shape == want.R.shape
    assert q.dtype == want.Q.dtype and r.dtype == want.R.dtype
    np.testing.assert_allclose(q @ r, a.astype(rt), atol=tol * max(1, np.abs(a).max(initial=0)))
    k = q.shape[-1]
    np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q,
                               np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)), atol=tol)
    np.testing.assert_array_equal(r, np.triu(r))


@gpu_test
def test_qr_errors():
    with pytest.raises(ValueError, match="Unrecognized mode 'x'"):
        gpuarr.linalg.qr(gpuarr.eye(2), mode="x")
    with pytest.raises(np.linalg.LinAlgError, match="1-dimensional array given"):
        gpuarr.linalg.qr(gpuarr.ones(3))


# ------------------------------------------------------------------ svd
SVD_SHAPES = [(5, 3), (3, 5), (4, 4), (2, 5, 3), (3, 2, 6), (0, 3), (3, 0), (2, 0, 3), (0, 4, 4),
              (1, 1), (40, 33), (50, 8, 6), (3, 33, 20), (1, 70, 40), (40, 70), (96, 96)]


@pytest.fixture(params=["default", "polar"])
def svd_route(request):
    """The routes' rules as they are, and the polar route (QDWH + eigh) for every single
    real matrix: GPUARR_SVD_POLAR_MIN_N = 1 (batches, complex matrices and the full U of a
    non-square matrix still take gesvd)."""
    if request.param == "default":
        yield
    else:
        with _config.override(GPUARR_SVD_POLAR_MIN_N=1):
            yield


@gpu_test
@pytest.mark.parametrize("dt", ALL_IN[:-1])
@pytest.mark.parametrize("shape", SVD_SHAPES, ids=str)
@pytest.mark.parametrize("full", [True, False])
def test_svd(rng, dt, shape, full, svd_route):
    a = _rand(rng, shape, dt)
    want = np.linalg.svd(a, full_matrices=full)
    got = gpuarr.linalg.svd(gpuarr.asarray(a), full_matrices=full)
    assert type(got).__name__ == "SVDResult"
    u, s, vh = (_g(v) for v in got)
    for g, w in zip((u, s, vh), want):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, w.shape, g.dtype, w.dtype)
    rt = np.dtype(_expect_dtype(dt))
    tol = _tol(rt) * 100
    scale = max(1, np.abs(a).max(initial=0))
    np.testing.assert_allclose(s, want.S, rtol=tol, atol=tol * scale)
    k = s.shape[-1]
    rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    np.testing.assert_allclose(rec, a.astype(rt), atol=tol * scale)
    for q in (u, np.swapaxes(vh, -1, -2)):
        c = q.shape[-1]
        np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q,
                                   np.broadcast_to(np.eye(c), q.shape[:-2] + (c, c)), atol=tol)
    sv = gpuarr.linalg.svd(gpuarr.asarray(a), compute_uv=False)
    np.testing.assert_allclose(_g(sv), want.S, rtol=tol, atol=tol * scale)
    np.testing.assert_allclose(_g(gpuarr.linalg.svdvals(gpuarr.asarray(a))), want.S, rtol=tol, atol=tol * scale)


@gpu_test
@pytest.mark.parametrize("dt", ["float64", "complex64"])
def test_svd_hermitian(rng, dt):
    if not hasattr(gpuarr.linalg, "eigh"):
        pytest.skip("needs gpuarr.linalg.eigh (linalg-eigen area)")
    x = _rand(rng, (2, 5, 5), dt)
    a = x + np.conj(np.swapaxes(x, -1, -2))
    want = np.linalg.svd(a, hermitian=True)
    u, s, vh = (_g(v) for v in gpuarr.linalg.svd(gpuarr.asarray(a), hermitian=True))
    tol = _tol(dt) * 100
    np.testing.assert_allclose(s, want.S, rtol=tol, atol=tol)
    np.testing.assert_allclose((u * s[..., None, :]) @ vh, a, atol=tol * 10)
    np.testing.assert_allclose(_g(gpuarr.linalg.svd(gpuarr.asarray(a), compute_uv=False, hermitian=True)),
                               want.S, rtol=tol, atol=tol)
    np.testing.assert_allclose(_g(gpuarr.linalg.pinv(gpuarr.asarray(a), hermitian=True)),
                               np.linalg.pinv(a, hermitian=True), rtol=tol, atol=tol)


@gpu_test
def test_svd_ill_conditioned_and_norm(rng, svd_route):
    u, _ = np.linalg.qr(rng.standard_normal((30, 30)))
    v, _ = np.linalg.qr(rng.standard_normal((30, 30)))
    s = np.logspace(0, -12, 30)
    a = (u * s) @ v.T
    got = _g(gpuarr.linalg.svd(gpuarr.asarray(a), compute_uv=False))
    np.testing.assert_allclose(got, s, atol=1e-13)
    # linalg.norm's singular-value orders use the same SVD.
    np.testing.assert_allclose(float(gpuarr.linalg.norm(gpuarr.asarray(a), 2)), 1.0, rtol=1e-12)
    np.testing.assert_allclose(float(gpuarr.linalg.norm(gpuarr.asarray(a), "nuc")), s.sum(), rtol=1e-12)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(80, 80), (120, 70), (70, 120)], ids=str)
def test_svd_polar_rank_deficient_and_zero(rng, dt, shape):
    """The polar route's completion of U: a matrix of rank k/2 and the zero matrix give
    orthonormal U and V, NumPy's singular values and the matrix back."""
    m, n = shape
    k = min(m, n)
    q1, _ = np.linalg.qr(rng.standard_normal((m, k)))
    q2, _ = np.linalg.qr(rng.standard_normal((n, k)))
    s_true = np.where(np.arange(k) < k // 2, np.linspace(3, 1, k), 0)
    tol = _tol(dt) * 100
    with _config.override(GPUARR_SVD_POLAR_MIN_N=1):
        for a in ((q1 * s_true) @ q2.T, np.zeros(shape)):
            a = a.astype(dt)
            u, s, vh = (_g(v) for v in gpuarr.linalg.svd(gpuarr.asarray(a), full_matrices=False))
            np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), atol=tol * 3)
            np.testing.assert_allclose((u * s) @ vh, a, atol=tol * 3)
            np.testing.assert_allclose(u.T @ u, np.eye(k), atol=tol)
            np.testing.assert_allclose(vh @ vh.T, np.eye(k), atol=tol)
            assert np.all(np.diff(s) <= 0) and np.all(s >= 0)


@gpu_test
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_svd_polar_non_finite(bad):
    a = np.eye(70)
    a[3, 5] = bad
    with _config.override(GPUARR_SVD_POLAR_MIN_N=1):
        for kw in ({}, {"compute_uv": False}):
            with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
                gpuarr.linalg.svd(gpuarr.asarray(a), **kw)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_svd_routes_agree(rng, dt):
    """gesvd (GPUARR_SVD_POLAR_MIN_N = 0) and the polar route on one matrix of singular
    values over six decades: the same values to the dtype's precision."""
    u, _ = np.linalg.qr(rng.standard_normal((150, 100)))
    v, _ = np.linalg.qr(rng.standard_normal((100, 100)))
    s_true = np.logspace(0, -6, 100)
    a = gpuarr.asarray(((u * s_true) @ v.T).astype(dt))
    with _config.override(GPUARR_SVD_POLAR_MIN_N=0):
        s_gesvd = _g(gpuarr.linalg.svdvals(a))
    with _config.override(GPUARR_SVD_POLAR_MIN_N=1):
        s_polar = _g(gpuarr.linalg.svdvals(a))
    eps = np.finfo(dt).eps
    np.testing.assert_allclose(s_polar, s_true, atol=100 * eps)
    np.testing.assert_allclose(s_gesvd, s_true, atol=100 * eps)


# ------------------------------------------------------------------ pinv, matrix_rank, cond, lstsq
@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (2, 0, 3)], ids=str)
def test_pinv(rng, dt, shape, svd_route):
    a = _rand(rng, shape, dt)
    _close(gpuarr.linalg.pinv(gpuarr.asarray(a)), np.linalg.pinv(a), dt, scale=100)
    _close(gpuarr.linalg.pinv(gpuarr.asarray(a), rtol=None), np.linalg.pinv(a, rtol=None), dt, scale=100)
    with pytest.raises(ValueError, match="can't be both set"):
        gpuarr.linalg.pinv(gpuarr.asarray(a), rcond=1e-3, rtol=1e-3)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64", "complex64"])
def test_matrix_rank(rng, dt):
    a = _rand(rng, (3, 6, 2), dt) @ _rand(rng, (3, 2, 5), dt)   # rank 2
    a[1] = 0
    want = np.linalg.matrix_rank(a)
    got = gpuarr.linalg.matrix_rank(gpuarr.asarray(a))
    np.testing.assert_array_equal(_g(got), want)
    np.testing.assert_array_equal(_g(gpuarr.linalg.matrix_rank(gpuarr.asarray(a[0]), tol=1e-3)),
                                  np.linalg.matrix_rank(a[0], tol=1e-3))
    assert gpuarr.linalg.matrix_rank(gpuarr.ones(4)) == np.linalg.matrix_rank(np.ones(4))
    assert gpuarr.linalg.matrix_rank(gpuarr.zeros(4)) == np.linalg.matrix_rank(np.zeros(4))


@gpu_test
@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, math.inf, -math.inf, "fro", "nuc"], ids=str)
@pytest.mark.parametrize("dt", ["float64", "complex64"])
def test_cond(rng, p, dt):
    a = _wellcond(rng, (3, 4, 4), dt)
    _close(gpuarr.linalg.cond(gpuarr.asarray(a), p), np.linalg.cond(a, p), dt, scale=100)
    sing = np.array([[1.0, 2.0], [2.0, 4.0]], dtype=dt)
    try:
        want = np.linalg.cond(sing, p)
    except np.linalg.LinAlgError:
        # NumPy 2.5's 'nuc' takes the SVD of LAPACK's inf/NaN inverse and fails; the
        # inf/NaN pattern of an exactly singular inverse is the library's, so gpuarr may
        # fail the same way or report an infinite condition number.
        try:
            got = _g(gpuarr.linalg.cond(gpuarr.asarray(sing), p))
        except np.linalg.LinAlgError:
            return
        assert np.isinf(got) or got > 1e7
        return
    got = _g(gpuarr.linalg.cond(gpuarr.asarray(sing), p))
    assert np.isinf(want) == np.isinf(got) or want > 1e7


@gpu_test
def test_cond_errors():
    with pytest.raises(np.linalg.LinAlgError, match="cond is not defined on empty arrays"):
        gpuarr.linalg.cond(gpuarr.ones((0, 0)))


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("a_shape,b_shape", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3, 2)),
                                             ((4, 4), (4, 1)), ((0, 3), (0, 2)), ((3, 0), (3, 2)),
                                             ((6, 3), (6, 0))])
def test_lstsq(rng, dt, a_shape, b_shape):
    a = _rand(rng, a_shape, dt)
    b = _rand(rng, b_shape, dt)
    want = np.linalg.lstsq(a, b)
    got = gpuarr.linalg.lstsq(gpuarr.asarray(a), gpuarr.asarray(b))
    _close(got[0], want[0], dt, scale=100)
    _close(got[1], want[1], dt, scale=100)
    assert got[2] == want[2]
    _close(got[3], want[3], dt, scale=100)


@gpu_test
def test_lstsq_rank_deficient_and_errors(rng):
    a = rng.standard_normal((8, 2)) @ rng.standard_normal((2, 4))
    b = rng.standard_normal(8)
    want = np.linalg.lstsq(a, b)
    got = gpuarr.linalg.lstsq(gpuarr.asarray(a), gpuarr.asarray(b))
    assert got[2] == want[2] == 2
    _close(got[0], want[0], "float64", 1e3)
    assert _g(got[1]).shape == (0,)
    with pytest.raises(np.linalg.LinAlgError, match="Incompatible dimensions"):
        gpuarr.linalg.lstsq(gpuarr.ones((3, 2)), gpuarr.ones(4))
    with pytest.raises(np.linalg.LinAlgError, match="3-dimensional array given"):
        gpuarr.linalg.lstsq(gpuarr.ones((2, 3, 2)), gpuarr.ones(3))


# ------------------------------------------------------------------ common errors
@gpu_test
@pytest.mark.parametrize("fn", ["inv", "det", "slogdet", "cholesky", "svd", "qr", "pinv", "svdvals"])
def test_errors(fn):
    f = getattr(gpuarr.linalg, fn)
    nf = getattr(np.linalg, fn)
    for shape in [(3,), (2, 3)]:
        try:
            nf(np.ones(shape))
            continue
        except np.linalg.LinAlgError as e:
            want = str(e)
        with pytest.raises(np.linalg.LinAlgError) as got:
            f(gpuarr.ones(shape))
        assert str(got.value) == want
    with pytest.raises(TypeError, match="float16 is unsupported in linalg"):
        f(gpuarr.eye(2, dtype="float16"))


@gpu_test
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("n", [2, 600])
def test_nonfinite_input_as_numpy(rng, dt, bad, n):
    """NaN/inf input: inv/solve give NaN/inf output without an error (NumPy, in the common
    case where LAPACK raises no FP flag), svd of NaN raises 'SVD did not converge' as
    NumPy; never a hang."""
    a = (rng.standard_normal((n, n)) + n * np.eye(n)).astype(dt)
    a[0, 0] = bad
    d = gpuarr.asarray(a)
    got = _g(gpuarr.linalg.inv(d))
    x = _g(gpuarr.linalg.solve(d, gpuarr.ones(n, dtype=dt)))
    if bad is np.nan:  # NaN propagates (inf may legitimately give finite entries)
        assert not np.all(np.isfinite(got))
        assert not np.all(np.isfinite(x))
    if n == 2 and bad is np.nan:
        with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
            np.linalg.svd(a)
        with pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
            gpuarr.linalg.svd(d)


@gpu_test
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("n, batch", [(8, 6), (70, 3), (2, 70000)], ids=str)
def test_nan_matrices_of_a_batch_give_nan(rng, dt, n, batch):
    """In a batch, exactly the matrices with a NaN give all-NaN inverses and solutions; the
    others are NumPy's."""
    a = (rng.standard_normal((batch, n, n)) + (n + 8) * np.eye(n)).astype(dt)  # well-conditioned
    b = rng.standard_normal((batch, n, 2)).astype(dt)
    a[1, 0, n - 1] = np.nan
    a[batch - 1, n // 2, 1] = np.nan
    bad = np.zeros(batch, bool)
    bad[[1, batch - 1]] = True
    inv = _g(gpuarr.linalg.inv(gpuarr.asarray(a)))
    x = _g(gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.asarray(b)))
    assert np.isnan(inv[bad]).all() and np.isnan(x[bad]).all()
    tol = 1e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose(inv[~bad], np.linalg.inv(a[~bad]), rtol=tol, atol=tol)
    np.testing.assert_allclose(x[~bad], np.linalg.solve(a[~bad], b[~bad]), rtol=tol, atol=tol)


@gpu_test
def test_ill_conditioned_hilbert(rng):
    """Hilbert matrix (cond ~1.5e10 at n = 8): solve's residual stays at rounding level and
    the solution agrees with NumPy's to about cond * eps."""
    n = 8
    i = np.arange(n)
    h = 1.0 / (i[:, None] + i[None, :] + 1)
    b = rng.standard_normal((n, 2))
    want = np.linalg.solve(h, b)
    got = _g(gpuarr.linalg.solve(gpuarr.asarray(h), gpuarr.asarray(b)))
    np.testing.assert_allclose(h @ got, b, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
    np.testing.assert_allclose(_g(gpuarr.linalg.det(gpuarr.asarray(h))), np.linalg.det(h), rtol=1e-5)
    np.testing.assert_allclose(_g(gpuarr.linalg.cond(gpuarr.asarray(h))), np.linalg.cond(h), rtol=1e-4)
