"""diff, ediff1d, gradient, trapezoid, interp, digitize, unwrap, sort_complex and select
against NumPy, on the device and (host-side) with NumPy standing in for the device."""

import numpy as np
import pytest

import gpuarr as ga
from _numpy_composed import check, same_outcome, xp  # noqa: F401  (xp is a fixture)
from conftest import dtype_id, random_array

DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint8", "int32", "int64", "uint64",
                                "float32", "float64", "complex64", "complex128")]
SHAPES = [(0,), (1,), (6,), (3, 0), (4, 5), (2, 3, 4)]


def _tol(dtype):
    dtype = np.dtype(dtype)
    return {"e": 1e-2, "f": 1e-5, "d": 1e-12, "F": 1e-5, "D": 1e-12}.get(dtype.char, 0.0)


def _views(xp, h):
    d = xp.dev(h)
    out = [(h, d)]
    if h.ndim >= 1 and h.shape[-1] > 1:
        out.append((h[..., ::-1], d[..., ::-1]))
    if h.ndim >= 2:
        out.append((h.T, d.T))
    return out


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_diff(xp, rng, dtype, shape):
    h0 = random_array(rng, shape, dtype)
    for h, d in _views(xp, h0):
        for axis in range(-h.ndim, h.ndim):
            for n in (0, 1, 2):
                same_outcome(xp, lambda: np.diff(h, n=n, axis=axis),
                             lambda: ga.diff(d, n=n, axis=axis))
    h = h0
    d = xp.dev(h)
    if h.ndim:
        pre = random_array(rng, h.shape[:-1] + (2,), dtype)
        same_outcome(xp, lambda: np.diff(h, prepend=pre, append=h[..., :1]),
                     lambda: ga.diff(d, prepend=xp.dev(pre), append=d[..., :1]))
        same_outcome(xp, lambda: np.diff(h, prepend=0), lambda: ga.diff(d, prepend=0))
        same_outcome(xp, lambda: np.diff(h, axis=0, append=1), lambda: ga.diff(d, axis=0,
                                                                              append=1))


def test_diff_errors(xp):
    h = np.arange(6.0).reshape(2, 3)
    d = xp.dev(h)
    for kwargs in ({"n": -1}, {"axis": 2}, {"axis": -3}):
        same_outcome(xp, lambda: np.diff(h, **kwargs), lambda: ga.diff(d, **kwargs))
    same_outcome(xp, lambda: np.diff(np.float64(3)), lambda: ga.diff(xp.dev(np.array(3.0))))


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128, np.bool_], ids=dtype_id)
def test_ediff1d(xp, rng, dtype):
    h = random_array(rng, (3, 4), dtype)
    d = xp.dev(h)
    same_outcome(xp, lambda: np.ediff1d(h), lambda: ga.ediff1d(d))
    same_outcome(xp, lambda: np.ediff1d(h[:0]), lambda: ga.ediff1d(d[:0]))
    for tb, te in ((None, [1, 2]), ([0], None), (np.array([[5]]), np.array([7, 8]))):
        same_outcome(xp, lambda: np.ediff1d(h, to_begin=tb, to_end=te),
                     lambda: ga.ediff1d(d, to_begin=tb, to_end=te))
    same_outcome(xp, lambda: np.ediff1d(h, to_begin=[1.5]), lambda: ga.ediff1d(d,
                                                                                to_begin=[1.5]))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128],
                         ids=dtype_id)
@pytest.mark.parametrize("shape", [(5,), (4, 6), (3, 4, 5)], ids=str)
def test_gradient(xp, rng, dtype, shape):
    h = random_array(rng, shape, dtype) if np.dtype(dtype).kind != "i" else \
        rng.integers(-50, 50, shape).astype(dtype)
    d = xp.dev(h)
    rtol = _tol(np.result_type(dtype, np.float64 if np.dtype(dtype).kind == "i" else dtype))
    for edge_order in (1, 2):
        same_outcome(xp, lambda: np.gradient(h, edge_order=edge_order),
                     lambda: ga.gradient(d, edge_order=edge_order), rtol=rtol, atol=rtol)
        same_outcome(xp, lambda: np.gradient(h, 0.5, axis=-1, edge_order=edge_order),
                     lambda: ga.gradient(d, 0.5, axis=-1, edge_order=edge_order),
                     rtol=rtol, atol=rtol)
        coords = [np.cumsum(rng.uniform(0.5, 2.0, n)) for n in h.shape]
        same_outcome(xp, lambda: np.gradient(h, *coords, edge_order=edge_order),
                     lambda: ga.gradient(d, *[xp.dev(c) for c in coords],
                                         edge_order=edge_order), rtol=1e-4, atol=1e-4)
        uniform = [np.arange(n) * 2 for n in h.shape]  # integer, uniform coordinates
        same_outcome(xp, lambda: np.gradient(h, *uniform, edge_order=edge_order),
                     lambda: ga.gradient(d, *[xp.dev(c) for c in uniform],
                                         edge_order=edge_order), rtol=rtol, atol=rtol)
    same_outcome(xp, lambda: np.gradient(h.T, axis=(0,)), lambda: ga.gradient(d.T, axis=(0,)),
                 rtol=rtol, atol=rtol)


def test_gradient_errors(xp):
    h = np.arange(6.0).reshape(2, 3)
    d = xp.dev(h)
    same_outcome(xp, lambda: np.gradient(h, edge_order=2), lambda: ga.gradient(d, edge_order=2))
    same_outcome(xp, lambda: np.gradient(h, edge_order=3), lambda: ga.gradient(d, edge_order=3))
    same_outcome(xp, lambda: np.gradient(h, 1, 2, 3), lambda: ga.gradient(d, 1, 2, 3))
    same_outcome(xp, lambda: np.gradient(h, [1, 2], [1, 2, 3]),
                 lambda: ga.gradient(d, xp.dev(np.array([1, 2])), xp.dev(np.array([1, 2, 3]))))
    same_outcome(xp, lambda: np.gradient(h, [1, 2, 3], [1, 2, 3]),
                 lambda: ga.gradient(d, xp.dev(np.array([1, 2, 3])), xp.dev(np.array([1, 2, 3]))))
    same_outcome(xp, lambda: np.gradient(h, axis=2), lambda: ga.gradient(d, axis=2))


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex64], ids=dtype_id)
def test_trapezoid(xp, rng, dtype):
    h = random_array(rng, (4, 7), dtype) if np.dtype(dtype).kind != "i" else \
        rng.integers(-9, 9, (4, 7))
    d = xp.dev(h)
    rtol = _tol(dtype) or 1e-12
    x1 = np.sort(rng.uniform(0, 10, 7))
    x2 = np.sort(rng.uniform(0, 10, (4, 7)), axis=-1)
    cases = [
        (lambda: np.trapezoid(h), lambda: ga.trapezoid(d)),
        (lambda: np.trapezoid(h, dx=0.5, axis=0), lambda: ga.trapezoid(d, dx=0.5, axis=0)),
        (lambda: np.trapezoid(h, x1), lambda: ga.trapezoid(d, xp.dev(x1))),
        (lambda: np.trapezoid(h, x2), lambda: ga.trapezoid(d, xp.dev(x2))),
        (lambda: np.trapezoid(h[0]), lambda: ga.trapezoid(d[0])),
        (lambda: np.trapezoid(h[:, :1]), lambda: ga.trapezoid(d[:, :1])),
        (lambda: np.trapezoid(h.T[::-1]), lambda: ga.trapezoid(d.T[::-1])),
    ]
    for npc, gac in cases:
        same_outcome(xp, npc, gac, rtol=rtol, atol=rtol * 100)


def test_interp(xp, rng):
    xp_ = np.sort(rng.uniform(-5, 5, 20))
    xp_[5] = xp_[6]  # a repeated sample point
    fp = rng.standard_normal(20)
    x = np.concatenate([rng.uniform(-7, 7, 200), xp_, [np.nan, np.inf, -np.inf]])
    dx, dxp, dfp = xp.dev(x), xp.dev(xp_), xp.dev(fp)
    same_outcome(xp, lambda: np.interp(x, xp_, fp), lambda: ga.interp(dx, dxp, dfp),
                 rtol=1e-12, atol=1e-12)
    same_outcome(xp, lambda: np.interp(x, xp_, fp, left=-1.5, right=2.5),
                 lambda: ga.interp(dx, dxp, dfp, left=-1.5, right=2.5), rtol=1e-12, atol=1e-12)
    fc = fp + 1j * rng.standard_normal(20)
    same_outcome(xp, lambda: np.interp(x, xp_, fc, left=1j), lambda: ga.interp(
        dx, dxp, xp.dev(fc), left=1j), rtol=1e-12, atol=1e-12)
    x2 = rng.uniform(-400, 400, (3, 5))
    same_outcome(xp, lambda: np.interp(x2, [-180, 0, 90], [1.0, 2.0, 0.5], period=360),
                 lambda: ga.interp(xp.dev(x2), [-180, 0, 90], [1.0, 2.0, 0.5], period=360),
                 rtol=1e-12, atol=1e-12)
    # one sample point; float32 and integer inputs give float64
    same_outcome(xp, lambda: np.interp(x, [0.5], [3.0]), lambda: ga.interp(dx, [0.5], [3.0]))
    xi = rng.integers(-3, 8, 30)
    same_outcome(xp, lambda: np.interp(xi, [0, 2, 5], np.array([1, 4, 2], np.float32)),
                 lambda: ga.interp(xp.dev(xi), [0, 2, 5], np.array([1, 4, 2], np.float32)),
                 rtol=1e-12, atol=1e-12)
    same_outcome(xp, lambda: np.interp(2.5, xp_, fp), lambda: ga.interp(2.5, dxp, dfp),
                 rtol=1e-12, atol=1e-12)


def test_interp_errors(xp):
    for args, kwargs in (
            (([1.0], [], []), {}),
            (([1.0], [1, 2], [1]), {}),
            (([1.0], [[1, 2]], [[1, 2]]), {}),
            (([1.0], [1, 2], [1, 2]), {"period": 0}),
            (([1.0], [1, 2], [1, 2, 3]), {"period": 3})):
        same_outcome(xp, lambda: np.interp(*args, **kwargs),
                     lambda: ga.interp(*[xp.dev(np.asarray(a, dtype=float)) for a in args],
                                       **kwargs))


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64], ids=dtype_id)
def test_digitize(xp, rng, dtype):
    x = rng.integers(0, 100, (6, 7)).astype(dtype)
    bins = np.array([0, 10, 10, 33, 50, 99], dtype=np.float64)
    for b in (bins, bins[::-1].copy(), bins[:1], bins[:0], np.array([5, 5, 5.0])):
        for right in (False, True):
            same_outcome(xp, lambda: np.digitize(x, b, right=right),
                         lambda: ga.digitize(xp.dev(x), xp.dev(b), right=right))
    same_outcome(xp, lambda: np.digitize(x.T, [1, 3, 2]), lambda: ga.digitize(xp.dev(x).T,
                                                                             [1, 3, 2]))
    # NaN edges: the first edge unequal to bins[0] decides the direction (a leading NaN:
    # decreasing). Only bins that are then searched in sorted order (NaNs last) or raise:
    # elsewhere NumPy's answer is whatever its binary search met.
    for b in ([np.nan, np.nan], [1, 3, np.nan], [1, 3, np.nan, np.nan], [np.nan, 3, 1],
              [np.nan, 1, 3], [1, 3, 2, np.nan]):
        b = np.array(b)
        for right in (False, True):
            same_outcome(xp, lambda: np.digitize(x, b, right=right),
                         lambda: ga.digitize(xp.dev(x), xp.dev(b), right=right))
    same_outcome(xp, lambda: np.digitize(x, [[1, 2]]), lambda: ga.digitize(xp.dev(x), [[1, 2]]))
    same_outcome(xp, lambda: np.digitize(x + 1j, [1, 2]), lambda: ga.digitize(xp.dev(x + 1j),
                                                                             [1, 2]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64], ids=dtype_id)
def test_unwrap(xp, rng, dtype):
    if np.dtype(dtype).kind == "i":
        h = rng.integers(-30, 30, (4, 9))
        cases = [{"period": 8}, {"period": 7, "axis": 0}, {"period": 8, "discont": 2}]
    else:
        h = np.cumsum(rng.uniform(-3, 3, (4, 9)), axis=-1).astype(dtype)
        h = (h + np.pi) % (2 * np.pi) - np.pi
        cases = [{}, {"axis": 0}, {"discont": 4.0}, {"period": 3.0}]
    d = xp.dev(h)
    rtol = 1e-4 if dtype == np.float32 else 1e-12
    for kwargs in cases:
        same_outcome(xp, lambda: np.unwrap(h, **kwargs), lambda: ga.unwrap(d, **kwargs),
                     rtol=rtol, atol=rtol)
    same_outcome(xp, lambda: np.unwrap(h[:, ::-1]), lambda: ga.unwrap(d[:, ::-1]),
                 rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype", DTYPES + [np.dtype(np.int16)], ids=dtype_id)
def test_sort_complex(xp, rng, dtype):
    h = random_array(rng, (17,), dtype)
    same_outcome(xp, lambda: np.sort_complex(h), lambda: ga.sort_complex(xp.dev(h)))
    h2 = random_array(rng, (3, 5), dtype)
    same_outcome(xp, lambda: np.sort_complex(h2), lambda: ga.sort_complex(xp.dev(h2)))


def test_select(xp, rng):
    x = rng.integers(-10, 10, (4, 5))
    dx = xp.dev(x)
    conds_h = [x < -3, x > 4, x == 0]
    conds_d = [dx < -3, dx > 4, dx == 0]
    choices_h = [x * 2, x.astype(np.float32), 7]
    choices_d = [dx * 2, dx.astype(np.float32), 7]
    same_outcome(xp, lambda: np.select(conds_h, choices_h, default=-1.5),
                 lambda: ga.select(conds_d, choices_d, default=-1.5))
    same_outcome(xp, lambda: np.select(conds_h, [1, 2, 3]), lambda: ga.select(conds_d, [1, 2, 3]))
    same_outcome(xp, lambda: np.select([x[0] > 0], [x]), lambda: ga.select([dx[0] > 0], [dx]))
    same_outcome(xp, lambda: np.select(conds_h, [1, 2]), lambda: ga.select(conds_d, [1, 2]))
    same_outcome(xp, lambda: np.select([], []), lambda: ga.select([], []))
    same_outcome(xp, lambda: np.select([x], [x]), lambda: ga.select([dx], [dx]))
