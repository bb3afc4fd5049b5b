"""NumPy's array utilities in gpuarr (shape/ndim/size, type helpers, memory overlap,
einsum_path, block, apply_along_axis, apply_over_axes, piecewise, require, broadcast,
ndenumerate, histogram_bin_edges) against NumPy, on the device and with NumPy standing in
for the device operations they are composed of."""

import numpy as np
import pytest

import gpuarr as ga
from _numpy_composed import check, same_outcome, xp  # noqa: F401  (xp is a fixture)
from conftest import GPU_MODULE, dtype_id, outcome, public_exception_type, random_array

DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint16", "int32", "int64", "float16",
                                "float32", "float64", "complex64", "complex128")]


def _same_value(np_call, ga_call):
    """Both raise an exception of the same public type, or return equal plain values."""
    kind_e, exp, _ = outcome(np_call)
    kind_g, got, _ = outcome(ga_call)
    if kind_e == "raise":
        assert kind_g == "raise", f"NumPy raised {exp!r}, gpuarr returned {got!r}"
        assert isinstance(got, public_exception_type(exp)), (got, exp)
    else:
        if kind_g == "raise":
            raise got
        assert type(got) is type(exp) and got == exp, (got, exp)


# --- shape queries and type helpers ------------------------------------------------------


@pytest.mark.parametrize("shape", [(), (0,), (3, 4), (2, 0, 3), (2, 3, 4)], ids=str)
def test_shape_ndim_size(xp, shape):
    h = np.zeros(shape, np.float32)
    d = xp.dev(h)
    views = [(h, d)] + ([(h.T, d.T), (h[..., ::-1], d[..., ::-1])] if h.ndim else [])
    for hv, dv in views:
        _same_value(lambda: np.shape(hv), lambda: ga.shape(dv))
        _same_value(lambda: np.ndim(hv), lambda: ga.ndim(dv))
        _same_value(lambda: np.size(hv), lambda: ga.size(dv))
        for axis in (0, -1, 2, (0, -1), (0, 0)):
            _same_value(lambda: np.size(hv, axis), lambda: ga.size(dv, axis))
    for obj in ([[1, 2, 3], [4, 5, 6]], 3.5, []):
        _same_value(lambda: np.shape(obj), lambda: ga.shape(obj))
        _same_value(lambda: np.ndim(obj), lambda: ga.ndim(obj))
        _same_value(lambda: np.size(obj), lambda: ga.size(obj))


@pytest.mark.parametrize("d1", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("d2", [np.dtype(np.int16), np.dtype(np.float32),
                                np.dtype(np.complex64)], ids=dtype_id)
def test_common_type(xp, d1, d2):
    h1, h2 = np.zeros(3, d1), np.zeros((2, 2), d2)
    _same_value(lambda: np.common_type(h1, h2), lambda: ga.common_type(xp.dev(h1),
                                                                       xp.dev(h2)))
    _same_value(lambda: np.common_type(h1), lambda: ga.common_type(xp.dev(h1)))
    _same_value(lambda: np.common_type(), lambda: ga.common_type())
    _same_value(lambda: np.common_type([1.0]), lambda: ga.common_type([1.0]))


def test_min_scalar_type(xp):
    for value, dtype in ((-1, np.int64), (300, np.int64), (1e50, np.float64), (0.5, np.float32),
                         (3, np.uint64), (True, np.bool_), (1 + 1j, np.complex128),
                         (-200, np.int16)):
        h = np.array(value, dtype)
        _same_value(lambda: np.min_scalar_type(h), lambda: ga.min_scalar_type(xp.dev(h)))
        h1 = np.array([value], dtype)
        _same_value(lambda: np.min_scalar_type(h1), lambda: ga.min_scalar_type(xp.dev(h1)))
        _same_value(lambda: np.min_scalar_type(value), lambda: ga.min_scalar_type(value))


def test_mintypecode(xp):
    for chars in (["f", "d"], "fd", ["F", "d"], "ilb", ["e"], [], "gG"):
        _same_value(lambda: np.mintypecode(chars), lambda: ga.mintypecode(chars))
        _same_value(lambda: np.mintypecode(chars, "fF", "F"), lambda: ga.mintypecode(chars,
                                                                                    "fF", "F"))
    arrays = [np.zeros(2, np.float32), np.zeros(3, np.complex64), np.zeros(1, np.int8)]
    _same_value(lambda: np.mintypecode(arrays),
                lambda: ga.mintypecode([xp.dev(a) for a in arrays]))
    for a in (np.zeros(3, np.float32), np.zeros(0, np.float32), np.zeros((), np.float32),
              np.zeros((2, 2), np.complex64)):
        _same_value(lambda: np.mintypecode(a), lambda: ga.mintypecode(xp.dev(a)))


def test_host_helpers(xp):
    d0, d1 = xp.dev(np.array(1.0)), xp.dev(np.arange(3.0))
    assert ga.isscalar(d0) is np.isscalar(np.array(1.0)) is False
    assert ga.isscalar(3.0) and not ga.isscalar([3.0])
    assert ga.iterable(d1) is True and ga.iterable(d0) is False
    assert ga.typename("d") == np.typename("d")
    assert ga.little_endian is np.little_endian
    assert list(ga.ndindex(2, 3)) == list(np.ndindex(2, 3))
    assert ga.exceptions.AxisError is np.exceptions.AxisError


# --- memory overlap ----------------------------------------------------------------------


class _FakeDeviceArray:
    """A host array seen through __cuda_array_interface__ only (as a device array is):
    checks the address arithmetic of shares_memory on a machine without a GPU."""

    def __init__(self, h):
        ai = h.__array_interface__
        self.size = h.size
        self.__cuda_array_interface__ = {
            "shape": ai["shape"], "typestr": ai["typestr"], "data": ai["data"],
            "strides": None if h.flags.c_contiguous else h.strides, "version": 3}


class _FakeGpuarrArray:
    """A host array seen as gpuarr's arrays are by shares_memory: through the ``_data_ptr``
    property of their type, never through __cuda_array_interface__ (exporting the address
    would mark the memory as shared outside gpuarr and stop deferred work on it)."""

    def __init__(self, h):
        self.size, self.shape, self.strides, self.dtype = h.size, h.shape, h.strides, h.dtype
        self._address = h.__array_interface__["data"][0]

    @property
    def _data_ptr(self):
        return self._address

    @property
    def __cuda_array_interface__(self):
        raise AssertionError("shares_memory exported a gpuarr array's address")


def _overlap_cases(base):
    return [(base, base), (base[:5], base[5:]), (base[:6], base[4:]), (base[::2], base[1::2]),
            (base[::2], base[2::4]), (base.reshape(4, 6)[:, :3], base.reshape(4, 6)[:, 3:]),
            (base.reshape(4, 6).T, base[7:9]), (base[:0], base), (base[3, ...], base[3:4]),
            (base[::-1], base[:1]), (base.reshape(4, 6)[::2, ::2], base.reshape(4, 6)[1::2])]


@pytest.mark.parametrize("fake", [_FakeDeviceArray, _FakeGpuarrArray])
@pytest.mark.parametrize("fn", ["shares_memory", "may_share_memory"])
def test_memory_overlap_address_arithmetic(fn, fake):
    assert isinstance(getattr(ga.ndarray, "_data_ptr", None), property)  # what the fake models
    base = np.arange(24, dtype=np.float64)
    other = np.arange(24, dtype=np.float64)
    cases = _overlap_cases(base) + [(base, other), (base.view(np.int32)[1::2], base[3:4])]
    for a, b in cases:
        for max_work in (-1, 0, 1):
            _same_value(lambda: getattr(np, fn)(a, b, max_work=max_work),
                        lambda: getattr(ga, fn)(fake(a), fake(b), max_work=max_work))
    assert getattr(ga, fn)(fake(base), _FakeDeviceArray(other)) is False
    assert getattr(ga, fn)(fake(base), base) is False  # device vs host memory
    assert getattr(ga, fn)(base, base[3:]) is True  # host arrays: NumPy's answer


def test_memory_overlap_too_hard():
    base = np.arange(24, dtype=np.float64)
    with pytest.raises(np.exceptions.TooHardError):
        np.shares_memory(base[::2], base[1::2], max_work=0)
    with pytest.raises(np.exceptions.TooHardError):
        ga.shares_memory(_FakeDeviceArray(base[::2]), _FakeDeviceArray(base[1::2]), max_work=0)


@pytest.mark.gpu
@GPU_MODULE[1]
def test_memory_overlap_on_device():
    base = np.arange(24, dtype=np.float64)
    d = ga.asarray(base)
    for (ha, hb), (da, db) in zip(_overlap_cases(base), _overlap_cases(d)):
        assert ga.shares_memory(da, db) == np.shares_memory(ha, hb)
        assert ga.may_share_memory(da, db) == np.may_share_memory(ha, hb)
        assert np.shares_memory(da, db) == np.shares_memory(ha, hb)  # NumPy's dispatch
    assert not ga.shares_memory(d, ga.asarray(base))
    assert not ga.may_share_memory(d, base)


@pytest.mark.gpu
@GPU_MODULE[1]
def test_memory_overlap_keeps_deferred_work():
    # Asking for overlap reads addresses only: the arrays' elementwise work is still
    # deferred afterwards, and a pending result is not launched by the question.
    from gpuarr import _core
    old = _core._set_lazy_min_size(1)
    try:
        a = ga.asarray(np.arange(64, dtype=np.float32))
        b = ga.asarray(np.ones(64, dtype=np.float32))
        t = a + b
        assert _core._is_pending(t)
        assert ga.shares_memory(t, t[3:]) and not ga.may_share_memory(a, b)
        assert not ga.shares_memory(a, t)
        assert _core._is_pending(t)
        assert _core._is_pending(a * 2.0) and _core._is_pending(b - 1.0)
        np.testing.assert_array_equal(ga.asnumpy(t), np.arange(64, dtype=np.float32) + 1)
        for v in (a, a[5:], a[::-3]):
            assert v._data_ptr == v.__cuda_array_interface__["data"][0]
    finally:
        _core._set_lazy_min_size(old)


# --- einsum_path -------------------------------------------------------------------------


def test_einsum_path(xp, rng):
    a, b, c = (random_array(rng, s, np.float64) for s in ((4, 5), (5, 6), (6, 3)))
    for optimize in ("greedy", "optimal", True, False, ["einsum_path", (1, 2), (0, 1)]):
        _same_value(lambda: np.einsum_path("ij,jk,kl->il", a, b, c, optimize=optimize),
                    lambda: ga.einsum_path("ij,jk,kl->il", xp.dev(a), xp.dev(b), xp.dev(c),
                                           optimize=optimize))
    _same_value(lambda: np.einsum_path(a, [0, 1], b, [1, 2], [0, 2]),
                lambda: ga.einsum_path(xp.dev(a), [0, 1], xp.dev(b), [1, 2], [0, 2]))
    _same_value(lambda: np.einsum_path("ij,jk->ik", a, c), lambda: ga.einsum_path(
        "ij,jk->ik", xp.dev(a), xp.dev(c)))
    _same_value(lambda: np.einsum_path("ij,j->i", a, [1, 2, 3, 4, 5]),
                lambda: ga.einsum_path("ij,j->i", xp.dev(a), [1, 2, 3, 4, 5]))


# --- block -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64, np.bool_], ids=dtype_id)
def test_block(xp, rng, dtype):
    a = random_array(rng, (2, 3), dtype)
    b = random_array(rng, (2, 2), dtype)
    c = random_array(rng, (1, 5), dtype)
    v = random_array(rng, (3,), dtype)
    e = random_array(rng, (0, 5), dtype)
    A, B, C, V, E = (xp.dev(x) for x in (a, b, c, v, e))
    cases = [
        (lambda m: [[m[0], m[1]], [m[2]]], (a, b, c)),
        (lambda m: [m[0], m[0][::-1]], (v,)),
        (lambda m: [[m[0]], [m[1]]], (v, v)),
        (lambda m: m[0], (a,)),
        (lambda m: [m[0], 1, m[0]], (v,)),
        (lambda m: [[[m[0]]], [[m[0]]]], (a,)),
        (lambda m: [[m[0].T, m[0].T]], (a,)),
        (lambda m: [[m[0]], [m[1]]], (c, e)),
        (lambda m: [1, 2, 3], ()),
        (lambda m: [[1, 2], [3, 4]], ()),
        (lambda m: 5, ()),
    ]
    dev = {id(a): A, id(b): B, id(c): C, id(v): V, id(e): E}
    for build, arrays in cases:
        same_outcome(xp, lambda: np.block(build(arrays)),
                     lambda: ga.block(build(tuple(dev[id(x)] for x in arrays))))
    # a single array: a new array, not the input
    r = ga.block(A)
    r[0, 0] = 0
    check(xp, A, a)


def test_block_errors(xp):
    a = np.ones((2, 2))
    A = xp.dev(a)
    for build in (lambda m: [[m], m], lambda m: [], lambda m: [[m], []],
                  lambda m: (m, m), lambda m: [(m, m)], lambda m: [[m, m], [m]],
                  lambda m: [[1], [[1]]], lambda m: [[]]):
        same_outcome(xp, lambda: np.block(build(a)), lambda: ga.block(build(A)))


# --- per-slice application ---------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4)], ids=str)
def test_apply_along_axis(xp, rng, dtype, shape):
    h = random_array(rng, shape, dtype)
    d = xp.dev(h)
    # A sum's rounding depends on the order of its additions, which the device's differs in:
    # an absolute tolerance of a few ulps of the terms' magnitudes (about 100) there.
    sum_atol = {np.float32: 1e-3, np.complex128: 1e-11}.get(dtype, 0.0)
    funcs = [(lambda r: r * 2, 0.0), (lambda r: r.sum(), sum_atol),
             (lambda r: r[::-1][:2], 0.0), (lambda r, k=3: (r[:2] * k).reshape(2, 1), 0.0),
             (lambda r: r[:0], 0.0)]
    for views in ((h, d), (h[..., ::-1], d[..., ::-1]), (h.T, d.T)):
        for axis in range(-h.ndim, h.ndim):
            for f, atol in funcs:
                same_outcome(xp, lambda: np.apply_along_axis(f, axis, views[0]),
                             lambda: ga.apply_along_axis(f, axis, views[1]), atol=atol)
    same_outcome(xp, lambda: np.apply_along_axis(lambda r, k: r * k, 0, h, 3),
                 lambda: ga.apply_along_axis(lambda r, k: r * k, 0, d, 3))
    same_outcome(xp, lambda: np.apply_along_axis(lambda r, k=1: r + k, 0, h, k=2),
                 lambda: ga.apply_along_axis(lambda r, k=1: r + k, 0, d, k=2))
    same_outcome(xp, lambda: np.apply_along_axis(lambda r: r, h.ndim, h),
                 lambda: ga.apply_along_axis(lambda r: r, h.ndim, d))


def test_apply_along_axis_errors(xp):
    h = np.zeros((0, 3))
    same_outcome(xp, lambda: np.apply_along_axis(lambda r: r, 1, h),
                 lambda: ga.apply_along_axis(lambda r: r, 1, xp.dev(h)))
    h0 = np.array(1.0)
    same_outcome(xp, lambda: np.apply_along_axis(lambda r: r, 0, h0),
                 lambda: ga.apply_along_axis(lambda r: r, 0, xp.dev(h0)))


def test_apply_over_axes(xp, rng):
    h = random_array(rng, (2, 3, 4), np.float64)
    d = xp.dev(h)

    def keep(a, axis):
        return a.sum(axis=axis, keepdims=True)

    def drop(a, axis):
        return a.sum(axis=axis)

    for func in (keep, drop):
        for axes in (0, [0, 2], (1, -1), [], [-3, -2, -1]):
            same_outcome(xp, lambda: np.apply_over_axes(func, h, axes),
                         lambda: ga.apply_over_axes(func, d, axes), rtol=1e-12)
    same_outcome(xp, lambda: np.apply_over_axes(lambda a, ax: a.sum(), h, [0, 1]),
                 lambda: ga.apply_over_axes(lambda a, ax: a.sum(), d, [0, 1]))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64], ids=dtype_id)
def test_piecewise(xp, dtype):
    h = np.array([-3, -1, 0, 2, 5, 7], dtype)
    d = xp.dev(h)
    hr = h.real if np.dtype(dtype).kind == "c" else h
    dr = xp.dev(hr)

    def conds(x):
        return [x < 0, x >= 5]

    for funcs in ([lambda x: -x, lambda x: x * 2], [lambda x: -x, 1, lambda x: x + 1],
                  [0, 1], [lambda x: x * 0 + 9, 1, 2]):
        same_outcome(xp, lambda: np.piecewise(h, conds(hr), funcs),
                     lambda: ga.piecewise(d, conds(dr), funcs))
    same_outcome(xp, lambda: np.piecewise(h, hr > 0, [lambda x: x * 3, -1]),
                 lambda: ga.piecewise(d, dr > 0, [lambda x: x * 3, -1]))
    same_outcome(xp, lambda: np.piecewise(h, conds(hr), [lambda x, k: x * k, 5], 4),
                 lambda: ga.piecewise(d, conds(dr), [lambda x, k: x * k, 5], 4))
    same_outcome(xp, lambda: np.piecewise(h, [hr > 100], [lambda x: x * 3]),
                 lambda: ga.piecewise(d, [dr > 100], [lambda x: x * 3]))
    same_outcome(xp, lambda: np.piecewise(h[::-2], [hr[::-2] > 0], [1]),
                 lambda: ga.piecewise(d[::-2], [dr[::-2] > 0], [1]))
    h0 = np.array(2, dtype)
    same_outcome(xp, lambda: np.piecewise(h0, True, [7, 8]),
                 lambda: ga.piecewise(xp.dev(h0), True, [7, 8]))
    same_outcome(xp, lambda: np.piecewise(h0, [True, False], [7, 8]),
                 lambda: ga.piecewise(xp.dev(h0), [True, False], [7, 8]))
    same_outcome(xp, lambda: np.piecewise(h, conds(hr), [1]),
                 lambda: ga.piecewise(d, conds(dr), [1]))
    same_outcome(xp, lambda: np.piecewise(h, conds(hr), [1, 2, 3, 4]),
                 lambda: ga.piecewise(d, conds(dr), [1, 2, 3, 4]))


def test_require(xp, rng):
    h = random_array(rng, (3, 4), np.float32)
    d = xp.dev(h)
    for hv, dv in ((h, d), (h.T, d.T), (h[:, ::2], d[:, ::2])):
        for req in (None, "C", "F", ["A", "W"], ["O"], "E", ["C_CONTIGUOUS", "OWNDATA"],
                    ["fortran", "aligned"], "CF", ["X"]):
            for dtype in (None, np.float64):
                kind_e, e, _ = outcome(lambda: np.require(hv, dtype, req))
                kind_g, g, _ = outcome(lambda: ga.require(dv, dtype, req))
                if kind_e == "raise":
                    assert kind_g == "raise" and isinstance(g, public_exception_type(e)), g
                    continue
                if kind_g == "raise":
                    raise g
                check(xp, g, e)
                for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA"):
                    if req and any(r.upper() in ("C", "F", "O", "C_CONTIGUOUS", "FORTRAN",
                                                 "OWNDATA") for r in req):
                        assert g.flags[flag] == e.flags[flag], (req, flag)
    check(xp, ga.require([1, 2, 3]), np.require([1, 2, 3]))


# --- iteration protocols -----------------------------------------------------------------


def test_broadcast(xp, rng):
    x = random_array(rng, (3, 1), np.float64)
    y = random_array(rng, (4,), np.int32)
    z = np.array(5.0)
    e = np.broadcast(x, y, z)
    g = ga.broadcast(xp.dev(x), xp.dev(y), xp.dev(z))
    assert (g.shape, g.ndim, g.nd, g.size, g.numiter, g.index) == \
        (e.shape, e.ndim, e.nd, e.size, e.numiter, e.index)
    assert [tuple(map(complex, t)) for t in g] == [tuple(map(complex, t)) for t in e]
    assert g.index == e.index
    g.reset()
    e.reset()
    assert g.index == e.index == 0
    assert next(g) == next(e)
    assert len(g.iters) == len(e.iters) == 3
    nested_e = np.broadcast(np.broadcast(x, y), y)
    nested_g = ga.broadcast(ga.broadcast(xp.dev(x), xp.dev(y)), xp.dev(y))
    assert (nested_g.shape, nested_g.numiter) == (nested_e.shape, nested_e.numiter)
    mixed = ga.broadcast(xp.dev(x), [1, 2, 3, 4])
    assert mixed.shape == (3, 4)
    assert ga.broadcast().shape == np.broadcast().shape
    assert ga.broadcast(xp.dev(np.zeros((0, 3)))).size == 0
    assert ga.broadcast(xp.dev(x), xp.dev(np.zeros((2, 3, 4)))).shape == (2, 3, 4)
    e_err = outcome(lambda: np.broadcast(np.zeros(3), np.zeros(4)))[1]
    g_err = outcome(lambda: ga.broadcast(xp.dev(np.zeros(3)), xp.dev(np.zeros(4))))[1]
    assert type(g_err) is type(e_err) and str(g_err) == str(e_err)


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3)], ids=str)
def test_ndenumerate(xp, rng, shape):
    h = random_array(rng, shape, np.int16)
    got = list(ga.ndenumerate(xp.dev(h)))
    expected = list(np.ndenumerate(h))
    assert got == expected
    assert all(type(g[1]) is type(e[1]) for g, e in zip(got, expected))
    if h.ndim == 2:
        assert list(ga.ndenumerate(xp.dev(h).T)) == list(np.ndenumerate(h.T))
    assert list(ga.ndenumerate([[1, 2], [3, 4]])) == list(np.ndenumerate([[1, 2], [3, 4]]))


# --- histogram_bin_edges -----------------------------------------------------------------

ESTIMATORS = ["auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"]


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.float32, np.float64],
                         ids=dtype_id)
def test_histogram_bin_edges(xp, rng, dtype):
    h = (rng.standard_normal(200) * 20).astype(dtype) if np.dtype(dtype).kind != "u" else \
        rng.integers(0, 1000, 200).astype(dtype)
    d = xp.dev(h)
    rtol = 1e-6 if np.dtype(dtype).char == "f" else 1e-12
    for bins in [10, 1, np.int64(3), [0, 1, 5.5, 9], "auto"] + ESTIMATORS:
        for rng_ in (None, (-10, 30)):
            same_outcome(xp, lambda: np.histogram_bin_edges(h, bins, rng_),
                         lambda: ga.histogram_bin_edges(d, bins, rng_), rtol=rtol)
    same_outcome(xp, lambda: np.histogram_bin_edges(h.reshape(10, 20)[:, ::3], 7),
                 lambda: ga.histogram_bin_edges(d.reshape(10, 20)[:, ::3], 7), rtol=rtol)
    same_outcome(xp, lambda: np.histogram_bin_edges(h[:0], "fd"),
                 lambda: ga.histogram_bin_edges(d[:0], "fd"))
    same_outcome(xp, lambda: np.histogram_bin_edges(h[:1], 4),
                 lambda: ga.histogram_bin_edges(d[:1], 4), rtol=rtol)
    same_outcome(xp, lambda: np.histogram_bin_edges(h[:1], "scott"),
                 lambda: ga.histogram_bin_edges(d[:1], "scott"), rtol=rtol)


def test_histogram_bin_edges_bool_and_errors(xp):
    h = np.array([True, False, True, True])
    d = xp.dev(h)
    with pytest.warns(RuntimeWarning):
        got = ga.histogram_bin_edges(d, 3)
    with pytest.warns(RuntimeWarning):
        expected = np.histogram_bin_edges(h, 3)
    check(xp, got, expected)
    x = np.array([1.0, 2.0, 5.0, 3.0])
    dx = xp.dev(x)
    bad = [((0,), {}), ((-2,), {}), ((1.5,), {}), (("nope",), {}), (([[1, 2]],), {}),
           (([3, 1, 2],), {}), ((3, (5, 1)), {}), ((3, (0, np.inf)), {}),
           (("auto",), {"weights": np.ones(4)}), ((3,), {"weights": np.ones(3)}),
           ((10 ** 18, (0, 1e-300)), {})]
    for args, kwargs in bad:
        dev_kwargs = {k: xp.dev(v) for k, v in kwargs.items()}
        same_outcome(xp, lambda: np.histogram_bin_edges(x, *args, **kwargs),
                     lambda: ga.histogram_bin_edges(dx, *args, **dev_kwargs))
    same_outcome(xp, lambda: np.histogram_bin_edges(np.array([1.0, np.nan]), 3),
                 lambda: ga.histogram_bin_edges(xp.dev(np.array([1.0, np.nan])), 3))
    same_outcome(xp, lambda: np.histogram_bin_edges(x, 3, weights=np.ones(4)),
                 lambda: ga.histogram_bin_edges(dx, 3, weights=xp.dev(np.ones(4))))
