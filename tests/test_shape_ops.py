"""Shape operations against NumPy: values, layouts (strides), views vs copies, errors."""

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE, assert_gpu_equal, assert_same_exception, outcome, random_array

DTYPES = [np.dtype(n) for n in ("bool", "int32", "uint8", "float16", "float64", "complex128")]


def shares(d, base):
    """gpuarr: ``d`` views ``base``'s memory (or is ``base`` itself, as NumPy's atleast_nd
    returns an input that already has enough dimensions)."""
    owner = base if base.base is None else base.base
    return d is base or d is owner or d.base is owner


def pair(rng, shape, dtype, kind="c"):
    """A NumPy array and its gpuarr twin with the same layout: contiguous ("c"), a strided
    view ("s"), a negative-stride view ("n") or a transposed view ("t")."""
    big = random_array(rng, tuple(2 * s + 1 for s in shape), dtype)
    dbig = gpuarr.asarray(big)
    if kind == "c":
        key = tuple(slice(0, s) for s in shape)
        key += (Ellipsis,)  # a 0-d array (not a NumPy scalar) for shape ()
        return big[key].copy(), dbig[key].copy()
    if kind == "s":
        key = tuple(slice(0, 2 * s, 2) for s in shape)
    elif kind == "n":
        key = tuple(slice(2 * s - 1 if s else 0, None, -2) if s else slice(0, 0) for s in shape)
    else:  # "t"
        h, d = pair(rng, shape[::-1], dtype, "s")
        return h.T, d.T
    key += (Ellipsis,)
    return big[key], dbig[key]


def compare(vn, vg, strides=True):
    if isinstance(vn, (tuple, list)):
        assert type(vn) is type(vg) and len(vn) == len(vg)
        for a, b in zip(vn, vg):
            compare(a, b, strides)
        return
    if not isinstance(vn, np.ndarray):  # NumPy gives a scalar where gpuarr gives a 0-d array
        assert isinstance(vg, gpuarr.ndarray) and vg.ndim == 0
        vn = np.asarray(vn)
        strides = False
    # NumPy's strides of empty results vary from function to function.
    assert_gpu_equal(vg, vn, strides=strides and vn.size > 0)


# --- host-only: broadcast_shapes needs no device ------------------------------------------

@pytest.mark.parametrize("shapes", [((2, 1), (3,)), ((), (4, 1, 3), (5, 1)), ((0,), (1,)),
                                    ((2,), (3,)), ((2, 3), (4, 1, 3), (5,)), ((1,), (3,), (4,)),
                                    (3, (1,))])
def test_broadcast_shapes(shapes):
    kn, vn, _ = outcome(np.broadcast_shapes, *shapes)
    kg, vg, _ = outcome(gpuarr.broadcast_shapes, *shapes)
    assert kn == kg
    if kn == "ok":
        assert vn == vg
    else:
        assert_same_exception(vg, vn)


def gpu(fn):
    for m in GPU_MODULE:
        fn = m(fn)
    return fn


SHAPES = [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)]
KINDS = ["c", "s", "n", "t"]


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("kind", KINDS)
def test_views_over_layouts(rng, dtype, shape, kind):
    hn, dn = pair(rng, shape, dtype, kind)
    nd = len(shape)
    cases = [
        ("ravel", lambda m, a: m.ravel(a)), ("ravelF", lambda m, a: m.ravel(a, "F")),
        ("ravelK", lambda m, a: m.ravel(a, "K")), ("ravelA", lambda m, a: m.ravel(a, "A")),
        ("flatten", lambda m, a: a.flatten()), ("flattenK", lambda m, a: a.flatten("K")),
        ("reshape-1", lambda m, a: m.reshape(a, -1)), ("reshapeF", lambda m, a: m.reshape(a, -1, order="F")),
        ("transpose", lambda m, a: m.transpose(a)), ("flip", lambda m, a: m.flip(a)),
        ("expand", lambda m, a: m.expand_dims(a, (0, -1))), ("squeeze", lambda m, a: m.squeeze(a)),
        ("atleast_1d", lambda m, a: m.atleast_1d(a)), ("atleast_2d", lambda m, a: m.atleast_2d(a)),
        ("atleast_3d", lambda m, a: m.atleast_3d(a)),
        ("broadcast_to", lambda m, a: m.broadcast_to(a, (2,) + a.shape)),
        ("repeat2", lambda m, a: m.repeat(a, 2)), ("tile", lambda m, a: m.tile(a, (2, 1))),
        ("roll", lambda m, a: m.roll(a, 3)),
        ("flipud", lambda m, a: m.flipud(a)), ("fliplr", lambda m, a: m.fliplr(a)),
        ("moveaxis", lambda m, a: m.moveaxis(a, 0, -1)), ("swapaxes", lambda m, a: m.swapaxes(a, 0, -1)),
        ("rot90", lambda m, a: m.rot90(a)), ("rot90k2", lambda m, a: m.rot90(a, 2)),
        ("rot90k3", lambda m, a: m.rot90(a, 3, axes=(1, 0))),
        ("diagonal", lambda m, a: m.diagonal(a, 1)), ("diagonal-1", lambda m, a: a.diagonal(-1, -1, 0)),
        ("triu", lambda m, a: m.triu(a, 1)), ("tril", lambda m, a: m.tril(a, -1)),
        ("diag", lambda m, a: m.diag(a, 1)), ("diagflat", lambda m, a: m.diagflat(a, -2)),
        ("mT", lambda m, a: a.mT), ("matrix_transpose", lambda m, a: m.matrix_transpose(a)),
        ("roll2", lambda m, a: m.roll(a, (1, -2), (0, -1))),
    ]
    for name, f in cases:
        kn, vn, _ = outcome(f, np, hn)
        kg, vg, _ = outcome(f, gpuarr, dn)
        assert kn == kg, (name, vn, vg)
        if kn == "raise":
            assert_same_exception(vg, vn, message=name not in ("triu", "tril"))
            continue
        # Layouts match NumPy except where NumPy's copy follows the input's layout (triu/tril
        # go through np.where, which keeps order K).
        compare(vn, vg, strides=name not in ("triu", "tril"))
        vs = vn if isinstance(vn, tuple) else (vn,)
        gs = vg if isinstance(vg, tuple) else (vg,)
        for a, b in zip(vs, gs):
            if isinstance(a, np.ndarray) and a.size:
                assert np.shares_memory(a, hn) == shares(b, dn), name


@gpu
def test_view_writes_through(rng):
    h = np.arange(12.0).reshape(3, 4)
    d = gpuarr.asarray(h)
    gpuarr.diagonal(d)[...] = -1
    h[np.arange(3), np.arange(3)] = -1
    gpuarr.flip(d, 1)[0] = 7
    h[0, ::-1] = 7
    gpuarr.ravel(d)[5] = 9
    h.ravel()[5] = 9
    assert_gpu_equal(d, h)
    r = gpuarr.ravel(d[:, ::2])  # copy
    r[0] = 100
    assert_gpu_equal(d, h)


@gpu
def test_reshape_copy_argument():
    d = gpuarr.arange(12).reshape(3, 4)
    with pytest.raises(ValueError, match="Unable to avoid creating a copy while reshaping."):
        gpuarr.reshape(d.T, 12, copy=False)
    r = gpuarr.reshape(d, (4, 3), copy=True)
    assert r.base is None or not shares(r, d)
    assert shares(gpuarr.reshape(d, (4, -1)), d)
    assert_gpu_equal(gpuarr.reshape(d, (2, 6), order="F"), np.reshape(np.arange(12).reshape(3, 4), (2, 6), order="F"))


@gpu
@pytest.mark.parametrize("fn,args", [
    ("squeeze", (np.zeros((2, 1)), 0)), ("squeeze", (np.zeros((2, 1)), (1, 1))),
    ("squeeze", (np.zeros((2, 1)), 3)), ("expand_dims", (np.zeros((2, 3)), (0, 0))),
    ("expand_dims", (np.zeros((2, 3)), 4)), ("moveaxis", (np.zeros((2, 3)), (0, 0), (1, 0))),
    ("moveaxis", (np.zeros((2, 3)), (0, 1), (1,))), ("moveaxis", (np.zeros((2, 3)), 3, 0)),
    ("swapaxes", (np.zeros((2, 2)), 0, 2)), ("diagonal", (np.zeros(5),)),
    ("diagonal", (np.zeros((2, 2)), 0, 1, 1)), ("diagonal", (np.zeros((2, 2)), 0, 3, 1)),
    ("diag", (np.zeros((2, 2, 2)),)), ("broadcast_to", (np.zeros(3), (4,))),
    ("broadcast_to", (np.zeros((2, 3)), (4, 3))), ("broadcast_to", (np.zeros(3), (-1,))),
    ("broadcast_to", (np.zeros((2, 3)), (3,))), ("broadcast_arrays", (np.zeros(3), np.zeros(4))),
    ("rot90", (np.zeros((3, 4)), 1, (0, 0))), ("rot90", (np.zeros((3, 4)), 1, (0,))),
    ("rot90", (np.zeros((3, 4)), 1, (0, 3))), ("repeat", (np.zeros(3), [1, 2])),
    ("repeat", (np.zeros(3), -1)), ("repeat", (np.zeros(3), [1, -2, 1])),
("flip", (np.zeros((3, 3)), 2)), ("fliplr", (np.zeros(3),)),
    ("flipud", (np.zeros(()),)), ("triu", (np.zeros(()),)), ("matrix_transpose", (np.zeros(3),)),
    ("tile", (np.zeros(3), -1)), ("squeeze", (np.zeros((1, 1)), -3)),
])
def test_errors(fn, args):
    dargs = tuple(gpuarr.asarray(a) if isinstance(a, np.ndarray) else a for a in args)
    kn, vn, _ = outcome(getattr(np, fn), *args)
    kg, vg, _ = outcome(getattr(gpuarr, fn), *dargs)
    assert kn == kg == "raise", (vn, vg)
    assert_same_exception(vg, vn, message=fn != "repeat" or "negative" in str(vn))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_repeat(rng, dtype, axis):
    base = random_array(rng, (3, 4), dtype)
    h, d = base[:, ::-1], gpuarr.asarray(base)[:, ::-1]
    n = h.size if axis is None else h.shape[axis]
    for reps in (0, 3, [2], list(rng.integers(0, 4, n)), np.arange(n) % 3):
        assert_gpu_equal(gpuarr.repeat(d, reps, axis), np.repeat(h, reps, axis))
    reps = np.arange(n) % 3
    assert_gpu_equal(d.repeat(gpuarr.asarray(reps), axis), h.repeat(reps, axis))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("kind", ["c", "n", "t"])
def test_roll_along_one_axis(rng, dtype, kind):
    # The concatenation of the axis's two parts: in one pass where a part's rows are short,
    # one copy a part otherwise; results laid out as NumPy's (the input's order).
    h, d = pair(rng, (5, 6, 40), dtype, kind)
    for shift, axis in ((1, -1), (-3, 2), (39, 2), (87, -1), (2, 1), (-1, 0), (6, 1),
                        ((2, 3), (2, 2)), ((1, -1), (0, 0))):
        assert_gpu_equal(gpuarr.roll(d, shift, axis), np.roll(h, shift, axis))
    e = np.zeros((3, 0), dtype)
    assert_gpu_equal(gpuarr.roll(gpuarr.asarray(e), 2, 1), np.roll(e, 2, 1))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_triangles_batched(rng, dtype):
    # Rows of 5 go element by element; rows of 48 in 16-byte vectors that the diagonal
    # crosses at every offset (k from -40 to 50).
    for shape, ks in (((2, 3, 4, 5), (-5, -1, 0, 2, 9)), ((2, 37, 48), range(-40, 51, 3))):
        h = random_array(rng, shape, dtype)
        d = gpuarr.asarray(h)
        for k in ks:
            assert_gpu_equal(gpuarr.triu(d, k), np.triu(h, k))
            assert_gpu_equal(gpuarr.tril(d[..., ::-1], k), np.tril(h[..., ::-1], k),
                             strides=False)
    h = random_array(rng, (5,), dtype)
    assert_gpu_equal(gpuarr.tril(gpuarr.asarray(h)), np.tril(h))


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_diag_family(rng, dtype):
    v = random_array(rng, (4,), dtype)
    dv = gpuarr.asarray(v)
    for k in (-2, 0, 3):
        assert_gpu_equal(gpuarr.diag(dv, k), np.diag(v, k))
        assert_gpu_equal(gpuarr.diagflat(dv.reshape(2, 2), k), np.diagflat(v.reshape(2, 2), k))
    m = random_array(rng, (3, 4, 5), dtype)
    dm = gpuarr.asarray(m)
    for args in [(0,), (1, 1, 2), (-2, 2, 0), (7, 0, 1)]:
        vn, vg = np.diagonal(m, *args), gpuarr.diagonal(dm, *args)
        assert_gpu_equal(vg, vn)
        assert shares(vg, dm) or vg.size == 0


@gpu
def test_trace_uses_sum():
    if not hasattr(gpuarr.ndarray, "sum"):
        pytest.skip("ndarray.sum comes from the reductions area")
    m = np.arange(24.0).reshape(2, 3, 4)
    dm = gpuarr.asarray(m)
    assert_gpu_equal(gpuarr.trace(dm, 1, 1, 2), np.trace(m, 1, 1, 2), strides=False)
    assert_gpu_equal(dm.trace(dtype=np.float32), m.trace(dtype=np.float32), strides=False)


@gpu
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_split_family(rng, dtype):
    h = random_array(rng, (6, 4, 3), dtype)
    d = gpuarr.asarray(h)
    cases = [
        ("split", (3,), {}), ("split", ([1, 4],), {"axis": 1}), ("split", (4,), {}),
        ("array_split", (4,), {}), ("array_split", (2,), {"axis": -1}),
        ("array_split", ([2, -1, 9],), {}), ("array_split", (0,), {}),
        ("hsplit", (2,), {}), ("vsplit", ([3],), {}), ("dsplit", (3,), {}),
        ("split", (0,), {}),
    ]
    for name, args, kw in cases:
        kn, vn, _ = outcome(getattr(np, name), h, *args, **kw)
        kg, vg, _ = outcome(getattr(gpuarr, name), d, *args, **kw)
        assert kn == kg, (name, vn, vg)
        if kn == "raise":
            assert_same_exception(vg, vn)
            continue
        assert len(vn) == len(vg)
        for a, b in zip(vn, vg):
            assert_gpu_equal(b, a)
            assert shares(b, d)
    for name in ("hsplit", "vsplit", "dsplit"):
        assert_gpu_equal(getattr(gpuarr, name)(gpuarr.asarray(h[0, 0]) if name == "hsplit" else d, 1)[0],
                         getattr(np, name)(h[0, 0] if name == "hsplit" else h, 1)[0])


@gpu
def test_meshgrid_indices():
    x, y, z = np.arange(3.0), np.arange(4), np.arange(2, dtype=np.float16)
    dx, dy, dz = map(gpuarr.asarray, (x, y, z))
    for kw in ({}, {"indexing": "ij"}, {"sparse": True}, {"copy": False}, {"sparse": True, "copy": False}):
        vn = np.meshgrid(x, y, z, **kw)
        vg = gpuarr.meshgrid(dx, dy, dz, **kw)
        assert type(vg) is list  # the Array API 2024.12's type (NumPy 2's is a tuple)
        for a, b in zip(vn, vg):
            assert_gpu_equal(b, a, strides=kw.get("copy", True))
    with pytest.raises(ValueError, match="Valid values for `indexing`"):
        gpuarr.meshgrid(dx, indexing="xx")
    assert_gpu_equal(gpuarr.indices((2, 3)), np.indices((2, 3)))
    assert_gpu_equal(gpuarr.indices((2, 0, 3), dtype=np.int32), np.indices((2, 0, 3), dtype=np.int32))
    for a, b in zip(gpuarr.indices((2, 3), sparse=True), np.indices((2, 3), sparse=True)):
        assert_gpu_equal(a, b)


@gpu
def test_layout_helpers(rng):
    h = random_array(rng, (3, 4), np.float32)
    d = gpuarr.asarray(h)
    f = gpuarr.asfortranarray(d)
    assert_gpu_equal(f, np.asfortranarray(h))
    assert gpuarr.asfortranarray(f) is f
    assert_gpu_equal(gpuarr.asfortranarray(gpuarr.asarray(np.float32(2))), np.asfortranarray(np.float32(2)))
    assert_gpu_equal(gpuarr.permute_dims(gpuarr.asarray(np.zeros((2, 3, 4))), (2, 0, 1)),
                     np.permute_dims(np.zeros((2, 3, 4)), (2, 0, 1)))
    b = gpuarr.broadcast_arrays(d, gpuarr.asarray(np.ones((2, 1, 4))))
    bn = np.broadcast_arrays(h, np.ones((2, 1, 4)))
    assert type(b) is list  # the Array API 2024.12's type (NumPy 2's is a tuple)
    compare(list(bn), b)
    same = gpuarr.broadcast_arrays(d, d)
    assert same[0] is d
    assert_gpu_equal(gpuarr.squeeze(gpuarr.asarray(np.zeros((1, 3, 1))), (0, 2)), np.zeros(3))
