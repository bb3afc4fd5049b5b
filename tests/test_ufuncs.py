"""Values of every gpuarr ufunc on the GPU against NumPy: every loop in ``ufunc.types``
(inputs in a domain where NumPy's result is well defined, floats with NaN/inf/-0.0 where
the operation defines them), contiguous/misaligned/strided/reversed views, shapes and
broadcasting, Python/NumPy scalars (NEP 50), ``out=``, ``dtype=``, ``casting=`` and errors.

Loop *selection* is checked on the host in test_ufunc_resolution.py; here the kernels run.
"""

import warnings

import numpy as np
import pytest

import gpuarr as ga
from gpuarr import _core
from conftest import (ALL_DTYPES, array_api_floor_divide, dtype_id, gpu_test, outcome,
                      public_exception_type, random_array)

UFUNCS = {n: u for n, u in sorted(_core._ufuncs.items()) if n != "where"}

_CHAR = {c: np.dtype(c.replace("l", "q").replace("L", "Q")) for c in "?bBhHiIlLefdFD"}


def loop_dtypes(sig):
    ins, out = sig.split("->")
    return [_CHAR[c] for c in ins], _CHAR[out]


CASES = [(n, sig) for n, u in UFUNCS.items() for sig in u.types]

# Functions computed with library approximations (not correctly rounded like + - * / sqrt).
TRANSCENDENTAL = {
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "cbrt", "cos",
    "cosh", "exp", "exp2", "expm1", "float_power", "hypot", "log", "log10", "log1p", "log2",
    "logaddexp", "logaddexp2", "power", "sin", "sinh", "tan", "tanh", "deg2rad", "rad2deg",
}
# Complex functions that take their inputs away from every branch cut (see complex_input).
COMPLEX_FN = {
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cos", "cosh", "exp", "exp2",
    "expm1", "log", "log10", "log1p", "log2", "sin", "sinh", "sqrt", "tan", "tanh",
    "power", "float_power",
}
# Complex ops that are exact enough to also get inf/nan inputs.
COMPLEX_SPECIALS_OK = {
    "add", "subtract", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "isnan", "isinf", "isfinite", "maximum", "minimum", "fmax", "fmin", "negative", "positive",
    "conjugate", "logical_and", "logical_or", "logical_xor", "logical_not", "absolute", "rint",
    "clip",
}
# Ops whose zero results may legitimately differ in sign between platforms (NumPy's SIMD
# maximum/minimum pick either of +-0.0).
NO_SIGNED_ZERO_CHECK = {"maximum", "minimum", "fmax", "fmin", "clip"}

RTOL = {"e": 1e-3, "f": 1e-5, "d": 1e-12, "F": 1e-5, "D": 1e-12}
RTOL_TRANSC = {"e": 2e-3, "f": 2e-5, "d": 1e-11, "F": 1e-4, "D": 1e-10}

N = 1001  # more than the vectorised kernels' block of work; [1:] gives a misaligned view

FLOAT_SPECIALS = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0]


def _sprinkle(x, values):
    flat = x.reshape(-1)
    k = min(flat.size, len(values))
    # spread them out so every view below still sees some
    idx = np.linspace(0, flat.size - 1, num=k).astype(np.int64) if k else []
    for i, v in zip(idx, values):
        flat[i] = v
    return x


def real_input(rng, name, pos, dtype, shape):
    """Float inputs in the domain of `name` (argument `pos`), with specials."""
    u = lambda lo, hi: rng.uniform(lo, hi, size=shape)  # noqa: E731
    specials = list(FLOAT_SPECIALS)
    if name in ("log", "log2", "log10", "sqrt", "cbrt"):
        x = np.exp(u(-5, 5)) * np.where(rng.random(shape) < 0.9, 1, -1)
    elif name == "log1p":
        x = np.exp(u(-5, 5)) - 0.99
    elif name in ("arcsin", "arccos", "arctanh"):
        x = u(-1.05, 1.05)
    elif name == "arccosh":
        x = u(0.95, 50)
    elif name in ("exp", "exp2", "expm1", "sinh", "cosh", "tanh"):
        x = u(-8, 8)
    elif name == "tan":
        x = u(-1.4, 1.4)
    elif name in ("sin", "cos"):
        x = u(-10, 10)
    elif name in ("power", "float_power"):
        if pos == 0:
            x = np.exp(u(-2, 2))
            specials = [np.nan, np.inf, 0.0, -0.0, 1.0, -2.0, -np.inf, 2.0]
        else:
            x = u(-4, 4)
            specials = [0.0, np.nan, 3.0, -1.0, 2.0, 3.0, 1.0, -3.0]
    elif name in ("floor_divide", "remainder", "fmod") and pos == 1:
        x = rng.standard_normal(shape) * 10
        specials = [np.nan, 0.0, np.inf, -np.inf, -0.0, 1.0, -1.0, 3.0]
    elif name in ("floor", "ceil", "trunc", "rint"):
        x = np.round(rng.standard_normal(shape) * 8, 1)
        specials += [0.5, -0.5, 1.5, 2.5, -2.5]
    else:
        x = rng.standard_normal(shape) * 10
    x = np.asarray(x, dtype=dtype)
    return _sprinkle(x, specials)


def complex_input(rng, name, pos, dtype, shape):
    comp = np.float32 if dtype == np.complex64 else np.float64
    if name in COMPLEX_FN:
        # |re| and |im| in [0.1, 2]: off the real and the imaginary axis, where the branch
        # cuts of sqrt/log/arcsin/arccos/arctan/arcsinh/arccosh/arctanh lie.
        def part():
            return rng.uniform(0.1, 2, size=shape) * rng.choice([-1, 1], size=shape)
        if name in ("power", "float_power") and pos == 1:
            re = np.where(rng.random(shape) < 0.3, rng.integers(-3, 4, size=shape), part())
            im = np.where(re == np.round(re), 0.0, part())
            return (re + 1j * im).astype(dtype)
        return (part() + 1j * part()).astype(dtype)
    re = (rng.standard_normal(shape) * 10).astype(comp)
    im = (rng.standard_normal(shape) * 10).astype(comp)
    if name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                "maximum", "minimum", "fmax", "fmin", "clip"):
        # ties in the real part exercise the lexicographic order
        re = np.round(re / 5)
        im = np.round(im / 5)
    x = (re + 1j * im).astype(dtype)
    if name in COMPLEX_SPECIALS_OK:
        x = _sprinkle(x, [complex(np.nan, 1), complex(1, np.nan), complex(np.inf, 1),
                          complex(1, -np.inf), 0j, complex(-0.0, -0.0)])
    return x


def int_input(rng, name, pos, dtype, shape):
    info = np.iinfo(dtype)
    bits = info.bits
    if name in ("left_shift", "right_shift") and pos == 1:
        lo = -2 if info.min < 0 else 0
        return rng.integers(lo, bits + 3, size=shape).astype(dtype)
    if name == "power" and pos == 1:
        return rng.integers(0, 9, size=shape).astype(dtype)
    if name == "ldexp" and pos == 1:  # mostly in range; the extremes saturate as NumPy's
        x = rng.integers(-40, 40, size=shape).astype(dtype)
        return _sprinkle(x, [info.min, info.max, 0, -1])
    if name == "reciprocal":  # 1 // 0 is platform-defined in NumPy (x86: INT_MIN)
        x = rng.integers(max(info.min, -3), 4, size=shape).astype(dtype)
        x[x == 0] = 1
        return x
    x = random_array(rng, shape, dtype)
    if name in ("floor_divide", "remainder", "fmod"):
        if pos == 1:  # mostly small divisors, some zero and -1 (INT_MIN // -1 wraps)
            small = rng.integers(max(info.min, -9), 10, size=shape).astype(dtype)
            x = np.where(rng.random(shape) < 0.7, small, x)
            return _sprinkle(x, [0, info.max, 0, 1] + ([-1, -1] if info.min < 0 else []))
        return _sprinkle(x, [info.min, info.max, 0, info.min])
    return _sprinkle(x, [info.min, info.max, 0, 1])


def make_input(rng, name, pos, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind in "iu":
        return int_input(rng, name, pos, dtype, shape)
    if dtype.kind == "f":
        return real_input(rng, name, pos, dtype, shape)
    return complex_input(rng, name, pos, dtype, shape)


def numpy_call(name, *args, **kw):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "floor_divide" and not kw:
            # The special inputs pair infinities with finite values (the "mixed" view): the
            # Array API standard's table decides floor_divide's results there, not NumPy.
            return array_api_floor_divide(*args)
        return getattr(np, name)(*args, **kw)


def check_result(actual, expected, name="", *, check_type=True):
    """`actual` (a gpuarr array) equals NumPy's result: dtype, shape, values (tolerances by
    dtype), NaN positions and, for real float results, the sign of zeros."""
    if check_type:
        assert isinstance(actual, ga.ndarray), type(actual)
    expected = np.asarray(expected)
    got = ga.asnumpy(actual)
    assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
    assert got.shape == expected.shape, (name, got.shape, expected.shape)
    ch = expected.dtype.char
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected, err_msg=name)
        return
    tol = (RTOL_TRANSC if name in TRANSCENDENTAL or expected.dtype.kind == "c" else RTOL)[ch]
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol if name in TRANSCENDENTAL else 0,
                               equal_nan=True, err_msg=name)
    if expected.dtype.kind == "f" and name not in NO_SIGNED_ZERO_CHECK:
        zeros = (got == 0) & (expected == 0)
        np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(expected[zeros]),
                                      err_msg=f"{name}: sign of zero results")


def _views(n_in):
    """Device-side views of the N-element inputs (applied to every input alike), plus one
    with differently laid out inputs."""
    return [
        ("contiguous", [slice(0, N - 1)] * n_in),
        ("offset", [slice(1, None)] * n_in),
        ("step3", [slice(None, None, 3)] * n_in),
        ("reversed", [slice(None, None, -1)] * n_in),
        ("mixed", [slice(1, None), slice(None, N - 1), slice(N - 2, None, -1)][:n_in]),
    ]


@gpu_test
@pytest.mark.parametrize("name,sig", CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_ufunc_values(rng, name, sig):
    ins, out_dt = loop_dtypes(sig)
    uf = getattr(ga, name) if name != "clip" else _core._ufuncs["clip"]
    hosts = [make_input(rng, name, k, dt, (N,)) for k, dt in enumerate(ins)]
    devs = [ga.asarray(h) for h in hosts]
    for view_name, sl in _views(len(ins)):
        h_args = [h[s] for h, s in zip(hosts, sl)]
        d_args = [d[s] for d, s in zip(devs, sl)]
        expected = numpy_call(name, *h_args)
        assert expected.dtype == out_dt, (sig, expected.dtype)  # the loop NumPy uses too
        actual = uf(*d_args)
        check_result(actual, expected, f"{name} {sig} {view_name}")
    # the inputs are not modified
    for h, d in zip(hosts, devs):
        np.testing.assert_array_equal(ga.asnumpy(d), h)


# --- shapes, broadcasting, layouts ----------------------------------------------------

SHAPE_UFUNCS = ["add", "subtract", "arctan2", "less_equal", "maximum", "floor_divide",
                "bitwise_xor", "logical_and"]
BROADCAST_PAIRS = [
    ((), ()), ((), (4,)), ((0, 3), (0, 3)), ((0, 3), (1, 3)), ((0, 3), (3,)), ((7,), (7,)),
    ((2, 3, 4), (2, 3, 4)), ((3, 1), (1, 4)), ((5,), (2, 5)), ((2, 1, 3), (4, 1)),
    ((1,), (3, 1, 2)), ((4, 1, 1, 2), (3, 1)),
]


def _shape_dtype(name):
    return {"arctan2": np.float32, "bitwise_xor": np.int16}.get(name, np.float64 if name in (
        "subtract", "less_equal", "maximum") else np.int32)


@gpu_test
@pytest.mark.parametrize("name", SHAPE_UFUNCS)
@pytest.mark.parametrize("shapes", BROADCAST_PAIRS, ids=lambda p: f"{p[0]}+{p[1]}")
def test_binary_shapes_broadcasting(rng, name, shapes):
    dt = _shape_dtype(name)
    ha = make_input(rng, name, 0, dt, shapes[0])
    hb = make_input(rng, name, 1, dt, shapes[1])
    if name == "floor_divide":
        hb[hb == 0] = 3
    for a, b in ((ha, hb), (hb, ha)):
        expected = numpy_call(name, a, b)
        check_result(getattr(ga, name)(ga.asarray(a), ga.asarray(b)), expected, name)


UNARY_SHAPE_UFUNCS = ["sqrt", "negative", "isnan", "absolute", "invert", "exp"]


@gpu_test
@pytest.mark.parametrize("name", UNARY_SHAPE_UFUNCS)
@pytest.mark.parametrize("shape", [(), (0,), (0, 3), (1,), (6,), (2, 3, 4)], ids=str)
def test_unary_shapes(rng, name, shape):
    dt = {"invert": np.uint16, "absolute": np.int8, "isnan": np.float16}.get(name, np.float32)
    h = make_input(rng, name, 0, dt, shape)
    check_result(getattr(ga, name)(ga.asarray(h)), numpy_call(name, h), name)


def _layouts(h, d):
    yield "T", h.T, d.T
    yield "rev_last", h[:, ::-1], d[:, ::-1]
    yield "rev_all", h[::-1, ::-2], d[::-1, ::-2]
    yield "step", h[::2, 1::3], d[::2, 1::3]
    yield "T_rev", h.T[::-1], d.T[::-1]


@gpu_test
def test_strided_loops_with_several_elements_a_thread(rng):
    """1-d strided, reversed and unaligned views long enough that each thread of the capped
    grid takes several pairs of elements and a last single one, and strided rows of an odd
    length over several block widths (the general kernel's Flat and Rows loops)."""
    n = 5_000_003
    h = rng.standard_normal(2 * n + 1).astype(np.float32)
    g = rng.standard_normal(2 * n + 1).astype(np.float32)
    d, e = ga.asarray(h), ga.asarray(g)
    for key in (np.s_[::2], np.s_[2 * n:0:-2], np.s_[1:n + 1]):
        check_result(ga.exp(d[key]), np.exp(h[key]), "exp")
        check_result(ga.maximum(d[key], e[::-1][key]), np.maximum(h[key], g[::-1][key]),
                     "maximum")
        check_result(ga.less(d[key], e[key]), np.less(h[key], g[key]), "less")
    m = h[:67 * 6002].reshape(67, 6002)
    dm = d[:67 * 6002].reshape(67, 6002)
    check_result(ga.exp(dm[:, ::2]), np.exp(m[:, ::2]), "exp")
    check_result(ga.exp(dm[:, 1::2][::-1]), np.exp(m[:, 1::2][::-1]), "exp")


@gpu_test
@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float64, np.complex64], ids=dtype_id)
def test_noncontiguous_layouts(rng, dtype):
    h0 = make_input(rng, "add", 0, dtype, (9, 12))
    h1 = make_input(rng, "add", 1, dtype, (9, 12))
    d0, d1 = ga.asarray(h0), ga.asarray(h1)
    for (n0, a, da), (n1, b, db) in zip(_layouts(h0, d0), _layouts(h1, d1)):
        check_result(ga.multiply(da, db), numpy_call("multiply", a, b), f"multiply {n0}")
        check_result(ga.add(da, db[::-1]), numpy_call("add", a, b[::-1]), f"add {n0}/rev")
        check_result(ga.negative(da) if dtype != np.bool_ else da,
                     numpy_call("negative", a), f"negative {n0}")
        check_result(ga.less(da, 1), numpy_call("less", a, 1), f"less {n0}")
    # the result keeps a Fortran layout for Fortran-ordered inputs (order='K')
    r, e = ga.add(d0.T, d1.T), np.add(h0.T, h1.T)
    assert r.flags.f_contiguous and e.flags.f_contiguous
    r, e = ga.negative(d0.T), np.negative(h0.T)
    assert r.strides == e.strides


@gpu_test
def test_large_and_broadcast_vectorised_path(rng):
    h = rng.standard_normal((3, 100_003)).astype(np.float32)
    row = rng.standard_normal(100_003).astype(np.float32)
    d, drow = ga.asarray(h), ga.asarray(row)
    check_result(ga.add(d, drow), h + row, "add")
    check_result(ga.multiply(d[:, 1:], drow[:-1]), h[:, 1:] * row[:-1], "multiply")
    check_result(ga.sqrt(d[1:]), numpy_call("sqrt", h[1:]), "sqrt")
    hb = (np.arange(1_000_001) % 256 - 128).astype(np.int8)
    check_result(ga.add(ga.asarray(hb)[3:], 7), hb[3:] + np.int8(7), "add")


@gpu_test
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.float16, np.complex128])
def test_row_broadcast_path(rng, dtype):
    # Rows of >= 128 elements: 16-byte loads where every operand is contiguous along the row
    # (aligned at its start) or broadcast along it, the element loop otherwise. Row lengths
    # that leave a tail, rows that start unaligned, a strided row, a row broadcast from a
    # column, three operands with a bool condition.
    def make(shape):
        x = rng.standard_normal(shape) * 4
        return (x.astype(dtype) if np.dtype(dtype).kind != "c"
                else (x + 1j * rng.standard_normal(shape)).astype(dtype))
    h, col, row = make((37, 1003)), make((37,)), make((1003,))
    d, dcol, drow = ga.asarray(h), ga.asarray(col), ga.asarray(row)
    check_result(ga.subtract(dcol[:, None], d), col[:, None] - h, "subtract")
    check_result(ga.add(d, drow), h + row, "add")
    check_result(ga.add(d[:, 1:], dcol[:, None]), h[:, 1:] + col[:, None], "add")
    check_result(ga.multiply(d[:, ::2], drow[::2]), h[:, ::2] * row[::2], "multiply")
    check_result(ga.subtract(d[::-1, 3:], drow[:-3]), h[::-1, 3:] - row[:-3], "subtract")
    out = ga.empty((37, 1003), dtype=dtype)
    ga.add(dcol[:, None], drow, out=out)
    check_result(out, col[:, None] + row, "add")
    cond = rng.standard_normal((37, 1003)) > 0
    check_result(ga.where(ga.asarray(cond), dcol[:, None], d), np.where(cond, col[:, None], h),
                 "where")


# --- scalars (NEP 50) -----------------------------------------------------------------

SCALAR_UFUNCS = ["add", "subtract", "multiply", "divide", "maximum", "less", "equal",
                 "greater_equal", "not_equal", "logical_or", "bitwise_or", "arctan2"]
SCALARS = [True, 3, -2, 300, -1, 2**63, 2.5, -0.0, 1.5 + 2j, np.float32(2), np.int16(-3),
           np.uint8(200), np.float64(0.5), np.complex64(1j)]


def _scalar_id(s):
    return f"{type(s).__name__}({s!r})"


@gpu_test
@pytest.mark.parametrize("name", SCALAR_UFUNCS)
def test_python_and_numpy_scalars(rng, name):
    fails = []
    for dt in ALL_DTYPES:
        h = make_input(rng, "add", 0, dt, (6,))
        d = ga.asarray(h)
        for s in SCALARS:
            for order in (0, 1):
                h_args = (h, s) if order == 0 else (s, h)
                d_args = (d, s) if order == 0 else (s, d)
                kind, exp, _ = outcome(numpy_call, name, *h_args)
                gkind, got, _ = outcome(getattr(ga, name), *d_args)
                label = f"{dt} {_scalar_id(s)} order={order}"
                if kind == "raise":
                    if gkind != "raise" or not isinstance(got, type(exp)):
                        fails.append(f"{label}: numpy raised {exp!r}, gpuarr gave {got!r}")
                    continue
                if gkind == "raise":
                    fails.append(f"{label}: gpuarr raised {got!r}")
                    continue
                try:
                    check_result(got, exp, name)
                except AssertionError as e:
                    fails.append(f"{label}: {e}")
    assert not fails, "\n".join(fails[:20])


@gpu_test
def test_nep50_examples():
    f32 = ga.asarray(np.array([1.5, -2.0], np.float32))
    assert (f32 * 2.0).dtype == np.float32
    assert ga.multiply(f32, 2.0).dtype == np.float32
    assert (f32 * np.float64(2.0)).dtype == np.float64  # NumPy scalars are strong
    i8 = ga.asarray(np.array([1, 127, -128], np.int8))
    r = i8 + 1
    assert r.dtype == np.int8
    np.testing.assert_array_equal(ga.asnumpy(r), np.array([2, -128, -127], np.int8))
    u8 = ga.asarray(np.array([0, 255], np.uint8))
    with pytest.raises(OverflowError):
        u8 + 300
    with pytest.raises(OverflowError):
        ga.add(u8, -1)
    np.testing.assert_array_equal(ga.asnumpy(u8 < 300), [True, True])
    np.testing.assert_array_equal(ga.asnumpy(u8 == -1), [False, False])
    np.testing.assert_array_equal(ga.asnumpy(u8 != 256), [True, True])
    np.testing.assert_array_equal(ga.asnumpy(u8 > -1), [True, True])
    i64 = ga.asarray(np.array([-(2**63), 2**63 - 1], np.int64))
    np.testing.assert_array_equal(ga.asnumpy(i64 < 2**63), [True, True])
    np.testing.assert_array_equal(ga.asnumpy(i64 > -(2**64)), [True, True])
    b = ga.asarray(np.array([True, False]))
    r = b + 1
    assert r.dtype == np.int64
    np.testing.assert_array_equal(ga.asnumpy(r), [2, 1])
    assert (i8 + 1.5).dtype == np.float64
    assert (ga.asarray(np.ones(2, np.float16)) + 1e3).dtype == np.float16


@gpu_test
@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64, np.bool_, np.uint32],
                         ids=dtype_id)
def test_zero_d_arrays_are_not_weak(rng, dtype):
    h0 = np.asarray(make_input(rng, "add", 0, dtype, ()))
    d0 = ga.asarray(h0)
    for other in (np.int8, np.float32, np.uint64, np.complex128):
        h = make_input(rng, "add", 1, other, (5,))
        d = ga.asarray(h)
        for name in ("add", "multiply", "less"):
            for args_h, args_d in (((h0, h), (d0, d)), ((h, h0), (d, d0)), ((h0, h0), (d0, d0))):
                kind, exp, _ = outcome(numpy_call, name, *args_h)
                if kind == "raise":
                    with pytest.raises(public_exception_type(exp)):
                        getattr(ga, name)(*args_d)
                else:
                    check_result(getattr(ga, name)(*args_d), exp, name)


@gpu_test
def test_all_scalar_inputs_give_0d_array():
    r = ga.add(1, 2.5)
    assert isinstance(r, ga.ndarray) and r.shape == () and r.dtype == np.float64
    assert float(ga.asnumpy(r)) == 3.5
    r = ga.sqrt(np.float32(4))
    assert r.dtype == np.float32 and float(ga.asnumpy(r)) == 2.0


# --- out=, dtype=, casting= -------------------------------------------------------------


@gpu_test
def test_out_same_dtype_returns_out(rng):
    h = rng.standard_normal((4, 5))
    g = rng.standard_normal((4, 5))
    d, e = ga.asarray(h), ga.asarray(g)
    o = ga.empty((4, 5))
    r = ga.add(d, e, out=o)
    assert r is o
    check_result(o, h + g, "add")
    o2 = ga.empty((4, 5))
    r = ga.hypot(d, e, o2)  # positional out
    assert r is o2
    check_result(o2, np.hypot(h, g), "hypot")
    o3 = ga.zeros((4, 5))
    r = ga.sqrt(ga.absolute(d), out=(o3,))  # 1-tuple
    assert r is o3
    check_result(o3, np.sqrt(np.abs(h)), "sqrt")


@gpu_test
def test_out_cast_same_kind_and_errors(rng):
    h = rng.standard_normal(7)
    d = ga.asarray(h)
    o32 = ga.empty(7, dtype=np.float32)
    r = ga.multiply(d, 3.0, out=o32)
    assert r is o32
    check_result(o32, np.multiply(h, 3.0, out=np.empty(7, np.float32)), "multiply")
    oc = ga.empty(7, dtype=np.complex128)
    ga.negative(d, out=oc)
    check_result(oc, (-h).astype(np.complex128), "negative")
    oi = ga.zeros(7, dtype=np.int32)
    for call in (lambda o: ga.multiply(d, 3.0, out=o), lambda o: ga.sqrt(d, out=o)):
        with pytest.raises(TypeError):
            call(oi)
        with pytest.raises(TypeError):
            np.multiply(h, 3.0, out=np.zeros(7, np.int32))
    np.testing.assert_array_equal(ga.asnumpy(oi), 0)  # untouched after the error
    # comparison into a non-bool out is fine (bool -> int is a safe cast)
    r = ga.less(d, 0, out=oi)
    np.testing.assert_array_equal(ga.asnumpy(oi), (h < 0).astype(np.int32))
    # casting='unsafe' allows float -> int
    hv = np.round(h * 10)
    ga.add(ga.asarray(hv), 0.25, out=oi, casting="unsafe")
    np.testing.assert_array_equal(ga.asnumpy(oi), np.add(hv, 0.25, out=np.zeros(7, np.int32),
                                                         casting="unsafe"))
    with pytest.raises(TypeError):
        ga.add(d, d, out=o32, casting="safe")
    with pytest.raises(TypeError):  # complex -> float is not same_kind
        ga.add(ga.asarray(np.ones(3, np.complex64)), 1, out=ga.empty(3, np.float64))
    r = ga.add(ga.asarray(np.array([1, 40000], np.int32)), 1, out=ga.empty(2, np.int16))
    np.testing.assert_array_equal(ga.asnumpy(r), np.array([2, 40001]).astype(np.int16))


@gpu_test
def test_out_aliasing_and_overlap(rng):
    h = rng.standard_normal(50)
    g = rng.standard_normal(50)
    d, e = ga.asarray(h), ga.asarray(g)
    ga.add(d, e, out=d)  # out is an input
    check_result(d, h + g, "add")
    h = h + g
    ga.multiply(d, d, out=d)
    check_result(d, h * h, "multiply")
    h = h * h
    # partial overlap: NumPy's result is as if the inputs were copied first
    ga.add(d[1:], d[:-1], out=d[1:])
    np.add(h[1:], h[:-1], out=h[1:])
    check_result(d, h, "add overlap")
    ga.subtract(d[:-2], d[2:], out=d[2:])
    np.subtract(h[:-2], h[2:], out=h[2:])
    check_result(d, h, "subtract overlap")
    ga.negative(d[::-1], out=d)  # reversed view of itself
    np.negative(h[::-1], out=h)
    check_result(d, h, "negative reversed")
    # integer, in-place through an operator, on a view
    hi = np.arange(30, dtype=np.int32).reshape(5, 6)
    di = ga.asarray(hi)
    di[1:] += di[:-1]
    hi[1:] += hi[:-1]
    check_result(di, hi, "iadd overlap")
    v = di[:, ::2]
    v *= 3
    hi[:, ::2] *= 3
    check_result(di, hi, "imul view")


@gpu_test
def test_out_shapes(rng):
    h = rng.standard_normal(3)
    d = ga.asarray(h)
    o = ga.empty((2, 3))
    ga.add(d, 1.0, out=o)  # the output broadcasts the inputs
    check_result(o, np.add(h, 1.0, out=np.empty((2, 3))), "add")
    base = ga.zeros((4, 6))
    ga.multiply(ga.asarray(np.ones((2, 3))), 2.0, out=base[::2, ::2])
    hb = np.zeros((4, 6))
    hb[::2, ::2] = 2.0
    check_result(base, hb, "out strided")
    for bad in ((4,), (3, 2), (1,), ()):
        with pytest.raises(ValueError):
            ga.add(d, d, out=ga.empty(bad))
        with pytest.raises(ValueError):
            np.add(h, h, out=np.empty(bad))
    with pytest.raises(TypeError):
        ga.add(d, d, out=np.empty(3))
    with pytest.raises((TypeError, ValueError)):
        ga.add(d, d, out=(ga.empty(3), ga.empty(3)))


@gpu_test
@pytest.mark.parametrize("name,args,dtype", [
    ("add", (np.int8, np.int8), np.float32),
    ("add", (np.int8, np.int8), np.int64),
    ("multiply", (np.float64, np.float64), np.float32),
    ("multiply", (np.float32, np.float32), np.int8),
    ("sqrt", (np.int16,), np.float32),
    ("sqrt", (np.float64,), np.float16),
    ("divide", (np.int32, np.int32), np.complex64),
    ("less", (np.int16, np.float32), np.float64),
    ("negative", (np.uint8,), np.int16),
    ("power", (np.int64, np.int64), np.float64),
], ids=str)
def test_dtype_argument(rng, name, args, dtype):
    hs = [make_input(rng, "add", k, a, (11,)) for k, a in enumerate(args)]
    if name == "power":
        hs[1] = np.abs(hs[1]) % 5
        hs[0] = hs[0] % 10
    if name == "sqrt":
        hs[0] = np.abs(hs[0])
    kind, exp, _ = outcome(numpy_call, name, *hs, dtype=dtype)
    if kind == "raise":
        with pytest.raises(public_exception_type(exp)):
            getattr(ga, name)(*[ga.asarray(h) for h in hs], dtype=dtype)
    else:
        check_result(getattr(ga, name)(*[ga.asarray(h) for h in hs], dtype=dtype), exp, name)


# --- errors ----------------------------------------------------------------------------


@gpu_test
def test_broadcast_error_message():
    a, b = ga.ones(2), ga.ones(3)
    for call in (lambda: ga.add(a, b), lambda: a + b, lambda: a < b, lambda: ga.arctan2(a, b)):
        with pytest.raises(ValueError, match=r"operands could not be broadcast together with "
                                             r"shapes \(2,\) \(3,\)"):
            call()
    with pytest.raises(ValueError, match="could not be broadcast"):
        ga.add(ga.ones((2, 3)), ga.ones((3, 2)))


@gpu_test
@pytest.mark.parametrize("name,dtypes", [
    ("bitwise_and", (np.float32, np.float32)), ("bitwise_or", (np.float64, np.int8)),
    ("invert", (np.float16,)), ("left_shift", (np.int8, np.float32)),
    ("subtract", (np.bool_, np.bool_)), ("negative", (np.bool_,)),
    ("floor_divide", (np.complex64, np.complex64)), ("remainder", (np.complex128, np.float64)),
    ("arctan2", (np.complex64, np.float32)), ("signbit", (np.complex64,)),
    ("cbrt", (np.complex128,)), ("logaddexp", (np.complex64, np.complex64)),
    ("floor", (np.complex64,)), ("fmod", (np.complex128, np.complex128)),
], ids=str)
def test_unsupported_types_raise_type_error(name, dtypes):
    hs = [np.ones(3, dtype=t) for t in dtypes]
    with pytest.raises(TypeError):
        numpy_call(name, *hs)
    with pytest.raises(TypeError):
        getattr(ga, name)(*[ga.asarray(h) for h in hs])


@gpu_test
def test_bad_calls():
    a = ga.ones(3)
    with pytest.raises(TypeError):
        ga.add(a)
    with pytest.raises(TypeError):
        ga.add(a, a, a, a)
    with pytest.raises(TypeError):
        ga.add(a, a, bogus=1)
    with pytest.raises(TypeError):
        ga.add(a, [1, 2, 3])
    with pytest.raises(TypeError):
        ga.sqrt("x")
    with pytest.raises(TypeError):
        ga.add(a, a, ga.empty(3), out=ga.empty(3))


@gpu_test
def test_integer_power_wraps_and_float_power(rng):
    for dt in (np.int8, np.uint8, np.int32, np.int64, np.uint64):
        h = random_array(rng, (40,), dt)
        e = rng.integers(0, 70, size=40).astype(dt)
        check_result(ga.power(ga.asarray(h), ga.asarray(e)), numpy_call("power", h, e), "power")
        check_result(ga.asarray(h) ** 2, h ** 2, "power")
    h = np.array([0.0, -0.0, 2.0, -2.0, np.inf, -np.inf, np.nan, 1.0])
    for ex in (0.0, 0.5, -1.0, 2.0, 3.0, np.inf, -np.inf, np.nan):
        check_result(ga.power(ga.asarray(h), ex), numpy_call("power", h, ex), f"power {ex}")
