"""Elementwise launches past 2^31 elements: the Rows and Strided modes index in 32 bits, so
the host cuts such a launch into pieces along the leading dimension. Values on both sides
of each piece boundary, and the last rows, against NumPy (about 15 GB of GPU memory)."""

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE

pytestmark = GPU_MODULE

INT32_MAX = 2**31 - 1


def _need_free_gib(gib):
    if gpuarr.cuda.runtime.memGetInfo()[0] < gib * 2**30:
        pytest.skip(f"needs {gib} GiB of free GPU memory")


def _rows_around_pieces(n_rows, *row_elements):
    """Row indices at the start, on both sides of every piece boundary (a piece is as many
    whole rows as INT32_MAX elements hold), and at the end."""
    rows = {0, 1, n_rows - 2, n_rows - 1}
    for k in row_elements:
        per_piece = INT32_MAX // k
        for b in range(per_piece, n_rows, per_piece):
            rows.update({b - 1, b, b + 1})
    return sorted(r for r in rows if 0 <= r < n_rows)


def test_strided_mode_past_int32_elements():
    """A view whose inner dim is short (Strided mode) with 2^32 + 24 elements."""
    _need_free_gib(16)
    n = 2**29 + 3
    row_pattern = (gpuarr.arange(n, dtype=np.uint32) % 251).astype(np.uint8)
    col_pattern = gpuarr.arange(16, dtype=np.uint8)
    a = row_pattern[:, None] + col_pattern[None, :]   # 2^33 elements, Strided mode too
    del row_pattern
    v = a[:, ::2]
    r = v * np.uint8(3)
    assert r.shape == (n, 8) and r.dtype == np.uint8
    for i in _rows_around_pieces(n, 8, 16):
        row = (np.uint8(i % 251) + np.arange(16, dtype=np.uint8))
        np.testing.assert_array_equal(a[i].get(), row)
        np.testing.assert_array_equal(r[i].get(), row[::2] * np.uint8(3))


@pytest.mark.parametrize("start", [3, 16], ids=["unaligned_rows", "vector_rows"])
def test_rows_mode_past_int32_elements(start):
    """Rows of 256 contiguous elements, 512 bytes apart (Rows mode), 2^32 + 256 elements;
    rows starting 16-byte aligned go in vectors, the others one element at a time."""
    _need_free_gib(14)
    n = 2**24 + 1
    base = gpuarr.empty((n, 512), dtype=np.uint8)
    base[...] = (gpuarr.arange(n, dtype=np.uint32) % 253).astype(np.uint8)[:, None]
    b = base[:, start:start + 256]
    r = b + gpuarr.arange(256, dtype=np.uint8)
    assert r.shape == (n, 256)
    for i in _rows_around_pieces(n, 256):
        expect = np.uint8(i % 253) + np.arange(256, dtype=np.uint8)
        np.testing.assert_array_equal(r[i].get(), expect)
