"""Conversion to Python scalars (``item``, ``tolist``, ``float``/``int``/``bool``/``complex``/
``operator.index``), formatting and printing.  The expected outcome (value, or exception
type) is always NumPy's on the same host array, so that NumPy-version-dependent rules
(e.g. conversion of ndim > 0 arrays) are followed rather than hard-coded."""

import operator

import numpy as np
import pytest

import gpuarr
from conftest import (
    ALL_DTYPES,
    GPU_MODULE,
    assert_same_exception,
    dtype_id,
    outcome,
    random_array,
    shape_id,
)

pytestmark = GPU_MODULE

SCALAR_SHAPES = [(), (1,), (1, 1), (2,), (0,), (2, 3)]

CONVERSIONS = {
    "float": float,
    "int": int,
    "bool": bool,
    "complex": complex,
    "operator.index": operator.index,
    "item": lambda x: x.item(),
    "tolist": lambda x: x.tolist(),
}


def assert_same_python_value(got, expected):
    """Equal Python values of the same type (recursively for lists)."""
    assert type(got) is type(expected), (type(got), type(expected), got, expected)
    if isinstance(expected, list):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same_python_value(g, e)
    elif isinstance(expected, (float, complex)) and expected != expected:  # NaN somewhere
        assert got != got, (got, expected)
    else:
        assert got == expected, (got, expected)
    assert repr(got) == repr(expected)


def assert_same_outcome(got, expected, *, message=False):
    g_kind, g_val, g_warn = got
    e_kind, e_val, e_warn = expected
    if e_kind == "raise":
        assert g_kind == "raise", f"NumPy raised {e_val!r}; gpuarr returned {g_val!r}"
        assert_same_exception(g_val, e_val, message=message)
    else:
        assert g_kind == "ok", f"gpuarr raised {g_val!r}; NumPy returned {e_val!r}"
        assert_same_python_value(g_val, e_val)
    assert g_warn == e_warn, f"warnings: gpuarr {g_warn}, NumPy {e_warn}"


@pytest.mark.parametrize("conv", list(CONVERSIONS))
@pytest.mark.parametrize("shape", SCALAR_SHAPES, ids=shape_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_scalar_conversions(rng, dtype, shape, conv):
    h = random_array(rng, shape, dtype)
    d = gpuarr.asarray(h)
    fn = CONVERSIONS[conv]
    assert_same_outcome(outcome(fn, d), outcome(fn, h))


@pytest.mark.parametrize("conv", list(CONVERSIONS))
@pytest.mark.parametrize("dtype", ["float64", "int32", "complex64", "bool", "float16", "uint64"])
def test_scalar_conversions_of_views(rng, dtype, conv):
    # A single element picked out of a larger array by a view.
    h = random_array(rng, (4, 5), dtype)
    d = gpuarr.asarray(h)
    fn = CONVERSIONS[conv]
    for key in [(2, 3), (slice(1, 2), slice(-1, None)), (-1, slice(None, None, -5)), (0, None, 4)]:
        hv = h[key + (Ellipsis,)]
        assert_same_outcome(outcome(fn, d[key]), outcome(fn, hv))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16"])
def test_scalar_conversions_special_floats(dtype):
    for value in (np.inf, -np.inf, np.nan, -0.0, 1e-40):
        h = np.array(value, dtype=dtype)
        d = gpuarr.asarray(h)
        for conv, fn in CONVERSIONS.items():
            assert_same_outcome(outcome(fn, d), outcome(fn, h))


@pytest.mark.parametrize(
    "value, dtype",
    [(2**63 - 1, "int64"), (-(2**63), "int64"), (2**64 - 1, "uint64"), (255, "uint8"),
     (-128, "int8"), (True, "bool"), (1e308, "float64"), (65504, "float16")],
    ids=repr,
)
def test_scalar_conversions_extremes(value, dtype):
    h = np.array(value, dtype=dtype)
    d = gpuarr.asarray(h)
    for conv, fn in CONVERSIONS.items():
        assert_same_outcome(outcome(fn, d), outcome(fn, h))


ITEM_ARGS = {
    (3, 4): [(0,), (5,), (-1,), (11,), (12,), (-12,), (-13,), (1, 2), (-1, -1), ((1, 2),),
             (3, 0), (0, 4), (1, 2, 3), (np.int64(2),), (np.int32(1), np.int64(-2)), ((1,),),
             (1.5,)],
    (5,): [(0,), (4,), (-5,), (5,), (-6,), ((2,),), (0, 0), (np.uint8(3),), (1.0,)],
    (): [(), (0,), (-1,), (1,), ((),)],
    (2, 3, 4): [(0,), (23,), (24,), (1, 2, 3), (-1, -1, -1), ((1, 0, 2),), (1, 2), (1, 3, 0)],
    (1, 1): [(), (0,), (0, 0), (-1, -1), (1,)],
}


@pytest.mark.parametrize("shape", list(ITEM_ARGS), ids=shape_id)
@pytest.mark.parametrize("dtype", ["float64", "int16", "complex128", "bool", "uint32", "float16"])
def test_item_with_indices(rng, dtype, shape):
    h = random_array(rng, shape, dtype)
    d = gpuarr.asarray(h)
    for args in ITEM_ARGS[shape]:
        got, expected = outcome(d.item, *args), outcome(h.item, *args)
        # NumPy's messages for IndexError/ValueError must be reproduced too.
        message = expected[0] == "raise" and isinstance(expected[1], (IndexError, ValueError))
        assert_same_outcome(got, expected, message=message)


@pytest.mark.parametrize("dtype", ["int64", "float32", "complex64"])
def test_item_of_noncontiguous(rng, dtype):
    h = random_array(rng, (6, 8), dtype)
    d = gpuarr.asarray(h)
    for hv, dv in [(h[::2, ::-3], d[::2, ::-3]), (h.T, d.T), (h[1:, 2], d[1:, 2])]:
        for i in range(-hv.size, hv.size):
            assert_same_outcome(outcome(dv.item, i), outcome(hv.item, i))
        if hv.ndim == 2:
            assert_same_outcome(outcome(dv.item, 1, 1), outcome(hv.item, 1, 1))


@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3), (2, 0, 3), (2, 3, 2)], ids=shape_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_tolist(rng, dtype, shape):
    h = random_array(rng, shape, dtype)
    d = gpuarr.asarray(h)
    assert_same_python_value(d.tolist(), h.tolist())
    if h.ndim >= 2:
        assert_same_python_value(d.T.tolist(), h.T.tolist())
        assert_same_python_value(d[:, ::-1].tolist(), h[:, ::-1].tolist())
    hf = np.asfortranarray(h)
    assert_same_python_value(gpuarr.asarray(hf).tolist(), hf.tolist())


def test_scalars_in_python_contexts(rng):
    h = random_array(rng, (), "int64")
    d = gpuarr.asarray(np.array(3, dtype=np.int64))
    assert [10, 20, 30, 40][d] == 40  # __index__
    assert range(10)[d] == 3
    assert operator.index(d) == 3
    assert bool(gpuarr.asarray(np.array(0.0))) is False
    assert bool(gpuarr.asarray(np.array([2.5]))) is bool(np.array([2.5]))
    x = gpuarr.asarray(h)
    assert int(x) == int(h) and float(x) == float(h)


# --- __format__ --------------------------------------------------------------------------

FORMAT_SPECS = ["", ".3e", ".2f", ">12", "+.1%", "x", "^9.4g", "d", "_"]


@pytest.mark.parametrize("spec", FORMAT_SPECS, ids=repr)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_format_0d(rng, dtype, spec):
    h = random_array(rng, (), dtype)
    d = gpuarr.asarray(h)
    got = outcome(format, d, spec)
    expected = outcome(format, h, spec)
    assert_same_outcome(got, expected)


def test_fstring_0d(rng):
    h = random_array(rng, (), "float64")
    d = gpuarr.asarray(h)
    assert f"{d:.3e}" == f"{h:.3e}"
    assert f"{d}" == f"{h}"
    assert f"{d!r}" == f"{h!r}"
    h32 = random_array(rng, (), "float32")
    assert f"{gpuarr.asarray(h32):.3e}" == f"{h32:.3e}"


@pytest.mark.parametrize("spec", ["", ".3e", ">5"], ids=repr)
@pytest.mark.parametrize("shape", [(1,), (3,), (2, 2)], ids=shape_id)
def test_format_nd(rng, shape, spec):
    h = random_array(rng, shape, "float64")
    d = gpuarr.asarray(h)
    assert_same_outcome(outcome(format, d, spec), outcome(format, h, spec))


# --- repr / str ----------------------------------------------------------------------------

PRINT_SHAPES = [(), (0,), (3, 0), (1,), (7,), (3, 4), (2, 3, 4), (2000,), (40, 50)]


@pytest.mark.parametrize("shape", PRINT_SHAPES, ids=shape_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_repr_str(rng, dtype, shape):
    h = random_array(rng, shape, dtype)
    d = gpuarr.asarray(h)
    assert repr(d) == repr(h)
    assert str(d) == str(h)
    if h.ndim >= 2:
        assert repr(d.T) == repr(h.T)
        assert str(d[::-1, ::2]) == str(h[::-1, ::2])


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "int64", "bool"])
def test_repr_large_summarised(rng, dtype):
    h = random_array(rng, (10**6,), dtype)
    d = gpuarr.asarray(h)
    r = repr(d)
    assert "..." in r
    assert r == repr(h)
    assert str(d) == str(h)
    h2 = random_array(rng, (1000, 1000), dtype)
    d2 = gpuarr.asarray(h2)
    assert repr(d2) == repr(h2) and "..." in repr(d2)


PRINTOPTIONS = [
    {"precision": 3},
    {"threshold": 5},
    {"threshold": 5, "edgeitems": 1},
    {"precision": 2, "suppress": True},
    {"linewidth": 40},
    {"floatmode": "unique"},
    {"sign": "+"},
    {"legacy": "1.25"},
]


@pytest.mark.parametrize("opts", PRINTOPTIONS, ids=repr)
@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "complex64", "int32", "bool"])
def test_repr_printoptions(rng, dtype, opts):
    h = random_array(rng, (6, 7), dtype) / (7 if dtype not in ("int32", "bool") else 1)
    h = h.astype(dtype)
    d = gpuarr.asarray(h)
    h0 = random_array(rng, (), dtype)
    d0 = gpuarr.asarray(h0)
    with np.printoptions(**opts):
        assert repr(d) == repr(h)
        assert str(d) == str(h)
        assert repr(d0) == repr(h0)
        assert str(d0) == str(h0)
        assert repr(d[1:, ::2]) == repr(h[1:, ::2])


def test_str_special_values():
    h = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-300, 1e300])
    d = gpuarr.asarray(h)
    assert repr(d) == repr(h) and str(d) == str(h)


# --- no implicit conversion to NumPy -------------------------------------------------------

IMPLICIT_MSG = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
                "construct a NumPy array explicitly.")


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)], ids=shape_id)
def test_no_implicit_numpy_conversion(rng, shape):
    d = gpuarr.asarray(random_array(rng, shape, "float32"))
    with pytest.raises(TypeError) as info:
        np.asarray(d)
    assert str(info.value) == IMPLICIT_MSG
    with pytest.raises(TypeError) as info:
        np.array(d)
    assert str(info.value) == IMPLICIT_MSG
    with pytest.raises(TypeError) as info:
        np.asarray(d, dtype=np.float64)
    assert str(info.value) == IMPLICIT_MSG
