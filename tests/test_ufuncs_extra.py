"""fabs, heaviside, ldexp, frexp, modf, gcd, lcm, nextafter, spacing, bitwise_count, and the
functions isposinf, isneginf, sinc and i0, against NumPy: every loop NumPy has, the special
values each defines (signed zeros, infinities, NaN, subnormals, huge exponents, the least
integer), broadcasting, out=, casting=, non-contiguous inputs and NumPy's errors.

The loops' selection (types, Python scalars) is also covered on the host for every ufunc by
test_ufunc_resolution.py; the functor header's NVRTC compile is checked here on the host."""

import warnings

import numpy as np
import pytest

import gpuarr as ga
from gpuarr import _core
from conftest import gpu_test, numpy_nextafter, outcome, public_exception_type

FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
NEW_UFUNCS = ["fabs", "heaviside", "ldexp", "gcd", "lcm", "nextafter", "spacing",
              "bitwise_count"]
ARCH = ["-arch=sm_90"]


def numpy_call(fn, *args, **kw):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def check(got, expected, *, rtol=0.0, name=""):
    """Same dtype and shape; values equal (within rtol for inexact ones), NaN where NumPy
    has NaN, and the sign of zero results as NumPy's."""
    assert isinstance(got, ga.ndarray), type(got)
    expected = np.asarray(expected)
    g = ga.asnumpy(got)
    assert g.dtype == expected.dtype, (name, g.dtype, expected.dtype)
    assert g.shape == expected.shape, (name, g.shape, expected.shape)
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(g, expected, err_msg=name)
        return
    np.testing.assert_allclose(g, expected, rtol=rtol, atol=0, equal_nan=True, err_msg=name)
    zeros = (g == 0) & (expected == 0)
    np.testing.assert_array_equal(np.signbit(g[zeros]), np.signbit(expected[zeros]),
                                  err_msg=f"{name}: sign of zeros")


def specials(dtype):
    """Zeros, infinities, NaN, ones, subnormals, the extremes and powers of two of `dtype`."""
    fi = np.finfo(dtype)
    tiny_sub = fi.smallest_subnormal
    vals = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, -0.75, 3.0, -3.0,
            float(fi.max), -float(fi.max), float(fi.tiny), -float(fi.tiny), float(tiny_sub),
            -float(tiny_sub), float(tiny_sub) * 3, float(fi.tiny) * 0.5, 1.5, -1e-3, 1e3,
            float(fi.eps), 2.0 ** (fi.minexp + 1), -(2.0 ** (fi.maxexp - 1))]
    return np.array(vals, dtype=dtype)


# --- host: the functors under NVRTC -------------------------------------------------------


def test_functor_header_compiles_under_nvrtc_without_include_dirs():
    # The functors these ufuncs and functions run are called by generated kernels too: the
    # header must compile alone (no toolkit headers), for every loop type.
    src = r'''
#include <gpuarr/ufunc_math.cuh>
using namespace gpuarr::ufn;
template <class F> __device__ void reals(F* o, const F* x, const int* ei, const long* el,
                                         int* oi) {
  const int i = threadIdx.x;
  o[i] = Fabs{}(x[i]) + Heaviside{}(x[i], x[i + 1]) + Ldexp{}(x[i], ei[i]) +
         Ldexp{}(x[i], el[i]) + FrexpMantissa{}(x[i]) + ModfFractional{}(x[i]) +
         ModfIntegral{}(x[i]) + Nextafter{}(x[i], x[i + 1]) + Spacing{}(x[i]) +
         Sinc{}(x[i]) + I0{}(x[i]);
  oi[i] = FrexpExponent{}(x[i]);
}
template <class T> __device__ void ints(T* o, const T* x, unsigned char* c) {
  const int i = threadIdx.x;
  o[i] = Gcd{}(x[i], x[i + 1]) + Lcm{}(x[i], x[i + 1]);
  c[i] = BitwiseCount{}(x[i]);
}
extern "C" __global__ void k(float* of, const float* xf, double* od, const double* xd,
                             const int* ei, const long* el, int* oi, signed char* a,
                             unsigned char* b, short* c, unsigned short* d, int* e,
                             unsigned* f, long* g, unsigned long* h, unsigned char* cnt) {
  reals(of, xf, ei, el, oi);
  reals(od, xd, ei, el, oi);
  of[0] += NextafterHalf{}(xf[0], xf[1]) + SpacingHalf{}(xf[0]);
  ints(a, a, cnt); ints(b, b, cnt); ints(c, c, cnt); ints(d, d, cnt);
  ints(e, e, cnt); ints(f, f, cnt); ints(g, g, cnt); ints(h, h, cnt);
}
'''
    cubin, log = _core._jit_check_compile(src, ARCH, toolkit_include=False)
    assert cubin, log


@pytest.mark.parametrize("name", NEW_UFUNCS)
def test_ufunc_objects_and_loops_are_numpys(name):
    u, n = getattr(ga, name), getattr(np, name)
    assert isinstance(u, ga.ufunc) and u.nin == n.nin and u.nout == 1
    assert u.types == [t for t in n.types if "g" not in t and "O" not in t and "q" not in t
                       and "Q" not in t]


def test_kernels_of_functions_are_not_numpy_ufuncs():
    assert {"_frexp_mantissa", "_frexp_exponent", "_modf_fractional", "_modf_integral",
            "_sinc", "_i0"} <= set(_core._ufunc_kernels)
    assert not any(n.startswith("_") for n in _core._ufuncs)
    assert _core._ufunc_kernels["_frexp_exponent"].types == ["e->i", "f->i", "d->i"]


@pytest.mark.parametrize("operands,expected", [
    (("f", 3), "fi->f"), (("e", 3), "ei->e"), (("d", 3), "di->d"), (("f", "l"), "fl->f"),
    (("f", "I"), "fl->f"), (("b", 3), "ei->e"), (("?", "?"), "ei->e"), (("l", "l"), "dl->d"),
    ((2.5, "b"), "di->d"),
], ids=str)
def test_ldexp_loop_for_python_int_exponents(operands, expected):
    ops = [np.dtype(o) if isinstance(o, str) else o for o in operands]
    assert _core._ufunc_loop_for("ldexp", ops) == expected


@pytest.mark.parametrize("name,operands", [
    ("ldexp", ("f", "f")), ("ldexp", ("f", 1.5)), ("ldexp", ("d", "L")), ("ldexp", ("F", "i")),
    ("gcd", ("d", "l")), ("gcd", ("?", "?")), ("gcd", ("?", True)), ("lcm", ("f", "f")),
    ("bitwise_count", ("d",)), ("fabs", ("F",)), ("heaviside", ("D", "d")),
    ("nextafter", ("F", "F")), ("spacing", ("D",)),
], ids=str)
def test_bad_types_raise_numpys_type_error(name, operands):
    ops = [np.dtype(o) if isinstance(o, str) else o for o in operands]
    with pytest.raises(TypeError):
        getattr(np, name)(*[np.ones(2, o) if isinstance(o, np.dtype) else o for o in ops])
    with pytest.raises(TypeError):
        _core._ufunc_loop_for(name, ops)


def test_function_errors_before_any_launch():
    x = np.ones(3)
    for bad_out, exc in (((None,), ValueError), (None, TypeError), ("x", TypeError)):
        with pytest.raises(exc):
            np.frexp(x, out=bad_out)
        with pytest.raises(exc):
            ga.frexp(x, out=bad_out)
    with pytest.raises(TypeError, match="both a positional and keyword"):
        ga.modf(x, 1, out=(1, None))


# --- device: values against NumPy --------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_], ids=lambda d: np.dtype(d).name)
def test_fabs_and_spacing(dtype):
    h = specials(dtype) if np.dtype(dtype).kind == "f" else (
        np.array([0, 1, 7, np.iinfo(dtype).max, np.iinfo(dtype).min], dtype)
        if dtype is not np.bool_ else np.array([True, False]))
    for name in ("fabs", "spacing"):
        exp = numpy_call(getattr(np, name), h)
        check(getattr(ga, name)(ga.asarray(h)), exp, name=f"{name} {h.dtype}")
        check(getattr(ga, name)(ga.asarray(h)[::-2]), numpy_call(getattr(np, name), h[::-2]),
              name=f"{name} strided")


@gpu_test
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_nextafter_and_heaviside_special_values(dtype):
    s = specials(dtype)
    x, y = np.meshgrid(s, s)
    dx, dy = ga.asarray(x), ga.asarray(y)
    for name in ("nextafter", "heaviside"):
        npf = numpy_nextafter if name == "nextafter" else (
            lambda *a: numpy_call(np.heaviside, *a))
        check(getattr(ga, name)(dx, dy), npf(x, y), name=f"{name} {dtype}")
        # broadcasting a column against a row, and a Python scalar
        check(getattr(ga, name)(ga.asarray(s[:, None]), ga.asarray(s[::-1])),
              npf(s[:, None], s[::-1]), name=f"{name} broadcast")
        check(getattr(ga, name)(dx.T, 0.5), npf(x.T, 0.5), name=f"{name} scalar")


def test_float16_nextafter_of_equal_operands_and_signed_zeros():
    # What the device test above compares against, independent of the NumPy version: equal
    # operands give y; the least subnormal stepped towards zero is the zero of its sign.
    h = np.float16
    tiny = np.finfo(h).smallest_subnormal
    for x, y, want in ((-0.0, 0.0, 0.0), (0.0, -0.0, -0.0), (2.0, 2.0, 2.0),
                       (tiny, 0.0, 0.0), (-tiny, 0.0, -0.0), (-tiny, 1.0, -0.0),
                       (tiny, -1.0, 0.0), (0.0, -1.0, -tiny)):
        got = numpy_nextafter(np.array([x], h), np.array([y], h))
        assert got.dtype == h and got[0] == want and np.signbit(got[0]) == np.signbit(want), (
            x, y, got)


@gpu_test
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("exp_dtype", [np.int32, np.int64, np.int8, np.uint32, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_ldexp(dtype, exp_dtype):
    s = specials(dtype)
    if exp_dtype is np.bool_:
        e = np.array([True, False])
    else:
        info = np.iinfo(exp_dtype)
        wanted = {0, 1, -1, 10, -10, 30, -30, 1100, -1100, 2000, -2000, info.min, info.max,
                  2**31 - 1, -2**31, 2**31, -2**31 - 1, 2**40, -2**40}
        e = np.array(sorted(v for v in wanted if info.min <= v <= info.max), exp_dtype)
    x, k = np.meshgrid(s, e)
    check(ga.ldexp(ga.asarray(x), ga.asarray(k)), numpy_call(np.ldexp, x, k),
          name=f"ldexp {dtype} {exp_dtype}")
    for py_e in (3, -3, 0, 1000, -1000, 2**31 - 1):
        check(ga.ldexp(ga.asarray(s), py_e), numpy_call(np.ldexp, s, py_e), name=f"ldexp {py_e}")
    # NumPy checks a Python int exponent against the int32 loop.
    for py_e in (2**31, -2**31 - 1, 2**40):
        kind, exc, _ = outcome(numpy_call, np.ldexp, s, py_e)
        assert kind == "raise"
        with pytest.raises(public_exception_type(exc)):
            ga.ldexp(ga.asarray(s), py_e)


@gpu_test
def test_ldexp_of_integers_and_python_scalars():
    i8 = np.arange(-4, 4, dtype=np.int8)
    check(ga.ldexp(ga.asarray(i8), 3), numpy_call(np.ldexp, i8, 3))
    check(ga.ldexp(2.5, ga.asarray(i8)), numpy_call(np.ldexp, 2.5, i8))
    check(ga.ldexp(3, 4), numpy_call(np.ldexp, 3, 4))
    with pytest.raises(TypeError):
        ga.ldexp(ga.asarray(np.ones(3)), ga.asarray(np.ones(3)))
    with pytest.raises(TypeError):
        ga.ldexp(ga.asarray(np.ones(3, np.float32)), 1.5)


@gpu_test
@pytest.mark.parametrize("dtype", FLOATS + [np.int8, np.int64, np.uint16, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_frexp_and_modf(dtype):
    if np.dtype(dtype).kind == "f":
        h = np.concatenate([specials(dtype), np.linspace(-7.25, 7.25, 59).astype(dtype)])
    elif dtype is np.bool_:
        h = np.array([True, False, True])
    else:
        h = np.arange(-50, 50).astype(dtype)
    d = ga.asarray(h)
    for name in ("frexp", "modf"):
        exp = numpy_call(getattr(np, name), h)
        got = getattr(ga, name)(d)
        assert isinstance(got, tuple) and len(got) == 2
        for g, e in zip(got, exp):
            check(g, e, name=f"{name} {h.dtype}")
        got = getattr(ga, name)(d[::-3])  # strided
        for g, e in zip(got, numpy_call(getattr(np, name), h[::-3])):
            check(g, e, name=f"{name} strided")


@gpu_test
def test_frexp_modf_outputs():
    h = np.linspace(-9.5, 9.5, 40).reshape(5, 8)
    d = ga.asarray(h)
    m, e = ga.empty((5, 8)), ga.empty((5, 8), dtype=np.int64)
    r = ga.frexp(d, m, e)
    assert r[0] is m and r[1] is e
    em, ee = np.frexp(h)
    check(m, em)
    check(e, ee.astype(np.int64))
    m2 = ga.empty((5, 8), dtype=np.float32)
    r = ga.frexp(d, out=(m2, None))
    assert r[0] is m2
    check(m2, em.astype(np.float32))
    check(r[1], ee)
    # An output that is the input: the second result still reads the original values.
    d2 = ga.asarray(h.copy())
    frac, whole = ga.modf(d2, out=(d2, None))
    ef, ew = np.modf(h)
    assert frac is d2
    check(frac, ef)
    check(whole, ew)
    d3 = ga.asarray(h.copy())
    ga.modf(d3[:, ::2], None, d3[:, ::2])
    hh = h.copy()
    np.modf(hh[:, ::2], None, hh[:, ::2])
    check(d3, hh)
    with pytest.raises(TypeError):  # float -> int32 is not same_kind
        ga.frexp(d, out=(ga.empty((5, 8), dtype=np.int32), None))
    with pytest.raises(ValueError):
        ga.modf(d, out=(ga.empty((3,)), None))
    r = ga.modf(d, casting="unsafe", dtype=np.float32)
    exp = np.modf(h, casting="unsafe", dtype=np.float32)
    check(r[0], exp[0])
    check(r[1], exp[1])


def _gcd_inputs(dtype, rng):
    """Random values over the whole range, small ones, zeros, the extremes and -1."""
    info = np.iinfo(dtype)
    a = [rng.integers(info.min, info.max, 300, dtype=dtype, endpoint=True)]
    b = [rng.integers(info.min, info.max, 300, dtype=dtype, endpoint=True)]
    small = rng.integers(max(info.min, -60), 61, (2, 300))
    edge_a = [0, 0, info.min, info.min, info.max, info.min, 1, 0]
    edge_b = [0, 5, info.min, 0, info.max, 1, info.min, info.min]
    if info.min < 0:
        edge_a += [info.min, info.max, -1, -12]
        edge_b += [-1, -1, info.min, 8]
    a += [small[0].astype(dtype), np.array(edge_a, dtype)]
    b += [small[1].astype(dtype), np.array(edge_b, dtype)]
    return np.concatenate(a), np.concatenate(b)


@gpu_test
@pytest.mark.parametrize("dtype", INTS, ids=lambda d: np.dtype(d).name)
def test_gcd_lcm_bitwise_count(dtype, rng):
    a, b = _gcd_inputs(dtype, rng)
    da, db = ga.asarray(a), ga.asarray(b)
    for name in ("gcd", "lcm"):
        check(getattr(ga, name)(da, db), numpy_call(getattr(np, name), a, b), name=name)
        check(getattr(ga, name)(da[::-1], db[::-1]),
              numpy_call(getattr(np, name), a[::-1], b[::-1]), name=f"{name} reversed")
        check(getattr(ga, name)(da, 6), numpy_call(getattr(np, name), a, 6), name=f"{name} 6")
    check(ga.bitwise_count(da), np.bitwise_count(a), name="bitwise_count")
    check(ga.bitwise_count(da[::3]), np.bitwise_count(a[::3]), name="bitwise_count strided")


@gpu_test
def test_gcd_lcm_promotion_and_errors():
    b = np.array([True, False, True])
    i8 = np.array([-128, 12, 0], np.int8)
    check(ga.gcd(ga.asarray(b), ga.asarray(i8)), np.gcd(b, i8))
    check(ga.lcm(ga.asarray(b), 3), np.lcm(b, 3))
    check(ga.gcd(12, 18), np.gcd(12, 18))
    check(ga.bitwise_count(ga.asarray(b)), np.bitwise_count(b))
    with pytest.raises(TypeError):
        ga.gcd(ga.asarray(b), ga.asarray(b))
    with pytest.raises(TypeError):
        ga.gcd(ga.asarray(np.ones(3)), 3)
    with pytest.raises(TypeError):
        ga.lcm(ga.asarray(np.arange(3, dtype=np.uint64)), ga.asarray(np.arange(3)))
    with pytest.raises(OverflowError):
        ga.gcd(ga.asarray(np.arange(3, dtype=np.uint8)), -3)
    with pytest.raises(TypeError):
        ga.bitwise_count(ga.asarray(np.ones(3)))


@gpu_test
def test_out_casting_and_dtype_arguments():
    h = specials(np.float64)
    d = ga.asarray(h)
    o = ga.empty(h.shape, dtype=np.float32)
    r = ga.fabs(d, out=o)
    assert r is o
    check(o, np.fabs(h, out=np.empty(h.shape, np.float32)))
    with pytest.raises(TypeError):
        ga.spacing(d, out=ga.empty(h.shape, dtype=np.int64))
    oi = ga.empty((3,), dtype=np.int8)
    ga.gcd(ga.asarray(np.array([12, 18, 7], np.int64)), 6, out=oi, casting="unsafe")
    check(oi, np.gcd(np.array([12, 18, 7]), 6, out=np.empty(3, np.int8), casting="unsafe"))
    r = ga.heaviside(ga.asarray(np.array([-1, 0, 2], np.int8)), 0.5, dtype=np.float32)
    check(r, np.heaviside(np.array([-1, 0, 2], np.int8), 0.5, dtype=np.float32))
    with pytest.raises(TypeError):
        ga.nextafter(d, d, out=ga.empty(h.shape, dtype=np.float16), casting="safe")


@gpu_test
@pytest.mark.parametrize("dtype", FLOATS + [np.int16, np.bool_], ids=lambda d: np.dtype(d).name)
def test_isposinf_isneginf(dtype):
    h = specials(dtype) if np.dtype(dtype).kind == "f" else np.arange(4).astype(dtype)
    d = ga.asarray(h)
    for name in ("isposinf", "isneginf"):
        check(getattr(ga, name)(d), getattr(np, name)(h), name=name)
        o = ga.empty(h.shape, dtype=bool)
        assert getattr(ga, name)(d, o) is o
        check(o, getattr(np, name)(h))
        o8 = ga.zeros(h.shape, dtype=np.int8)
        getattr(ga, name)(d, out=o8)
        check(o8, getattr(np, name)(h, out=np.zeros(h.shape, np.int8)))
    with pytest.raises(TypeError, match="ambiguous"):
        ga.isposinf(ga.asarray(np.ones(2, np.complex64)))


@gpu_test
@pytest.mark.parametrize("dtype", FLOATS + [np.complex64, np.complex128, np.int32, np.uint8,
                                            np.bool_], ids=lambda d: np.dtype(d).name)
def test_sinc(dtype):
    kind = np.dtype(dtype).kind
    if kind == "f":
        h = np.concatenate([specials(dtype), np.linspace(-6, 6, 97).astype(dtype)])
        h = h[np.abs(h.astype(np.float64)) < 1e4]  # sin of huge values: library-specific
    elif kind == "c":
        re = np.linspace(-3, 3, 31)
        h = (re[:, None] + 1j * re[None, ::3]).ravel().astype(dtype)
        h = np.concatenate([h, np.array([0j, complex(-0.0, 0.0)], dtype)])
    elif kind == "b":
        h = np.array([True, False])
    else:
        h = np.arange(0, 40).astype(dtype)
    exp = numpy_call(np.sinc, h)
    tol = {"e": 4e-3, "f": 2e-6, "d": 1e-13, "F": 1e-5, "D": 1e-12}[exp.dtype.char]
    got = ga.sinc(ga.asarray(h))
    g = ga.asnumpy(got)
    assert g.dtype == exp.dtype and g.shape == exp.shape
    # near the zeros of sin the relative error of either library is unbounded: absolute
    # tolerance there (the value's scale is 1)
    np.testing.assert_allclose(g, exp, rtol=tol, atol=tol, equal_nan=True)
    np.testing.assert_array_equal(g[h == 0], 1)
    g2 = ga.asnumpy(ga.sinc(ga.asarray(h)[::-2]))
    np.testing.assert_allclose(g2, exp[::-2], rtol=tol, atol=tol, equal_nan=True)


@gpu_test
@pytest.mark.parametrize("dtype", FLOATS + [np.int64, np.uint8, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_i0(dtype):
    kind = np.dtype(dtype).kind
    if kind == "f":
        top = {np.float16: 11.0, np.float32: 90.0, np.float64: 720.0}[dtype]
        h = np.concatenate([np.linspace(-top, top, 201), [0.0, -0.0, 8.0, -8.0, 7.999, 8.001,
                                                            np.inf, -np.inf, np.nan]])
        h = h.astype(dtype)
    elif kind == "b":
        h = np.array([True, False])
    else:
        h = np.arange(0, 30).astype(dtype)
    exp = numpy_call(np.i0, h)
    got = ga.i0(ga.asarray(h))
    # NumPy evaluates the series in the input's own precision (float16 included).
    tol = {"e": 1e-2, "f": 2e-6, "d": 1e-14}[exp.dtype.char]
    check(got, exp, rtol=tol, name=f"i0 {dtype}")
    check(ga.i0(ga.asarray(h)[1::2]), numpy_call(np.i0, h[1::2]), rtol=tol, name="i0 strided")
    assert ga.i0(5.0).shape == () and float(ga.asnumpy(ga.i0(5.0))) == pytest.approx(np.i0(5.0))
    with pytest.raises(TypeError, match="i0 not supported for complex values"):
        ga.i0(ga.asarray(np.ones(2, np.complex64)))


@gpu_test
def test_kaiser_runs_on_the_device():
    w = ga.kaiser(64, 8.6)
    assert isinstance(w, ga.ndarray)
    np.testing.assert_allclose(ga.asnumpy(w), np.kaiser(64, 8.6), rtol=0, atol=1e-15)


# --- gpuarr.fuse of the float16 neighbours -----------------------------------------------


_NEIGHBOURS = {"nextafter": lambda x, y: ga.nextafter(x, y),
               "spacing": lambda x, y: ga.spacing(x) + y * 0}


@pytest.mark.parametrize("name", sorted(_NEIGHBOURS))
def test_fuse_runs_float16_neighbours_eagerly(name):
    # Their float16 loops are functors of their own, not the float one the registry names:
    # fuse refuses them for float16 (Python floats are weak, so they too take the float16
    # loop) and still fuses float32 and float64.
    from gpuarr import _fusion
    f = ga.fuse(_NEIGHBOURS[name])
    for specs in ([("float16", 1), ("float16", 1)], [("float16", 1), float]):
        with pytest.raises(_fusion._Unfusable, match="%s of float16" % name):
            f.trace(specs)
    for dt in ("float32", "float64"):
        src = f.trace([(dt, 1), (dt, 1)])[1]
        assert "gpuarr::ufn::%s{}(" % _core._ufunc_jit_info(name)[0] in src


@gpu_test
@pytest.mark.parametrize("name", sorted(_NEIGHBOURS))
def test_fused_float16_neighbours_equal_eager(name):
    s = specials(np.float16)
    x, y = np.meshgrid(s, s)
    dx, dy = ga.asarray(x), ga.asarray(y)
    fn = _NEIGHBOURS[name]
    f = ga.fuse(fn)
    with pytest.warns(RuntimeWarning, match="own float16 loop"):
        got = f(dx, dy)
    want = numpy_nextafter(x, y) if name == "nextafter" else numpy_call(np.spacing, x) + y * 0
    check(got, want, name=f"fused {name}")
    check(fn(dx, dy), want, name=f"eager {name}")
