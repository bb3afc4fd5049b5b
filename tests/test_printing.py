"""Printing (array2string, array_repr, array_str, format_float_*, base_repr, binary_repr)
and the print options against NumPy: the same text for the same values, over dtypes, 0-d,
empty and non-contiguous arrays; set_printoptions governs the repr of gpuarr arrays as of
NumPy's. Runs on the device and with NumPy standing in for it."""

import numpy as np
import pytest

import gpuarr as ga
from _numpy_composed import xp  # noqa: F401  (xp is a fixture)
from conftest import GPU_MODULE, dtype_id, outcome, public_exception_type, random_array

DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint32", "int64", "float16", "float32",
                                "float64", "complex64", "complex128")]
SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4), (2000,)]


def _same_text(np_call, ga_call):
    kind_e, e, _ = outcome(np_call)
    kind_g, g, _ = outcome(ga_call)
    if kind_e == "raise":
        assert kind_g == "raise", f"NumPy raised {e!r}, gpuarr returned {g!r}"
        assert isinstance(g, public_exception_type(e)), (g, e)
    else:
        if kind_g == "raise":
            raise g
        assert g == e


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_array_text(xp, rng, dtype, shape):
    h = random_array(rng, shape, dtype)
    d = xp.dev(h)
    views = [(h, d)] + ([(h[..., ::-2], d[..., ::-2]), (h.T, d.T)] if h.ndim else [])
    for hv, dv in views:
        _same_text(lambda: np.array2string(hv), lambda: ga.array2string(dv))
        _same_text(lambda: np.array_repr(hv), lambda: ga.array_repr(dv))
        _same_text(lambda: np.array_str(hv), lambda: ga.array_str(dv))
    kwargs = dict(max_line_width=40, precision=3, suppress_small=True, separator=", ",
                  prefix="x = ", threshold=10, edgeitems=2, sign="+", floatmode="fixed",
                  suffix=";")
    _same_text(lambda: np.array2string(h, **kwargs), lambda: ga.array2string(d, **kwargs))
    _same_text(lambda: np.array2string(h, formatter={"all": lambda v: "<v>"}),
               lambda: ga.array2string(d, formatter={"all": lambda v: "<v>"}))
    _same_text(lambda: np.array2string(h, legacy="1.13"),
               lambda: ga.array2string(d, legacy="1.13"))
    _same_text(lambda: np.array_repr(h, 30, 2, True), lambda: ga.array_repr(d, 30, 2, True))
    _same_text(lambda: np.array_str(h, 30, 2, True), lambda: ga.array_str(d, 30, 2, True))


def test_array_text_errors(xp):
    h = np.arange(4.0)
    d = xp.dev(h)
    for kwargs in ({"sign": "x"}, {"floatmode": "bad"}, {"legacy": "0.1"}):
        _same_text(lambda: np.array2string(h, **kwargs), lambda: ga.array2string(d, **kwargs))


def test_float_formatters(xp):
    for value in (np.float64(1.5), np.float32(0.1), np.float16(-2.5), 3, np.float64(np.nan),
                  np.float64(-np.inf), 1e-300):
        h = np.array(value)
        d = xp.dev(h)
        for kwargs in ({}, {"precision": 3, "unique": False}, {"sign": True, "pad_left": 4},
                       {"trim": "-", "min_digits": 2}):
            _same_text(lambda: np.format_float_positional(value, **kwargs),
                       lambda: ga.format_float_positional(value, **kwargs))
            _same_text(lambda: np.format_float_positional(h, **kwargs),
                       lambda: ga.format_float_positional(d, **kwargs))
            _same_text(lambda: np.format_float_scientific(h, **kwargs),
                       lambda: ga.format_float_scientific(d, **kwargs))
        _same_text(lambda: np.format_float_positional(h, pad_right=5, fractional=False),
                   lambda: ga.format_float_positional(d, pad_right=5, fractional=False))
        _same_text(lambda: np.format_float_scientific(h, exp_digits=4),
                   lambda: ga.format_float_scientific(d, exp_digits=4))
    h1 = np.array([1.5])
    _same_text(lambda: np.format_float_positional(h1), lambda: ga.format_float_positional(
        xp.dev(h1)))
    _same_text(lambda: np.format_float_scientific(h1), lambda: ga.format_float_scientific(
        xp.dev(h1)))


def test_integer_formatters():
    for args in ((10,), (-10, 3), (255, 16, 2), (0,), (5, 40), (5, 1)):
        _same_text(lambda: np.base_repr(*args), lambda: ga.base_repr(*args))
    for args in ((5,), (-5, 8), (0,), (-3,), (12, 2)):
        _same_text(lambda: np.binary_repr(*args), lambda: ga.binary_repr(*args))


def test_print_options_are_numpys():
    before = ga.get_printoptions()
    assert before == np.get_printoptions()
    try:
        ga.set_printoptions(precision=2, threshold=5)
        assert np.get_printoptions()["precision"] == 2
        with ga.printoptions(precision=6, sign="+"):
            assert ga.get_printoptions()["sign"] == "+"
            assert np.get_printoptions()["precision"] == 6
        assert ga.get_printoptions()["precision"] == 2
    finally:
        np.set_printoptions(**before)
    assert ga.get_printoptions() == before


@pytest.mark.gpu
@GPU_MODULE[1]
def test_print_options_govern_device_arrays():
    h = np.linspace(0, 1, 30).reshape(5, 6) * np.pi
    d = ga.asarray(h)
    before = np.get_printoptions()
    try:
        for options in ({"precision": 2}, {"threshold": 5, "edgeitems": 1},
                        {"suppress": True, "linewidth": 30}, {"floatmode": "unique"}):
            ga.set_printoptions(**options)
            assert repr(d) == repr(h) and str(d) == str(h)
            assert repr(d[::2, 1]) == repr(h[::2, 1])
            with ga.printoptions(precision=1):
                assert repr(d) == repr(h)
            np.set_printoptions(**before)
    finally:
        np.set_printoptions(**before)
    for dt in DTYPES:
        hd = random_array(np.random.default_rng(0), (3, 2), dt)
        assert repr(ga.asarray(hd)) == repr(hd)
        assert str(ga.asarray(hd)[::-1]) == str(hd[::-1])
