"""The ndarray operators on the GPU against NumPy's: binary, reflected, in-place, unary and
comparison operators over dtype pairs, Python scalars, integer division/modulo semantics
(zero divisors, negative operands, INT_MIN // -1, signed zeros) and unsupported operands."""

import operator
import warnings

import numpy as np
import pytest

import gpuarr as ga
from conftest import (
    ALL_DTYPES,
    array_api_floor_divide,
    assert_gpu_close,
    dtype_id,
    gpu_test,
    outcome,
    public_exception_type,
)

BINARY_OPS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
    "and": operator.and_, "or": operator.or_, "xor": operator.xor,
    "lshift": operator.lshift, "rshift": operator.rshift,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge,
}
INPLACE_OPS = {
    "add": operator.iadd, "sub": operator.isub, "mul": operator.imul,
    "truediv": operator.itruediv, "floordiv": operator.ifloordiv, "mod": operator.imod,
    "pow": operator.ipow, "and": operator.iand, "or": operator.ior, "xor": operator.ixor,
    "lshift": operator.ilshift, "rshift": operator.irshift,
}
UNARY_OPS = {"neg": operator.neg, "pos": operator.pos, "invert": operator.invert, "abs": abs}

D = {n: np.dtype(n) for n in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                              "uint32", "uint64", "float16", "float32", "float64",
                              "complex64", "complex128")}
DTYPE_PAIRS = [(d, d) for d in D.values()] + [
    (D["int8"], D["uint8"]), (D["int64"], D["uint64"]), (D["bool"], D["int8"]),
    (D["uint16"], D["float16"]), (D["int32"], D["float32"]), (D["float32"], D["complex64"]),
    (D["float64"], D["complex64"]), (D["uint32"], D["int16"]), (D["float16"], D["int64"]),
    (D["bool"], D["float32"]),
]


def np_eval(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def check(actual, expected, label=""):
    assert_gpu_close(actual, expected, label, rtol_scale=10 if label.startswith("pow") else 1)


def operand(rng, dtype, shape, *, right=False):
    """Left operands in [-50, 50] (ints: wrapping is defined), right operands in [1, 7]
    (valid divisors, shift counts and integer exponents); floats get a NaN and -0.0."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    lo, hi = (1, 8) if right else (-50, 51)
    if dtype.kind == "u":
        lo = max(lo, 0)
    x = rng.integers(lo, hi, size=shape).astype(dtype)
    if dtype.kind in "fc":
        x = x + (rng.random(shape) * 0.5).astype(dtype)  # not integral
        if dtype.kind == "c":
            x = x + 1j * rng.integers(-3, 4, size=shape).astype(dtype)
        flat = x.reshape(-1)
        if not right and flat.size > 2:
            flat[0] = np.nan
            flat[1] = -0.0
    return x


@gpu_test
@pytest.mark.parametrize("op", list(BINARY_OPS))
@pytest.mark.parametrize("dts", DTYPE_PAIRS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_binary_operator(rng, op, dts):
    fn = BINARY_OPS[op]
    ha = operand(rng, dts[0], (3, 5))
    hb = operand(rng, dts[1], (5,), right=True)
    da, db = ga.asarray(ha), ga.asarray(hb)
    for x, y, dx, dy, label in ((ha, hb, da, db, "a op b"), (hb, ha[0], db, da[0], "b op a")):
        if label == "b op a" and op in ("floordiv", "mod", "truediv", "pow", "lshift",
                                        "rshift") and dts[0].kind in "iu":
            continue  # left operands include 0 and negative values: not valid divisors/exponents
        kind, exp, _ = outcome(np_eval, fn, x, y)
        if kind == "raise":
            with pytest.raises(public_exception_type(exp)):
                fn(dx, dy)
        else:
            check(fn(dx, dy), exp, f"{op} {label}")


REFLECTED_SCALARS = [2, -3, 2.0, 0.5, 1 + 1j, True]


@gpu_test
@pytest.mark.parametrize("op", [o for o in BINARY_OPS if o not in ("eq", "ne")])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_scalar_operands_both_sides(rng, op, dtype):
    """`a op s` and `s op a` (the reflected method) with Python scalars, NEP 50 types."""
    fn = BINARY_OPS[op]
    h = operand(rng, dtype, (7,), right=True)
    d = ga.asarray(h)
    for s in REFLECTED_SCALARS:
        for order in (0, 1):
            if op == "pow" and order == 0 and s == -3 and dtype.kind in "iub":
                continue  # integer array to a negative integer power: NumPy raises in the loop
            args_h = (h, s) if order == 0 else (s, h)
            args_d = (d, s) if order == 0 else (s, d)
            kind, exp, _ = outcome(np_eval, fn, *args_h)
            label = f"{op} {s!r} order={order}"
            if kind == "raise":
                with pytest.raises(public_exception_type(exp)):
                    fn(*args_d)
            else:
                check(fn(*args_d), exp, label)


@gpu_test
def test_reflected_examples():
    h = np.array([1.0, 2.0, 4.0], np.float32)
    d = ga.asarray(h)
    check(2 - d, 2 - h)
    check(2.0 / d, 2.0 / h)
    check(3 ** d, 3 ** h)
    check(7 // d, 7 // h)
    check(7 % d, 7 % h)
    assert (2.0 / d).dtype == np.float32
    hi = np.array([1, 2, 3], np.int16)
    di = ga.asarray(hi)
    check(1 << di, 1 << hi)
    check(100 >> di, 100 >> hi)
    check(6 & di, 6 & hi)
    check(5 - di, 5 - hi)
    check(2 ** di, 2 ** hi)
    check(1 < di, 1 < hi)
    check(2 >= di, 2 >= hi)
    check(np.int64(10) - di, np.int64(10) - hi)


@gpu_test
@pytest.mark.parametrize("op", list(UNARY_OPS))
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_unary_operator(rng, op, dtype):
    fn = UNARY_OPS[op]
    h = operand(rng, dtype, (4, 6))
    if dtype.kind == "i":
        h.reshape(-1)[-1] = np.iinfo(dtype).min  # -INT_MIN wraps
    if dtype.kind == "f":
        h.reshape(-1)[-2] = -np.inf
    d = ga.asarray(h)
    for x, dx in ((h, d), (h[:, ::-2], d[:, ::-2]), (h[1], d[1])):
        kind, exp, _ = outcome(np_eval, fn, x)
        if kind == "raise":
            with pytest.raises(public_exception_type(exp)):
                fn(dx)
        else:
            got = fn(dx)
            check(got, exp, op)
            if dtype.kind == "f":
                nn = ~np.isnan(exp)
                np.testing.assert_array_equal(np.signbit(ga.asnumpy(got)[nn]), np.signbit(exp[nn]))
    assert ga.abs is ga.absolute


@gpu_test
def test_unary_operator_errors():
    with pytest.raises(TypeError):
        -ga.ones(3, dtype=bool)
    with pytest.raises(TypeError):
        ~ga.ones(3, dtype=np.float32)
    with pytest.raises(TypeError):
        ~ga.ones(3, dtype=np.complex64)


# --- in-place operators ------------------------------------------------------------------

INPLACE_PAIRS = [
    (D["float32"], D["float32"]), (D["float32"], D["float64"]), (D["int32"], D["int32"]),
    (D["int32"], D["float64"]), (D["int8"], D["int64"]), (D["uint8"], D["int8"]),
    (D["float64"], D["complex128"]), (D["complex64"], D["float64"]), (D["bool"], D["bool"]),
    (D["uint16"], D["uint16"]), (D["int64"], D["bool"]),
]


@gpu_test
@pytest.mark.parametrize("op", list(INPLACE_OPS))
@pytest.mark.parametrize("dts", INPLACE_PAIRS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_inplace_operator(rng, op, dts):
    fn = INPLACE_OPS[op]
    base_h = operand(rng, dts[0], (4, 6))
    hb = operand(rng, dts[1], (6,), right=True)
    kind, exp, _ = outcome(np_eval, fn, base_h.copy(), hb)
    base_d = ga.asarray(base_h)
    db = ga.asarray(hb)
    if kind == "raise":
        with pytest.raises(public_exception_type(exp)):
            fn(base_d, db)
        np.testing.assert_array_equal(ga.asnumpy(base_d), base_h)  # untouched
        return
    before = base_d
    r = fn(base_d, db)
    assert r is before  # in place: the same object
    check(r, exp, op)
    # on a view: the base array sees the update, the rest is untouched
    base_d = ga.asarray(base_h)
    view = base_d[1:3, ::2]
    r = fn(view, db[::2])
    assert r is view
    expected = base_h.copy()
    sub = expected[1:3, ::2]
    np_eval(fn, sub, hb[::2])
    check(base_d, expected, op + " view")


@gpu_test
def test_inplace_examples():
    a = ga.asarray(np.arange(4, dtype=np.int32))
    with pytest.raises(TypeError):
        a += 1.5
    with pytest.raises(TypeError):
        a += ga.ones(4)
    with pytest.raises(TypeError):
        a /= 2
    np.testing.assert_array_equal(ga.asnumpy(a), np.arange(4))
    f = ga.asarray(np.ones(3, np.float32))
    f += 1.0
    f *= np.float64(2.0)  # casts back to float32 (same_kind)
    assert f.dtype == np.float32
    np.testing.assert_array_equal(ga.asnumpy(f), [4, 4, 4])
    i8 = ga.asarray(np.array([100, -100], np.int8))
    with pytest.raises(OverflowError):
        i8 += 300
    i8 += 100
    np.testing.assert_array_equal(ga.asnumpy(i8), np.array([100, -100], np.int8) + np.int8(100))
    with pytest.raises(ValueError):  # the result does not fit the left operand's shape
        x = ga.ones(3)
        x += ga.ones((2, 3))
    # overlapping in-place update equals NumPy's
    h = np.arange(10, dtype=np.float64)
    d = ga.asarray(h)
    d[1:] += d[:-1]
    h[1:] += h[:-1]
    np.testing.assert_array_equal(ga.asnumpy(d), h)
    d[:-1] -= d[1:]
    h[:-1] -= h[1:]
    np.testing.assert_array_equal(ga.asnumpy(d), h)


# --- integer and float division, modulo ----------------------------------------------------

INT_DTYPES = [d for d in ALL_DTYPES if d.kind in "iu"]


@gpu_test
@pytest.mark.parametrize("dtype", INT_DTYPES, ids=dtype_id)
def test_integer_division_semantics(dtype):
    info = np.iinfo(dtype)
    vals = [0, 1, 2, 3, 7, 10, info.max, info.max - 1]
    if info.min < 0:
        vals += [-1, -2, -3, -7, -10, info.min, info.min + 1]
    x = np.array(vals, dtype=dtype)
    a = np.repeat(x, x.size)
    b = np.tile(x, x.size)  # every pair, including zero divisors and INT_MIN, -1
    da, db = ga.asarray(a), ga.asarray(b)
    for name in ("floor_divide", "remainder", "fmod"):
        exp = np_eval(getattr(np, name), a, b)
        check(getattr(ga, name)(da, db), exp, name)
    check(da // db, np_eval(operator.floordiv, a, b), "//")
    check(da % db, np_eval(operator.mod, a, b), "%")
    zero = (b == 0)
    np.testing.assert_array_equal(ga.asnumpy(da // db)[zero], 0)
    np.testing.assert_array_equal(ga.asnumpy(da % db)[zero], 0)
    if info.min < 0:
        m = ga.asarray(np.array([info.min], dtype))
        np.testing.assert_array_equal(ga.asnumpy(m // -1), np.array([info.min], dtype))
        np.testing.assert_array_equal(ga.asnumpy(m % -1), np.array([0], dtype))


@gpu_test
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=dtype_id)
def test_float_division_semantics(dtype):
    x = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, -3.0, 7.25, -7.25, 1e-3, np.inf, -np.inf,
                  np.nan], dtype=dtype)
    a = np.repeat(x, x.size)
    b = np.tile(x, x.size)
    da, db = ga.asarray(a), ga.asarray(b)
    for name, fn in (("floor_divide", operator.floordiv), ("remainder", operator.mod),
                     ("fmod", None), ("divide", operator.truediv)):
        # floor_divide's infinite operands: the Array API standard's table, not NumPy's.
        exp = (array_api_floor_divide(a, b) if name == "floor_divide"
               else np_eval(getattr(np, name), a, b))
        results = [getattr(ga, name)(da, db)] + ([fn(da, db)] if fn else [])
        for got in results:
            check(got, exp, name)
            g = ga.asnumpy(got)
            nn = ~np.isnan(exp)
            np.testing.assert_array_equal(np.signbit(g[nn]), np.signbit(exp[nn]),
                                          err_msg=f"{name}: signs (incl. of zeros)")


@gpu_test
def test_divmod_operator():
    if not hasattr(ga.ndarray, "__divmod__"):
        pytest.skip("gpuarr.ndarray has no __divmod__")
    h = np.array([-7, -1, 0, 5, 9], np.int32)
    g = np.array([2, -3, 4, -2, 0], np.int32)
    q, r = divmod(ga.asarray(h), ga.asarray(g))
    eq, er = np_eval(divmod, h, g)
    check(q, eq)
    check(r, er)


# --- unsupported operands -------------------------------------------------------------


@gpu_test
def test_unsupported_operands():
    a = ga.asarray(np.array([1.0, 2.0]))
    for bad in ([1, 2], (1, 2), "ab", None, object()):
        for fn in (operator.add, operator.mul, operator.sub, operator.truediv, operator.lt):
            with pytest.raises(TypeError):
                fn(a, bad)
            with pytest.raises(TypeError):
                fn(bad, a)
    r = a == None  # noqa: E711  (NumPy: all False; Python's fallback: False; no crash)
    assert not np.any(ga.asnumpy(r) if isinstance(r, ga.ndarray) else r)
    r = a != None  # noqa: E711
    assert np.all(ga.asnumpy(r) if isinstance(r, ga.ndarray) else r)
    assert (a == "x") is False or not np.any(ga.asnumpy(a == "x"))
    with pytest.raises(TypeError):
        pow(a, 2, 3)
    with pytest.raises(TypeError):
        hash(a)


@gpu_test
def test_operator_type_errors():
    f = ga.ones(3, dtype=np.float32)
    b = ga.ones(3, dtype=bool)
    with pytest.raises(TypeError):
        f & f
    with pytest.raises(TypeError):
        f << 1
    with pytest.raises(TypeError):
        b - b
    with pytest.raises(TypeError):
        ga.ones(2, dtype=np.complex64) // 1
    with pytest.raises(TypeError):
        ga.ones(2, dtype=np.complex64) % 2
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with "
                                         r"shapes \(2,\) \(3,\)"):
        ga.ones(2) * ga.ones(3)
