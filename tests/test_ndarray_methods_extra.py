"""ndarray methods against NumPy's: view (dtype and type), getfield/setfield, byteswap,
flat (gpuarr.flatiter), resize, setflags, tobytes, dump/dumps, clip, round, choose.

The Python-composed ones (view's layout rules, getfield, byteswap, flatiter, setflags) run
twice: on the device (skipped without one) and with NumPy standing in for the device
(``_numpy_standin`` plus a NumPy ``_strided_view`` below), which checks their rules, index
arithmetic and order of operations on any machine. The others need device arrays."""

import io
import pickle

import numpy as np
import pytest

import _device_standin
import _numpy_standin
import gpuarr
from conftest import ALL_DTYPES, assert_same_exception, gpu_test, outcome, requires_gpu
from gpuarr import _flatiter, _ndarray_methods


class _Holder:
    """Keeps the viewed array alive under a NumPy view made from an array interface."""

    def __init__(self, base, interface):
        self.base = base
        self.__array_interface__ = interface


def _np_strided_view(a, shape, strides, offset=0, dtype=None):
    # _core._strided_view on host memory: the same bytes, another layout (and dtype).
    dtype = a.dtype if dtype is None else np.dtype(dtype)
    interface = {"data": (a.__array_interface__["data"][0] + offset, False),
                 "shape": tuple(shape), "strides": tuple(strides), "typestr": dtype.str,
                 "version": 3}
    return np.asarray(_Holder(a, interface))


@pytest.fixture(params=["standin", pytest.param("device", marks=[pytest.mark.gpu,
                                                                    requires_gpu])])
def mode(request, monkeypatch):
    if request.param == "standin":
        _numpy_standin.install(monkeypatch)
        _device_standin.install(monkeypatch, {"_strided_view": _np_strided_view})
    return request.param


def _make(mode, host, index=()):
    """``host[index]`` on the device (a strided device view when the index makes one), or the
    host view itself under the stand-in."""
    if mode == "standin":
        return _sub(host, index)
    return gpuarr.asarray(host)[index]


def _sub(host, index):
    # host[index], an array also for 0-d ``host`` (where NumPy's host[()] is a scalar).
    return host[index] if host.ndim else host


def _host(mode, x):
    if mode == "device":
        assert isinstance(x, gpuarr.ndarray), type(x)
        return gpuarr.asnumpy(x)
    return np.asarray(x)


def _method(mode, name):
    """``x.name`` on the device; the table's function under the stand-in."""
    if mode == "device":
        return lambda x, *a, **k: getattr(x, name)(*a, **k)
    return getattr(_ndarray_methods, "_" + name)


def _values(dtype, shape, rng):
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    if dtype.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dtype.kind == "c":
        v = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    elif dtype.kind == "f":
        v = rng.standard_normal(n).astype(dtype)
    else:
        info = np.iinfo(dtype)
        v = rng.integers(max(info.min, -1000), min(info.max, 1000), n).astype(dtype)
    return v.reshape(shape)


def _bytes(a):
    # Bitwise equality (NaN payloads and signed zeros included) in any layout.
    raw = a.reshape(a.shape or (1,)).view(np.dtype((np.void, a.itemsize)))
    return np.ascontiguousarray(raw).tobytes()


def _compare(mode, fn, np_fn, *, message=True):
    exp = outcome(np_fn)
    got = outcome(fn)
    if exp[0] == "raise":
        assert got[0] == "raise", f"NumPy raised {exp[1]!r}, gpuarr returned"
        assert_same_exception(got[1], exp[1], message=message)
        return None
    assert got[0] == "ok", got[1]
    return got[1], exp[1]


# ---------------------------------------------------------------- view

# (base shape, index giving the viewed array)
LAYOUTS = [((3, 4), ()), ((), ()), ((0,), ()), ((3, 0), ()), ((0, 4), ()), ((12,), ()),
           ((3, 4), (slice(None), slice(None, 2))), ((3, 4), (slice(None), slice(None, None, 2))),
           ((3, 4), (slice(None, None, -1),)), ((3, 4), (Ellipsis, slice(None, None, -1))),
           ((4, 3), (slice(None), slice(0, 1))), ((2, 3, 4), ()), ((8,), (slice(None, None, 2),))]
VIEW_DTYPES = ["int8", "uint16", "int32", "float32", "float64", "complex64", "complex128",
               "bool", "float16"]


@pytest.mark.parametrize("to", VIEW_DTYPES)
@pytest.mark.parametrize("frm", ["int8", "int16", "float32", "float64", "complex128"])
@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_view_dtype(mode, rng, frm, to, layout):
    shape, index = layout
    host = _values(frm, shape, rng)
    x = _make(mode, host, index)
    view = _method(mode, "view")
    exp = outcome(lambda: _sub(host, index).view(to))
    if mode == "device" and exp[0] == "ok" and not exp[1].flags.aligned:
        # NumPy makes a view of misaligned elements; device loads cannot read one.
        with pytest.raises(ValueError, match="aligned"):
            view(x, to)
        return
    r = _compare(mode, lambda: view(x, to), lambda: _sub(host, index).view(to))
    if r is None:
        return
    got, exp = r
    g = _host(mode, got)
    assert g.shape == exp.shape and g.dtype == exp.dtype
    assert _bytes(g) == _bytes(exp)


def test_view_without_dtype_is_a_view(mode, rng):
    host = _values("float64", (3, 4), rng)
    x = _make(mode, host, (slice(None), slice(None, None, -1)))
    v = _method(mode, "view")(x)
    assert v.dtype == x.dtype and v.shape == x.shape and v.strides == x.strides
    v[0, 0] = 42
    assert _host(mode, x)[0, 0] == 42


def test_view_writes_through(mode, rng):
    host = np.zeros((2, 4), np.float32)
    x = _make(mode, host)
    v = _method(mode, "view")(x, np.int32)
    v[1, 2] = np.float32(1.5).view(np.int32)
    assert _host(mode, x)[1, 2] == 1.5


@pytest.mark.parametrize("args,kwargs", [
    ((np.int32, np.int32), {}), ((np.int32, None), {}), ((np.int32,), {"dtype": np.int16}),
    ((1, 2, 3), {}), ((), {"typ": 1}), ((np.ndarray,), {"type": np.ndarray}),
    (("not a dtype",), {}),
])
def test_view_argument_errors(mode, args, kwargs):
    host = np.zeros(4, np.int32)
    x = _make(mode, host)
    view = _method(mode, "view")
    _compare(mode, lambda: view(x, *args, **kwargs), lambda: host.view(*args, **kwargs),
             message=False)


@gpu_test
def test_view_type():
    x = gpuarr.arange(6)
    for v in (x.view(gpuarr.ndarray), x.view(type=gpuarr.ndarray),
              x.view(np.int64, gpuarr.ndarray), x.view(dtype=np.int64, type=gpuarr.ndarray)):
        assert type(v) is gpuarr.ndarray and v.base is x
    with pytest.raises(ValueError, match="sub-type of ndarray"):
        x.view(np.ndarray)
    with pytest.raises(ValueError, match="sub-type of ndarray"):
        x.view(type=list)


@gpu_test
def test_view_refuses_misaligned_elements():
    x = gpuarr.zeros((3, 3), np.int8)
    with pytest.raises(ValueError, match="aligned"):
        x[:, :2].view(np.int16)  # rows 3 bytes apart: NumPy makes an unaligned view
    with pytest.raises(ValueError, match="aligned"):
        x.reshape(-1)[1:5].view(np.int32)
    assert x.reshape(-1)[4:8].view(np.int32).shape == (1,)


# ---------------------------------------------------------------- getfield / setfield

@pytest.mark.parametrize("frm,to,offset", [
    ("float64", "int32", 0), ("float64", "int32", 4), ("complex128", "float64", 8),
    ("complex64", "float32", 0), ("int32", "int16", 2), ("int32", "uint8", 3),
    ("int32", "int64", 0), ("int32", "int16", 3), ("int32", "int16", -1),
    ("float64", "float64", 0), ("int16", "int16", 1),
])
@pytest.mark.parametrize("layout", [((3, 4), ()), ((), ()), ((0, 2), ()),
                                    ((3, 4), (slice(None, None, -2),))], ids=str)
def test_getfield_and_setfield(mode, rng, frm, to, offset, layout):
    shape, index = layout
    host = _values(frm, shape, rng)
    x = _make(mode, host, index)
    exp = outcome(lambda: _sub(host, index).getfield(to, offset))
    if mode == "device" and exp[0] == "ok" and not exp[1].flags.aligned:
        # NumPy makes a view of misaligned fields; device loads cannot read one.
        with pytest.raises(ValueError, match="aligned"):
            x.getfield(to, offset)
        return
    r = _compare(mode, lambda: _method(mode, "getfield")(x, to, offset),
                 lambda: _sub(host, index).getfield(to, offset))
    if r is None:
        return
    got, exp = r
    g = _host(mode, got)
    assert g.dtype == exp.dtype and g.shape == exp.shape
    np.testing.assert_array_equal(g, exp)
    expected = host.copy()
    _sub(expected, index).setfield(7, to, offset)
    assert _method(mode, "setfield")(x, 7, to, offset) is None
    np.testing.assert_array_equal(_host(mode, x), _sub(expected, index))


# ---------------------------------------------------------------- byteswap

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", [((3, 4), ()), ((), ()), ((0, 3), ()), ((7,), ()),
                                    ((3, 4), (slice(None), slice(None, None, -2))),
                                    ((4, 5), (slice(1, None), slice(None, 3)))], ids=str)
def test_byteswap(mode, rng, dtype, layout):
    shape, index = layout
    host = _values(dtype, shape, rng)
    x = _make(mode, host, index)
    got = _host(mode, _method(mode, "byteswap")(x))
    exp = _sub(host, index).byteswap()
    assert got.dtype == exp.dtype and got.shape == exp.shape
    assert _bytes(got) == _bytes(exp)
    np.testing.assert_array_equal(_host(mode, x), _sub(host, index))  # not in place


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64", "bool"])
def test_byteswap_inplace(mode, rng, dtype):
    host = _values(dtype, (3, 4), rng)
    exp = host[:, ::-1].byteswap()
    x = _make(mode, host, (slice(None), slice(None, None, -1)))
    r = _method(mode, "byteswap")(x, True)
    assert r is x
    np.testing.assert_array_equal(_host(mode, x).tobytes(), exp.tobytes())


# ---------------------------------------------------------------- flat

def _flat(mode, x):
    return x.flat if mode == "device" else _flatiter.flatiter._of(x)


FLAT_LAYOUTS = [((3, 4), ()), ((), ()), ((0, 3), ()), ((5,), ()), ((2, 3, 4), ()),
                ((3, 4), (slice(None), slice(None, None, -1))),
                ((4, 6), (slice(None, None, 2), slice(1, 5))), ((3, 4), (Ellipsis,))]
FLAT_KEYS = [0, -1, 5, 11, 12, -13, np.int64(2), np.array(3), slice(None), slice(1, 5),
             slice(None, None, -3), slice(10, 2, -2), slice(0, 0), Ellipsis, (), (1,), (1, 2),
             [1, 2], [], np.array([[1, 2], [0, -1]]), np.array([1, 20]), [True, False],
             1.0, None, "a"]


@pytest.mark.parametrize("layout", FLAT_LAYOUTS, ids=str)
@pytest.mark.parametrize("key", FLAT_KEYS + ["mask", "short_mask", "mask2d"], ids=repr)
def test_flat_getitem(mode, rng, layout, key):
    shape, index = layout
    host = _values("float32", shape, rng)
    view = _sub(host, index)
    if isinstance(key, str) and key in ("mask", "short_mask", "mask2d"):
        key = {"mask": view.ravel() > 0, "short_mask": np.ones(1, bool),
               "mask2d": view > 0}[key]
    x = _make(mode, host, index)
    if isinstance(key, float):  # NumPy 2.4 deprecates float indices; gpuarr refuses them
        with pytest.raises(IndexError):
            _flat(mode, x)[key]
        return
    r = _compare(mode, lambda: _flat(mode, x)[_make(mode, key) if isinstance(key, np.ndarray)
                                               and key.ndim and mode == "device" else key],
                 lambda: view.flat[key], message=not isinstance(key, np.ndarray))
    if r is None:
        return
    got, exp = r
    g = _host(mode, got)
    assert g.shape == np.shape(exp) and g.dtype == np.asarray(exp).dtype
    np.testing.assert_array_equal(g, exp)
    # a copy, never a view of the array
    before = _host(mode, x).copy()
    if isinstance(got, (np.ndarray, gpuarr.ndarray)) and g.size:
        got[...] = 99
        np.testing.assert_array_equal(_host(mode, x), before)


FLAT_VALUES = [7, [1, 2], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14], [], np.float64(3),
               [[1, 2], [3, 4]], 2.5 + 1j]


@pytest.mark.parametrize("layout", FLAT_LAYOUTS, ids=str)
@pytest.mark.parametrize("key", [0, -1, 12, slice(None), slice(1, 5), slice(None, None, -3),
                                 Ellipsis, [1, 2, 1], np.array([[0, 2], [3, 4]]), "mask",
                                 np.array([1, 20])], ids=repr)
@pytest.mark.parametrize("value", FLAT_VALUES, ids=repr)
def test_flat_setitem(mode, rng, layout, key, value):
    shape, index = layout
    host = _values("float64", shape, rng)
    exp = host.copy()
    if isinstance(key, str):
        key = _sub(exp, index).ravel() > 0
    if isinstance(value, complex) and not isinstance(key, (int, slice, type(Ellipsis))):
        pytest.skip("NumPy refuses a Python complex for a float array through an index array "
                    "(TypeError) but casts it through a slice: gpuarr casts both")
    x = _make(mode, host, index)
    dev_key = _make(mode, key) if isinstance(key, np.ndarray) and mode == "device" else key

    def expected():
        _sub(exp, index).flat[key] = value

    def actual():
        _flat(mode, x)[dev_key] = value

    with np.errstate(all="ignore"):
        r = _compare(mode, actual, expected, message=False)
    if r is None:
        return
    got, want = _host(mode, x).ravel(), _sub(exp, index).ravel()
    candidates = _repeated_index_candidates(key, value, want.size)
    if mode == "device" and candidates:
        # The device scatter writes repeated indices in parallel: one of their values lands,
        # which one is unspecified (NumPy's sequential loop keeps the last).
        for i, vals in candidates.items():
            assert got[i] in vals, (i, got[i], vals)
            got[i] = want[i]
    np.testing.assert_array_equal(got, want)


def _repeated_index_candidates(key, value, size):
    """{flat position: the values written there} for the positions that a list key names
    more than once with distinct values (value repeated to the key's length, put's rule)."""
    if not isinstance(key, list) or not key or not size:
        return {}
    values = np.resize(np.ravel(np.asarray(value, dtype=np.float64)), len(key))
    written = {}
    for k, v in zip(key, values):
        written.setdefault(k % size, set()).add(float(v))
    return {i: vals for i, vals in written.items() if len(vals) > 1}


def test_flat_iteration_and_state(mode, rng):
    host = _values("int32", (2, 3), rng)
    x = _make(mode, host, (slice(None), slice(None, None, -1)))
    fl, nfl = _flat(mode, x), host[:, ::-1].flat
    assert len(fl) == len(nfl) == 6
    assert fl.base is x
    assert fl.index == 0 and fl.coords == (0, 0)
    seen = []
    for _ in range(4):
        seen.append(_host(mode, next(fl)).item())
        next(nfl)
        assert (fl.index, fl.coords) == (nfl.index, nfl.coords)
    seen += [_host(mode, v).item() for v in fl]
    assert seen == list(host[:, ::-1].ravel())
    list(nfl)
    assert (fl.index, fl.coords) == (nfl.index, nfl.coords) == (6, (2, 0))
    with pytest.raises(StopIteration):
        next(fl)
    np.testing.assert_array_equal(_host(mode, fl.copy()), host[:, ::-1].ravel())


@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (0, 3)])
def test_flat_degenerate_shapes(mode, shape):
    host = np.ones(shape, np.int8)
    fl, nfl = _flat(mode, _make(mode, host)), host.flat
    assert len(fl) == len(nfl)
    assert fl.coords == nfl.coords
    assert len(list(fl)) == len(list(nfl))


def test_flat_set_whole_array(mode):
    host = np.zeros((3, 4))
    x = _make(mode, host, (slice(None), slice(None, None, -1)))
    exp = host.copy()[:, ::-1]
    exp.flat = [1, 2, 3]
    _flatiter.set_flat(x, [1, 2, 3]) if mode == "standin" else setattr(x, "flat", [1, 2, 3])
    np.testing.assert_array_equal(_host(mode, x), exp)


def test_flatiter_type_and_refusals():
    assert gpuarr.flatiter is _flatiter.flatiter
    with pytest.raises(TypeError):
        gpuarr.flatiter()
    fl = _flatiter.flatiter._of(np.zeros(3))
    with pytest.raises(TypeError, match="pickle"):
        pickle.dumps(fl)
    with pytest.raises(AttributeError):
        fl.index = 2


# ---------------------------------------------------------------- setflags

@pytest.mark.parametrize("kwargs,raises", [
    ({}, False), ({"write": True}, False), ({"align": True}, False), ({"uic": False}, False),
    ({"write": False}, True), ({"align": False}, True), ({"uic": True}, True),
])
def test_setflags(mode, kwargs, raises):
    x = _make(mode, np.zeros(3))
    fn = _method(mode, "setflags")
    if raises:
        with pytest.raises(ValueError):
            fn(x, **kwargs)
    else:
        assert fn(x, **kwargs) is None


@gpu_test
def test_flags_report_writeable_and_aligned():
    f = gpuarr.zeros(3).flags
    assert f.writeable and f.aligned and not f.writebackifcopy
    assert f["W"] and f["ALIGNED"] and not f["WRITEBACKIFCOPY"]


# ---------------------------------------------------------------- resize

@pytest.mark.parametrize("shape_args", [(8,), ((2, 4),), (2, 3), (3, 3), (0,), ((),), (None,),
                                        ([2, 3],), (-1,), (2.5,), ((2, 3), 4), (1, 2, 3)],
                         ids=repr)
@pytest.mark.parametrize("fortran", [False, True])
def test_resize_host_parsing(shape_args, fortran):
    # The shape rules, checked without a device: _resize_shape against NumPy's errors.
    exp = outcome(np.zeros(6).resize, *shape_args, refcheck=False)
    if shape_args == (None,):
        return
    got = outcome(_ndarray_methods._resize_shape, shape_args)
    if exp[0] == "raise":
        assert got[0] == "raise"
        assert_same_exception(got[1], exp[1])


@gpu_test
@pytest.mark.parametrize("dtype", ["int16", "float64", "complex64", "bool"])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("new_shape", [(8,), (2, 4), (3, 3), (0,), (), (2, 3), (1, 6)])
def test_resize(rng, dtype, order, new_shape):
    host = np.asarray(_values(dtype, (2, 3), rng), order=order)
    x = gpuarr.array(host, order=order)
    exp = host.copy(order="K")
    assert x.flags.f_contiguous == exp.flags.f_contiguous
    assert x.resize(new_shape, refcheck=False) is None
    exp.resize(new_shape, refcheck=False)
    got = gpuarr.asnumpy(x)
    assert got.shape == exp.shape and got.dtype == exp.dtype
    np.testing.assert_array_equal(got, exp)
    # NumPy's resize recomputes the contiguity flags only for a result with dimensions: a 0-d
    # one keeps the old array's (C or F alone); gpuarr's 0-d array is both, as np.empty(()).
    flags = np.empty(()).flags if new_shape == () else exp.flags
    assert x.flags.f_contiguous == flags.f_contiguous
    assert x.flags.c_contiguous == flags.c_contiguous


@gpu_test
def test_resize_refuses_as_numpy():
    x = gpuarr.arange(6.0)
    x.resize(8)  # referenced only by x: resized in place
    assert x.shape == (8,)
    v = x[:2]
    with pytest.raises(ValueError, match="referenced"):
        x.resize(9)
    with pytest.raises(ValueError, match="own its data"):
        v.resize(5)
    x.resize(9, refcheck=False)
    assert x.shape == (9,) and float(x[8]) == 0
    v.resize(2, 1)  # same size: a new shape only, allowed for views as in NumPy
    assert v.shape == (2, 1)
    with pytest.raises(ValueError, match="single-segment"):
        gpuarr.zeros((3, 4))[:, :2].resize(2)
    y = gpuarr.zeros(4)
    z = y  # noqa: F841  (a second name: NumPy's refcheck counts it)
    with pytest.raises(ValueError, match="referenced"):
        y.resize(5)


# ---------------------------------------------------------------- tobytes, dump(s)

@gpu_test
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128", "bool"])
@pytest.mark.parametrize("layout", [((3, 4), ()), ((), ()), ((0, 2), ()),
                                    ((3, 4), (slice(None, None, -1), slice(None, None, 2))),
                                    ((2, 3, 4), ("T",)), ((2, 3, 4), ("perm",))], ids=str)
@pytest.mark.parametrize("order", ["C", "F", "A", "K", None, "X"])
def test_tobytes(rng, dtype, layout, order):
    shape, index = layout
    host = _values(dtype, shape, rng)
    if index == ("T",):
        view = host.T
        x = gpuarr.asarray(host).T
    elif index == ("perm",):
        view = host.transpose(2, 0, 1)
        x = gpuarr.asarray(host).transpose(2, 0, 1)
    else:
        view = _sub(host, index)
        x = gpuarr.asarray(host)[index]
    r = _compare("device", lambda: x.tobytes(order), lambda: view.tobytes(order))
    if r is not None:
        assert r[0] == r[1]


@gpu_test
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_dump_and_dumps(tmp_path, rng, dtype):
    host = _values(dtype, (3, 4), rng)
    x = gpuarr.asarray(host)
    for back in (pickle.loads(x.dumps()), ):
        assert isinstance(back, gpuarr.ndarray)
        np.testing.assert_array_equal(gpuarr.asnumpy(back), host)
    path = tmp_path / "a.pkl"
    x.dump(path)
    x.dump(str(tmp_path / "b.pkl"))
    buf = io.BytesIO()
    x.dump(buf)
    for data in (path.read_bytes(), (tmp_path / "b.pkl").read_bytes(), buf.getvalue()):
        np.testing.assert_array_equal(gpuarr.asnumpy(pickle.loads(data)), host)


# ---------------------------------------------------------------- clip, round, choose

@gpu_test
@pytest.mark.parametrize("dtype", ["int8", "uint16", "float32", "float64"])
@pytest.mark.parametrize("args,kwargs", [((-0.5, 0.5), {}), ((None, 0.2), {}), ((), {"min": 0}),
                                         ((), {"max": 1}), ((), {})], ids=repr)
def test_clip(rng, dtype, args, kwargs):
    host = _values(dtype, (3, 5), rng)[:, ::-2]
    x = gpuarr.asarray(host)
    r = _compare("device", lambda: x.clip(*args, **kwargs), lambda: host.clip(*args, **kwargs),
                 message=False)
    if r is not None:
        got = gpuarr.asnumpy(r[0])
        assert got.dtype == r[1].dtype
        np.testing.assert_array_equal(got, r[1])


@gpu_test
def test_clip_out():
    x = gpuarr.asarray(np.arange(6.0))
    out = gpuarr.empty(6)
    assert x.clip(1, 4, out) is out
    np.testing.assert_array_equal(gpuarr.asnumpy(out), np.arange(6.0).clip(1, 4))


@gpu_test
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
@pytest.mark.parametrize("decimals", [0, 1, 2, -1])
def test_round(rng, dtype, decimals):
    host = (_values(dtype, (4, 3), rng) * 37)[::-1]
    x = gpuarr.asarray(host)
    got = gpuarr.asnumpy(x.round(decimals))
    exp = host.round(decimals)
    assert got.dtype == exp.dtype
    np.testing.assert_allclose(got, exp, rtol=1e-6)
    # out of the array's dtype, and float64 for an integer array (NumPy rounds integers to
    # negative decimals by dividing into out: an integer out fails that cast, a float one
    # gets the rounded values).
    for out_dtype in [dtype] + (["float64"] if dtype == "int32" else []):
        host_out = np.empty(host.shape, out_dtype)
        out = gpuarr.empty(host.shape, out_dtype)
        exp_out = outcome(host.round, decimals, host_out)
        got_out = outcome(x.round, decimals, out)
        if exp_out[0] == "raise":
            assert got_out[0] == "raise", f"NumPy raised {exp_out[1]!r}, gpuarr returned"
            assert_same_exception(got_out[1], exp_out[1])
            continue
        assert got_out[0] == "ok" and got_out[1] is out, got_out
        np.testing.assert_allclose(gpuarr.asnumpy(out), host_out, rtol=1e-6)


@gpu_test
@pytest.mark.parametrize("mode_", ["raise", "wrap", "clip"])
def test_choose(rng, mode_):
    idx = rng.integers(0, 3, (4, 5))
    choices = [_values("float32", (4, 5), rng) for _ in range(3)]
    got = gpuarr.asarray(idx).choose([gpuarr.asarray(c) for c in choices], mode=mode_)
    np.testing.assert_array_equal(gpuarr.asnumpy(got), idx.choose(choices, mode=mode_))
    with pytest.raises(ValueError):
        gpuarr.asarray(idx + 3).choose([gpuarr.asarray(c) for c in choices])


@gpu_test
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64", "bool"])
def test_astype_none_is_float64(dtype):
    h = np.arange(6).reshape(2, 3).astype(dtype)
    got = gpuarr.asarray(h).astype(None)
    want = h.astype(None)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_array_equal(got.get(), want)


@gpu_test
@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
@pytest.mark.parametrize("args", [(), (None,), ((),)], ids=["none", "None", "empty-tuple"])
def test_transpose_empty_axes(shape, args):
    h = np.arange(int(np.prod(shape))).reshape(shape)
    d = gpuarr.asarray(h)
    kind, want, _ = outcome(h.transpose, *args)
    got_kind, got, _ = outcome(d.transpose, *args)
    assert got_kind == kind, (got, want)
    if kind == "ok":
        assert got.shape == want.shape and got.strides == want.strides
        np.testing.assert_array_equal(got.get(), want)
    else:
        assert_same_exception(got, want)
