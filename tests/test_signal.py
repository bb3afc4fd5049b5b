"""gpuarr.signal and gpuarr.convolve/correlate against scipy.signal and NumPy: every mode
and boundary, float32/64 and complex, ints, kernels larger than the image, even and odd
kernel sizes, tiles crossing block edges, views; errors as SciPy/NumPy raise them."""

import itertools

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test

scipy_signal = pytest.importorskip("scipy.signal")

MODES = ["full", "same", "valid"]
BOUNDARIES = ["fill", "wrap", "symm"]
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def _data(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return rng.integers(-20, 20, size=shape).astype(dtype)
    x = rng.standard_normal(size=shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(size=shape)
    return x.astype(dtype)


def _check(d, h, a=None, k=None):
    h = np.asarray(h)
    assert isinstance(d, gpuarr.ndarray)
    assert d.dtype == h.dtype, (d.dtype, h.dtype)
    assert d.shape == h.shape, (d.shape, h.shape)
    got = d.get()
    if h.dtype.kind in "iub":
        np.testing.assert_array_equal(got, h)
        return
    single = h.dtype in (np.float32, np.complex64, np.float16)
    # error bound: eps * sum |w||x| (<= max|x| * sum|w|)
    scale = 1.0
    if a is not None and k is not None and a.size and k.size:
        scale = float(np.max(np.abs(a))) * float(np.sum(np.abs(k))) + 1.0
    tol = (2e-6 if single else 1e-14) * scale * 4
    np.testing.assert_allclose(got, h, rtol=0, atol=tol)


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001
        return "raise", e


# --- host-side (no device) ---------------------------------------------------------------

# The device kernel's formula, out[i] = sum_u w[u] * in_b(i + u - pad), emulated in NumPy
# with the C++ plan and boundary rule: checks the host logic against SciPy without a GPU.
def _emulate(a, w, plans, boundary, fill):
    bidx = gpuarr._core._conv_boundary_index
    out = np.zeros(tuple(p[0] for p in plans), np.result_type(a, w))
    for idx in itertools.product(*[range(p[0]) for p in plans]):
        s = 0
        for u in itertools.product(*[range(k) for k in w.shape]):
            src = [bidx(i + uu - p[1], n, boundary) for i, uu, p, n in zip(idx, u, plans, a.shape)]
            s += w[u] * (fill if min(src) < 0 else a[tuple(src)])
        out[idx] = s
    return out


@pytest.mark.parametrize("shapes", [((5, 6), (2, 3)), ((4, 4), (3, 4)), ((3, 2), (5, 6)),
                                    ((6, 5), (1, 2)), ((2, 3), (7, 2))])
def test_plan_and_boundaries_match_scipy_on_host(rng, shapes):
    sa, sk = shapes
    a, k = _data(rng, sa, np.complex128), _data(rng, sk, np.complex128)
    for mode, bnd in itertools.product(MODES, BOUNDARIES):
        b = gpuarr._core._conv_boundary(bnd)
        for flip in (True, False):
            ref = _outcome(lambda: (scipy_signal.convolve2d if flip else scipy_signal.correlate2d)(
                a, k, mode=mode, boundary=bnd, fillvalue=1.5))
            if ref[0] == "raise" or (mode == "valid" and (k.shape[0] > a.shape[0])):
                continue  # swapped 'valid' is arranged in Python (tested on the device)
            w = k[::-1, ::-1] if flip else np.conj(k)
            plans = [gpuarr._core._conv_axis_plan(n, m, mode, not flip, False)
                     for n, m in zip(a.shape, k.shape)]
            np.testing.assert_allclose(_emulate(a, w, plans, b, 1.5), ref[1], atol=1e-12)


@pytest.mark.parametrize("n,m", [(7, 3), (6, 4), (5, 5), (4, 7)])
def test_numpy_plan_on_host(rng, n, m):
    a, v = _data(rng, n, np.complex128), _data(rng, m, np.complex128)
    for mode in MODES:
        x, w, rev = (a, v[::-1], False)
        if m > n:
            x, w = v, a[::-1]
        plan = gpuarr._core._conv_axis_plan(len(x), len(w), mode, False, True)
        np.testing.assert_allclose(_emulate(x, w, [plan], 0, 0), np.convolve(a, v, mode), atol=1e-12)


def test_mode_and_boundary_messages():
    with pytest.raises(ValueError, match=r"Acceptable mode flags are 'valid', 'same', or 'full'\."):
        gpuarr._core._conv_check_mode("nope", False)
    with pytest.raises(ValueError, match="Use one of 'valid', 'same', or 'full' for convolve"):
        gpuarr._core._conv_check_mode("v", True)
    with pytest.raises(ValueError, match="Acceptable boundary flags are 'fill', 'circular'"):
        gpuarr._core._conv_boundary("reflect")


@pytest.mark.parametrize("fn", ["convolve2d", "correlate2d", "convolve", "correlate",
                                "fftconvolve", "oaconvolve"])
def test_numpy_inputs_raise_type_error(fn):
    with pytest.raises(TypeError, match="gpuarr.asarray"):
        getattr(gpuarr.signal, fn)(np.ones((4, 4)), np.ones((2, 2)))
    with pytest.raises(TypeError, match="gpuarr.asarray"):
        gpuarr.convolve(np.ones(4), np.ones(2))


def test_next_fast_len():
    from gpuarr._convolve import _next_fast_len
    for n in range(1, 400):
        m = _next_fast_len(n)
        assert m >= n
        r = m
        for p in (2, 3, 5, 7):
            while r % p == 0:
                r //= p
        assert r == 1
        assert all(_next_fast_len(j) == m for j in range(n, m + 1))


# --- device: convolve2d / correlate2d -------------------------------------------------------

SHAPES_2D = [((6, 7), (3, 3)), ((5, 8), (2, 4)), ((4, 3), (5, 6)), ((70, 130), (15, 15)),
             ((40, 9), (17, 3)), ((9, 40), (3, 50)), ((5, 5), (1, 1)), ((1, 30), (1, 4)),
             ((6, 100), (2, 90)), ((30, 5), (33, 2))]
# (40, 9) by (17, 3) and (30, 5) by (33, 2): filter rows in chunks (8 rows in the blocked
# kernel, 16 in the tiled one); (6, 100) by (2, 90): the tile exceeds 48 KiB for 8- and
# 16-byte types: the blocked kernel (default) opts in to more shared memory, the tiled one
# hands over to the one-output-per-thread kernel.


@gpu_test
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes", SHAPES_2D)
@pytest.mark.parametrize("func", ["convolve2d", "correlate2d"])
def test_2d_modes_boundaries(rng, func, shapes, dtype):
    sa, sk = shapes
    a, k = _data(rng, sa, dtype), _data(rng, sk, dtype)
    da, dk = gpuarr.asarray(a), gpuarr.asarray(k)
    for mode, bnd in itertools.product(MODES, BOUNDARIES):
        ref = _outcome(lambda: getattr(scipy_signal, func)(a, k, mode, bnd, 1.5))
        got = _outcome(lambda: getattr(gpuarr.signal, func)(da, dk, mode, bnd, 1.5))
        if ref[0] == "raise":
            assert got[0] == "raise" and type(got[1]) is type(ref[1]), (mode, bnd, got)
            assert str(got[1]) == str(ref[1])
            continue
        assert got[0] == "ok", (mode, bnd, got[1])
        _check(got[1], ref[1], a, k)


@gpu_test
@pytest.mark.parametrize("func", ["convolve2d", "correlate2d"])
def test_2d_views_ints_mixed(rng, func):
    a = _data(rng, (33, 40), np.float64)
    k = _data(rng, (4, 5), np.float32)
    da = gpuarr.asarray(a)
    for key in [(slice(None, None, -1), slice(None)), (slice(None), slice(None, None, 3)),
                (slice(1, 30, 2), slice(None, None, -2))]:
        ref = getattr(scipy_signal, func)(a[key], k, "same", "symm")
        _check(getattr(gpuarr.signal, func)(da[key], gpuarr.asarray(k), "same", "symm"), ref,
               a, k)
    ai, ki = _data(rng, (12, 11), np.int32), _data(rng, (3, 2), np.int32)
    for fill in (0, 2.5):
        _check(getattr(gpuarr.signal, func)(gpuarr.asarray(ai), gpuarr.asarray(ki), "full",
                                            "fill", fill),
               getattr(scipy_signal, func)(ai, ki, "full", "fill", fill))
    # the filter transposed (non-contiguous) and a complex fill value
    kc = _data(rng, (3, 4), np.complex128).T
    ref = getattr(scipy_signal, func)(a.astype(complex), kc, "full", "fill", 1 + 2j)
    _check(getattr(gpuarr.signal, func)(gpuarr.asarray(a.astype(complex)), gpuarr.asarray(kc),
                                        "full", "fill", 1 + 2j), ref, a, kc)


# The register-blocked kernel: every compile-time filter height (3, 5, ..., 15), the general path (even heights, 1, > 16:
# chunks of 4 or 8 rows), images tall and wide enough for interior tiles (loaded with
# cp.async: more than 8*16 + kh - 1 rows, 32 + kw - 1 columns), row counts that are not a
# multiple of the 128-row (64 for complex128) tile or of the 16 rows a thread owns, widths
# not a multiple of 32, filters larger than the image.
BLOCKED_SHAPES = [((300, 90), (3, 3)), ((300, 90), (5, 4)), ((300, 90), (7, 7)),
                  ((300, 90), (9, 2)), ((300, 90), (11, 11)), ((300, 90), (13, 6)),
                  ((300, 90), (15, 15)), ((301, 97), (2, 5)), ((300, 90), (6, 6)),
                  ((300, 90), (16, 16)), ((300, 90), (20, 3)), ((300, 90), (1, 7)),
                  ((157, 77), (15, 14)), ((10, 12), (15, 15)), ((3, 40), (4, 45))]


@gpu_test
@pytest.mark.parametrize("shapes", BLOCKED_SHAPES)
def test_2d_kernels_heights_tiles(rng, shapes):
    sa, sk = shapes
    a, k = _data(rng, sa, np.float64), _data(rng, sk, np.float64)
    a[min(7, sa[0] - 1), min(5, sa[1] - 1)] = np.inf  # a non-finite input must not leak into outputs that do not read it
    da, dk = gpuarr.asarray(a), gpuarr.asarray(k)
    for mode, bnd in itertools.product(MODES, BOUNDARIES):
        for func in ("convolve2d", "correlate2d"):
            with np.errstate(invalid="ignore"):
                ref = getattr(scipy_signal, func)(a, k, mode, bnd, -0.5)
            got = getattr(gpuarr.signal, func)(da, dk, mode, bnd, -0.5)
            fin = np.isfinite(ref)
            h = got.get()
            assert got.shape == ref.shape and got.dtype == ref.dtype, (func, mode, bnd)
            np.testing.assert_array_equal(np.isfinite(h), fin, err_msg=f"{func} {mode} {bnd}")
            np.testing.assert_array_equal(np.isnan(h), np.isnan(ref),
                                          err_msg=f"{func} {mode} {bnd}")
            a0 = np.where(np.isfinite(a), a, 0.0)
            _check(gpuarr.asarray(np.where(fin, h, 0.0)), np.where(fin, ref, 0.0), a0, k)


@gpu_test
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kh,kw", [(15, 15), (5, 3), (6, 9), (17, 4)])
def test_2d_blocked_dtypes_views(rng, dtype, kh, kw):
    # interior tiles of strided, reversed and transposed views (cp.async with any strides)
    a = _data(rng, (420, 260), dtype)
    k = _data(rng, (kh, kw), dtype)
    da, dk = gpuarr.asarray(a), gpuarr.asarray(k)
    for key in [(slice(None), slice(None)), (slice(None, None, 2), slice(None, None, -1)),
                (slice(3, None), slice(None, 200))]:
        for mode, bnd in (("full", "fill"), ("same", "wrap"), ("valid", "symm")):
            ref = scipy_signal.convolve2d(a[key], k, mode, bnd)
            _check(gpuarr.signal.convolve2d(da[key], dk, mode, bnd), ref, a, k)
    ref = scipy_signal.correlate2d(a.T, k, "same", "symm")
    _check(gpuarr.signal.correlate2d(da.T, dk, "same", "symm"), ref, a, k)


# Where the blocked kernel does not run: one output row takes the tiled kernel (its
# compile-time heights 4, 8, 16 and the chunks of 16 rows beyond), and one output row with a
# tile too wide for 48 KiB of shared memory (float64: 64 + kh - 1 rows of 31 + kw columns)
# the one-output-per-thread kernel.
FALLBACK_SHAPES = [((1, 97), (3, 5), "same"), ((1, 97), (8, 3), "same"),
                   ((1, 97), (9, 9), "same"), ((1, 97), (16, 2), "same"),
                   ((1, 97), (20, 7), "same"), ((6, 70), (6, 4), "valid"),
                   ((17, 300), (17, 33), "valid"), ((1, 300), (1, 1), "full"),
                   ((1, 300), (3, 100), "same"), ((5, 400), (5, 120), "valid")]


@gpu_test
@pytest.mark.parametrize("sa,sk,mode", FALLBACK_SHAPES, ids=str)
def test_2d_one_output_row_kernels(rng, sa, sk, mode):
    a, k = _data(rng, sa, np.float64), _data(rng, sk, np.float64)
    da, dk = gpuarr.asarray(a), gpuarr.asarray(k)
    for bnd in BOUNDARIES:
        for func in ("convolve2d", "correlate2d"):
            ref = getattr(scipy_signal, func)(a, k, mode, bnd, -0.5)
            assert ref.shape[0] == 1
            _check(getattr(gpuarr.signal, func)(da, dk, mode, bnd, -0.5), ref, a, k)


@gpu_test
def test_seed_gaussian_blur():
    primary = np.zeros((16, 16))
    primary[8, 8] = 1
    deltas = np.tile(primary, (32, 32))
    x, y = np.meshgrid(np.linspace(-2, 2, 15), np.linspace(-2, 2, 15))
    gauss = np.exp(-(np.sqrt(x * x + y * y) ** 2 / 2.0))
    ref = scipy_signal.convolve2d(deltas, gauss)
    got = gpuarr.signal.convolve2d(gpuarr.asarray(deltas), gpuarr.asarray(gauss))
    assert np.allclose(got.get(), ref)
    _check(got, ref, deltas, gauss)


@gpu_test
def test_2d_errors(rng):
    d2, d1 = gpuarr.ones((3, 3)), gpuarr.ones(3)
    h2, h1 = np.ones((3, 3)), np.ones(3)
    cases = [
        (lambda m: m.convolve2d, (d2, d1), (h2, h1), {}),
        (lambda m: m.correlate2d, (d2, d1), (h2, h1), {}),
        (lambda m: m.convolve2d, (d2, d2), (h2, h2), {"mode": "bad"}),
        (lambda m: m.convolve2d, (d2, d2), (h2, h2), {"boundary": "bad"}),
        (lambda m: m.convolve2d, (gpuarr.ones((3, 5)), gpuarr.ones((5, 3))),
         (np.ones((3, 5)), np.ones((5, 3))), {"mode": "valid"}),
        (lambda m: m.convolve2d, (d2.astype(np.float16), d2.astype(np.float16)),
         (h2.astype(np.float16), h2.astype(np.float16)), {}),
        (lambda m: m.convolve2d, (d2, d2), (h2, h2), {"fillvalue": 2 + 0j}),
        (lambda m: m.convolve, (d2, d1), (h2, h1), {}),
        (lambda m: m.correlate, (d2, d1), (h2, h1), {}),
        (lambda m: m.fftconvolve, (d2, d1), (h2, h1), {}),
        (lambda m: m.convolve, (d2, d2), (h2, h2), {"method": "bad"}),
        (lambda m: m.correlate, (d2, d2), (h2, h2), {"mode": "bad"}),
    ]
    for get, dargs, hargs, kw in cases:
        ref = _outcome(lambda: get(scipy_signal)(*hargs, **kw))
        got = _outcome(lambda: get(gpuarr.signal)(*dargs, **kw))
        assert ref[0] == "raise" and got[0] == "raise", (kw, ref, got)
        assert type(got[1]) is type(ref[1]) and str(got[1]) == str(ref[1]), (got[1], ref[1])


# --- device: convolve / correlate / fftconvolve ------------------------------------------------

ND_SHAPES = [((50,), (7,)), ((8,), (13,)), ((20,), (6,)), ((9, 10), (4, 3)), ((5, 6), (7, 2)),
             ((6, 5, 4), (3, 2, 3))]


@gpu_test
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32])
@pytest.mark.parametrize("shapes", ND_SHAPES)
@pytest.mark.parametrize("func", ["convolve", "correlate"])
def test_nd_methods(rng, func, shapes, dtype):
    sa, sk = shapes
    a, k = _data(rng, sa, dtype), _data(rng, sk, dtype)
    da, dk = gpuarr.asarray(a), gpuarr.asarray(k)
    for mode, method in itertools.product(MODES, ["direct", "fft", "auto"]):
        if method == "direct" and len(sa) > 2:
            continue
        ref = _outcome(lambda: getattr(scipy_signal, func)(a, k, mode, method="direct"))
        got = _outcome(lambda: getattr(gpuarr.signal, func)(da, dk, mode, method=method))
        if ref[0] == "raise":
            assert got[0] == "raise" and type(got[1]) is type(ref[1]), (mode, method, got)
            continue
        assert got[0] == "ok", (mode, method, got[1])
        if method != "direct" and np.dtype(dtype).kind != "i":
            # FFT rounding: a looser bound
            h = ref[1]
            assert got[1].dtype == h.dtype and got[1].shape == h.shape
            tol = (1e-4 if got[1].dtype in (np.float32, np.complex64) else 1e-10) * (
                float(np.max(np.abs(a))) * float(np.sum(np.abs(k))) + 1)
            np.testing.assert_allclose(got[1].get(), h, rtol=0, atol=tol)
        else:
            _check(got[1], ref[1], a, k)


@gpu_test
@pytest.mark.parametrize("shapes,axes", [(((6, 7), (3, 4)), None), (((6, 7), (6, 4)), [1]),
                                         (((6, 7), (1, 4)), [1]), (((4, 6, 5), (2, 3, 5)), (0, 1)),
                                         (((30,), (30,)), None), (((5, 1), (1, 6)), None)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_fftconvolve(rng, shapes, axes, dtype):
    sa, sk = shapes
    a, k = _data(rng, sa, dtype), _data(rng, sk, dtype)
    for mode in MODES:
        for fn in ("fftconvolve", "oaconvolve"):
            ref = _outcome(lambda: scipy_signal.fftconvolve(a, k, mode, axes=axes))
            got = _outcome(lambda: getattr(gpuarr.signal, fn)(gpuarr.asarray(a), gpuarr.asarray(k),
                                                              mode, axes=axes))
            if ref[0] == "raise":
                assert got[0] == "raise" and type(got[1]) is type(ref[1])
                continue
            assert got[0] == "ok", got[1]
            h = ref[1]
            assert got[1].dtype == h.dtype and got[1].shape == h.shape, (got[1].shape, h.shape)
            tol = (1e-4 if h.dtype in (np.float32, np.complex64) else 1e-10) * (
                float(np.max(np.abs(a))) * float(np.sum(np.abs(k))) + 1)
            np.testing.assert_allclose(got[1].get(), h, rtol=0, atol=tol)


# --- device: gpuarr.convolve / gpuarr.correlate (NumPy) -------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.int64, np.int32])
@pytest.mark.parametrize("n,m", [(1, 1), (7, 3), (6, 4), (3, 8), (1000, 15), (5000, 3000),
                                 (2, 9000), (20000, 5000), (4999, 6001)])
def test_numpy_convolve_correlate(rng, dtype, n, m):
    a, v = _data(rng, n, dtype), _data(rng, m, dtype)
    da, dv = gpuarr.asarray(a), gpuarr.asarray(v)
    long_fft = (min(n, m) > gpuarr._core._conv_direct_max_taps()
                and np.dtype(dtype).kind in "fc")  # cuFFT path: FFT rounding
    for mode in MODES:
        for fn in ("convolve", "correlate"):
            got, ref = getattr(gpuarr, fn)(da, dv, mode), getattr(np, fn)(a, v, mode)
            if long_fft:
                assert got.dtype == ref.dtype and got.shape == ref.shape
                tol = (1e-4 if ref.dtype in (np.float32, np.complex64) else 1e-10) * (
                    float(np.max(np.abs(a))) * float(np.sum(np.abs(v))) + 1)
                np.testing.assert_allclose(got.get(), ref, rtol=0, atol=tol)
            else:
                _check(got, ref, a, v)
    _check(gpuarr.convolve(da[::-2], dv), np.convolve(a[::-2], v), a, v)


@gpu_test
def test_numpy_convolve_large_and_mixed(rng):
    a = _data(rng, 1 << 20, np.float64)
    v = _data(rng, 15, np.float32)
    _check(gpuarr.convolve(gpuarr.asarray(a), gpuarr.asarray(v)), np.convolve(a, v), a, v)
    b = rng.integers(0, 2, 100).astype(bool)
    _check(gpuarr.convolve(gpuarr.asarray(b), gpuarr.asarray(b[:7])), np.convolve(b, b[:7]))


@gpu_test
def test_numpy_convolve_errors():
    e, o = gpuarr.ones(0), gpuarr.ones(3)
    for fn, args in [("convolve", (e, o)), ("convolve", (o, e)), ("correlate", (e, o)),
                     ("correlate", (o, e)), ("convolve", (o, o, "bad")),
                     ("correlate", (gpuarr.ones((2, 2)), o))]:
        hargs = [a.get() if isinstance(a, gpuarr.ndarray) else a for a in args]
        with pytest.raises(ValueError) as ref:
            getattr(np, fn)(*hargs)
        with pytest.raises(ValueError) as got:
            getattr(gpuarr, fn)(*args)
        assert str(got.value) == str(ref.value)


# --- host: the Python layer on a NumPy stand-in for the device -------------------------------


@pytest.fixture
def standin(monkeypatch):
    import _fftsignal_standin
    return _fftsignal_standin.install(monkeypatch)


def _same_outcome(got, ref, tol):
    if ref[0] == "raise":
        assert got[0] == "raise", (got, ref)
        assert isinstance(got[1], type(ref[1]).__mro__[0] if type(ref[1]).__module__ == "builtins"
                          else Exception)
        if type(ref[1]).__module__ == "builtins":
            assert str(got[1]) == str(ref[1])
        return
    assert got[0] == "ok", got[1]
    g, r = np.asarray(got[1]), np.asarray(ref[1])
    assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, r.dtype, g.shape, r.shape)
    if r.size:
        sc = max(1.0, float(np.max(np.abs(r.astype(complex)))))
        t = (2e-5 if r.dtype in (np.float32, np.complex64) else tol) * sc
        np.testing.assert_allclose(g.astype(complex), r.astype(complex), atol=t, rtol=0)


@pytest.mark.parametrize("fn", ["convolve2d", "correlate2d"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32, np.float16])
def test_host_2d_python_layer(standin, rng, fn, dtype):
    _, gsig, _ = standin
    for sa, sk in [((6, 7), (3, 3)), ((5, 8), (2, 4)), ((4, 3), (5, 6)), ((9, 4), (3, 6))]:
        a, k = _data(rng, sa, dtype), _data(rng, sk, dtype)
        for mode, bnd, fill in itertools.product(["full", "same", "valid", "bad"],
                                                 ["fill", "wrap", "symm", "x"], [0, 1.5, 2 + 0j]):
            with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
                __import__("warnings").simplefilter("ignore")
                ref = _outcome(lambda: getattr(scipy_signal, fn)(a, k, mode, bnd, fill))
                got = _outcome(lambda: getattr(gsig, fn)(a, k, mode, bnd, fill))
            _same_outcome(got, ref, 1e-12)
        _same_outcome(_outcome(lambda: getattr(gsig, fn)(a[::-1, ::2], k.T, "same", "symm")),
                      _outcome(lambda: getattr(scipy_signal, fn)(a[::-1, ::2], k.T, "same", "symm")),
                      1e-12)


@pytest.mark.parametrize("fn", ["convolve", "correlate"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32])
def test_host_nd_python_layer(standin, rng, fn, dtype):
    _, gsig, _ = standin
    for sa, sk in [((50,), (7,)), ((8,), (13,)), ((9, 10), (4, 3)), ((5, 6), (7, 2)),
                   ((6, 5, 4), (3, 2, 3)), ((3, 4), (5, 6)), ((3,), (3, 1))]:
        a, k = _data(rng, sa, dtype), _data(rng, sk, dtype)
        for mode, method in itertools.product(["full", "same", "valid", "bad"],
                                              ["direct", "fft", "auto", "bad"]):
            if method == "direct" and len(sa) > 2:
                continue
            _same_outcome(_outcome(lambda: getattr(gsig, fn)(a, k, mode, method)),
                          _outcome(lambda: getattr(scipy_signal, fn)(a, k, mode, method)), 1e-10)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_host_fftconvolve_python_layer(standin, rng, dtype):
    _, gsig, _ = standin
    for (sa, sk), axes in [(((6, 7), (3, 4)), None), (((6, 7), (6, 4)), [1]),
                           (((6, 7), (1, 4)), [1]), (((4, 6, 5), (2, 3, 5)), (0, 1)),
                           (((5, 1), (1, 6)), None), (((5, 6), (3, 4)), []),
                           (((5, 6), (3, 4)), [0, 0]), (((0,), (3,)), None)]:
        a, k = _data(rng, sa, dtype), _data(rng, sk, dtype)
        for mode in ["full", "same", "valid", "bad"]:
            for fn in ("fftconvolve", "oaconvolve"):
                _same_outcome(_outcome(lambda: getattr(gsig, fn)(a, k, mode, axes=axes)),
                              _outcome(lambda: scipy_signal.fftconvolve(a, k, mode, axes=axes)),
                              1e-10)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int64, np.bool_])
def test_host_numpy_convolve_python_layer(standin, rng, dtype):
    _, _, gconv = standin
    for n, m in [(1, 1), (7, 3), (6, 4), (3, 8), (0, 3), (3, 0), (5000, 4100), (10, 4500)]:
        if n * m > 1_000_000 and np.dtype(dtype).kind in "ib":
            continue
        a, v = _data(rng, n, dtype), _data(rng, m, dtype)
        if np.dtype(dtype).kind == "b":
            a, v = a != 0, v != 0
        for mode in ["full", "same", "valid", "bad", "v", 1, 3, None]:
            for fn in ("convolve", "correlate"):
                _same_outcome(_outcome(lambda: getattr(gconv, fn)(a, v, mode)),
                              _outcome(lambda: getattr(np, fn)(a, v, mode)), 1e-10)
