"""take, put, nonzero, argwhere, flatnonzero, where(cond), compress, extract, place,
take_along_axis, put_along_axis against NumPy."""

import numpy as np
import pytest

import _device_standin
import gpuarr
from conftest import (
    ALL_DTYPES, assert_bits_equal, assert_same_exception, dtype_id, gpu_test, outcome,
    random_array,
)

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not gpuarr.cuda.is_available(),
                                                  reason="no CUDA device")]


def _same(fn_np, fn_ga, *args_np, args_ga=None, **kw):
    kind, expected, _ = outcome(fn_np, *args_np, **kw)
    if kind == "raise":
        with pytest.raises(type(expected)) as got:
            fn_ga(*(args_ga or args_np), **kw)
        assert_same_exception(got.value, expected)
        return None
    got = fn_ga(*(args_ga or args_np), **kw)
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_bits_equal(g.get(), e)
    else:
        assert_bits_equal(got.get(), np.asarray(expected))
    return got


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_nonzero_family(rng, dtype):
    for shape in [(0,), (7,), (3, 5), (2, 3, 4), (1000,)]:
        h = random_array(rng, shape, dtype)
        if h.size:
            h.reshape(-1)[rng.integers(0, h.size, size=h.size // 2)] = 0
        d = gpuarr.asarray(h)
        _same(np.nonzero, gpuarr.nonzero, h, args_ga=(d,))
        _same(lambda a: a.nonzero(), lambda a: a.nonzero(), h, args_ga=(d,))
        _same(np.flatnonzero, gpuarr.flatnonzero, h, args_ga=(d,))
        _same(lambda a: np.where(a), gpuarr.where, h, args_ga=(d,))
        got = gpuarr.argwhere(d)
        assert_bits_equal(np.ascontiguousarray(got.get()), np.argwhere(h))


def test_nonzero_views_and_0d(rng):
    h = random_array(rng, (6, 8), "int8")
    d = gpuarr.asarray(h)
    _same(np.nonzero, gpuarr.nonzero, h[::-2, 1::3], args_ga=(d[::-2, 1::3],))
    _same(np.nonzero, gpuarr.nonzero, h.T, args_ga=(d.T,))
    _same(np.nonzero, gpuarr.nonzero, np.array(1), args_ga=(gpuarr.asarray(np.array(1)),))
    for v in (0, 3):
        assert gpuarr.argwhere(gpuarr.asarray(np.array(v))).shape == np.argwhere(np.array(v)).shape


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(rng, mode):
    h = random_array(rng, (4, 5, 6), "float32")
    d = gpuarr.asarray(h)
    for idx in ([0, 3, -1], [[1, 2], [7, -9]], 2, [], np.array([5, 0], dtype=np.int16)):
        for axis in (None, 0, 1, -1, 3):
            _same(lambda a, i: np.take(a, i, axis=axis, mode=mode),
                  lambda a, i: gpuarr.take(a, i, axis=axis, mode=mode), h, idx, args_ga=(d, idx))
            _same(lambda a, i: a.take(i, axis=axis, mode=mode),
                  lambda a, i: a.take(gpuarr.asarray(np.asarray(i, dtype=np.int64)), axis=axis, mode=mode),
                  h, idx, args_ga=(d, idx))
    out = gpuarr.empty((2, 5, 6), dtype=np.float32)
    r = gpuarr.take(d, [1, 2], axis=0, out=out)
    assert r is out
    assert_bits_equal(out.get(), np.take(h, [1, 2], axis=0))
    _same(lambda a: np.take(a, [0], mode="foo"), lambda a: gpuarr.take(a, [0], mode="foo"), h, args_ga=(d,))
    # NumPy converts non-array indices element by element ([1.5] takes index 1) and casts
    # arrays under 'same_kind' (a float array is a TypeError); a bad axis is reported first.
    for idx in ([1.5], ["1"], np.float64(2.5), [[1.9, -0.5]], np.array([1.5]), np.array(1.5),
                np.array([3], dtype=np.uint64), [None], [1 + 0j]):
        _same(lambda a, i: np.take(a, i, mode=mode), lambda a, i: gpuarr.take(a, i, mode=mode),
              h, idx, args_ga=(d, idx))
    _same(lambda a: np.take(a, np.array([1.5])),
          lambda a: gpuarr.take(a, gpuarr.asarray(np.array([1.5]))), h, args_ga=(d,))
    _same(lambda a: np.take(a, np.array([1.5]), axis=3),
          lambda a: gpuarr.take(a, np.array([1.5]), axis=3), h, args_ga=(d,))
    e = np.zeros((0, 3))
    _same(lambda a: np.take(a, [0], axis=0, mode="wrap"),
          lambda a: gpuarr.take(a, [0], axis=0, mode="wrap"), e, args_ga=(gpuarr.asarray(e),))


@pytest.mark.parametrize("dtype", ["bool", "int64", "float16", "complex128"])
def test_put_place_extract(rng, dtype):
    h = random_array(rng, (4, 5), dtype)
    d = gpuarr.asarray(h)
    v = random_array(rng, (3,), dtype)
    np.put(h, [0, 7, -1], v)
    gpuarr.put(d, [0, 7, -1], gpuarr.asarray(v))
    assert_bits_equal(d.get(), h)
    np.put(h, [1, 2, 3, 4, 5], v)  # values repeat cyclically
    d.put([1, 2, 3, 4, 5], v)
    assert_bits_equal(d.get(), h)
    for mode in ("wrap", "clip"):
        np.put(h, [25, -30], v[:2], mode=mode)
        gpuarr.put(d, gpuarr.asarray(np.array([25, -30])), v[:2], mode=mode)
        assert_bits_equal(d.get(), h)
    with pytest.raises(IndexError, match="index 20 is out of bounds for axis 0 with size 20"):
        gpuarr.put(d, [20], v[:1])
    # put casts index arrays under 'safe' (uint64 and float arrays refused), lists by element
    for idx in (np.array([1], dtype=np.uint64), np.array([1.5]), np.array(2.0), [2.7], ["3"]):
        kind, expected, _ = outcome(lambda: np.put(h, idx, v[:1]))
        if kind == "raise":
            with pytest.raises(type(expected)) as got:
                gpuarr.put(d, idx, v[:1])
            assert_same_exception(got.value, expected)
        else:
            gpuarr.put(d, idx, v[:1])
        assert_bits_equal(d.get(), h)
    # non-contiguous target
    hh, dd = h.copy(), gpuarr.asarray(h)
    ht, dt = hh[:, ::2], dd[:, ::2]
    flat = ht.copy()
    np.put(flat, [0, 1, 4], v)
    ht[...] = flat
    gpuarr.put(dt, [0, 1, 4], v)
    assert_bits_equal(dd.get(), hh)
    mask = (np.arange(20).reshape(4, 5) % 3) == 0
    np.place(h, mask, v)
    gpuarr.place(d, gpuarr.asarray(mask), v)
    assert_bits_equal(d.get(), h)
    with pytest.raises(ValueError, match="Cannot insert from an empty array!"):
        gpuarr.place(d, mask, np.zeros(0, dtype=dtype))
    _same(np.extract, gpuarr.extract, mask, h, args_ga=(gpuarr.asarray(mask), d))
    _same(np.extract, gpuarr.extract, mask.tolist(), h, args_ga=(mask.tolist(), d))


def test_compress(rng):
    h = random_array(rng, (4, 5), "int32")
    d = gpuarr.asarray(h)
    for cond in ([True, False, True], [0, 1, 1, 0, 1], [True] * 6, [False, True, True, True, False, True]):
        for axis in (None, 0, 1, -1):
            _same(lambda c, a: np.compress(c, a, axis=axis), lambda c, a: gpuarr.compress(c, a, axis=axis),
                  cond, h, args_ga=(cond, d))
            _same(lambda c, a: a.compress(c, axis=axis), lambda c, a: a.compress(gpuarr.asarray(np.array(c)), axis=axis),
                  cond, h, args_ga=(cond, d))
    _same(lambda a: np.compress([[True]], a), lambda a: gpuarr.compress([[True]], a), h, args_ga=(d,))


def test_where_three_args_dispatch(monkeypatch):
    calls = []
    _device_standin.install(monkeypatch, {"_where3": lambda c, x, y: calls.append((c, x, y)) or "r"})
    assert gpuarr.where(1, 2, 3) == "r"
    assert calls == [(1, 2, 3)]
    with pytest.raises(ValueError):
        gpuarr.where(True, 1)


def test_take_put_along_axis(rng):
    h = random_array(rng, (3, 4, 5), "float64")
    d = gpuarr.asarray(h)
    for axis in (0, 1, 2, -1):
        idx = np.argsort(h, axis=axis)[(slice(None),) * (axis % 3) + (slice(0, 2),)]
        _same(lambda a, i: np.take_along_axis(a, i, axis=axis),
              lambda a, i: gpuarr.take_along_axis(a, i, axis=axis), h, idx, args_ga=(d, gpuarr.asarray(idx)))
        _same(lambda a, i: np.take_along_axis(a, i, axis=axis),
              lambda a, i: gpuarr.take_along_axis(a, i, axis=axis), h, idx, args_ga=(d, idx))
        hh, dd = h.copy(), gpuarr.asarray(h)
        np.put_along_axis(hh, idx, -1.0, axis=axis)
        gpuarr.put_along_axis(dd, gpuarr.asarray(idx), -1.0, axis=axis)
        assert_bits_equal(dd.get(), hh)
    flat_idx = np.array([3, 0, 59])
    _same(lambda a: np.take_along_axis(a, flat_idx, axis=None),
          lambda a: gpuarr.take_along_axis(a, flat_idx, axis=None), h, args_ga=(d,))
    with pytest.raises(ValueError):
        gpuarr.take_along_axis(d, np.zeros((2, 2), dtype=np.int64), axis=0)
    with pytest.raises(IndexError):
        gpuarr.take_along_axis(d, np.zeros((2, 2, 2)), axis=0)
