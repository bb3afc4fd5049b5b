"""Host-side checks of the ufunc engine's planning against NumPy: which loop (and so which
result dtype) every ufunc picks for every pair of dtypes and for Python scalars (NEP 50),
and the errors for unsupported types. Runs without a GPU."""

import itertools
import warnings

import numpy as np
import pytest

import gpuarr as ga
from gpuarr import _core

DTYPES = [np.dtype(c) for c in "?bBhHiIlLefdFD"]
UFUNCS = sorted(_core._ufuncs)
UNARY = [n for n in UFUNCS if _core._ufuncs[n].nin == 1]
BINARY = [n for n in UFUNCS if _core._ufuncs[n].nin == 2]


def numpy_loop(name, operands, dtype=None):
    """The loop NumPy uses, as 'ff->f', or the exception type it raises."""
    ufunc = getattr(np, name)
    args = [np.ones(1, dtype=o) if isinstance(o, np.dtype) else o for o in operands]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kw = {} if dtype is None else {"dtype": dtype}
            r = ufunc(*args, **kw)
    except (TypeError, OverflowError, ValueError) as e:  # noqa: PERF203
        return type(e)
    return r.dtype


def gpuarr_loop(name, operands, dtype=None):
    try:
        t = _core._ufunc_loop_for(name, operands, dtype)
    except (TypeError, OverflowError, ValueError) as e:
        return type(e)
    return np.dtype(t.split("->")[1].replace("l", "q").replace("L", "Q"))


def canon(r):
    return r if isinstance(r, type) else np.dtype(r)


@pytest.mark.parametrize("name", UNARY)
def test_unary_loop_matches_numpy(name):
    for dt in DTYPES:
        expected = numpy_loop(name, [dt])
        got = gpuarr_loop(name, [dt])
        if isinstance(expected, type):
            assert isinstance(got, type) and issubclass(expected, got), (name, dt, expected, got)
        else:
            assert got == expected, (name, dt, expected, got)


@pytest.mark.parametrize("name", BINARY)
def test_binary_loop_matches_numpy(name):
    for a, b in itertools.product(DTYPES, DTYPES):
        expected = numpy_loop(name, [a, b])
        got = gpuarr_loop(name, [a, b])
        if isinstance(expected, type):
            assert isinstance(got, type) and issubclass(expected, got), (name, a, b, expected, got)
        else:
            assert got == expected, (name, a, b, expected, got)


SCALARS = [True, 3, -2, 2.5, 1.5 + 2j]


@pytest.mark.parametrize("name", BINARY)
def test_python_scalars_are_weak(name):
    for dt, s in itertools.product(DTYPES, SCALARS):
        for operands in ([dt, s], [s, dt]):
            expected = numpy_loop(name, operands)
            got = gpuarr_loop(name, operands)
            if expected in (OverflowError, ValueError):
                continue  # raised from the scalar's value, not loop selection (GPU tests)
            if isinstance(expected, type):
                assert isinstance(got, type), (name, operands, expected, got)
            else:
                assert got == expected, (name, operands, expected, got)


@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "maximum", "divide"])
def test_dtype_argument(name):
    for dt, forced in itertools.product(DTYPES, [np.float32, np.float64, np.int64, np.complex64]):
        expected = numpy_loop(name, [dt, dt], forced)
        got = gpuarr_loop(name, [dt, dt], forced)
        if isinstance(expected, type):
            assert isinstance(got, type), (name, dt, forced, expected, got)
        else:
            assert got == expected, (name, dt, forced, expected, got)


def test_error_messages_match_numpy():
    with pytest.raises(TypeError, match=r"ufunc 'bitwise_and' not supported for the input types"):
        _core._ufunc_loop_for("bitwise_and", [np.dtype("f8"), np.dtype("f8")])
    with pytest.raises(TypeError, match="numpy boolean subtract"):
        _core._ufunc_loop_for("subtract", [np.dtype("?"), np.dtype("?")])
    with pytest.raises(TypeError, match="numpy boolean negative"):
        _core._ufunc_loop_for("negative", [np.dtype("?")])


def test_promotion_helpers_match_numpy():
    for a, b in itertools.product(DTYPES, DTYPES):
        assert _core._promote_types(a, b) == np.promote_types(a, b), (a, b)
        for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
            assert _core._can_cast_dtypes(a, b, casting) == np.can_cast(a, b, casting), (a, b, casting)
    assert ga.result_type(np.float32, 2.0) == np.float32
    assert ga.promote_types("i1", "u1") == np.int16
    assert ga.can_cast(np.int64, np.float32, "same_kind")
    assert ga.finfo(np.float16).eps == np.finfo(np.float16).eps
    assert ga.iinfo(np.int8).min == -128


def test_ufunc_objects_look_like_numpys():
    assert repr(ga.add) == "<ufunc 'add'>"
    assert ga.add.nin == 2 and ga.add.nout == 1 and ga.add.nargs == 3
    assert ga.sqrt.__name__ == "sqrt"
    assert ga.mod is ga.remainder and ga.abs is ga.absolute and ga.true_divide is ga.divide
    assert ga.acos is ga.arccos and ga.pow is ga.power
    for name in UFUNCS:
        if name in ("where", "clip"):
            continue
        ok = set("?bBhHiIlLefdFD")
        expected = []
        for t in getattr(np, name).types:
            if all(c in ok for c in t.replace("->", "")) and t not in expected:
                expected.append(t)
        assert getattr(ga, name).types == expected, name


def test_unsupported_operand_types_raise_type_error():
    with pytest.raises(TypeError, match="Unsupported type <class 'list'>"):
        ga.add([1, 2], 1)
    with pytest.raises(TypeError, match="invalid keyword"):
        ga.add(1, 2, bogus=3)
