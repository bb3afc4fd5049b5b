"""The legacy polynomial functions (poly, roots, polyval, polyfit, polyadd, polysub, polymul,
polydiv, polyder, polyint) and poly1d against NumPy's, on the device and with NumPy
standing in for the device operations they are composed of."""

import warnings

import numpy as np
import pytest

import gpuarr as ga
from _numpy_composed import check, same_outcome, xp  # noqa: F401  (xp is a fixture)
from conftest import dtype_id

DTYPES = [np.dtype(n) for n in ("int32", "int64", "float32", "float64", "complex64",
                                "complex128")]


def _tol(*dtypes):
    single = any(np.dtype(d).char in "fF" for d in dtypes)
    return 2e-4 if single else 1e-9


def _coeffs(dtype, n=4):
    c = np.array([3, -2, 5, 1, -4, 2][:n])
    if np.dtype(dtype).kind == "c":
        c = c + 1j * np.array([1, 0, -2, 3, 1, -1][:n])
    return c.astype(dtype)


def _points(dtype):
    x = np.array([-1.5, -0.5, 0, 0.25, 2]).astype(dtype) if np.dtype(dtype).kind != "i" \
        else np.array([-2, -1, 0, 1, 3], dtype)
    return [x, x[::-2], x[:0], x[2], x.reshape(5, 1)[::2]]


def _host_poly(xp, r):
    """A gpuarr poly1d as NumPy's (coefficients on the host)."""
    if isinstance(r, ga.poly1d):
        return np.poly1d(xp.host(r.coeffs), variable=r.variable)
    return r


def _same_poly(xp, got, expected, rtol=0.0, atol=0.0):
    assert isinstance(got, ga.poly1d), type(got)
    assert isinstance(expected, np.poly1d)
    check(xp, got.coeffs, expected.coeffs, rtol=rtol, atol=atol)
    assert got.variable == expected.variable


def _sorted_roots(r):
    r = np.asarray(r)
    return np.sort_complex(r) if r.size else r


def _matched_roots(got, expected):
    """``got`` reordered to pair each of ``expected``'s roots with its nearest unused one:
    sorting both instead pairs a conjugate pair's members crosswise when their real parts
    differ in the last digits."""
    got, expected = np.asarray(got), np.asarray(expected)
    left = list(range(got.size))
    order = []
    for e in expected:
        k = min(left, key=lambda i: abs(got[i] - e))
        left.remove(k)
        order.append(k)
    return got[np.array(order, dtype=np.intp)]


# --- polyval -----------------------------------------------------------------------------


@pytest.mark.parametrize("pdtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("xdtype", [np.int64, np.float32, np.float64, np.complex128],
                         ids=dtype_id)
def test_polyval(xp, pdtype, xdtype):
    p = _coeffs(pdtype)
    for x in _points(xdtype):
        same_outcome(xp, lambda: np.polyval(p, x), lambda: ga.polyval(xp.dev(p), xp.dev(x)),
                     rtol=_tol(pdtype, xdtype), atol=1e-5)
    same_outcome(xp, lambda: np.polyval(p[:0], x), lambda: ga.polyval(xp.dev(p[:0]),
                                                                       xp.dev(x)))
    same_outcome(xp, lambda: np.polyval(p[::-2], 1.5), lambda: ga.polyval(xp.dev(p)[::-2], 1.5),
                 rtol=_tol(pdtype), atol=1e-5)
    same_outcome(xp, lambda: np.polyval(p[0], x), lambda: ga.polyval(xp.dev(p)[0], xp.dev(x)))


def test_polyval_of_poly1d(xp):
    p = np.array([1.0, -2.0, 3.0])
    q = np.array([2.0, 1.0])
    got = ga.polyval(xp.dev(p), ga.poly1d(xp.dev(q)))
    _same_poly(xp, got, np.polyval(p, np.poly1d(q)))
    check(xp, ga.polyval(ga.poly1d(xp.dev(p)), xp.dev(q)), np.polyval(np.poly1d(p), q))


# --- poly and roots ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES + [np.dtype(np.int8)], ids=dtype_id)
def test_poly(xp, dtype):
    z = np.array([1, -2, 3, 0.5]).astype(dtype) if np.dtype(dtype).kind != "i" else \
        np.array([1, -2, 3, 4], dtype)
    same_outcome(xp, lambda: np.poly(z), lambda: ga.poly(xp.dev(z)), rtol=_tol(dtype),
                 atol=1e-5)
    same_outcome(xp, lambda: np.poly(z[::-2]), lambda: ga.poly(xp.dev(z)[::-2]),
                 rtol=_tol(dtype), atol=1e-5)
    same_outcome(xp, lambda: np.poly(z[0]), lambda: ga.poly(xp.dev(z)[0]), rtol=_tol(dtype))


def test_poly_complex_roots(xp):
    pairs = np.array([1 + 2j, 1 - 2j, -3 + 0j])  # conjugate pairs: a real polynomial
    same_outcome(xp, lambda: np.poly(pairs), lambda: ga.poly(xp.dev(pairs)), rtol=1e-12,
                 atol=1e-12)
    single = np.array([1 + 2j, 0.5 - 1j], np.complex64)
    same_outcome(xp, lambda: np.poly(single), lambda: ga.poly(xp.dev(single)), rtol=1e-5,
                 atol=1e-5)


def test_poly_of_matrix_and_errors(xp):
    a = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    same_outcome(xp, lambda: np.poly(a), lambda: ga.poly(xp.dev(a)), rtol=1e-9, atol=1e-9)
    assert np.poly(np.zeros(0)) == 1.0 and ga.poly(xp.dev(np.zeros(0))) == 1.0
    for bad in (np.zeros((2, 3)), np.zeros((0, 0)), np.zeros((2, 2, 2))):
        same_outcome(xp, lambda: np.poly(bad), lambda: ga.poly(xp.dev(bad)))


@pytest.mark.parametrize("dtype", DTYPES + [np.dtype(np.bool_)], ids=dtype_id)
def test_roots(xp, dtype):
    cases = [np.array([1, -6, 11, -6]), np.array([0, 0, 2, -3, 1, 0, 0]),
             np.array([1, 0, 1]), np.array([5]), np.array([0, 0]), np.array([3, 0]),
             np.array([1, 2, 3, 4, 5])[::-1]]
    for p in cases:
        p = p.astype(dtype)
        kind_e = np.roots(p)
        got = ga.roots(xp.dev(p))
        assert xp.is_array(got)
        g = xp.host(got)
        assert g.shape == kind_e.shape and g.dtype == kind_e.dtype, (p, g, kind_e)
        np.testing.assert_allclose(_matched_roots(g, kind_e), kind_e,
                                   rtol=_tol(dtype) * 10, atol=1e-5)


def test_roots_stay_real_when_eigvals_is_always_complex(monkeypatch):
    # NumPy 2.5's eigvals returns complex eigenvalues of a real matrix even when all are
    # real; roots keeps a real polynomial's real roots real under any NumPy version.
    import _numpy_composed
    xp = _numpy_composed.Backend("numpy", monkeypatch)
    monkeypatch.setattr(_numpy_composed.NUMPY_CORE, "eigvals",
                        lambda a: np.linalg.eigvals(a).astype(np.result_type(a, np.complex64)))
    for p in (np.array([1, -6, 11, -6]), np.array([1.0, 0.0, 1.0]),
              np.array([1, -6, 11, -6], np.float32), np.array([2.0, -3.0, 1.0, 0.0]),
              np.array([1, -6, 11, -6], np.complex64)):
        e = np.roots(p)
        g = xp.host(ga.roots(xp.dev(p)))
        assert g.dtype == e.dtype, (p, g, e)
        np.testing.assert_allclose(_matched_roots(g, e), e, rtol=1e-5, atol=1e-6)


def test_roots_errors(xp):
    for bad in (np.zeros((2, 2)),):
        same_outcome(xp, lambda: np.roots(bad), lambda: ga.roots(xp.dev(bad)))
    same_outcome(xp, lambda: np.roots(np.float64(2)), lambda: ga.roots(xp.dev(np.array(2.0))))


# --- arithmetic --------------------------------------------------------------------------


@pytest.mark.parametrize("dtypes", [(np.int32, np.int64), (np.float32, np.float64),
                                    (np.int64, np.complex64), (np.float32, np.float32)],
                         ids=str)
def test_add_sub_mul(xp, dtypes):
    a = _coeffs(dtypes[0], 4)
    for n in (1, 3, 4, 6):
        b = _coeffs(dtypes[1], n)
        for np_fn, ga_fn in ((np.polyadd, ga.polyadd), (np.polysub, ga.polysub),
                             (np.polymul, ga.polymul)):
            same_outcome(xp, lambda: np_fn(a, b), lambda: ga_fn(xp.dev(a), xp.dev(b)),
                         rtol=_tol(*dtypes), atol=1e-4)
            same_outcome(xp, lambda: np_fn(b[::-1], a), lambda: ga_fn(xp.dev(b)[::-1],
                                                                      xp.dev(a)),
                         rtol=_tol(*dtypes), atol=1e-4)
    # leading zeros: polymul trims them (through poly1d), polyadd keeps them
    z = np.concatenate([np.zeros(2, a.dtype), a])
    for np_fn, ga_fn in ((np.polyadd, ga.polyadd), (np.polymul, ga.polymul)):
        same_outcome(xp, lambda: np_fn(z, a[:2]), lambda: ga_fn(xp.dev(z), xp.dev(a[:2])),
                     rtol=_tol(*dtypes), atol=1e-4)
    same_outcome(xp, lambda: np.polyadd(a[0], 2), lambda: ga.polyadd(xp.dev(a)[0], 2))


@pytest.mark.parametrize("dtypes", [(np.int64, np.int64), (np.float32, np.float32),
                                    (np.float64, np.complex128), (np.int32, np.float32)],
                         ids=str)
def test_polydiv(xp, dtypes):
    u = _coeffs(dtypes[0], 6)
    for n in (1, 2, 4, 6, 7):
        v = _coeffs(dtypes[1], 6)[:n] if n <= 6 else np.concatenate(
            [_coeffs(dtypes[1], 6), [1]]).astype(dtypes[1])
        same_outcome(xp, lambda: np.polydiv(u, v), lambda: ga.polydiv(xp.dev(u), xp.dev(v)),
                     rtol=_tol(*dtypes) * 10, atol=1e-4)
    # exact division: the remainder's leading terms vanish and are dropped
    q = np.array([1.0, 2.0, -1.0])
    d = np.array([1.0, -3.0])
    prod = np.polymul(q, d)
    same_outcome(xp, lambda: np.polydiv(prod, d), lambda: ga.polydiv(xp.dev(prod), xp.dev(d)),
                 rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_polyder_polyint(xp, dtype):
    p = _coeffs(dtype, 5)
    for m in (0, 1, 2, 5, 6):
        same_outcome(xp, lambda: np.polyder(p, m), lambda: ga.polyder(xp.dev(p), m))
        same_outcome(xp, lambda: np.polyint(p, m), lambda: ga.polyint(xp.dev(p), m),
                     rtol=_tol(dtype), atol=1e-6)
    same_outcome(xp, lambda: np.polyder(p[::-2]), lambda: ga.polyder(xp.dev(p)[::-2]))
    for k in (3, [1, 2], [1.5, -2, 3], np.array([2j, 1])):
        same_outcome(xp, lambda: np.polyint(p, 2, k), lambda: ga.polyint(xp.dev(p), 2, k),
                     rtol=_tol(dtype), atol=1e-6)
    same_outcome(xp, lambda: np.polyint(p, 3, [1, 2]), lambda: ga.polyint(xp.dev(p), 3, [1, 2]))
    same_outcome(xp, lambda: np.polyder(p, -1), lambda: ga.polyder(xp.dev(p), -1))
    same_outcome(xp, lambda: np.polyint(p, -1), lambda: ga.polyint(xp.dev(p), -1))
    same_outcome(xp, lambda: np.polyder(p[0]), lambda: ga.polyder(xp.dev(p)[0]))


# --- polyfit -----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64], ids=dtype_id)
def test_polyfit(xp, rng, dtype):
    x = np.linspace(-2, 3, 12)
    if np.dtype(dtype).kind == "i":
        x = np.arange(-5, 7)
    x = x.astype(dtype)
    y = (2 * x.astype(np.float64) ** 2 - x + 0.5 + rng.standard_normal(12) * 0.1).astype(dtype)
    w = rng.uniform(0.5, 2, 12)
    y2 = np.stack([y, 3 * y], axis=1)
    rtol = 1e-3 if np.dtype(dtype).char == "f" else 1e-8
    for deg in (0, 1, 2, 3):
        same_outcome(xp, lambda: np.polyfit(x, y, deg), lambda: ga.polyfit(xp.dev(x),
                                                                            xp.dev(y), deg),
                     rtol=rtol, atol=rtol)
        same_outcome(xp, lambda: np.polyfit(x, y2, deg, w=w),
                     lambda: ga.polyfit(xp.dev(x), xp.dev(y2), deg, w=xp.dev(w)),
                     rtol=rtol, atol=rtol)
    same_outcome(xp, lambda: np.polyfit(x[::-1], y[::-1], 2),
                 lambda: ga.polyfit(xp.dev(x)[::-1], xp.dev(y)[::-1], 2), rtol=rtol, atol=rtol)
    for cov in (True, "unscaled"):
        for yy in (y, y2):
            e = np.polyfit(x, yy, 2, cov=cov)
            g = ga.polyfit(xp.dev(x), xp.dev(yy), 2, cov=cov)
            check(xp, g, e, rtol=rtol * 10, atol=rtol)
    e = np.polyfit(x, y, 2, full=True)
    g = ga.polyfit(xp.dev(x), xp.dev(y), 2, full=True)
    assert len(g) == 5
    check(xp, g[0], e[0], rtol=rtol, atol=rtol)
    check(xp, g[1], e[1], rtol=rtol * 10, atol=rtol)
    assert int(g[2]) == e[2]
    check(xp, g[3], e[3], rtol=rtol, atol=rtol)
    assert float(g[4]) == pytest.approx(float(e[4]))


def test_polyfit_errors_and_warning(xp):
    x = np.arange(5.0)
    y = x ** 2
    bad = [((x, y, -1), {}), ((x.reshape(5, 1), y, 1), {}), ((x[:0], y[:0], 1), {}),
           ((x, y.reshape(5, 1, 1), 1), {}), ((x, y[:4], 1), {}),
           ((x, y, 1), {"w": np.ones((5, 1))}), ((x, y, 1), {"w": np.ones(4)}),
           ((x, y, 5), {"cov": True})]
    for args, kwargs in bad:
        dev_args = tuple(xp.dev(a) if isinstance(a, np.ndarray) else a for a in args)
        dev_kwargs = {k: xp.dev(v) if isinstance(v, np.ndarray) else v
                      for k, v in kwargs.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            same_outcome(xp, lambda: np.polyfit(*args, **kwargs),
                         lambda: ga.polyfit(*dev_args, **dev_kwargs))
    with pytest.warns(np.exceptions.RankWarning):
        ga.polyfit(xp.dev(np.ones(4)), xp.dev(np.arange(4.0)), 2)


# --- poly1d ------------------------------------------------------------------------------


def test_poly1d_construction_and_attributes(xp):
    c = np.array([0.0, 0.0, 1.0, -3.0, 2.0])
    e = np.poly1d(c)
    g = ga.poly1d(xp.dev(c))
    _same_poly(xp, g, e)
    assert g.order == e.order == g.o and len(g) == len(e)
    check(xp, g.c, e.c)
    check(xp, g.coef, e.coef)
    check(xp, g.coefficients, e.coefficients)
    np.testing.assert_allclose(_sorted_roots(xp.host(g.roots)), _sorted_roots(e.roots))
    np.testing.assert_allclose(_sorted_roots(xp.host(g.r)), _sorted_roots(e.r))
    _same_poly(xp, ga.poly1d(xp.dev(np.array([1.0, 2.0])), r=True),
               np.poly1d([1.0, 2.0], r=True))
    _same_poly(xp, ga.poly1d(xp.dev(c), variable="z"), np.poly1d(c, variable="z"))
    _same_poly(xp, ga.poly1d(g, variable="t"), np.poly1d(e, variable="t"))
    _same_poly(xp, ga.poly1d(xp.dev(np.zeros(3, np.int32))), np.poly1d(np.zeros(3, np.int32)))
    _same_poly(xp, ga.poly1d(5), np.poly1d(5))
    with pytest.raises(ValueError):
        ga.poly1d(xp.dev(np.ones((2, 2))))
    with pytest.raises(AttributeError):
        g.coeffs = xp.dev(c)
    assert g.__hash__ is None


def test_poly1d_text(xp):
    for c in ([1.0, -3.0, 2.0], [2j, 0, 1.5 + 1j], [0.0], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7]):
        c = np.array(c)
        assert str(ga.poly1d(xp.dev(c))) == str(np.poly1d(c))
        if xp.gpu:  # gpuarr arrays print as NumPy's (host stand-ins are NumPy arrays)
            assert repr(ga.poly1d(xp.dev(c))) == repr(np.poly1d(c))


def test_poly1d_arithmetic(xp):
    a = np.array([1.0, -3.0, 2.0])
    b = np.array([2.0, 1.0])
    ea, eb = np.poly1d(a), np.poly1d(b)
    ga_, gb = ga.poly1d(xp.dev(a)), ga.poly1d(xp.dev(b))
    pairs = [(ea + eb, ga_ + gb), (ea - eb, ga_ - gb), (ea * eb, ga_ * gb), (ea * 2, ga_ * 2),
             (3 * ea, 3 * ga_), (ea ** 3, ga_ ** 3), (ea ** 0, ga_ ** 0), (-ea, -ga_),
             (+ea, +ga_), (ea / 2, ga_ / 2), (2 + ea, 2 + ga_), (1 - ea, 1 - ga_),
             (ea.deriv(), ga_.deriv()), (ea.integ(2, 1.5), ga_.integ(2, 1.5)),
             (ea - [1, 1], ga_ - [1, 1])]
    for e, g in pairs:
        _same_poly(xp, g, e, rtol=1e-12)
    for e, g in ((ea / eb, ga_ / gb), (np.polydiv(a, eb), ga.polydiv(xp.dev(a), gb)),
                 ([1, 2] / eb, [1, 2] / gb)):
        _same_poly(xp, g[0], e[0], rtol=1e-12)
        _same_poly(xp, g[1], e[1], rtol=1e-12, atol=1e-12)
    _same_poly(xp, ga.polyadd(ga_, xp.dev(b)), np.polyadd(ea, b))
    _same_poly(xp, ga.polymul(xp.dev(a), gb), np.polymul(a, eb))
    _same_poly(xp, ga.polyder(ga_), np.polyder(ea))
    _same_poly(xp, ga.polyint(ga_, 0), np.polyint(ea, 0))
    _same_poly(xp, ga.polyint(ga_), np.polyint(ea))
    for bad in (-1, 1.5, [1]):
        with pytest.raises(ValueError):
            ga_ ** bad
    assert (ga_ == ga.poly1d(xp.dev(a))) is True and (ga_ != gb) is True
    assert (ga_ == gb) is False
    assert ga_.__eq__(1) is NotImplemented


def test_poly1d_call_items_and_iteration(xp):
    a = np.array([1.0, -3.0, 2.0])
    e, g = np.poly1d(a), ga.poly1d(xp.dev(a))
    x = np.array([0.5, 1.0, 4.0])
    check(xp, g(xp.dev(x)), e(x))
    check(xp, g(2.5), np.asarray(e(2.5)))
    _same_poly(xp, g(ga.poly1d(xp.dev(a))), e(np.poly1d(a)))
    for i in (-1, 0, 1, 2, 3):
        assert float(g[i]) == float(e[i])
    assert [float(v) for v in g] == [float(v) for v in e]
    e[4] = 7.0
    g[4] = 7.0
    _same_poly(xp, g, e)
    e[0] = -1.0
    g[0] = -1.0
    _same_poly(xp, g, e)
    with pytest.raises(ValueError):
        g[-1] = 2.0
