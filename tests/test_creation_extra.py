"""NumPy's constants, scalar types and type predicates, and the creation functions built
from other operations (logspace, geomspace, tri, vander, fromfunction, frombuffer, fromiter,
fromstring, asanyarray, asarray_chkfinite), window functions and text I/O, against NumPy.

Cases that compute run twice: on the device (skipped without one) and with NumPy standing
in for the operations the functions are built from (``_numpy_standin``), which checks their
argument rules, dtypes and order of operations on any machine, bit for bit. On the device
the values computed by transcendental functions (power, cos) are compared within a few ulps.
"""

import inspect
import io

import numpy as np
import pytest

import _numpy_standin
from _numpy_standin import check, check_same_outcome, mode, to_host  # noqa: F401 (mode: a fixture)
import gpuarr
from conftest import ALL_DTYPES, assert_bits_equal, dtype_id, gpu_test, outcome, requires_gpu

gpu_only = [pytest.mark.gpu, requires_gpu]

# --- constants and scalar types (host) --------------------------------------------------------


def test_constants_are_numpys():
    for name in ("nan", "inf", "pi", "e", "euler_gamma", "newaxis"):
        assert getattr(gpuarr, name) is getattr(np, name), name


SCALAR_TYPES = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact",
                "floating", "complexfloating", "byte", "ubyte", "short", "ushort", "intc",
                "uintc", "int_", "uint", "long", "ulong", "longlong", "ulonglong", "intp",
                "uintp", "half", "single", "double", "csingle", "cdouble", "True_", "False_"]


@pytest.mark.parametrize("name", SCALAR_TYPES)
def test_scalar_types_are_numpys(name):
    assert getattr(gpuarr, name) is getattr(np, name)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("abstract", ["generic", "number", "integer", "signedinteger",
                                      "unsignedinteger", "inexact", "floating",
                                      "complexfloating", "bool_"])
def test_issubdtype(dtype, abstract):
    assert gpuarr.issubdtype(dtype, getattr(gpuarr, abstract)) == np.issubdtype(
        dtype, getattr(np, abstract))


@pytest.mark.parametrize("x", [1, 1.5, 1j, [1, 2], [1, 2j], np.float32(2), np.complex64(1),
                               np.zeros(3, np.complex128), np.ones(2, np.int8), "a"])
def test_complexobj_of_host_values(x):
    assert gpuarr.iscomplexobj(x) is np.iscomplexobj(x)
    assert gpuarr.isrealobj(x) is np.isrealobj(x)


@pytest.mark.parametrize("x", [np.ones((2, 3), order="F"), np.ones((2, 3)), np.ones(3),
                               np.ones((3, 2)).T, np.ones(())])
def test_isfortran_of_host_arrays(x):
    assert gpuarr.isfortran(x) is np.isfortran(x)


def test_isfortran_of_a_non_array_is_numpys_error():
    for fn in (gpuarr.isfortran, np.isfortran):
        with pytest.raises(AttributeError):
            fn([1, 2])


@gpu_only[0]
@gpu_only[1]
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_type_predicates_of_device_arrays(dtype):
    h = np.zeros((2, 3), dtype)
    for layout in (h, np.asfortranarray(h), h.T, h[:, :1], h[0], h[0, 0]):
        d = gpuarr.array(layout)
        assert gpuarr.iscomplexobj(d) is np.iscomplexobj(layout)
        assert gpuarr.isrealobj(d) is np.isrealobj(layout)
    assert gpuarr.isfortran(gpuarr.asfortranarray(h)) is np.isfortran(np.asfortranarray(h))
    assert gpuarr.isfortran(gpuarr.asarray(h)) is False
    assert gpuarr.isfortran(gpuarr.asarray(h).T) is np.isfortran(h.T)


# --- signatures (host) --------------------------------------------------------------------


SIGNATURE_NAMES = ["logspace", "geomspace", "tri", "vander", "fromfunction", "frombuffer",
                   "fromiter", "asanyarray", "asarray_chkfinite", "loadtxt", "genfromtxt",
                   "savetxt", "ravel_multi_index", "unravel_index", "diag_indices",
                   "diag_indices_from", "tril_indices", "triu_indices", "tril_indices_from",
                   "triu_indices_from", "mask_indices", "bartlett", "blackman", "hamming",
                   "hanning", "kaiser", "iscomplexobj", "isrealobj", "isfortran"]


@pytest.mark.parametrize("name", SIGNATURE_NAMES)
def test_signature_is_numpys(name):
    ours = inspect.signature(getattr(gpuarr, name)).parameters
    theirs = inspect.signature(getattr(np, name)).parameters
    assert list(ours) == list(theirs)
    for p in theirs:
        assert ours[p].kind == theirs[p].kind, p
        assert ours[p].default == theirs[p].default, p


def test_fromstring_signature():
    # numpy.fromstring is a builtin without a signature; its documented one:
    # fromstring(string, dtype=float, count=-1, *, sep, like=None)
    params = inspect.signature(gpuarr.fromstring).parameters
    assert list(params) == ["string", "dtype", "count", "sep", "like"]
    assert params["sep"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["sep"].default is inspect.Parameter.empty
    assert params["dtype"].default is float and params["count"].default == -1


# --- logspace and geomspace ---------------------------------------------------------------


LOGSPACE_CASES = [
    dict(start=0, stop=3),
    dict(start=0, stop=3, num=4),
    dict(start=-2.5, stop=1.5, num=17, endpoint=False),
    dict(start=1, stop=2, num=0),
    dict(start=1, stop=2, num=1),
    dict(start=1, stop=2, num=7, base=2.0),
    dict(start=1, stop=2, num=7, base=2),
    dict(start=0, stop=2, num=5, dtype=np.float32),
    dict(start=0, stop=2, num=5, dtype=np.complex64),
    dict(start=np.float32(0), stop=np.float32(2), num=6),
    dict(start=[0, 1], stop=[2, 3], num=4),
    dict(start=[0, 1], stop=[2, 3], num=4, axis=1),
    dict(start=0, stop=2, num=3, base=[2.0, 10.0]),
    dict(start=0, stop=2, num=3, base=[2.0, 10.0], axis=-1),
    dict(start=0, stop=1j, num=4),
]


@pytest.mark.parametrize("kw", LOGSPACE_CASES, ids=range(len(LOGSPACE_CASES)))
def test_logspace(mode, kw):
    check_same_outcome(mode, lambda: gpuarr.logspace(**kw), lambda: np.logspace(**kw), ulps=8)


GEOMSPACE_CASES = [
    dict(start=1, stop=1000, num=4),
    dict(start=1, stop=1000, num=4, endpoint=False),
    dict(start=-1, stop=-1000, num=5),
    dict(start=2, stop=3, num=1),
    dict(start=2, stop=3, num=0),
    dict(start=1j, stop=1000j, num=4),
    dict(start=-1 + 0j, stop=1 + 0j, num=5),
    dict(start=1, stop=256, num=9, dtype=np.float32),
    dict(start=np.float32(1), stop=np.float32(8), num=4),
    dict(start=[1, 10], stop=[100, 1000], num=3),
    dict(start=[1, 10], stop=[100, 1000], num=3, axis=1),
    dict(start=[1, -10], stop=[100, -1000], num=3, axis=-1),
    dict(start=0, stop=10),
    dict(start=[1, 2], stop=[0, 3]),
    dict(start=1, stop=10, num=-1),
]


@pytest.mark.parametrize("kw", GEOMSPACE_CASES, ids=range(len(GEOMSPACE_CASES)))
def test_geomspace(mode, kw):
    check_same_outcome(mode, lambda: gpuarr.geomspace(**kw), lambda: np.geomspace(**kw),
                       ulps=8, message=True)


def test_geomspace_end_points_are_exact(mode):
    r = to_host(mode, gpuarr.geomspace(3, 7.5, 11))
    assert r[0] == 3 and r[-1] == 7.5


@gpu_only[0]
@gpu_only[1]
def test_space_end_points_on_the_device_are_rejected():
    d = gpuarr.arange(3.0)
    with pytest.raises(TypeError):
        gpuarr.logspace(d, 5)
    with pytest.raises(TypeError):
        gpuarr.geomspace(1, d)


# --- tri, vander, fromfunction -------------------------------------------------------------


@pytest.mark.parametrize("N,M,k", [(3, None, 0), (4, 6, 1), (5, 2, -1), (3, 3, -5), (3, 3, 7),
                                   (0, 3, 0), (3, 0, 0), (-2, None, 0), (3, -1, 0), (1, 1, 0),
                                   (2.5, None, 0), (7, 32, 3), (40, 48, -7)])
@pytest.mark.parametrize("dtype", [float, np.int32, bool, np.complex64], ids=dtype_id)
def test_tri(mode, N, M, k, dtype):
    check_same_outcome(mode, lambda: gpuarr.tri(N, M, k, dtype=dtype),
                       lambda: np.tri(N, M, k, dtype=dtype))


@gpu_test
def test_tri_tril_triu_past_one_grid():
    """More rows than one grid's 65535 block rows, more columns than its 1024 blocks of 256
    threads: both walk on."""
    for N, M, k in ((70000, 5, -2), (2, 300000, 7)):
        assert_bits_equal(gpuarr.tri(N, M, k, dtype=np.int8).get(),
                          np.tri(N, M, k, dtype=np.int8))
    h = np.arange(3 * 30000 * 4, dtype=np.float32).reshape(3, 30000, 4)
    d = gpuarr.asarray(h)
    assert_bits_equal(gpuarr.triu(d, 1).get(), np.triu(h, 1))
    assert_bits_equal(gpuarr.tril(d[:, ::-1], -1).get(), np.tril(h[:, ::-1], -1))


def test_tri_rejects_like():
    with pytest.raises(TypeError):
        gpuarr.tri(3, like=np.zeros(1))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint64", "float32",
                                   "float64", "complex64", "complex128", "bool"])
@pytest.mark.parametrize("n", [None, 0, 1, 2, 5])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(mode, rng, dtype, n, increasing):
    x = (rng.integers(-3, 4, 6) if dtype != "bool" else rng.integers(0, 2, 6)).astype(dtype)
    if dtype.startswith("u"):
        x = np.abs(x.astype(np.int64)).astype(dtype)
    xs = x if mode == "standin" else gpuarr.asarray(x)
    check(mode, gpuarr.vander(xs, n, increasing), np.vander(x, n, increasing), ulps=4)


@pytest.mark.parametrize("x,n", [([], 3), ([2.0], None), ([1, 2, 3], None)])
def test_vander_from_lists(mode, x, n):
    check(mode, gpuarr.vander(x, n), np.vander(x, n))


@pytest.mark.parametrize("x,n", [([[1, 2]], None), (5, None), ([1, 2], -1)])
def test_vander_errors_are_numpys(mode, x, n):
    check_same_outcome(mode, lambda: gpuarr.vander(x, n), lambda: np.vander(x, n))


@pytest.mark.parametrize("shape,dtype", [((2, 3), float), ((4,), int), ((2, 2, 3), np.int32),
                                         ((0, 3), float)])
def test_fromfunction(mode, shape, dtype):
    def f(*idx, scale=1):
        out = idx[0] * scale
        for i in idx[1:]:
            out = out * 10 + i
        return out
    check(mode, gpuarr.fromfunction(f, shape, dtype=dtype, scale=3),
          np.fromfunction(f, shape, dtype=dtype, scale=3))


# --- frombuffer, fromiter, fromstring ------------------------------------------------------


@pytest.mark.parametrize("dtype,count,offset", [(None, -1, 0), (np.int16, -1, 2),
                                                (np.uint8, 3, 1), (np.float32, 2, 8),
                                                (np.complex64, -1, 0)])
def test_frombuffer(mode, dtype, count, offset):
    buf = np.arange(8, dtype=np.float64).tobytes()
    check_same_outcome(mode, lambda: gpuarr.frombuffer(buf, dtype, count, offset),
                       lambda: np.frombuffer(buf, dtype, count, offset))


@pytest.mark.parametrize("dtype,count,offset", [(np.float64, 10, 0), (np.float64, -1, 3),
                                                (np.float64, -1, 100)])
def test_frombuffer_errors_are_numpys(mode, dtype, count, offset):
    buf = np.arange(8, dtype=np.float64).tobytes()
    check_same_outcome(mode, lambda: gpuarr.frombuffer(buf, dtype, count, offset),
                       lambda: np.frombuffer(buf, dtype, count, offset), message=True)


@pytest.mark.parametrize("dtype,count", [(float, -1), (np.int8, 3), (complex, -1), (bool, 2)])
def test_fromiter(mode, dtype, count):
    check(mode, gpuarr.fromiter((i * i for i in range(5)), dtype, count),
          np.fromiter((i * i for i in range(5)), dtype, count))


def test_fromiter_too_short_is_numpys_error(mode):
    check_same_outcome(mode, lambda: gpuarr.fromiter(iter(range(3)), int, 5),
                       lambda: np.fromiter(iter(range(3)), int, 5), message=True)


@pytest.mark.parametrize("text,dtype,count,sep", [("1 2 3", float, -1, " "),
                                                  ("1, 2, 3, 4", np.int32, 3, ","),
                                                  ("", float, -1, " ")])
def test_fromstring(mode, text, dtype, count, sep):
    check(mode, gpuarr.fromstring(text, dtype, count, sep=sep),
          np.fromstring(text, dtype, count, sep=sep))


@pytest.mark.parametrize("name,args", [("frombuffer", (b"\0" * 8,)),
                                       ("fromiter", ([1, 2], float)),
                                       ("asanyarray", ([1, 2],))])
def test_like_is_not_supported(name, args):
    with pytest.raises(TypeError, match="like="):
        getattr(gpuarr, name)(*args, like=np.zeros(1))


# --- asanyarray and asarray_chkfinite ------------------------------------------------------


@gpu_only[0]
@gpu_only[1]
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_asanyarray(dtype):
    h = np.arange(6).reshape(2, 3).astype(dtype)
    d = gpuarr.asanyarray(h)
    assert isinstance(d, gpuarr.ndarray) and d.dtype == h.dtype
    np.testing.assert_array_equal(d.get(), h)
    assert gpuarr.asanyarray(d) is d
    assert gpuarr.asanyarray(d, copy=False) is d
    c = gpuarr.asanyarray(d, copy=True)
    assert c is not d and c.base is None
    np.testing.assert_array_equal(c.get(), h)
    f = gpuarr.asanyarray(d, order="F")
    assert f.flags.f_contiguous
    np.testing.assert_array_equal(f.get(), h)
    with pytest.raises(ValueError):
        gpuarr.asanyarray(h, copy=False)  # host data must be copied to the device
    assert gpuarr.asanyarray(d, device=d.device) is d


@pytest.mark.parametrize("values,dtype", [([1.0, 2.0], None), ([1.0, np.inf], None),
                                          ([np.nan], np.float32), ([1, 2], np.int8),
                                          ([1 + 1j, complex(0, np.inf)], None),
                                          ([], None), (3.0, np.float16)])
def test_asarray_chkfinite(mode, values, dtype):
    check_same_outcome(mode, lambda: gpuarr.asarray_chkfinite(values, dtype),
                       lambda: np.asarray_chkfinite(values, dtype), message=True)


@gpu_only[0]
@gpu_only[1]
def test_asarray_chkfinite_of_device_arrays():
    d = gpuarr.asarray(np.array([[1.0, 2.0], [3.0, np.nan]]))
    with pytest.raises(ValueError, match="infs or NaNs"):
        gpuarr.asarray_chkfinite(d)
    assert gpuarr.asarray_chkfinite(d[0]) is not None
    ok = gpuarr.arange(4.0)
    assert gpuarr.asarray_chkfinite(ok) is ok


# --- window functions ---------------------------------------------------------------------


WINDOW_LENGTHS = [-3, 0, 1, 2, 3, 8, 51, 1000, 5.0, 5.5, np.int8(4)]


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", WINDOW_LENGTHS, ids=str)
def test_windows(mode, name, M):
    check(mode, getattr(gpuarr, name)(M), getattr(np, name)(M), ulps=4)


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
def test_window_of_complex_length_is_numpys_error(mode, name):
    check_same_outcome(mode, lambda: getattr(gpuarr, name)(3j), lambda: getattr(np, name)(3j))


@pytest.mark.parametrize("M,beta", [(0, 1.0), (1, 5.0), (2, 0.0), (12, 14.0), (51, 8.6),
                                    (7, -2.0)])
def test_kaiser(mode, M, beta):
    check(mode, gpuarr.kaiser(M, beta), np.kaiser(M, beta), ulps=8)


# --- text I/O -----------------------------------------------------------------------------


TEXT = "# x y z\n1 2 3\n4 5 6.5\n7 8 9\n"


@pytest.mark.parametrize("kw", [{}, dict(dtype=np.float32), dict(usecols=(0, 2)),
                                dict(skiprows=2), dict(unpack=True), dict(ndmin=2, max_rows=1),
                                dict(dtype=int, usecols=1)], ids=str)
def test_loadtxt(mode, kw):
    check_same_outcome(mode, lambda: gpuarr.loadtxt(io.StringIO(TEXT), **kw),
                       lambda: np.loadtxt(io.StringIO(TEXT), **kw))


def test_loadtxt_errors_are_numpys(mode):
    bad = "1 2\n3\n"
    check_same_outcome(mode, lambda: gpuarr.loadtxt(io.StringIO(bad)),
                       lambda: np.loadtxt(io.StringIO(bad)), message=True)


GEN_TEXT = "1,2,3\n4,,6\n7,8,9\n"


@pytest.mark.parametrize("kw", [dict(delimiter=","), dict(delimiter=",", filling_values=-1),
                                dict(delimiter=",", skip_header=1, dtype=np.float32),
                                dict(delimiter=",", usecols=(0, 2), unpack=True)], ids=str)
def test_genfromtxt(mode, kw):
    check(mode, gpuarr.genfromtxt(io.StringIO(GEN_TEXT), **kw),
          np.genfromtxt(io.StringIO(GEN_TEXT), **kw))


def test_genfromtxt_has_no_masked_arrays():
    with pytest.raises(NotImplementedError):
        gpuarr.genfromtxt(io.StringIO(GEN_TEXT), delimiter=",", usemask=True)


@pytest.mark.parametrize("kw", [{}, dict(fmt="%d", delimiter=","),
                                dict(header="h", footer="f", comments="% ")], ids=str)
def test_savetxt_of_host_data(mode, kw):
    x = np.arange(6.0).reshape(2, 3)
    ours, theirs = io.StringIO(), io.StringIO()
    gpuarr.savetxt(ours, x, **kw)
    np.savetxt(theirs, x, **kw)
    assert ours.getvalue() == theirs.getvalue()


@gpu_only[0]
@gpu_only[1]
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
def test_savetxt_loadtxt_roundtrip_on_the_device(dtype):
    x = (np.arange(12).reshape(3, 4) * 1.5).astype(dtype)
    ours, theirs = io.StringIO(), io.StringIO()
    gpuarr.savetxt(ours, gpuarr.asarray(x))
    np.savetxt(theirs, x)
    assert ours.getvalue() == theirs.getvalue()
    if dtype != "complex128":
        # '%.18e' text reads back exactly as floats (not as integers: NumPy's int parser
        # rejects exponents).
        read_as = np.float64 if dtype == "int32" else dtype
        back = gpuarr.loadtxt(io.StringIO(ours.getvalue()), dtype=read_as)
        assert isinstance(back, gpuarr.ndarray) and back.dtype == read_as
        np.testing.assert_array_equal(back.get(), x)


def test_savetxt_errors_are_numpys():
    for fn in (gpuarr.savetxt, np.savetxt):
        with pytest.raises(ValueError):
            fn(io.StringIO(), np.zeros((2, 2, 2)))
