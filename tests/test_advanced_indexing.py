"""Advanced (integer-array and boolean) indexing against NumPy: get and set, mixes with
basic indices, views, dtypes, errors. The host-only tests check the key parser and the
index planner (result shape, NumPy's memory order, messages) without a device."""

import numpy as np
import pytest

import gpuarr
from conftest import (
    ALL_DTYPES, assert_bits_equal, assert_same_exception, dtype_id, gpu_test, outcome,
    random_array,
)

S = slice
E = Ellipsis

# Keys for an array of shape (4, 5, 6).
KEYS = [
    [0, 2, 3],
    [-1, -4, 0, 0],
    np.array([[0, 1], [3, 3]]),
    (S(None), [1, 4]),
    (S(None), S(None), [5, 0, -1]),
    ([0, 1], S(None), [2, 3]),
    (0, S(None), [1, 2]),
    (S(None), 0, [1, 2]),
    ([0, 3], [4, 4], [5, 0]),
    ([[0], [3]], [1, 2, 4]),
    ([0], E, [0]),
    (S(None), [0], E, [0]),
    (S(None), [0], None, [0]),
    (None, [1, 2]),
    (E, [1, 2]),
    (S(1, None, 2), [[1], [2]], S(None, None, -2)),
    (np.array(1), S(None), [0, 1]),
    np.array([True, False, True, True]),
    (S(None), np.array([True, False, True, False, True])),
    (E, np.array([True, False, True, False, True, False])),
    np.arange(20).reshape(4, 5) % 3 == 0,
    (S(None), np.arange(30).reshape(5, 6) % 4 == 0),
    (np.array([True, False, False, True]), S(None), [0, 5]),
    True,
    False,
    (True, [0, 1]),
    ([0, 1], True, [2, 3]),
    (S(None), [1], True),
    [],
    [[]],
    ([], S(None), []),
    np.zeros(4, dtype=bool),
    (np.array([1, 2], dtype=np.uint8), np.array([1], dtype=np.int16)),
]

BAD_KEYS = [
    [4],
    [0, -5],
    (S(None), [5]),
    (S(None), S(None), [6, 0]),
    ([0, 1], [0, 1, 2]),
    (False, [0, 1]),
    np.array([True, False, True]),
    (S(None), np.ones((5, 7), dtype=bool)),
    ([0], [0], [0], [0]),
    (np.ones(5, dtype=bool), 0, 0, 0),
    1.0,
    [1.0],
    np.array([1.0]),
    (S(None), "a"),
    ([0], E, E),
    (5, [0]),
]


def _strides_match(shape, got, expected):
    # Strides of length-1 dimensions are free (NumPy's own choice there varies).
    return all(n <= 1 or g == e for n, g, e in zip(shape, got, expected))


def _key_id(k):
    return repr(k).replace("\n", "")[:40]


# --- host-only: parser and planner against NumPy's result layout and errors -----------------


@pytest.mark.parametrize("key", KEYS, ids=_key_id)
def test_plan_matches_numpy_layout(key):
    h = np.zeros((4, 5, 6))
    expected = h[key]
    shape, strides = gpuarr._core._plan_for_host_key(h.shape, key)
    assert shape == expected.shape
    if expected.size > 0:
        assert _strides_match(shape, strides, expected.strides), (strides, expected.strides)


@pytest.mark.parametrize("key", BAD_KEYS, ids=_key_id)
def test_plan_errors_match_numpy(key):
    h = np.zeros((4, 5, 6))
    with pytest.raises(IndexError) as expected:
        h[key]
    try:
        gpuarr._core._plan_for_host_key(h.shape, key)
    except IndexError as got:
        assert str(got) == str(expected.value)
        return
    pytest.fail("no IndexError")


def test_plan_property_random_keys():
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies

    @st.composite
    def keys(draw):
        ndim = draw(st.integers(1, 4))
        shape = tuple(draw(st.lists(st.integers(0, 4), min_size=ndim, max_size=ndim)))
        items = []
        n_items = draw(st.integers(1, ndim + 1))
        for _ in range(n_items):
            kind = draw(st.sampled_from(["int", "slice", "none", "ell", "arr", "arr", "mask", "bool"]))
            if kind == "int":
                items.append(draw(st.integers(-5, 5)))
            elif kind == "slice":
                items.append(slice(draw(st.one_of(st.none(), st.integers(-5, 5))),
                                   draw(st.one_of(st.none(), st.integers(-5, 5))),
                                   draw(st.sampled_from([None, 1, 2, -1, -3]))))
            elif kind == "none":
                items.append(None)
            elif kind == "ell":
                items.append(Ellipsis)
            elif kind == "arr":
                ashape = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
                items.append(np.asarray(draw(st.lists(st.integers(-5, 5), min_size=int(np.prod(ashape)),
                                                      max_size=int(np.prod(ashape))))).reshape(ashape).astype(np.int64))
            elif kind == "mask":
                mshape = tuple(draw(st.lists(st.integers(0, 4), min_size=1, max_size=2)))
                items.append(np.asarray(draw(st.lists(st.booleans(), min_size=int(np.prod(mshape)),
                                                      max_size=int(np.prod(mshape))))).reshape(mshape))
            else:
                items.append(draw(st.booleans()))
        return shape, tuple(items)

    @hypothesis.settings(max_examples=300, deadline=None)
    @hypothesis.given(keys())
    def check(case):
        shape, key = case
        h = np.zeros(shape)
        kind, expected, _ = outcome(lambda: h[key])
        try:
            got = gpuarr._core._plan_for_host_key(shape, key)
        except IndexError as e:
            assert kind == "raise", (key, e)
            assert_same_exception(e, expected)
            return
        assert kind == "ok", (key, expected)
        assert got[0] == expected.shape
        if expected.size > 0 and expected.base is not h and expected.base is not h.base:
            assert _strides_match(got[0], got[1], expected.strides), (key, got, expected.strides)

    check()


def test_getitem_setitem_are_the_advanced_ones():
    # ndarray_bind's basic __getitem__/__setitem__ accept any key and raise for arrays: the
    # advanced ones must replace them, not join an overload chain behind them (H100 run 2:
    # every array key raised "index_view: advanced (array) indices select a copy").
    for name in ("__getitem__", "__setitem__", "nonzero"):
        doc = getattr(gpuarr.ndarray, name).__doc__ or ""
        assert "Overloaded function" not in doc, (name, doc)


@pytest.mark.parametrize("casting", ["same_kind", "safe"])
@pytest.mark.parametrize("ind", [[1.5], ["1"], np.float64(2.5), [[1.9, -0.5]], np.array([1.5]),
                                 np.array(1.5), np.array([3], dtype=np.uint64),
                                 np.array([1, 0], dtype=np.int8), np.array([True]), [None],
                                 [1 + 0j], [], [2**63]], ids=_key_id)
def test_take_put_index_conversion(ind, casting):
    # take ('same_kind') and put ('safe') convert indices as NumPy does.
    from gpuarr._indexing import _index_array
    a = np.arange(5.0)
    if casting == "same_kind":
        kind, expected, _ = outcome(lambda: np.take(a, ind))
    else:
        kind, expected, _ = outcome(lambda: np.put(a.copy(), ind, 9.0))
    if kind == "raise":
        with pytest.raises(type(expected)) as got:
            _index_array(ind, casting)
        assert_same_exception(got.value, expected)
    else:
        got = _index_array(ind, casting)
        np.testing.assert_array_equal(np.take(a, got), np.take(a, ind))


# --- device ----------------------------------------------------------------------------


def _check_get(h, d, key, dkey=None):
    dkey = key if dkey is None else dkey
    kind, expected, _ = outcome(lambda: h[key])
    if kind == "raise":
        with pytest.raises(type(expected)) as got:
            d[dkey]
        assert_same_exception(got.value, expected)
        return
    got = d[dkey]
    assert isinstance(got, gpuarr.ndarray)
    assert_bits_equal(got.get(), np.asarray(expected))
    if expected.size > 0 and isinstance(expected, np.ndarray) and expected.ndim > 0:
        assert _strides_match(got.shape, got.strides, expected.strides)


def _to_device_key(key):
    """The same key with its NumPy arrays as gpuarr arrays."""
    if isinstance(key, tuple):
        return tuple(_to_device_key(k) for k in key)
    if isinstance(key, np.ndarray):
        return gpuarr.asarray(key)
    return key


@gpu_test
@pytest.mark.parametrize("key", KEYS + BAD_KEYS, ids=_key_id)
@pytest.mark.parametrize("device_key", [False, True], ids=["hostkey", "devkey"])
def test_getitem(rng, key, device_key):
    h = random_array(rng, (4, 5, 6), "float32")
    d = gpuarr.asarray(h)
    _check_get(h, d, key, _to_device_key(key) if device_key else key)


@gpu_test
@pytest.mark.parametrize("key", KEYS, ids=_key_id)
@pytest.mark.parametrize("device_key", [False, True], ids=["hostkey", "devkey"])
def test_setitem_scalar_and_array(rng, key, device_key):
    h = random_array(rng, (4, 5, 6), "int32")
    d = gpuarr.asarray(h)
    dkey = _to_device_key(key) if device_key else key
    h[key] = 7
    d[dkey] = 7
    assert_bits_equal(d.get(), h)
    shape = h[key].shape
    # distinct positions only (repeated indices have no defined winner)
    sel = np.zeros(h.shape, dtype=np.int64)
    sel[key] = 1
    if sel.sum() == np.prod(shape):
        val = random_array(rng, shape, "int32")
        h[key] = val
        d[dkey] = gpuarr.asarray(val)
        assert_bits_equal(d.get(), h)
        if len(shape) >= 1 and shape[-1] > 0:
            row = random_array(rng, shape[-1:], "int32")  # broadcast along leading dims
            h[key] = row
            d[dkey] = row
            assert_bits_equal(d.get(), h)


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_all_dtypes(rng, dtype):
    h = random_array(rng, (5, 7), dtype)
    d = gpuarr.asarray(h)
    mask = rng.integers(0, 2, size=(5, 7)).astype(bool)
    for key in ([4, 0, -1], (S(None), [6, 1]), mask, (mask[:, 0],), ([1, 2], [3, 4])):
        _check_get(h, d, key)
        _check_get(h, d, key, _to_device_key(key))
    val = random_array(rng, (int(mask.sum()),), dtype)
    h[mask] = val
    d[gpuarr.asarray(mask)] = gpuarr.asarray(val)
    assert_bits_equal(d.get(), h)
    h[[0, 3]] = h[1]
    d[[0, 3]] = d[1]
    assert_bits_equal(d.get(), h)


@gpu_test
def test_views_non_contiguous_and_negative_strides(rng):
    base_h = random_array(rng, (6, 8, 5), "float64")
    base_d = gpuarr.asarray(base_h)
    views = [
        lambda a: a[::-1],
        lambda a: a[:, ::-2],
        lambda a: a.transpose(2, 0, 1),
        lambda a: a[1:5, 1::3, ::-1],
    ]
    for view in views:
        h, d = view(base_h), view(base_d)
        m0 = np.arange(h.shape[0]) % 2 == 0
        for key in ([0, -1, 1], (S(None), [1, 0]), (m0,), (E, [0, -1]), ([1, 0], S(None), [0, 1])):
            _check_get(h, d, key)
        hh, dd = base_h.copy(), gpuarr.asarray(base_h)
        hv, dv = view(hh), view(dd)
        hv[[0, -1]] = 3.5
        dv[[0, -1]] = 3.5
        hv[..., [0]] = -hv[..., [1]]
        dv[..., [0]] = gpuarr.asarray(-hv[..., [1]])
        assert_bits_equal(dd.get(), hh)


@gpu_test
@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32, np.int64, np.complex128],
                         ids=dtype_id)
def test_gather_transposed_layout(rng, dtype):
    # Results contiguous along another dim than the last (NumPy's layout of a[:, idx]) at
    # least a tile (32) long both ways, with partial tiles, batch dims, broadcast and
    # negative indices, int32 indices, strided and reversed sources, and a bad index.
    h = random_array(rng, (70, 3, 100), dtype)
    d = gpuarr.asarray(h)
    idx = rng.integers(-100, 100, size=45)
    idx2 = rng.integers(0, 100, size=(33, 2))
    for key in ((S(None), 0, idx), (S(None), S(None), idx), (S(None), S(None), idx2),
                (S(None), [1, 0, 2, 1], idx[:4]), (S(None), S(None), idx.astype(np.int32))):
        _check_get(h, d, key)
        _check_get(h, d, key, _to_device_key(key))
    for view in (lambda a: a[::-1, :, ::2], lambda a: a.transpose(2, 1, 0)):
        hv, dv = view(h), view(d)
        key = (S(None), 1, rng.integers(0, hv.shape[2], size=40))
        _check_get(hv, dv, key)
        _check_get(hv, dv, key, _to_device_key(key))
    bad = idx.copy()
    bad[37] = 100
    with pytest.raises(IndexError, match="index 100 is out of bounds for axis 2 with size 100"):
        d[:, :, gpuarr.asarray(bad)]


@gpu_test
def test_gather_transposed_layout_many_row_tiles(rng):
    # More row tiles than a grid's y dimension holds (65535): the tiles stride over them.
    h = rng.integers(0, 255, size=(65535 * 32 + 5, 34), dtype=np.uint8)
    idx = rng.integers(0, 34, size=32)
    _check_get(h, gpuarr.asarray(h), (S(None), idx), (S(None), gpuarr.asarray(idx)))


@gpu_test
def test_zero_d_and_empty(rng):
    h0 = np.array(3.5)
    d0 = gpuarr.asarray(h0)
    for key in (True, False, np.array(True), (None, True)):
        _check_get(h0, d0, key)
        _check_get(h0, d0, key, _to_device_key(key))
    he = np.zeros((0, 3))
    de = gpuarr.asarray(he)
    for key in ([], (S(None), [0, 2]), np.zeros(0, bool), [0]):
        _check_get(he, de, key)
    h = random_array(rng, (3, 4), "float32")
    d = gpuarr.asarray(h)
    for key in ([], np.array([], dtype=np.int64), (S(None), []), np.zeros(3, bool)):
        _check_get(h, d, key)
        _check_get(h, d, key, _to_device_key(key))
    d[[]] = 1.0
    d[np.zeros(3, bool)] = 5
    assert_bits_equal(d.get(), h)


@gpu_test
def test_repeated_and_negative_indices(rng):
    h = random_array(rng, (10,), "int64")
    d = gpuarr.asarray(h)
    idx = np.array([0, 0, -1, -10, 5, 5, 5])
    _check_get(h, d, idx)
    _check_get(h, d, idx, gpuarr.asarray(idx))
    _check_get(h, d, idx.astype(np.int8), gpuarr.asarray(idx.astype(np.int8)))
    h[idx] = 11
    d[gpuarr.asarray(idx)] = 11
    assert_bits_equal(d.get(), h)


@gpu_test
def test_out_of_bounds_device_index():
    d = gpuarr.arange(5)
    for bad, msg in (([1, 10, 2, 7], "index 10 is out of bounds for axis 0 with size 5"),
                     ([-6], "index -6 is out of bounds for axis 0 with size 5")):
        with pytest.raises(IndexError, match=msg):
            d[gpuarr.asarray(np.array(bad))]
        with pytest.raises(IndexError, match=msg):
            d[gpuarr.asarray(np.array(bad))] = 1
        with pytest.raises(IndexError, match=msg):
            d[bad]
    assert_bits_equal(d.get(), np.arange(5))
    d2 = gpuarr.zeros((3, 4))
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 1 with size 4"):
        d2[:, gpuarr.asarray(np.array([[0, 4]]))]


@gpu_test
def test_bad_index_types():
    d = gpuarr.zeros((3, 4))
    msg = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
           "or boolean arrays are valid indices")
    for key in (1.0, (0, 1.5), "a", [1.0], {0: 1}):
        with pytest.raises(IndexError) as got:
            d[key]
        assert str(got.value) == msg
    for key in (gpuarr.zeros(2), np.array([1.0])):
        with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
            d[key]
        with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
            d[key] = 1


@gpu_test
def test_setitem_casting_and_broadcast_errors(rng):
    h = np.zeros((4, 3), dtype=np.int16)
    d = gpuarr.asarray(h)
    h[[0, 2]] = np.array([1.7, -2.2, 3.9])
    d[[0, 2]] = gpuarr.asarray(np.array([1.7, -2.2, 3.9]))
    assert_bits_equal(d.get(), h)
    h[[1]] = [[5, 6, 7]]
    d[[1]] = [[5, 6, 7]]
    assert_bits_equal(d.get(), h)
    hc = np.zeros(4, dtype=np.complex128)
    dc = gpuarr.asarray(hc)
    hc[[1, 3]] = 2 + 3j
    dc[[1, 3]] = 2 + 3j
    assert_bits_equal(dc.get(), hc)
    hb = np.zeros(5, dtype=bool)
    db = gpuarr.asarray(hb)
    hb[[0, 4]] = [3, 0]
    db[[0, 4]] = [3, 0]
    assert_bits_equal(db.get(), hb)
    hf = np.zeros(5, dtype=np.float16)
    df = gpuarr.asarray(hf)
    hf[hf == 0] = np.arange(5) / 3
    df[gpuarr.asarray(hf * 0 == 0)] = gpuarr.asarray(np.arange(5) / 3)
    assert_bits_equal(df.get(), hf)
    for key, value in (([1, 2], [1, 2, 3, 4]), ([1, 2], np.zeros((2, 2))),
                       (np.array([True, False, True, False]), [[1], [2], [3]])):
        with pytest.raises(ValueError) as expected:
            h[key] = value
        with pytest.raises(ValueError) as got:
            d[key] = value
        assert str(got.value) == str(expected.value)
    m = np.ones((4, 3), dtype=bool)
    for value, exc in (([1, 2, 3], ValueError), (np.zeros((2, 6)), TypeError)):
        with pytest.raises(exc) as expected:
            h[m] = value
        with pytest.raises(exc) as got:
            d[gpuarr.asarray(m)] = value
        assert str(got.value) == str(expected.value)
    with pytest.raises(OverflowError):
        d[[0]] = 2**40


@gpu_test
def test_setitem_value_is_self():
    h = np.arange(10.0)
    d = gpuarr.asarray(h)
    h[[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]] = h
    d[[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]] = d
    assert_bits_equal(d.get(), h)
