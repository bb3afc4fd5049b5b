"""Copies where the source is contiguous along one dim and the destination along another go
through shared-memory tiles: bitwise against NumPy for every element size, planes whose
sides are not multiples of the tile, batches (more than one grid's 65535 tiles deep),
negative strides on the batch dims, 3-d permutations, and the planes too tall for the
grid, which take the element-wise copy."""

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
