"""gpuarr.random: NumPy's parameter errors (host tests), and on the device: reproducibility,
dtype/shape/range, statistical sanity (moments within 5 sigma, Kolmogorov-Smirnov against
SciPy's CDFs, chi-square for discrete distributions), permutations and sampling.

Every statistical test uses a fixed seed, so it is deterministic: a failure is a real
defect of the generator (or of the test's expectation), not bad luck at the 1e-4 level.
"""

import numpy as np
import pytest

import gpuarr as ga
import gpuarr.random as gr
from conftest import gpu_test

try:
    import scipy.stats as st
except ImportError:  # pragma: no cover
    st = None

needs_scipy = pytest.mark.skipif(st is None, reason="scipy is not installed")

N = 100_000
P_MIN = 1e-4  # KS / chi-square p-value floor (fixed seeds: deterministic)


# ---- host tests: NumPy's exceptions before any device work ----------------------------

def _outcome(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001
        return type(e), str(e)
    return None


def _error_cases(cases):
    """Parametrizes over (method name, args, kwargs) cases, with ids by name and position."""
    return pytest.mark.parametrize("name,args,kwargs", cases,
                                   ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(cases)])


def _assert_same_error(np_seeded, gr_seeded, name, args, kwargs):
    """gpuarr's generator raises what NumPy's does (type and message). NumPy goes first so
    that a case which no longer raises there is reported as such."""
    expected = _outcome(getattr(np_seeded(0), name), *args, **kwargs)
    assert expected is not None, "the case must raise in NumPy"
    actual = _outcome(getattr(gr_seeded(0), name), *args, **kwargs)
    assert actual == expected


GEN_ERRORS = [
    ("normal", (0, -1), {}),
    ("normal", (0, -0.0), {}),
    ("normal", ([0, 1], [1, -1]), {}),
    ("uniform", (0, np.inf), {}),
    ("uniform", (-1e308, 1e308), {}),
    ("exponential", (-1,), {}),
    ("gamma", (-1,), {}),
    ("gamma", (1, -1), {}),
    ("standard_gamma", (-1,), {}),
    ("beta", (0, 1), {}),
    ("beta", (1, -1), {}),
    ("chisquare", (0,), {}),
    ("standard_t", (0,), {}),
    ("laplace", (0, -1), {}),
    ("logistic", (0, -1), {}),
    ("lognormal", (0, -1), {}),
    ("weibull", (-1,), {}),
    ("triangular", (2, 1, 3), {}),
    ("triangular", (1, 4, 3), {}),
    ("triangular", (1, 1, 1), {}),
    ("poisson", (-1,), {}),
    ("poisson", (np.nan,), {}),
    ("poisson", (1e20,), {}),
    ("binomial", (-1, 0.5), {}),
    ("binomial", (5, 1.5), {}),
    ("binomial", (5, np.nan), {}),
    ("geometric", (0,), {}),
    ("geometric", (1.5,), {}),
    ("integers", (0,), {}),
    ("integers", (5, 3), {}),
    ("integers", (5, 3), {"endpoint": True}),
    ("integers", (5, 5), {}),
    ("integers", (-1, 5), {"dtype": np.uint8}),
    ("integers", (0, 300), {"dtype": np.uint8}),
    ("integers", (-1, 1), {"dtype": bool}),
    ("integers", (0, 3), {"dtype": bool}),
    ("integers", (0, 2**63 + 1), {}),
    ("integers", (0, 5), {"dtype": np.float64}),
    ("integers", ([0, 5], [3, 5]), {}),
    ("integers", ([0, 0], [0, 5]), {}),
    ("integers", ([-1, 0], 3), {"dtype": np.uint8}),
    ("integers", (0, [3, 256]), {"dtype": np.uint8, "endpoint": True}),
    ("integers", (0, [-1, 5]), {}),
    ("integers", ([0, 1], 5), {"size": 3}),
    ("random", (), {"dtype": np.int32}),
    ("standard_normal", (), {"dtype": np.float16}),
    ("standard_exponential", (), {"dtype": np.int64}),
    ("standard_gamma", (1.0,), {"dtype": np.float16}),
    ("choice", (0, 3), {}),
    ("choice", (-2,), {}),
    ("choice", (5, 6), {"replace": False}),
    ("choice", (3,), {"p": [0.5, 0.5]}),
    ("choice", (2,), {"p": [0.7, 0.7]}),
    ("choice", (2,), {"p": [-1, 2]}),
    ("choice", (2,), {"p": [np.nan, 1]}),
    ("choice", ([1, 2, 3],), {"p": [[0.5, 0.5, 0]]}),
    ("choice", (3, 3), {"replace": False, "p": [1, 0, 0]}),
    ("multinomial", (-1, [0.5, 0.5]), {}),
    ("multinomial", (5, [-0.5, 1.5]), {}),
    ("multinomial", (5, [0.7, 0.7, 0.1]), {}),
    ("multivariate_normal", ([0, 0], [[1, 0]]), {}),
    ("multivariate_normal", ([0, 0, 0], [[1, 0], [0, 1]]), {}),
    ("gumbel", (0, -1), {}),
    ("pareto", (0,), {}),
    ("power", (-1,), {}),
    ("rayleigh", (-1,), {}),
    ("f", (0, 1), {}),
    ("f", (1, 0), {}),
    ("negative_binomial", (0, 0.5), {}),
    ("negative_binomial", (np.nan, 0.5), {}),
    ("negative_binomial", (1, 0), {}),
    ("negative_binomial", (1, 1.5), {}),
]


@_error_cases(GEN_ERRORS)
def test_generator_errors_as_numpy(name, args, kwargs):
    _assert_same_error(np.random.default_rng, gr.default_rng, name, args, kwargs)


LEGACY_ERRORS = [
    ("randint", (0,), {}),
    ("randint", (5, 3), {}),
    ("randint", (5,), {"dtype": np.float32}),
    ("normal", (0, -1), {}),
    ("poisson", (-1,), {}),
    ("binomial", (5, 1.5), {}),
    ("geometric", (0,), {}),
    ("choice", (0, 3), {}),
    ("choice", ([[1, 2]],), {}),
    ("choice", (2.5,), {}),
    ("choice", (5, 6), {"replace": False}),
    ("choice", (3,), {"p": [0.5, 0.5]}),
    ("choice", (2,), {"p": [0.7, 0.7]}),
    ("choice", (2,), {"p": [-1, 2]}),
    ("choice", ([1, 2, 3],), {"p": [[0.5, 0.5, 0]]}),
    ("multinomial", (5, [0.7, 0.7, 0.1]), {}),
    ("negative_binomial", (0, 0.5), {}),
    ("negative_binomial", (1, 1.5), {}),
]


@_error_cases(LEGACY_ERRORS)
def test_random_state_errors_as_numpy(name, args, kwargs):
    _assert_same_error(np.random.RandomState, gr.RandomState, name, args, kwargs)


@pytest.mark.parametrize("seed", [-1, 1.5, "abc", [1, -2]])
def test_bad_seeds_as_numpy(seed):
    assert _outcome(gr.default_rng, seed) == _outcome(np.random.default_rng, seed)
    assert _outcome(gr.default_rng, seed) is not None


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5])
def test_bad_legacy_seeds_as_numpy(seed):
    expected = _outcome(np.random.RandomState, seed)
    assert expected is not None
    assert _outcome(gr.RandomState, seed) == expected


def test_seed_keys_distinct():
    keys = {gr.default_rng(s)._stream.key for s in range(1000)}
    assert len(keys) == 1000
    assert gr.default_rng(7)._stream.key == gr.default_rng(7)._stream.key
    assert gr.default_rng(None)._stream.key != gr.default_rng(None)._stream.key


def test_counter_past_32_bits_changes_key():
    s = gr._generator._Stream(123)
    s.calls = 2**32 - 1
    k0, c0 = s.next()
    k1, c1 = s.next()
    assert (k0, c0) == (123, 2**32 - 1)
    assert c1 == 0 and k1 != 123


def test_default_rng_returns_generator_unaltered():
    g = gr.default_rng(3)
    assert gr.default_rng(g) is g
    assert isinstance(g, gr.Generator)


def test_module_functions_present():
    for name in ["seed", "random", "random_sample", "rand", "randn", "uniform", "normal",
                 "standard_normal", "randint", "integers", "choice", "permutation", "shuffle",
                 "beta", "binomial", "exponential", "gamma", "geometric", "lognormal",
                 "poisson", "chisquare", "laplace", "logistic", "multinomial",
                 "multivariate_normal", "standard_exponential", "standard_gamma",
                 "standard_t", "triangular", "weibull", "default_rng", "RandomState",
                 "Generator"]:
        if name == "integers":
            assert hasattr(gr.Generator, name)
            continue
        assert callable(getattr(gr, name)), name


# ---- device tests ------------------------------------------------------------------------

def _h(x):
    return ga.asnumpy(x)


@gpu_test
@pytest.mark.parametrize("method,args", [
    ("random", ((1000,),)), ("standard_normal", ((1001,),)), ("integers", (0, 10**12, 999)),
    ("gamma", (0.7, 1.0, 513)), ("poisson", (30.0, 777)), ("binomial", (40, 0.3, 333)),
    ("permutation", (1000,)), ("choice", (50, 20, False)), ("exponential", (2.0, 11)),
])
def test_reproducible(method, args):
    a = [_h(getattr(gr.default_rng(42), method)(*args)) for _ in range(2)]
    np.testing.assert_array_equal(a[0], a[1])
    b = _h(getattr(gr.default_rng(43), method)(*args))
    assert not np.array_equal(a[0], b)
    g = gr.default_rng(42)
    first = _h(getattr(g, method)(*args))
    second = _h(getattr(g, method)(*args))
    np.testing.assert_array_equal(first, a[0])
    assert not np.array_equal(first, second)


@gpu_test
def test_generators_independent_and_prefix_stable():
    g1, g2 = gr.default_rng(1), gr.default_rng(1)
    g1.random(10)  # advancing g1 does not touch g2
    np.testing.assert_array_equal(_h(g2.random(10)), _h(gr.default_rng(1).random(10)))
    # element i depends only on (seed, call, i): a longer draw starts with the shorter one
    for fn in ("random", "standard_normal", "standard_exponential"):
        for dt in (np.float32, np.float64):
            long = _h(getattr(gr.default_rng(5), fn)(1003, dtype=dt))
            short = _h(getattr(gr.default_rng(5), fn)(7, dtype=dt))
            np.testing.assert_array_equal(long[:7], short)
    long = _h(gr.default_rng(5).integers(0, 100, 1000))
    np.testing.assert_array_equal(long[:9], _h(gr.default_rng(5).integers(0, 100, 9)))


@gpu_test
def test_module_seed_and_state():
    gr.seed(5)
    a = _h(gr.rand(3, 4))
    gr.seed(5)
    b = _h(gr.rand(3, 4))
    np.testing.assert_array_equal(a, b)
    assert a.shape == (3, 4) and a.dtype == np.float64
    rs = gr.RandomState(9)
    gr.set_random_state(rs)
    assert gr.get_random_state() is rs
    np.testing.assert_array_equal(_h(gr.randn(5)), _h(gr.RandomState(9).randn(5)))
    with pytest.raises(TypeError):
        gr.set_random_state(object())
    gr.reset_states()
    assert gr.get_random_state() is not rs


@gpu_test
@pytest.mark.parametrize("fn", ["random", "standard_normal", "standard_exponential"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("size", [None, 0, 1, 5, (3, 0), (2, 3, 4), 12345])
def test_float_dtype_shape(fn, dt, size):
    x = getattr(gr.default_rng(0), fn)(size, dtype=dt)
    assert isinstance(x, ga.ndarray)
    shape = () if size is None else ((size,) if isinstance(size, int) else size)
    assert x.shape == shape and x.dtype == dt
    h = _h(x)
    assert np.all(np.isfinite(h))
    if fn == "random":
        assert np.all((h >= 0) & (h < 1))
    if fn == "standard_exponential":
        assert np.all(h >= 0)


@gpu_test
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_out_argument(dt):
    out = ga.empty((4, 5), dtype=dt)
    r = gr.default_rng(0).random(out=out, dtype=dt)  # out's dtype must match (NumPy)
    assert r is out
    np.testing.assert_array_equal(_h(out), _h(gr.default_rng(0).random((4, 5), dtype=dt)))
    with pytest.raises(TypeError):
        gr.default_rng(0).random(out=ga.empty(3, dtype=np.float16 if dt == np.float32 else dt),
                                 dtype=np.float32)
    with pytest.raises(ValueError, match="size must match"):
        gr.default_rng(0).standard_normal(size=3, out=ga.empty(4, dtype=np.float64))
    with pytest.raises(ValueError, match="contiguous"):
        gr.default_rng(0).random(out=ga.empty(6, dtype=np.float64)[::2])


INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
              np.uint64, np.bool_]


@gpu_test
@pytest.mark.parametrize("dt", INT_DTYPES)
@pytest.mark.parametrize("endpoint", [False, True])
def test_integers_dtypes_full_range(dt, endpoint):
    if dt is np.bool_:
        lo, hi = 0, 1
    else:
        info = np.iinfo(dt)
        lo, hi = int(info.min), int(info.max)
    x = gr.default_rng(1).integers(lo, hi if endpoint else hi + 1 if dt is not np.bool_ else 2,
                                   size=20000, dtype=dt, endpoint=endpoint)
    h = _h(x)
    assert h.dtype == np.dtype(dt) and h.shape == (20000,)
    if np.dtype(dt).itemsize <= 1:
        assert len(np.unique(h)) == (2 if dt is np.bool_ else 256)
    else:  # both halves of the range show up
        assert (h.astype(np.float64) > (lo + hi) / 2).any() and \
            (h.astype(np.float64) < (lo + hi) / 2).any()


@gpu_test
@needs_scipy
@pytest.mark.parametrize("lo,hi", [(0, 10), (-7, 3), (5, 6), (0, 2**33 + 5), (-2**62, 2**62)])
def test_integers_uniform(lo, hi):
    h = _h(gr.default_rng(2).integers(lo, hi, N))
    assert h.min() >= lo and h.max() < hi
    if hi - lo == 1:
        assert np.all(h == lo)
    elif hi - lo <= 10:
        counts = np.bincount(h - lo, minlength=hi - lo)
        assert st.chisquare(counts).pvalue > P_MIN
    else:
        u = (h.astype(np.float64) - lo) / (hi - lo)
        assert st.kstest(u, "uniform").pvalue > P_MIN
    assert _h(gr.default_rng(2).integers(3, 3, 10, endpoint=True)).tolist() == [3] * 10
    assert _h(gr.RandomState(2).randint(4, size=5)).dtype == np.int64


def _ks(sample, cdf_name, *args):
    # A frozen distribution's cdf: SciPy 1.18 maps some names to special functions that
    # take no loc/scale arguments.
    cdf = getattr(st, cdf_name)(*args).cdf
    return st.kstest(np.asarray(sample, dtype=np.float64), cdf).pvalue


CONTINUOUS = [
    ("random", (), "uniform", ()),
    ("uniform", (-2.0, 3.0), "uniform", (-2.0, 5.0)),
    ("standard_normal", (), "norm", ()),
    ("normal", (1.5, 2.0), "norm", (1.5, 2.0)),
    ("standard_exponential", (), "expon", ()),
    ("exponential", (3.0,), "expon", (0, 3.0)),
    ("standard_gamma", (0.3,), "gamma", (0.3,)),
    ("standard_gamma", (1.0,), "gamma", (1.0,)),
    ("standard_gamma", (4.5,), "gamma", (4.5,)),
    ("gamma", (2.5, 0.5), "gamma", (2.5, 0, 0.5)),
    ("beta", (0.5, 2.0), "beta", (0.5, 2.0)),
    ("beta", (3.0, 3.0), "beta", (3.0, 3.0)),
    ("chisquare", (3.0,), "chi2", (3.0,)),
    ("standard_t", (4.0,), "t", (4.0,)),
    ("laplace", (1.0, 2.0), "laplace", (1.0, 2.0)),
    ("logistic", (-1.0, 0.5), "logistic", (-1.0, 0.5)),
    ("lognormal", (0.2, 0.7), "lognorm", (0.7, 0, np.exp(0.2))),
    ("weibull", (1.7,), "weibull_min", (1.7,)),
    ("triangular", (-1.0, 0.5, 2.0), "triang", (0.5, -1.0, 3.0)),
    ("gumbel", (0.5, 2.0), "gumbel_r", (0.5, 2.0)),
    ("pareto", (3.0,), "lomax", (3.0,)),
    ("power", (2.5,), "powerlaw", (2.5,)),
    ("rayleigh", (1.5,), "rayleigh", (0, 1.5)),
    ("standard_cauchy", (), "cauchy", ()),
    ("f", (5.0, 7.0), "f", (5.0, 7.0)),
]


@gpu_test
@needs_scipy
@pytest.mark.parametrize("method,args,dist,dargs", CONTINUOUS,
                         ids=[f"{m}-{i}" for i, (m, *_) in enumerate(CONTINUOUS)])
def test_continuous_ks(method, args, dist, dargs):
    x = getattr(gr.default_rng(11), method)(*args, size=N)
    assert x.dtype == np.float64 and x.shape == (N,)
    assert _ks(_h(x), dist, *dargs) > P_MIN


@gpu_test
@needs_scipy
@pytest.mark.parametrize("method,args,dist,dargs", [
    ("random", (), "uniform", ()), ("standard_normal", (), "norm", ()),
    ("standard_exponential", (), "expon", ()), ("standard_gamma", (2.0,), "gamma", (2.0,)),
])
def test_float32_ks(method, args, dist, dargs):
    x = getattr(gr.default_rng(12), method)(*args, size=N, dtype=np.float32)
    assert x.dtype == np.float32
    assert _ks(_h(x), dist, *dargs) > P_MIN


@gpu_test
@needs_scipy
def test_array_parameters_broadcast():
    g = gr.default_rng(3)
    loc = np.array([0.0, 10.0, -5.0])
    x = _h(g.normal(loc, [1.0, 2.0, 0.5], size=(N // 3, 3)))
    assert x.shape == (N // 3, 3)
    for j, (m, s) in enumerate([(0, 1), (10, 2), (-5, 0.5)]):
        assert _ks(x[:, j], "norm", m, s) > P_MIN
    k = _h(g.standard_gamma(ga.asarray([[0.5], [5.0]]), size=(2, N // 2)))
    assert _ks(k[0], "gamma", 0.5) > P_MIN and _ks(k[1], "gamma", 5.0) > P_MIN
    lam = _h(g.poisson(ga.asarray([2.0, 200.0]), size=(N // 2, 2)))
    assert abs(lam[:, 0].mean() - 2.0) < 5 * np.sqrt(2.0 / (N // 2))
    assert abs(lam[:, 1].mean() - 200.0) < 5 * np.sqrt(200.0 / (N // 2))
    u = _h(g.uniform(ga.zeros(4), ga.asarray([1.0, 2.0, 3.0, 4.0])))
    assert u.shape == (4,) and np.all(u >= 0) and np.all(u < [1, 2, 3, 4])
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0.0, ga.asarray([1.0, -1.0]))


def _chi2_discrete(sample, pmf):
    """Chi-square of the sample's counts against pmf(k), pooling cells below 5 expected."""
    sample = np.asarray(sample)
    ks = np.arange(sample.min(), sample.max() + 1)
    obs = np.bincount(sample - ks[0], minlength=len(ks)).astype(np.float64)
    exp = pmf(ks) * len(sample)
    keep = exp >= 5
    o = np.append(obs[keep], obs[~keep].sum())
    e = np.append(exp[keep], len(sample) - exp[keep].sum())
    if e[-1] < 5:
        o[-2] += o[-1]
        e[-2] += e[-1]
        o, e = o[:-1], e[:-1]
    return st.chisquare(o, e * o.sum() / e.sum()).pvalue


DISCRETE = [
    ("poisson", (0.5,), lambda k: st.poisson.pmf(k, 0.5)),
    ("poisson", (7.0,), lambda k: st.poisson.pmf(k, 7.0)),
    ("poisson", (45.0,), lambda k: st.poisson.pmf(k, 45.0)),
    ("poisson", (5000.0,), lambda k: st.poisson.pmf(k, 5000.0)),
    ("binomial", (10, 0.3), lambda k: st.binom.pmf(k, 10, 0.3)),
    ("binomial", (200, 0.02), lambda k: st.binom.pmf(k, 200, 0.02)),
    ("binomial", (1000, 0.4), lambda k: st.binom.pmf(k, 1000, 0.4)),
    ("binomial", (500, 0.93), lambda k: st.binom.pmf(k, 500, 0.93)),
    ("geometric", (0.3,), lambda k: st.geom.pmf(k, 0.3)),
    ("geometric", (0.01,), lambda k: st.geom.pmf(k, 0.01)),
    ("negative_binomial", (3.5, 0.4), lambda k: st.nbinom.pmf(k, 3.5, 0.4)),
]


@gpu_test
@needs_scipy
@pytest.mark.parametrize("method,args,pmf", DISCRETE,
                         ids=[f"{m}-{a}" for m, a, _ in DISCRETE])
def test_discrete_chi2(method, args, pmf):
    x = getattr(gr.default_rng(21), method)(*args, size=N)
    assert x.dtype == np.int64 and x.shape == (N,)
    assert _chi2_discrete(_h(x), pmf) > P_MIN


@gpu_test
def test_integers_array_bounds():
    g = gr.default_rng(13)
    lo = np.array([0, -5, 1])
    hi = np.array([[3], [10], [101]])
    x = _h(g.integers(lo, hi, size=(3, 3), dtype=np.int16))
    assert x.shape == (3, 3) and x.dtype == np.int16
    assert np.all((x >= lo) & (x < hi))
    z = _h(g.integers(lo, hi, size=(2000, 3, 3), dtype=np.int16))
    assert np.all((z >= lo) & (z < hi))
    np.testing.assert_array_equal(z.min(axis=0), np.broadcast_to(lo, (3, 3)))
    np.testing.assert_array_equal(z.max(axis=0), np.broadcast_to(hi - 1, (3, 3)))
    y = _h(g.integers(np.zeros(N // 10, dtype=np.int64), 2**40, endpoint=True))
    assert y.min() >= 0 and y.max() <= 2**40 and y.max() > 2**39


@gpu_test
def test_discrete_edges():
    g = gr.default_rng(4)
    assert _h(g.poisson(0.0, 10)).tolist() == [0] * 10
    assert _h(g.binomial(7, 0.0, 10)).tolist() == [0] * 10
    assert _h(g.binomial(7, 1.0, 10)).tolist() == [7] * 10
    assert _h(g.binomial(0, 0.5, 10)).tolist() == [0] * 10
    assert _h(g.geometric(1.0, 10)).tolist() == [1] * 10
    assert np.all(_h(g.standard_gamma(0.0, 10)) == 0)
    assert np.all(_h(g.weibull(0.0, 10)) == 0)
    b = _h(g.binomial(ga.asarray([5.0, 50.0]), ga.asarray([0.5, 0.99]), size=(1000, 2)))
    assert b[:, 0].max() <= 5 and b[:, 1].max() <= 50 and b.min() >= 0


@gpu_test
def test_moments_within_5_sigma():
    g = gr.default_rng(8)
    for x, mean, var in [
        (g.gamma(3.0, 2.0, N), 6.0, 12.0),
        (g.poisson(12.0, N), 12.0, 12.0),
        (g.binomial(60, 0.25, N), 15.0, 11.25),
        (g.standard_normal(N, dtype=np.float32), 0.0, 1.0),
    ]:
        h = _h(x).astype(np.float64)
        assert abs(h.mean() - mean) < 5 * np.sqrt(var / N)
        assert abs(h.var() - var) < 5 * var * np.sqrt(2.0 / N) * 1.5


@gpu_test
@pytest.mark.parametrize("n", [0, 1, 2, 17, 5000])
def test_permutation_int(n):
    p = _h(gr.default_rng(0).permutation(n))
    assert p.dtype == np.int64
    np.testing.assert_array_equal(np.sort(p), np.arange(n))
    if n >= 17:
        assert not np.array_equal(p, np.arange(n))


@gpu_test
@needs_scipy
def test_permutation_uniform():
    # Every ordering of 4 elements about equally often over many calls, and for n = 37 (a
    # cipher domain of 64 compacted to 37) every value about equally often at every
    # position: chi-square tests at p = 1e-5.
    g = gr.default_rng(11)
    calls = 4800
    counts = {}
    for _ in range(calls):
        k = tuple(_h(g.permutation(4)).tolist())
        counts[k] = counts.get(k, 0) + 1
    assert len(counts) == 24
    obs = np.array(list(counts.values()), dtype=float)
    assert st.chisquare(obs).pvalue > 1e-5
    n, calls = 37, 1500
    at = np.zeros((n, n))
    for _ in range(calls):
        at[np.arange(n), _h(g.permutation(n))] += 1
    chi2 = ((at - calls / n) ** 2 / (calls / n)).sum()
    assert st.chi2.sf(chi2, (n - 1) ** 2) > 1e-5
    big = _h(g.permutation((1 << 21) + 5))
    np.testing.assert_array_equal(np.sort(big), np.arange((1 << 21) + 5))


@gpu_test
def test_permutation_and_shuffle_arrays():
    h = np.arange(60.0).reshape(10, 6)
    d = ga.asarray(h)
    p = _h(gr.default_rng(1).permutation(d))
    assert p.shape == h.shape
    np.testing.assert_array_equal(np.sort(p[:, 0]), h[:, 0])
    np.testing.assert_array_equal(p - p[:, :1], h - h[:, :1])  # rows kept whole
    np.testing.assert_array_equal(_h(d), h)  # the input is untouched
    pa = _h(gr.default_rng(1).permutation(d, axis=1))
    np.testing.assert_array_equal(np.sort(pa, axis=1), h)
    gr.default_rng(2).shuffle(d)
    s = _h(d)
    assert not np.array_equal(s, h)
    np.testing.assert_array_equal(np.sort(s[:, 0]), h[:, 0])
    np.testing.assert_array_equal(s - s[:, :1], h - h[:, :1])
    v = ga.asarray(np.arange(20)[::-2])  # a negative-stride view shuffles in place
    gr.RandomState(0).shuffle(v)
    assert sorted(_h(v).tolist()) == list(range(1, 20, 2))
    with pytest.raises(TypeError):
        gr.default_rng(0).shuffle(np.arange(3))


@gpu_test
@needs_scipy
def test_choice():
    g = gr.default_rng(6)
    x = _h(g.choice(5, N))
    assert x.dtype == np.int64 and x.min() >= 0 and x.max() < 5
    assert st.chisquare(np.bincount(x, minlength=5)).pvalue > P_MIN
    p = np.array([0.1, 0.0, 0.6, 0.3])
    y = _h(g.choice(4, N, p=p))
    counts = np.bincount(y, minlength=4)
    assert counts[1] == 0
    assert st.chisquare(counts[[0, 2, 3]], p[[0, 2, 3]] * N).pvalue > P_MIN
    z = _h(g.choice(100, 40, replace=False))
    assert len(np.unique(z)) == 40 and z.max() < 100
    w = _h(g.choice(4, 3, replace=False, p=p))
    assert sorted(w.tolist()) == [0, 2, 3]
    a = ga.asarray(np.arange(10.0) * 3)
    c = _h(g.choice(a, (2, 3)))
    assert c.shape == (2, 3) and np.all(np.isin(c, np.arange(10.0) * 3))
    assert _h(g.choice(5)).shape == ()
    assert _h(g.choice(0, 0)).shape == (0,)
    rows = _h(g.choice(ga.asarray(np.arange(12).reshape(4, 3)), 2, replace=False))
    assert rows.shape == (2, 3) and np.all(rows % 3 == [0, 1, 2])


@gpu_test
def test_multinomial():
    g = gr.default_rng(9)
    pv = [0.2, 0.5, 0.3]
    m = _h(g.multinomial(20, pv, size=(N // 10,)))
    assert m.shape == (N // 10, 3) and m.dtype == np.int64
    assert np.all(m.sum(axis=1) == 20) and m.min() >= 0
    mean = m.mean(axis=0)
    sd = np.sqrt(20 * np.array(pv) * (1 - np.array(pv)) / (N // 10))
    assert np.all(np.abs(mean - 20 * np.array(pv)) < 5 * sd)
    assert _h(g.multinomial(7, [1.0])).tolist() == [7]


@gpu_test
def test_multivariate_normal():
    g = gr.default_rng(10)
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 0.7]])
    for method in ("svd", "cholesky", "eigh"):
        x = _h(g.multivariate_normal(mean, cov, size=N, method=method))
        assert x.shape == (N, 3)
        np.testing.assert_allclose(x.mean(axis=0), mean, atol=5 * np.sqrt(2.0 / N))
        np.testing.assert_allclose(np.cov(x.T), cov, atol=0.05)  # ~5 sigma
    with pytest.warns(RuntimeWarning):
        g.multivariate_normal([0, 0], [[1, 2], [2, 1]])


# ---- host tests of the Python layer on a NumPy-backed stand-in for the device ------------
# The GPU-only paths (shapes, broadcasting of array parameters, composite distributions,
# choice/permutation plumbing) run here against a fake device module whose arrays are a
# NumPy subclass and whose kernels draw from NumPy; the real kernels are tested above.

class _FakeArray(np.ndarray):
    def get(self):
        return np.asarray(self)


def _fake_modules():
    import types

    fake = types.SimpleNamespace(**{n: getattr(np, n) for n in dir(np) if not n.startswith("_")})
    fake.ndarray = _FakeArray

    def wrap(fn):
        return lambda *a, **k: np.asarray(fn(*a, **k)).view(_FakeArray)

    for n in ("empty", "zeros", "full", "asarray", "ascontiguousarray", "take", "argsort",
              "searchsorted", "reshape", "broadcast_to", "where"):
        setattr(fake, n, wrap(getattr(np, n)))

    def rng(key, call):
        return np.random.default_rng([key, call])

    def param(p, out):
        if isinstance(p, np.ndarray):
            assert p.dtype == np.float64 and p.flags.c_contiguous and p.shape == out.shape
        return p

    core = types.SimpleNamespace(
        _random_uniform=lambda o, k, c, lo, hi: o.__setitem__(
            ..., rng(k, c).uniform(lo, hi, o.shape)),
        _random_normal=lambda o, k, c, m, s: o.__setitem__(..., rng(k, c).normal(m, s, o.shape)),
        _random_exponential=lambda o, k, c, s: o.__setitem__(
            ..., rng(k, c).exponential(s, o.shape)),
        _random_permutation=lambda o, k, c: o.__setitem__(..., rng(k, c).permutation(o.size)),
        _random_gamma=lambda o, k, c, a, s: o.__setitem__(
            ..., s * rng(k, c).standard_gamma(param(a, o), o.shape)),
        _random_poisson=lambda o, k, c, lam: o.__setitem__(
            ..., rng(k, c).poisson(param(lam, o), o.shape)),
        _random_binomial=lambda o, k, c, n, p: o.__setitem__(
            ..., rng(k, c).binomial(np.asarray(param(n, o)).astype(np.int64), param(p, o),
                                    o.shape)),
        _random_integers_array=lambda o, k, c, low, rng_: o.__setitem__(
            ..., ((rng(k, c).integers(0, rng_.astype(np.uint64), o.shape, dtype=np.uint64,
                                      endpoint=True) + low).astype(o.dtype))),
        _random_integers=lambda o, k, c, low, rng_: o.__setitem__(
            ..., ((rng(k, c).integers(0, rng_, o.shape, dtype=np.uint64, endpoint=True)
                   + np.uint64(low)).astype(o.dtype))),
    )
    return fake, core


@pytest.fixture
def fake_device(monkeypatch):
    import _device_standin

    fake, core = _fake_modules()
    names = _device_standin.defined_names()
    _device_standin.install(monkeypatch, {n: v for n, v in vars(fake).items() if n in names})
    _device_standin.install(monkeypatch, vars(core))
    return fake


FAKE_CASES = [
    ("random", ((2, 3),), (2, 3), "f8"),
    ("random", (None,), (), "f8"),
    ("uniform", (-1.0, [1.0, 2.0]), (2,), "f8"),
    ("uniform", (0.0, 1.0, (4,)), (4,), "f8"),
    ("normal", ([0.0, 1.0], 2.0, (3, 2)), (3, 2), "f8"),
    ("normal", (0.0, 1.0, 5), (5,), "f8"),
    ("standard_normal", (7,), (7,), "f8"),
    ("lognormal", (0.0, [0.5, 1.0]), (2,), "f8"),
    ("exponential", ([1.0, 2.0],), (2,), "f8"),
    ("standard_exponential", ((2, 2),), (2, 2), "f8"),
    ("standard_gamma", ([0.5, 2.0], (3, 2)), (3, 2), "f8"),
    ("gamma", (2.0, [1.0, 3.0]), (2,), "f8"),
    ("beta", (0.5, [1.0, 2.0]), (2,), "f8"),
    ("chisquare", ([2.0, 3.0],), (2,), "f8"),
    ("standard_t", (3.0, 6), (6,), "f8"),
    ("laplace", (0.0, [1.0, 2.0]), (2,), "f8"),
    ("logistic", (0.0, 1.0, 4), (4,), "f8"),
    ("weibull", ([0.0, 2.0],), (2,), "f8"),
    ("weibull", (0.0, 3), (3,), "f8"),
    ("triangular", (0.0, [0.5, 1.0], 2.0), (2,), "f8"),
    ("poisson", ([1.0, 50.0], (5, 2)), (5, 2), "i8"),
    ("binomial", ([5, 10], 0.5), (2,), "i8"),
    ("geometric", ([0.5, 1.0],), (2,), "i8"),
    ("integers", (-3, 4, (3, 3)), (3, 3), "i8"),
    ("permutation", (6,), (6,), "i8"),
    ("choice", (5, 4), (4,), "i8"),
    ("multinomial", (10, [0.2, 0.3, 0.5], 4), (4, 3), "i8"),
    ("multivariate_normal", ([0.0, 1.0], [[1.0, 0.2], [0.2, 1.0]], 5), (5, 2), "f8"),
    ("exponential", (2.0, 3), (3,), "f8"),
    ("gamma", (2.0, 2.0, 3), (3,), "f8"),
    ("poisson", (3.0, (2, 2)), (2, 2), "i8"),
    ("binomial", (7, 0.9, 4), (4,), "i8"),
    ("geometric", (0.2, 3), (3,), "i8"),
    ("choice", (3, (2, 2), True, [0.2, 0.3, 0.5]), (2, 2), "i8"),
    ("standard_t", ([2.0, 5.0],), (2,), "f8"),
    ("chisquare", (2.0, 4), (4,), "f8"),
    ("gumbel", (0.0, [1.0, 2.0]), (2,), "f8"),
    ("pareto", (2.0, 3), (3,), "f8"),
    ("power", ([2.0, 3.0],), (2,), "f8"),
    ("rayleigh", (1.0, 3), (3,), "f8"),
    ("standard_cauchy", (3,), (3,), "f8"),
    ("f", (2.0, [3.0, 4.0]), (2,), "f8"),
    ("negative_binomial", (3.0, 0.5, 4), (4,), "i8"),
    ("negative_binomial", ([3.0, 1.0], [0.5, 1.0]), (2,), "i8"),
]


@pytest.mark.parametrize("method,args,shape,dt", FAKE_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(FAKE_CASES)])
def test_python_layer_on_fake_device(fake_device, method, args, shape, dt):
    x = getattr(gr.default_rng(0), method)(*args)
    assert isinstance(x, _FakeArray), type(x)
    assert x.shape == shape and x.dtype == np.dtype(dt)
    assert np.all(np.isfinite(x))


def test_python_layer_values_on_fake_device(fake_device):
    g = gr.default_rng(1)
    assert np.all(g.weibull([0.0, 0.0]) == 0)
    assert np.all(g.geometric(1.0, 5) == 1)
    m = g.multinomial(10, [0.2, 0.3, 0.5], 50)
    assert np.all(m.sum(axis=1) == 10)
    t = g.triangular(0.0, [0.5, 1.0], 2.0, (1000, 2))
    assert np.all((t >= 0) & (t <= 2))
    i = g.integers(-3, 4, 1000, dtype=np.int8)
    assert i.dtype == np.int8 and i.min() >= -3 and i.max() <= 3
    a = g.integers([0, -5], [[3], [10]], dtype=np.int16)
    assert a.shape == (2, 2) and a.dtype == np.int16 and a.min() >= -5
    assert np.all(a[:, 0] >= 0) and np.all(a[0] < 3)
    b = g.integers([[0], [100]], 256, size=(2, 50), dtype=np.uint8)
    assert b.shape == (2, 50) and b[1].min() >= 100
    u = g.integers(0, 2**64, 10, dtype=np.uint64)
    assert u.dtype == np.uint64
    p = g.permutation(fake_device.asarray(np.arange(12).reshape(4, 3)))
    assert sorted(p[:, 0].tolist()) == [0, 3, 6, 9]
    s = fake_device.asarray(np.arange(10))
    g.shuffle(s)
    assert sorted(s.tolist()) == list(range(10))
    c = g.choice(fake_device.asarray(np.arange(5.0)), (2, 2), replace=False)
    assert c.shape == (2, 2) and len(set(c.ravel().tolist())) == 4
    w = g.choice(4, 3, replace=False, p=[0.1, 0.0, 0.6, 0.3])
    assert sorted(w.tolist()) == [0, 2, 3]
    pc = g.choice(3, 2000, p=[0.0, 0.5, 0.5])
    assert pc.min() >= 1 and pc.max() <= 2
    assert g.choice(5).shape == ()
    out = fake_device.empty((3,), np.float32)
    assert g.standard_gamma(2.0, out=out, dtype=np.float32) is out
    rs = gr.RandomState(3)
    assert rs.uniform(0, 2, 5, dtype=np.float32).dtype == np.float32
    assert rs.uniform([0, 1], 2, dtype=np.float32).dtype == np.float32
    assert rs.normal(0, 1, 5, dtype=np.float32).dtype == np.float32
    assert rs.normal([0, 1], 1, dtype=np.float32).dtype == np.float32
    assert rs.random_sample(3, dtype=np.float32).dtype == np.float32
    assert rs.exponential(1.0, 3, dtype=np.float32).dtype == np.float32
    assert rs.gamma(1.0, 2.0, 3, dtype=np.float32).dtype == np.float32
    assert rs.permutation(5).shape == (5,) and rs.choice(5, 2).shape == (2,)
    assert rs.rand(2, 3).shape == (2, 3) and rs.randn(4).shape == (4,)
    assert rs.randint(5, size=7).dtype == np.int64
    assert rs.random_integers(3, size=100).min() >= 1
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0.0, fake_device.asarray(np.array([1.0, -1.0])))
    with pytest.raises(ValueError, match="left > mode"):
        g.triangular(fake_device.asarray(np.array([2.0])), 1.0, 3.0)
