"""The elementwise functions built on the ufuncs, on the GPU against NumPy: where (three
arguments), clip, around/round, fix, angle, real/imag (views), conj/conjugate, aliases and
ufunc.outer."""

import warnings

import numpy as np
import pytest

import gpuarr as ga
from conftest import assert_gpu_close, dtype_id, gpu_test, outcome, public_exception_type


def np_eval(fn, *args, **kw):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def same_as_numpy(gfn, nfn, hargs, dargs, label="", **kw):
    kind, exp, _ = outcome(np_eval, nfn, *hargs, **kw)
    if kind == "raise":
        with pytest.raises(public_exception_type(exp)):
            gfn(*dargs, **kw)
    else:
        assert_gpu_close(gfn(*dargs, **kw), exp, label)


def dev(x):
    return ga.asarray(x) if isinstance(x, np.ndarray) else x


# --- where ---------------------------------------------------------------------------

WHERE_CASES = [
    # cond dtype, x, y
    ("bool", "float32", "float32"), ("int8", "int16", "uint8"), ("float64", "int32", "float16"),
    ("complex64", "complex64", "float64"), ("uint32", "bool", "bool"), ("bool", "int64", "uint64"),
]


@gpu_test
@pytest.mark.parametrize("case", WHERE_CASES, ids="-".join)
@pytest.mark.parametrize("shapes", [((6,), (6,), (6,)), ((3, 1), (1, 4), ()), ((), (2, 3), (3,)),
                                    ((0, 3), (3,), (1, 3)), ((2, 3, 4), (2, 3, 4), (2, 3, 4))],
                         ids=str)
def test_where(rng, case, shapes):
    c = rng.integers(-1, 2, size=shapes[0]).astype(case[0])
    if c.dtype.kind == "f" and c.size:
        c.reshape(-1)[0] = np.nan  # NaN is true
    x = (rng.standard_normal(shapes[1]) * 20).astype(case[1])
    y = (rng.standard_normal(shapes[2]) * 20 + 100).astype(case[2])
    same_as_numpy(ga.where, np.where, (c, x, y), (dev(c), dev(x), dev(y)), "where")
    # non-contiguous condition
    if c.ndim >= 1 and c.shape[-1] > 1:
        cs = c[..., ::-1]
        same_as_numpy(ga.where, np.where, (cs, x, y), (dev(c)[..., ::-1], dev(x), dev(y)))


@gpu_test
def test_where_scalars():
    c = np.array([True, False, True])
    dc = ga.asarray(c)
    i8 = np.array([1, 2, 3], np.int8)
    f32 = np.array([1.5, 2.5, 3.5], np.float32)
    for xs, ys in ((1, 2.5), (i8, 1), (1, i8), (f32, 2.0), (f32, np.float64(2)), (i8, 300),
                   (1j, f32), (True, False), (i8, -1.5)):
        same_as_numpy(ga.where, np.where, (c, xs, ys), (dc, dev(xs), dev(ys)), f"{xs!r} {ys!r}")
    same_as_numpy(ga.where, np.where, (np.array(5), i8, f32), (ga.asarray(np.array(5)),
                                                               dev(i8), dev(f32)))
    with pytest.raises(ValueError):
        ga.where(ga.ones(2, dtype=bool), ga.ones(3), ga.ones(3))


# --- clip ----------------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float16, np.float32,
                                   np.float64], ids=dtype_id)
def test_clip(rng, dtype):
    h = (rng.standard_normal((4, 7)) * 50).astype(dtype) if np.dtype(dtype).kind == "f" else \
        rng.integers(0 if np.dtype(dtype).kind == "u" else -100, 100, size=(4, 7)).astype(dtype)
    if np.dtype(dtype).kind == "f":
        h[0, 0] = np.nan
        h[0, 1] = -np.inf
    d = ga.asarray(h)
    lo_arr = rng.integers(0, 20, size=7).astype(dtype)
    hi_arr = (lo_arr + rng.integers(0, 40, size=7)).astype(dtype)
    for lo, hi in ((10, 50), (lo_arr, hi_arr), (lo_arr, 30), (None, 30), (5, None),
                   (50, 10), (lo_arr[::-1], hi_arr[::-1]), (None, None)):
        same_as_numpy(ga.clip, np.clip, (h, lo, hi), (d, dev(lo), dev(hi)), f"{lo} {hi}")
        same_as_numpy(ga.clip, np.clip, (h[:, ::-1], lo, hi), (d[:, ::-1], dev(lo), dev(hi)))
    if np.dtype(dtype).kind == "f":
        for lo, hi in ((np.nan, 1.0), (0.0, np.nan)):
            same_as_numpy(ga.clip, np.clip, (h, lo, hi), (d, lo, hi), f"nan bound {lo} {hi}")
    # keywords and out=
    assert_gpu_close(ga.clip(d, min=3, max=20), np.clip(h, min=3, max=20))
    o = ga.empty(h.shape, dtype=h.dtype)
    r = ga.clip(d, 3, 20, out=o)
    assert r is o
    assert_gpu_close(o, np.clip(h, 3, 20))
    assert_gpu_close(d.clip(3, 20) if hasattr(d, "clip") else ga.clip(d, 3, 20), np.clip(h, 3, 20))


# --- around / round / fix -----------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128, np.int8, np.int16, np.int64, np.uint8,
                                   np.uint64], ids=dtype_id)
@pytest.mark.parametrize("decimals", [0, 2, -1])
def test_around(rng, dtype, decimals):
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        lo, hi = (0, 240) if dt.kind == "u" else (-120, 120)
        h = rng.integers(lo, hi, size=40).astype(dt)
        h[:4] = [25, 35, 15, 5] if dt.kind == "u" else [25, -25, 35, -15]  # ties to even
    else:
        h = (rng.standard_normal(40) * 30).astype(dt)
        if dt.kind == "c":
            h = (h + 1j * (rng.standard_normal(40) * 30)).astype(dt)
        h[:6] = [0.5, 1.5, 2.5, -0.5, -2.5, 12.345]
        if dt.kind == "f":
            h[6:9] = [np.nan, np.inf, -0.0]
    d = ga.asarray(h)
    for fn in (ga.around, ga.round):
        same_as_numpy(fn, np.around, (h, decimals), (d, decimals), f"around {decimals}")
        same_as_numpy(fn, np.around, (h[::-3], decimals), (d[::-3], decimals))
    if hasattr(d, "round"):
        assert_gpu_close(d.round(decimals), np_eval(np.around, h, decimals))
    if dt.kind in "fc" or decimals >= 0:  # NumPy refuses out= for ints with decimals < 0
        o = ga.empty(h.shape, dtype=h.dtype)
        r = ga.around(d, decimals, out=o)
        assert r is o
        assert_gpu_close(o, np_eval(np.around, h, decimals))


@gpu_test
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32, np.uint8],
                         ids=dtype_id)
def test_fix(rng, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        h = np.array([-2.5, -0.5, -0.0, 0.0, 0.5, 1.7, -1.7, np.inf, -np.inf, np.nan], dt)
    else:
        h = rng.integers(0, 100, size=10).astype(dt)
    d = ga.asarray(h)
    exp = np_eval(np.fix, h)
    got = ga.fix(d)
    assert_gpu_close(got, exp, "fix")
    np.testing.assert_array_equal(np.signbit(ga.asnumpy(got)), np.signbit(exp))
    o = ga.empty(h.shape, dtype=h.dtype)
    assert ga.fix(d, out=o) is o
    assert_gpu_close(o, exp)


# --- angle, real, imag, conj -------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.float64, np.int8,
                                   np.int64, np.bool_], ids=dtype_id)
@pytest.mark.parametrize("deg", [False, True])
def test_angle(rng, dtype, deg):
    dt = np.dtype(dtype)
    if dt.kind == "c":
        h = np.array([1, -1, 1j, -1j, 1 + 1j, -1 - 1j, complex(-1, -0.0), 0, 3 - 4j], dt)
    elif dt.kind == "b":
        h = np.array([True, False])
    else:
        h = np.array([1, -1, 0, 5, -7], dt)
    assert_gpu_close(ga.angle(ga.asarray(h), deg=deg), np_eval(np.angle, h, deg=deg), "angle")


@gpu_test
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=dtype_id)
def test_real_imag_views_complex(rng, dtype):
    h = (rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))).astype(dtype)
    d = ga.asarray(h)
    for attr in ("real", "imag"):
        v, hv = getattr(d, attr), getattr(h, attr)
        assert v.dtype == hv.dtype and v.shape == hv.shape and v.strides == hv.strides
        assert_gpu_close(v, hv)
        assert_gpu_close(getattr(ga, attr)(d), getattr(np, attr)(h))
        assert_gpu_close(getattr(d.T, attr), getattr(h.T, attr))
        assert_gpu_close(getattr(d[:, ::-1], attr), getattr(h[:, ::-1], attr))
    d.real[...] = 1
    h.real[...] = 1
    assert_gpu_close(d, h)
    d.imag[1] = 7
    h.imag[1] = 7
    assert_gpu_close(d, h)
    d[:, 1::2].imag[...] = -2
    h[:, 1::2].imag[...] = -2
    assert_gpu_close(d, h)
    d.real = ga.asarray(np.arange(4.0))
    h.real = np.arange(4.0)
    d.imag = 5
    h.imag = 5
    assert_gpu_close(d, h)
    r = ga.real(d)
    r[0, 0] = 42  # a view through the function form too
    h.real[0, 0] = 42
    assert_gpu_close(d, h)


@gpu_test
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.bool_], ids=dtype_id)
def test_real_imag_real_arrays(dtype):
    h = np.array([[1, 0, 3], [4, 5, 0]], dtype)
    d = ga.asarray(h)
    assert_gpu_close(d.real, h.real)
    assert_gpu_close(d.imag, h.imag)  # zeros of the same dtype
    assert_gpu_close(ga.imag(d), np.imag(h))
    d.real[0, 0] = 0  # .real of a real array is a view
    h.real[0, 0] = 0
    assert_gpu_close(d, h)
    with pytest.raises(TypeError):
        d.imag = 1


@gpu_test
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float64, np.int8],
                         ids=dtype_id)
def test_conj(rng, dtype):
    h = (rng.standard_normal(8) * 10).astype(dtype)
    if np.dtype(dtype).kind == "c":
        h = h + 1j * np.array([1, -1, 0.0, -0.0, 2, np.inf, np.nan, 3])
        h = h.astype(dtype)
    d = ga.asarray(h)
    for got in (d.conj(), d.conjugate(), ga.conj(d), ga.conjugate(d), ga.conj(d[::-1])[::-1]):
        assert_gpu_close(got, np.conj(h), "conj")
        g = ga.asnumpy(got)
        if g.dtype.kind == "c":
            nn = ~np.isnan(h.imag)
            np.testing.assert_array_equal(np.signbit(g.imag[nn]), np.signbit(np.conj(h).imag[nn]))
    if np.dtype(dtype).kind == "c":
        c = d.conj()
        c[...] = 0  # a copy
        assert_gpu_close(d, h)


# --- aliases and ufunc.outer ---------------------------------------------------------------

ALIASES = {"mod": "remainder", "true_divide": "divide", "abs": "absolute", "conj": "conjugate",
           "degrees": "rad2deg", "radians": "deg2rad", "acos": "arccos", "asin": "arcsin",
           "atan": "arctan", "atan2": "arctan2", "acosh": "arccosh", "asinh": "arcsinh",
           "atanh": "arctanh", "pow": "power", "bitwise_left_shift": "left_shift",
           "bitwise_right_shift": "right_shift", "bitwise_invert": "invert",
           "bitwise_not": "invert"}


@gpu_test
def test_aliases():
    h = np.array([0.25, 0.5, 0.75])
    hi = np.array([1, 2, 3], np.int32)
    d, di = ga.asarray(h), ga.asarray(hi)
    for alias, name in ALIASES.items():
        assert getattr(ga, alias) is getattr(ga, name), alias
        uf = getattr(ga, alias)
        args = (d,) * uf.nin if "shift" not in alias and "invert" not in alias and \
            alias != "bitwise_not" else (di,) * uf.nin
        hargs = (h,) * uf.nin if args[0] is d else (hi,) * uf.nin
        assert_gpu_close(uf(*args), np_eval(getattr(np, alias), *hargs), alias)
    assert_gpu_close(ga.abs(ga.asarray(np.array([3 + 4j]))), np.array([5.0]))


@gpu_test
def test_ufunc_outer(rng):
    a = rng.integers(-5, 6, size=4).astype(np.int32)
    b = rng.standard_normal((2, 3)).astype(np.float32)
    da, db = ga.asarray(a), ga.asarray(b)
    for name in ("multiply", "add", "less", "maximum", "arctan2"):
        same_as_numpy(getattr(ga, name).outer, getattr(np, name).outer, (a, b), (da, db), name)
        same_as_numpy(getattr(ga, name).outer, getattr(np, name).outer, (b, a), (db, da), name)
    assert_gpu_close(ga.multiply.outer(da[::-1], da), np.multiply.outer(a[::-1], a))
    with pytest.raises(ValueError):
        ga.sqrt.outer(da, da)


@gpu_test
def test_result_type_helpers():
    i8 = ga.asarray(np.ones(2, np.int8))
    f32 = ga.asarray(np.ones(2, np.float32))
    assert ga.result_type(i8, 1) == np.int8
    assert ga.result_type(i8, 1.0) == np.float64
    assert ga.result_type(f32, 1.0) == np.float32
    assert ga.result_type(i8, f32) == np.float32
    assert ga.result_type(i8, np.uint8) == np.int16
    assert ga.can_cast(i8, np.int16) and not ga.can_cast(f32, np.int32)
    assert ga.finfo(f32).eps == np.finfo(np.float32).eps
    assert ga.iinfo(i8).min == -128
