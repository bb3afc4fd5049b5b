"""Array creation, checked against NumPy: values bit for bit, dtype, shape, strides and
contiguity flags of fresh arrays (NumPy 2 gives empty arrays all-zero strides)."""

import array as pyarray

import numpy as np
import pytest
from numpy.exceptions import ComplexWarning

import gpuarr
from conftest import (
    ALL_DTYPES,
    COMPLEX_DTYPES,
    LARGE_SHAPE,
    SHAPES,
    assert_bits_equal,
    assert_gpu_equal,
    assert_layout_equal,
    assert_same_exception,
    dtype_id,
    gpu_test,
    outcome,
    random_array,
    shape_id,
    small_int_array,
)

dtypes = pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
shapes = pytest.mark.parametrize("shape", SHAPES, ids=shape_id)
orders_cf = pytest.mark.parametrize("order", ["C", "F"])


def assert_same_result(got, expected, *, strides=True):
    """Compares two ``outcome`` results: both raised the same exception type, or both
    returned equal arrays (gpuarr vs NumPy)."""
    g_kind, g_val, _ = got
    e_kind, e_val, _ = expected
    if e_kind == "raise":
        assert g_kind == "raise", f"NumPy raised {e_val!r}; gpuarr returned {g_val!r}"
        assert_same_exception(g_val, e_val, message=False)
        return
    assert g_kind == "ok", f"gpuarr raised {g_val!r}; NumPy returned {e_val!r}"
    assert_gpu_equal(g_val, e_val, strides=strides)


# --- empty / zeros / ones / full -------------------------------------------------------


@gpu_test
@orders_cf
@shapes
@dtypes
def test_empty(shape, dtype, order):
    d = gpuarr.empty(shape, dtype=dtype, order=order)
    h = np.empty(shape, dtype=dtype, order=order)
    assert_layout_equal(d, h)
    assert d.base is None and d.flags.owndata
    assert d.get().shape == h.shape


@gpu_test
@orders_cf
@shapes
@dtypes
@pytest.mark.parametrize("fn", ["zeros", "ones"])
def test_zeros_and_ones(fn, shape, dtype, order):
    assert_gpu_equal(getattr(gpuarr, fn)(shape, dtype=dtype, order=order),
                     getattr(np, fn)(shape, dtype=dtype, order=order))


@gpu_test
@orders_cf
@shapes
@dtypes
def test_full_random_value(rng, shape, dtype, order):
    value = random_array(rng, (), dtype)[()]  # a NumPy scalar of the dtype
    assert_gpu_equal(gpuarr.full(shape, value, dtype=dtype, order=order),
                     np.full(shape, value, dtype=dtype, order=order))
    # The same value as a Python scalar.
    pyvalue = value.item()
    assert_gpu_equal(gpuarr.full(shape, pyvalue, dtype=dtype, order=order),
                     np.full(shape, pyvalue, dtype=dtype, order=order))


@gpu_test
@pytest.mark.parametrize("dtype", ["float64", "uint8", "complex64", "bool", "int16"])
@pytest.mark.parametrize("fn", ["zeros", "ones", "full", "empty"])
def test_creation_large(rng, fn, dtype):
    args = (LARGE_SHAPE,)
    if fn == "full":
        args += (random_array(rng, (), dtype)[()],)
    d = getattr(gpuarr, fn)(*args, dtype=dtype)
    h = getattr(np, fn)(*args, dtype=dtype)
    if fn == "empty":
        assert_layout_equal(d, h)
    else:
        assert_gpu_equal(d, h)


@gpu_test
@pytest.mark.parametrize("shape", [5, [2, 3], np.int64(4), (np.int32(2), 3), []], ids=repr)
def test_shape_forms(shape):
    assert_gpu_equal(gpuarr.zeros(shape), np.zeros(shape))
    assert_gpu_equal(gpuarr.ones(shape, dtype="i2"), np.ones(shape, dtype="i2"))


@gpu_test
@pytest.mark.parametrize("dtype_spec", [None, float, int, bool, complex, "f4", "int8", "u2",
                                        np.float16, np.dtype("c8"), "d", "?"], ids=repr)
def test_dtype_spellings(dtype_spec):
    h = np.ones((2, 3), dtype=dtype_spec)
    d = gpuarr.ones((2, 3), dtype=dtype_spec)
    assert_gpu_equal(d, h)
    assert isinstance(d.dtype, np.dtype)


@gpu_test
@pytest.mark.parametrize(
    "value",
    [True, 7, -3.25, 2 + 3j, np.float32(1.5), np.int8(-4), np.uint16(9), np.float16(0.5),
     np.complex64(1 - 2j), 2**63, np.bool_(False)],
    ids=repr,
)
def test_full_natural_dtype(value):
    # Without dtype=, full takes NumPy's dtype for the fill value.
    assert_gpu_equal(gpuarr.full((2, 3), value), np.full((2, 3), value))


@gpu_test
@pytest.mark.parametrize(
    "value, dtype",
    [(2.7, "int32"), (-2.7, "int16"), (1e300, "float32"), (300, "int8"), (-1, "uint8"),
     (255, "uint8"), (1 + 2j, "float64"), (np.complex128(1 + 2j), "float32"), (0.1, "float16"),
     (3, "bool"), (0.0, "bool"), (1.5, "complex64"), (np.float64(2.5), "int64")],
    ids=repr,
)
def test_full_value_cast(value, dtype):
    # Casting the fill value, including where NumPy refuses (out-of-range Python ints).
    got = outcome(gpuarr.full, (4,), value, dtype=dtype)
    expected = outcome(np.full, (4,), value, dtype=dtype)
    assert_same_result(got, expected)


@gpu_test
def test_full_broadcast_array_value(rng):
    row = random_array(rng, (3,), "float32")
    assert_gpu_equal(gpuarr.full((2, 3), row), np.full((2, 3), row))
    assert_gpu_equal(gpuarr.full((4, 3), gpuarr.asarray(row)), np.full((4, 3), row))
    assert_gpu_equal(gpuarr.full((2, 3), row, dtype="float64"), np.full((2, 3), row, dtype="float64"))
    with pytest.raises(ValueError):
        np.full((2, 4), row)
    with pytest.raises(ValueError):
        gpuarr.full((2, 4), row)


@gpu_test
def test_ndarray_constructor():
    for shape, dtype, order in [((2, 3), "f4", "C"), ((2, 3), None, "F"), ((), "i8", "C"),
                                ((0, 4), "c16", "C")]:
        d = gpuarr.ndarray(shape, dtype=dtype, order=order)
        h = np.ndarray(shape, dtype=dtype if dtype is not None else float, order=order)
        assert_layout_equal(d, h)


# --- *_like -------------------------------------------------------------------------------

# Layouts of the prototype, applied to the same data on host and device.
LAYOUTS = {
    "C": lambda x: x,
    "F": lambda x: x.T,
    "strided": lambda x: x[:, ::2],
    "reversed": lambda x: x[::-1],
    "permuted3d": lambda x: x.reshape(2, 4, 3).transpose(1, 0, 2),
    "empty": lambda x: x[:0],
}
LIKE_FUNCS = ["empty_like", "zeros_like", "ones_like", "full_like"]


@gpu_test
@pytest.mark.parametrize("fn", LIKE_FUNCS)
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@pytest.mark.parametrize("dtype", [None, "int16", "complex64"])
@pytest.mark.parametrize("new_shape", ["same", "1d", "reversed"])
def test_like(rng, fn, layout, order, dtype, new_shape):
    hb = random_array(rng, (4, 6), "float32")
    hp = LAYOUTS[layout](hb)
    dp = LAYOUTS[layout](gpuarr.asarray(hb))
    assert_layout_equal(dp, hp)  # the device prototype has the host one's layout
    shape = {"same": None, "1d": (7,), "reversed": hp.shape[::-1]}[new_shape]
    args = (3,) if fn == "full_like" else ()
    d = getattr(gpuarr, fn)(dp, *args, dtype=dtype, order=order, shape=shape)
    h = getattr(np, fn)(hp, *args, dtype=dtype, order=order, shape=shape)
    if fn == "empty_like":
        assert_layout_equal(d, h)
    else:
        assert_gpu_equal(d, h)
    assert d.base is None


@gpu_test
@pytest.mark.parametrize("fn", LIKE_FUNCS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_like_all_dtypes(rng, fn, dtype):
    h = random_array(rng, (3, 5), dtype)
    d = gpuarr.asarray(h)
    args = (random_array(rng, (), dtype)[()],) if fn == "full_like" else ()
    got, expected = getattr(gpuarr, fn)(d, *args), getattr(np, fn)(h, *args)
    if fn == "empty_like":
        assert_layout_equal(got, expected)
    else:
        assert_gpu_equal(got, expected)


@gpu_test
@pytest.mark.parametrize("fn", LIKE_FUNCS)
@pytest.mark.parametrize("layout", ["C", "F", "strided", "permuted3d"])
def test_like_numpy_prototype(rng, fn, layout):
    # A host prototype gives its layout to the device array, as NumPy's own *_like.
    hp = LAYOUTS[layout](random_array(rng, (4, 6), "int32"))
    args = (-5,) if fn == "full_like" else ()
    d = getattr(gpuarr, fn)(hp, *args)
    h = getattr(np, fn)(hp, *args)
    if fn == "empty_like":
        assert_layout_equal(d, h)
    else:
        assert_gpu_equal(d, h)


# --- arange ---------------------------------------------------------------------------------

ARANGE_CASES = [
    ((5,), {}),
    ((0,), {}),
    ((1,), {}),
    ((2,), {}),
    ((3,), {}),
    ((-3,), {}),
    ((2, 10), {}),
    ((10, 2), {}),
    ((10, 2, -1), {}),
    ((10, -7, -3), {}),
    ((-5, 5), {"dtype": "int8"}),
    ((0, 100, 3), {"dtype": "uint8"}),
    ((200, 0, -7), {"dtype": "uint8"}),
    ((0, 1000, 7), {"dtype": "int16"}),
    ((5,), {"dtype": "uint64"}),
    ((2**62, 2**62 + 10), {}),
    ((0, 2**63 + 20, 2**61), {"dtype": "uint64"}),
    ((0, 1, 0.1), {}),
    ((1, 0, -0.1), {}),
    ((0.5, 7.3, 0.7), {}),
    ((-3.7, 11.2, 0.3), {}),
    ((0, 10), {"dtype": "float32"}),
    ((0.0, 1.0, 0.1), {"dtype": "float32"}),
    ((-1.0, 1.0, 0.01), {"dtype": "float32"}),
    ((1.0, -1.0, -0.03), {"dtype": "float64"}),
    ((0, 5, 0.5), {"dtype": "float16"}),
    ((10,), {"dtype": "float16"}),
    ((np.float32(0.1), 5, np.float32(0.3)), {}),
    ((np.float32(0.1), np.float32(5), np.float32(0.3)), {}),
    ((np.int8(3), 20), {}),
    ((np.uint8(3), np.uint8(20), np.uint8(4)), {}),
    ((0, 1, 0.1), {"dtype": "int64"}),
    ((0, 5, 0.5), {"dtype": "int32"}),
    ((1.5, 10.5), {"dtype": "int64"}),
    ((2,), {"dtype": "bool"}),
    ((5,), {"dtype": "complex64"}),
    ((0, 3, 0.5), {"dtype": "complex128"}),
    ((1 + 1j, 5 + 1j), {}),
    ((0.0, 0.0, 1.0), {}),
    ((0, 10, 0), {}),
    ((0.0, 1.0, 0.0), {}),
    ((0, 1e6, 0.3), {}),
    ((3_000_000,), {}),
    ((1.0, 3e6, 1.0), {"dtype": "float32"}),
    # Lengths that leave a tail after the 16-byte stores (16, 8, 4 and 2 elements a store).
    ((0, 37), {"dtype": "int8"}),
    ((-100, 1000, 7), {"dtype": "int16"}),
    ((0, 1001), {"dtype": "float16"}),
    ((5, 1000, 3), {"dtype": "uint64"}),
    ((-2.5, 1e5 + 0.25, 0.75), {"dtype": "float64"}),
]


@gpu_test
@pytest.mark.parametrize("args, kwargs", ARANGE_CASES,
                         ids=[f"{a}-{k.get('dtype', '')}" for a, k in ARANGE_CASES])
def test_arange(args, kwargs):
    got = outcome(gpuarr.arange, *args, **kwargs)
    expected = outcome(np.arange, *args, **kwargs)
    assert_same_result(got, expected)


@gpu_test
def test_arange_past_int32_elements():
    """2^31 + 21 int8 elements (2 GiB): launches of 2^31 elements or more index in 64 bits,
    shorter ones in 32. Values wrap as NumPy's int8 arange does."""
    n = 2**31 + 21
    if gpuarr.cuda.runtime.memGetInfo()[0] < 3 * 2**30:
        pytest.skip("needs 3 GiB of free GPU memory")
    a = gpuarr.arange(n, dtype=np.int8)
    positions = np.array([0, 1, 255, 256, 2**31 - 1, 2**31, 2**31 + 16, n - 1])
    want = np.arange(n - 300, n, dtype=np.int64)  # i as int8 is i mod 256, wrapped
    got = a[gpuarr.asarray(positions)].get()
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, positions.astype(np.int8))
    np.testing.assert_array_equal(a[n - 300:].get(), want.astype(np.int8))
    del a


# --- linspace -----------------------------------------------------------------------------

LINSPACE_CASES = [
    ((0, 1), {}),
    ((0, 1, 7), {}),
    ((0, 1, 7), {"endpoint": False}),
    ((-3.5, 10.25, 13), {"endpoint": False}),
    ((10.25, -3.5, 13), {}),
    ((0, 1, 0), {}),
    ((0, 1, 0), {"endpoint": False}),
    ((0, 1, 1), {}),
    ((0, 1, 1), {"endpoint": False}),
    ((0, 1, 2), {}),
    ((2, 2, 5), {}),
    ((1e-300, 1.0000000001e-300, 5), {}),
    ((0, 5e-324, 4), {}),
    ((0, 10, 11), {"dtype": "int64"}),
    ((0, 10, 7), {"dtype": "int32"}),
    ((-7, 5, 9), {"dtype": "int8"}),
    ((0, 200, 9), {"dtype": "uint8"}),
    ((0, 1, 50), {"dtype": "float32"}),
    ((np.float32(0), np.float32(1), 20), {}),
    ((np.float32(-2.5), 3, 17), {}),
    ((np.float32(0.1), np.float32(0.7), 9), {"endpoint": False}),
    ((np.int8(0), np.int8(10), 6), {}),
    ((1e-3, 1e3, 1000), {}),
    ((0, 1, 5), {"dtype": "float16"}),
    ((np.float16(0), np.float16(1), 5), {}),
    ((0, 1 + 1j, 5), {}),
    ((0, 1, 5), {"dtype": "complex64"}),
    ((0, 1, 4), {"dtype": "bool"}),
    ((0, 1, 3_000_000), {}),
    ((-1, 1, 3_000_001), {"dtype": "float32"}),
    ((0, 1, 1001), {"dtype": "float32"}),
    ((0.5, -3, 1002), {"dtype": "float32", "endpoint": False}),
    ((1e-300, 1.0000000001e-300, 1003), {"dtype": "float32"}),
    ((0, 1, -1), {}),
    (([0, 1], [2, 3], 4), {}),
    ((np.float32(1), [2, 3], 3), {}),
]


def _linspace_ids():
    return [f"{a}-{k}" for a, k in LINSPACE_CASES]


@gpu_test
@pytest.mark.parametrize("args, kwargs", LINSPACE_CASES, ids=_linspace_ids())
def test_linspace(args, kwargs):
    got = outcome(gpuarr.linspace, *args, **kwargs)
    expected = outcome(np.linspace, *args, **kwargs)
    assert_same_result(got, expected)


@gpu_test
@pytest.mark.parametrize("args, kwargs", LINSPACE_CASES[:24], ids=_linspace_ids()[:24])
def test_linspace_retstep(args, kwargs):
    g_kind, g_val, _ = outcome(gpuarr.linspace, *args, retstep=True, **kwargs)
    e_kind, e_val, _ = outcome(np.linspace, *args, retstep=True, **kwargs)
    if e_kind == "raise":
        assert g_kind == "raise"
        assert_same_exception(g_val, e_val, message=False)
        return
    assert g_kind == "ok", g_val
    (d, d_step), (h, h_step) = g_val, e_val
    assert_gpu_equal(d, h)
    if np.isnan(h_step):
        assert np.isnan(d_step)
    else:
        assert d_step == h_step
        assert np.asarray(d_step).dtype == np.asarray(h_step).dtype


def test_linspace_bad_num():
    for num in (-1, -5):
        with pytest.raises(ValueError) as expected:
            np.linspace(0, 1, num)
        with pytest.raises(ValueError) as got:
            gpuarr.linspace(0, 1, num)
        assert str(got.value) == str(expected.value)
    with pytest.raises(TypeError):
        np.linspace(0, 1, 2.5)
    with pytest.raises(TypeError):
        gpuarr.linspace(0, 1, 2.5)


# --- eye / identity -------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("N", [0, 1, 4, 5])
@pytest.mark.parametrize("M", [None, 0, 3, 7])
@pytest.mark.parametrize("k", [-6, -2, -1, 0, 1, 3, 8])
def test_eye_shapes(N, M, k):
    assert_gpu_equal(gpuarr.eye(N, M, k), np.eye(N, M, k))
    assert_gpu_equal(gpuarr.eye(N, M=M, k=k), np.eye(N, M=M, k=k))


@gpu_test
@pytest.mark.parametrize("k", [2**62, 2**63, -2**63 - 1, 2**100, -2**100, np.int64(-7),
                               np.uint64(2**64 - 1)])
def test_eye_offsets_beyond_the_matrix(k):
    # Any Python or NumPy integer is an offset (NumPy reads it with operator.index); one
    # past every shape selects no element.
    assert_gpu_equal(gpuarr.eye(3, 5, k=k), np.eye(3, 5, k=k))
    assert_gpu_equal(gpuarr.eye(0, k=k), np.eye(0, k=k))


@gpu_test
@pytest.mark.parametrize("k", [1.5, "1", None])
def test_eye_offset_must_be_an_integer(k):
    with pytest.raises(Exception) as expected:
        np.eye(3, k=k)
    with pytest.raises(Exception) as got:
        gpuarr.eye(3, k=k)
    assert_same_exception(got.value, expected.value, message=False)


@gpu_test
@dtypes
@orders_cf
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_eye_dtype_order(dtype, order, k):
    assert_gpu_equal(gpuarr.eye(4, 6, k=k, dtype=dtype, order=order),
                     np.eye(4, 6, k=k, dtype=dtype, order=order))


@gpu_test
@dtypes
@pytest.mark.parametrize("n", [0, 1, 5])
def test_identity(n, dtype):
    assert_gpu_equal(gpuarr.identity(n, dtype=dtype), np.identity(n, dtype=dtype))


@gpu_test
def test_identity_default_dtype():
    assert_gpu_equal(gpuarr.identity(3), np.identity(3))


# --- array / asarray / ascontiguousarray / copy ---------------------------------------------


@gpu_test
@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@shapes
@dtypes
def test_array_from_numpy(rng, shape, dtype, order):
    h = random_array(rng, shape, dtype)
    d = gpuarr.array(h, order=order)
    assert_gpu_equal(d, np.array(h, order=order))
    assert d.base is None and d.flags.owndata


@gpu_test
@shapes
@dtypes
def test_asarray_from_numpy(rng, shape, dtype):
    h = random_array(rng, shape, dtype)
    assert_gpu_equal(gpuarr.asarray(h), np.asarray(h))
    hf = np.asfortranarray(h)
    d = gpuarr.asarray(hf)
    assert_gpu_equal(d, hf)
    assert_gpu_equal(gpuarr.asarray(h, order="F"), np.asarray(h, order="F"))
    assert_gpu_equal(gpuarr.asarray(hf, order="C"), np.asarray(hf, order="C"))


@gpu_test
@shapes
@dtypes
def test_ascontiguousarray(rng, shape, dtype):
    h = random_array(rng, shape, dtype)
    hf = np.asfortranarray(h)
    assert_gpu_equal(gpuarr.ascontiguousarray(h), np.ascontiguousarray(h))
    assert_gpu_equal(gpuarr.ascontiguousarray(hf), np.ascontiguousarray(hf))
    # From device arrays: an F-ordered one is copied to C order.
    df = gpuarr.asarray(hf)
    assert_gpu_equal(gpuarr.ascontiguousarray(df), np.ascontiguousarray(hf))
    dc = gpuarr.asarray(h)
    r = gpuarr.ascontiguousarray(dc)
    assert_gpu_equal(r, np.ascontiguousarray(h))
    if h.ndim >= 1:
        assert r is dc  # already C-contiguous: no copy, as np.ascontiguousarray


@gpu_test
@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@shapes
@dtypes
def test_copy(rng, shape, dtype, order):
    h = random_array(rng, shape, dtype)
    for hsrc in (h, np.asfortranarray(h)):
        dsrc = gpuarr.asarray(hsrc)
        c = gpuarr.copy(dsrc, order=order)
        assert_gpu_equal(c, np.copy(hsrc, order=order))
        assert c is not dsrc and c.base is None
        # From host data too.
        assert_gpu_equal(gpuarr.copy(hsrc, order=order), np.copy(hsrc, order=order))
        # The method's default order is C, as ndarray.copy.
        assert_gpu_equal(dsrc.copy(), hsrc.copy())
        assert_gpu_equal(dsrc.copy(order=order), hsrc.copy(order=order))


@gpu_test
@pytest.mark.parametrize("layout", ["strided", "reversed", "F"])
@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
def test_copy_of_views(rng, layout, order):
    hb = random_array(rng, (4, 6), "complex64")
    hv, dv = LAYOUTS[layout](hb), LAYOUTS[layout](gpuarr.asarray(hb))
    assert_gpu_equal(gpuarr.copy(dv, order=order), np.copy(hv, order=order))
    assert_gpu_equal(dv.copy(order=order), hv.copy(order=order))


@gpu_test
def test_copy_is_independent(rng):
    h = random_array(rng, (4, 5), "float64")
    d = gpuarr.asarray(h)
    c = gpuarr.copy(d)
    c[...] = 0.5
    assert_gpu_equal(d, h)
    m = d.copy()
    m[1] = 7
    assert_gpu_equal(d, h)


@gpu_test
@dtypes
def test_asarray_of_gpuarr_array(rng, dtype):
    d = gpuarr.asarray(random_array(rng, (3, 4), dtype))
    assert gpuarr.asarray(d) is d
    assert gpuarr.asarray(d, dtype=dtype) is d
    assert gpuarr.asarray(d, dtype=d.dtype) is d
    assert gpuarr.array(d, copy=False) is d
    a = gpuarr.array(d)
    assert a is not d
    assert_gpu_equal(a, d.get())
    # A C-contiguous array asked for in F order is copied.
    f = gpuarr.asarray(d, order="F")
    assert f is not d and f.flags.f_contiguous
    assert_gpu_equal(f, np.asarray(d.get(), order="F"))


@gpu_test
@pytest.mark.parametrize("src", ALL_DTYPES, ids=dtype_id)
def test_asarray_of_gpuarr_array_other_dtype_copies(rng, src):
    h = small_int_array(rng, (3, 4), src)
    d = gpuarr.asarray(h)
    for dst in ("float32", "int64", "uint8", "complex128", "bool"):
        if np.dtype(dst) == src:
            continue
        got = outcome(gpuarr.asarray, d, dtype=dst)
        expected = outcome(np.asarray, h, dtype=dst)
        assert got[2] == expected[2], "warnings differ"
        assert_same_result(got, expected)
        assert got[1] is not d


# Nested lists/tuples holding gpuarr arrays: stacked on the device (NumPy would read each
# leaf through __array__, which gpuarr refuses). The oracle is NumPy on the same nesting with
# NumPy arrays for leaves.
def _nestings(rng):
    # Small integers: every dtype= below holds them exactly.
    a = small_int_array(rng, (3, 4), np.float32)
    b = small_int_array(rng, (3, 4), np.float32)
    c = small_int_array(rng, (3, 4), np.int16)
    s = small_int_array(rng, (), np.float64)
    return {
        "list": [a, b],
        "tuple": (a, b, a),
        "0-d": [s, s, s],
        "nested": [[a, b], [b, a]],
        "tuple-of-lists": ([a], [c]),
        "promoted": [a, c],
        "python-scalar-leaves": [s, 2.5, True],
        "host-array-leaf": [a, _HostLeaf(b)],
        "non-contiguous": [a[:, ::2], b[::-1, 1::2]],
        "empty-leaves": [a[:0], b[:0]],
        "single": [c],
    }


class _HostLeaf(np.ndarray):
    """A leaf that stays a NumPy array in the device nesting."""

    def __new__(cls, a):
        return np.asarray(a).view(cls)


def _on_device(obj):
    # The nesting with its NumPy arrays moved to the device (Python scalars and _HostLeaf
    # arrays stay on the host).
    if isinstance(obj, (list, tuple)):
        return type(obj)(_on_device(x) for x in obj)
    if isinstance(obj, _HostLeaf):
        return np.asarray(obj)
    return gpuarr.asarray(obj) if isinstance(obj, np.ndarray) else obj


def _on_host(obj):
    if isinstance(obj, (list, tuple)):
        return type(obj)(_on_host(x) for x in obj)
    return np.asarray(obj) if isinstance(obj, np.ndarray) else obj


@gpu_test
@pytest.mark.parametrize("name", ["list", "tuple", "0-d", "nested", "tuple-of-lists", "promoted",
                                  "python-scalar-leaves", "host-array-leaf", "non-contiguous",
                                  "empty-leaves", "single"])
def test_array_from_nested_device_arrays(rng, name):
    nesting = _nestings(rng)[name]
    d, h = _on_device(nesting), _on_host(nesting)
    assert_gpu_equal(gpuarr.array(d), np.array(h))
    assert_gpu_equal(gpuarr.asarray(d), np.asarray(h))
    for kwargs in ({"dtype": np.float64}, {"dtype": np.int8}, {"order": "F"}):
        assert_gpu_equal(gpuarr.array(d, **kwargs), np.array(h, **kwargs))
    # ndmin: the shape and values (gpuarr gives the new leading dimensions stride 0).
    got, expected = gpuarr.array(d, ndmin=5), np.array(h, ndmin=5)
    assert got.shape == expected.shape
    assert_bits_equal(got.get(), expected)


@gpu_test
def test_array_from_device_arrays_on_the_stack():
    # Dask's percentile merge: np.array(list of 0-d results, like=gpuarr array).
    parts = [gpuarr.sum(gpuarr.arange(float(n))) for n in range(1, 6)]
    got = np.array(parts, like=gpuarr.empty(()))
    assert_gpu_equal(got, np.array([float(sum(range(n))) for n in range(1, 6)]))


@gpu_test
@pytest.mark.parametrize("case", ["lengths", "leaf-shapes", "leaf-ndim", "depth", "deep-leaf"])
def test_array_from_inhomogeneous_device_arrays(rng, case):
    a = random_array(rng, (3, 4), np.float64)
    h = {
        "lengths": [[a, a], [a]],
        "leaf-shapes": [a, a[:2]],
        "leaf-ndim": [a, a[0]],
        "depth": [[a], a],
        "deep-leaf": [[a, a], [a, a[:, :3]]],
    }[case]
    got = outcome(gpuarr.array, _on_device(h))
    expected = outcome(np.array, h)
    assert got[0] == expected[0] == "raise"
    assert_same_exception(got[1], expected[1])


@gpu_test
def test_array_from_device_arrays_copy_false_raises():
    d = [gpuarr.arange(3.0), gpuarr.arange(3.0)]
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        gpuarr.array(d, copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        gpuarr.asarray(d, copy=False)


ARRAY_LIKES = {
    "int": 3,
    "negative-int": -7,
    "big-int": 2**63 + 5,
    "float": 2.5,
    "bool": True,
    "complex": 1 + 2j,
    "np.float32": np.float32(1.5),
    "np.int8": np.int8(-3),
    "np.uint64": np.uint64(2**64 - 1),
    "np.complex64": np.complex64(3 - 4j),
    "np.bool_": np.bool_(True),
    "list": [1, 2, 3],
    "nested-list": [[1, 2], [3, 4], [5, 6]],
    "nested-tuple": ((1.5, 2.0), (3.0, -4.25)),
    "mixed-list": [1, 2.5, 3j],
    "bool-list": [True, False, True],
    "empty-list": [],
    "empty-nested": [[]],
    "list-of-np": [np.float32(1), np.float32(2)],
    "tuple-of-lists": ([1, 2], (3, 4)),
    "deep": [[[1], [2]], [[3], [4]]],
    "array.array-d": pyarray.array("d", [1.5, -2.25, 3e100]),
    "array.array-i": pyarray.array("i", [1, -2, 2**31 - 1]),
    "array.array-B": pyarray.array("B", [0, 255, 17]),
    "array.array-f": pyarray.array("f", [0.1, 0.2]),
}


@gpu_test
@pytest.mark.parametrize("name", list(ARRAY_LIKES))
def test_asarray_python_objects(name):
    obj = ARRAY_LIKES[name]
    assert_gpu_equal(gpuarr.asarray(obj), np.asarray(obj))
    assert_gpu_equal(gpuarr.array(obj), np.array(obj))


# Values exactly representable (after truncation) in every target dtype below.
ARRAY_LIKES_SMALL = {
    "list": [1, 2, 3],
    "nested-list": [[1, 2], [3, 4], [5, 6]],
    "nested-tuple": ((1.5, 2.0), (3.0, 4.25)),
    "array.array-d": pyarray.array("d", [1.5, 2.25, 3.0]),
    "int": 3,
    "bool-list": [True, False],
}


@gpu_test
@pytest.mark.parametrize("name", list(ARRAY_LIKES_SMALL))
@pytest.mark.parametrize("dtype", ["float32", "int16", "complex128", "uint8", "bool", "float16"])
def test_asarray_python_objects_with_dtype(name, dtype):
    obj = ARRAY_LIKES_SMALL[name]
    assert_gpu_equal(gpuarr.asarray(obj, dtype=dtype), np.asarray(obj, dtype=dtype))
    assert_gpu_equal(gpuarr.array(obj, dtype=dtype, order="F"), np.array(obj, dtype=dtype, order="F"))


@gpu_test
def test_asarray_memoryview(rng):
    h = random_array(rng, (4, 5), "int32")
    assert_gpu_equal(gpuarr.asarray(memoryview(h)), np.asarray(memoryview(h)))
    hs = h[::2, 1::2]
    assert_gpu_equal(gpuarr.asarray(memoryview(hs)), np.ascontiguousarray(hs))
    hf = np.asfortranarray(h)
    assert_gpu_equal(gpuarr.asarray(memoryview(hf)), np.asarray(memoryview(hf)))


@gpu_test
@pytest.mark.parametrize("kind", ["bytes", "bytearray", "memoryview-bytes"])
def test_asarray_bytes_is_uint8(rng, kind):
    raw = rng.integers(0, 256, size=37, dtype=np.uint8).tobytes()
    obj = {"bytes": raw, "bytearray": bytearray(raw), "memoryview-bytes": memoryview(raw)}[kind]
    expected = np.frombuffer(raw, dtype=np.uint8)
    assert_gpu_equal(gpuarr.asarray(obj), expected)
    assert_gpu_equal(gpuarr.array(obj), expected)


@gpu_test
@pytest.mark.parametrize(
    "view",
    [lambda x: x[::2, ::-1], lambda x: x.T, lambda x: x[:, 1], lambda x: x[1:, 2:5],
     lambda x: x[::-1, ::-3]],
    ids=["step-reverse", "transpose", "column", "block", "reverse-step3"],
)
@pytest.mark.parametrize("dtype", ["float64", "int8", "complex64", "bool"])
def test_asarray_noncontiguous_numpy(rng, view, dtype):
    h = view(random_array(rng, (6, 7), dtype))
    d = gpuarr.asarray(h)
    assert_bits_equal(d.get(), h)
    assert d.flags.c_contiguous or d.flags.f_contiguous
    if h.flags.f_contiguous:
        assert d.flags.f_contiguous  # the transposed view stays in F order
        assert d.strides == h.strides
    expected = np.array(h)  # NumPy's own copy (order 'K')
    assert_gpu_equal(gpuarr.array(h), expected)


@gpu_test
def test_array_order_K_of_permuted_noncontiguous_source(rng):
    # np.array(x) (order 'K') keeps the memory order of a permuted, non-contiguous source.
    h = random_array(rng, (2, 3, 8), "float32").transpose(1, 0, 2)[::2]
    assert not h.flags.c_contiguous and not h.flags.f_contiguous
    assert_gpu_equal(gpuarr.array(h), np.array(h))


@gpu_test
@pytest.mark.parametrize("dtype", [">f8", ">i4", ">c16", ">u2", ">f4", ">i8"])
def test_asarray_big_endian(rng, dtype):
    native = np.dtype(dtype).newbyteorder("=")
    h = random_array(rng, (3, 5), native).astype(dtype)
    d = gpuarr.asarray(h)
    assert d.dtype == native
    assert_gpu_equal(d, h.astype(native))
    assert_gpu_equal(gpuarr.array(h[::-1]), h[::-1].astype(native))


@gpu_test
@pytest.mark.parametrize("ndmin", [0, 1, 3])
def test_array_ndmin(rng, ndmin):
    for shape in [(), (4,), (2, 3)]:
        h = random_array(rng, shape, "int16")
        d = gpuarr.array(h, ndmin=ndmin)
        e = np.array(h, ndmin=ndmin)
        assert d.shape == e.shape
        assert_bits_equal(d.get(), e)


# --- astype -----------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("dst", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("src", ALL_DTYPES, ids=dtype_id)
def test_astype_pairs(rng, src, dst):
    h = small_int_array(rng, (4, 6), src)
    d = gpuarr.asarray(h)
    cases = [
        (lambda x: x.astype(dst), "astype"),
        (lambda x: x.astype(dst, order="F"), "astype-F"),
        (lambda x: x[:, ::-2].astype(dst), "astype-of-strided-view"),
        (lambda x: x.T.astype(dst), "astype-of-transposed"),
    ]
    for fn, what in cases:
        got, expected = outcome(fn, d), outcome(fn, h)
        assert got[2] == expected[2], f"{what}: warnings {got[2]} vs NumPy's {expected[2]}"
        assert_same_result(got, expected)
    # Host-side conversion on upload.
    got = outcome(gpuarr.array, h, dtype=dst)
    expected = outcome(np.array, h, dtype=dst)
    assert_same_result(got, expected)
    # astype to the same dtype copies unless copy=False.
    r = d.astype(src)
    assert r is not d
    assert_gpu_equal(r, h)
    if src == dst:
        assert d.astype(dst, copy=False) is d


@gpu_test
@pytest.mark.parametrize("src", COMPLEX_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("dst", ["float16", "float32", "float64", "int32", "uint8"])
def test_astype_complex_to_real_warns(rng, src, dst):
    h = small_int_array(rng, (5,), src) + np.array(1j, dtype=src) * small_int_array(rng, (5,), src)
    d = gpuarr.asarray(h)
    with pytest.warns(ComplexWarning):
        expected = h.astype(dst)
    with pytest.warns(ComplexWarning):
        got = d.astype(dst)
    assert_gpu_equal(got, expected)


@gpu_test
@pytest.mark.parametrize("dtype", ["float64", "uint8", "complex64", "bool"])
def test_astype_large(rng, dtype):
    h = small_int_array(rng, LARGE_SHAPE, "int32")
    d = gpuarr.asarray(h)
    assert_gpu_equal(d.astype(dtype), h.astype(dtype))
    assert_gpu_equal(d[::-3].astype(dtype), h[::-3].astype(dtype))


# --- bad input (host-side checks: need no device) ------------------------------------------

BAD_DTYPES = ["U3", object, "S2", "M8[s]", "m8[ns]", "V8", "not_a_dtype"]


@pytest.mark.parametrize("dtype", BAD_DTYPES, ids=str)
@pytest.mark.parametrize("fn", ["zeros", "empty", "ones", "full"])
def test_bad_dtype_type_error(fn, dtype):
    args = (3, 1) if fn == "full" else (3,)
    with pytest.raises(TypeError):
        getattr(gpuarr, fn)(*args, dtype=dtype)


@pytest.mark.parametrize("obj", [["a", "b"], [1, "a"], np.array([object()], dtype=object),
                                 np.array(["x"]), np.array([1], dtype="M8[s]")],
                         ids=["str-list", "mixed-list", "object-array", "str-array", "datetime"])
def test_unsupported_host_data_type_error(obj):
    with pytest.raises(TypeError):
        gpuarr.asarray(obj)
    with pytest.raises(TypeError):
        gpuarr.array(obj)


@pytest.mark.parametrize(
    "fn, args",
    [("zeros", (-1,)), ("zeros", ((2, -1),)), ("empty", ((-3,),)), ("ones", ((0, -1),)),
     ("full", ((-2,), 1.0)), ("empty", ((3, -2), "f4"))],
    ids=repr,
)
def test_negative_dimensions(fn, args):
    with pytest.raises(ValueError) as expected:
        getattr(np, fn)(*args)
    with pytest.raises(ValueError, match="negative dimensions are not allowed") as got:
        getattr(gpuarr, fn)(*args)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("shape", [(2.0, 3), [3, 1.5], (3, None), 2.5, np.float32(2)], ids=repr)
@pytest.mark.parametrize("fn", ["zeros", "empty", "ones"])
def test_float_shape_type_error(fn, shape):
    with pytest.raises(TypeError):
        getattr(np, fn)(shape)
    with pytest.raises(TypeError):
        getattr(gpuarr, fn)(shape)


@pytest.mark.parametrize("order", ["X", "K", "A", "CF"])
def test_bad_order(order):
    with pytest.raises(ValueError):
        np.empty(3, order=order)
    with pytest.raises(ValueError):
        gpuarr.empty(3, order=order)


@gpu_test
def test_bad_dtype_from_gpuarr_array(rng):
    d = gpuarr.asarray(random_array(rng, (3,), "float32"))
    for bad in ("U3", object, "M8[s]"):
        with pytest.raises(TypeError):
            d.astype(bad)
        with pytest.raises(TypeError):
            gpuarr.asarray(d, dtype=bad)



@gpu_test
@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe", "bogus"])
@pytest.mark.parametrize("src,dst", [("float64", "int32"), ("float64", "float32"),
                                     ("int16", "int64"), ("complex64", "float32"),
                                     ("float32", "float32")])
def test_astype_casting_rule_like_numpy(rng, casting, src, dst):
    h = random_array(rng, (3, 4), src)
    d = gpuarr.asarray(h)
    got = outcome(d.astype, dst, casting=casting)
    expected = outcome(h.astype, dst, casting=casting)
    assert_same_result(got, expected)
    if isinstance(expected[1], TypeError):  # the refused-cast message is NumPy's
        assert str(got[1]) == str(expected[1])
