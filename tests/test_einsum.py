"""einsum against NumPy over a broad list of subscripts."""

import re

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE
from _products_util import check, data

pytestmark = GPU_MODULE

# (subscripts, operand shapes)
CASES = [
    ("ii", [(4, 4)]), ("ii->i", [(4, 4)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]),
    ("ij->i", [(3, 4)]), ("ij->j", [(3, 4)]), ("i,j->ij", [(3,), (4,)]), ("i,i", [(5,), (5,)]),
    ("i,i->i", [(5,), (5,)]), ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]), ("ji,jk->ki", [(4, 3), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]), ("ij,ij->i", [(6, 7), (6, 7)]),
    ("ij,ij->", [(6, 7), (6, 7)]), ("ij,ij->ij", [(3, 4), (3, 4)]), ("i,ij->j", [(3,), (3, 4)]),
    ("ij,j->i", [(3, 4), (4,)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl", [(2, 3), (3, 4), (4, 5)]), ("i,i,i->", [(4,), (4,), (4,)]),
    ("iij->j", [(3, 3, 4)]), ("iji->j", [(3, 4, 3)]), ("iii->i", [(3, 3, 3)]),
    ("ii,ii->i", [(3, 3), (3, 3)]), ("ij,ji->", [(3, 4), (4, 3)]), (",ij->ij", [(), (2, 3)]),
    ("", [()]), ("->", [()]), ("i->", [(0,)]), ("ij,jk->ik", [(3, 0), (0, 4)]),
    ("abc,cd->abd", [(2, 3, 4), (4, 5)]), ("abcd,dcba->", [(2, 3, 2, 2), (2, 2, 3, 2)]),
    ("Ab,bC->AC", [(2, 3), (3, 2)]), ("i...->...", [(3, 4, 5)]), ("...i,...i->...", [(4, 1, 3), (5, 3)]),
    ("i...j->j...i", [(2, 3, 4, 5)]), ("ijk,ikl->ijl", [(2, 3, 4), (2, 4, 5)]),
    ("ij,jk->ik", [(1, 4), (4, 1)]), ("ij,jk->ik", [(3, 1), (4, 5)]),
    ("ijk,jil->kl", [(3, 2, 4), (2, 3, 5)]), ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "int64", "int8", "bool", "float16"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] if isinstance(c, str) else None)
def test_einsum(rng, case, dtype):
    subs, shapes = case
    ops = [data(rng, s, dtype) for s in shapes]
    expected = np.einsum(subs, *ops)
    got = gpuarr.einsum(subs, *[gpuarr.asarray(o) for o in ops])
    check(got, expected, rtol=5e-2 if dtype == "float16" else None)


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"])
def test_einsum_optimize(rng, optimize):
    ops = [data(rng, s, "float64") for s in [(2, 30), (30, 40), (40, 3), (3,)]]
    expected = np.einsum("ij,jk,kl,l->i", *ops)
    got = gpuarr.einsum("ij,jk,kl,l->i", *[gpuarr.asarray(o) for o in ops], optimize=optimize)
    check(got, expected)


def test_einsum_noncontiguous(rng):
    a = data(rng, (6, 8), "float32")
    b = data(rng, (8, 10), "float32")
    ga, gb = gpuarr.asarray(a)[::2, ::-1], gpuarr.asarray(b)[::-1, 1::3]
    check(gpuarr.einsum("ij,jk->ki", ga, gb), np.einsum("ij,jk->ki", a[::2, ::-1], b[::-1, 1::3]))
    check(gpuarr.einsum("ij->i", ga), np.einsum("ij->i", a[::2, ::-1]))


def test_einsum_row_dots(rng):
    # Pairs with no free labels are one row pass of dots (contract_gemm's M = N = 1 route):
    # views, rows longer than one chunk, a strided contracted label, and contracted labels
    # that do not coalesce.
    for dtype in ("float32", "complex128", "float16"):
        a, b = data(rng, (40, 3000), dtype), data(rng, (40, 3000), dtype)
        ga, gb = gpuarr.asarray(a), gpuarr.asarray(b)
        rtol = 5e-2 if dtype == "float16" else None
        check(gpuarr.einsum("ij,ij->i", ga[::-2, 1:], gb[::2, :-1]),
              np.einsum("ij,ij->i", a[::-2, 1:], b[::2, :-1]), rtol=rtol)
        check(gpuarr.einsum("ij,ij->j", ga, gb), np.einsum("ij,ij->j", a, b), rtol=rtol)
        check(gpuarr.einsum("ij,ij->", ga, gb), np.einsum("ij,ij->", a, b), rtol=rtol)
    c = data(rng, (4, 6, 10), "float64")
    gc = gpuarr.asarray(c)
    check(gpuarr.einsum("ijk,ijk->i", gc[:, ::2, :5], gc[:, 1::2, 5:]),
          np.einsum("ijk,ijk->i", c[:, ::2, :5], c[:, 1::2, 5:]))
    check(gpuarr.einsum("ijk,ijk->i", gc, gc), np.einsum("ijk,ijk->i", c, c))
    check(gpuarr.einsum("ij,ij->i", gpuarr.asarray(c[:0, 0]), gpuarr.asarray(c[:0, 0])),
          np.einsum("ij,ij->i", c[:0, 0], c[:0, 0]))


def test_einsum_dtype_out_and_mixed(rng):
    a, b = data(rng, (3, 4), "int32"), data(rng, (4, 2), "float32")
    ga, gb = gpuarr.asarray(a), gpuarr.asarray(b)
    check(gpuarr.einsum("ij,jk", ga, gb), np.einsum("ij,jk", a, b))
    check(gpuarr.einsum("ij->i", ga, dtype="float64"), np.einsum("ij->i", a, dtype="float64"))
    # out= of the result type (int32 x float32 -> float64) is filled in place.
    out, hout = gpuarr.empty((3, 2), dtype="float64"), np.empty((3, 2), "float64")
    assert gpuarr.einsum("ij,jk", ga, gb, out=out) is out
    check(out, np.einsum("ij,jk", a, b, out=hout))
    # out= enters the compute type (NumPy): float32 operands summed in float64.
    f = np.array([1e8, 1, -1e8, 1], "float32")
    out0 = gpuarr.empty((), dtype="float64")
    gpuarr.einsum("i->", gpuarr.asarray(f), out=out0)
    check(out0, np.einsum("i->", f, out=np.empty((), "float64")))
    assert float(gpuarr.asnumpy(out0)) == 2.0
    # A narrower out= needs casting='unsafe' (or same_kind where the kinds agree).
    out32, hout32 = gpuarr.empty((3, 2), dtype="float32"), np.empty((3, 2), "float32")
    gpuarr.einsum("ij,jk", ga, gb, out=out32, casting="unsafe")
    check(out32, np.einsum("ij,jk", a, b, out=hout32, casting="unsafe"))


@pytest.mark.parametrize("subs,ops,kwargs", [
    ("ij,jk", [("int32", (3, 4)), ("float32", (4, 2))], {"out": ("float32", (3, 2))}),
    ("ij,jk", [("int32", (3, 4)), ("float32", (4, 2))], {"out": ("int64", (3, 2))}),
    ("ij->i", [("float64", (3, 4))], {"dtype": "float32"}),
    ("ij->i", [("int32", (3, 4))], {"dtype": "int16"}),
    ("ij->i", [("int32", (3, 4))], {"dtype": "int16", "casting": "same_kind"}),
    ("i->", [("float32", (4,))], {"dtype": "float32", "out": ("float64", ())}),
    ("i->", [("float32", (4,))], {"out": ("float64", ()), "casting": "no"}),
    ("i->", [("float32", (4,))], {"out": ("float16", ()), "casting": "same_kind"}),
    ("i,i", [("float32", (4,)), ("float64", (4,))], {"casting": "equiv"}),
    ("i,i", [("float32", (4,)), ("float32", (4,))], {"casting": "no"}),
], ids=str)
def test_einsum_casting(rng, subs, ops, kwargs):
    """dtype=/out=/casting= as NumPy: the same TypeError text, or the same result."""
    hs = [data(rng, shape, dt) for dt, shape in ops]
    hk, gk = dict(kwargs), dict(kwargs)
    if "out" in kwargs:
        dt, shape = kwargs["out"]
        hk["out"], gk["out"] = np.zeros(shape, dt), gpuarr.zeros(shape, dtype=dt)
    try:
        expected = np.einsum(subs, *hs, **hk)
    except TypeError as e:
        with pytest.raises(TypeError, match=re.escape(str(e))):
            gpuarr.einsum(subs, *[gpuarr.asarray(h) for h in hs], **gk)
        return
    got = gpuarr.einsum(subs, *[gpuarr.asarray(h) for h in hs], **gk)
    if "out" in gk:
        assert got is gk["out"]
    check(got, expected)


def test_einsum_sublist_form(rng):
    a, b = data(rng, (3, 4), "float64"), data(rng, (4, 5), "float64")
    check(gpuarr.einsum(gpuarr.asarray(a), [0, 1], gpuarr.asarray(b), [1, 2], [0, 2]),
          np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    check(gpuarr.einsum(gpuarr.asarray(a), [Ellipsis, 1]), np.einsum(a, [Ellipsis, 1]))


def test_einsum_seed_distance(rng):
    q, p = data(rng, (50, 784), "float32"), data(rng, (40, 784), "float32")
    gq, gp = gpuarr.asarray(q), gpuarr.asarray(p)
    check(gpuarr.einsum("ij,ij->i", gq, gq), np.einsum("ij,ij->i", q, q))
    check(gq @ gp.T, q @ p.T)


@pytest.mark.parametrize("subs,shapes,msg", [
    ("ijk", [(2, 3)], "too many subscripts for operand 0"),
    ("i", [(2, 3)], "operand has more dimensions than subscripts"),
    ("ij,jk", [(2, 3), (4, 5)], "operands could not be broadcast together with remapped shapes"),
    ("ii", [(2, 3)], "collapsing index 'i'"),
    ("i,j", [(2,)], "more operands provided"),      # NumPy's wording (sic)
    ("i", [(2,), (2,)], "fewer operands provided"),
    ("i,j,k", [(2,), (2,)], "more operands provided"),
    ("ijk,j,k", [(2,), (2,)], "too many subscripts for operand 0"),
    ("ij->k", [(2, 3)], "which never appeared in an input"),
])
def test_einsum_errors(subs, shapes, msg):
    with pytest.raises(ValueError, match=msg):
        np.einsum(subs, *[np.ones(s) for s in shapes])
    with pytest.raises(ValueError, match=msg):
        gpuarr.einsum(subs, *[gpuarr.ones(s) for s in shapes])
