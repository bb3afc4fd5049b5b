"""cov, corrcoef, histogram2d and histogramdd against NumPy, on the device and (host-side)
with NumPy standing in for the device."""

import numpy as np
import pytest

import gpuarr as ga
from _numpy_composed import check, same_outcome, xp  # noqa: F401  (xp is a fixture)
from conftest import dtype_id


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128],
                         ids=dtype_id)
def test_cov_corrcoef(xp, rng, dtype):
    h = (rng.standard_normal((3, 20)) * 10).astype(dtype)
    if np.dtype(dtype).kind == "c":
        h = h + 1j * rng.standard_normal((3, 20))
    y = rng.standard_normal((2, 20))
    d, dy = xp.dev(h), xp.dev(y)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    fw = rng.integers(0, 4, 20)
    aw = rng.uniform(0.1, 2.0, 20)
    cases = [
        ({}, {}), ({"rowvar": False}, {}), ({"bias": True}, {}), ({"ddof": 3}, {}),
        ({"fweights": fw}, {}), ({"aweights": aw}, {}), ({"fweights": fw, "aweights": aw}, {}),
        ({"fweights": fw, "aweights": aw, "ddof": 0}, {}), ({"dtype": np.float32}, {}),
    ]
    for kwargs, _ in cases:
        dk = {k: (xp.dev(v) if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}
        # A float32 result is rounded in float32 (its sums in another order than NumPy's).
        tol = 1e-4 if kwargs.get("dtype") == np.float32 else rtol
        same_outcome(xp, lambda: np.cov(h, **kwargs), lambda: ga.cov(d, **dk),
                     rtol=tol, atol=tol)
    same_outcome(xp, lambda: np.cov(h, y), lambda: ga.cov(d, dy), rtol=rtol, atol=rtol)
    same_outcome(xp, lambda: np.cov(h.T, y.T, rowvar=False), lambda: ga.cov(d.T, dy.T,
                                                                           rowvar=False),
                 rtol=rtol, atol=rtol)
    same_outcome(xp, lambda: np.cov(h[0]), lambda: ga.cov(d[0]), rtol=rtol, atol=rtol)
    same_outcome(xp, lambda: np.cov(h[0], y[1]), lambda: ga.cov(d[0], dy[1]), rtol=rtol,
                 atol=rtol)
    same_outcome(xp, lambda: np.corrcoef(h), lambda: ga.corrcoef(d), rtol=rtol, atol=rtol)
    same_outcome(xp, lambda: np.corrcoef(h[::-1, ::2], y[:, ::2]),
                 lambda: ga.corrcoef(d[::-1, ::2], dy[:, ::2]), rtol=rtol, atol=rtol)
    same_outcome(xp, lambda: np.corrcoef(h.T, rowvar=False), lambda: ga.corrcoef(d.T,
                                                                                 rowvar=False),
                 rtol=rtol, atol=rtol)


def test_cov_errors_and_edges(xp, rng):
    h = rng.standard_normal((3, 6))
    d = xp.dev(h)
    for kwargs in ({"ddof": 1.5}, {"fweights": np.array([1.5] * 6)},
                   {"fweights": np.ones((2, 6))}, {"fweights": np.ones(5)},
                   {"fweights": -np.ones(6)}, {"aweights": np.ones((2, 6))},
                   {"aweights": np.ones(5)}, {"aweights": -np.ones(6)}):
        dk = {k: (xp.dev(v) if isinstance(v, np.ndarray) else v) for k, v in kwargs.items()}
        same_outcome(xp, lambda: np.cov(h, **kwargs), lambda: ga.cov(d, **dk))
    same_outcome(xp, lambda: np.cov(np.zeros((2, 2, 2))), lambda: ga.cov(xp.dev(np.zeros((2, 2,
                                                                                           2)))))
    same_outcome(xp, lambda: np.cov(h, np.zeros((2, 2, 2))),
                 lambda: ga.cov(d, xp.dev(np.zeros((2, 2, 2)))))
    same_outcome(xp, lambda: np.cov(np.zeros((0, 4))), lambda: ga.cov(xp.dev(np.zeros((0, 4)))))
    with np.errstate(all="ignore"):
        with pytest.warns(RuntimeWarning):
            expected = np.cov(h[:, :1])
        with pytest.warns(RuntimeWarning):
            got = ga.cov(d[:, :1])
    check(xp, got, expected)


def test_histogramdd(xp, rng):
    sample = rng.standard_normal((200, 3))
    sample[0] = [4.0, -4.0, 0.0]
    ds = xp.dev(sample)
    w = rng.uniform(0, 2, 200)
    cases = [
        {}, {"bins": 4}, {"bins": (3, 4, 5)}, {"bins": [np.array([-1, 0, 0.5, 2.0]), 3, 2]},
        {"range": [(-1, 1), (-2, 2), (0, 1)]}, {"density": True}, {"weights": w},
        {"weights": w, "density": True, "bins": 5},
    ]
    for kwargs in cases:
        dk = {k: (xp.dev(v) if k == "weights" else v) for k, v in kwargs.items()}
        same_outcome(xp, lambda: np.histogramdd(sample, **kwargs),
                     lambda: ga.histogramdd(ds, **dk), rtol=1e-12, atol=1e-12)
    same_outcome(xp, lambda: np.histogramdd(sample.T[::-1].T.copy()),
                 lambda: ga.histogramdd(ds.T[::-1].T), rtol=1e-12)
    same_outcome(xp, lambda: np.histogramdd([sample[:, 0], sample[:, 1]], bins=3),
                 lambda: ga.histogramdd([ds[:, 0], ds[:, 1]], bins=3), rtol=1e-12)
    same_outcome(xp, lambda: np.histogramdd(sample[:, 0], bins=6),
                 lambda: ga.histogramdd(ds[:, 0], bins=6), rtol=1e-12)
    ints = rng.integers(0, 5, (50, 2))
    same_outcome(xp, lambda: np.histogramdd(ints), lambda: ga.histogramdd(xp.dev(ints)),
                 rtol=1e-12)
    same_outcome(xp, lambda: np.histogramdd(np.zeros((0, 2))),
                 lambda: ga.histogramdd(xp.dev(np.zeros((0, 2)))))
    same_outcome(xp, lambda: np.histogramdd(np.ones((4, 2))),
                 lambda: ga.histogramdd(xp.dev(np.ones((4, 2)))))
    for kwargs in ({"bins": (2, 3)}, {"bins": 0}, {"bins": 2.5}, {"range": [(0, 1)]},
                   {"range": [(1, 0)] * 3}, {"range": [(0, np.inf)] * 3},
                   {"bins": [np.array([2, 1]), 2, 2]}, {"bins": [np.ones((2, 2)), 2, 2]}):
        same_outcome(xp, lambda: np.histogramdd(sample, **kwargs),
                     lambda: ga.histogramdd(ds, **kwargs))
    nan_sample = sample.copy()
    nan_sample[3, 1] = np.nan
    same_outcome(xp, lambda: np.histogramdd(nan_sample), lambda: ga.histogramdd(
        xp.dev(nan_sample)))


def test_histogram2d(xp, rng):
    x = rng.standard_normal(300)
    y = rng.uniform(-1, 3, 300)
    dx, dy = xp.dev(x), xp.dev(y)
    w = rng.uniform(0, 1, 300)
    cases = [{}, {"bins": 7}, {"bins": [3, 9]}, {"bins": np.linspace(-2, 2, 6)},
             {"bins": [np.linspace(-2, 2, 4), 5]}, {"range": [[-1, 1], [0, 2]]},
             {"density": True}, {"weights": w}]
    for kwargs in cases:
        dk = {k: (xp.dev(v) if k == "weights" else v) for k, v in kwargs.items()}
        same_outcome(xp, lambda: np.histogram2d(x, y, **kwargs),
                     lambda: ga.histogram2d(dx, dy, **dk), rtol=1e-12, atol=1e-12)
    same_outcome(xp, lambda: np.histogram2d(x[::-2], y[::2]),
                 lambda: ga.histogram2d(dx[::-2], dy[::2]), rtol=1e-12)
    same_outcome(xp, lambda: np.histogram2d(x, y[:10]), lambda: ga.histogram2d(dx, dy[:10]))
