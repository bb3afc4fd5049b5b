"""Reductions and cumulative ops against NumPy: every dtype, shapes 0-d/empty/1-d/n-d,
non-contiguous and negative-stride views, axis (int, tuple, None, negative), keepdims,
dtype=, out=, ddof, NaN/inf, errors and warnings."""

import inspect
import warnings

import numpy as np
import pytest

import gpuarr
from conftest import (
    ALL_DTYPES,
    INEXACT_DTYPES,
    assert_same_exception,
    dtype_id,
    gpu_test,
    outcome,
)

REDUCE_OPS = [
    "sum", "prod", "mean", "var", "std", "min", "max", "amin", "amax", "ptp", "argmin",
    "argmax", "all", "any", "count_nonzero", "nansum", "nanprod", "nanmean", "nanvar",
    "nanstd", "nanmin", "nanmax", "nanargmin", "nanargmax",
]
ARG_OPS = {"argmin", "argmax", "nanargmin", "nanargmax"}
EXACT_OPS = {"min", "max", "amin", "amax", "ptp", "argmin", "argmax", "all", "any",
             "count_nonzero", "nanmin", "nanmax", "nanargmin", "nanargmax"}

# (shape, axis, keepdims)
CASES = [
    ((), None, False), ((), 0, False), ((), -1, True),
    ((0,), None, False), ((0,), 0, True), ((3, 0), 1, False), ((3, 0), 0, False),
    ((0, 4), 1, True),
    ((1,), None, False), ((7,), None, False), ((7,), 0, True), ((5, 6), None, True),
    ((5, 6), 0, False), ((5, 6), 1, False), ((5, 6), -1, True), ((2, 3, 4), (0, 2), False),
    ((2, 3, 4), (1,), True), ((2, 3, 4), None, False), ((4, 3, 5), (-1, -2), False),
    ((3, 1, 4), 1, False), ((33, 65), 0, False), ((65, 33), 1, False),
]

# Views of a fresh host array that are not C-contiguous: slices, negative steps, transposes.
VIEWS = {
    "step2": (lambda x: x[::2], (14, 6)),
    "reversed": (lambda x: x[::-1, ::-1], (5, 6)),
    "transposed": (lambda x: x.T, (6, 5)),
    "slice3d": (lambda x: x[1:, ::-2, 1:4], (3, 7, 5)),
    "fortran": (lambda x: np.asfortranarray(x), (4, 5, 6)),
}
VIEW_AXES = [None, 0, -1, (0, 1)]

RTOL = {"float16": 2e-3, "float32": 2e-5, "float64": 1e-12, "complex64": 2e-5,
        "complex128": 1e-12}


def data_for(rng, op, shape, dtype):
    """Host data suited to `op`: floats16 small integers (sums exact), products near 1,
    full-range integers elsewhere (integer sums/products wrap identically in any order)."""
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind in "iu":
        if op in ("mean", "nanmean", "var", "std", "nanvar", "nanstd") and dtype.itemsize == 8:
            info = np.iinfo(dtype)
            return rng.integers(info.min // 4, info.max // 4, size=shape, dtype=dtype)
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    prodlike = "prod" in op
    if dtype == np.float16:
        if prodlike:
            return rng.choice(np.array([0.5, 1.0, 1.0, 2.0, -1.0]), size=shape).astype(dtype)
        return rng.integers(-8, 9, size=shape).astype(dtype)
    if prodlike:
        mag = rng.uniform(0.8, 1.25, size=shape)
        if dtype.kind == "c":
            return (mag * np.exp(1j * rng.uniform(-3, 3, size=shape))).astype(dtype)
        return (mag * rng.choice([-1.0, 1.0], size=shape)).astype(dtype)
    re = rng.standard_normal(size=shape) * 10
    if dtype.kind == "c":
        return (re + 1j * rng.standard_normal(size=shape) * 10).astype(dtype)
    # Ties for the arg ops and min/max: round to a coarse grid.
    if op in EXACT_OPS:
        re = np.round(re)
    return re.astype(dtype)


def _scale(op, h, axis, keepdims, expected):
    """The magnitude errors of a float reduction scale with (for the tolerance)."""
    x = np.abs(h.astype(np.complex128 if h.dtype.kind == "c" else np.float64))
    x = np.where(np.isnan(x), 0, x)
    kw = {"axis": axis, "keepdims": keepdims}
    if x.size == 0:
        return np.zeros(np.shape(expected))
    if op in ("sum", "nansum"):
        return np.sum(x, **kw)
    if op in ("mean", "nanmean"):
        return np.max(x, **kw) if x.ndim else x
    if op in ("var", "nanvar"):
        return (np.max(x, **kw) if x.ndim else x) ** 2
    if op in ("std", "nanstd"):
        return np.max(x, **kw) if x.ndim else x
    return np.abs(np.asarray(expected)).astype(np.float64)


def assert_matches(op, got, expected, h=None, axis=None, keepdims=False, rtol_scale=1.0):
    assert isinstance(got, gpuarr.ndarray), type(got)
    g = got.get()
    e = np.asarray(expected)
    assert g.dtype == e.dtype, (op, g.dtype, e.dtype)
    assert g.shape == e.shape, (op, g.shape, e.shape)
    if e.dtype.kind in "biu" or op in EXACT_OPS or h is None:
        np.testing.assert_array_equal(g, e)
        return
    rtol = RTOL[e.dtype.name] * rtol_scale
    if "prod" in op:
        n = max(1, h.size // max(1, e.size))
        rtol *= 4 * n
        if e.dtype == np.float16:
            rtol = 0.05
    scale = _scale(op, h, axis, keepdims, e)
    ge = g.astype(np.complex128)
    ee = e.astype(np.complex128)
    both_nan = np.isnan(ge) & np.isnan(ee)
    same_inf = (ge == ee)
    ok = both_nan | same_inf | (np.abs(ge - ee) <= rtol * (scale + np.abs(ee)) + 1e-300)
    assert ok.all(), f"{op}: got {g} expected {e} (rtol {rtol})"


# The warnings that NumPy's reductions give themselves (NumPy's elementwise "invalid value
# encountered" warnings along the way are not reproduced).
REDUCTION_WARNINGS = ("Mean of empty slice", "Degrees of freedom <= 0 for slice",
                      "All-NaN slice encountered")


def outcome_msgs(fn, *args, **kwargs):
    """Like conftest.outcome, but the warnings are the reduction messages seen."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            res = ("ok", fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001
            res = ("raise", e)
    seen = {m for m in REDUCTION_WARNINGS for x in w
            if issubclass(x.category, RuntimeWarning) and str(x.message).startswith(m)}
    return res[0], res[1], sorted(seen)


def compare(op, h, *args, rtol_scale=1.0, check_warnings=False, **kw):
    d = gpuarr.asarray(h)
    ek, ev, ew = outcome_msgs(getattr(np, op), h, *args, **kw)
    gk, gv, gw = outcome_msgs(getattr(gpuarr, op), d, *args, **kw)
    if ek == "raise":
        assert gk == "raise", f"{op}{args}{kw}: NumPy raised {ev!r}, gpuarr returned {gv!r}"
        assert_same_exception(gv, ev, message=not isinstance(ev, TypeError))
        return
    assert gk == "ok", f"{op}{args}{kw}: gpuarr raised {gv!r}, NumPy returned {ev!r}"
    if check_warnings:
        assert gw == ew, (op, args, kw, gw, ew)
    axis = kw.get("axis", args[0] if args else None)
    assert_matches(op, gv, ev, h, axis, kw.get("keepdims", False), rtol_scale)


# ------------------------------------------------------------------------- host only


def test_api_surface():
    for name in REDUCE_OPS + ["cumsum", "cumprod", "average"]:
        assert callable(getattr(gpuarr, name)), name
        assert name in gpuarr.__all__, name
    for name in ("sum", "prod", "max", "min", "argmax", "argmin", "all", "any", "mean", "var",
                 "std", "cumsum", "cumprod"):
        assert callable(getattr(gpuarr.ndarray, name)), name
    # Parameter names as NumPy's (those gpuarr supports).
    for name in ("sum", "mean", "var", "std", "argmax", "cumsum", "nanvar"):
        ours = list(inspect.signature(getattr(gpuarr, name)).parameters)
        theirs = list(inspect.signature(getattr(np, name)).parameters)
        common = [p for p in ours if p in theirs]
        assert common == [p for p in theirs if p in common], (name, ours, theirs)
        assert {"a", "axis", "out"} <= set(common), (name, ours)
    assert gpuarr.amax is gpuarr.max and gpuarr.amin is gpuarr.min


# -------------------------------------------------------------------- every op/dtype


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", REDUCE_OPS)
def test_reduce(op, dtype, rng):
    for shape, axis, keepdims in CASES:
        if op in ARG_OPS and isinstance(axis, tuple):
            continue
        if op == "count_nonzero" and shape == () and axis is not None:
            continue  # NumPy's count_nonzero is not a ufunc reduction there
        h = data_for(rng, op, shape, dtype)
        compare(op, h, axis=axis, keepdims=keepdims)


@gpu_test
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32",
                                   "float64", "complex64", "complex128"])
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("op", ["sum", "prod", "mean", "var", "max", "argmin", "argmax", "any",
                                "count_nonzero", "nanmin", "ptp"])
def test_reduce_views(op, view, dtype, rng):
    if op == "ptp" and dtype == "bool":
        pytest.skip("TypeError covered by test_reduce")
    make, base_shape = VIEWS[view]
    base = data_for(rng, op, base_shape, dtype)
    h = make(base)
    if view == "fortran":
        d = gpuarr.asarray(h)
    else:
        d = make(gpuarr.asarray(base))
    for axis in VIEW_AXES:
        if op in ARG_OPS and isinstance(axis, tuple):
            continue
        kw = {"axis": axis}
        expected = getattr(np, op)(h, **kw)
        got = getattr(gpuarr, op)(d, **kw)
        assert_matches(op, got, expected, h, axis)


# ---------------------------------------------------------- large: split and vector paths

LARGE = [((300_001,), None), ((1000, 300), 0), ((300, 1000), 1), ((7, 50_000), 1),
         ((50_000, 7), 0), ((64, 32, 64), (0, 2)), ((40, 5000), None), ((3, 70_000), 0)]


@gpu_test
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64", "complex64"])
@pytest.mark.parametrize("op", ["sum", "mean", "var", "max", "argmax", "nanmin", "all",
                                "count_nonzero"])
def test_reduce_large(op, dtype, rng):
    for i, (shape, axis) in enumerate(LARGE):
        if op in ARG_OPS and isinstance(axis, tuple):
            continue
        h = data_for(rng, op, shape, dtype)
        if op == "all":
            h = np.where(h == 0, 1, h).astype(h.dtype)
            if i % 2:
                h.reshape(-1)[h.size // 2] = 0  # one False in the middle
        compare(op, h, axis=axis, rtol_scale=10)
        # An unaligned start (offset of one element) takes the scalar head path.
        if len(shape) == 1:
            compare(op, h[1:], axis=axis, rtol_scale=10)


# Rows long enough that each chunk holds four or more of a block's loading steps, which
# rounds the chunks to whole steps (core reduce_chunk_len): 16 float32 a thread, 8 float64,
# 64 int8. With an odd tail, from an unaligned start, and two outputs a row each.
WHOLE_STEPS = [("float32", (2**24 + 4097,), None), ("float32", (2, 9_000_011), 1),
               ("float64", (2**23 + 3,), None), ("int8", (36_000_001,), None)]


@gpu_test
@pytest.mark.parametrize("dtype,shape,axis", WHOLE_STEPS)
@pytest.mark.parametrize("op", ["sum", "mean", "std", "max", "argmax", "count_nonzero"])
def test_chunks_of_whole_block_steps(op, dtype, shape, axis, rng):
    h = data_for(rng, op, shape, dtype)
    compare(op, h, axis=axis, rtol_scale=10)
    if len(shape) == 1:
        compare(op, h[1:], axis=axis, rtol_scale=10)


@gpu_test
def test_sum_float32_large_unaligned_and_returned_0d(rng):
    h = rng.standard_normal(1 << 22).astype(np.float32)
    d = gpuarr.asarray(h)
    for sl in (slice(None), slice(1, None), slice(3, -5), slice(None, None, -1)):
        got = gpuarr.sum(d[sl])
        assert isinstance(got, gpuarr.ndarray) and got.shape == () and got.dtype == np.float32
        exp = np.sum(h[sl].astype(np.float64))
        assert abs(float(got) - exp) <= 1e-5 * np.sum(np.abs(h[sl]))


# ----------------------------------------------------------------- dtype=, out=, ddof


@gpu_test
@pytest.mark.parametrize("src", ["bool", "int8", "uint32", "int64", "float16", "float32",
                                 "complex64"])
@pytest.mark.parametrize("op", ["sum", "prod", "mean", "var", "std", "nansum", "cumsum",
                                "cumprod"])
def test_dtype_argument(op, src, rng):
    for dt in ["int8", "int64", "uint64", "float16", "float32", "float64", "complex128"]:
        if np.dtype(src).kind == "c" and np.dtype(dt).kind != "c":
            continue  # NumPy: ComplexWarning and a discarded imaginary part
        if op in ("mean", "var", "std") and np.dtype(dt).kind in "iu":
            continue  # gpuarr computes these in float64 and casts (NumPy sums in the int dtype)
        h = data_for(rng, op, (6, 5), src)
        if "prod" in op and np.dtype(src).kind in "iu":
            h = rng.integers(-3, 4, size=(6, 5)).astype(src) if src[0] != "u" else \
                rng.integers(0, 4, size=(6, 5)).astype(src)
        if dt == "float16" and np.dtype(src).kind in "iu":
            h = (h % 7).astype(src)
            if op == "cumprod":
                # -1, 0, 1: no float16 overflow. After one, NumPy's sequential loop turns
                # inf * 0 into NaN where a parallel scan may have multiplied the 0 first.
                h = (h % 3 - 1).astype(src)
        for axis in (None, 0, 1):
            if op.startswith("cum"):
                exp = getattr(np, op)(h, axis=axis, dtype=dt)
                got = getattr(gpuarr, op)(gpuarr.asarray(h), axis=axis, dtype=dt)
                assert got.dtype == exp.dtype
                if exp.dtype.kind in "fc":
                    np.testing.assert_allclose(got.get(), exp, rtol=0.1 if dt == "float16" else 1e-4,
                                               atol=1e-2 * np.max(np.abs(exp)) if exp.size else 0)
                else:
                    np.testing.assert_array_equal(got.get(), exp)
            else:
                compare(op, h, axis=axis, dtype=dt, rtol_scale=50)


@gpu_test
@pytest.mark.parametrize("op", ["sum", "prod", "max", "argmax", "all", "mean", "std", "nanmax",
                                "count_nonzero"])
def test_out_argument(op, rng):
    h = data_for(rng, op, (4, 6), "float32")
    d = gpuarr.asarray(h)
    kw_out = op != "count_nonzero"
    for axis, keepdims in ((0, False), (1, True), (None, False)):
        exp = getattr(np, op)(h, axis=axis, keepdims=keepdims)
        if not kw_out:
            continue
        exp = np.asarray(exp)
        out = gpuarr.zeros(exp.shape, dtype=exp.dtype)
        r = getattr(gpuarr, op)(d, axis=axis, out=out, keepdims=keepdims)
        assert r is out
        assert_matches(op, out, exp, h, axis, keepdims)
        # A non-contiguous out= receives the values too.
        if exp.ndim == 1 and exp.shape[0] > 1:
            big = gpuarr.zeros((exp.shape[0] * 2,), dtype=exp.dtype)
            r = getattr(gpuarr, op)(d, axis=axis, out=big[::2], keepdims=keepdims)
            assert_matches(op, big[::2], exp, h, axis, keepdims)
            np.testing.assert_array_equal(big[1::2].get(), 0)
    if not kw_out:
        return
    # Wrong shape: ValueError as NumPy.
    bad = gpuarr.zeros((5,), dtype=np.asarray(getattr(np, op)(h)).dtype)
    with pytest.raises(ValueError):
        getattr(gpuarr, op)(d, axis=0, out=bad)
    with pytest.raises(ValueError):
        getattr(np, op)(h, axis=0, out=bad.get())


@gpu_test
def test_out_casting():
    h = np.arange(12, dtype=np.float64).reshape(3, 4)
    d = gpuarr.asarray(h)
    # sum with an integer out accumulates in out's dtype (as NumPy's add.reduce).
    out = gpuarr.zeros((4,), dtype=np.int64)
    gpuarr.sum(d, axis=0, out=out)
    np.testing.assert_array_equal(out.get(), np.sum(h, axis=0, out=np.zeros(4, np.int64)))
    # max into a float32 out casts; into an int64 out NumPy reduces in int64 (no error).
    o32 = gpuarr.zeros((3,), dtype=np.float32)
    gpuarr.max(d, axis=1, out=o32)
    np.testing.assert_array_equal(o32.get(), np.max(h, axis=1).astype(np.float32))
    oi64 = gpuarr.zeros((3,), dtype=np.int64)
    gpuarr.max(d, axis=1, out=oi64)
    np.testing.assert_array_equal(oi64.get(), np.max(h, axis=1, out=np.zeros(3, np.int64)))
    # argmax into a float out is a TypeError (NumPy's 'safe' rule for its index output).
    with pytest.raises(TypeError):
        np.argmax(h, axis=1, out=np.zeros(3, np.float64))
    with pytest.raises(TypeError):
        gpuarr.argmax(d, axis=1, out=gpuarr.zeros((3,), dtype=np.float64))
    o_i32 = gpuarr.zeros((3,), dtype=np.int32)
    gpuarr.argmax(d, axis=1, out=o_i32)
    np.testing.assert_array_equal(o_i32.get(), np.argmax(h, axis=1))
    # mean into an integer out: NumPy casts unsafely.
    oi = gpuarr.zeros((4,), dtype=np.int64)
    gpuarr.mean(d, axis=0, out=oi)
    np.testing.assert_array_equal(oi.get(), np.mean(h, axis=0, out=np.zeros(4, np.int64)))
    # out= aliasing the input.
    d2 = gpuarr.asarray(h.copy())
    gpuarr.sum(d2, axis=0, out=d2[0])
    h2 = h.copy()
    np.sum(h2, axis=0, out=h2[0])
    np.testing.assert_array_equal(d2.get(), h2)


@gpu_test
@pytest.mark.parametrize("dtype", ["int16", "float16", "float32", "float64", "complex64",
                                   "complex128"])
@pytest.mark.parametrize("op", ["var", "std", "nanvar", "nanstd"])
def test_ddof(op, dtype, rng):
    for shape, axis in (((6, 5), 0), ((6, 5), 1), ((6, 5), None), ((1, 3), 0), ((2,), 0)):
        h = data_for(rng, op, shape, dtype)
        for ddof in (0, 1, 2, 1.5):
            compare(op, h, axis=axis, ddof=ddof, check_warnings=True, rtol_scale=10)


@gpu_test
def test_var_constant_is_zero_and_complex_real():
    h = np.full((5, 7), 3.25, dtype=np.float32)
    assert float(gpuarr.var(gpuarr.asarray(h))) == 0.0
    c = (np.arange(6) + 1j * np.arange(6)[::-1]).astype(np.complex64)
    got = gpuarr.var(gpuarr.asarray(c))
    assert got.dtype == np.float32
    np.testing.assert_allclose(float(got), np.var(c), rtol=1e-6)


# ------------------------------------------------------------- empty, NaN, inf, errors


@gpu_test
@pytest.mark.parametrize("op", REDUCE_OPS)
def test_empty_messages_and_warnings(op):
    for shape, axis in (((0,), None), ((3, 0), 1), ((0, 3), 0), ((0, 3), 1), ((0, 0), 1)):
        h = np.zeros(shape, dtype=np.float64)
        compare(op, h, axis=axis, check_warnings=True)


@gpu_test
@pytest.mark.parametrize("dtype", INEXACT_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", ["sum", "prod", "mean", "var", "min", "max", "ptp", "argmin",
                                "argmax", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
                                "nanmin", "nanmax", "nanargmin", "nanargmax", "all", "any"])
def test_nan_and_inf(op, dtype, rng):
    h = data_for(rng, "sum", (6, 5), dtype)
    if np.dtype(dtype).kind == "c":
        h[1, 2] = complex(np.nan, 1)
        h[3, 0] = complex(2, np.nan)
        h[4, 4] = complex(np.inf, 0)
    else:
        h[1, 2] = np.nan
        h[3, 0] = np.nan
        h[4, 4] = np.inf
        h[0, 1] = -np.inf
    h[5, :] = np.nan  # an all-NaN row
    if "prod" in op and np.dtype(dtype).kind == "c":
        pytest.skip("complex products with inf: the NaN/inf parts depend on the order")
    for axis in (None, 0, 1):
        compare(op, h, axis=axis, check_warnings=op.startswith("nan"), rtol_scale=10)
    # Without the all-NaN row: nan-functions give numbers and no warning.
    h2 = h[:5]
    for axis in (None, 0, 1):
        compare(op, h2, axis=axis, check_warnings=op.startswith("nan"), rtol_scale=10)


@gpu_test
def test_min_max_signed_values_and_ties():
    h = np.array([3, -7, 5, -7, 5, 1], dtype=np.int8)
    d = gpuarr.asarray(h)
    assert int(gpuarr.argmin(d)) == 1
    assert int(gpuarr.argmax(d)) == 2
    assert int(gpuarr.min(d)) == -7 and int(gpuarr.max(d)) == 5
    assert int(gpuarr.ptp(d)) == 12
    w = np.array([-128, 127], dtype=np.int8)
    got = gpuarr.ptp(gpuarr.asarray(w))
    assert got.dtype == np.int8 and int(got) == int(np.ptp(w))  # wraps to -1
    u = np.array([0, 255, 17], dtype=np.uint8)
    assert int(gpuarr.argmax(gpuarr.asarray(u))) == 1


@gpu_test
def test_complex_lexicographic():
    h = np.array([1 + 5j, 2 - 1j, 2 + 3j, 2 + 3j, -4 + 9j], dtype=np.complex128)
    d = gpuarr.asarray(h)
    assert complex(gpuarr.max(d)) == np.max(h)
    assert complex(gpuarr.min(d)) == np.min(h)
    assert int(gpuarr.argmax(d)) == np.argmax(h) == 2
    assert int(gpuarr.argmin(d)) == np.argmin(h)
    assert complex(gpuarr.ptp(d)) == np.ptp(h)


@gpu_test
def test_axis_errors():
    d = gpuarr.asarray(np.zeros((3, 2)))
    h = np.zeros((3, 2))
    for op, kw in (("sum", {"axis": 2}), ("sum", {"axis": -3}), ("sum", {"axis": (0, 0)}),
                   ("sum", {"axis": (0, -2)}), ("max", {"axis": 5}), ("argmax", {"axis": 2}),
                   ("mean", {"axis": (1, 3)}), ("cumsum", {"axis": 2}),
                   ("count_nonzero", {"axis": 4})):
        ek, ev, _ = outcome(getattr(np, op), h, **kw)
        gk, gv, _ = outcome(getattr(gpuarr, op), d, **kw)
        assert ek == gk == "raise", (op, kw, gv)
        assert_same_exception(gv, ev)
    for op, kw in (("argmax", {"axis": (0,)}), ("sum", {"axis": 1.0}), ("cumsum", {"axis": 1.5})):
        ek, ev, _ = outcome(getattr(np, op), h, **kw)
        gk, gv, _ = outcome(getattr(gpuarr, op), d, **kw)
        assert ek == gk == "raise", (op, kw, gv)
        assert_same_exception(gv, ev)
    with pytest.raises(TypeError):
        gpuarr.ptp(gpuarr.asarray(np.array([True, False])))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        gpuarr.max(gpuarr.zeros((0,)))
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        gpuarr.argmax(gpuarr.zeros((0,)))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        gpuarr.nanargmax(gpuarr.asarray(np.array([np.nan, np.nan])))
    with pytest.raises(TypeError):
        gpuarr.sum(d, initial=1.0)


@gpu_test
def test_warnings_emitted():
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        r = gpuarr.mean(gpuarr.zeros((0,)))
    assert np.isnan(float(r))
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        gpuarr.var(gpuarr.ones((1,)), ddof=1)
    with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
        r = gpuarr.nanmax(gpuarr.asarray(np.array([[np.nan, 1.0], [np.nan, 2.0]])), axis=0)
    np.testing.assert_array_equal(r.get(), [np.nan, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gpuarr.nanmax(gpuarr.asarray(np.array([np.nan, 1.0])))
        gpuarr.sum(gpuarr.ones((3,)))


# ------------------------------------------------------------------ cumulative ops


CUM_CASES = [((), None), ((), 0), ((0,), None), ((3, 0), 1), ((7,), None), ((7,), 0),
             ((5, 6), None), ((5, 6), 0), ((5, 6), 1), ((5, 6), -1), ((2, 3, 4), 1),
             ((2, 3, 4), 0), ((3, 2000), 1), ((2000, 3), 0), ((20_000,), None),
             ((40, 1500), 0)]


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_cumulative(op, dtype, rng):
    for shape, axis in CUM_CASES:
        if op == "cumprod" and np.prod(shape) > 5000 and np.dtype(dtype).kind in "fc":
            continue
        h = data_for(rng, op, shape, dtype)
        if np.dtype(dtype) == np.float16 and op == "cumsum":
            h = np.sign(h).astype(dtype)  # partial sums stay exact in float16
        exp = getattr(np, op)(h, axis=axis)
        got = getattr(gpuarr, op)(gpuarr.asarray(h), axis=axis)
        assert got.dtype == exp.dtype and got.shape == exp.shape, (shape, axis)
        g = got.get()
        if exp.dtype.kind in "biu" or (np.dtype(dtype) == np.float16 and op == "cumsum"):
            np.testing.assert_array_equal(g, exp)
        elif op == "cumsum":
            scale = np.cumsum(np.abs(h.astype(np.complex128)), axis=axis)
            assert np.all(np.abs(g - exp) <= RTOL[exp.dtype.name] * 10 * (scale + 1e-30)), (shape, axis)
        else:
            rt = 0.1 if exp.dtype == np.float16 else RTOL[exp.dtype.name] * 4 * max(shape or (1,))
            np.testing.assert_allclose(g, exp, rtol=rt)


@gpu_test
def test_cumulative_views_out_methods(rng):
    base = rng.integers(-50, 50, size=(6, 8)).astype(np.int32)
    d = gpuarr.asarray(base)
    for make in (lambda x: x[::-1], lambda x: x.T, lambda x: x[1:, ::3]):
        for axis in (None, 0, 1):
            np.testing.assert_array_equal(gpuarr.cumsum(make(d), axis=axis).get(),
                                          np.cumsum(make(base), axis=axis))
    out = gpuarr.zeros((6, 8), dtype=np.float64)
    r = gpuarr.cumsum(d, axis=1, out=out)
    assert r is out
    np.testing.assert_array_equal(out.get(), np.cumsum(base, axis=1).astype(np.float64))
    np.testing.assert_array_equal(d.cumprod(axis=0).get(), base.cumprod(axis=0))
    with pytest.raises(ValueError):
        gpuarr.cumsum(d, axis=0, out=gpuarr.zeros((3,)))


# ----------------------------------------------------------------------- methods, misc


@gpu_test
def test_methods_match_functions(rng):
    h = data_for(rng, "sum", (4, 5), "float64")
    d = gpuarr.asarray(h)
    np.testing.assert_allclose(d.sum(axis=0).get(), h.sum(axis=0))
    np.testing.assert_allclose(d.mean(1, keepdims=True).get(), h.mean(1, keepdims=True))
    np.testing.assert_allclose(d.var(ddof=1).get(), h.var(ddof=1))
    np.testing.assert_allclose(d.std(0).get(), h.std(0))
    np.testing.assert_array_equal(d.max(axis=1).get(), h.max(axis=1))
    np.testing.assert_array_equal(d.argmin(axis=0).get(), h.argmin(axis=0))
    np.testing.assert_array_equal(d.argmax(keepdims=True).get(), h.argmax(keepdims=True))
    assert bool(d.any()) == h.any() and bool(d.all()) == h.all()
    np.testing.assert_allclose(d.cumsum(axis=1).get(), h.cumsum(axis=1))
    np.testing.assert_allclose(d.prod(axis=0).get(), h.prod(axis=0))
    np.testing.assert_array_equal(d.min().get(), h.min())


@gpu_test
def test_host_inputs_and_scalars():
    assert float(gpuarr.sum([1.0, 2.0, 3.5])) == 6.5
    assert int(gpuarr.argmax(np.array([1, 9, 3]))) == 1
    r = gpuarr.sum(gpuarr.ones((3, 4)))
    assert isinstance(r, gpuarr.ndarray) and r.shape == () and float(r) == 12.0


@gpu_test
def test_average(rng):
    h = rng.standard_normal((4, 5))
    d = gpuarr.asarray(h)
    np.testing.assert_allclose(gpuarr.average(d).get(), np.average(h))
    np.testing.assert_allclose(gpuarr.average(d, axis=1).get(), np.average(h, axis=1))
    avg, scl = gpuarr.average(d, axis=0, returned=True)
    eavg, escl = np.average(h, axis=0, returned=True)
    np.testing.assert_allclose(avg.get(), eavg)
    np.testing.assert_allclose(scl.get(), escl)
    hi = np.arange(12).reshape(3, 4)
    r = gpuarr.average(gpuarr.asarray(hi), axis=0)
    assert r.dtype == np.float64
    np.testing.assert_allclose(r.get(), np.average(hi, axis=0))


@gpu_test
@pytest.mark.skipif(not hasattr(gpuarr, "multiply"), reason="needs gpuarr.multiply (ufuncs)")
def test_average_weights(rng):
    h = rng.standard_normal((4, 5))
    w = rng.uniform(0.5, 2, size=(4, 5))
    d = gpuarr.asarray(h)
    np.testing.assert_allclose(gpuarr.average(d, weights=gpuarr.asarray(w)).get(),
                               np.average(h, weights=w))
    w1 = rng.uniform(0.5, 2, size=5)
    avg, scl = gpuarr.average(d, axis=1, weights=gpuarr.asarray(w1), returned=True)
    eavg, escl = np.average(h, axis=1, weights=w1, returned=True)
    np.testing.assert_allclose(avg.get(), eavg)
    np.testing.assert_allclose(scl.get(), escl)
    with pytest.raises(TypeError):
        gpuarr.average(d, weights=gpuarr.asarray(w1))
