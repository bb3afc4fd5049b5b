"""Shared fixtures and helpers for gpuarr's test suite.

NumPy is the oracle everywhere: each test computes the expected result by running NumPy
on the same host data.  Tests that need a CUDA device carry the ``gpu`` marker and the
``requires_gpu`` skip, so that on a machine without a device they are skipped with a
reason instead of failing.
"""

import warnings
import zlib

import numpy as np
import pytest

import gpuarr

GPU_AVAILABLE = gpuarr.cuda.is_available()
NO_GPU_REASON = "no CUDA device: gpuarr.cuda.is_available() is False"

requires_gpu = pytest.mark.skipif(not GPU_AVAILABLE, reason=NO_GPU_REASON)

# For device-only modules: ``pytestmark = GPU_MODULE``.
GPU_MODULE = [pytest.mark.gpu, requires_gpu]


def gpu_test(fn):
    """Decorator for a single test that needs a device (in modules that mix host-only tests)."""
    return pytest.mark.gpu(requires_gpu(fn))


ALL_DTYPES = [
    np.dtype(n)
    for n in (
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "float32", "float64", "complex64", "complex128",
    )
]
FLOAT_DTYPES = [d for d in ALL_DTYPES if d.kind == "f"]
COMPLEX_DTYPES = [d for d in ALL_DTYPES if d.kind == "c"]
INEXACT_DTYPES = FLOAT_DTYPES + COMPLEX_DTYPES

# The shapes every creation/transfer test goes over.
SHAPES = [(), (0,), (3, 0), (1,), (5,), (3, 4), (2, 3, 4)]
LARGE_SHAPE = (3_000_000,)

# Unsigned integer type with the same itemsize as a float/complex component.
_UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def dtype_id(dt):
    return np.dtype(dt).name


def shape_id(shape):
    return "x".join(map(str, shape)) if shape else "0d"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "gpu: needs a CUDA device (skipped with a reason when none is present)"
    )


def pytest_collection_modifyitems(config, items):
    # Safety net: a test marked ``gpu`` that forgot ``requires_gpu`` is still skipped.
    if GPU_AVAILABLE:
        return
    skip = pytest.mark.skip(reason=NO_GPU_REASON)
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


_BASE_SEED = 20240611


@pytest.fixture
def rng(request):
    """A ``numpy.random.Generator`` seeded from a fixed seed and the test's id, so each
    test gets its own reproducible stream."""
    return np.random.default_rng([_BASE_SEED, zlib.crc32(request.node.nodeid.encode())])


# --- random data ------------------------------------------------------------------------


def random_array(rng, shape, dtype):
    """Random values covering the dtype's range (ints: the full range; floats: normal
    values scaled by 100; complex: both parts random).  Always a ``numpy.ndarray``."""
    dtype = np.dtype(dtype)
    shape = tuple(shape) if not isinstance(shape, int) else (shape,)
    if dtype.kind == "b":
        out = rng.integers(0, 2, size=shape) == 1
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        out = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    elif dtype.kind == "f":
        out = rng.standard_normal(size=shape) * 100
    else:
        out = rng.standard_normal(size=shape) * 100 + 1j * (rng.standard_normal(size=shape) * 100)
    return np.array(out, dtype=dtype)


def small_int_array(rng, shape, dtype):
    """Random integers in [0, 100]: exactly representable in every dtype, so casts between
    any two dtypes are well defined (non-zero means True for bool)."""
    return np.array(rng.integers(0, 101, size=shape), dtype=dtype)


def random_bits_array(rng, shape, dtype):
    """Random bit patterns: for floats this includes NaNs with payloads, infinities,
    signed zeros and subnormals.  Bool gets random 0/1 (other bytes are not valid)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return random_array(rng, shape, dtype)
    n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    raw = rng.integers(0, 256, size=n, dtype=np.uint8)
    return raw.view(dtype).reshape(shape).copy()


def float_specials(dtype):
    """Floats with special bit patterns: quiet/signalling NaNs with payloads, both
    infinities, both zeros, the smallest subnormal and the largest finite value."""
    dtype = np.dtype(dtype)
    comp = dtype
    if dtype.kind == "c":
        comp = np.dtype({8: np.float32, 16: np.float64}[dtype.itemsize])
    u = _UINT_OF_SIZE[comp.itemsize]
    bits = comp.itemsize * 8
    mant = {16: 10, 32: 23, 64: 52}[bits]
    exp_all = ((1 << (bits - 1 - mant)) - 1) << mant
    sign = 1 << (bits - 1)
    patterns = [
        exp_all | (1 << (mant - 1)),  # canonical quiet NaN
        exp_all | (1 << (mant - 1)) | 0x5,  # quiet NaN with payload
        sign | exp_all | (1 << (mant - 1)) | 0x3,  # negative quiet NaN with payload
        exp_all | 0x1,  # signalling NaN
        exp_all,  # +inf
        sign | exp_all,  # -inf
        0,  # +0.0
        sign,  # -0.0
        1,  # smallest subnormal
        sign | 1,  # negative subnormal
        exp_all - 1,  # largest finite
    ]
    vals = np.array(patterns, dtype=u).view(comp)
    if dtype.kind == "c":
        re = np.repeat(vals, len(vals))
        im = np.tile(vals, len(vals))
        out = np.empty(re.size, dtype=dtype)
        out.view(comp)[0::2] = re
        out.view(comp)[1::2] = im
        return out
    return vals


# --- comparisons ------------------------------------------------------------------------


def as_bytes(x):
    """The raw bytes of an array's elements in C order (so NaN payloads and -0.0 count)."""
    x = np.ascontiguousarray(x)
    return x.reshape(-1).view(np.uint8)


def assert_bits_equal(actual, desired):
    """Equal dtype, shape and bit-identical elements (NumPy arrays)."""
    assert isinstance(actual, np.ndarray), type(actual)
    assert actual.dtype == desired.dtype, (actual.dtype, desired.dtype)
    assert actual.shape == desired.shape, (actual.shape, desired.shape)
    np.testing.assert_array_equal(actual, desired)
    a, d = as_bytes(actual), as_bytes(desired)
    if not np.array_equal(a, d):
        isz = max(actual.dtype.itemsize, 1)
        diff = np.flatnonzero(a != d)[0] // isz
        raise AssertionError(
            f"bit patterns differ first at flat index {diff}: "
            f"{np.ascontiguousarray(actual).reshape(-1)[diff:diff + 1].view(np.uint8)} vs "
            f"{np.ascontiguousarray(desired).reshape(-1)[diff:diff + 1].view(np.uint8)}"
        )


def assert_layout_equal(d, h):
    """A gpuarr array has the same shape, dtype, strides and contiguity as a NumPy array."""
    assert isinstance(d, gpuarr.ndarray), type(d)
    assert d.shape == h.shape, (d.shape, h.shape)
    assert d.dtype == h.dtype, (d.dtype, h.dtype)
    assert d.ndim == h.ndim
    assert d.size == h.size
    assert d.itemsize == h.itemsize
    assert d.nbytes == h.nbytes
    assert d.strides == h.strides, (d.strides, h.strides)
    assert d.flags.c_contiguous == h.flags.c_contiguous, "c_contiguous"
    assert d.flags.f_contiguous == h.flags.f_contiguous, "f_contiguous"


def assert_gpu_equal(d, h, *, strides=True):
    """A gpuarr array equals a NumPy array: dtype, shape, bit-identical values, and (unless
    ``strides=False``) the same strides and contiguity flags."""
    assert isinstance(d, gpuarr.ndarray), type(d)
    if strides:
        assert_layout_equal(d, h)
    assert_bits_equal(d.get(), np.asarray(h))


# Relative tolerance of inexact results, by dtype char (float16/32/64, complex64/128).
INEXACT_RTOL = {"e": 1e-3, "f": 1e-5, "d": 1e-12, "F": 1e-5, "D": 1e-12}


def assert_gpu_close(actual, expected, label="", *, rtol_scale=1):
    """A gpuarr array matches NumPy's result: dtype, shape, integers and bools exactly,
    inexact values within ``INEXACT_RTOL`` of their dtype times ``rtol_scale`` (no absolute
    tolerance), NaNs in the same places. ``label`` names the case in each failure."""
    expected = np.asarray(expected)
    assert isinstance(actual, gpuarr.ndarray), (label, type(actual))
    got = gpuarr.asnumpy(actual)
    assert got.dtype == expected.dtype, (label, got.dtype, expected.dtype)
    assert got.shape == expected.shape, (label, got.shape, expected.shape)
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(got, expected, err_msg=label)
    else:
        tol = INEXACT_RTOL[expected.dtype.char] * rtol_scale
        np.testing.assert_allclose(got, expected, rtol=tol, atol=0, equal_nan=True,
                                   err_msg=label)


def outcome(fn, *args, **kwargs):
    """Runs ``fn`` and returns ``(kind, value_or_exception, warning_categories)`` where kind
    is "ok" or "raise"; warnings are recorded, not shown."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            res = ("ok", fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001  (the oracle may raise anything)
            res = ("raise", e)
    return res[0], res[1], sorted({x.category.__name__ for x in w})


def public_exception_type(exc):
    """The first public class of an exception's type: NumPy raises private subclasses
    (``numpy._core._exceptions._UFuncOutputCastingError``) of TypeError and friends, which
    gpuarr matches by their public base."""
    for cls in type(exc).__mro__:
        if cls.__module__ in ("builtins", "numpy.exceptions", "numpy.linalg"):
            return cls
    return Exception


def assert_same_exception(actual_exc, expected_exc, *, message=True):
    expected_type = public_exception_type(expected_exc)
    assert isinstance(actual_exc, expected_type), (
        f"gpuarr raised {type(actual_exc).__name__}({actual_exc}), "
        f"NumPy raised {type(expected_exc).__name__}({expected_exc})"
    )
    if message:
        assert str(actual_exc) == str(expected_exc)


def array_api_floor_divide(a, b):
    """NumPy's floor_divide, except where exactly one operand is infinite: the Array API
    standard's table decides there, as gpuarr does (floor(a / b): inf // 2 is inf, 1 // -inf
    is -0.0), where NumPy gives nan or -1.0."""
    with np.errstate(all="ignore"):
        q = np.floor_divide(a, b)
        if q.dtype.kind != "f":
            return q
        return np.where(np.isinf(a) != np.isinf(b), np.divide(a, b), q).astype(q.dtype)


# NumPy before 2.5 gave x for float16's nextafter(x, y) when x == y, so nextafter(-0, +0) was
# -0; from 2.5 on it gives y, as C's nextafter and NumPy's other dtypes do, and so does gpuarr.
_HALF_NEXTAFTER_GIVES_X = np.lib.NumpyVersion(np.__version__) < "2.5.0.dev0"


def numpy_nextafter(x, y):
    """NumPy's nextafter, with the equal operands of a float16 loop giving y on any NumPy."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = np.nextafter(x, y)
    if _HALF_NEXTAFTER_GIVES_X and r.dtype == np.float16:
        r = np.where(np.equal(x, y), y, r).astype(r.dtype)
    return r
