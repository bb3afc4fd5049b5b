"""Pickling, ``copy``/``deepcopy``, ``device`` and the array attributes (shape, ndim, size,
dtype, itemsize, nbytes, strides, flags), compared with NumPy arrays built the same way."""

import copy
import pickle

import numpy as np
import pytest

import gpuarr
from conftest import (
    ALL_DTYPES,
    GPU_MODULE,
    SHAPES,
    assert_bits_equal,
    assert_gpu_equal,
    dtype_id,
    random_array,
    random_bits_array,
    shape_id,
)

pytestmark = GPU_MODULE

# Ways to derive an array from a (4, 6) base, applied identically on host and device.
DERIVED = {
    "C": lambda x: x,
    "F": lambda x: x.T,
    "strided": lambda x: x[::2, 1::2],
    "reversed": lambda x: x[::-1, ::-1],
    "row": lambda x: x[1],
    "column": lambda x: x[:, 2],
    "newaxis": lambda x: x[:, None, 1:4],
    "0d": lambda x: x[1, 2, ...],
    "empty": lambda x: x[2:2],
    "reshaped": lambda x: x.reshape(2, 3, 4),
    "reshaped-F": lambda x: x.reshape(3, 8, order="F"),
    "transposed-3d": lambda x: x.reshape(2, 3, 4).transpose(2, 0, 1),
}


# --- pickle --------------------------------------------------------------------------------


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("shape", SHAPES, ids=shape_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_pickle_round_trip(rng, dtype, shape, protocol):
    h = random_bits_array(rng, shape, dtype)
    d = gpuarr.asarray(h)
    r = pickle.loads(pickle.dumps(d, protocol=protocol))
    assert isinstance(r, gpuarr.ndarray)
    assert r is not d
    assert_gpu_equal(r, h)


@pytest.mark.parametrize("derived", list(DERIVED))
@pytest.mark.parametrize("dtype", ["float64", "int8", "complex64", "bool"])
def test_pickle_views_and_orders(rng, dtype, derived):
    hb = random_array(rng, (4, 6), dtype)
    h = DERIVED[derived](hb)
    d = DERIVED[derived](gpuarr.asarray(hb))
    r = pickle.loads(pickle.dumps(d))
    assert isinstance(r, gpuarr.ndarray)
    assert r.shape == h.shape and r.dtype == h.dtype
    assert_bits_equal(r.get(), h)
    # The unpickled array owns its memory and keeps F order where the source had it.
    assert r.base is None and r.flags.owndata
    if h.flags.f_contiguous and not h.flags.c_contiguous:
        assert r.flags.f_contiguous
    assert r.flags.c_contiguous or r.flags.f_contiguous
    # It is independent of the source.
    if r.size:
        r[...] = 1
        assert_bits_equal(d.get(), h)


def test_pickle_fortran_keeps_layout(rng):
    h = np.asfortranarray(random_array(rng, (5, 7, 3), "float32"))
    d = gpuarr.asarray(h)
    r = pickle.loads(pickle.dumps(d))
    assert r.flags.f_contiguous and not r.flags.c_contiguous
    assert_gpu_equal(r, h)


def test_pickle_inside_containers(rng):
    h1 = random_array(rng, (3,), "int32")
    h2 = random_array(rng, (2, 2), "complex128")
    d1, d2 = gpuarr.asarray(h1), gpuarr.asarray(h2)
    obj = {"a": d1, "b": [d2, d2], "c": (1, "x")}
    r = pickle.loads(pickle.dumps(obj))
    assert_gpu_equal(r["a"], h1)
    assert_gpu_equal(r["b"][0], h2)
    assert r["b"][0] is r["b"][1]  # pickle's memo keeps shared references shared
    assert r["c"] == (1, "x")


# --- copy / deepcopy -----------------------------------------------------------------------


@pytest.mark.parametrize("fn", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
@pytest.mark.parametrize("derived", list(DERIVED))
def test_copy_module(rng, fn, derived):
    hb = random_array(rng, (4, 6), "float64")
    db = gpuarr.asarray(hb)
    h, d = DERIVED[derived](hb), DERIVED[derived](db)
    c = fn(d)
    assert isinstance(c, gpuarr.ndarray)
    assert c is not d
    assert c.base is None and c.flags.owndata
    assert c.shape == h.shape and c.dtype == h.dtype
    assert_bits_equal(c.get(), h)
    if c.size:
        assert c.data.ptr != d.data.ptr
        c[...] = -1.0
        assert_bits_equal(d.get(), h)  # the source is unchanged
        assert_bits_equal(db.get(), hb)
        d[...] = 3.5
        assert_bits_equal(c.get(), np.full(h.shape, -1.0))  # and the copy too


@pytest.mark.parametrize("fn", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
@pytest.mark.parametrize("derived", ["C", "F", "strided", "transposed-3d", "reshaped-F"])
def test_copy_module_layout_like_numpy(rng, fn, derived):
    # ndarray.__copy__/__deepcopy__ keep the memory layout (NumPy copies with order 'K').
    hb = random_array(rng, (4, 6), "int32")
    h, d = DERIVED[derived](hb), DERIVED[derived](gpuarr.asarray(hb))
    assert_gpu_equal(fn(d), fn(h))


def test_deepcopy_memo(rng):
    d = gpuarr.asarray(random_array(rng, (5,), "float32"))
    pair = copy.deepcopy([d, d])
    assert pair[0] is pair[1]
    assert pair[0] is not d


# --- device ----------------------------------------------------------------------------


def test_device_attribute(rng):
    d = gpuarr.asarray(random_array(rng, (3,), "float64"))
    assert d.device == gpuarr.cuda.Device(0)
    assert isinstance(d.device, gpuarr.cuda.Device)
    assert d.device.id == 0
    assert d[1:].device == gpuarr.cuda.Device(0)
    assert d.data.device_id == 0
    assert isinstance(d.data.ptr, int) and d.data.ptr != 0
    assert int(d.data) == d.data.ptr


# --- attributes ------------------------------------------------------------------------------


def assert_attributes_equal(d, h, *, ownership=True):
    assert d.shape == h.shape and isinstance(d.shape, tuple)
    assert d.ndim == h.ndim
    assert d.size == h.size
    assert isinstance(d.dtype, np.dtype) and d.dtype == h.dtype
    assert d.dtype.type is h.dtype.type
    assert d.itemsize == h.itemsize
    assert d.nbytes == h.nbytes
    assert d.strides == h.strides and isinstance(d.strides, tuple)
    assert d.flags.c_contiguous == h.flags.c_contiguous
    assert d.flags.f_contiguous == h.flags.f_contiguous
    for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "C", "F", "CONTIGUOUS", "FORTRAN"):
        assert d.flags[key] == h.flags[key], key
    if ownership:
        assert d.flags.owndata == h.flags.owndata
        assert d.flags["OWNDATA"] == h.flags["OWNDATA"]
        assert d.flags["O"] == h.flags["O"]
        assert (d.base is None) == (h.base is None)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", SHAPES, ids=shape_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_attributes_fresh(rng, dtype, shape, order):
    h = np.asarray(random_array(rng, shape, dtype), order=order).copy(order=order)
    d = gpuarr.asarray(h)
    assert_attributes_equal(d, h)
    assert_attributes_equal(gpuarr.empty(shape, dtype=dtype, order=order),
                            np.empty(shape, dtype=dtype, order=order))


@pytest.mark.parametrize("derived", list(DERIVED))
@pytest.mark.parametrize("dtype", ["float64", "int8", "complex128", "bool", "float16", "uint32"])
def test_attributes_views(rng, dtype, derived):
    hb = random_array(rng, (4, 6), dtype)
    db = gpuarr.asarray(hb)
    h, d = DERIVED[derived](hb), DERIVED[derived](db)
    # NumPy's reshape that has to copy returns a view of a temporary copy (base set,
    # owndata False); gpuarr returns the copy itself: ownership differs by design.
    assert_attributes_equal(d, h, ownership=h is hb or h.base is hb)
    assert_bits_equal(d.get(), h)


def test_flags_bad_key(rng):
    d = gpuarr.asarray(random_array(rng, (3,), "float32"))
    with pytest.raises(KeyError):
        d.flags["NOT_A_FLAG"]
    r = repr(d.flags)
    assert "C_CONTIGUOUS : True" in r and "OWNDATA : True" in r


def test_ndarray_type_and_module(rng):
    d = gpuarr.asarray(random_array(rng, (2,), "int64"))
    assert type(d) is gpuarr.ndarray
    assert gpuarr.ndarray.__module__ == "gpuarr"
    assert gpuarr.float32 is np.float32 and gpuarr.newaxis is None
