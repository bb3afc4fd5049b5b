"""append, delete, insert, resize, trim_zeros, rollaxis, unstack and the assignment
functions (choose, copyto, putmask, fill_diagonal), nan_to_num, real_if_close, isreal and
iscomplex against NumPy, on the device and (host-side) with NumPy standing in for it."""

import numpy as np
import pytest

import gpuarr as ga
from _numpy_composed import check, same_outcome, xp  # noqa: F401  (xp is a fixture)
from conftest import dtype_id, float_specials, random_array

DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint16", "int64", "float32", "float64",
                                "complex64")]


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_append(xp, rng, dtype):
    h = random_array(rng, (3, 4), dtype)
    v = random_array(rng, (2, 4), dtype)
    d, dv = xp.dev(h), xp.dev(v)
    same_outcome(xp, lambda: np.append(h, v), lambda: ga.append(d, dv))
    same_outcome(xp, lambda: np.append(h, v, axis=0), lambda: ga.append(d, dv, axis=0))
    same_outcome(xp, lambda: np.append(h.T, v.T, axis=1), lambda: ga.append(d.T, dv.T, axis=1))
    same_outcome(xp, lambda: np.append(h, v, axis=1), lambda: ga.append(d, dv, axis=1))
    same_outcome(xp, lambda: np.append(h[0], 5), lambda: ga.append(d[0], 5))
    same_outcome(xp, lambda: np.append(h, v, axis=2), lambda: ga.append(d, dv, axis=2))


DELETE_OBJS = [0, -1, 2, slice(None, None, 2), slice(1, -1), [0, 2], [], np.array([], int),
               [True, False, True, False], np.array([1, 1, 3]), 4, -5, [0, 7], [0.5],
               [True, False], np.array([[0, 1]])]


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_delete(xp, rng, dtype):
    h = random_array(rng, (4, 4), dtype)
    d = xp.dev(h)
    for obj in DELETE_OBJS:
        for axis in (None, 0, 1, -1):
            same_outcome(xp, lambda: np.delete(h, obj, axis=axis),
                         lambda: ga.delete(d, obj, axis=axis))
    same_outcome(xp, lambda: np.delete(h[::-1].T, [1, 2], axis=0),
                 lambda: ga.delete(d[::-1].T, [1, 2], axis=0))
    same_outcome(xp, lambda: np.delete(h, 0, axis=2), lambda: ga.delete(d, 0, axis=2))


def test_delete_device_obj(xp):
    h = np.arange(12).reshape(3, 4)
    d = xp.dev(h)
    for obj in (np.array([0, 2]), np.array([True, False, True, True]), np.array([True, False]),
                np.array([0.5])):
        same_outcome(xp, lambda: np.delete(h, obj, axis=1),
                     lambda: ga.delete(d, xp.dev(obj), axis=1))


INSERT_CASES = [
    (1, 9, None), (1, 9, 0), (1, [7, 8, 9, 10], 1), (-1, 9, 1), (4, 9, 1), (0, [[1], [2], [3]], 1),
    ([1], [[1], [2], [3]], 1), ([1, 2], 9, 1), ([2, 0, 2], [5, 6, 7], 1), (slice(1, 3), 9, 0),
    ([], 9, 1), (5, 9, 1), (-5, 9, 1), ([[0, 1]], 9, 0), (np.array([True, False, True, False]), 9, 1),
    ([0, 9], 9, 1), (1, 2.7, None),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_insert(xp, rng, dtype):
    h = random_array(rng, (3, 4), dtype)
    d = xp.dev(h)
    for obj, values, axis in INSERT_CASES:
        same_outcome(xp, lambda: np.insert(h, obj, values, axis=axis),
                     lambda: ga.insert(d, obj, values, axis=axis))
    same_outcome(xp, lambda: np.insert(h.T, 1, h[0], axis=1),
                 lambda: ga.insert(d.T, 1, d[0], axis=1))
    same_outcome(xp, lambda: np.insert(h, [1, 3], h[:, :2].T.copy(), axis=1),
                 lambda: ga.insert(d, xp.dev(np.array([1, 3])), d[:, :2].T, axis=1))


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_resize(xp, rng, dtype):
    h = random_array(rng, (2, 3), dtype)
    d = xp.dev(h)
    for shape in (6, (3, 2), (4, 5), (1,), (0,), (2, 0), (7, 1, 2), ()):
        same_outcome(xp, lambda: np.resize(h, shape), lambda: ga.resize(d, shape))
        same_outcome(xp, lambda: np.resize(h.T[::-1], shape), lambda: ga.resize(d.T[::-1], shape))
    same_outcome(xp, lambda: np.resize(h[:0], (2, 2)), lambda: ga.resize(d[:0], (2, 2)))
    same_outcome(xp, lambda: np.resize(h, (2, -1)), lambda: ga.resize(d, (2, -1)))


def test_trim_zeros(xp):
    cases = [np.array([0, 0, 1, 2, 0, 3, 0, 0]), np.zeros(4), np.array([1.5, 0, 2]),
             np.array([], dtype=np.int32),
             np.array([[0, 0, 0, 0], [0, 1, 0, 2], [0, 0, 3, 0], [0, 0, 0, 0]]),
             np.zeros((2, 3)), np.array([0, 0, 1j, 0]), np.array([False, True, False])]
    for h in cases:
        d = xp.dev(h)
        for trim in ("fb", "f", "b", "BF"):
            for axis in [None] + list(range(-h.ndim, h.ndim)):
                same_outcome(xp, lambda: np.trim_zeros(h, trim, axis=axis),
                             lambda: ga.trim_zeros(d, trim, axis=axis))
    h = cases[0]
    same_outcome(xp, lambda: np.trim_zeros(h, "x"), lambda: ga.trim_zeros(xp.dev(h), "x"))
    same_outcome(xp, lambda: np.trim_zeros(h, axis=1), lambda: ga.trim_zeros(xp.dev(h), axis=1))
    h2 = cases[4]
    same_outcome(xp, lambda: np.trim_zeros(h2.T[::-1]), lambda: ga.trim_zeros(xp.dev(h2).T[::-1]))


def test_rollaxis_unstack(xp, rng):
    h = rng.standard_normal((2, 3, 4, 5))
    d = xp.dev(h)
    for axis in range(-5, 5):
        for start in range(-5, 6):
            same_outcome(xp, lambda: np.rollaxis(h, axis, start),
                         lambda: ga.rollaxis(d, axis, start))
    for axis in range(-5, 5):
        same_outcome(xp, lambda: np.unstack(h, axis=axis), lambda: ga.unstack(d, axis=axis))
    same_outcome(xp, lambda: np.unstack(h[:, :0]), lambda: ga.unstack(d[:, :0]))
    same_outcome(xp, lambda: np.unstack(h[:0]), lambda: ga.unstack(d[:0]))
    same_outcome(xp, lambda: np.unstack(np.float64(1)), lambda: ga.unstack(xp.dev(np.array(1.0))))


# --- assignment ---------------------------------------------------------------------------


def test_choose(xp, rng):
    a = rng.integers(0, 3, (4, 5))
    choices = [rng.integers(0, 100, (4, 5)), rng.standard_normal((1, 5)), 7]
    da = xp.dev(a)
    dch = [xp.dev(choices[0]), xp.dev(choices[1]), 7]
    same_outcome(xp, lambda: np.choose(a, choices), lambda: ga.choose(da, dch))
    big = a + 2
    for mode in ("raise", "wrap", "clip", "bad"):
        same_outcome(xp, lambda: np.choose(big, choices, mode=mode),
                     lambda: ga.choose(xp.dev(big), dch, mode=mode))
        same_outcome(xp, lambda: np.choose(-big, choices, mode=mode),
                     lambda: ga.choose(xp.dev(-big), dch, mode=mode))
    stacked = rng.standard_normal((3, 4, 5)).astype(np.float32)
    same_outcome(xp, lambda: np.choose(a.T[::-1].T, stacked),
                 lambda: ga.choose(da.T[::-1].T, xp.dev(stacked)))
    same_outcome(xp, lambda: np.choose(a.astype(float), choices),
                 lambda: ga.choose(xp.dev(a.astype(float)), dch))
    one = ga.choose(xp.dev(np.zeros((4, 5), int)), [dch[0]])  # a new array, not dch[0]
    assert one is not dch[0]
    one[0, 0] = -1
    check(xp, dch[0], choices[0])
    out_h = np.empty((4, 5))
    out_d = xp.dev(out_h)
    r = ga.choose(da, dch, out=out_d)
    assert r is out_d
    check(xp, out_d, np.choose(a, choices, out=out_h))
    same_outcome(xp, lambda: np.choose(a, choices, out=np.empty((5, 4))),
                 lambda: ga.choose(da, dch, out=xp.dev(np.empty((5, 4)))))


def test_copyto(xp, rng):
    dst_h = rng.standard_normal((3, 4))
    src_h = rng.integers(0, 9, (1, 4))
    where_h = rng.integers(0, 2, (3, 4)).astype(bool)
    for casting in ("same_kind", "safe", "no", "unsafe"):
        for where in (True, where_h, where_h[0]):
            dst = xp.dev(dst_h)
            h = dst_h.copy()
            same_outcome(xp, lambda: np.copyto(h, src_h, casting=casting, where=where),
                         lambda: ga.copyto(dst, xp.dev(src_h), casting=casting,
                                           where=where if where is True else xp.dev(where)))
            check(xp, dst, h)
    for src, casting in ((2.5, "same_kind"), (1000, "same_kind"), (2.5, "unsafe"),
                         (np.ones(4), "same_kind"), (np.ones(4), "unsafe"), (3, "safe"),
                         (np.ones(5), "unsafe")):
        dst = xp.dev(np.zeros((3, 4), np.int8))
        h = np.zeros((3, 4), np.int8)
        same_outcome(xp, lambda: np.copyto(h, src, casting=casting),
                     lambda: ga.copyto(dst, src if np.ndim(src) == 0 else xp.dev(src),
                                       casting=casting))
        check(xp, dst, h)
    dst = xp.dev(dst_h)
    h = dst_h.copy()
    same_outcome(xp, lambda: np.copyto(h, 1.0, where=np.ones((3, 4), int)),
                 lambda: ga.copyto(dst, 1.0, where=xp.dev(np.ones((3, 4), int))))
    same_outcome(xp, lambda: np.copyto([1.0], 2.0), lambda: ga.copyto([1.0], 2.0))


def test_putmask(xp, rng):
    for h0 in (rng.standard_normal((4, 5)), rng.integers(0, 50, (3, 7)).astype(np.int16)):
        mask = rng.integers(0, 2, h0.shape).astype(bool)
        for values in (-1, [1, 2, 3], np.arange(h0.size * 2), [], 2.5):
            h = h0.copy()
            d = xp.dev(h0)
            same_outcome(xp, lambda: np.putmask(h, mask, values),
                         lambda: ga.putmask(d, xp.dev(mask), values))
            check(xp, d, h)
            h = h0.T.copy()
            d = xp.dev(h0).T
            same_outcome(xp, lambda: np.putmask(h, mask.T, values),
                         lambda: ga.putmask(d, mask.T, values))
            check(xp, d, h)
    h = np.zeros(4)
    same_outcome(xp, lambda: np.putmask(h, [True], 1), lambda: ga.putmask(xp.dev(h), [True], 1))
    same_outcome(xp, lambda: np.putmask([1.0], [True], 1), lambda: ga.putmask([1.0], [True], 1))


def test_fill_diagonal(xp, rng):
    shapes = [(4, 4), (3, 5), (7, 3), (3, 3, 3), (2, 2, 2, 2), (0, 0), (1, 1)]
    for shape in shapes:
        for val in (5, [1, 2], np.arange(11), 2.5, []):
            for wrap in (False, True):
                h = np.zeros(shape, np.float32)
                d = xp.dev(h)
                same_outcome(xp, lambda: np.fill_diagonal(h, val, wrap),
                             lambda: ga.fill_diagonal(d, val, wrap))
                check(xp, d, h)
    h = np.zeros((5, 4), np.int64)
    d = xp.dev(np.zeros((4, 5), np.int64)).T  # not C-contiguous
    np.fill_diagonal(h, [3, 4], wrap=True)
    ga.fill_diagonal(d, [3, 4], wrap=True)
    check(xp, d, h)
    for shape in ((3,), (2, 3, 3)):
        same_outcome(xp, lambda: np.fill_diagonal(np.zeros(shape), 1),
                     lambda: ga.fill_diagonal(xp.dev(np.zeros(shape)), 1))


# --- value checks -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128, np.int32, np.bool_], ids=dtype_id)
def test_nan_to_num(xp, rng, dtype):
    h = random_array(rng, (40,), dtype)
    if np.dtype(dtype).kind in "fc":
        h[:len(float_specials(dtype))] = float_specials(dtype)[:40]
    d = xp.dev(h)
    for kwargs in ({}, {"nan": 1.5, "posinf": 2e300, "neginf": -7}, {"nan": -1}):
        same_outcome(xp, lambda: np.nan_to_num(h, **kwargs), lambda: ga.nan_to_num(d, **kwargs))
    same_outcome(xp, lambda: np.nan_to_num(h[::-3]), lambda: ga.nan_to_num(d[::-3]))
    hc = h.copy()
    dc = xp.dev(h)
    r = ga.nan_to_num(dc, copy=False)
    np.nan_to_num(hc, copy=False)
    assert r is dc
    check(xp, dc, hc)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.complex128, np.int8],
                         ids=dtype_id)
def test_real_if_close_isreal_iscomplex(xp, rng, dtype):
    h = random_array(rng, (3, 4), dtype)
    d = xp.dev(h)
    for f in ("isreal", "iscomplex", "real_if_close"):
        same_outcome(xp, lambda: getattr(np, f)(h), lambda: getattr(ga, f)(d))
        same_outcome(xp, lambda: getattr(np, f)(h.T[::-1]), lambda: getattr(ga, f)(d.T[::-1]))
    if np.dtype(dtype).kind == "c":
        eps = np.finfo(dtype).eps
        for imag in (0.0, 50 * eps, 200 * eps):
            hh = (h.real + 1j * imag).astype(dtype)
            hh[0, 0] = 1 + 1j * (imag / 2)
            dd = xp.dev(hh)
            for tol in (100, 1, 1e-3):
                same_outcome(xp, lambda: np.real_if_close(hh, tol),
                             lambda: ga.real_if_close(dd, tol))
            same_outcome(xp, lambda: np.isreal(hh), lambda: ga.isreal(dd))
            same_outcome(xp, lambda: np.iscomplex(hh), lambda: ga.iscomplex(dd))
