"""inv of float32/float64 matrices up to 64 x 64, and solve with up to 8 columns, which one
Gauss-Jordan kernel computes (a group of 4, 8, 16, 32 or 64 threads a matrix, rows pivoted
without being moved): every group width and the sizes around them, batches that leave a
block's groups partly empty, matrices that need pivoting at every step, singular and NaN
matrices within a batch, and views, against NumPy."""

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test

SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 63, 64]


def _g(x):
    return gpuarr.asnumpy(x)


def _check(got, a):
    """The inverse within a conditioning-scaled tolerance of NumPy's (in float64), and
    got @ a near the identity."""
    want = np.linalg.inv(a.astype(np.float64))
    eps = np.finfo(a.dtype).eps
    cond = np.linalg.cond(a.astype(np.float64))
    scale = np.max(np.abs(want), axis=(-2, -1), keepdims=True)
    tol = 50 * a.shape[-1] * eps * np.asarray(cond)[..., None, None] * scale
    assert got.dtype == a.dtype and got.shape == a.shape
    assert np.all(np.abs(got - want) <= tol)


def _random(rng, shape, dt):
    # Standard normal entries: pivoting happens at most steps (no diagonal dominance).
    return rng.standard_normal(shape).astype(dt)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("batch", [(), (1,), (3,), (7,), (2, 37)], ids=str)
def test_inverse_sizes_and_batches(rng, dt, n, batch):
    a = _random(rng, batch + (n, n), dt)
    _check(_g(gpuarr.linalg.inv(gpuarr.asarray(a))), a)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [3, 8, 13, 32, 64])
def test_permutation_and_zero_leading_entries(rng, dt, n):
    """Permutation matrices (a pivot from another row at every step, exact inverse: the
    transpose) and a matrix whose (0, 0) entry and leading minors vanish."""
    perms = np.stack([np.eye(n, dtype=dt)[rng.permutation(n)] for _ in range(9)])
    got = _g(gpuarr.linalg.inv(gpuarr.asarray(perms)))
    np.testing.assert_array_equal(got, perms.transpose(0, 2, 1))
    a = _random(rng, (n, n), dt)
    a[0, 0] = 0
    if n > 1:
        a[:2, :2] = [[0, 1], [1, 0]]
    _check(_g(gpuarr.linalg.inv(gpuarr.asarray(a))), a)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [2, 6, 32, 40])
def test_singular_matrix_in_a_batch_raises(rng, dt, n):
    a = _random(rng, (1001, n, n), dt)
    a[517, :, n - 1] = 0  # a zero column: a zero pivot at the last step
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        gpuarr.linalg.inv(gpuarr.asarray(a))
    # Rank-deficient by rows: the zero pivot appears after an elimination step, exactly
    # where the multiplier (1/2) is exact, as in LAPACK's getrf.
    b = np.eye(n, dtype=dt)[None].copy()
    block = [[1, 2, 3], [2, 4, 6], [0, 0, 1]] if n >= 3 else [[1, 2], [2, 4]]
    b[0, :len(block), :len(block)] = block
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        np.linalg.inv(b.astype(np.float64))
    with pytest.raises(gpuarr.linalg.LinAlgError, match="Singular matrix"):
        gpuarr.linalg.inv(gpuarr.asarray(b))


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [4, 50])
def test_cond_of_singular_and_regular_matrices(rng, dt, n):
    """cond with p = 1 inverts without the singular check: a singular matrix's inverse is
    NaN, which cond turns into inf as NumPy."""
    a = _random(rng, (5, n, n), dt) + n * np.eye(n, dtype=dt)
    a[2, :, 1] = 0
    got = _g(gpuarr.linalg.cond(gpuarr.asarray(a), 1))
    want = np.linalg.cond(a.astype(np.float64), 1)
    assert np.isinf(got[2]) and np.isinf(want[2])
    keep = [0, 1, 3, 4]
    np.testing.assert_allclose(got[keep], want[keep], rtol=1e-3 if dt == "float32" else 1e-9)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [4, 20, 64])
def test_nan_and_inf_matrices(rng, dt, n):
    """A matrix with a NaN inverts to all NaN and the rest of the batch is unaffected; a
    matrix with an inf gives a result without an error, as NumPy's."""
    a = _random(rng, (6, n, n), dt) + 4 * np.eye(n, dtype=dt)
    a[3, n - 1, 0] = np.nan
    got = _g(gpuarr.linalg.inv(gpuarr.asarray(a)))
    assert np.isnan(got[3]).all()
    keep = [0, 1, 2, 4, 5]
    _check(got[keep], a[keep])
    a[3, n - 1, 0] = np.inf  # the result may be finite (the limit), as LAPACK's may
    got = _g(gpuarr.linalg.inv(gpuarr.asarray(a)))
    _check(got[keep], a[keep])


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_views(rng, dt):
    """Transposed, reversed and strided batches are copied; a C-contiguous slice of a batch
    (an offset into its buffer) is read where it is; a broadcast batch."""
    a = _random(rng, (9, 12, 12), dt)
    d = gpuarr.asarray(a)
    for hv, dv in ((a.transpose(0, 2, 1), d.transpose(0, 2, 1)), (a[::-1, ::-1], d[::-1, ::-1]),
                   (a[::2], d[::2]), (a[3:], d[3:]), (a[5], d[5])):
        _check(_g(gpuarr.linalg.inv(dv)), hv)
    one = a[:1]
    got = _g(gpuarr.linalg.inv(gpuarr.broadcast_to(gpuarr.asarray(one), (5, 12, 12))))
    _check(got, np.broadcast_to(one, (5, 12, 12)).copy())


@gpu_test
def test_integer_and_empty_inputs(rng):
    """Integers invert in float64 (NumPy's type), empty batches and 0 x 0 matrices give
    empty results."""
    a = rng.integers(-3, 4, (5, 3, 3)) + 9 * np.eye(3, dtype=np.int64)
    got = _g(gpuarr.linalg.inv(gpuarr.asarray(a)))
    assert got.dtype == np.float64
    _check(got, a.astype(np.float64))
    for shape in ((0, 4, 4), (3, 0, 0)):
        got = _g(gpuarr.linalg.inv(gpuarr.zeros(shape, dtype="float32")))
        assert got.shape == shape and got.dtype == np.float32


def _check_solve(got, a, b):
    """x within a conditioning-scaled tolerance of NumPy's (in float64)."""
    want = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
    eps = np.finfo(a.dtype).eps
    cond = np.asarray(np.linalg.cond(a.astype(np.float64)))
    scale = np.max(np.abs(want), axis=(-2, -1), keepdims=True) if want.ndim == a.ndim else \
        np.max(np.abs(want), axis=-1, keepdims=True)
    tol = 50 * a.shape[-1] * eps * (cond[..., None, None] if want.ndim == a.ndim
                                    else cond[..., None]) * scale
    assert got.dtype == a.dtype and got.shape == want.shape
    assert np.all(np.abs(got - want) <= tol)


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 3, 4, 9, 16, 31, 33, 64])
@pytest.mark.parametrize("k", [None, 1, 2, 8, 9])
@pytest.mark.parametrize("batch", [(), (5,), (2, 19)], ids=str)
def test_solve_sizes_columns_and_batches(rng, dt, n, k, batch):
    """k None: b a vector (NumPy's solve1); 9 columns and float64 beyond 32 rows with
    several columns take cuBLAS's route, the rest the one kernel."""
    a = _random(rng, batch + (n, n), dt)
    b = _random(rng, (n,) if k is None else batch + (n, k), dt)
    got = _g(gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.asarray(b)))
    _check_solve(got, a, b)


def _median_backward_error(a, x, b):
    """The median over b's columns of |a x - b| / (|a| |x|) in the infinity norm."""
    a, x, b = (t.astype(np.float64) for t in (a, x, b))
    r = np.abs(a @ x - b).max(axis=-2)
    norm_a = np.abs(a).sum(axis=-1).max(axis=-1)
    return np.median(r / (norm_a[..., None] * np.abs(x).max(axis=-2)))


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [10, 12, 24, 40, 64])
@pytest.mark.parametrize("k", [1, 8])
def test_solve_is_backward_stable(rng, dt, n, k):
    """Hilbert matrices (cond from 1e13 to beyond 1/eps): the backward error stays a small
    fraction of eps, as getrf + getrs's (NumPy's is at most 0.05 eps here). Gauss-Jordan's
    elimination above the pivot leaves 0.4 eps at n = 12 and 1e3 to 1e6 eps from n = 24 on,
    in NumPy simulations of both."""
    i = np.arange(n)
    h = (1.0 / (i[:, None] + i[None, :] + 1)).astype(dt)
    b = _random(rng, (n, 8), dt)
    if k == 1:  # eight solves of one column: the one-column kernel
        a, b = np.broadcast_to(h, (8, n, n)), b.T[:, :, None]
    else:
        a = h
    got = _g(gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.asarray(b)))
    eps = np.finfo(dt).eps
    assert _median_backward_error(a, np.linalg.solve(a, b), b) <= eps / 4  # the premise
    assert _median_backward_error(a, got, b) <= eps / 4


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("n", [2, 6, 40])
def test_solve_singular_raises_and_nan_propagates(rng, dt, n):
    a = _random(rng, (300, n, n), dt)
    b = _random(rng, (300, n, 2), dt)
    a[111, 0] = 0  # a zero row
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.asarray(b))
    a[111] = _random(rng, (n, n), dt)
    a[7, n // 2, 0] = np.nan
    b[9, 0, 1] = np.nan
    got = _g(gpuarr.linalg.solve(gpuarr.asarray(a), gpuarr.asarray(b)))
    assert np.isnan(got[7]).all()
    assert np.isnan(got[9, :, 1]).all() and not np.isnan(got[9, :, 0]).any()
    keep = np.r_[0:7, 10:300]
    _check_solve(got[keep], a[keep], b[keep])


@gpu_test
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_solve_views_and_broadcasts(rng, dt):
    """Transposed and strided a, a broadcast matrix against a batch of b, a broadcast b,
    and integer b (cast to a's type)."""
    a = _random(rng, (6, 10, 10), dt)
    b = _random(rng, (6, 10, 3), dt)
    da, db = gpuarr.asarray(a), gpuarr.asarray(b)
    for ha, hb, ga, gb in ((a.transpose(0, 2, 1), b, da.transpose(0, 2, 1), db),
                           (a[::2], b[::-2], da[::2], db[::-2]),
                           (a[0], b, da[0], db),
                           (a, b[0], da, db[0])):
        got = _g(gpuarr.linalg.solve(ga, gb))
        bb = np.broadcast_to(hb, np.broadcast_shapes(ha.shape[:-2], hb.shape[:-2]) + hb.shape[-2:])
        aa = np.broadcast_to(ha, bb.shape[:-2] + ha.shape[-2:])
        _check_solve(got, aa, bb)
    bi = rng.integers(-5, 6, (6, 10, 2))
    got = _g(gpuarr.linalg.solve(da, gpuarr.asarray(bi)))
    wide = np.linalg.solve(a, bi).dtype  # NumPy's: float64 for float32 with integers
    _check_solve(got, a.astype(wide), bi.astype(wide))
