"""Values of every ufunc on the GPU against NumPy: each loop type, the vectorised,
contiguous and strided kernel paths, broadcasting, Python and NumPy scalars, out=, and
the integer/float edge cases NumPy defines."""

import warnings

import numpy as np
import pytest

import gpuarr as ga
from gpuarr import _core
from conftest import GPU_MODULE

pytestmark = GPU_MODULE

UFUNCS = sorted(n for n in _core._ufuncs if n not in ("where", "clip"))
TOL = {"e": 2e-3, "f": 2e-5, "d": 1e-12, "F": 2e-5, "D": 1e-12}
# Functions whose float16 result NumPy computes in float32 and rounds: allow one ulp more.
LOOSE = {"power", "float_power", "arctanh", "arccosh", "expm1", "log1p", "tan", "cosh",
         "sinh", "exp", "exp2", "logaddexp", "logaddexp2", "hypot"}
COMPLEX_LOOSE = {"power", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
                 "log1p", "expm1", "tan", "tanh", "exp2", "log2", "log10", "sign"}


def inputs_for(name, char, rng, shape):
    """Inputs in the domain where NumPy's result is well defined and not platform-specific."""
    dt = np.dtype(char)
    n = int(np.prod(shape))
    if dt.kind == "b":
        x = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        hi = 5 if name in ("power", "left_shift", "right_shift") else 100
        lo = 0 if dt.kind == "u" or name in ("power", "left_shift", "right_shift") else -100
        x = rng.integers(lo, hi, n).astype(dt)
    else:
        if name in ("arcsin", "arccos", "arctanh"):
            base = rng.uniform(-0.95, 0.95, n)
        elif name == "arccosh":
            base = rng.uniform(1.05, 5, n)
        elif name in ("log", "log2", "log10", "sqrt", "log1p", "reciprocal"):
            base = rng.uniform(0.1, 10, n)
        elif name in ("exp", "exp2", "expm1", "sinh", "cosh", "power", "float_power", "tan"):
            base = rng.uniform(-2, 2, n)
        else:
            base = rng.uniform(-10, 10, n)
        if dt.kind == "c":
            im = rng.uniform(-1, 1, n) if name not in ("log", "sqrt") else rng.uniform(0.1, 1, n)
            x = (base + 1j * im).astype(dt)
        else:
            x = base.astype(dt)
    return x.reshape(shape)


def second_input(name, char, rng, shape):
    if name == "ldexp":  # an integer exponent (the loops 'ei', 'fi', 'di')
        return rng.integers(-30, 30, shape).astype(np.int32)
    x = inputs_for(name, char, rng, shape)
    dt = np.dtype(char)
    if name in ("floor_divide", "remainder", "fmod", "divide", "reciprocal") and dt.kind in "biu":
        x = np.where(x == 0, np.array(3, dt), x).astype(dt)
    if name == "power" and dt.kind in "fc":
        x = inputs_for("power", char, rng, shape) * 0 + np.array(rng.uniform(0, 3, shape), dt)
    return x


def check(got, expected, char, name):
    got = ga.asnumpy(got)
    assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
    assert got.shape == expected.shape
    kind = np.dtype(char).kind
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected, err_msg=name)
    else:
        rtol = TOL.get(expected.dtype.char, 1e-12)
        if name in LOOSE or (kind == "c" and name in COMPLEX_LOOSE):
            rtol *= 100
        atol = rtol * max(1.0, float(np.nanmax(np.abs(expected)))) if expected.size and np.isfinite(expected).any() else 0
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=name)


def loop_cases():
    for name in UFUNCS:
        for t in _core._ufuncs[name].types:
            yield name, t[0]


@pytest.mark.parametrize("name,char", list(loop_cases()))
def test_every_loop_matches_numpy(name, char, rng):
    uf = getattr(ga, name)
    nf = getattr(np, name)
    shape = (1000,)  # contiguous: the vectorised path, with a tail
    args = [inputs_for(name, char, rng, shape) if name != "reciprocal"
            else second_input(name, char, rng, shape)]  # 1/0 for integers is platform-defined
    if uf.nin == 2:
        args.append(second_input(name, char, rng, shape))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = nf(*args)
    check(uf(*[ga.asarray(a) for a in args]), expected, char, name)
    # Strided path: a misaligned view and a reversed view of the same data.
    views = [ga.asarray(a)[::-2] for a in args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = nf(*[a[::-2] for a in args])
    check(uf(*views), expected, char, name)
    offset = [ga.asarray(a)[1:] for a in args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = nf(*[a[1:] for a in args])
    check(uf(*offset), expected, char, name)


SHAPE_PAIRS = [((), ()), ((0,), (0,)), ((3, 0), (1, 1)), ((5,), ()), ((3, 1), (1, 4)),
               ((2, 5), (5,)), ((2, 3, 4), (3, 1)), ((4, 3), (4, 3))]


@pytest.mark.parametrize("sa,sb", SHAPE_PAIRS)
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "less", "arctan2", "logical_xor"])
def test_broadcasting(sa, sb, name, rng):
    a = rng.uniform(-5, 5, sa).astype(np.float32)
    b = rng.uniform(-5, 5, sb).astype(np.float32)
    expected = getattr(np, name)(a, b)
    got = getattr(ga, name)(ga.asarray(a), ga.asarray(b))
    check(got, np.asarray(expected), "f", name)


def test_non_contiguous_layouts(rng):
    h = rng.uniform(-5, 5, (6, 7, 8)).astype(np.float64)
    d = ga.asarray(h)
    for sl in [np.s_[::2, :, ::-1], np.s_[:, 3, :], np.s_[..., ::3]]:
        check(ga.add(d[sl], d[sl]), h[sl] + h[sl], "d", "add")
    check(ga.multiply(d.T, 2.0), h.T * 2.0, "d", "multiply")
    out = ga.sin(d.transpose(1, 0, 2))
    np.testing.assert_allclose(ga.asnumpy(out), np.sin(h.transpose(1, 0, 2)), rtol=1e-12)


def test_mismatched_shapes_raise_with_both_shapes():
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with shapes \(2,\) \(3,\)"):
        ga.add(ga.ones(2), ga.ones(3))


def test_unsupported_dtype_raises_numpy_type_error():
    with pytest.raises(TypeError, match="ufunc 'bitwise_and' not supported for the input types"):
        ga.bitwise_and(ga.ones(2), ga.ones(2))
    with pytest.raises(TypeError, match="boolean subtract"):
        ga.ones(2, dtype=bool) - ga.ones(2, dtype=bool)
    with pytest.raises(TypeError, match="boolean negative"):
        -ga.ones(2, dtype=bool)


def test_nep50_python_scalars():
    f32 = ga.ones(3, dtype=np.float32)
    assert (f32 * 2.0).dtype == np.float32
    assert (2.0 * f32).dtype == np.float32
    i8 = ga.ones(3, dtype=np.int8)
    assert (i8 + 1).dtype == np.int8
    assert (i8 + 1.5).dtype == np.float64
    assert (ga.ones(3, dtype=bool) + 1).dtype == np.int64
    assert (f32 + 1j).dtype == np.complex64
    with pytest.raises(OverflowError):
        ga.ones(3, dtype=np.uint8) + 300
    # Comparisons with out-of-range Python ints are exact in NumPy 2.
    u8 = ga.asarray(np.array([0, 7, 255], np.uint8))
    np.testing.assert_array_equal(ga.asnumpy(u8 < 300), np.array([0, 7, 255], np.uint8) < 300)
    np.testing.assert_array_equal(ga.asnumpy(u8 > -1), [True, True, True])
    # NumPy scalars are strong.
    assert (f32 + np.float64(2)).dtype == np.float64
    assert (i8 + np.int16(2)).dtype == np.int16
    # 0-d arrays are strong as well.
    assert (f32 + ga.asarray(np.float64(2))).dtype == np.float64


def test_integer_division_edge_cases():
    a = np.array([-7, 7, -8, 0, np.iinfo(np.int32).min], np.int32)
    b = np.array([2, -2, 0, 0, -1], np.int32)
    da, db = ga.asarray(a), ga.asarray(b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("floor_divide", "remainder", "fmod"):
            np.testing.assert_array_equal(ga.asnumpy(getattr(ga, name)(da, db)), getattr(np, name)(a, b), err_msg=name)


def test_float_division_edge_cases_keep_signed_zeros():
    a = np.array([-7.5, 7.5, -0.0, 0.0, 1.0, -1.0, np.inf, np.nan, 5.0, -5.0], np.float64)
    b = np.array([2.0, -2.0, 3.0, -3.0, 0.0, 0.0, 2.0, 1.0, np.inf, np.inf], np.float64)
    da, db = ga.asarray(a), ga.asarray(b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("floor_divide", "remainder", "fmod", "divide"):
            got = ga.asnumpy(getattr(ga, name)(da, db))
            exp = getattr(np, name)(a, b)
            if name == "floor_divide":
                # The Array API standard's table decides for infinite operands: inf // 2 is
                # inf (NumPy: nan) and -5 // inf is -0.0 (NumPy: -1.0).
                exp[6], exp[9] = np.inf, -0.0
            np.testing.assert_array_equal(got, exp, err_msg=name)
            np.testing.assert_array_equal(np.signbit(got), np.signbit(exp), err_msg=name)


def test_nan_propagation_in_extrema():
    a = np.array([1.0, np.nan, 3.0, np.nan], np.float32)
    b = np.array([np.nan, 2.0, 1.0, np.nan], np.float32)
    for name in ("maximum", "minimum", "fmax", "fmin"):
        np.testing.assert_array_equal(ga.asnumpy(getattr(ga, name)(ga.asarray(a), ga.asarray(b))),
                                      getattr(np, name)(a, b), err_msg=name)


def test_out_argument(rng):
    a = rng.uniform(-5, 5, 10)
    b = rng.uniform(-5, 5, 10)
    da, db = ga.asarray(a), ga.asarray(b)
    out = ga.empty(10)
    r = ga.add(da, db, out=out)
    assert r is out
    np.testing.assert_allclose(ga.asnumpy(out), a + b)
    out32 = ga.empty(10, dtype=np.float32)
    ga.multiply(da, db, out=out32)
    np.testing.assert_allclose(ga.asnumpy(out32), (a * b).astype(np.float32), rtol=1e-6)
    ga.subtract(da, db, out=(out,))
    np.testing.assert_allclose(ga.asnumpy(out), a - b)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype\\('float64'\\) to dtype\\('int64'\\)"):
        ga.add(da, db, out=ga.empty(10, dtype=np.int64))
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        ga.add(da, db, out=ga.empty(3))
    r = ga.add(da, 1, dtype=np.float32)
    assert r.dtype == np.float32


def test_out_aliasing_and_overlap(rng):
    h = rng.uniform(-5, 5, 20)
    d = ga.asarray(h)
    ga.add(d, d, out=d)
    np.testing.assert_allclose(ga.asnumpy(d), h + h)
    h2 = h + h
    d[1:] += d[:-1]
    h2[1:] += h2[:-1].copy()
    np.testing.assert_allclose(ga.asnumpy(d), h2)


def test_operators_and_reflected(rng):
    a = rng.integers(1, 50, 12).astype(np.int64)
    b = rng.integers(1, 7, 12).astype(np.int64)
    da, db = ga.asarray(a), ga.asarray(b)
    for op in ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
               "__pow__", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__",
               "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"]:
        np.testing.assert_allclose(ga.asnumpy(getattr(da, op)(db)), getattr(a, op)(b), err_msg=op)
    for op in ["__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__", "__rpow__"]:
        np.testing.assert_allclose(ga.asnumpy(getattr(da, op)(3)), getattr(a, op)(3), err_msg=op)
    np.testing.assert_array_equal(ga.asnumpy(-da), -a)
    np.testing.assert_array_equal(ga.asnumpy(+da), +a)
    np.testing.assert_array_equal(ga.asnumpy(~da), ~a)
    np.testing.assert_array_equal(ga.asnumpy(abs(-da)), a)
    x = ga.asarray(a.copy())
    x += 2
    x *= 3
    x //= 2
    np.testing.assert_array_equal(ga.asnumpy(x), ((a + 2) * 3) // 2)
    with pytest.raises(TypeError, match="Cannot cast ufunc"):
        x += 1.5
    with pytest.raises(TypeError):
        da + [1, 2]
    assert (da == None) is False  # noqa: E711  (NotImplemented both ways -> identity)


def test_where_clip_round_fix_angle(rng):
    h = rng.uniform(-5, 5, (4, 5))
    d = ga.asarray(h)
    np.testing.assert_array_equal(ga.asnumpy(ga.where(d > 0, d, -1.0)), np.where(h > 0, h, -1.0))
    np.testing.assert_array_equal(ga.asnumpy(ga.where(ga.asarray(h.astype(np.int32)), 1, 2)),
                                  np.where(h.astype(np.int32), 1, 2))
    assert ga.where(d > 0, ga.ones(5, dtype=np.float32), 0).dtype == np.float32
    np.testing.assert_array_equal(ga.asnumpy(ga.clip(d, -1, 2)), np.clip(h, -1, 2))
    np.testing.assert_array_equal(ga.asnumpy(ga.clip(d, None, 2)), np.clip(h, None, 2))
    np.testing.assert_array_equal(ga.asnumpy(ga.clip(d, ga.asarray(h[0]), 3)), np.clip(h, h[0], 3))
    for dec in (0, 2, -1):
        np.testing.assert_allclose(ga.asnumpy(ga.round(d, dec)), np.round(h, dec), rtol=1e-12)
    hi = (h * 100).astype(np.int64)
    np.testing.assert_array_equal(ga.asnumpy(ga.around(ga.asarray(hi), -1)), np.around(hi, -1))
    np.testing.assert_array_equal(ga.asnumpy(ga.fix(d)), np.fix(h))
    z = h + 1j * h[::-1]
    dz = ga.asarray(z)
    np.testing.assert_allclose(ga.asnumpy(ga.angle(dz)), np.angle(z), rtol=1e-12)
    np.testing.assert_allclose(ga.asnumpy(ga.angle(dz, deg=True)), np.angle(z, deg=True), rtol=1e-12)


def test_real_imag_views_and_conj(rng):
    z = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    d = ga.asarray(z)
    np.testing.assert_array_equal(ga.asnumpy(d.real), z.real)
    np.testing.assert_array_equal(ga.asnumpy(d.imag), z.imag)
    d.real[...] = 1.0
    z.real[...] = 1.0
    np.testing.assert_array_equal(ga.asnumpy(d), z)
    d.imag = 2.0
    z.imag = 2.0
    np.testing.assert_array_equal(ga.asnumpy(d), z)
    np.testing.assert_array_equal(ga.asnumpy(d.conj()), z.conj())
    np.testing.assert_array_equal(ga.asnumpy(ga.conj(d)), np.conj(z))
    r = ga.arange(4.0)
    np.testing.assert_array_equal(ga.asnumpy(r.imag), np.zeros(4))
    np.testing.assert_array_equal(ga.asnumpy(ga.real(r)), np.arange(4.0))


def test_ufunc_outer():
    a, b = np.arange(3.0), np.arange(4.0)
    np.testing.assert_array_equal(ga.asnumpy(ga.multiply.outer(ga.asarray(a), ga.asarray(b))),
                                  np.multiply.outer(a, b))


def test_float16_and_specials():
    h = np.array([0.5, -0.0, np.inf, -np.inf, np.nan, 65504], np.float16)
    d = ga.asarray(h)
    for name in ("isnan", "isinf", "isfinite", "signbit", "negative", "absolute", "sign"):
        np.testing.assert_array_equal(ga.asnumpy(getattr(ga, name)(d)), getattr(np, name)(h), err_msg=name)
    np.testing.assert_array_equal(ga.asnumpy(d * 2), h * 2)
