"""Special values that the Array API standard (2024.12) fixes and NumPy does not give, which
the data-apis/array-api-tests suite checks: floor_divide with an infinite operand (NumPy:
NaN or -1.0), and the complex expm1, tanh, acosh, asinh, atanh and acos tables. The expected
values are the standard's, written out here (NumPy is not the oracle for these cases); signs
of zeros are checked with np.signbit. Each table goes through the ufunc, the operators, a 0-d
array, strided views and a kernel compiled at run time (gpuarr.fuse, ElementwiseKernel) or a
deferred chain. The complex inverse functions are also checked for accuracy against NumPy's
complex128 far from the origin (libcu++'s formulas lost every digit for Re z << 0).

The functors themselves are checked on the host by CTest (cpp/tests/test_ufunc_special_values.cpp).
"""

import math
import warnings

import numpy as np
import pytest

import gpuarr as ga
from gpuarr import _core

from conftest import GPU_MODULE

pytestmark = GPU_MODULE

inf, nan, pi = math.inf, math.nan, math.pi
FLOATS = [np.float16, np.float32, np.float64]
COMPLEXES = [np.complex64, np.complex128]


# --- expected values ------------------------------------------------------------------------

class Any0:
    """A zero of either sign, or an infinity of either sign (the standard leaves it open)."""

    def __init__(self, magnitude=0.0):
        self.magnitude = magnitude


class Near:
    """A multiple of pi, within a few ulp of the component type."""

    def __init__(self, value):
        self.value = value


def component_ok(got, want, dtype):
    got = float(got)
    if isinstance(want, Any0):
        want = Near(want.magnitude) if 0 < want.magnitude < inf else want.magnitude
        got = abs(got)
    if isinstance(want, Near):
        return abs(got - want.value) <= 8 * np.finfo(dtype).eps * abs(want.value)
    if math.isnan(want):
        return math.isnan(got)
    return got == want and bool(np.signbit(got)) == bool(np.signbit(want))


def describe(v):
    if isinstance(v, Any0):
        return "+-%r" % v.magnitude
    if isinstance(v, Near):
        return "~%r" % v.value
    return "-0.0" if v == 0 and np.signbit(v) else repr(v)


def check_real(got, rows, dtype, label):
    got = np.asarray(got)
    assert got.dtype == dtype, (label, got.dtype)
    bad = [f"{describe(a)} // {describe(b)} = {describe(float(g))}, want {describe(w)}"
           for (a, b, w), g in zip(rows, got.reshape(-1)) if not component_ok(g, w, dtype)]
    assert not bad, f"{label} ({np.dtype(dtype).name}):\n" + "\n".join(bad)


def check_complex(got, rows, dtype, label):
    got = np.asarray(got)
    assert got.dtype == dtype, (label, got.dtype)
    part = np.finfo(dtype).dtype
    bad = []
    for (z, wr, wi), g in zip(rows, got.reshape(-1)):
        if not (component_ok(g.real, wr, part) and component_ok(g.imag, wi, part)):
            bad.append(f"{label}({describe(z.real)} + {describe(z.imag)}j) = "
                       f"{describe(float(g.real))} + {describe(float(g.imag))}j, "
                       f"want {describe(wr)} + {describe(wi)}j")
    assert not bad, f"{np.dtype(dtype).name}:\n" + "\n".join(bad)


# --- floor_divide ---------------------------------------------------------------------------

# (x1, x2, x1 // x2) from the standard's floor_divide table.
FLOOR_DIVIDE = [
    (nan, 1.0, nan), (1.0, nan, nan), (nan, inf, nan),
    (inf, inf, nan), (inf, -inf, nan), (-inf, inf, nan), (-inf, -inf, nan),
    (0.0, 0.0, nan), (0.0, -0.0, nan), (-0.0, 0.0, nan), (-0.0, -0.0, nan),
    (0.0, 2.0, 0.0), (-0.0, 2.0, -0.0), (0.0, -2.0, -0.0), (-0.0, -2.0, 0.0),
    (3.0, 0.0, inf), (3.0, -0.0, -inf), (-3.0, 0.0, -inf), (-3.0, -0.0, inf),
    # NumPy gives NaN for these ...
    (inf, 2.0, inf), (inf, -2.0, -inf), (-inf, 2.0, -inf), (-inf, -2.0, inf),
    (inf, 0.5, inf), (-inf, 1000.0, -inf),
    (5.0, inf, 0.0), (-5.0, -inf, 0.0), (0.0, inf, 0.0), (-0.0, inf, -0.0),
    # ... and -1.0 for these.
    (5.0, -inf, -0.0), (-5.0, inf, -0.0), (0.25, -inf, -0.0), (-1000.0, inf, -0.0),
    (7.0, 2.0, 3.0), (-7.0, -2.0, 3.0), (7.0, -2.0, -4.0), (-7.0, 2.0, -4.0),
    (1.0, 4.0, 0.0), (-1.0, -4.0, 0.0), (1.0, -4.0, -1.0), (-1.0, 4.0, -1.0),
]


def floor_divide_operands(dtype):
    a = np.array([r[0] for r in FLOOR_DIVIDE], dtype)
    b = np.array([r[1] for r in FLOOR_DIVIDE], dtype)
    return a, b


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_floor_divide_table_ufunc_and_operators(dtype):
    a, b = floor_divide_operands(dtype)
    da, db = ga.asarray(a), ga.asarray(b)
    check_real(ga.asnumpy(ga.floor_divide(da, db)), FLOOR_DIVIDE, dtype, "floor_divide")
    check_real(ga.asnumpy(da // db), FLOOR_DIVIDE, dtype, "//")
    x = ga.asarray(a)
    x //= db
    check_real(ga.asnumpy(x), FLOOR_DIVIDE, dtype, "//=")
    out = ga.empty(a.shape, dtype=dtype)
    assert ga.floor_divide(da, db, out=out) is out
    check_real(ga.asnumpy(out), FLOOR_DIVIDE, dtype, "floor_divide(out=)")
    check_real(ga.asnumpy(np.floor_divide(da, db)), FLOOR_DIVIDE, dtype, "np.floor_divide")


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_floor_divide_table_zero_d_and_scalars(dtype):
    got = [ga.asnumpy(ga.asarray(np.array(x1, dtype)) // ga.asarray(np.array(x2, dtype)))
           for x1, x2, _ in FLOOR_DIVIDE]
    assert all(g.shape == () for g in got)
    check_real(np.array(got, dtype), FLOOR_DIVIDE, dtype, "0-d //")
    # Python floats are weak scalars: the array's dtype computes.
    d = ga.asarray(np.array([inf, -inf, 5.0, -5.0], dtype))
    check_real(ga.asnumpy(d // 2.0), [(inf, 2, inf), (-inf, 2, -inf), (5, 2, 2.0),
                                      (-5, 2, -3.0)], dtype, "array // 2.0")
    check_real(ga.asnumpy(d // -inf), [(inf, -inf, nan), (-inf, -inf, nan), (5, -inf, -0.0),
                                       (-5, -inf, 0.0)], dtype, "array // -inf")
    check_real(ga.asnumpy(inf // d), [(inf, inf, nan), (inf, -inf, nan), (inf, 5, inf),
                                      (inf, -5, -inf)], dtype, "inf // array")


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_floor_divide_table_strided_views(dtype):
    a, b = floor_divide_operands(dtype)
    n = a.size
    big_a = np.full(3 * n, 7.0, dtype)
    big_b = np.full(2 * n, 3.0, dtype)
    big_a[::3] = a
    big_b[::-2] = b
    da, db = ga.asarray(big_a)[::3], ga.asarray(big_b)[::-2]
    check_real(ga.asnumpy(ga.floor_divide(da, db)), FLOOR_DIVIDE, dtype, "strided")
    # A 2-d layout: the table down a column of a transposed array.
    ta = ga.asarray(np.stack([a, a]).T.copy()).T
    check_real(ga.asnumpy(ga.floor_divide(ta, ga.asarray(b))[1]), FLOOR_DIVIDE, dtype,
               "transposed")


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_floor_divide_table_fused(dtype):
    a, b = floor_divide_operands(dtype)
    fused = ga.fuse(lambda x, y: x // y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # fusable: an eager fallback would warn
        got = fused(ga.asarray(a), ga.asarray(b))
    check_real(ga.asnumpy(got), FLOOR_DIVIDE, dtype, "fused //")
    # Inside a longer kernel (x * 1 and y * 1 keep -0.0, NaN and inf as they are).
    chain = ga.fuse(lambda x, y: ga.floor_divide(x * 1, y * 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = chain(ga.asarray(a), ga.asarray(b))
    check_real(ga.asnumpy(got), FLOOR_DIVIDE, dtype, "fused chain")


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_floor_divide_table_in_a_user_kernel(dtype):
    conv = "gpuarr::ufn::half_to_float" if dtype == np.float16 else ""
    k = ga.ElementwiseKernel("T x, T y", "T z",
                             "z = gpuarr::ufn::FloorDivide{}(%s(x), %s(y))" % (conv, conv),
                             "floor_divide_table", preamble="#include <gpuarr/ufunc_math.cuh>")
    a, b = floor_divide_operands(dtype)
    check_real(ga.asnumpy(k(ga.asarray(a), ga.asarray(b))), FLOOR_DIVIDE, dtype,
               "ElementwiseKernel")


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_floor_divide_of_a_deferred_chain(dtype):
    old = _core._set_lazy_min_size(1)
    try:
        a, b = floor_divide_operands(dtype)
        x = ga.asarray(a) * 1.0   # keeps -0.0, NaN and inf as they are
        y = ga.asarray(b) * 1.0
        assert _core._is_pending(x) and _core._is_pending(y)
        check_real(ga.asnumpy(x // y), FLOOR_DIVIDE, dtype, "deferred //")
    finally:
        _core._set_lazy_min_size(old)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_divmod_stays_numpys(dtype):
    # divmod's quotient and remainder are NumPy's (divmod(inf, 2) is (nan, nan) there), only
    # floor_divide follows the standard.
    a, b = floor_divide_operands(dtype)
    with np.errstate(all="ignore"):
        eq, er = np.divmod(a, b)
    da, db = ga.asarray(a), ga.asarray(b)
    for label, (q, r) in (("ga.divmod", ga.divmod(da, db)), ("divmod()", divmod(da, db)),
                          ("np.divmod", np.divmod(da, db))):
        for got, want in ((ga.asnumpy(q), eq), (ga.asnumpy(r), er)):
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want, err_msg=label)
            nn = ~np.isnan(want)  # the sign of a NaN is the platform's
            np.testing.assert_array_equal(np.signbit(got[nn]), np.signbit(want[nn]),
                                          err_msg=label)
    assert np.isnan(ga.asnumpy(ga.divmod(ga.asarray(np.array([inf], dtype)), 2.0)[0])).all()


# --- complex tables -------------------------------------------------------------------------

def C(a, b):
    return complex(a, b)


# (z, real part, imaginary part of f(z)); each also checked at conj(z) for the conjugate.
COMPLEX_TABLES = {
    "expm1": [
        (C(0.0, 0.0), 0.0, 0.0), (C(-0.0, 0.0), 0.0, 0.0),
        (C(1, inf), nan, nan), (C(0.0, inf), nan, nan), (C(1, nan), nan, nan),
        (C(inf, 0.0), inf, 0.0),
        (C(-inf, 1), -1.0, 0.0), (C(-inf, 4), -1.0, -0.0),   # +0 cis(b) - 1
        (C(inf, 1), inf, inf), (C(inf, 2), -inf, inf),       # +inf cis(b) - 1
        (C(-inf, inf), -1.0, Any0()), (C(inf, inf), Any0(inf), nan),
        (C(-inf, nan), -1.0, Any0()), (C(inf, nan), Any0(inf), nan),
        (C(nan, 0.0), nan, 0.0), (C(nan, 1), nan, nan), (C(nan, nan), nan, nan),
    ],
    "tanh": [
        (C(0.0, 0.0), 0.0, 0.0), (C(1, inf), nan, nan), (C(0.0, inf), 0.0, nan),
        (C(1, nan), nan, nan), (C(0.0, nan), 0.0, nan),
        (C(inf, 1), 1.0, 0.0), (C(inf, 2), 1.0, 0.0),      # C99's sign of sin(2b) is - at 2
        (C(inf, inf), 1.0, Any0()), (C(inf, nan), 1.0, Any0()),
        (C(nan, 0.0), nan, 0.0), (C(nan, 1), nan, nan), (C(nan, nan), nan, nan),
        (C(-0.0, inf), -0.0, nan), (C(-inf, 2), -1.0, 0.0),  # odd
    ],
    "arccosh": [
        (C(0.0, 0.0), 0.0, Near(pi / 2)), (C(-0.0, 0.0), 0.0, Near(pi / 2)),
        (C(1, inf), inf, Near(pi / 2)), (C(1, nan), nan, nan),
        (C(0.0, nan), nan, Any0(pi / 2)),     # NumPy gives NaN + NaN j
        (C(-inf, 1), inf, Near(pi)), (C(inf, 1), inf, 0.0),
        (C(-inf, inf), inf, Near(3 * pi / 4)), (C(inf, inf), inf, Near(pi / 4)),
        (C(inf, nan), inf, nan), (C(-inf, nan), inf, nan),
        (C(nan, 1), nan, nan), (C(nan, inf), inf, nan), (C(nan, nan), nan, nan),
    ],
    "arcsinh": [
        (C(0.0, 0.0), 0.0, 0.0), (C(1, inf), inf, Near(pi / 2)), (C(1, nan), nan, nan),
        (C(inf, 1), inf, 0.0), (C(inf, inf), inf, Near(pi / 4)),
        (C(nan, 0.0), nan, 0.0), (C(nan, 1), nan, nan), (C(nan, inf), Any0(inf), nan),
        (C(nan, nan), nan, nan), (C(-0.0, 0.0), -0.0, 0.0), (C(-inf, 1), -inf, 0.0),
    ],
    "arctanh": [
        (C(0.0, 0.0), 0.0, 0.0), (C(0.0, nan), 0.0, nan), (C(1, 0.0), inf, 0.0),
        (C(1, inf), 0.0, Near(pi / 2)), (C(1, nan), nan, nan),
        (C(inf, 1), 0.0, Near(pi / 2)), (C(inf, inf), 0.0, Near(pi / 2)),
        (C(inf, nan), 0.0, nan), (C(nan, 1), nan, nan), (C(nan, inf), Any0(), Near(pi / 2)),
        (C(nan, nan), nan, nan),
    ],
    "arccos": [
        (C(0.0, 0.0), Near(pi / 2), -0.0), (C(0.0, nan), Near(pi / 2), nan),
        (C(1, inf), Near(pi / 2), -inf), (C(1, nan), nan, nan),
        (C(-inf, 1), Near(pi), -inf), (C(inf, 1), 0.0, -inf),
        (C(-inf, inf), Near(3 * pi / 4), -inf), (C(inf, inf), Near(pi / 4), -inf),
        (C(inf, nan), nan, Any0(inf)), (C(nan, 1), nan, nan), (C(nan, inf), nan, -inf),
        (C(nan, nan), nan, nan),
    ],
}


def conj_rows(rows):
    def neg(w):
        if isinstance(w, (Any0,)):
            return w
        if isinstance(w, Near):
            return Near(-w.value)
        return -w
    return [(z.conjugate(), wr, neg(wi)) for z, wr, wi in rows]


def table_input(rows, dtype):
    # complex(a, b) for each row, built from the parts (so that -0.0 and NaN survive).
    x = np.empty(len(rows), dtype)
    x.real = [z.real for z, _, _ in rows]
    x.imag = [z.imag for z, _, _ in rows]
    return x


@pytest.mark.parametrize("dtype", COMPLEXES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(COMPLEX_TABLES))
def test_complex_table_ufunc(name, dtype):
    for rows in (COMPLEX_TABLES[name], conj_rows(COMPLEX_TABLES[name])):
        x = table_input(rows, dtype)
        check_complex(ga.asnumpy(getattr(ga, name)(ga.asarray(x))), rows, dtype, name)
        check_complex(ga.asnumpy(getattr(np, name)(ga.asarray(x))), rows, dtype,
                      "np." + name)


@pytest.mark.parametrize("dtype", COMPLEXES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(COMPLEX_TABLES))
def test_complex_table_zero_d_and_strided(name, dtype):
    rows = COMPLEX_TABLES[name]
    x = table_input(rows, dtype)
    got = [ga.asnumpy(getattr(ga, name)(ga.asarray(x[i]))) for i in range(x.size)]
    assert all(g.shape == () for g in got)
    check_complex(np.array(got, dtype), rows, dtype, name + " 0-d")
    big = np.full(2 * x.size, 0.5 + 0.5j, dtype)
    big[::-2] = x
    check_complex(ga.asnumpy(getattr(ga, name)(ga.asarray(big)[::-2])), rows, dtype,
                  name + " strided")


FUNCTORS = {"expm1": "Expm1", "tanh": "Tanh", "arccosh": "Arccosh", "arcsinh": "Arcsinh",
            "arctanh": "Arctanh", "arccos": "Arccos"}


@pytest.mark.parametrize("dtype", COMPLEXES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(COMPLEX_TABLES))
def test_complex_table_in_a_user_kernel(name, dtype):
    # The functors compiled by NVRTC (fuse does not take complex arrays): the same code.
    ctype = "float" if dtype == np.complex64 else "double"
    k = ga.ElementwiseKernel(
        "T x, T y", "T u, T v",
        "const cuda::std::complex<%s> r = gpuarr::ufn::%s{}(cuda::std::complex<%s>(x, y));"
        " u = r.real(); v = r.imag();" % (ctype, FUNCTORS[name], ctype),
        "special_" + name, preamble="#include <gpuarr/ufunc_complex.cuh>")
    rows = COMPLEX_TABLES[name]
    x = table_input(rows, dtype)
    try:
        u, v = k(ga.asarray(x.real.copy()), ga.asarray(x.imag.copy()))
    except ga.cuda.CompileError as e:
        if "cuda/std/complex" in str(e):
            pytest.skip("the CUDA toolkit's libcu++ headers are not installed")
        raise
    got = np.empty(x.size, dtype)
    got.real, got.imag = ga.asnumpy(u), ga.asnumpy(v)
    check_complex(got, rows, dtype, name + " kernel")


# --- accuracy far from the origin -----------------------------------------------------------

INVERSE = ["arcsinh", "arccosh", "arcsin", "arccos", "arctanh", "arctan", "tanh", "tan"]


def far_inputs(dtype, rng):
    top = 30 if dtype == np.complex64 else 200
    n = 500
    re = -(10.0 ** rng.uniform(0, top, n))          # large negative real parts
    im = rng.uniform(-3, 3, n)
    re2 = rng.choice([-1, 1], n) * 10.0 ** rng.uniform(-top, top, n)   # anywhere
    im2 = rng.choice([-1, 1], n) * 10.0 ** rng.uniform(-top, top, n)
    x = np.concatenate([re + 1j * im, re2 + 1j * im2, [-2731 + 1j, -1e30 + 3e29j]])
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", COMPLEXES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", INVERSE)
def test_accuracy_far_from_the_origin(name, dtype, rng):
    # Each part within a few ulp of NumPy's complex128 result on the same inputs (NumPy's
    # C library algorithms are accurate there): |error| <= rtol * |that part|.
    x = far_inputs(dtype, rng)
    got = ga.asnumpy(getattr(ga, name)(ga.asarray(x)))
    rtol = 1e-5 if dtype == np.complex64 else 1e-12
    tiny = np.finfo(np.finfo(dtype).dtype).tiny
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x.astype(np.complex128))
        rounded = want.astype(dtype)  # parts beyond the type's range: its inf or 0
    for part in ("real", "imag"):
        g, w = getattr(got, part).astype(np.float64), getattr(want, part)
        ok = (np.abs(g - w) <= rtol * np.abs(w) + tiny) | (g == getattr(rounded, part))
        assert ok.all(), (name, part, x[~ok][:5], got[~ok][:5], want[~ok][:5])


def test_the_reported_asinh():
    r = ga.asnumpy(ga.arcsinh(ga.asarray(np.array([-2731 + 1j], np.complex64))))[0]
    assert abs(r.real - -8.605570402591917) < 1e-5 and abs(r.imag - 0.0003661661985604537) < 1e-9
