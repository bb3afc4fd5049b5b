"""gpuarr.emath against numpy.emath: the switch to complex output exactly where NumPy
switches (negative or out-of-[-1, 1] real values), over dtypes, 0-d, empty and
non-contiguous input, on the device and with NumPy standing in for the device."""

import numpy as np
import pytest

import gpuarr.emath as gemath
from _numpy_composed import same_outcome, xp  # noqa: F401  (xp is a fixture)
from conftest import dtype_id

DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint8", "int16", "uint16", "int32",
                                "int64", "uint64", "float16", "float32", "float64",
                                "complex64", "complex128")]
UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]


def _rtol(*dtypes):
    chars = {np.result_type(np.dtype(d), np.float16).char for d in dtypes}
    return 1e-2 if "e" in chars else 2e-6 if chars & {"f", "F"} else 1e-12


def _inputs(dtype):
    """(name, host array) cases: in-domain values, out-of-domain ones, 0-d, empty and a
    reversed (non-contiguous) view."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        vals = [np.array([True, False, True])]
    elif dtype.kind == "u":
        vals = [np.array([0, 1, 3, 7], dtype)]
    else:
        inside = np.array([0.25, 0.5, 1, 0.75], dtype) if dtype.kind != "i" else \
            np.array([0, 1, 1, 0], dtype)
        outside = np.array([2, -3, 0.5, -1, 4], dtype) if dtype.kind != "i" else \
            np.array([2, -3, 0, -1, 4], dtype)
        vals = [inside, outside, -inside]
        if dtype.kind == "c":
            vals.append(np.array([-2 + 0j, 3 - 1j, -0.5j], dtype))
    out = []
    for v in vals:
        out += [v, v[::-2], v[:0], v[1]]
    return out


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", UNARY)
def test_unary(xp, dtype, name):
    for h in _inputs(dtype):
        h = np.asarray(h)
        d = xp.dev(h)
        same_outcome(xp, lambda: getattr(np.emath, name)(h),
                     lambda: getattr(gemath, name)(d), rtol=_rtol(dtype), atol=1e-6)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64, np.complex128],
                         ids=dtype_id)
def test_logn_and_power(xp, dtype):
    for h in _inputs(dtype):
        h = np.asarray(h)
        d = xp.dev(h)
        for base in (np.array(2, dtype), np.array(-2, dtype) if np.dtype(dtype).kind != "u"
                     else np.array(3, dtype)):
            same_outcome(xp, lambda: np.emath.logn(base, h),
                         lambda: gemath.logn(xp.dev(base), d), rtol=_rtol(dtype), atol=1e-6)
        exps = np.resize(np.array([-1, 2, 3, -2, 1]), h.shape)
        for p in (np.array(2), exps, exps.astype(np.float64)):
            same_outcome(xp, lambda: np.emath.power(h, p),
                         lambda: gemath.power(d, xp.dev(p)), rtol=_rtol(dtype), atol=1e-6)


def test_complex_switch_dtypes(xp):
    # The complex type NumPy picks: complex64 for float32, int8 and int16,
    # complex128 for float16 and the wide integers.
    for dtype in ("float16", "float32", "int8", "int16", "int32", "int64"):
        h = np.array([-4, 1], dtype)
        got = xp.host(gemath.sqrt(xp.dev(h)))
        assert got.dtype == np.emath.sqrt(h).dtype and got.dtype.kind == "c", dtype


def test_python_scalars(xp):
    for x in (-1, 4, 0.5, -0.5, 2.0, 1j):
        for name in UNARY:
            same_outcome(xp, lambda: getattr(np.emath, name)(x),
                         lambda: getattr(gemath, name)(x), rtol=1e-12, atol=1e-12)
