"""gpuarr.linalg eigh / eigvalsh / eig / eigvals against numpy.linalg.

Every method of eigh is forced through the private `_method` argument ("own" is the
one-block tridiagonal kernel: bisection for eigvalsh, implicit QL + back-transform for eigh;
"own_jacobi" the one-block Jacobi kernel; "dc" float64 divide and conquer: own reduction to
tridiagonal form, GPU divide and conquer, cusolverDnDormtr); "auto" is the crossover table of
cpp/core/eigen_plan.cpp."""

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test
from gpuarr import _config

LA = gpuarr.linalg
EIGH_DTYPES = ["float32", "float64", "complex64", "complex128"]
METHODS = ["auto", "syevj", "xsyev_batched", "own", "own_jacobi", "syevd", "dc"]


def _tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64, np.float16) else 1e-10


def _rand(rng, shape, dtype):
    dtype = np.dtype(dtype)
    x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _hermitian_from(a, uplo):
    """The Hermitian matrix NumPy's eigh sees: the named triangle, mirrored."""
    a = a.astype(np.result_type(a.dtype, np.float32)) if a.dtype.kind in "biu" else a
    if uplo == "L":
        h = np.tril(a) + np.conj(np.swapaxes(np.tril(a, -1), -1, -2))
    else:
        h = np.triu(a) + np.conj(np.swapaxes(np.triu(a, 1), -1, -2))
    if h.dtype.kind == "c":  # LAPACK ignores the diagonal's imaginary parts
        i = np.arange(h.shape[-1])
        h[..., i, i] = h[..., i, i].real
    return h


def _routines():
    return gpuarr._core._eigen_routines()


def _method_ok(method, n, dtype, vectors=True):
    """Whether a forced method can run (else the binding raises ValueError)."""
    real = np.dtype(dtype).kind == "f"
    if method == "syevj":
        return n <= 32
    if method == "xsyev_batched":
        return _routines()["xsyev_batched"]
    if method == "dc":
        return np.dtype(dtype) == np.float64
    if method in ("own", "own_jacobi"):
        if not real or n < 1:
            return False
        isz = 4 if np.dtype(dtype) == np.float32 else 8
        if method == "own" and not vectors:  # tridiagonalisation + bisection kernel
            need = n * (n + 1) // 2 * isz + 4 * n * isz + 280
        elif method == "own":  # tridiagonalisation + QL kernel (own_vectors_smem_bytes)
            need = (n * (n | 1) + 7 * n) * isz + (n + 4) * 4 + 16 * n + 16 + 272
        else:  # Jacobi kernel
            m = n + (n & 1)
            need = (m * (m + 1) * isz * (2 if vectors else 1) + (m // 2) * (3 * isz + 12)
                    + 4 * m + 280)
        return need <= _routines()["smem_limit"]
    return True


def _check_eigh(a_host, uplo, w, v, dtype):
    """Eigenvalues as NumPy's; A V = V diag(w); V orthonormal."""
    tol = _tol(dtype)
    w_np = np.linalg.eigvalsh(a_host.astype(np.result_type(a_host.dtype, np.float32))
                              if a_host.dtype == np.float16 else a_host, UPLO=uplo)
    wg = gpuarr.asnumpy(w)
    assert wg.shape == w_np.shape
    scale = float(np.abs(w_np).max(initial=0.0)) or 1.0
    np.testing.assert_allclose(wg, w_np, rtol=0, atol=tol * scale * 10)
    assert np.all(np.diff(wg, axis=-1) >= -tol * scale), "eigenvalues not ascending"
    if v is None:
        return
    vg = gpuarr.asnumpy(v)
    assert vg.shape == a_host.shape
    h = _hermitian_from(a_host.astype(np.result_type(a_host.dtype, np.float32)), uplo)
    hv = h.astype(np.complex128 if vg.dtype.kind == "c" else np.float64) @ vg
    np.testing.assert_allclose(hv, vg * wg[..., None, :], rtol=0, atol=tol * scale * 50)
    n = a_host.shape[-1]
    gram = np.conj(np.swapaxes(vg, -1, -2)).astype(np.complex128) @ vg
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(n), gram.shape), rtol=0,
                               atol=tol * 50)


# ---- host-only (no device needed) ---------------------------------------------------------

def test_exports():
    for name in ("eigh", "eigvalsh", "eig", "eigvals"):
        assert name in LA.__all__
        assert callable(getattr(LA, name))


@pytest.mark.parametrize("fn", ["eigh", "eigvalsh"])
def test_bad_uplo_value_error(fn):
    with pytest.raises(ValueError, match="UPLO argument must be 'L' or 'U'"):
        getattr(LA, fn)(np.eye(2), UPLO="X")


# ---- eigh / eigvalsh ------------------------------------------------------------------------

@gpu_test
@pytest.mark.parametrize("dtype", EIGH_DTYPES)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("uplo", ["L", "U", "l"])
@pytest.mark.parametrize("n", [5, 24, 40])
def test_eigh_methods(rng, dtype, method, uplo, n):
    a = _rand(rng, (3, n, n), dtype)  # NOT symmetric: only the named triangle is read
    if not _method_ok(method, n, dtype):
        if method == "xsyev_batched" and not _routines()["xsyev_batched"]:
            pytest.skip("cusolverDnXsyevBatched not in this cuSOLVER")
        with pytest.raises(ValueError):
            LA.eigh(gpuarr.asarray(a), UPLO=uplo, _method=method)
        return
    res = LA.eigh(gpuarr.asarray(a), UPLO=uplo, _method=method)
    assert isinstance(res, tuple) and type(res).__name__ == "EighResult"
    w, v = res
    assert w.dtype == np.linalg.eigvalsh(a).dtype and v.dtype == a.dtype
    _check_eigh(a, uplo.upper(), w, v, dtype)
    w2 = LA.eigvalsh(gpuarr.asarray(a), UPLO=uplo, _method=method)
    assert w2.dtype == w.dtype
    _check_eigh(a, uplo.upper(), w2, None, dtype)


@gpu_test
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("method", ["own", "own_jacobi"])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 16, 17, 31, 32, 33, 45, 63, 64, 65, 100, 127, 128,
                               150, 200, 256, 300])
def test_own_kernel_sizes(rng, dtype, method, n):
    a = _rand(rng, (4, n, n), dtype)
    ran = False
    for vectors in (True, False):
        if not _method_ok(method, n, dtype, vectors):
            continue
        ran = True
        if vectors:
            w, v = LA.eigh(gpuarr.asarray(a), _method=method)
        else:
            w, v = LA.eigvalsh(gpuarr.asarray(a), _method=method), None
        _check_eigh(a, "L", w, v, dtype)
    if not ran:
        with pytest.raises(ValueError):
            LA.eigvalsh(gpuarr.asarray(a), _method=method)


def _own_vectors_max_n(dtype):
    n = 1
    while _method_ok("own", n + 1, dtype):
        n += 1
    return n


@gpu_test
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 17, 45, 100, "max"])
def test_own_vectors_kernel(rng, dtype, uplo, n):
    """The tridiagonal + QL kernel with vectors, forced, over sizes up to its shared-memory
    limit (float32 234, float64 165 on the H100)."""
    if n == "max":
        n = _own_vectors_max_n(dtype)
    a = _rand(rng, (3, n, n), dtype)  # not symmetric: only the UPLO triangle is read
    if n == 0:
        w, v = LA.eigh(gpuarr.asarray(a), UPLO=uplo, _method="own")
        assert w.shape == (3, 0) and v.shape == (3, 0, 0)
        return
    res = LA.eigh(gpuarr.asarray(a), UPLO=uplo, _method="own")
    w, v = res
    assert w.dtype == np.dtype(dtype) and v.dtype == np.dtype(dtype)
    _check_eigh(a, uplo, w, v, dtype)
    if gpuarr._core._eigh(gpuarr.asarray(a), uplo == "L", True, "own")[3] != "own":
        pytest.fail("method own did not run the own kernel")


@gpu_test
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["degenerate", "diagonal", "zero", "identity", "scaled_big",
                                  "scaled_small", "blocks", "wilkinson", "graded", "rank1"])
@pytest.mark.parametrize("n", [2, 45])
def test_own_vectors_degenerate(rng, dtype, kind, n):
    extra = {
        # identical 3x3 blocks: repeated eigenvalues and exact splits of the tridiagonal
        "blocks": np.kron(np.eye((n + 2) // 3), np.array([[2.0, 1, 0], [1, 2, 1], [0, 1, 2]]))[:n, :n],
        "wilkinson": np.diag(np.abs(np.arange(n) - (n - 1) / 2)) + np.eye(n, k=1) + np.eye(n, k=-1),
        "graded": np.outer(0.8 ** np.arange(n), 0.8 ** np.arange(n)) + np.diag(0.8 ** np.arange(n)),
        "rank1": np.ones((n, n)),
    }
    a = extra[kind] if kind in extra else _special_matrices(rng, n, dtype)[kind]
    a = np.stack([a, a, np.ascontiguousarray(a.T)]).astype(dtype)
    w, v = LA.eigh(gpuarr.asarray(a), _method="own")
    _check_eigh(a, "L", w, v, dtype)


@gpu_test
@pytest.mark.parametrize("shape", [(1, 1), (5, 5), (2, 3, 17, 17), (7, 1, 1), (0, 6, 6)])
def test_own_vectors_batch_shapes(rng, shape):
    a = _rand(rng, shape, "float32")
    w, v = LA.eigh(gpuarr.asarray(a), _method="own")
    assert w.shape == shape[:-1] and v.shape == shape
    if a.size:
        _check_eigh(a, "L", w, v, "float32")


@gpu_test
@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("n", [1, 8, 45])
def test_own_vectors_nonfinite(bad, n):
    a = np.stack([np.eye(n), np.eye(n)])
    a[0, n - 1, 0] = bad  # read (lower triangle) in matrix 0 only
    w, v = LA.eigh(gpuarr.asarray(a), _method="own")
    w, v = gpuarr.asnumpy(w), gpuarr.asnumpy(v)
    assert np.isnan(w[0]).all() and np.isnan(v[0]).all()
    np.testing.assert_allclose(w[1], np.ones(n), atol=1e-12)
    np.testing.assert_allclose(np.abs(v[1]), np.eye(n), atol=1e-12)


@gpu_test
def test_own_vectors_float16_result():
    a = np.random.default_rng(3).standard_normal((2, 20, 20)).astype(np.float16)
    w, v = LA.eigh(gpuarr.asarray(a), _method="own")
    assert w.dtype == np.float16 and v.dtype == np.float16
    ref = np.linalg.eigvalsh(a.astype(np.float32))
    np.testing.assert_allclose(gpuarr.asnumpy(w).astype(np.float32), ref, rtol=0,
                               atol=2e-2 * max(1, np.abs(ref).max()))


def _special_matrices(rng, n, dtype):
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    d = np.repeat(np.array([-2.0, 1.0, 1.0, 3.0]), (n + 3) // 4)[:n]  # degenerate
    return {
        "degenerate": (q * d) @ q.T,
        "diagonal": np.diag(rng.standard_normal(n)),
        "zero": np.zeros((n, n)),
        "identity": np.eye(n),
        "scaled_big": (q * d) @ q.T * 1e15 if np.dtype(dtype) == np.float64 else (q * d) @ q.T * 1e15,
        "scaled_small": (q * d) @ q.T * 1e-12,
    }


@gpu_test
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("n", [6, 33])
@pytest.mark.parametrize("kind", ["degenerate", "diagonal", "zero", "identity", "scaled_big",
                                  "scaled_small"])
def test_eigh_special(rng, dtype, method, n, kind):
    if not _method_ok(method, n, dtype):
        pytest.skip("method not available for this size/dtype")
    a = _special_matrices(rng, n, dtype)[kind].astype(dtype)
    a = np.stack([a, a.T.copy()])
    w, v = LA.eigh(gpuarr.asarray(a), _method=method)
    _check_eigh(a, "L", w, v, dtype)


@gpu_test
@pytest.mark.parametrize("shape", [(0, 4, 4), (2, 0, 0), (0, 0), (3, 0, 0, 0), (1, 1), (4, 4),
                                   (2, 3, 5, 5)])
@pytest.mark.parametrize("method", ["auto", "syevd", "own", "dc"])
def test_eigh_batched_shapes(rng, shape, method):
    a = _rand(rng, shape, "float64")
    ref_w, ref_v = np.linalg.eigh(a)
    w, v = LA.eigh(gpuarr.asarray(a), _method=method)
    assert w.shape == ref_w.shape and v.shape == ref_v.shape
    assert w.dtype == ref_w.dtype and v.dtype == ref_v.dtype
    if a.size:
        _check_eigh(a, "L", w, v, "float64")


@gpu_test
@pytest.mark.parametrize("view", ["step", "reversed", "transposed", "strided"])
@pytest.mark.parametrize("method", ["auto", "syevd", "own", "dc"])
def test_eigh_noncontiguous_views(rng, view, method):
    base = _rand(rng, (4, 12, 12), "float64")
    g = gpuarr.asarray(base)
    pick = {
        "step": lambda x: x[::2],
        "reversed": lambda x: x[:, ::-1, ::-1],
        "transposed": lambda x: x.swapaxes(-1, -2),
        "strided": lambda x: x[..., ::2, 1::2],
    }[view]
    host = np.ascontiguousarray(pick(base))
    for uplo in "LU":
        w, v = LA.eigh(pick(g), UPLO=uplo, _method=method)
        _check_eigh(host, uplo, w, v, "float64")


@gpu_test
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "bool", "float16"])
def test_eigh_dtype_rules(rng, dtype):
    a = (rng.integers(0, 5, (2, 6, 6)) if dtype != "float16" else rng.standard_normal((2, 6, 6)))
    a = a.astype(dtype)
    w, v = LA.eigh(gpuarr.asarray(a))
    if dtype == "float16":  # computed in float32, results float16 (as CuPy)
        assert w.dtype == np.float16 and v.dtype == np.float16
        ref = np.linalg.eigvalsh(a.astype(np.float32))
        np.testing.assert_allclose(gpuarr.asnumpy(w).astype(np.float32), ref, rtol=0,
                                   atol=2e-2 * max(1, np.abs(ref).max()))
    else:
        ref_w, ref_v = np.linalg.eigh(a)
        assert w.dtype == ref_w.dtype and v.dtype == ref_v.dtype
        _check_eigh(a.astype(np.float64), "L", w, v, "float64")
    assert LA.eigvalsh(gpuarr.asarray(a)).dtype == w.dtype


@gpu_test
def test_eigh_list_input():
    w = LA.eigvalsh([[2.0, 1.0], [1.0, 2.0]])
    np.testing.assert_allclose(gpuarr.asnumpy(w), [1.0, 3.0], atol=1e-12)


@gpu_test
@pytest.mark.parametrize("fn", ["eigh", "eigvalsh", "eig", "eigvals"])
def test_errors(fn):
    f = getattr(LA, fn)
    with pytest.raises(np.linalg.LinAlgError,
                       match="1-dimensional array given. Array must be at least two-dimensional"):
        f(gpuarr.zeros(3))
    with pytest.raises(LA.LinAlgError, match="0-dimensional array given"):
        f(gpuarr.asarray(1.0))
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        f(gpuarr.zeros((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        f(gpuarr.zeros((4, 3, 2)))


@gpu_test
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_eigh_nonfinite_gives_nan_not_hang(method, bad):
    n = 8
    if not _method_ok(method, n, "float64"):
        pytest.skip("method not available")
    a = np.eye(n)
    a[3, 1] = bad  # in the lower triangle: read
    w, v = LA.eigh(gpuarr.asarray(a), _method=method)
    assert np.isnan(gpuarr.asnumpy(w)).any()
    # In the other triangle: not read, so finite results as NumPy's.
    b = np.eye(n)
    b[1, 3] = bad
    w, v = LA.eigh(gpuarr.asarray(b), _method=method)
    np.testing.assert_allclose(gpuarr.asnumpy(w), np.linalg.eigvalsh(b), atol=1e-12)


# ---- eig / eigvals ------------------------------------------------------------------------

def _match_eigvals(got, ref, atol):
    """Every reference eigenvalue has a distinct computed one within atol (per matrix)."""
    got = np.asarray(got).reshape(-1, got.shape[-1]) if got.ndim else got
    ref = np.asarray(ref).reshape(-1, ref.shape[-1])
    for g, r in zip(got, ref):
        used = np.zeros(len(g), bool)
        for x in r:
            d = np.abs(g - x)
            d[used] = np.inf
            k = int(np.argmin(d))
            assert d[k] <= atol, (x, g)
            used[k] = True


def _check_eig(a, w, v, dtype):
    tol = _tol(dtype)
    ref = np.linalg.eigvals(a)
    wg = gpuarr.asnumpy(w)
    assert wg.shape == ref.shape
    scale = max(1.0, float(np.abs(ref).max(initial=0)))
    _match_eigvals(wg, ref, tol * scale * 100)
    if v is not None:
        vg = gpuarr.asnumpy(v)
        assert vg.shape == a.shape
        av = a.astype(np.complex128) @ vg
        np.testing.assert_allclose(av, vg * wg[..., None, :], rtol=0, atol=tol * scale * 100)
        norms = np.linalg.norm(vg, axis=-2)
        np.testing.assert_allclose(norms, 1.0, atol=tol * 100)


@gpu_test
@pytest.mark.parametrize("dtype", EIGH_DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (7, 7), (3, 16, 16), (2, 2, 33, 33)])
def test_eig_random(rng, dtype, shape):
    a = _rand(rng, shape, dtype)
    w, v = LA.eig(gpuarr.asarray(a))
    ref_w, ref_v = np.linalg.eig(a)
    assert w.dtype == ref_w.dtype and v.dtype == ref_v.dtype
    _check_eig(a, w, v, dtype)
    w2 = LA.eigvals(gpuarr.asarray(a))
    assert w2.dtype == ref_w.dtype
    _check_eig(a, w2, None, dtype)


@gpu_test
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eig_real_result_rule(rng, dtype):
    sym = _rand(rng, (3, 6, 6), dtype)
    sym = sym + np.swapaxes(sym, -1, -2)  # real spectrum: real dtype before NumPy 2.5
    w, v = LA.eig(gpuarr.asarray(sym))
    ref_w, ref_v = np.linalg.eig(sym)
    assert w.dtype == ref_w.dtype and v.dtype == ref_v.dtype
    _check_eig(sym, w, v, dtype)
    rot = np.array([[0.0, 1.0], [-1.0, 0.0]], dtype)  # +-i -> complex, for the whole batch
    batch = np.stack([np.eye(2, dtype=dtype), rot])
    w, v = LA.eig(gpuarr.asarray(batch))
    ref_w, ref_v = np.linalg.eig(batch)
    assert w.dtype == ref_w.dtype and v.dtype == ref_v.dtype
    _check_eig(batch, w, v, dtype)
    # Conjugate pair storage: v[:, j] and v[:, j+1] are conjugates for a pair.
    vg = gpuarr.asnumpy(v)[1]
    wg = gpuarr.asnumpy(w)[1]
    j = int(np.argmax(wg.imag))
    k = int(np.argmin(wg.imag))
    np.testing.assert_allclose(vg[:, k], np.conj(vg[:, j]), atol=1e-6)


@gpu_test
@pytest.mark.parametrize("dtype", ["int32", "bool", "float16"])
def test_eig_dtype_rules(rng, dtype):
    a = rng.integers(0, 3, (5, 5)).astype(dtype)
    w = LA.eigvals(gpuarr.asarray(a))
    if dtype == "float16":
        assert w.dtype in (np.float16, np.complex64)
        ref = np.linalg.eigvals(a.astype(np.float32))
        _match_eigvals(gpuarr.asnumpy(w).astype(np.complex64), ref, 5e-2 * max(1, np.abs(ref).max()))
    else:
        ref = np.linalg.eigvals(a)
        assert w.dtype == ref.dtype
        _match_eigvals(gpuarr.asnumpy(w), ref, 1e-8 * max(1, np.abs(ref).max()))


@gpu_test
@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3), (2, 0, 0)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64"])
def test_eig_empty(shape, dtype):
    a = np.zeros(shape, dtype)
    w, v = LA.eig(gpuarr.asarray(a))
    ref_w, ref_v = np.linalg.eig(a)
    assert w.shape == ref_w.shape and w.dtype == ref_w.dtype
    assert v.shape == ref_v.shape and v.dtype == ref_v.dtype


@gpu_test
@pytest.mark.parametrize("fn", ["eig", "eigvals"])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_eig_nonfinite(fn, bad):
    a = np.eye(4)
    a[0, 3] = bad
    with pytest.raises(np.linalg.LinAlgError, match="Array must not contain infs or NaNs"):
        getattr(LA, fn)(gpuarr.asarray(a))


# ---- "dc": own tridiagonal reduction + GPU divide and conquer (float64) --------------------
# GPUARR_TRIDIAG_TAIL (overridden here for a scope) is the number of last columns the
# reduction leaves to cusolverDnDsytrd (default 512): a small tail runs the own reduction
# kernels on small matrices, several panels of 32 columns and the partial last panel
# included.

def _dc_eigh(a, uplo="L"):
    w, v, failed, used = gpuarr._core._eigh(gpuarr.asarray(a), uplo == "L", True, "dc")
    assert used == "dc" and not failed
    return w, v


@gpu_test
@pytest.mark.parametrize("tail", ["1", "32", "100", "default"])
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("n", [1, 2, 31, 33, 64, 65, 97, 130, 257, 600])
def test_dc_own_reduction_sizes(rng, tail, uplo, n):
    settings = {} if tail == "default" else {"GPUARR_TRIDIAG_TAIL": tail}
    a = _rand(rng, (n, n), "float64")  # not symmetric: only the named triangle is read
    with _config.override(**settings):
        w, v = _dc_eigh(a, uplo)
        _check_eigh(a, uplo, w, v, "float64")
        w2 = LA.eigvalsh(gpuarr.asarray(a), UPLO=uplo, _method="dc")
        _check_eigh(a, uplo, w2, None, "float64")


@gpu_test
def test_dc_default_tail_large(rng):
    # n > 512 + 32: the default tail, the own kernels on 21 panels, deep merge tree.
    n = 1200
    a = _rand(rng, (n, n), "float64")
    w, v = _dc_eigh(a, "L")
    _check_eigh(a, "L", w, v, "float64")


@pytest.fixture
def small_tail():
    """A 32-column tail: the own reduction kernels run on the small matrices below."""
    with _config.override(GPUARR_TRIDIAG_TAIL=32):
        yield


def _spectrum_matrix(rng, n, kind):
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    d = {
        "repeated": np.repeat([-1.0, 0.5, 2.0], (n + 2) // 3)[:n],
        "cluster": 1 + 1e-13 * rng.standard_normal(n),
        "rank1": np.r_[np.zeros(n - 1), 3.0],
        "graded": 10.0 ** -np.linspace(0, 12, n),
        "wide": np.r_[1e-8 * rng.standard_normal(n // 2), 1e8 * rng.standard_normal(n - n // 2)],
    }[kind]
    a = (q * d) @ q.T
    return (a + a.T) / 2


@gpu_test
@pytest.mark.parametrize("kind", ["repeated", "cluster", "rank1", "graded", "wide"])
@pytest.mark.parametrize("n", [70, 300])
def test_dc_degenerate_spectra(rng, small_tail, kind, n):
    a = _spectrum_matrix(rng, n, kind)
    w, v = _dc_eigh(a, "L")
    _check_eigh(a, "L", w, v, "float64")


@gpu_test
@pytest.mark.parametrize("scale", [1e300, 1e200, 1e-200, 1e-300, 0.0])
def test_dc_scaling(rng, small_tail, scale):
    # Entries outside LAPACK's [rmin, rmax] are scaled in and the eigenvalues back out.
    n = 120
    a = _rand(rng, (n, n), "float64")
    a = (a + a.T) / 4 * scale
    w, v = _dc_eigh(a, "L")
    w_np = np.linalg.eigvalsh(a)
    wg = gpuarr.asnumpy(w)
    assert np.isfinite(wg).all()
    big = np.abs(w_np).max(initial=0.0) or 1.0
    np.testing.assert_allclose(wg / big, w_np / big, rtol=0, atol=1e-12)
    vg = gpuarr.asnumpy(v)
    np.testing.assert_allclose(vg.T @ vg, np.eye(n), rtol=0, atol=1e-12)
    np.testing.assert_allclose((a / big) @ vg, vg * (wg / big), rtol=0, atol=1e-11)


@gpu_test
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_dc_nonfinite_batch(rng, small_tail, bad):
    # One matrix of the batch holds a NaN/inf in its read triangle: NaN results for it only.
    a = _rand(rng, (3, 100, 100), "float64")
    a[1, 70, 3] = bad
    w, v = _dc_eigh(a, "L")
    wg, vg = gpuarr.asnumpy(w), gpuarr.asnumpy(v)
    assert np.isnan(wg[1]).all() and np.isnan(vg[1]).all()
    _check_eigh(a[[0, 2]], "L", gpuarr.asarray(wg[[0, 2]]), gpuarr.asarray(vg[[0, 2]]),
                "float64")
    w, v = _dc_eigh(a, "U")  # in the unread triangle: finite
    _check_eigh(a, "U", w, v, "float64")


@gpu_test
def test_dc_chosen_by_auto_for_large_float64(rng):
    n = 3072  # the H100 row's divide-and-conquer bound (core/routing_thresholds.cpp)
    a = _rand(rng, (n, n), "float64")
    g = gpuarr.asarray(a)
    assert gpuarr._core._eigh(g, True, True, "auto")[3] == "dc"
    assert gpuarr._core._eigh(g, True, False, "auto")[3] == "syevd"  # eigvalsh: cuSOLVER
    assert gpuarr._core._eigh(g.astype("float32"), True, True, "auto")[3] == "syevd"
    w, v = LA.eigh(g)
    # A V = V diag(w) and V^T V = I checked on the GPU (NumPy's eigh of 3072 is slow).
    h = gpuarr.asarray(np.tril(a) + np.tril(a, -1).T)
    scale = float(gpuarr.abs(w).max())
    res = float(gpuarr.abs(h @ v - v * w[None, :]).max())
    assert res <= 1e-10 * scale * 50
    orth = float(gpuarr.abs(v.T @ v - gpuarr.eye(n)).max())
    assert orth <= 1e-10 * 50
    w_ref = gpuarr.asnumpy(LA.eigvalsh(g, _method="syevd"))
    np.testing.assert_allclose(gpuarr.asnumpy(w), w_ref, rtol=0, atol=1e-10 * scale * 10)


# ---- cuSOLVER's Xsyevd and Xgeev: NumPy's results, NaN handling --------------------------
@gpu_test
@pytest.mark.parametrize("dtype", EIGH_DTYPES)
def test_eigh_syevd(rng, dtype):
    for n, uplo in ((1, "L"), (7, "U"), (64, "L"), (200, "U")):
        a = _rand(rng, (n, n), dtype)
        w, v = LA.eigh(gpuarr.asarray(a), UPLO=uplo, _method="syevd")
        _check_eigh(a, uplo, w, v, dtype)
        w2 = LA.eigvalsh(gpuarr.asarray(a), UPLO=uplo, _method="syevd")
        _check_eigh(a, uplo, w2, None, dtype)
    # A batch (one call per matrix), a NaN in the read triangle of the second matrix only.
    a = _rand(rng, (3, 33, 33), dtype)
    a[1, 20, 3] = np.nan  # lower triangle
    w, v = LA.eigh(gpuarr.asarray(a), UPLO="L", _method="syevd")
    wg, vg = gpuarr.asnumpy(w), gpuarr.asnumpy(v)
    assert np.isnan(wg[1]).all() and np.isnan(vg[1]).all()
    if np.isfinite(wg[[0, 2]]).all():  # (a failed info poisons the whole batch in _eigen.py)
        _check_eigh(a[[0, 2]], "L", gpuarr.asarray(wg[[0, 2]]), gpuarr.asarray(vg[[0, 2]]), dtype)
    # The NaN lies in the unread (upper) triangle for UPLO="U": finite results.
    w = gpuarr.asnumpy(LA.eigvalsh(gpuarr.asarray(a), UPLO="U", _method="syevd"))
    assert np.isfinite(w).all()


@gpu_test
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_eig_geev(rng, dtype):
    if not _routines()["xgeev"]:
        pytest.skip("cusolverDnXgeev not available")
    for shape in ((1, 1), (5, 5), (64, 64), (200, 200), (2, 17, 17)):
        a = _rand(rng, shape, dtype)
        _check_eig(a, LA.eigvals(gpuarr.asarray(a)), None, dtype)
        w, v = LA.eig(gpuarr.asarray(a))
        _check_eig(a, w, v, dtype)
