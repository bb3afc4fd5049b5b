"""The gather and scatter kernels of fancy indexing, take and put, against NumPy: one index
array read as it is (int32 or int64, any strides, negative values, the modes of take and
put), several arrays combined into offsets, put's last-write rule for repeated indices
(the claiming scatter, the run-end write of sorted indices and the sorting path for very
large arrays), bounds errors found by the gather after the fact and by the scatter before
any write, an index that is the target array's own memory, and launches past 2^31
elements."""

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE, assert_bits_equal, random_array

pytestmark = GPU_MODULE

WORD_DTYPES = ["int8", "float16", "float32", "int64", "complex128"]  # 1, 2, 4, 8, 16 bytes


def _index_views(rng, n, size, dtype, negative=True):
    """Host index arrays of n values in [-size, size) (or [0, size)) and the same on the
    device: contiguous, and a negative-stride view of a longer array."""
    lo = -size if negative else 0
    h = rng.integers(lo, size, n).astype(dtype)
    longer = rng.integers(lo, size, 2 * n).astype(dtype)
    return [(h, gpuarr.asarray(h)), (longer[::-2], gpuarr.asarray(longer)[::-2])]


@pytest.mark.parametrize("dtype", WORD_DTYPES)
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
def test_gather_one_index_array(rng, dtype, index_dtype):
    h = random_array(rng, (6, 7, 8), dtype)
    d = gpuarr.asarray(h)
    for hi, di in _index_views(rng, 5, 7, index_dtype):
        assert_bits_equal(d[:, di].get(), h[:, hi])
        assert_bits_equal(d[..., hi[:4] % 8].get(), h[..., hi[:4] % 8])
    for hi, di in _index_views(rng, 9, 6, index_dtype):
        assert_bits_equal(d[di].get(), h[hi])
        assert_bits_equal(d[di, 2].get(), h[hi, 2])
        assert_bits_equal(d[1:5, 3, di[:2] % 8].get(), h[1:5, 3, hi[:2] % 8])
    two_d = rng.integers(-6, 6, (3, 4)).astype(index_dtype)
    assert_bits_equal(d[gpuarr.asarray(two_d)].get(), h[two_d])
    assert_bits_equal(d[:, gpuarr.asarray(two_d.T)].get(), h[:, two_d.T])
    flat = h.reshape(-1)
    big = rng.integers(-flat.size, flat.size, 5000).astype(index_dtype)
    assert_bits_equal(gpuarr.asarray(flat)[gpuarr.asarray(big)].get(), flat[big])


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("index_dtype", ["int32", "int64", "uint8"])
def test_take_modes(rng, mode, index_dtype):
    h = random_array(rng, (5, 9), "float32")
    d = gpuarr.asarray(h)
    span = 9 if mode == "raise" else 40
    negative = index_dtype != "uint8"
    for hi, di in _index_views(rng, 11, span, index_dtype, negative):
        assert_bits_equal(gpuarr.take(d, di, axis=1, mode=mode).get(),
                          np.take(h, hi, axis=1, mode=mode))
        assert_bits_equal(gpuarr.take(d, di, mode=mode).get(), np.take(h, hi, mode=mode))
        assert_bits_equal(gpuarr.take(d, hi, mode=mode).get(), np.take(h, hi, mode=mode))


@pytest.mark.parametrize("dtype", WORD_DTYPES)
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
def test_scatter_one_index_array(rng, dtype, index_dtype):
    h = random_array(rng, (6, 7), dtype)
    d = gpuarr.asarray(h)
    cols = rng.permutation(7)[:4].astype(index_dtype) - 7  # distinct, negative
    v = random_array(rng, (6, 4), dtype)
    h[:, cols] = v
    d[:, gpuarr.asarray(cols)] = gpuarr.asarray(v)
    assert_bits_equal(d.get(), h)
    rows = rng.permutation(6)[:3].astype(index_dtype)
    h[rows[::-1]] = v[0, :1]  # a broadcast value
    d[gpuarr.asarray(rows)[::-1]] = gpuarr.asarray(v[0, :1])
    assert_bits_equal(d.get(), h)


def test_index_in_the_target_s_memory_is_read_before_the_writes(rng):
    h = rng.permutation(50).astype(np.int64)
    d = gpuarr.asarray(h)
    h[h] = np.arange(50)
    d[d] = gpuarr.arange(50)
    assert_bits_equal(d.get(), h)


def test_several_index_arrays_combine_into_offsets(rng):
    h = random_array(rng, (6, 7, 8), "float64")
    d = gpuarr.asarray(h)
    i = rng.integers(-6, 6, 10).astype(np.int32)
    j = rng.integers(0, 8, 10)
    assert_bits_equal(d[gpuarr.asarray(i), :, gpuarr.asarray(j)].get(), h[i, :, j])
    v = random_array(rng, (10, 7), "float64")
    i, j = np.divmod(rng.permutation(48)[:10], 8)  # distinct pairs
    h[i, :, j] = v
    d[gpuarr.asarray(i), :, gpuarr.asarray(j)] = gpuarr.asarray(v)
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
@pytest.mark.parametrize("rows", [5, 200])
def test_bounds_errors_report_the_first_bad_index(index_dtype, rows):
    # 200 rows: the result holds 64 elements an index or more, and a gather checks its
    # index before it starts instead of flagging bad values as it reads them.
    h = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8)
    d = gpuarr.asarray(h)
    bad = np.array([[1, -9, 3], [12, 0, -20]], dtype=index_dtype)
    for key, msg in (((slice(None), bad), "index -9 is out of bounds for axis 1 with size 8"),
                     ((slice(None), bad.T), "index 12 is out of bounds for axis 1 with size 8"),
                     ((bad[:, ::-1] % 5,), None)):
        dkey = tuple(gpuarr.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
        if msg is None:
            assert_bits_equal(d[dkey].get(), h[key])
            continue
        with pytest.raises(IndexError, match=msg):
            h[key]
        with pytest.raises(IndexError, match=msg):
            d[dkey]
        with pytest.raises(IndexError, match=msg):
            d[dkey] = 1.0  # refused before any element is written
        with pytest.raises(IndexError, match=msg):
            gpuarr.take(d, dkey[1], axis=1)
        assert_bits_equal(d.get(), h)
    msg = f"index {h.size} is out of bounds for axis 0 with size {h.size}"
    with pytest.raises(IndexError, match=msg):
        gpuarr.put(d, gpuarr.asarray(np.array([3, h.size, h.size + 1], dtype=index_dtype)),
                   [1.0, 2.0, 3.0])
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize("dtype", WORD_DTYPES)
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put_repeated_indices_keep_the_last_write(rng, dtype, index_dtype, mode):
    h = random_array(rng, (300,), dtype)
    d = gpuarr.asarray(h)
    span = 300 if mode == "raise" else 700
    for hi, di in _index_views(rng, 2000, span, index_dtype):  # each target ~7 times
        v = random_array(rng, (hi.size,), dtype)
        np.put(h, hi, v, mode=mode)
        gpuarr.put(d, di, gpuarr.asarray(v), mode=mode)
        assert_bits_equal(d.get(), h)
        vs = random_array(rng, (2 * hi.size,), dtype)
        np.put(h, hi, vs[::2], mode=mode)
        gpuarr.put(d, hi, gpuarr.asarray(vs)[::2], mode=mode)  # host index, strided values
        assert_bits_equal(d.get(), h)
    np.put(h, [5, 5, 7, 5], [1, 2, 3], mode=mode)  # values repeated cyclically
    gpuarr.put(d, [5, 5, 7, 5], gpuarr.asarray(np.array([1, 2, 3]).astype(dtype)), mode=mode)
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize("dtype", ["float32", "complex128", "int8"])
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
def test_put_sorted_indices_keep_the_last_write(rng, dtype, index_dtype):
    """Targets that never descend (runs of repeats included) take the check's other route:
    the last write of each run; indices ascending only before negative ones are counted
    from the end, and an out-of-bounds one in a sorted index, keep NumPy's results."""
    h = random_array(rng, (500,), dtype)
    d = gpuarr.asarray(h)
    runs = np.sort(rng.integers(0, 500, 3000)).astype(index_dtype)  # each target ~6 times
    longer = np.sort(rng.integers(0, 500, 6000))[::-1].astype(index_dtype)
    negative = np.sort(rng.integers(0, 500, 800)).astype(index_dtype)
    negative[negative >= 250] -= 500  # [0, 250) then [-250, 0): the targets still ascend
    descending_raw = np.array([-1, 0, 1, 1, 2], dtype=index_dtype)  # targets 499, 0, 1, 1, 2
    views = [(runs, gpuarr.asarray(runs)), (longer[::-2], gpuarr.asarray(longer)[::-2]),
             (negative, gpuarr.asarray(negative)),
             (descending_raw, gpuarr.asarray(descending_raw))]
    for hi, di in views:
        v = random_array(rng, (hi.size,), dtype)
        np.put(h, hi, v)
        gpuarr.put(d, di, gpuarr.asarray(v))
        assert_bits_equal(d.get(), h)
    bad = np.arange(0, 1002, 2).astype(index_dtype)  # sorted, from 500 on too large
    with pytest.raises(IndexError, match="index 500 is out of bounds for axis 0 with size 500"):
        np.put(h.copy(), bad, np.zeros(bad.size, dtype))
    with pytest.raises(IndexError, match="index 500 is out of bounds for axis 0 with size 500"):
        gpuarr.put(d, gpuarr.asarray(bad), gpuarr.asarray(random_array(rng, (bad.size,), dtype)))
    assert_bits_equal(d.get(), h)


def test_put_of_a_view(rng):
    h = random_array(rng, (40, 30), "float32")
    d = gpuarr.asarray(h)
    idx = rng.integers(-600, 600, 3000)
    v = random_array(rng, (3000,), "float32")
    ht, dt = h[:, ::2], d[:, ::2]
    flat = ht.copy()
    np.put(flat, idx, v)
    ht[...] = flat
    gpuarr.put(dt, gpuarr.asarray(idx), gpuarr.asarray(v))
    assert_bits_equal(d.get(), h)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put_into_an_array_past_the_claim_scratch(rng, mode):
    """2^24 + 7 elements and 3000 indices (past put_claims_fit): unsorted indices are sorted
    before the scatter; sorted ones (mode raise) write each run's last value; repeated
    targets keep NumPy's last write either way; an index out of range (mode raise) writes
    nothing."""
    size = 2**24 + 7
    h = random_array(rng, (size,), "float32")
    d = gpuarr.asarray(h)
    span = size if mode == "raise" else 3 * size
    pool = rng.integers(-span, span, 500)
    unsorted = rng.choice(pool, 3000)  # each target ~6 times
    ascending = np.sort(rng.choice(pool[pool >= 0], 3000))
    for idx in (unsorted, ascending):
        v = random_array(rng, (idx.size,), "float32")
        np.put(h, idx, v, mode=mode)
        gpuarr.put(d, gpuarr.asarray(idx), gpuarr.asarray(v), mode=mode)
        assert_bits_equal(d.get(), h)
    if mode == "raise":
        # The unsorted route checks once, before anything is written.
        bad = unsorted.copy()
        bad[1234] = size + 5
        v = random_array(rng, (bad.size,), "float32")
        with pytest.raises(IndexError) as want:
            np.put(h.copy(), bad, v)
        with pytest.raises(IndexError) as got:
            gpuarr.put(d, gpuarr.asarray(bad), gpuarr.asarray(v))
        assert str(got.value) == str(want.value)
        assert_bits_equal(d.get(), h)


def _need_free_gib(gib):
    if gpuarr.cuda.runtime.memGetInfo()[0] < gib * 2**30:
        pytest.skip(f"needs {gib} GiB of free GPU memory")


def test_gather_and_scatter_past_int32_elements():
    """a[:, idx] and its assignment with 2^31 + 2^21 result elements: launches in pieces."""
    _need_free_gib(7)
    rows, cols = 2**21, 1025
    a = (gpuarr.arange(rows, dtype=np.uint32)[:, None] % 251).astype(np.uint8) + \
        (gpuarr.arange(cols, dtype=np.uint8)[None, :] * 3)
    idx = np.arange(cols - 1, -1, -1, dtype=np.int32)
    out = a[:, gpuarr.asarray(idx)]
    check = [0, 1, 2**20, 2**21 - 2, 2**21 - 1]
    for r in check:
        assert_bits_equal(out[r].get(), a[r].get()[idx])
    a[:, gpuarr.asarray(idx)] = out  # reverses each row back: a stays itself
    for r in check:
        want = ((r % 251) + np.arange(cols, dtype=np.uint8) * 3).astype(np.uint8)
        assert_bits_equal(a[r].get(), want)


@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
def test_bounds_with_empty_axes_and_empty_results(index_dtype):
    """No element to read in place of a bad index, or no element read at all: NumPy's
    IndexError all the same, for get, set and take."""
    idx = np.array([1, 20], dtype=index_dtype)
    for shape, key in (((0,), (idx,)), ((0, 3), (slice(None), idx)), ((3, 0), (idx,)),
                       ((0, 3), (idx,))):
        h = np.zeros(shape, np.float32)
        d = gpuarr.asarray(h)
        dkey = tuple(gpuarr.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
        with pytest.raises(IndexError) as want:
            h[key]
        with pytest.raises(IndexError, match=str(want.value)):
            d[dkey]
        with pytest.raises(IndexError, match=str(want.value)):
            d[dkey] = 1.0
    assert_bits_equal(gpuarr.zeros((0, 3))[:, gpuarr.asarray(np.array([2, -3]))].get(),
                      np.zeros((0, 3))[:, [2, -3]])


@pytest.mark.parametrize("dtype", ["int8", "float32", "complex128"])
@pytest.mark.parametrize("index_dtype", ["int32", "int64"])
def test_gather_of_long_rows(rng, dtype, index_dtype):
    """The index constant along rows of 128 elements or more: each row's index read once;
    few long rows take several blocks a row."""
    h = random_array(rng, (50, 300), dtype)
    d = gpuarr.asarray(h)
    for hi, di in _index_views(rng, 40, 50, index_dtype):
        assert_bits_equal(d[di].get(), h[hi])
        assert_bits_equal(d[di, ::-2].get(), h[hi, ::-2])
        assert_bits_equal(gpuarr.take(d, di, axis=0).get(), np.take(h, hi, axis=0))
    wide = rng.integers(-200, 200, 30).astype(index_dtype)
    assert_bits_equal(gpuarr.take(d, gpuarr.asarray(wide), axis=0, mode="wrap").get(),
                      np.take(h, wide, axis=0, mode="wrap"))
    h3 = random_array(rng, (5, 20, 200), dtype)
    i3 = rng.integers(-20, 20, (3, 4)).astype(index_dtype)
    assert_bits_equal(gpuarr.asarray(h3)[:, gpuarr.asarray(i3)].get(), h3[:, i3])
    long_rows = random_array(rng, (4, 300001), dtype)
    two = np.array([3, -4], dtype=index_dtype)
    assert_bits_equal(gpuarr.asarray(long_rows)[gpuarr.asarray(two)].get(), long_rows[two])
    bad = np.array([3, 60, -70], dtype=index_dtype)
    with pytest.raises(IndexError, match="index 60 is out of bounds for axis 0 with size 50"):
        d[gpuarr.asarray(bad)]
