"""concatenate / stack and friends against NumPy: result dtypes, layouts, out=, errors."""

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE, assert_gpu_equal, assert_same_exception, outcome, random_array

pytestmark = GPU_MODULE

DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint16", "int64", "float16", "float64",
                                "complex64", "complex128")]


def run_both(name, hargs, dargs, kw=None, strides=True, message=True):
    kw = kw or {}
    kn, vn, _ = outcome(getattr(np, name), *hargs, **kw)
    kg, vg, _ = outcome(getattr(gpuarr, name), *dargs, **kw)
    assert kn == kg, (name, vn, vg)
    if kn == "raise":
        assert_same_exception(vg, vn, message=message)
    else:
        assert_gpu_equal(vg, vn, strides=strides and vn.size > 0)


@pytest.mark.parametrize("dt1", DTYPES, ids=str)
@pytest.mark.parametrize("dt2", DTYPES[::3], ids=str)
def test_concatenate_dtypes(rng, dt1, dt2):
    a, b = random_array(rng, (2, 3), dt1), random_array(rng, (4, 3), dt2)
    da, db = gpuarr.asarray(a), gpuarr.asarray(b)
    run_both("concatenate", ([a, b],), ([da, db],))
    run_both("concatenate", ([a, b],), ([da, db],), {"axis": None})
    run_both("concatenate", ([a.T, b.T],), ([da.T, db.T],), {"axis": 1})
    run_both("concatenate", ([a, b],), ([da, db],), {"dtype": np.float32, "casting": "unsafe"})
    run_both("concatenate", ([a, b],), ([da, db],), {"dtype": np.int8})


@pytest.mark.parametrize("axis", [0, 1, 2, -1, None])
def test_concatenate_layouts(rng, axis):
    h = [random_array(rng, (2, 3, 4), np.float64), random_array(rng, (2, 3, 4), np.int32)]
    views = [
        (lambda x: x, lambda x: x),
        (lambda x: x[::-1, :, ::-1], lambda x: x[::-1, :, ::-1]),
        (np.asfortranarray, gpuarr.asfortranarray),
        (lambda x: x.transpose(2, 0, 1).copy().transpose(1, 2, 0),
         lambda x: x.transpose(2, 0, 1).copy().transpose(1, 2, 0)),
    ]
    for vh, vd in views:
        hs = [vh(x) for x in h]
        ds = [vd(gpuarr.asarray(x)) for x in h]
        run_both("concatenate", (hs,), (ds,), {"axis": axis})
        if axis is not None:
            run_both("stack", (hs,), (ds,), {"axis": axis})
    e = [np.zeros((0, 3)), np.ones((2, 3), np.float32)]
    run_both("concatenate", (e,), ([gpuarr.asarray(x) for x in e],))


def test_concatenate_out_and_errors(rng):
    a, b = np.arange(4.0).reshape(2, 2), np.ones((2, 2), complex)
    da, db = gpuarr.asarray(a), gpuarr.asarray(b)
    out = gpuarr.zeros((4, 2), complex)
    r = gpuarr.concatenate([da, db], out=out)
    assert r is out
    assert_gpu_equal(out, np.concatenate([a, b]))
    outT = gpuarr.zeros((2, 4), complex).T
    gpuarr.concatenate([da, db], out=outT)
    assert_gpu_equal(outT, np.concatenate([a, b]), strides=False)
    cases = [
        ([a, b], {"out": np.zeros((4, 2))}, [da, db], {"out": gpuarr.zeros((4, 2))}),
        ([a, a], {"out": np.zeros((5, 2))}, [da, da], {"out": gpuarr.zeros((5, 2))}),
        ([a, a], {"out": np.zeros((4, 2)), "dtype": int}, [da, da], {"out": gpuarr.zeros((4, 2)), "dtype": int}),
        ([a, np.zeros(3)], {}, [da, gpuarr.zeros(3)], {}),
        ([a, np.zeros((2, 3))], {}, [da, gpuarr.zeros((2, 3))], {}),
        ([a, np.zeros((2, 3))], {"axis": 2}, [da, gpuarr.zeros((2, 3))], {"axis": 2}),
        ([np.zeros(()), np.zeros(())], {}, [gpuarr.zeros(()), gpuarr.zeros(())], {}),
        ([], {}, [], {}),
        ([a, b], {"dtype": np.float64}, [da, db], {"dtype": np.float64}),
    ]
    for hargs, hkw, dargs, dkw in cases:
        kn, vn, _ = outcome(np.concatenate, hargs, **hkw)
        kg, vg, _ = outcome(gpuarr.concatenate, dargs, **dkw)
        assert kn == kg == "raise", (vn, vg)
        assert_same_exception(vg, vn)


@pytest.mark.parametrize("dtype", DTYPES[::2], ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 3, 2)], ids=str)
def test_stack_family(rng, dtype, shape):
    h = [random_array(rng, shape, dtype) for _ in range(3)]
    d = [gpuarr.asarray(x) for x in h]
    for name in ("stack", "vstack", "hstack", "dstack", "column_stack"):
        run_both(name, (h,), (d,))
        run_both(name, (h[:1],), (d[:1],))
    run_both("stack", (h,), (d,), {"axis": -1})
    run_both("stack", (h,), (d,), {"axis": len(shape) + 1})
    run_both("concat", (h,), (d,), message=False)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_narrow_pieces_in_one_pass(rng, dtype):
    """Pieces narrower than 128 bytes a row are written in one pass over the result: stack
    along a new last axis, mixed widths with an empty piece, dims before and after the
    axis, reversed and strided pieces, out=, and the cases left to one copy a piece (more
    than 8 pieces, a cast, out overlapping a piece)."""
    n = 1000 + 37
    h = [random_array(rng, (n,), dtype) for _ in range(3)]
    d = [gpuarr.asarray(x) for x in h]
    run_both("stack", (h,), (d,), {"axis": -1})
    run_both("column_stack", (h,), (d,))
    m = [random_array(rng, (2, 3, w, 2), dtype) for w in (1, 0, 5, 2)]
    dm = [gpuarr.asarray(x) for x in m]
    run_both("concatenate", (m,), (dm,), {"axis": 2})
    run_both("concatenate", (m,), (dm,), {"axis": -1})
    big = random_array(rng, (6, 40, 8), dtype)
    dbig = gpuarr.asarray(big)
    views = [big[::-1, ::2, 1:3], big[:, 3:23, :1], big[::2].reshape(3, 40, 8)[::-1, :20, ::-4]]
    dviews = [dbig[::-1, ::2, 1:3], dbig[:, 3:23, :1], dbig[::2].reshape(3, 40, 8)[::-1, :20, ::-4]]
    run_both("concatenate", (views[:2],), (dviews[:2],), {"axis": 2})
    run_both("concatenate", ([views[0][:3], views[2]],), ([dviews[0][:3], dviews[2]],),
             {"axis": -1})
    rows = [big[:, 5, ::-3], big[::-1, 7, :2], big[:, 2:5, 0]]   # each collapses to rows
    drows = [dbig[:, 5, ::-3], dbig[::-1, 7, :2], dbig[:, 2:5, 0]]
    run_both("concatenate", (rows,), (drows,), {"axis": 1})
    run_both("hstack", (rows,), (drows,))
    out = gpuarr.zeros((n, 3), dtype)
    assert gpuarr.stack(d, axis=1, out=out) is out
    assert_gpu_equal(out, np.stack(h, axis=1))
    shifted = gpuarr.zeros(n * 3 + 1, dtype)[1:].reshape(n, 3)   # one element off alignment
    gpuarr.stack(d, axis=1, out=shifted)
    assert_gpu_equal(shifted, np.stack(h, axis=1))
    nine = [random_array(rng, (50, 1), dtype) for _ in range(9)]
    run_both("concatenate", (nine,), ([gpuarr.asarray(x) for x in nine],), {"axis": 1})
    other = random_array(rng, (n,), np.int16)
    run_both("stack", ([h[0], other],), ([d[0], gpuarr.asarray(other)],), {"axis": 1})
    buf = gpuarr.asarray(np.concatenate([h[0], h[1]]).reshape(2, n).T.copy())  # (n, 2)
    want = np.stack([buf.get()[:, 1], h[2]], axis=1)
    gpuarr.stack([buf[:, 1], d[2]], axis=1, out=buf)
    assert_gpu_equal(buf, want)


@pytest.mark.parametrize("dtype", DTYPES[::2] + [np.dtype("float32")], ids=str)
def test_wide_pieces_with_contiguous_rows_in_one_pass(rng, dtype):
    """Two or more pieces whose rows are contiguous (any width) are joined in one pass too:
    along axis 1 of matrices (widths around the 16-byte vector and a block, one piece offset
    by an element, an empty one), along axis 0 of 1-d and 3-d pieces, out= shifted off
    alignment; a reversed piece goes one copy a piece."""
    a = random_array(rng, (37, 301), dtype)
    b = random_array(rng, (37, 1025), dtype)
    c = random_array(rng, (37, 130), dtype)
    da, db, dc = (gpuarr.asarray(x) for x in (a, b, c))
    run_both("concatenate", ([a, b, c],), ([da, db, dc],), {"axis": 1})
    run_both("concatenate", ([a[:, 1:], b, a[:, :0]],), ([da[:, 1:], db, da[:, :0]],),
             {"axis": 1})
    run_both("hstack", ([c, a],), ([dc, da],))
    run_both("concatenate", ([a[3], b[5], c[0]],), ([da[3], db[5], dc[0]],))
    run_both("vstack", ([a[:, :130], c],), ([da[:, :130], dc],))
    t = [random_array(rng, (3, w, 70), dtype) for w in (2, 5)]
    run_both("concatenate", (t,), ([gpuarr.asarray(x) for x in t],), {"axis": 1})
    run_both("concatenate", ([a, b[:, ::-1]],), ([da, db[:, ::-1]],), {"axis": 1})
    out = gpuarr.zeros(37 * (301 + 130) + 1, dtype)[1:].reshape(37, 431)
    gpuarr.concatenate([da, dc], axis=1, out=out)
    assert_gpu_equal(out, np.concatenate([a, c], axis=1))


def test_stack_errors():
    run_both("stack", ([],), ([],))
    run_both("stack", ([np.zeros(2), np.zeros(3)],), ([gpuarr.zeros(2), gpuarr.zeros(3)],))
    run_both("vstack", ([np.zeros(2), np.zeros(3)],), ([gpuarr.zeros(2), gpuarr.zeros(3)],))
    run_both("hstack", ([np.zeros((2, 2)), np.zeros((3, 2))],), ([gpuarr.zeros((2, 2)), gpuarr.zeros((3, 2))],))
    run_both("stack", ([np.zeros(2, np.float32), np.zeros(2)],),
             ([gpuarr.zeros(2, np.float32), gpuarr.zeros(2)],), {"dtype": np.float16, "casting": "safe"})
