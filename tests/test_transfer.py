"""Host <-> device transfers: bit-exact round trips for every dtype (NaN payloads, infinities,
signed zeros), sizes on both sides of the pinned-staging threshold, ``get``/``set``/
``asnumpy`` with ``out=`` and non-contiguous arrays, pinned host memory and streams."""

import numpy as np
import pytest

import gpuarr
from conftest import (
    ALL_DTYPES,
    GPU_MODULE,
    INEXACT_DTYPES,
    SHAPES,
    as_bytes,
    assert_bits_equal,
    assert_gpu_equal,
    dtype_id,
    float_specials,
    random_array,
    random_bits_array,
    shape_id,
)

pytestmark = GPU_MODULE

dtypes = pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
shapes = pytest.mark.parametrize("shape", SHAPES + [(1000,), (7, 9, 11)], ids=shape_id)


def staging_threshold():
    settings = getattr(gpuarr._core, "transfer_settings", None)
    return settings()["threshold_bytes"] if settings else 4 << 20


def staging_chunk():
    settings = getattr(gpuarr._core, "transfer_settings", None)
    return settings()["chunk_bytes"] if settings else 32 << 20


# --- round trips ----------------------------------------------------------------------


@shapes
@dtypes
def test_round_trip_bits(rng, shape, dtype):
    h = random_bits_array(rng, shape, dtype)
    d = gpuarr.asarray(h)
    back = d.get()
    assert isinstance(back, np.ndarray) and back is not h
    assert_bits_equal(back, h)
    assert back.strides == h.strides
    assert_bits_equal(gpuarr.asnumpy(d), h)


@shapes
@dtypes
def test_round_trip_fortran_order(rng, shape, dtype):
    h = np.asfortranarray(random_bits_array(rng, shape, dtype))
    d = gpuarr.asarray(h)
    assert d.flags.f_contiguous == h.flags.f_contiguous
    assert d.flags.c_contiguous == h.flags.c_contiguous
    assert d.strides == h.strides
    back = d.get()
    assert back.flags.f_contiguous and back.strides == h.strides
    assert_bits_equal(back, h)


@pytest.mark.parametrize("dtype", INEXACT_DTYPES, ids=dtype_id)
def test_special_float_values_survive(dtype):
    h = float_specials(dtype)
    d = gpuarr.asarray(h)
    assert_bits_equal(d.get(), h)
    # Through a device-side copy and a strided (kernel) copy as well.
    assert_bits_equal(d.copy().get(), h)
    assert_bits_equal(d[::-1].copy().get(), h[::-1])
    assert_bits_equal(gpuarr.asarray(h[::2]).get(), h[::2])
    # set() into an existing array.
    e = gpuarr.empty(h.shape, dtype=dtype)
    e.set(h)
    assert np.array_equal(as_bytes(e.get()), as_bytes(h))


def _transfer_sizes():
    # Byte counts as functions of the staging threshold t and the staging chunk size c.
    return {
        "below-threshold": lambda t, c: t - 1,
        "at-threshold": lambda t, c: t,
        "above-threshold": lambda t, c: t + 1,
        "33MiB+7": lambda t, c: 33 * 2**20 + 7,
        "one-chunk": lambda t, c: c,
        "chunk+1": lambda t, c: c + 1,
        "5-chunks+3": lambda t, c: 5 * c + 3,
    }


@pytest.mark.parametrize("size", list(_transfer_sizes()))
def test_round_trip_sizes_uint8(rng, size):
    n = _transfer_sizes()[size](staging_threshold(), staging_chunk())
    h = rng.integers(0, 256, size=n, dtype=np.uint8)
    d = gpuarr.asarray(h)
    assert d.nbytes == n
    back = d.get()
    assert back.flags.writeable
    assert np.array_equal(back, h)
    # And back into an existing pageable array, and through set().
    out = np.empty(n, dtype=np.uint8)
    assert gpuarr.asnumpy(d, out=out) is out
    assert np.array_equal(out, h)
    h2 = rng.integers(0, 256, size=n, dtype=np.uint8)
    d.set(h2)
    assert np.array_equal(d.get(), h2)


def test_round_trip_100MB_float64(rng):
    h = rng.standard_normal(100_000_000 // 8)
    d = gpuarr.asarray(h)
    assert d.nbytes == h.nbytes
    assert_bits_equal(d.get(), h)
    h2 = np.asfortranarray(h.reshape(2500, 5000))
    d2 = gpuarr.asarray(h2)
    back = d2.get()
    assert back.flags.f_contiguous
    assert_bits_equal(back, h2)


@pytest.mark.parametrize("n", [1, 7, 4095, 65535, 65536, 65537, (4 << 20) // 8 + 3])
def test_round_trip_odd_lengths_complex(rng, n):
    h = random_bits_array(rng, (n,), "complex128")
    assert_bits_equal(gpuarr.asarray(h).get(), h)


# --- asnumpy / get with out= ------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float64", "int8", "complex64", "bool", "float16"])
def test_asnumpy_out_contiguous(rng, dtype):
    h = random_array(rng, (6, 8), dtype)
    d = gpuarr.asarray(h)
    out = np.empty((6, 8), dtype=dtype)
    r = gpuarr.asnumpy(d, out=out)
    assert r is out
    assert_bits_equal(out, h)
    out2 = np.empty((6, 8), dtype=dtype)
    assert d.get(out=out2) is out2
    assert_bits_equal(out2, h)
    # An F-ordered out for a C array (a layout conversion on the way).
    outf = np.empty((6, 8), dtype=dtype, order="F")
    assert gpuarr.asnumpy(d, out=outf) is outf
    assert_bits_equal(outf, h)


@pytest.mark.parametrize("dtype", ["float32", "uint16", "complex128"])
def test_asnumpy_out_noncontiguous(rng, dtype):
    h = random_array(rng, (5, 6), dtype)
    d = gpuarr.asarray(h)
    big = random_array(rng, (10, 12), dtype)
    expected_big = big.copy()
    out = big[::2, ::2]
    assert out.shape == (5, 6) and not out.flags.c_contiguous
    r = gpuarr.asnumpy(d, out=out)
    assert r is out
    expected_big[::2, ::2] = h
    assert_bits_equal(big, expected_big)  # the other elements are untouched
    # A non-contiguous device array into a contiguous out.
    out2 = np.empty((3, 6), dtype=dtype)
    d[::-2].get(out=out2)
    assert_bits_equal(out2, h[::-2])
    # Non-contiguous into non-contiguous.
    big2 = random_array(rng, (4, 12), dtype)
    expected2 = big2.copy()
    d[1::2].get(out=big2[::2, 1::2])
    expected2[::2, 1::2] = h[1::2]
    assert_bits_equal(big2, expected2)


def test_asnumpy_out_errors(rng):
    d = gpuarr.asarray(random_array(rng, (4, 5), "float64"))
    with pytest.raises(ValueError):
        gpuarr.asnumpy(d, out=np.empty((5, 4)))
    with pytest.raises(ValueError):
        d.get(out=np.empty(20))
    with pytest.raises(TypeError):
        gpuarr.asnumpy(d, out=np.empty((4, 5), dtype=np.float32))
    with pytest.raises(TypeError):
        d.get(out=np.empty((4, 5), dtype=np.int64))
    with pytest.raises(TypeError):
        d.get(out=[[0.0] * 5] * 4)
    ro = np.empty((4, 5))
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        d.get(out=ro)


def test_asnumpy_of_host_data(rng):
    h = random_array(rng, (3, 4), "int32")
    assert_bits_equal(gpuarr.asnumpy(h), h)
    assert_bits_equal(gpuarr.asnumpy([1, 2, 3]), np.asarray([1, 2, 3]))


@dtypes
def test_get_various_views(rng, dtype):
    h = random_array(rng, (4, 5, 6), dtype)
    d = gpuarr.asarray(h)
    for key in [(slice(None), 1), (Ellipsis, slice(None, None, -2)), (slice(1, 3), slice(None), 0),
                (None, 2), (slice(None, None, -1), slice(None, None, 2), slice(1, None, 3))]:
        assert_bits_equal(d[key].get(), h[key])
    assert_bits_equal(d.transpose(2, 0, 1).get(), h.transpose(2, 0, 1))
    back = d.T.get()
    assert back.flags.f_contiguous and back.strides == h.T.strides


# --- set --------------------------------------------------------------------------------


@shapes
@dtypes
def test_set_contiguous(rng, shape, dtype):
    d = gpuarr.asarray(random_array(rng, shape, dtype))
    h = random_bits_array(rng, shape, dtype)
    assert d.set(h) is None
    assert_bits_equal(d.get(), h)


@dtypes
def test_set_noncontiguous_destination(rng, dtype):
    h0 = random_array(rng, (8, 6), dtype)
    d = gpuarr.asarray(h0)
    h = random_array(rng, (4, 6), dtype)
    d[::2].set(h)
    expected = h0.copy()
    expected[::2] = h
    assert_bits_equal(d.get(), expected)
    # A reversed, strided column block.
    hcol = random_array(rng, (8, 2), dtype)
    d[::-1, 1:5:2].set(hcol)
    expected[::-1, 1:5:2] = hcol
    assert_bits_equal(d.get(), expected)


@dtypes
def test_set_noncontiguous_source(rng, dtype):
    h0 = random_array(rng, (4, 6), dtype)
    d = gpuarr.asarray(h0)
    src = random_array(rng, (8, 12), dtype)[::2, ::-2]
    d.set(src)
    assert_bits_equal(d.get(), src)
    # An F-ordered source into a C-ordered array.
    srcf = np.asfortranarray(random_array(rng, (4, 6), dtype))
    d.set(srcf)
    assert d.flags.c_contiguous
    assert_bits_equal(d.get(), srcf)
    # A C-ordered source into an F-ordered array.
    df = gpuarr.asarray(np.asfortranarray(h0))
    srcc = random_array(rng, (4, 6), dtype)
    df.set(srcc)
    assert df.flags.f_contiguous
    assert_bits_equal(df.get(), srcc)


def test_set_errors(rng):
    h = random_array(rng, (4, 5), "float32")
    d = gpuarr.asarray(h)
    with pytest.raises(ValueError):
        d.set(np.zeros((5, 4), dtype=np.float32))
    with pytest.raises(ValueError):
        d.set(np.zeros(20, dtype=np.float32))
    with pytest.raises(TypeError):
        d.set(np.zeros((4, 5), dtype=np.float64))
    with pytest.raises(TypeError):
        d.set(np.zeros((4, 5), dtype=np.int32))
    with pytest.raises(TypeError):
        d.set([[0.0] * 5] * 4)
    with pytest.raises(TypeError):
        d.set(gpuarr.zeros((4, 5), dtype=np.float32))
    # Nothing was written by the failed calls.
    assert_bits_equal(d.get(), h)


# --- pinned memory ----------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float64", "uint8", "complex64", "bool", "int16", "float16"])
@pytest.mark.parametrize("shape", [(0,), (7,), (3, 5), (64, 1024)], ids=shape_id)
def test_empty_pinned(rng, shape, dtype):
    p = gpuarr.empty_pinned(shape, dtype)
    assert isinstance(p, np.ndarray)
    assert p.shape == shape and p.dtype == np.dtype(dtype)
    assert p.flags.c_contiguous and p.flags.writeable
    is_pinned = getattr(gpuarr._core, "is_pinned", None)
    if is_pinned is not None and p.size:
        assert is_pinned(p)
    h = random_array(rng, shape, dtype)
    p[...] = h
    d = gpuarr.asarray(p)
    assert_bits_equal(d.get(), h)
    p2 = gpuarr.empty_pinned(shape, dtype=dtype)
    assert d.get(out=p2) is p2
    assert_bits_equal(p2, h)
    h2 = random_array(rng, shape, dtype)
    p2[...] = h2
    d.set(p2)
    assert_bits_equal(d.get(), h2)


def test_empty_pinned_forms(rng):
    p = gpuarr.empty_pinned(5)
    assert p.shape == (5,) and p.dtype == np.float64
    pf = gpuarr.empty_pinned((3, 4), dtype=np.int32, order="F")
    assert pf.flags.f_contiguous and pf.shape == (3, 4)
    h = random_array(rng, (3, 4), "int32")
    pf[...] = h
    d = gpuarr.asarray(pf)
    assert d.flags.f_contiguous
    back = d.get()
    assert back.flags.f_contiguous
    assert_bits_equal(back, h)


@pytest.mark.parametrize("nbytes", [8, 4096, 3 * 2**20 + 8, 9 * 2**20])
def test_alloc_pinned_memory(rng, nbytes):
    mem = gpuarr.cuda.alloc_pinned_memory(nbytes)
    assert len(mem) == nbytes
    h = np.frombuffer(mem, dtype=np.float64, count=nbytes // 8)
    assert h.flags.writeable and h.nbytes == nbytes
    src = rng.standard_normal(nbytes // 8)
    h[...] = src
    d = gpuarr.asarray(h)
    assert_bits_equal(d.get(), src)
    # Device -> pinned.
    mem2 = gpuarr.cuda.alloc_pinned_memory(nbytes)
    out = np.frombuffer(mem2, dtype=np.float64, count=nbytes // 8)
    d2 = gpuarr.asarray(src[::-1].copy())
    d2.get(out=out)
    assert_bits_equal(out, src[::-1].copy())
    # A uint8 view of the same memory.
    b = np.frombuffer(mem, dtype=np.uint8)
    assert np.array_equal(gpuarr.asarray(b).get(), src.view(np.uint8))


@pytest.mark.parametrize("n", [1000, 2**20 + 3])
def test_async_get_into_pinned(rng, n):
    h = rng.standard_normal(n)
    d = gpuarr.asarray(h)
    s = gpuarr.cuda.Stream()
    out = gpuarr.empty_pinned(n, np.float64)
    out[...] = 0.0
    r = d.get(stream=s, out=out, blocking=False)
    assert r is out
    s.synchronize()
    assert_bits_equal(out, h)
    # Blocking get on a stream needs no explicit synchronisation.
    out2 = gpuarr.empty_pinned(n, np.float64)
    d.get(stream=s, out=out2)
    assert_bits_equal(out2, h)
    # A plain get on a stream.
    assert_bits_equal(d.get(stream=s), h)
    assert_bits_equal(gpuarr.asnumpy(d, stream=s), h)


@pytest.mark.parametrize("n", [1000, 2**20 + 3])
def test_async_set_from_pinned(rng, n):
    p = gpuarr.empty_pinned(n, np.int32)
    h = random_array(rng, (n,), "int32")
    p[...] = h
    d = gpuarr.empty(n, dtype=np.int32)
    s = gpuarr.cuda.Stream()
    d.set(p, stream=s)
    s.synchronize()
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize("order", ["C", "F"])
def test_pinned_2d_round_trip(rng, order):
    h = random_array(rng, (300, 257), "complex64")
    p = gpuarr.empty_pinned(h.shape, h.dtype, order=order)
    p[...] = h
    d = gpuarr.asarray(p)
    assert d.flags.f_contiguous == (order == "F")
    out = gpuarr.empty_pinned(h.shape, h.dtype, order=order)
    d.get(out=out)
    assert_bits_equal(out, h)


# --- F order is kept -----------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float64", "int8", "complex128"])
def test_fortran_order_kept_everywhere(rng, dtype):
    h = np.asfortranarray(random_array(rng, (5, 7, 3), dtype))
    for d in (gpuarr.asarray(h), gpuarr.array(h), gpuarr.array(h, order="F"), gpuarr.copy(h)):
        assert d.flags.f_contiguous and not d.flags.c_contiguous
        assert d.strides == h.strides
        back = d.get()
        assert back.flags.f_contiguous
        assert_bits_equal(back, h)
    assert_gpu_equal(gpuarr.asarray(h), h)
