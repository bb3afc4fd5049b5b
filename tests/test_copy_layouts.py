"""Same-dtype copies by layout, bitwise against NumPy: a source contiguous along one dim
and a destination along another go through shared-memory tiles (every element size,
planes whose sides are not multiples of the tile, batches deeper than one grid, negative
strides on the batch dims, 3-d permutations, planes too tall for the grid); other strided
copies walk rows of the innermost dim or, for short rows, divide each index in 32 bits,
in pieces past 2^31 elements. Ufunc inputs contiguous along another dim than the result
are copied like it first."""

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE, assert_bits_equal, random_array

pytestmark = GPU_MODULE


@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "complex128"])
def test_transposed_copies_match_numpy(rng, dtype):
    h = random_array(rng, (70, 45), dtype)
    d = gpuarr.asarray(h)
    assert_bits_equal(gpuarr.ascontiguousarray(d.T).get(), np.ascontiguousarray(h.T))
    assert_bits_equal(d.T.copy().get(), h.T.copy())
    h3 = random_array(rng, (3, 40, 33), dtype)
    d3 = gpuarr.asarray(h3)
    for axes in ((2, 0, 1), (1, 2, 0), (0, 2, 1), (2, 1, 0)):
        assert_bits_equal(gpuarr.ascontiguousarray(d3.transpose(axes)).get(),
                          np.ascontiguousarray(h3.transpose(axes)))
    assert_bits_equal(gpuarr.ascontiguousarray(d3[::-1, :, ::-1].transpose(0, 2, 1)).get(),
                      np.ascontiguousarray(h3[::-1, :, ::-1].transpose(0, 2, 1)))


def test_deep_batches_and_tall_planes():
    h = (np.arange(65537 * 32 * 33) % 251).astype(np.uint8).reshape(65537, 32, 33)
    d = gpuarr.asarray(h)
    got = gpuarr.ascontiguousarray(d.transpose(0, 2, 1)).get()
    assert_bits_equal(got, np.ascontiguousarray(h.transpose(0, 2, 1)))
    tall = (np.arange(32 * (2**21 + 5)) % 253).astype(np.uint8).reshape(32, 2**21 + 5)
    dt = gpuarr.asarray(tall)
    assert_bits_equal(gpuarr.ascontiguousarray(dt.T).get(), np.ascontiguousarray(tall.T))


def test_fancy_columns_keep_numpy_s_layout(rng):
    h = random_array(rng, (300, 200), "float32")
    d = gpuarr.asarray(h)
    idx = rng.integers(-200, 200, 150)
    got = d[:, gpuarr.asarray(idx)]
    want = h[:, idx]
    assert got.strides == want.strides
    assert_bits_equal(got.get(), want)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "complex64"])
def test_ufuncs_of_inputs_transposed_against_the_result(rng, dtype):
    """Large inputs contiguous along another dim than the result are copied like it first:
    values, result layout and out= as NumPy."""
    h = random_array(rng, (300, 260), dtype)
    g = random_array(rng, (260, 300), dtype)
    d, e = gpuarr.asarray(h), gpuarr.asarray(g)
    for got, want in ((d.T + e, h.T + g), (e + d.T, g + h.T), (d.T < e, h.T < g),
                      (gpuarr.multiply(d.T, e[::-1]), np.multiply(h.T, g[::-1]))):
        assert got.strides == want.strides
        assert_bits_equal(got.get(), want)
    out = gpuarr.empty((260, 300), dtype=dtype, order="F")
    gpuarr.subtract(e, d.T[:, ::-1], out=out)
    assert_bits_equal(out.get(), np.subtract(g, h.T[:, ::-1]))
    h3 = random_array(rng, (40, 50, 60), dtype)
    d3 = gpuarr.asarray(h3)
    for axes in ((2, 0, 1), (1, 2, 0)):
        t = h3.transpose(axes)
        c = np.ascontiguousarray(t)
        got = d3.transpose(axes) + gpuarr.asarray(c)
        assert_bits_equal(got.get(), t + c)


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
def test_strided_copies_by_rows_and_by_element(rng, dtype):
    h = random_array(rng, (300, 200), dtype)
    d = gpuarr.asarray(h)
    for key in ((slice(None, None, -1),), (slice(None), slice(None, None, -1)),
                (slice(None, None, 2), slice(1, None, 3)), (slice(None), slice(None, 100))):
        assert_bits_equal(d[key].copy().get(), h[key].copy())
    assert_bits_equal(gpuarr.roll(d, 7, axis=1).get(), np.roll(h, 7, axis=1))
    assert_bits_equal(gpuarr.tile(d[:50, :40], (2, 3)).get(), np.tile(h[:50, :40], (2, 3)))
    flat = h.reshape(-1)
    assert_bits_equal(gpuarr.asarray(flat)[::-3].copy().get(), flat[::-3].copy())
    # few long rows: several blocks a row
    long_rows = random_array(rng, (3, 300001), dtype)
    assert_bits_equal(gpuarr.tile(gpuarr.asarray(long_rows[0]), (4, 1)).get(),
                      np.tile(long_rows[0], (4, 1)))
    assert_bits_equal(gpuarr.asarray(long_rows)[::-1, ::2].copy().get(),
                      long_rows[::-1, ::2].copy())


@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "complex128"])
def test_copies_into_short_contiguous_rows(rng, dtype):
    # Rows under 128 bytes into a C-contiguous result go in one pass, each thread storing
    # consecutive elements across row ends: broadcasts along the rows (repeat by a count),
    # column blocks, reversed and strided rows, narrow transposes, a single short row.
    h = random_array(rng, (301, 37), dtype)
    d = gpuarr.asarray(h)
    for reps in (2, 3, 5, 8):
        for axis in (None, 0, 1):
            assert_bits_equal(gpuarr.repeat(d, reps, axis).get(), np.repeat(h, reps, axis))
        assert_bits_equal(gpuarr.repeat(d[::-2, 1:6], reps, 1).get(),
                          np.repeat(h[::-2, 1:6], reps, 1))
    for key in ((slice(None), slice(None, 3)), (slice(None, None, -1), slice(2, 9)),
                (slice(None), slice(None, None, -7)), (slice(1, 2), slice(None, 5)),
                (slice(None, 2), Ellipsis)):
        assert_bits_equal(d[key].copy().get(), h[key].copy())
    for n in (1, 2, 3, 7):
        assert_bits_equal(gpuarr.ascontiguousarray(d[:n].T).get(),
                          np.ascontiguousarray(h[:n].T))
    wide = random_array(rng, (5, 40), dtype)
    dw = gpuarr.asarray(wide)
    assert_bits_equal(gpuarr.broadcast_to(dw[:, :1], (5, 3)).copy().get(),
                      np.broadcast_to(wide[:, :1], (5, 3)).copy())


def test_row_copies_past_int32_elements():
    if gpuarr.cuda.runtime.memGetInfo()[0] < 5 * 2**30:
        pytest.skip("needs 5 GiB of free GPU memory")
    rows, cols = 2**21 + 3, 1025
    row = (gpuarr.arange(cols, dtype=np.int32) % 251).astype(np.uint8)
    full = gpuarr.ascontiguousarray(gpuarr.broadcast_to(row, (rows, cols)))
    want = (np.arange(cols) % 251).astype(np.uint8)
    per_piece = (2**31 - 1) // cols  # whole rows a launch holds
    for r in (0, per_piece - 1, per_piece, per_piece + 1, rows - 1):
        assert_bits_equal(full[r].get(), want)
