"""Basic indexing, views (memory sharing, ``base``, ``data.ptr``), transpose, reshape,
``__setitem__``, ``fill``, ``len`` and iteration, compared with NumPy on the same data."""

import numpy as np
import pytest

import gpuarr
from conftest import (
    ALL_DTYPES,
    GPU_MODULE,
    assert_bits_equal,
    assert_gpu_equal,
    assert_same_exception,
    dtype_id,
    outcome,
    random_array,
    shape_id,
    small_int_array,
)

pytestmark = GPU_MODULE

E = Ellipsis
S = slice

KEYS = [
    0, -1, 3, -5, 6, -7, 100,
    S(None), S(1, None), S(None, None, 2), S(None, None, -1), S(-2, None, -3), S(5, 1, -2),
    S(3, 3), S(10, 20), S(-100, 100), S(None, None, 3), S(4, None, -1), S(1, -1), S(None, 2),
    None, E, (),
    (0, 1), (-1, S(None, None, -2)), (None, 0), (E, 0), (0, E), (S(None), None, 1), (E, None),
    (None, E, None), (1, E, -1), (S(1, 3), S(None, None, -1)), (0, 0, 0), (0, 0, 0, 0),
    (0, 0, 0, 0, 0), (E, E), (np.int64(1), np.int32(-1)), (S(None), S(2, 0, -1), None, 0),
    (S(None, None, -2), E, S(1, None, 2)), (None, None, 0, None), (-1, -1), (1, 100),
    (S(None), S(None), S(None), S(None), S(None)),
]
INDEX_SHAPES = [(6,), (5, 7), (3, 4, 5), (2, 3, 4, 5)]
INDEX_DTYPES = ["float64", "int8", "complex64", "bool", "float16", "uint32"]


def key_id(key):
    return repr(key).replace("slice", "S").replace("Ellipsis", "E").replace(" ", "")


def numpy_view(h, key):
    """``h[key]`` as an array view even where NumPy returns a scalar (a full integer index):
    appending ``...`` to an index without one gives the same element as a 0-d view."""
    t = key if isinstance(key, tuple) else (key,)
    if not any(k is Ellipsis for k in t):
        t = t + (Ellipsis,)
    return h[t]


def data_ptr(h):
    return h.__array_interface__["data"][0]


def check_view(d, h, key):
    """d[key] matches NumPy's h[key] (or raises the same error) and is a view of d."""
    e_kind, e_val, _ = outcome(lambda: h[key])
    g_kind, g_val, _ = outcome(lambda: d[key])
    if e_kind == "raise":
        assert g_kind == "raise", f"NumPy raised {e_val!r}; gpuarr returned a view"
        assert_same_exception(g_val, e_val)
        return None
    assert g_kind == "ok", f"gpuarr raised {g_val!r}"
    hv = numpy_view(h, key)
    v = g_val
    assert_gpu_equal(v, hv)  # shape, dtype, strides, flags and values
    assert v.base is d
    assert not v.flags.owndata
    if hv.size:
        assert v.data.ptr - d.data.ptr == data_ptr(hv) - data_ptr(h)
    return v


@pytest.mark.parametrize("key", KEYS, ids=key_id)
@pytest.mark.parametrize("shape", INDEX_SHAPES, ids=shape_id)
@pytest.mark.parametrize("dtype", INDEX_DTYPES)
def test_basic_index_matches_numpy(rng, dtype, shape, key):
    h = random_array(rng, shape, dtype)
    d = gpuarr.asarray(h)
    assert d.base is None and d.flags.owndata
    check_view(d, h, key)


@pytest.mark.parametrize("key", [(), E, None, (None, None), (E, None), (None, E)], ids=key_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_index_0d(rng, dtype, key):
    h = random_array(rng, (), dtype)
    d = gpuarr.asarray(h)
    check_view(d, h, key)


@pytest.mark.parametrize("key", [0, (E, 0), (0, E), (None, 1)], ids=key_id)
def test_index_0d_errors(rng, key):
    h = random_array(rng, (), "float32")
    check_view(gpuarr.asarray(h), h, key)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_index_all_dtypes(rng, dtype):
    h = random_array(rng, (4, 5, 6), dtype)
    d = gpuarr.asarray(h)
    for key in [(1, S(None, None, -2)), (E, 3), (S(1, 3), None, S(None, None, 2), -1), (2, 3, 4)]:
        check_view(d, h, key)


def _valid_keys(shape):
    """The keys of KEYS that NumPy accepts for an array of this shape."""
    probe = np.empty(shape)
    valid = []
    for key in KEYS:
        try:
            probe[key]
        except IndexError:
            continue
        valid.append(key)
    return valid


@pytest.mark.parametrize("key", _valid_keys((5, 7)), ids=key_id)
def test_view_write_through(rng, key):
    h = random_array(rng, (5, 7), "int32")
    d = gpuarr.asarray(h)
    hv = numpy_view(h, key)
    v = d[key]
    v[...] = 7
    hv[...] = 7
    assert_bits_equal(d.get(), h)  # the base saw the write
    assert_bits_equal(v.get(), hv)


def test_views_of_views(rng):
    h = random_array(rng, (6, 8, 4), "float32")
    d = gpuarr.asarray(h)
    chains = [
        [S(None, None, 2), (E, S(None, None, -1))],
        [1, S(2, None), (None, 0)],
        [(S(1, 5), 2), S(None, None, -2)],
        [E, E, 0, 0],
    ]
    for chain in chains:
        v, hv = d, h
        for key in chain:
            v, hv = v[key], numpy_view(hv, key)
        assert_gpu_equal(v, hv)
        assert v.base is d  # NumPy's rule: a view's base is the array owning the memory
        assert hv.base is h
        if hv.size:
            assert v.data.ptr - d.data.ptr == data_ptr(hv) - data_ptr(h)
        v[...] = -2.5
        hv[...] = -2.5
        assert_bits_equal(d.get(), h)


def test_owner_attributes(rng):
    d = gpuarr.asarray(random_array(rng, (3, 4), "float64"))
    assert d.base is None
    assert d.flags.owndata
    assert d.flags["OWNDATA"]
    v = d[1:]
    assert v.base is d and not v.flags.owndata and not v.flags["OWNDATA"]
    assert v.data.ptr == d.data.ptr + 4 * 8
    assert v.data.device_id == d.data.device_id


# --- float / invalid indices -------------------------------------------------------------

BAD_KEYS = [1.0, (0, 1.5), "a", (S(None), 2.0), S(0.5, 2), S(None, None, 0), np.float64(1)]


@pytest.mark.parametrize("key", BAD_KEYS, ids=key_id)
def test_invalid_index(rng, key):
    h = random_array(rng, (4, 5), "float32")
    d = gpuarr.asarray(h)
    e_kind, e_val, _ = outcome(lambda: h[key])
    g_kind, g_val, _ = outcome(lambda: d[key])
    assert e_kind == "raise"
    assert g_kind == "raise", f"gpuarr accepted {key!r}"
    assert_same_exception(g_val, e_val, message=False)


def test_float_index_is_index_error_with_numpy_message(rng):
    h = random_array(rng, (4, 5), "float32")
    d = gpuarr.asarray(h)
    for key in (1.0, (0, 1.5)):
        with pytest.raises(IndexError) as expected:
            h[key]
        with pytest.raises(IndexError) as got:
            d[key]
        assert str(got.value) == str(expected.value)


def test_out_of_bounds_and_too_many_indices_messages(rng):
    h = random_array(rng, (4, 5), "int64")
    d = gpuarr.asarray(h)
    for key in (4, -5, (0, 5), (3, -6), (0, 0, 0), (0, 0, None, 0), (E, 0, 0, 0)):
        with pytest.raises(IndexError) as expected:
            h[key]
        with pytest.raises(IndexError) as got:
            d[key]
        assert str(got.value) == str(expected.value)


# --- transpose -----------------------------------------------------------------------------

TRANSPOSE_CASES = [None, (0, 1, 2), (2, 0, 1), (1, 0, 2), (-1, 0, -2), (2, 1, 0)]


@pytest.mark.parametrize("axes", TRANSPOSE_CASES, ids=repr)
@pytest.mark.parametrize("dtype", ["float64", "int16", "complex128", "bool"])
def test_transpose(rng, dtype, axes):
    h = random_array(rng, (2, 3, 4), dtype)
    d = gpuarr.asarray(h)
    forms = [(d.transpose(axes), h.transpose(axes))]
    if axes is not None:
        forms.append((d.transpose(*axes), h.transpose(*axes)))
    else:
        forms += [(d.transpose(), h.transpose()), (d.T, h.T)]
    for t, ht in forms:
        assert_gpu_equal(t, ht)
        assert t.base is d
        assert t.data.ptr == d.data.ptr
    # A transposed view of a strided view.
    v, hv = d[:, ::-1, ::2], h[:, ::-1, ::2]
    assert_gpu_equal(v.transpose(axes), hv.transpose(axes))
    # Writing through a transposed view.
    t = d.transpose(axes)
    t[0] = t[-1]
    ht = h.transpose(axes)
    ht[0] = ht[-1]
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize("shape", [(), (5,), (3, 4)], ids=shape_id)
def test_T_small_ndim(rng, shape):
    h = random_array(rng, shape, "int32")
    d = gpuarr.asarray(h)
    assert_gpu_equal(d.T, h.T)


@pytest.mark.parametrize("axes", [(0, 0, 1), (0, 1), (0, 1, 2, 3), (0, 1, 3), (0, 1, -4)], ids=repr)
def test_transpose_errors(rng, axes):
    h = random_array(rng, (2, 3, 4), "float32")
    d = gpuarr.asarray(h)
    e_kind, e_val, _ = outcome(h.transpose, axes)
    g_kind, g_val, _ = outcome(d.transpose, axes)
    assert e_kind == "raise" and g_kind == "raise"
    assert_same_exception(g_val, e_val, message=False)


# --- reshape -------------------------------------------------------------------------------

RESHAPE_SOURCES = {
    "C": lambda x: x,
    "F": lambda x: x.T,
    "strided-last": lambda x: x[:, :, ::2],
    "strided-first": lambda x: x[::2],
    "transposed-01": lambda x: x.transpose(1, 0, 2),
    "reversed": lambda x: x[:, ::-1],
}
RESHAPE_TARGETS = [(-1,), (4, -1), (-1, 2), (2, 2, -1), (1, -1, 1), (-1, 1), (2, 1, -1, 1)]


@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("target", RESHAPE_TARGETS, ids=repr)
@pytest.mark.parametrize("source", list(RESHAPE_SOURCES))
def test_reshape(rng, source, target, order):
    hb = random_array(rng, (4, 3, 4), "float32")
    db = gpuarr.asarray(hb)
    hs, ds = RESHAPE_SOURCES[source](hb), RESHAPE_SOURCES[source](db)
    assert_gpu_equal(ds, hs)
    hr = hs.reshape(target, order=order)
    dr = ds.reshape(target, order=order)
    assert dr.shape == hr.shape and dr.dtype == hr.dtype
    assert_bits_equal(dr.get(), hr)
    assert dr.flags.c_contiguous == hr.flags.c_contiguous
    assert dr.flags.f_contiguous == hr.flags.f_contiguous
    if np.shares_memory(hr, hb):
        # NumPy returns a view: so must gpuarr, with NumPy's strides, writing through.
        assert dr.base is not None and dr.base is db
        assert dr.strides == hr.strides
        dr[...] = 5
        hr[...] = 5
        assert_bits_equal(db.get(), hb)
    else:
        # NumPy copies: gpuarr's result must not alias the source.
        assert dr.base is not db
        before = db.get()
        dr[...] = 5
        assert_bits_equal(db.get(), before)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_reshape_forms(rng, dtype):
    h = random_array(rng, (4, 6), dtype)
    d = gpuarr.asarray(h)
    for args in [((24,),), (24,), (2, 12), ((3, 8),), ([8, 3],), (-1,), ((2, -1, 3),), (np.int64(6), 4)]:
        r = d.reshape(*args)
        hr = h.reshape(*args)
        assert_gpu_equal(r, hr)
        assert r.base is d
    assert_gpu_equal(d.reshape(3, 8, order="F"), h.reshape(3, 8, order="F"))
    # Reshape of a transposed array: a copy (NumPy cannot make a view either).
    t = d.T.reshape(-1)
    assert_bits_equal(t.get(), h.T.reshape(-1))
    assert not np.shares_memory(h.T.reshape(-1), h)


def test_reshape_zero_size_and_0d(rng):
    for shape, target in [((0, 3), (3, 0)), ((0, 3), (-1,)), ((0,), (2, 0, 5)), ((), (1, 1)),
                          ((1,), ()), ((1, 1), ())]:
        h = random_array(rng, shape, "int16")
        d = gpuarr.asarray(h)
        hr, dr = h.reshape(target), d.reshape(target)
        assert dr.shape == hr.shape
        assert_bits_equal(dr.get(), hr)


@pytest.mark.parametrize("target", [(5, 5), (5, -1), (-1, -1), (7, -1), (0, -1), (25,)], ids=repr)
def test_reshape_errors(rng, target):
    h = random_array(rng, (4, 6), "float64")
    d = gpuarr.asarray(h)
    with pytest.raises(ValueError) as expected:
        h.reshape(target)
    with pytest.raises(ValueError) as got:
        d.reshape(target)
    assert str(got.value) == str(expected.value)


def test_reshape_order_K_rejected(rng):
    h = random_array(rng, (4, 6), "float64")
    d = gpuarr.asarray(h)
    with pytest.raises(ValueError):
        h.reshape(24, order="K")
    with pytest.raises(ValueError):
        d.reshape(24, order="K")


# --- __setitem__ ---------------------------------------------------------------------------

SETITEM_DTYPES = ["float64", "int8", "uint16", "complex64", "bool", "float16", "int64"]


@pytest.mark.parametrize("dtype", SETITEM_DTYPES)
def test_setitem_scalars(rng, dtype):
    h = random_array(rng, (4, 5), dtype)
    d = gpuarr.asarray(h)
    for key, value in [
        (1, 5), ((2, 3), 7), (S(None), 3), ((S(None), 2), 1.0), (E, 2), ((), 9),
        ((None, 0), 4), ((S(None, None, -2), S(1, None, 2)), 6), ((-1, -1), True),
        (0, np.float32(3.0)), (3, np.int8(-1) if dtype[0] in "ifc" else np.uint8(8)),
        ((1, S(None, None, -1)), False),
    ]:
        h[key] = value
        d[key] = value
        assert_bits_equal(d.get(), h)
    value = random_array(rng, (), dtype)[()]
    h[1:3] = value
    d[1:3] = value
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize(
    "dtype, value",
    [("int8", 300), ("uint8", -1), ("int32", 2.7), ("float64", 1 + 2j), ("float32", 1e300),
     ("bool", 2), ("int16", np.float64(-3.9)), ("complex64", 1.5), ("uint8", np.int64(-1)),
     ("float64", np.complex128(1 + 2j)), ("int8", np.int64(300)), ("int8", np.float64(1e10))],
    ids=repr,
)
def test_setitem_scalar_cast_like_numpy(rng, dtype, value):
    h = small_int_array(rng, (3, 4), dtype)
    d = gpuarr.asarray(h)
    for key in (S(None), 1, (0, 1)):
        hk = h.copy()
        e_kind, e_val, _ = outcome(hk.__setitem__, key, value)
        g_kind, g_val, _ = outcome(d.__setitem__, key, value)
        if e_kind == "raise":
            assert g_kind == "raise", f"NumPy raised {e_val!r}; gpuarr accepted {value!r}"
            assert_same_exception(g_val, e_val, message=False)
        else:
            assert g_kind == "ok", f"gpuarr raised {g_val!r}"
            assert_bits_equal(d.get(), hk)
            h = hk


@pytest.mark.parametrize("dtype", SETITEM_DTYPES)
def test_setitem_arrays(rng, dtype):
    h = random_array(rng, (4, 5), dtype)
    d = gpuarr.asarray(h)
    block = random_array(rng, (2, 5), dtype)
    h[1:3] = block
    d[1:3] = block  # a NumPy array
    assert_bits_equal(d.get(), h)
    block2 = random_array(rng, (4, 2), dtype)
    h[:, ::-2][:, :2] = block2
    d[:, ::-2][:, :2] = gpuarr.asarray(block2)  # a gpuarr array into a strided view
    assert_bits_equal(d.get(), h)
    # A list.
    row = small_int_array(rng, (5,), dtype).tolist()
    h[0] = row
    d[0] = row
    assert_bits_equal(d.get(), h)
    # Values of another dtype (exactly representable).
    other = small_int_array(rng, (4, 5), "int16")
    h[...] = other
    d[...] = other
    assert_bits_equal(d.get(), h)
    h[...] = other[::-1]
    d[...] = gpuarr.asarray(other)[::-1]
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize("dtype", SETITEM_DTYPES)
def test_setitem_broadcast(rng, dtype):
    h = random_array(rng, (3, 4, 5), dtype)
    d = gpuarr.asarray(h)
    row = random_array(rng, (2,), dtype)
    h[:, 1, 1:3] = row
    d[:, 1, 1:3] = row
    assert_bits_equal(d.get(), h)
    row5 = random_array(rng, (5,), dtype)
    h[0] = row5
    d[0] = gpuarr.asarray(row5)
    assert_bits_equal(d.get(), h)
    col = random_array(rng, (3, 1, 1), dtype)
    h[...] = col
    d[...] = col
    assert_bits_equal(d.get(), h)
    plane = random_array(rng, (1, 4, 5), dtype)
    h[1:] = plane
    d[1:] = gpuarr.asarray(plane)
    assert_bits_equal(d.get(), h)
    zero_d = random_array(rng, (), dtype)
    h[2, 3] = zero_d
    d[2, 3] = gpuarr.asarray(zero_d)
    assert_bits_equal(d.get(), h)
    # NumPy also accepts values with extra leading length-1 axes.
    extra = random_array(rng, (1, 1, 4, 5), dtype)
    h[1] = extra
    d[1] = extra
    assert_bits_equal(d.get(), h)
    extra2 = random_array(rng, (1, 3, 4, 5), dtype)
    h[...] = extra2
    d[...] = gpuarr.asarray(extra2)
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize(
    "key, shape",
    [(S(None, 2), (3,)), (S(None), (6, 4)), ((0, S(None)), (2,)), (E, (2, 4, 6)), (0, (5, 6)),
     (S(None, 3), (4, 6))],
    ids=repr,
)
def test_setitem_bad_broadcast(rng, key, shape):
    h = random_array(rng, (4, 6), "float32")
    d = gpuarr.asarray(h)
    value = random_array(rng, shape, "float32")
    with pytest.raises(ValueError):
        h.copy()[key] = value
    with pytest.raises(ValueError):
        d[key] = value
    with pytest.raises(ValueError):
        d[key] = gpuarr.asarray(value)
    assert_bits_equal(d.get(), h)


def test_setitem_index_errors(rng):
    h = random_array(rng, (4, 6), "float32")
    d = gpuarr.asarray(h)
    for key in (4, (0, 6), (-5, 0), (0, 0, 0)):
        with pytest.raises(IndexError) as expected:
            h[key] = 1
        with pytest.raises(IndexError) as got:
            d[key] = 1
        assert str(got.value) == str(expected.value)
    with pytest.raises(IndexError):
        d[1.0] = 1


@pytest.mark.parametrize("n", [10, 100_003])
def test_setitem_overlapping_self(rng, n):
    # NumPy gives the result as if the right-hand side were copied first.
    h = random_array(rng, (n,), "float64")
    d = gpuarr.asarray(h)
    h[1:] = h[:-1]
    d[1:] = d[:-1]
    assert_bits_equal(d.get(), h)
    h[:-3] = h[3:]
    d[:-3] = d[3:]
    assert_bits_equal(d.get(), h)
    h[...] = h[::-1]
    d[...] = d[::-1]
    assert_bits_equal(d.get(), h)


# --- fill ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_fill(rng, dtype):
    h = random_array(rng, (3, 7), dtype)
    d = gpuarr.asarray(h)
    value = random_array(rng, (), dtype)[()]
    h.fill(value)
    assert d.fill(value) is None
    assert_bits_equal(d.get(), h)
    # Python scalars, a 0-d NumPy array and a 0-d gpuarr array.
    for v in (1, True, np.array(value), gpuarr.asarray(random_array(rng, (), dtype))):
        hv = v.get() if isinstance(v, gpuarr.ndarray) else v
        h.fill(hv)
        d.fill(v)
        assert_bits_equal(d.get(), h)
    # Into a strided view only.
    h[:, ::3].fill(value)
    d[:, ::3].fill(value)
    assert_bits_equal(d.get(), h)


def test_fill_non_scalar_rejected(rng):
    h = random_array(rng, (3,), "float64")
    d = gpuarr.asarray(h)
    with pytest.raises(ValueError):
        h.fill([1.0, 2.0])
    with pytest.raises(ValueError):
        d.fill([1.0, 2.0])


def test_fill_large(rng):
    h = np.empty(1_000_001, dtype=np.complex128)
    d = gpuarr.asarray(random_array(rng, h.shape, h.dtype))
    value = np.complex128(1.25 - 3.5j)
    h.fill(value)
    d.fill(value)
    assert_bits_equal(d.get(), h)
    # A start that is not 16-byte aligned and an odd length (the vectorised fill's edges).
    hb = random_array(rng, (1_000_003,), "uint8")
    db = gpuarr.asarray(hb)
    hb[3:].fill(0xAB)
    db[3:].fill(0xAB)
    assert_bits_equal(db.get(), hb)


# --- len / iteration -----------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(0,), (1,), (5,), (3, 4), (0, 3), (2, 3, 4)], ids=shape_id)
@pytest.mark.parametrize("dtype", ["float32", "int64", "complex128", "bool"])
def test_len_and_iteration(rng, shape, dtype):
    h = random_array(rng, shape, dtype)
    d = gpuarr.asarray(h)
    assert len(d) == len(h)
    items = list(d)
    assert len(items) == len(list(h))
    for di, hi in zip(items, h):
        assert isinstance(di, gpuarr.ndarray)
        assert_bits_equal(di.get(), np.asarray(hi))
        assert di.base is d
    # Iterating a non-contiguous view.
    if h.ndim >= 2:
        for di, hi in zip(d[::-1, ::2], h[::-1, ::2]):
            assert_bits_equal(di.get(), hi)


def test_0d_len_and_iteration_raise(rng):
    h = random_array(rng, (), "float64")
    d = gpuarr.asarray(h)
    with pytest.raises(TypeError) as expected:
        len(h)
    with pytest.raises(TypeError) as got:
        len(d)
    assert str(got.value) == str(expected.value)
    with pytest.raises(TypeError) as expected:
        iter(h)
    with pytest.raises(TypeError) as got:
        iter(d)
    assert str(got.value) == str(expected.value)
    with pytest.raises(TypeError):
        list(d)
