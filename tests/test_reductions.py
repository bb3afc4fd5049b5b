"""gpuarr's reductions and scans against NumPy (the oracle), on the device.

Complements test_reductions_semantics.py with: every op x dtype class over 0-d/1-d/empty/
2-d/4-d shapes and axis variants (None, int, negative, tuples, keepdims); non-contiguous
device views; arrays large enough to take the split (chunked) reduction paths and the
multi-tile scan carry; NumPy's result dtypes; dtype=/out=/ddof; NaN rules; empty ranges;
first-occurrence ties (also across chunk boundaries); complex lexicographic order; integer
accumulation in int64; axis errors; average with weights.
"""

import warnings

import numpy as np
import pytest

import gpuarr
from conftest import assert_same_exception, dtype_id, gpu_test, outcome

DTYPES = [np.dtype(n) for n in ("bool", "int8", "int32", "int64", "uint8", "uint64", "float16",
                                "float32", "float64", "complex64", "complex128")]

RTOL = {"float16": 1e-2, "float32": 1e-5, "float64": 1e-12, "complex64": 1e-5,
        "complex128": 1e-12}

SUM_OPS = {"sum", "nansum", "cumsum", "nancumsum"}
MEAN_OPS = {"mean", "nanmean", "std", "nanstd", "average"}
VAR_OPS = {"var", "nanvar"}
PROD_OPS = {"prod", "nanprod", "cumprod", "nancumprod"}
ARG_OPS = {"argmax", "argmin", "nanargmax", "nanargmin"}
BOOL_OPS = {"all", "any", "count_nonzero"}
NAN_OPS = {"nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean",
           "nanvar", "nanstd", "nancumsum", "nancumprod"}

REDUCE_OPS = ["sum", "prod", "max", "min", "amax", "amin", "ptp", "argmax", "argmin", "all",
              "any", "count_nonzero", "mean", "var", "std", "nansum", "nanprod", "nanmax",
              "nanmin", "nanargmax", "nanargmin", "nanmean", "nanvar", "nanstd"]

SHAPE_4D = (2, 3, 2, 4)
# (shape, axis, keepdims)
CASES = [
    ((), None, False), ((), 0, True),
    ((7,), None, False), ((7,), 0, True), ((7,), -1, False),
    ((0,), None, False), ((0,), 0, True),
    ((3, 0), None, False), ((3, 0), 0, False), ((3, 0), 1, True),
    ((5, 6), None, True), ((5, 6), 0, False), ((5, 6), -1, True), ((5, 6), (0, 1), False),
    (SHAPE_4D, None, False), (SHAPE_4D, 0, False), (SHAPE_4D, -1, True),
    (SHAPE_4D, (0, 2), False), (SHAPE_4D, (1, 3), True), (SHAPE_4D, (0, 1, 2, 3), False),
]


# --------------------------------------------------------------------------- helpers


def make(rng, op, shape, dtype, nan_p=0.0):
    """Host data suited to `op`: integer sums/products/extrema over the full range (they are
    exact and wrap identically in any order), moderate integers for the statistics,
    float16 values whose sums/products are exact, ties for the exact ops, zeros for
    all/any/count_nonzero, NaNs (probability nan_p) for the nan-variants."""
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    if dtype.kind == "b":
        return rng.random(size=shape) < (0.9 if op in BOOL_OPS else 0.5)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if op in MEAN_OPS or op in VAR_OPS:
            lo, hi = max(info.min, -1000), min(info.max, 1000)
        else:
            lo, hi = info.min, info.max
        x = rng.integers(lo, hi, size=shape, dtype=dtype, endpoint=True)
    elif dtype == np.float16:
        if op in PROD_OPS:
            x = rng.choice(np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 2.0, 0.5]),
                           size=shape)
        else:
            x = rng.integers(-8, 9, size=shape)
        x = x.astype(dtype)
    else:
        if op in PROD_OPS:
            mag = rng.uniform(0.7, 1.4, size=shape)
            if dtype.kind == "c":
                x = mag * np.exp(1j * rng.uniform(-3, 3, size=shape))
            else:
                x = mag * rng.choice([-1.0, 1.0], size=shape)
        else:
            re = rng.standard_normal(size=shape) * 10
            im = rng.standard_normal(size=shape) * 10
            if op in ARG_OPS or op in ("max", "min", "amax", "amin", "nanmax", "nanmin", "ptp"):
                re, im = np.round(re / 4), np.round(im / 4)  # many ties
            x = re + 1j * im if dtype.kind == "c" else re
        x = np.asarray(x).astype(dtype)
    if op in BOOL_OPS:
        x = np.where(rng.random(size=shape) < 0.1, dtype.type(0), x).astype(dtype)
    if nan_p and dtype.kind in "fc":
        x = np.where(rng.random(size=shape) < nan_p, dtype.type(np.nan), x).astype(dtype)
    return np.asarray(x, dtype=dtype)


def to_host(got, expected):
    """The device result as NumPy; NumPy returns a Python int only for count_nonzero."""
    if isinstance(expected, int) and not isinstance(got, gpuarr.ndarray):
        return np.asarray(got)
    assert isinstance(got, gpuarr.ndarray), f"expected a gpuarr.ndarray, got {type(got)}"
    return got.get()


def _max_abs(h):
    if h.size == 0:
        return 1.0
    a = np.abs(h.astype(np.complex128 if h.dtype.kind == "c" else np.float64))
    a = a[np.isfinite(a)]
    return float(a.max()) if a.size else 1.0


def assert_result(op, got, expected, h, rtol=None, axis=None):
    """dtype and shape exactly NumPy's; values exact for integer/bool/arg/extremum results,
    else within rtol scaled by what the op's rounding errors scale with."""
    g = to_host(got, expected)
    e = np.asarray(expected)
    assert g.dtype == e.dtype, f"{op}: dtype {g.dtype}, NumPy {e.dtype}"
    assert g.shape == e.shape, f"{op}: shape {g.shape}, NumPy {e.shape}"
    exact = (e.dtype.kind in "biu" or op in ARG_OPS or op in BOOL_OPS
             or op in ("max", "min", "amax", "amin", "nanmax", "nanmin", "ptp"))
    if exact:
        np.testing.assert_array_equal(g, e, err_msg=op)
        return
    if rtol is None:
        rtol = RTOL[e.dtype.name]
    n = max(1, h.size // max(1, e.size))  # elements per result
    m = _max_abs(h)
    if op in ("cumsum", "nancumsum", "cumprod", "nancumprod"):
        atol, n = rtol * m * 4, 1
    elif op in SUM_OPS:
        a = np.abs(h.astype(np.complex128 if h.dtype.kind == "c" else np.float64))
        a = np.where(np.isfinite(a), a, 0)
        atol = rtol * float(np.max(np.sum(a, axis=axis), initial=1.0))
    elif op in VAR_OPS:
        atol = rtol * m * m * 4
    elif op in MEAN_OPS:
        atol = rtol * m * 4
    else:
        atol = 0.0
    ge, ee = g.astype(np.complex128), e.astype(np.complex128)
    nan_g, nan_e = np.isnan(ge), np.isnan(ee)
    assert np.array_equal(nan_g, nan_e), f"{op}: NaN positions differ: {g} vs {e}"
    rel = rtol * (n + 1) if op in PROD_OPS else rtol * 4  # products: error grows with n
    tol = atol + rel * np.abs(np.where(nan_e, 0, ee))
    with np.errstate(invalid="ignore"):
        ok = nan_e | (ge == ee) | (np.abs(ge - ee) <= tol)
    assert ok.all(), f"{op}: got {g[~ok][:5]} expected {e[~ok][:5]} (rtol {rtol}, atol {atol})"


def check(op, h, d=None, rtol=None, **kw):
    """Runs op on NumPy (host h) and gpuarr (device d, default asarray(h)) with kw; both
    must raise the same exception (message too, unless TypeError) or agree on the result."""
    if d is None:
        d = gpuarr.asarray(h)
    ek, ev, _ = outcome(getattr(np, op), h, **kw)
    gk, gv, _ = outcome(getattr(gpuarr, op), d, **kw)
    if ek == "raise":
        assert gk == "raise", f"{op} {kw}: NumPy raised {ev!r}, gpuarr returned {gv!r}"
        assert_same_exception(gv, ev, message=not isinstance(ev, TypeError))
        return None
    assert gk == "ok", f"{op} {kw}: gpuarr raised {gv!r}, NumPy returned {ev!r}"
    assert_result(op, gv, ev, h, rtol, kw.get("axis"))
    return gv


def runtime_messages(fn, *args, **kw):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn(*args, **kw)
    return r, [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)]


# ------------------------------------------------------------- every op x dtype class


@gpu_test
@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", REDUCE_OPS)
def test_reduce_shapes_axes(op, dtype, rng):
    for shape, axis, keepdims in CASES:
        if op == "count_nonzero" and shape == () and axis is not None:
            continue  # NumPy's count_nonzero is no ufunc reduction for 0-d with an axis
        h = make(rng, op, shape, dtype, nan_p=0.15 if op in NAN_OPS else 0.0)
        check(op, h, axis=axis, keepdims=keepdims)


VIEWS = {
    "step2": (lambda x: x[::2], (12, 7)),
    "T": (lambda x: x.T, (6, 5)),
    "neg": (lambda x: x[:, ::-1], (5, 9)),
    "3d": (lambda x: x[::-1, 1::2, ::3].transpose(2, 0, 1), (3, 6, 7)),
}


@gpu_test
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex128"])
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("op", ["sum", "prod", "max", "argmin", "argmax", "mean", "var", "all",
                                "nanmin", "cumsum", "cumprod"])
def test_noncontiguous_views(op, view, dtype, rng):
    fn, base_shape = VIEWS[view]
    base = make(rng, op, base_shape, dtype)
    h = fn(base)
    d = fn(gpuarr.asarray(base))
    assert d.shape == h.shape and d.strides == h.strides
    axes = [None, 0, -1] + ([(0, 2)] if h.ndim == 3 and op not in ARG_OPS | {"cumsum", "cumprod"}
                            else [])
    for axis in axes:
        check(op, h, d, axis=axis)


# -------------------------------------------------------------- large / split paths


@gpu_test
def test_large_1d_float32_sum_mean():
    rng = np.random.default_rng(1)
    h = rng.uniform(0.0, 1.0, size=3_000_001).astype(np.float32)
    d = gpuarr.asarray(h)
    ref = np.sum(h, dtype=np.float64)
    for r, want in ((gpuarr.sum(d), ref), (gpuarr.mean(d), ref / h.size),
                    (d.sum(), ref), (gpuarr.nansum(d), ref)):
        assert r.dtype == np.float32 and r.shape == ()
        np.testing.assert_allclose(float(r), want, rtol=1e-4)
    # Sums of a signed array: the error scales with sum(|x|).
    s = (h - 0.5).astype(np.float32)
    r = float(gpuarr.sum(gpuarr.asarray(s)))
    assert abs(r - np.sum(s, dtype=np.float64)) <= 1e-5 * np.sum(np.abs(s), dtype=np.float64)
    v = gpuarr.var(d)
    assert v.dtype == np.float32
    np.testing.assert_allclose(float(v), np.var(h.astype(np.float64)), rtol=1e-4)


@gpu_test
def test_large_1d_integer_and_bool():
    rng = np.random.default_rng(2)
    n = 3_000_001
    for dt in (np.int8, np.uint8, np.int32, np.int64, np.uint64):
        info = np.iinfo(dt)
        h = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
        d = gpuarr.asarray(h)
        for op in ("sum", "max", "min", "argmax", "argmin"):
            assert_result(op, getattr(gpuarr, op)(d), getattr(np, op)(h), h)
    b = np.ones(n, dtype=bool)
    d = gpuarr.asarray(b)
    assert bool(gpuarr.all(d)) and bool(gpuarr.any(d))
    b[n - 1] = False
    d = gpuarr.asarray(b)
    assert not bool(gpuarr.all(d))
    assert int(gpuarr.argmin(d)) == n - 1
    assert_result("sum", gpuarr.sum(d), np.sum(b), b)
    assert_result("count_nonzero", gpuarr.count_nonzero(d), np.count_nonzero(b), b)
    z = np.zeros(n, dtype=np.float32)
    z[2_345_678] = -0.5
    dz = gpuarr.asarray(z)
    assert bool(gpuarr.any(dz)) and not bool(gpuarr.all(dz))
    assert int(gpuarr.argmin(dz)) == 2_345_678
    assert int(gpuarr.count_nonzero(dz)) == 1


@gpu_test
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8", "complex64"])
@pytest.mark.parametrize("op", ["sum", "max", "argmax", "argmin", "mean", "var", "count_nonzero",
                                "nanmin"])
def test_large_2d_split(op, dtype, rng):
    for shape, axes, view in (((4097, 513), (0, 1, None), None),
                              ((3, 200_000), (1, -1), None),
                              ((513, 4097), (0, 1), "T")):
        h = make(rng, op, shape, dtype)
        d = gpuarr.asarray(h)
        if view == "T":
            h, d = h.T, d.T
        for axis in axes:
            check(op, h, d, axis=axis)


@gpu_test
@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", REDUCE_OPS)
def test_many_outputs_lanes_each(op, dtype, rng):
    # Thousands of outputs along one contiguous axis take a group of lanes each (1 to 32,
    # from the row's bytes): short and longer rows, rows not all 16-byte aligned, every
    # other row, rows in reverse order, the last axis of a 3-d array.
    nan_p = 0.05 if op in NAN_OPS else 0.0
    h = make(rng, op, (4600, 37), dtype, nan_p)
    d = gpuarr.asarray(h)
    for hv, dv in ((h, d), (h[::2], d[::2]), (h[::-1], d[::-1])):
        check(op, hv, dv, axis=1)
    check(op, make(rng, op, (2200, 260), dtype, nan_p), axis=-1)
    check(op, make(rng, op, (3000, 32), dtype, nan_p), axis=1)  # groups of lanes a row
    check(op, make(rng, op, (40, 60, 9), dtype, nan_p), axis=2, keepdims=True)


@gpu_test
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("op", ["sum", "max", "argmax", "nanargmin", "mean", "all"])
def test_reduced_rows(op, dtype, rng):
    # Several reduced dims whose innermost is contiguous and at least 512 bytes long: warps
    # read whole rows (16-byte loads where a row is aligned; rows of 700 int8 or 130 float32
    # are not all aligned, 4096 float32 rows are); few outputs split the rows into chunks.
    item = np.dtype(dtype).itemsize
    cases = [((64, 3, 4096 // item), (0, 2), None), ((37, 5, 700 // item + 3), (0, 2), None),
             ((2, 300, 2048 // item), (0, 2), None), ((260, 2050), None, "cols")]
    for shape, axis, view in cases:
        if op in ARG_OPS and axis is not None:
            continue  # argmax takes one axis
        h = make(rng, op, shape, dtype, nan_p=0.05 if op in NAN_OPS else 0.0)
        d = gpuarr.asarray(h)
        if view == "cols":  # rows of 2049 elements, none contiguous with the next
            h, d = h[:, 1:], d[:, 1:]
        check(op, h, d, axis=axis)


@gpu_test
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128"])
@pytest.mark.parametrize("op", ["sum", "max", "argmin", "var", "nanmean", "all"])
def test_few_outputs_split_and_combined(op, dtype, rng):
    # Fewer outputs than a wave of blocks: each output's range split into chunks (2 for 263
    # outputs, 13 for 40, 528 for one on a 132-SM device) whose partials the same launch
    # combines; every output's chunks must meet, also for strided and reversed views.
    nan_p = 0.05 if op in NAN_OPS else 0.0
    for shape in ((263, 5000), (40, 20_011), (1, 1 << 20)):
        h = make(rng, op, shape, dtype, nan_p)
        d = gpuarr.asarray(h)
        for hv, dv in ((h, d), (h[:, ::2], d[:, ::2]), (h[::-1, ::-3], d[::-1, ::-3])):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                check(op, hv, dv, axis=1)
                if shape[0] == 1:
                    check(op, hv, dv)


@gpu_test
def test_large_ties_and_nan_across_chunks():
    # argmax/argmin keep the first occurrence even when equal extrema land in different
    # chunks of the split reduction; a NaN is the extremum and the first NaN wins.
    h = np.zeros((3, 200_000), dtype=np.float32)
    h[0, [150_000, 5_000, 170_000]] = 7.0
    h[1, [199_999, 100_000]] = -3.0
    h[2, [123_456, 60_000, 190_000]] = np.nan
    h[2, 10] = 99.0
    d = gpuarr.asarray(h)
    np.testing.assert_array_equal(gpuarr.argmax(d, axis=1).get(), [5_000, 0, 60_000])
    np.testing.assert_array_equal(gpuarr.argmin(d, axis=1).get(), [0, 100_000, 60_000])
    np.testing.assert_array_equal(gpuarr.nanargmax(d, axis=1).get(), [5_000, 0, 10])
    mx = gpuarr.max(d, axis=1).get()
    assert mx[0] == 7.0 and mx[1] == 0.0 and np.isnan(mx[2])
    np.testing.assert_array_equal(gpuarr.nanmax(d, axis=1).get(), [7.0, 0.0, 99.0])
    for op in ("argmax", "argmin", "nanargmax", "nanargmin", "max", "nanmax"):
        check(op, h, d, axis=1)
        check(op, h, d)  # axis=None: flat index
    # Outer strategy (axis 0 of a C array) with ties in different row chunks.
    g = np.zeros((4097, 513), dtype=np.int64)
    g[[4000, 17, 2500], 3] = 5
    g[[4096, 1000], 7] = -5
    g[:, 9] = 1
    dg = gpuarr.asarray(g)
    got = gpuarr.argmax(dg, axis=0).get()
    assert got[3] == 17 and got[9] == 0 and got[0] == 0
    assert gpuarr.argmin(dg, axis=0).get()[7] == 1000
    check("argmax", g, dg, axis=0)
    check("argmin", g, dg, axis=0)
    check("argmax", g, dg)


@gpu_test
def test_int32_sum_accumulates_in_int64():
    h = np.full(3_000_001, 2_000_000_000, dtype=np.int32)
    d = gpuarr.asarray(h)
    r = gpuarr.sum(d)
    assert r.dtype == np.int64
    assert int(r) == 2_000_000_000 * 3_000_001 == int(np.sum(h))
    h2 = np.full((3, 5), 2_000_000_000, dtype=np.int32)
    check("sum", h2, axis=0)
    check("sum", h2, axis=1)
    check("cumsum", h2, axis=1)
    u = np.full(1000, 4_000_000_000, dtype=np.uint32)
    r = gpuarr.sum(gpuarr.asarray(u))
    assert r.dtype == np.uint64 and int(r) == 4_000_000_000_000
    # int64 wraps modulo 2**64 like NumPy.
    w = np.array([2**62, 2**62, 2**62, 5], dtype=np.int64)
    check("sum", w)
    check("cumsum", w)


# ------------------------------------------------------------------- result dtypes


@gpu_test
@pytest.mark.parametrize(("op", "src", "want"), [
    ("sum", "int8", "int64"), ("sum", "uint8", "uint64"), ("sum", "bool", "int64"),
    ("sum", "int32", "int64"), ("sum", "float16", "float16"), ("sum", "complex64", "complex64"),
    ("prod", "uint8", "uint64"), ("prod", "bool", "int64"),
    ("mean", "int8", "float64"), ("mean", "uint64", "float64"), ("mean", "bool", "float64"),
    ("mean", "float16", "float16"), ("mean", "complex64", "complex64"),
    ("var", "complex64", "float32"), ("var", "complex128", "float64"), ("var", "int32", "float64"),
    ("std", "complex128", "float64"), ("std", "float16", "float16"),
    ("argmax", "float32", "int64"), ("argmin", "uint8", "int64"),
    ("max", "int8", "int8"), ("nanmax", "float16", "float16"),
    ("all", "float32", "bool"), ("any", "int64", "bool"), ("count_nonzero", "complex64", "int64"),
    ("cumsum", "int8", "int64"), ("cumsum", "uint8", "uint64"), ("cumsum", "bool", "int64"),
    ("cumprod", "int32", "int64"), ("cumsum", "float16", "float16"),
    ("nanvar", "complex64", "float32"), ("nanmean", "int8", "float64"),
])
def test_result_dtypes(op, src, want, rng):
    h = make(rng, op, (4, 3), src)
    for axis in (None, 0):
        e = np.asarray(getattr(np, op)(h, axis=axis))
        assert e.dtype == np.dtype(want)  # the table is NumPy's
        g = getattr(gpuarr, op)(gpuarr.asarray(h), axis=axis)
        assert isinstance(g, gpuarr.ndarray)
        assert g.dtype == np.dtype(want), (op, src, axis, g.dtype)
        assert_result(op, g, e, h)


# ------------------------------------------------------------------ dtype=, out=, ddof


@gpu_test
@pytest.mark.parametrize("src", ["bool", "int8", "uint8", "float16", "float32", "complex64"])
@pytest.mark.parametrize("op", ["sum", "prod", "mean", "var", "std", "nansum", "cumsum",
                                "cumprod"])
def test_dtype_argument(op, src, rng):
    h = make(rng, op, (6, 5), src)
    if np.dtype(src).kind in "iu" and op in PROD_OPS:
        h = rng.integers(0 if src[0] == "u" else -3, 4, size=h.shape).astype(src)  # no overflow
    targets = ["float64", "complex128", "float32"]
    if np.dtype(src).kind in "biu" and op not in MEAN_OPS | VAR_OPS:
        targets += ["int64", "uint64", src]  # dtype=int8 sums wrap in int8 as NumPy
    if np.dtype(src).kind == "c":
        targets = ["complex128", "complex64"]
    for dt in targets:
        for axis in (None, 1):
            check(op, h, dtype=dt, axis=axis)


@gpu_test
@pytest.mark.parametrize("op", ["sum", "prod", "max", "min", "argmax", "argmin", "all", "any",
                                "mean", "std", "var", "nanmax", "nansum", "cumsum", "cumprod"])
def test_out_argument(op, rng):
    if op in ("sum", "prod", "cumsum"):
        h = rng.integers(-5, 6, size=(5, 6)).astype(np.int16)
    else:
        h = make(rng, op, (5, 6), "float64")
    d = gpuarr.asarray(h)
    scan = op.startswith("cum")
    for axis in (0, 1):
        e = getattr(np, op)(h, axis=axis)
        out_dtypes = [e.dtype] + ([np.float64] if op in ("sum", "prod", "cumsum") else [])
        for odt in out_dtypes:
            ho = np.zeros(e.shape, dtype=odt)
            do = gpuarr.asarray(ho)
            eo = getattr(np, op)(h, axis=axis, out=ho)
            assert eo is ho
            r = getattr(gpuarr, op)(d, axis=axis, out=do)
            assert r is do, f"{op}: out= must be returned"
            assert_result(op, do, ho, h)
            assert do.dtype == np.dtype(odt)
    # Wrong output shape raises like NumPy.
    if not scan:
        bad = np.zeros((7,), dtype=np.float64 if op not in ("argmax", "argmin") else np.int64)
        if op in ("all", "any"):
            bad = bad.astype(bool)
        ek, ev, _ = outcome(getattr(np, op), h, axis=0, out=bad)
        gk, gv, _ = outcome(getattr(gpuarr, op), d, axis=0, out=gpuarr.asarray(bad))
        assert ek == "raise" and gk == "raise", gv
        assert_same_exception(gv, ev, message=False)


@gpu_test
def test_out_dtype_is_the_computation_dtype():
    # NumPy computes a reduction in out's dtype: this int16 product overflows int64 but not
    # float64.
    h = np.full((2, 5), 30000, dtype=np.int16)
    ho = np.zeros(2)
    np.prod(h, axis=1, out=ho)
    do = gpuarr.zeros(2)
    gpuarr.prod(gpuarr.asarray(h), axis=1, out=do)
    np.testing.assert_allclose(do.get(), ho, rtol=1e-12)
    np.testing.assert_allclose(do.get(), [30000.0**5] * 2, rtol=1e-12)


@gpu_test
@pytest.mark.parametrize("dtype", ["int32", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("op", ["var", "std", "nanvar", "nanstd"])
def test_ddof(op, dtype, rng):
    h = make(rng, op, (4, 7), dtype, nan_p=0.1 if op.startswith("nan") else 0.0)
    d = gpuarr.asarray(h)
    for ddof in (0, 1, 2):
        for axis in (None, 0, 1, (0, 1)):
            check(op, h, d, ddof=ddof, axis=axis, keepdims=axis == 1)
    # ddof >= n: NumPy gives inf/nan and warns "Degrees of freedom <= 0".
    for ddof in (4, 5):
        e, ew = runtime_messages(getattr(np, op), h, axis=0, ddof=ddof)
        g, gw = runtime_messages(getattr(gpuarr, op), d, axis=0, ddof=ddof)
        assert_result(op, g, e, h)
        assert any("Degrees of freedom" in m for m in gw) == any("Degrees of freedom" in m for m in ew)


@gpu_test
@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("op", ["var", "std", "nanvar", "nanstd"])
def test_var_layouts(op, dtype, rng):
    # The one-pass squared-deviation reduction reads the centres per output: columns (one
    # thread an output, chunked), rows (a block an output), several reduced dims in row
    # pieces, strided and reversed views, keepdims, and all-NaN slices for the nan forms.
    h = make(rng, op, (2100, 3, 130), dtype, nan_p=0.05 if op.startswith("nan") else 0.0)
    if op.startswith("nan") and h.dtype.kind in "fc":
        h[:, 1, 7] = np.nan  # an all-NaN slice along axis 0
    d = gpuarr.asarray(h)
    for axis, keepdims in ((0, False), (2, True), ((0, 2), False), (None, False), (-2, True)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            check(op, h, d, axis=axis, keepdims=keepdims)
            check(op, h[::-3, :, 1::2], d[::-3, :, 1::2], axis=axis, keepdims=keepdims)


@gpu_test
def test_var_std_values_known():
    h = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]])
    d = gpuarr.asarray(h)
    np.testing.assert_allclose(gpuarr.var(d, axis=1).get(), [1.25, 0.0], rtol=1e-12)
    np.testing.assert_allclose(gpuarr.var(d, axis=1, ddof=1).get(), [5 / 3, 0.0], rtol=1e-12)
    np.testing.assert_allclose(gpuarr.std(d, axis=1, ddof=1).get(), [np.sqrt(5 / 3), 0.0],
                               rtol=1e-12)
    c = np.array([1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j], dtype=np.complex64)
    v = gpuarr.var(gpuarr.asarray(c))
    assert v.dtype == np.float32 and float(v) == pytest.approx(2.0, rel=1e-6)


# ---------------------------------------------------------------------- NaN handling


@gpu_test
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_nan_rules(dtype, rng):
    dt = np.dtype(dtype)
    h = make(rng, "max", (4, 9), dt)
    h[1, [6, 2, 8]] = np.nan
    h[2, :] = np.nan  # an all-NaN row
    h[3, 0] = np.nan
    if dt.kind == "c":
        h[0, 5] = complex(1.0, np.nan)  # NaN in the imaginary part only
    d = gpuarr.asarray(h)
    prods = ("prod", "nanprod") if dt != np.float16 else ()  # float16 products overflow
    for op in ("max", "min", "argmax", "argmin", "sum", "mean", "ptp", "nansum", *prods, "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "var",
               "nanargmax", "nanargmin", "cumsum", "nancumsum"):
        for axis in (None, 0, 1):
            check(op, h, d, axis=axis)
    # The NaN rules, spelled out (on rows without NaN in the imaginary part).
    got = gpuarr.argmax(d, axis=1).get()
    assert got[1] == 2 and got[2] == 0 and got[3] == 0
    assert gpuarr.argmin(d, axis=1).get()[1] == 2
    assert np.isnan(gpuarr.max(d, axis=1).get()[1])
    nm, msgs = runtime_messages(gpuarr.nanmax, d, axis=1)
    assert np.isnan(nm.get()[2]) and not np.isnan(nm.get()[1])
    assert any("All-NaN slice encountered" in m for m in msgs)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        gpuarr.nanargmax(d, axis=1)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        gpuarr.nanargmin(gpuarr.asarray(h[2]))
    good = h[[0, 1, 3]]
    check("nanargmax", good, axis=1)
    check("nanargmin", good, axis=1)
    r, msgs = runtime_messages(gpuarr.nanmean, d, axis=1)
    assert np.isnan(r.get()[2]) and any("Mean of empty slice" in m for m in msgs)


@gpu_test
def test_inf_and_signed_zero():
    h = np.array([[-np.inf, -np.inf, 1.0], [np.inf, 3.0, np.inf], [0.0, -0.0, -1.0]])
    d = gpuarr.asarray(h)
    for op in ("max", "min", "argmax", "argmin", "sum", "prod", "nanmax", "nanargmin"):
        for axis in (None, 0, 1):
            check(op, h, d, axis=axis)
    with np.errstate(invalid="ignore"):
        assert np.isnan(float(gpuarr.sum(gpuarr.asarray(np.array([np.inf, -np.inf])))))


# ------------------------------------------------------------------ empty reductions


@gpu_test
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float64", "complex64"])
def test_empty_reductions(dtype):
    dt = np.dtype(dtype)
    h = np.zeros((0,), dtype=dt)
    d = gpuarr.asarray(h)
    s = gpuarr.sum(d)
    assert s.dtype == np.sum(h).dtype and s.shape == () and s.get() == 0
    p = gpuarr.prod(d)
    assert p.dtype == np.prod(h).dtype and p.get() == 1
    assert bool(gpuarr.all(d)) is True and bool(gpuarr.any(d)) is False
    for op, name in (("max", "maximum"), ("min", "minimum"), ("amax", "maximum"),
                     ("ptp", "maximum")):
        with pytest.raises(ValueError) as ei:
            getattr(gpuarr, op)(d)
        assert str(ei.value) == f"zero-size array to reduction operation {name} which has no identity"
    for op in ("argmax", "argmin", "nanargmax", "nanargmin"):
        with pytest.raises(ValueError) as ei:
            getattr(gpuarr, op)(d)
        assert "of an empty sequence" in str(ei.value)
        check(op, h, d)
    m, msgs = runtime_messages(gpuarr.mean, d)
    e, _ = runtime_messages(np.mean, h)
    assert np.isnan(complex(m.get())) and m.dtype == e.dtype
    assert any("Mean of empty slice" in x for x in msgs)
    v, msgs = runtime_messages(gpuarr.var, d)
    assert np.isnan(float(np.real(v.get()))) and any("Degrees of freedom" in x for x in msgs)
    # Empty along one axis only: identities fill the outputs, extrema refuse.
    h2 = np.zeros((3, 0), dtype=dt)
    d2 = gpuarr.asarray(h2)
    for op in ("sum", "prod", "all", "any", "count_nonzero", "max", "argmax", "min"):
        for axis in (0, 1):
            check(op, h2, d2, axis=axis)
    np.testing.assert_array_equal(gpuarr.sum(d2, axis=1).get(), np.zeros(3, np.sum(h2).dtype))
    np.testing.assert_array_equal(gpuarr.prod(d2, axis=1).get(), np.ones(3, np.prod(h2).dtype))


# ------------------------------------------------------------- ties and complex order


@gpu_test
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "float16", "float32",
                                   "complex128"])
def test_ties_first_occurrence(dtype):
    dt = np.dtype(dtype)
    h = np.array([[1, 3, 3, 0, 0, 3], [2, 2, 2, 2, 2, 2], [0, 1, 0, 1, 1, 0]]).astype(dt)
    d = gpuarr.asarray(h)
    for op in ("argmax", "argmin", "nanargmax", "nanargmin"):
        for axis in (None, 0, 1):
            check(op, h, d, axis=axis)
    np.testing.assert_array_equal(gpuarr.argmax(d, axis=1).get(), [0 if dt == bool else 1, 0, 1])
    np.testing.assert_array_equal(gpuarr.argmin(d, axis=1).get(), [3, 0, 0])
    # Long rows (several blocks/tiles) of equal values: index 0.
    c = np.full((2, 5000), 7, dtype=dt)
    np.testing.assert_array_equal(gpuarr.argmax(gpuarr.asarray(c), axis=1).get(), [0, 0])
    np.testing.assert_array_equal(gpuarr.argmin(gpuarr.asarray(c.T), axis=0).get(), [0, 0])


@gpu_test
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_lexicographic(dtype):
    h = np.array([[1 + 5j, 2 - 1j, 2 + 3j, 2 + 3j, -5 + 100j, 2 + 2.5j],
                  [0 + 0j, 0 - 1j, 0 + 1j, -0.5 + 9j, 0 + 1j, 0 - 1j]], dtype=dtype)
    d = gpuarr.asarray(h)
    for op in ("max", "min", "argmax", "argmin", "ptp", "nanmax", "nanargmin"):
        for axis in (None, 0, 1):
            check(op, h, d, axis=axis)
    assert complex(gpuarr.max(d)) == 2 + 3j
    np.testing.assert_array_equal(gpuarr.argmax(d, axis=1).get(), [2, 2])
    np.testing.assert_array_equal(gpuarr.argmin(d, axis=1).get(), [4, 3])


# ----------------------------------------------------------------------- scans


CUM_CASES = [((), None), ((), 0), ((0,), None), ((3, 0), 1), ((3, 0), 0), ((7,), 0),
             ((5, 6), None), ((5, 6), 0), ((5, 6), -1), ((2, 3, 4), 1), ((2, 3, 4), None),
             ((3, 1000), 1), ((1000, 3), 0), ((2, 70_000), -1), ((70_000,), None)]


def scan_data(rng, op, shape, dtype):
    """Exact data: integer sums/products wrap identically; floats are small integers (sums
    exact); products of floats are +-1 and +-2**k with bounded exponents."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        return rng.random(size=shape) < (0.995 if "prod" in op else 0.5)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    if "prod" in op:
        x = rng.choice(np.array([1.0, -1.0]), size=shape)
        if n <= 1000 and dt != np.float16:  # float16 would overflow (NumPy stays at inf)
            x = x * rng.choice(np.array([1.0, 1.0, 1.0, 2.0, 0.5]), size=shape)
    else:
        x = rng.integers(-1 if (dt == np.float16 and n > 200) else -5,
                         2 if (dt == np.float16 and n > 200) else 6, size=shape).astype(float)
        if dt == np.float16 and n > 2000:
            x = np.abs(x) * (np.arange(n).reshape(shape) % 2 * 2 - 1)  # bounded partial sums
    if dt.kind == "c":
        if "prod" in op:
            # Unit-modulus factors times the real scales: products stay finite. Once a
            # complex product overflows, where NaN first appears depends on the order of
            # the multiplications, which a parallel scan cannot share with NumPy's loop.
            x = x * rng.choice(np.array([1, -1, 1j, -1j]), size=shape)
        else:
            x = x + 1j * np.roll(x, 1)
    return np.asarray(x).astype(dt)


@gpu_test
@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "nancumsum", "nancumprod"])
def test_scans(op, dtype, rng):
    for shape, axis in CUM_CASES:
        h = scan_data(rng, op, shape, dtype)
        check(op, h, axis=axis)
        if shape == (5, 6):
            d = gpuarr.asarray(h)
            check(op, h[:, ::-1], d[:, ::-1], axis=axis)
            check(op, h.T, d.T, axis=axis)
            check(op, h[::2], d[::2], axis=axis)


@gpu_test
def test_scan_tile_carry_values():
    # Ones: the running count checks every carry between 256-element tiles.
    for n in (255, 256, 257, 1000, 70_000):
        h = np.ones((2, n), dtype=np.int32)
        r = gpuarr.cumsum(gpuarr.asarray(h), axis=1)
        assert r.dtype == np.int64
        np.testing.assert_array_equal(r.get(), np.cumsum(h, axis=1))
        assert int(r.get()[1, -1]) == n
    h = np.random.default_rng(3).standard_normal(70_000).astype(np.float32)
    r = gpuarr.cumsum(gpuarr.asarray(h)).get()
    e = np.cumsum(h.astype(np.float64))
    scale = np.cumsum(np.abs(h.astype(np.float64)))
    assert (np.abs(r - e) <= 1e-5 * scale + 1e-6).all()


@gpu_test
def test_scan_dtype_out_nan():
    rng = np.random.default_rng(4)
    h = rng.integers(-100, 100, size=(4, 300)).astype(np.int8)
    d = gpuarr.asarray(h)
    p = rng.choice(np.array([-1, 1, 2], dtype=np.int8), size=(4, 300))  # no float overflow
    dp = gpuarr.asarray(p)
    for op, x, dx in (("cumsum", h, d), ("cumprod", p, dp)):
        for dt in ("float64", "int8", "int64", "complex128"):
            for axis in (None, 0, 1):
                check(op, x, dx, dtype=dt, axis=axis)
    for axis in (0, 1):
        ho = np.zeros(h.shape, dtype=np.float64)
        do = gpuarr.asarray(ho)
        assert gpuarr.cumsum(d, axis=axis, out=do) is do
        np.testing.assert_array_equal(do.get(), np.cumsum(h, axis=axis, out=ho))
    f = np.array([[1.0, np.nan, 2.0, 3.0], [np.nan, np.nan, 4.0, -1.0]])
    for op in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
        for axis in (None, 0, 1):
            check(op, f, axis=axis)
    np.testing.assert_array_equal(gpuarr.nancumsum(gpuarr.asarray(f), axis=1).get(),
                                  [[1, 1, 3, 6], [0, 0, 4, 3]])


@gpu_test
@pytest.mark.parametrize("op", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_array_api(op, rng):
    for shape, axis in (((7,), None), ((7,), 0), ((4, 5), 0), ((4, 5), -1), ((3, 300), 1),
                        ((0,), None)):
        h = rng.integers(-3, 4, size=shape).astype(np.int32)
        for inc in (False, True):
            check(op, h, axis=axis, include_initial=inc)
            check(op, h, axis=axis, include_initial=inc, dtype="float64")
    check(op, np.ones((2, 3)))  # 2-d without axis: ValueError


# ----------------------------------------------------------------- axis errors


@gpu_test
@pytest.mark.parametrize("op", ["sum", "prod", "max", "nanmin", "all", "mean", "var", "std",
                                "nanmean", "argmax", "cumsum", "count_nonzero"])
def test_axis_errors(op):
    h = np.zeros((3, 2))
    d = gpuarr.asarray(h)
    cases = [2, -3, 100]
    if op not in ("argmax", "cumsum"):
        cases += [(0, 0), (0, -2), (1, 2), (-1, 1)]
    for axis in cases:
        ek, ev, _ = outcome(getattr(np, op), h, axis=axis)
        gk, gv, _ = outcome(getattr(gpuarr, op), d, axis=axis)
        assert ek == "raise" and gk == "raise", (op, axis, gv)
        assert_same_exception(gv, ev)
        if isinstance(ev, np.exceptions.AxisError):
            assert isinstance(gv, np.exceptions.AxisError)
        elif "duplicate" in str(ev):
            assert type(gv) is ValueError


# ------------------------------------------------------------------------- average


@gpu_test
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
def test_average(dtype, rng):
    h = make(rng, "mean", (4, 5, 3), dtype)
    d = gpuarr.asarray(h)
    wfull = rng.uniform(0.5, 2.0, size=h.shape)
    for kw in ({}, {"axis": 1}, {"axis": (0, 2)}, {"axis": -1, "keepdims": True},
               {"weights": wfull}, {"weights": wfull, "axis": 0},
               {"weights": np.array([1.0, 2.0, 3.0, 4.0, 5.0]), "axis": 1},
               {"weights": np.array([1, 0, 2]), "axis": -1, "keepdims": True},
               {"weights": np.array([1.0, 2.0, 3.0, 4.0]), "axis": 0}):
        for returned in (False, True):
            ekw = dict(kw)
            gkw = {k: (gpuarr.asarray(v) if k == "weights" else v) for k, v in kw.items()}
            e = np.average(h, returned=returned, **ekw)
            g = gpuarr.average(d, returned=returned, **gkw)
            if returned:
                assert isinstance(g, tuple) and len(g) == 2
                assert_result("average", g[0], e[0], h)
                assert_result("average", g[1], e[1], h)
            else:
                assert_result("average", g, e, h)
    # Errors as NumPy.
    for kw in ({"weights": np.ones(5)}, {"weights": np.ones(4), "axis": 1},
               {"weights": np.ones((4, 5)), "axis": 0}, {"weights": np.zeros(5), "axis": 1}):
        ek, ev, _ = outcome(np.average, h, **kw)
        gk, gv, _ = outcome(gpuarr.average, d, weights=gpuarr.asarray(kw["weights"]),
                            **{k: v for k, v in kw.items() if k != "weights"})
        assert ek == "raise" and gk == "raise", (kw, gv)
        assert_same_exception(gv, ev)


# ------------------------------------------------------------------------- methods


@gpu_test
def test_methods_match_numpy(rng):
    h = make(rng, "sum", (4, 6), "float32")
    d = gpuarr.asarray(h)
    for name, kw in (("sum", {"axis": 0}), ("sum", {"axis": 1, "keepdims": True, "dtype": "float64"}),
                     ("prod", {"axis": 1}), ("max", {}), ("min", {"axis": 0}),
                     ("argmax", {"axis": 1}), ("argmin", {}), ("all", {"axis": 0}),
                     ("any", {}), ("mean", {"axis": -1}), ("var", {"ddof": 1, "axis": 0}),
                     ("std", {"axis": 1}), ("cumsum", {"axis": 1}), ("cumprod", {})):
        e = getattr(h, name)(**kw)
        g = getattr(d, name)(**kw)
        assert_result(name, g, e, h)
