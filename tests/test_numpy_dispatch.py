"""NumPy's protocols on gpuarr arrays: __array_ufunc__ (ufunc calls with out=, reduce,
accumulate, outer; NotImplemented -> TypeError for at/reduceat and unknown ufuncs) and
__array_function__ (functions gpuarr implements run on the GPU; mixed host operands for
the comparison helpers; TypeError naming functions gpuarr lacks), plus get_array_module
and the comparison helpers themselves against NumPy."""

import inspect

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test, random_array


# --- host-only: the protocol plumbing -----------------------------------------------------

def test_protocols_installed():
    assert gpuarr.ndarray.__array_ufunc__ is not None
    assert callable(gpuarr.ndarray.__array_function__)


def _implementation(f):
    # A public function that defers to foreign __array_function__ arguments wraps gpuarr's
    # implementation, which NumPy's dispatch onto gpuarr arrays calls directly.
    return getattr(f, "_gpuarr_implementation", f)


def test_name_lookup():
    from gpuarr._numpy_dispatch import _lookup, _gpuarr_ufunc
    assert _lookup(np.concatenate) is _implementation(gpuarr.concatenate)
    assert _lookup(np.sum) is _implementation(gpuarr.sum)
    assert _lookup(np.linalg.norm) is _implementation(gpuarr.linalg.norm)
    assert _lookup(np.allclose) is _implementation(gpuarr.allclose)
    assert _lookup(np.array_equiv) is _implementation(gpuarr.array_equiv)
    assert _lookup(np.convolve) is _implementation(gpuarr.convolve)
    assert _lookup(np.fft.fft) is _implementation(gpuarr.fft.fft)
    assert _lookup(np.datetime_as_string) is None  # not applicable: no datetime dtypes
    assert _gpuarr_ufunc("sqrt") is gpuarr.sqrt
    assert _gpuarr_ufunc("matmul") is gpuarr.matmul
    assert _gpuarr_ufunc("no_such_ufunc") is None


class _Foreign:
    """An array type of another library: it takes NumPy functions through
    __array_function__ and records the calls."""

    def __init__(self, answer=None):
        self.answer = answer
        self.calls = []

    def __array_function__(self, func, types, args, kwargs):
        self.calls.append((func, types, args, kwargs))
        return NotImplemented if self.answer is None else self.answer


class _ForeignSubclass(_Foreign):
    pass


def test_gpuarr_functions_defer_to_foreign_array_function():
    f = _Foreign("sum")
    assert gpuarr.sum(f, axis=0) == "sum"
    (func, types, args, kwargs), = f.calls
    assert func is np.sum and types == (_Foreign,) and args == (f,) and kwargs == {"axis": 0}
    # Arguments inside a list (concatenate's arrays), keyword arguments, submodules.
    g = _Foreign("concatenate")
    assert gpuarr.concatenate([g, g], axis=1) == "concatenate"
    assert g.calls[0][0] is np.concatenate and len(g.calls) == 1
    h = _Foreign("tensordot")
    assert gpuarr.tensordot(1.0, b=h, axes=0) == "tensordot"
    # The call reaches the foreign type as one NumPy's function binds the same way (required
    # parameters by position, the others by keyword when not at their default).
    func, _, args, kwargs = h.calls[0]
    assert func is np.tensordot
    assert inspect.signature(np.tensordot).bind(*args, **kwargs).arguments == \
        {"a": 1.0, "b": h, "axes": 0}
    assert gpuarr.linalg.norm(_Foreign("norm")) == "norm"
    assert gpuarr.fft.fft(_Foreign("fft")) == "fft"
    # Subclasses before their bases, as NumPy orders overrides.
    base, sub = _Foreign("base"), _ForeignSubclass("sub")
    assert gpuarr.stack([base, sub]) == "sub"
    assert not base.calls


def test_foreign_array_function_not_implemented_is_type_error():
    f = _Foreign()
    with pytest.raises(TypeError, match="no implementation found for 'numpy.sum'"):
        gpuarr.sum(f)
    assert len(f.calls) == 1


def test_deferring_wrappers_have_their_implementations_parameters():
    # The generated wrapper's own parameters (not the ones inspect follows __wrapped__ to);
    # only the extension's functions get the generic (*args, **kwargs) wrapper.
    checked = 0
    for ns in (gpuarr, gpuarr.linalg, gpuarr.fft):
        for name in ns.__all__:
            f = getattr(ns, name)
            impl = getattr(f, "_gpuarr_implementation", None)
            if impl is None:
                continue
            if not inspect.isfunction(impl):
                assert f.__code__.co_name == "call", name
                continue
            own = inspect.signature(f, follow_wrapped=False)
            ref = inspect.signature(impl, follow_wrapped=False)
            assert [(p.name, p.kind, p.default) for p in own.parameters.values()] == \
                [(p.name, p.kind, p.default) for p in ref.parameters.values()], name
            checked += 1
    assert checked > 200


def test_generated_wrappers_are_current():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parent.parent / "tools" / "generate_deferring.py"
    spec = importlib.util.spec_from_file_location("generate_deferring", path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    from gpuarr import _deferring_wrappers
    assert pathlib.Path(_deferring_wrappers.__file__).read_text() == tool.generate(), \
        "run python tools/generate_deferring.py"


def test_plain_calls_take_the_fast_path(monkeypatch):
    from gpuarr import _numpy_dispatch
    deferred = []
    real = _numpy_dispatch._call_deferring
    monkeypatch.setattr(_numpy_dispatch, "_call_deferring",
                        lambda *a: deferred.append(a) or real(*a))

    def impl(a, shape=None, *, order="C"):
        return ("impl", a, shape, order)

    w = _numpy_dispatch._deferring(impl, np.reshape)
    assert w(1.0, (3, 4)) == ("impl", 1.0, (3, 4), "C")
    assert w(1.0, shape=[2, 6], order="F") == ("impl", 1.0, [2, 6], "F")
    many = list(range(100000))  # numbers: not scanned
    assert w(1.0, many)[2] is many
    assert not deferred
    f = _Foreign("deferred")
    assert w(1.0, [f, f]) == "deferred" and len(deferred) == 1
    assert w(f, order="F") == "deferred"
    func, types, args, kwargs = f.calls[-1]
    assert func is np.reshape and args == (f,) and kwargs == {"order": "F"}


def test_deferring_functions_keep_their_identity():
    from gpuarr import _reductions
    assert gpuarr.sum.__name__ == "sum" and gpuarr.sum.__doc__ == _reductions.sum.__doc__
    assert inspect.signature(gpuarr.sum) == inspect.signature(_reductions.sum)
    # Every public function NumPy dispatches through __array_function__ defers; ufuncs defer
    # through the ufunc binding, and functions NumPy does not dispatch are left as they are.
    for ns, np_ns in ((gpuarr, np), (gpuarr.linalg, np.linalg), (gpuarr.fft, np.fft)):
        for name in ns.__all__:
            obj, np_obj = getattr(ns, name), getattr(np_ns, name, None)
            dispatched = (hasattr(np_obj, "_implementation") and callable(obj)
                          and not isinstance(obj, (type, gpuarr.ufunc)))
            assert hasattr(obj, "_gpuarr_implementation") == dispatched, (ns.__name__, name)
    assert not hasattr(gpuarr.empty, "_gpuarr_implementation")  # numpy.empty: like= only


def test_get_array_module_host():
    assert gpuarr.get_array_module(np.zeros(2), 1.0) is np
    assert gpuarr.get_array_module() is np


@gpu_test
def test_get_array_module():
    assert gpuarr.get_array_module(np.zeros(2), 1.0) is np
    assert gpuarr.get_array_module() is np
    assert gpuarr.get_array_module(np.zeros(2), gpuarr.zeros(2)) is gpuarr


@gpu_test
@pytest.mark.parametrize("name", ["sqrt", "exp", "negative", "absolute", "sin", "isnan",
                                  "logical_not", "floor", "sign"])
def test_unary_ufuncs(rng, name):
    h = np.abs(random_array(rng, (3, 4), np.float64))
    d = gpuarr.asarray(h)
    r = getattr(np, name)(d)
    expected = getattr(np, name)(h)
    assert isinstance(r, gpuarr.ndarray) and r.dtype == expected.dtype
    np.testing.assert_allclose(r.get(), expected, rtol=1e-14)  # libm may differ by an ulp


@gpu_test
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "true_divide", "power",
                                  "maximum", "greater", "arctan2", "floor_divide",
                                  "bitwise_and"])
def test_binary_ufuncs(rng, name):
    dt = np.int64 if name == "bitwise_and" else np.float32
    h1 = np.abs(random_array(rng, (4, 3), dt)) % 50 + 1
    h2 = np.abs(random_array(rng, (3,), dt)) % 7 + 1
    d1, d2 = gpuarr.asarray(h1), gpuarr.asarray(h2)
    f = getattr(np, name)
    r = f(d1, d2)
    assert isinstance(r, gpuarr.ndarray)
    if r.dtype == np.bool_:
        np.testing.assert_array_equal(r.get(), f(h1, h2))
    else:
        np.testing.assert_allclose(r.get(), f(h1, h2), rtol=1e-6)
    assert r.dtype == f(h1, h2).dtype
    # A Python scalar stays weak.
    assert f(d1, 2).dtype == f(h1, 2).dtype


@gpu_test
def test_ufunc_out_and_scalars():
    h = np.arange(6.0).reshape(2, 3)
    d = gpuarr.asarray(h)
    r = np.add(d, 1, out=d)
    assert r is d
    np.testing.assert_array_equal(d.get(), h + 1)
    o = gpuarr.empty((2, 3))
    r = np.multiply(d, d, out=(o,))
    assert r is o
    np.testing.assert_array_equal(o.get(), (h + 1) ** 2)
    # NumPy scalars on the left defer to gpuarr.
    r = np.float64(2.0) * d
    assert isinstance(r, gpuarr.ndarray)
    np.testing.assert_array_equal(r.get(), 2 * (h + 1))
    q, m = np.divmod(d, 4)
    np.testing.assert_array_equal(q.get(), (h + 1) // 4)
    np.testing.assert_array_equal(m.get(), (h + 1) % 4)


@gpu_test
def test_ufunc_methods():
    h = np.arange(1.0, 13.0).reshape(3, 4)
    d = gpuarr.asarray(h)
    for axis in (0, 1, None):
        np.testing.assert_allclose(np.add.reduce(d, axis=axis).get(), np.add.reduce(h, axis=axis))
    np.testing.assert_allclose(np.multiply.reduce(d).get(), np.multiply.reduce(h))
    np.testing.assert_allclose(np.maximum.reduce(d, axis=1, keepdims=True).get(),
                               np.maximum.reduce(h, axis=1, keepdims=True))
    np.testing.assert_allclose(np.add.accumulate(d, axis=1).get(), np.add.accumulate(h, axis=1))
    np.testing.assert_allclose(np.multiply.outer(d[0], d[1]).get(), np.multiply.outer(h[0], h[1]))
    with pytest.raises(TypeError):
        np.add.at(d, [0, 1], 1.0)
    with pytest.raises(TypeError):
        np.add.reduceat(d, [0, 2], axis=1)


@gpu_test
def test_ufunc_host_operand_is_type_error():
    d = gpuarr.arange(3.0)
    with pytest.raises(TypeError):
        np.add(d, np.arange(3.0))


@gpu_test
def test_ufunc_unknown_to_gpuarr():
    d = gpuarr.arange(1.0, 4.0)
    # ufuncs gpuarr does not provide (yet) make NumPy raise TypeError, not convert.
    for f in (np.spacing, np.frexp):
        if gpuarr._ufuncs._UFUNCS.get(f.__name__) is None:
            with pytest.raises(TypeError):
                f(d)


@gpu_test
def test_matmul_ufunc_dispatch(rng):
    h1 = random_array(rng, (3, 4), np.float64)
    h2 = random_array(rng, (4, 2), np.float64)
    r = np.matmul(gpuarr.asarray(h1), gpuarr.asarray(h2))
    assert isinstance(r, gpuarr.ndarray)
    np.testing.assert_allclose(r.get(), h1 @ h2, rtol=1e-12)


@gpu_test
def test_array_function_dispatch(rng):
    h = random_array(rng, (4, 5), np.float64)
    d = gpuarr.asarray(h)
    cases = [
        (np.sum, (d,), {"axis": 0}, (h,)),
        (np.mean, (d,), {}, (h,)),
        (np.concatenate, ([d, d],), {"axis": 1}, ([h, h],)),
        (np.stack, ([d, d],), {}, ([h, h],)),
        (np.transpose, (d,), {}, (h,)),
        (np.reshape, (d, (5, 4)), {}, (h, (5, 4))),
        (np.where, (d > 0, d, 0.0), {}, (h > 0, h, 0.0)),
        (np.einsum, ("ij,kj->ik", d, d), {}, ("ij,kj->ik", h, h)),
        (np.dot, (d, d.T), {}, (h, h.T)),
        (np.sort, (d,), {"axis": 1}, (h,)),
        (np.cumsum, (d,), {"axis": 0}, (h,)),
        (np.linalg.norm, (d,), {}, (h,)),
        (np.clip, (d, -1.0, 1.0), {}, (h, -1.0, 1.0)),
    ]
    for f, dargs, kw, hargs in cases:
        hargs = [x.get() if isinstance(x, gpuarr.ndarray) else x for x in hargs]
        if f is np.where:
            hargs = [h > 0, h, 0.0]
        r = f(*dargs, **kw)
        assert isinstance(r, gpuarr.ndarray), f.__name__
        np.testing.assert_allclose(r.get(), f(*hargs, **kw), rtol=1e-12, err_msg=f.__name__)


@gpu_test
def test_array_function_missing_is_type_error():
    d = gpuarr.arange(4.0)
    missing = [f for f in (np.piecewise, np.apply_along_axis, np.nanpercentile, np.busday_count)
               if not hasattr(gpuarr, f.__name__)]
    assert missing, "pick functions gpuarr lacks"
    f = missing[0]
    with pytest.raises(TypeError, match=f.__name__):
        f(d, [d > 1], [0, 1]) if f is np.piecewise else f(d)


@gpu_test
def test_convolve_dispatch_when_available(rng):
    if not hasattr(gpuarr, "convolve"):
        pytest.skip("gpuarr.convolve comes with the fft-signal area")
    a, v = random_array(rng, (50,), np.float64), random_array(rng, (7,), np.float64)
    r = np.convolve(gpuarr.asarray(a), gpuarr.asarray(v))
    assert isinstance(r, gpuarr.ndarray)
    np.testing.assert_allclose(r.get(), np.convolve(a, v), rtol=1e-9, atol=1e-9)


# --- comparison helpers --------------------------------------------------------------------

_CLOSE_CASES = [
    (np.array([1.0, 2.0, np.inf, -np.inf, np.nan, 1e-9]),
     np.array([1.0 + 1e-6, 2.1, np.inf, np.inf, np.nan, 0.0])),
    (np.array([1, 2, 3], dtype=np.int32), np.array([1, 2, 4], dtype=np.int64)),
    (np.array([[1.0, 2.0]], dtype=np.float32), np.array([1.0, 2.00001], dtype=np.float32)),
    (np.array([True, False]), np.array([1.0, 0.0])),
    (np.array([1 + 1j, np.nan + 0j]), np.array([1 + 1.000001j, np.nan + 0j])),
    (np.array([0.0, 1.0]), 1e-9),
    (np.array([0, 1], dtype=np.uint8), np.array([0, 1], dtype=np.int8)),
]


@gpu_test
@pytest.mark.parametrize("equal_nan", [False, True])
@pytest.mark.parametrize("case", range(len(_CLOSE_CASES)))
@pytest.mark.parametrize("mode", ["device", "mixed", "numpy_api"])
def test_isclose_allclose(case, equal_nan, mode):
    a, b = _CLOSE_CASES[case]
    da = gpuarr.asarray(a)
    db = b if mode == "mixed" or np.ndim(b) == 0 else gpuarr.asarray(b)
    exp = np.isclose(a, b, equal_nan=equal_nan)
    if mode == "numpy_api":
        r = np.isclose(da, db, equal_nan=equal_nan)
        ra = np.allclose(da, db, equal_nan=equal_nan)
    else:
        r = gpuarr.isclose(da, db, equal_nan=equal_nan)
        ra = gpuarr.allclose(da, db, equal_nan=equal_nan)
    assert isinstance(r, gpuarr.ndarray) and isinstance(ra, gpuarr.ndarray)
    assert r.dtype == np.bool_ and ra.shape == ()
    np.testing.assert_array_equal(r.get(), exp)
    assert bool(ra) == bool(np.allclose(a, b, equal_nan=equal_nan))


@gpu_test
def test_allclose_mixed_seed_003():
    h = np.linspace(0, 1, 101)
    d = gpuarr.asarray(h)
    r = np.allclose(d, h)  # the host operand moves to the device
    assert isinstance(r, gpuarr.ndarray) and bool(r)
    assert not bool(np.allclose(h + 1e-3, d))
    assert bool(gpuarr.allclose(d, h + 1e-9, atol=1e-8, rtol=0))


@gpu_test
@pytest.mark.parametrize("fn", ["array_equal", "array_equiv"])
def test_array_equal_equiv(fn):
    cases = [
        (np.arange(6).reshape(2, 3), np.arange(6).reshape(2, 3)),
        (np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2)),
        (np.arange(3), np.arange(3).reshape(1, 3).repeat(2, 0)),
        (np.array([1.0, np.nan]), np.array([1.0, np.nan])),
        (np.array([1, 2]), np.array([1.0, 2.0])),
        (np.array([1, 2]), np.array([1, 3])),
        (np.zeros((0, 2)), np.zeros((0, 2))),
    ]
    for a, b in cases:
        for mixed in (False, True):
            db = b if mixed else gpuarr.asarray(b)
            r = getattr(gpuarr, fn)(gpuarr.asarray(a), db)
            assert isinstance(r, gpuarr.ndarray) and r.shape == ()
            assert bool(r) == getattr(np, fn)(a, b), (a, b)
            assert bool(getattr(np, fn)(gpuarr.asarray(a), db)) == getattr(np, fn)(a, b)
    if fn == "array_equal":
        a = np.array([1.0, np.nan])
        assert bool(gpuarr.array_equal(gpuarr.asarray(a), gpuarr.asarray(a), equal_nan=True))
        assert bool(np.array_equal(gpuarr.asarray(a), a, equal_nan=True))


@gpu_test
def test_implicit_conversion_still_refused():
    d = gpuarr.arange(3.0)
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(d)
