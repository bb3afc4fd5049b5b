"""Property tests (hypothesis) of broadcasting and promotion against NumPy: the host rules
(shape arithmetic, loop selection) without a GPU, and elementwise values on one."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gpuarr as ga
from gpuarr import _core
from conftest import gpu_test

dims = st.integers(min_value=0, max_value=4)
shapes = st.lists(dims, min_size=0, max_size=4).map(tuple)
DTYPE_CHARS = "?bBhHiIlLefdFD"
dtypes = st.sampled_from(DTYPE_CHARS).map(np.dtype)
scalars = st.one_of(st.booleans(), st.integers(-100, 100), st.floats(-10, 10, allow_nan=False),
                    st.complex_numbers(max_magnitude=10, allow_nan=False))


def numpy_outcome(fn):
    try:
        return fn()
    except ValueError:
        return ValueError


@settings(max_examples=300, deadline=None)
@given(st.lists(shapes, min_size=1, max_size=4))
def test_broadcast_shapes_match_numpy(shape_list):
    expected = numpy_outcome(lambda: np.broadcast_shapes(*shape_list))
    got = numpy_outcome(lambda: ga.broadcast_shapes(*shape_list))
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(dtypes, st.one_of(dtypes, scalars), st.sampled_from(["add", "multiply", "maximum", "less", "divide", "power"]))
def test_loop_selection_matches_numpy(a, b, name):
    ops = [np.ones(2, a), np.ones(2, b) if isinstance(b, np.dtype) else b]
    try:
        with np.errstate(all="ignore"):
            expected = getattr(np, name)(*ops).dtype
    except (TypeError, OverflowError, ValueError):
        expected = None
    try:
        got = np.dtype(_core._ufunc_loop_for(name, [a, b]).split("->")[1].replace("l", "q").replace("L", "Q"))
    except (TypeError, OverflowError, ValueError):
        got = None
    if expected is not None:
        assert got == expected, (a, b, name)


@gpu_test
@settings(max_examples=60, deadline=None)
@given(shapes, shapes, st.sampled_from(["f", "i", "d"]))
def test_broadcast_values_match_numpy(sa, sb, char):
    rng = np.random.default_rng(0)
    a = rng.integers(-9, 9, sa).astype(char)
    b = rng.integers(-9, 9, sb).astype(char)
    try:
        expected = a * b + a
    except ValueError:
        with pytest.raises(ValueError, match="operands could not be broadcast together"):
            ga.asarray(a) * ga.asarray(b)
        return
    got = ga.asarray(a) * ga.asarray(b) + ga.asarray(a)
    np.testing.assert_array_equal(ga.asnumpy(got), expected)
