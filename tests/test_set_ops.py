"""Set operations (isin, intersect1d, union1d, setdiff1d, setxor1d) against NumPy, on the
device and (host-side) with NumPy standing in for the device."""

import numpy as np
import pytest

import gpuarr as ga
from _numpy_composed import check, same_outcome, xp  # noqa: F401  (xp is a fixture)
from conftest import dtype_id

SET_DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint8", "int32", "int64", "uint64",
                                    "float32", "float64", "complex64", "complex128")]
SIZES = [(0, 0), (0, 5), (5, 0), (1, 1), (7, 4), (40, 25), (300, 1000)]


def _values(rng, n, dtype, nan=True):
    """Small values with many duplicates; floats get NaN and signed zeros too."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    v = rng.integers(-6, 7, n)
    if dtype.kind == "u":
        v = np.abs(v)
    v = v.astype(dtype)
    if dtype.kind == "c":
        v = v + 1j * rng.integers(-1, 2, n).astype(dtype)
    if dtype.kind in "fc" and n > 3 and nan:
        v[0] = np.nan
        v[1] = -0.0
    return v


@pytest.mark.parametrize("dtype", SET_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_isin(xp, rng, dtype, sizes):
    a = _values(rng, sizes[0], dtype)
    b = _values(rng, sizes[1], dtype)
    for invert in (False, True):
        check(xp, ga.isin(xp.dev(a), xp.dev(b), invert=invert), np.isin(a, b, invert=invert))
    # element keeps its shape; non-contiguous and reversed views
    a2 = _values(rng, 24, dtype).reshape(4, 6)
    d2 = xp.dev(a2)
    check(xp, ga.isin(d2.T, xp.dev(b)), np.isin(a2.T, b))
    check(xp, ga.isin(d2[::-1, ::2], xp.dev(b)[::-1]), np.isin(a2[::-1, ::2], b[::-1]))
    check(xp, ga.isin(d2[0, 0], xp.dev(b)), np.isin(a2[0, 0], b))  # 0-d


def test_isin_mixed_dtypes_and_kinds(xp, rng):
    a = rng.integers(-5, 5, 50)
    b = np.array([0.5, 1.0, 3.0, -2.0])
    check(xp, ga.isin(xp.dev(a), xp.dev(b)), np.isin(a, b))
    check(xp, ga.isin(xp.dev(a), [1, 2, 3]), np.isin(a, [1, 2, 3]))
    ai = a.astype(np.int16)
    bi = np.array([1, 2, 300], np.int64)
    for kind in (None, "sort", "table"):
        check(xp, ga.isin(xp.dev(ai), xp.dev(bi), kind=kind), np.isin(ai, bi, kind=kind))
    same_outcome(xp, lambda: np.isin(a, b, kind="table"), lambda: ga.isin(xp.dev(a), xp.dev(b),
                                                                            kind="table"))
    same_outcome(xp, lambda: np.isin(a, b, kind="bad"), lambda: ga.isin(xp.dev(a), xp.dev(b),
                                                                          kind="bad"))


@pytest.mark.parametrize("dtype", SET_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("sizes", SIZES, ids=str)
def test_set_functions(xp, rng, dtype, sizes):
    a = _values(rng, sizes[0], dtype)
    b = _values(rng, sizes[1], dtype)
    da, db = xp.dev(a), xp.dev(b)
    check(xp, ga.union1d(da, db), np.union1d(a, b))
    check(xp, ga.intersect1d(da, db), np.intersect1d(a, b))
    check(xp, ga.setdiff1d(da, db), np.setdiff1d(a, b))
    check(xp, ga.setxor1d(da, db), np.setxor1d(a, b))
    # unique inputs: assume_unique gives NumPy's result
    ua, ub = np.unique(a), np.unique(b)
    dua, dub = xp.dev(ua), xp.dev(ub)
    check(xp, ga.intersect1d(dua, dub, assume_unique=True), np.intersect1d(ua, ub, True))
    check(xp, ga.setdiff1d(dua[::-1], dub, assume_unique=True),
          np.setdiff1d(ua[::-1], ub, True))
    check(xp, ga.setxor1d(dua, dub, assume_unique=True), np.setxor1d(ua, ub, True))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64], ids=dtype_id)
def test_intersect1d_return_indices(xp, rng, dtype):
    a = _values(rng, 60, dtype, nan=False)
    b = _values(rng, 45, dtype, nan=False)
    got = ga.intersect1d(xp.dev(a), xp.dev(b), return_indices=True)
    check(xp, got, np.intersect1d(a, b, return_indices=True))
    ua, ub = np.unique(a), np.unique(b)[::-1].copy()
    got = ga.intersect1d(xp.dev(ua), xp.dev(ub), assume_unique=True, return_indices=True)
    check(xp, got, np.intersect1d(ua, ub, assume_unique=True, return_indices=True))


def test_multidimensional_inputs_are_flattened(xp, rng):
    a = rng.integers(0, 10, (3, 4, 5))
    b = rng.integers(5, 15, (6, 2))
    da, db = xp.dev(a), xp.dev(b)
    check(xp, ga.union1d(da, db), np.union1d(a, b))
    check(xp, ga.intersect1d(da.transpose(2, 0, 1), db.T), np.intersect1d(a, b))
    check(xp, ga.setdiff1d(da, db), np.setdiff1d(a, b))
    check(xp, ga.setxor1d(da, db), np.setxor1d(a, b))
    check(xp, ga.setdiff1d(da, db, assume_unique=True), np.setdiff1d(a, b, True))
