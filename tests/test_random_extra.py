"""gpuarr.random's NumPy 2 additions (dirichlet, hypergeometric, logseries,
noncentral_chisquare, noncentral_f, vonmises, wald, zipf, bytes, SeedSequence): NumPy's
parameter errors (host), and shape, dtype, reproducibility and moments.

The moment tests run twice: on the device, and here with NumPy standing in for the device
(test_random's fake device: its kernels draw from NumPy, every composition, rejection loop
and formula of gpuarr's Python layer runs as on the device). Each draws 10**6 samples with a
fixed seed and requires the sample mean and variance within 6 standard errors of the
distribution's (the variance's standard error from the sample's fourth central moment).
"""

import math

import numpy as np
import pytest

import gpuarr.random as gr
from conftest import GPU_AVAILABLE, NO_GPU_REASON, gpu_test
from test_random import _FakeArray, _assert_same_error, _error_cases, _outcome, fake_device  # noqa: F401,E501

N = 1_000_000
SIGMAS = 6.0


# ---- host tests: NumPy's exceptions before any device work ----------------------------

COMMON_ERRORS = [
    ("noncentral_chisquare", (0, 1), {}),
    ("noncentral_chisquare", (1, -1), {}),
    ("noncentral_chisquare", ([1, 2], [1, -1]), {}),
    ("noncentral_f", (0, 1, 1), {}),
    ("noncentral_f", (1, 0, 1), {}),
    ("noncentral_f", (1, 1, -1), {}),
    ("wald", (0, 1), {}),
    ("wald", (1, 0), {}),
    ("wald", ([1, -1], 1), {}),
    ("vonmises", (0, -1), {}),
    ("vonmises", ([0, 1], [1, 2, 3]), {}),
    ("logseries", (1,), {}),
    ("logseries", (-0.1,), {}),
    ("logseries", (np.nan,), {}),
    ("logseries", ([0.5, 1.5],), {}),
    ("zipf", (1,), {}),
    ("zipf", (0.5,), {}),
    ("zipf", (np.nan,), {}),
    ("zipf", ([2, 1],), {}),
    ("hypergeometric", (-1, 1, 1), {}),
    ("hypergeometric", (-1, 5, 1), {}),
    ("hypergeometric", (5, -1, 1), {}),
    ("hypergeometric", (5, 5, 11), {}),
    ("hypergeometric", ([5, 5], [5, -1], [1, 1]), {}),
    ("hypergeometric", (np.nan, 5, 1), {}),
    ("dirichlet", ([1, -1],), {}),
    ("dirichlet", ([[1, 1]],), {}),
    ("dirichlet", (1,), {}),
]

GEN_ONLY_ERRORS = [
    ("hypergeometric", (5, 5, -1), {}),
    ("hypergeometric", (10**9, 1, 1), {}),
    ("hypergeometric", ([1, 2**40], 1, 1), {}),
]

LEGACY_ONLY_ERRORS = [
    ("hypergeometric", (5, 5, 0), {}),
    ("hypergeometric", (5, 5, [1, 0]), {}),
    ("dirichlet", ([0, 1],), {}),
]


@_error_cases(COMMON_ERRORS + GEN_ONLY_ERRORS)
def test_generator_errors_as_numpy(name, args, kwargs):
    _assert_same_error(np.random.default_rng, gr.default_rng, name, args, kwargs)


@_error_cases(COMMON_ERRORS + LEGACY_ONLY_ERRORS)
def test_random_state_errors_as_numpy(name, args, kwargs):
    _assert_same_error(np.random.RandomState, gr.RandomState, name, args, kwargs)


def test_module_functions_and_seed_sequence():
    for name in ("dirichlet", "hypergeometric", "logseries", "noncentral_chisquare",
                 "noncentral_f", "vonmises", "wald", "zipf", "bytes"):
        assert callable(getattr(gr, name)), name
        assert name in gr.__all__
    assert gr.SeedSequence is np.random.SeedSequence
    ss = gr.SeedSequence(5)
    assert gr.default_rng(ss)._stream.key == gr.default_rng(gr.SeedSequence(5))._stream.key


# ---- moments: on the device and on the stand-in ----------------------------------------

@pytest.fixture(params=["device", "standin"])
def backend(request):
    if request.param == "device":
        if not GPU_AVAILABLE:
            pytest.skip(NO_GPU_REASON)
        return "device"
    request.getfixturevalue("fake_device")
    return "standin"


def _host(x):
    return np.asarray(x.get())


def _assert_moments(x, mean, var):
    x = np.asarray(x, dtype=np.float64).ravel()
    n = x.size
    m = x.mean()
    c = x - m
    v = np.mean(c * c)
    m4 = np.mean(c ** 4)
    assert abs(m - mean) <= SIGMAS * math.sqrt(var / n), (m, mean)
    assert abs(v - var) <= SIGMAS * math.sqrt(max(m4 - v * v, 0.0) / n) + 1e-12, (v, var)


def _zeta(s, terms=100_000):
    k = np.arange(1, terms + 1, dtype=np.float64)
    # the tail sum beyond `terms` by Euler-Maclaurin's first terms
    tail = terms ** (1 - s) / (s - 1) - 0.5 * terms ** (-s)
    return float(np.sum(k ** -s)) + tail


@pytest.mark.parametrize("df,nonc", [(3.0, 2.0), (0.5, 1.5), (5.0, 0.0), (1.0, 4.0)])
def test_noncentral_chisquare_moments(backend, df, nonc):
    x = _host(gr.default_rng(1).noncentral_chisquare(df, nonc, N))
    assert x.shape == (N,) and x.dtype == np.float64 and np.all(x >= 0)
    _assert_moments(x, df + nonc, 2 * (df + 2 * nonc))


def test_noncentral_chisquare_array_parameters(backend):
    df = np.array([0.5, 3.0])
    nonc = np.array([[2.0], [0.0]])
    x = _host(gr.default_rng(2).noncentral_chisquare(df, nonc, (N // 4, 2, 2)))
    assert x.shape == (N // 4, 2, 2)
    for i in range(2):
        for j in range(2):
            _assert_moments(x[:, i, j], df[j] + nonc[i, 0], 2 * (df[j] + 2 * nonc[i, 0]))
    nan = _host(gr.default_rng(2).noncentral_chisquare([np.nan, 2.0], [1.0, np.nan]))
    assert np.all(np.isnan(nan))


def test_noncentral_f_moments(backend):
    d1, d2, lam = 3.0, 20.0, 2.0
    x = _host(gr.default_rng(3).noncentral_f(d1, d2, lam, N))
    mean = d2 * (d1 + lam) / (d1 * (d2 - 2))
    var = 2 * (d2 / d1) ** 2 * ((d1 + lam) ** 2 + (d1 + 2 * lam) * (d2 - 2)) / \
        ((d2 - 2) ** 2 * (d2 - 4))
    _assert_moments(x, mean, var)


@pytest.mark.parametrize("mean,scale", [(1.0, 1.0), (3.0, 0.5), (0.5, 20.0)])
def test_wald_moments(backend, mean, scale):
    x = _host(gr.default_rng(4).wald(mean, scale, N))
    assert np.all(x > 0)
    _assert_moments(x, mean, mean ** 3 / scale)


def _vonmises_cos_moments(kappa):
    t = np.linspace(-np.pi, np.pi, 200_001)
    w = np.exp(kappa * (np.cos(t) - 1))
    z = np.trapezoid(w, t)
    a = np.trapezoid(w * np.cos(t), t) / z
    return a, np.trapezoid(w * np.cos(t) ** 2, t) / z - a * a


@pytest.mark.parametrize("mu,kappa", [(0.5, 2.0), (-3.0, 0.3), (3.0, 50.0), (0.0, 1e-6),
                                      (1.0, 1e-9), (2.0, 1e7)])
def test_vonmises_moments(backend, mu, kappa):
    x = _host(gr.default_rng(5).vonmises(mu, kappa, N))
    assert np.all(np.abs(x) <= np.pi)
    a, v = _vonmises_cos_moments(kappa)
    _assert_moments(np.cos(x - mu), a, v)
    if kappa < 1e-8:  # NumPy: uniform on [-pi, pi] whatever mu
        _assert_moments(np.sin(x), 0.0, 0.5)
    else:
        _assert_moments(np.sin(x - mu), 0.0, 1 - a * a - v)


def test_vonmises_array_kappa(backend):
    kappa = np.array([0.0, 1e-9, 1e-6, 2.0, 1e7])
    x = _host(gr.default_rng(6).vonmises(1.0, kappa, (N // 5, 5)))
    assert np.all(np.abs(x) <= np.pi)
    for j, k in enumerate(kappa):
        a, v = _vonmises_cos_moments(k)
        _assert_moments(np.cos(x[:, j] - 1.0), a, v)
    assert np.all(np.isnan(_host(gr.default_rng(6).vonmises(0.0, [np.nan, 1.0])))[:1])


@pytest.mark.parametrize("p", [0.0, 0.3, 0.9, 0.999])
def test_logseries_moments(backend, p):
    x = _host(gr.default_rng(7).logseries(p, N))
    assert x.dtype == np.int64 and x.min() >= 1
    if p == 0:
        assert np.all(x == 1)
        return
    lg = math.log1p(-p)
    mean = -p / ((1 - p) * lg)
    var = -p * (p + lg) / ((1 - p) ** 2 * lg * lg)
    _assert_moments(x, mean, var)


@pytest.mark.parametrize("a", [6.0, 8.5])
def test_zipf_moments(backend, a):
    x = _host(gr.default_rng(8).zipf(a, N))
    assert x.dtype == np.int64 and x.min() >= 1
    z = _zeta(a)
    mean = _zeta(a - 1) / z
    _assert_moments(x, mean, _zeta(a - 2) / z - mean * mean)


@pytest.mark.parametrize("a", [1.5, 2.0, 3.0])
def test_zipf_heavy_tail_frequencies(backend, a):
    """For small a only the lowest values' frequencies have a finite-variance test."""
    x = _host(gr.default_rng(9).zipf(a, N))
    assert x.min() >= 1
    z = _zeta(a)
    for k in (1, 2, 3):
        p = k ** -a / z
        _assert_moments(x == k, p, p * (1 - p))


def test_zipf_large_a_and_arrays(backend):
    assert np.all(_host(gr.default_rng(10).zipf(2000.0, 100)) == 1)
    x = _host(gr.default_rng(10).zipf([2000.0, 6.0], (N // 2, 2)))
    assert np.all(x[:, 0] == 1)
    z = _zeta(6.0)
    mean = _zeta(5.0) / z
    _assert_moments(x[:, 1], mean, _zeta(4.0) / z - mean * mean)


HYPER_CASES = [
    (20, 30, 5),             # drawn marble by marble
    (30, 20, 45),            # the complement drawn
    (3, 40, 2),
    (100, 200, 50),          # HRUA
    (200, 100, 250),         # HRUA, complement and the larger colour
    (10**6, 2 * 10**6, 5000),  # HRUA with Stirling's log-factorials
    (0, 10, 5),
    (10, 0, 5),
]


@pytest.mark.parametrize("good,bad,n", HYPER_CASES)
def test_hypergeometric_moments(backend, good, bad, n):
    x = _host(gr.default_rng(11).hypergeometric(good, bad, n, N))
    assert x.dtype == np.int64
    assert x.min() >= max(0, n - bad) and x.max() <= min(n, good)
    tot = good + bad
    mean = n * good / tot
    var = n * good * bad * (tot - n) / (tot * tot * (tot - 1))
    if var == 0:
        assert np.all(x == mean)
    else:
        _assert_moments(x, mean, var)


def test_hypergeometric_array_parameters(backend):
    good = np.array([20, 100, 30])
    bad = np.array([30, 200, 20])
    n = np.array([5, 50, 45])
    x = _host(gr.default_rng(12).hypergeometric(good, bad, n, (N // 3, 3)))
    for j in range(3):
        tot = good[j] + bad[j]
        _assert_moments(x[:, j], n[j] * good[j] / tot,
                        n[j] * good[j] * bad[j] * (tot - n[j]) / (tot * tot * (tot - 1)))
    assert _host(gr.default_rng(12).hypergeometric(5, 5, 0, 4)).tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("alpha", [[1.0, 2.0, 3.5], [0.05, 0.2, 0.01], [4.0, 0.5]])
def test_dirichlet_moments(backend, alpha):
    a = np.array(alpha)
    x = _host(gr.default_rng(13).dirichlet(alpha, N // 2))
    assert x.shape == (N // 2, a.size) and x.dtype == np.float64
    assert np.allclose(x.sum(axis=1), 1.0) and np.all(x >= 0)
    a0 = a.sum()
    for j in range(a.size):
        _assert_moments(x[:, j], a[j] / a0, a[j] * (a0 - a[j]) / (a0 * a0 * (a0 + 1)))


def test_dirichlet_edges(backend):
    g = gr.default_rng(14)
    assert _host(g.dirichlet([0.0, 0.0], 3)).tolist() == [[0.0, 0.0]] * 3
    z = _host(g.dirichlet([0.0, 2.0, 0.0], 5))
    assert np.all(z[:, 1] == 1.0) and np.all(z[:, [0, 2]] == 0)
    assert np.all(np.isnan(_host(g.dirichlet([1.0, np.nan], 2))))
    assert _host(g.dirichlet([], 4)).shape == (4, 0)
    assert _host(g.dirichlet([1.0, 2.0])).shape == (2,)
    assert _host(gr.RandomState(1).dirichlet([1.0, 2.0], (2, 3))).shape == (2, 3, 2)


def test_bytes(backend):
    b = gr.default_rng(15).bytes(10_000)
    assert isinstance(b, bytes) and len(b) == 10_000
    assert b == gr.default_rng(15).bytes(10_000)
    assert gr.RandomState(3).bytes(0) == b""
    counts = np.bincount(np.frombuffer(b, dtype=np.uint8), minlength=256)
    assert counts.min() > 0  # 10**4 bytes over 256 values: each seen (P(miss) ~ 256 e**-39)


SHAPE_CASES = [
    ("noncentral_chisquare", (2.0, 1.0, (3, 2)), (3, 2), "f8"),
    ("noncentral_chisquare", ([2.0, 0.5], 1.0), (2,), "f8"),
    ("noncentral_f", (2.0, 5.0, [1.0, 2.0]), (2,), "f8"),
    ("wald", (1.0, [1.0, 2.0], (4, 2)), (4, 2), "f8"),
    ("wald", (1.0, 1.0), (), "f8"),
    ("vonmises", (0.0, 1.0, 7), (7,), "f8"),
    ("vonmises", ([0.0, 1.0], 3.0), (2,), "f8"),
    ("logseries", (0.5, (2, 3)), (2, 3), "i8"),
    ("logseries", ([0.1, 0.6],), (2,), "i8"),
    ("zipf", (2.0, 5), (5,), "i8"),
    ("zipf", (2.0,), (), "i8"),
    ("hypergeometric", (10, 20, 5, (2, 2)), (2, 2), "i8"),
    ("hypergeometric", (10, 20, 15), (), "i8"),
    ("hypergeometric", ([10, 100], 20, 15), (2,), "i8"),
    ("dirichlet", ([1.0, 2.0], (3, 4)), (3, 4, 2), "f8"),
    ("vonmises", (0.0, 1.0, 0), (0,), "f8"),
    ("zipf", (2.0, (0, 3)), (0, 3), "i8"),
]


@pytest.mark.parametrize("method,args,shape,dt", SHAPE_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(SHAPE_CASES)])
def test_shape_dtype_and_reproducibility(backend, method, args, shape, dt):
    for make in (gr.default_rng, gr.RandomState):
        x = getattr(make(21), method)(*args)
        assert x.shape == shape and x.dtype == np.dtype(dt)
        y = getattr(make(21), method)(*args)
        assert np.array_equal(_host(x), _host(y))


@gpu_test
def test_module_level_functions_draw_from_the_device_state():
    gr.seed(5)
    a = gr.wald(1.0, 2.0, 100)
    gr.seed(5)
    b = gr.wald(1.0, 2.0, 100)
    assert np.array_equal(a.get(), b.get())
    assert gr.hypergeometric(10, 20, 5, 8).shape == (8,)
    assert isinstance(gr.bytes(3), bytes)
