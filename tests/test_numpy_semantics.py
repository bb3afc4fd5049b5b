"""NumPy semantics that are easy to get subtly wrong, each checked against NumPy at test time:
einsum's views and small-integer dtypes, dot/matmul/outer with ``out=``, median and
nanmedian of complex data (and percentile/quantile refusing it), sorting complex values,
unique along any axis, histogram with complex weights, in-place operators and copies of
0-d arrays, boolean masks with empty axes, and trunc/nextafter at signed zeros and
infinities.

Device tests carry ``gpu_test``. The host tests check gpuarr's Python-level logic with NumPy
standing in for the device operations (``_device_standin``): einsum's view layout, and the
median, unique and histogram code paths, bit for bit against NumPy."""

import random
import warnings

import numpy as np
import pytest

import _device_standin
import gpuarr
from _numpy_standin import STANDIN, DeviceArray, _device_op, _ufunc
from _products_util import check as products_check, data
from conftest import (ALL_DTYPES, assert_same_exception, float_specials, gpu_test,
                      numpy_nextafter, outcome, public_exception_type)
from gpuarr import _products, _sorting

FLOATS = ["float16", "float32", "float64"]


def _quiet(fn, *args, **kwargs):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _same_outcome(gpu_fn, np_fn, *, message=False):
    """Both raise exceptions of the same public type (and message), or both succeed; returns
    (gpuarr's value, NumPy's value) or None when both raised."""
    g_kind, g_val, _ = outcome(gpu_fn)
    e_kind, e_val, _ = outcome(np_fn)
    if e_kind == "raise":
        assert g_kind == "raise", f"NumPy raised {e_val!r}; gpuarr returned {g_val!r}"
        assert_same_exception(g_val, e_val, message=message)
        return None
    assert g_kind == "ok", f"gpuarr raised {g_val!r}; NumPy returned a value"
    return g_val, e_val


def _close(got, expected, label=""):
    """A gpuarr array equals NumPy's result: dtype, shape, values (exact for integers and
    bools, to a few ulps otherwise), NaNs in the same places."""
    expected = np.asarray(expected)
    assert isinstance(got, gpuarr.ndarray), (label, type(got))
    g = gpuarr.asnumpy(got)
    assert g.dtype == expected.dtype, (label, g.dtype, expected.dtype)
    assert g.shape == expected.shape, (label, g.shape, expected.shape)
    if expected.dtype.kind in "biu":
        np.testing.assert_array_equal(g, expected, err_msg=label)
    else:
        rtol = {2: 2e-3, 4: 2e-6, 8: 1e-13}[np.finfo(expected.dtype).bits // 8]
        np.testing.assert_allclose(g, expected, rtol=rtol, atol=0, equal_nan=True,
                                   err_msg=label)


def _owner(x):
    while getattr(x, "base", None) is not None:
        x = x.base
    return x


def _numpy_is_view(result, operand):
    """NumPy returned a view of ``operand`` (also when it has no elements)."""
    return (isinstance(result, np.ndarray) and not result.flags.owndata
            and _owner(result) is _owner(operand))


def _address(d):
    return d.__cuda_array_interface__["data"][0]


# Layouts of an operand: contiguous, every other element, and reversed along each axis.
LAYOUTS = ["contiguous", "strided", "reversed"]


def _operand(h_full, layout):
    """(host view, slicing) of ``h_full`` in ``layout``; the slicing applied to the device
    copy of ``h_full`` gives the same layout on the device."""
    if layout == "contiguous" or h_full.ndim == 0:
        idx = (Ellipsis,)
    elif layout == "strided":
        idx = tuple(slice(None, None, 2) for _ in range(h_full.ndim))
    else:
        idx = tuple(slice(None, None, -1) for _ in range(h_full.ndim))
    return h_full[idx], idx


def _full_shape(shape, layout):
    return tuple(2 * n for n in shape) if layout == "strided" else tuple(shape)


# --- 1. einsum: views and dtypes --------------------------------------------------------------

EINSUM_VIEWS = [
    ("ii->i", (4, 4)), ("ij->ji", (3, 4)), ("ij->ij", (3, 4)), ("ij", (3, 4)), ("ji", (3, 4)),
    ("ba", (3, 4)), ("ijk->kji", (2, 3, 4)), ("ijk->jik", (2, 3, 4)), ("i->i", (5,)),
    ("...", (3, 4)), ("...->...", (2, 3)), ("...ij->...ji", (2, 3, 4)), ("i...->...i", (2, 3, 4)),
    ("...ii->...i", (2, 3, 3)), ("i...i->...i", (3, 2, 3)), ("ii...->i...", (3, 3, 2)),
    ("iij->ji", (3, 3, 2)), ("iij->ij", (3, 3, 2)), ("iii->i", (3, 3, 3)), ("ii->i", (0, 0)),
    ("ij->ji", (0, 3)), (" i j -> j i ", (2, 3)),
]
# Summations and 0-d results: NumPy computes (a 0-d result is a scalar there).
EINSUM_COMPUTED = [
    ("ii", (4, 4)), ("ii->", (4, 4)), ("ij->i", (3, 4)), ("ij->j", (3, 4)), ("ij->", (3, 4)),
    ("iij->j", (3, 3, 4)), ("->", ()), ("", ()), ("...", ()), ("i...->...", (3, 4)),
]


def _einsum_pair(subs, shape, layout, dtype, rng, optimize):
    h_full = data(rng, _full_shape(shape, layout), dtype)
    h, idx = _operand(h_full, layout)
    d = gpuarr.asarray(h_full)[idx]
    return h, d, np.einsum(subs, h, optimize=optimize), gpuarr.einsum(subs, d, optimize=optimize)


@gpu_test
@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", EINSUM_VIEWS + EINSUM_COMPUTED, ids=lambda c: repr(c[0]))
def test_einsum_view_where_numpy_has_one(rng, case, layout, optimize):
    subs, shape = case
    for dtype in ("float64", "int8", "complex64", "bool"):
        h, d, e, g = _einsum_pair(subs, shape, layout, dtype, rng, optimize)
        products_check(g, e)
        view = _numpy_is_view(e, h)
        assert view == (case in EINSUM_VIEWS), (subs, "NumPy's view-ness changed")
        assert gpuarr.shares_memory(g, d) == np.shares_memory(e, h), (subs, layout, dtype)
        if not view:
            continue
        assert g.strides == e.strides, (subs, layout, g.strides, e.strides)
        assert _address(g) == _address(d), "the view starts at the operand's first element"
        if e.size:
            # Writing through the result writes the operand, as in NumPy.
            e[...] = e.dtype.type(1)
            g[...] = 1
            np.testing.assert_array_equal(gpuarr.asnumpy(d), h)


@gpu_test
def test_einsum_view_keeps_the_operand_dtype(rng):
    # NumPy returns the view before its iterator applies dtype= (or checks casting=).
    h = data(rng, (3, 4), "float64")
    d = gpuarr.asarray(h)
    for kwargs in ({"dtype": np.float32}, {"dtype": np.int64, "casting": "unsafe"},
                   {"order": "C"}, {"dtype": np.complex128}):
        e = np.einsum("ij->ji", h, **kwargs)
        g = gpuarr.einsum("ij->ji", d, **kwargs)
        products_check(g, e)
        assert gpuarr.shares_memory(g, d) == np.shares_memory(e, h), kwargs
    # A summation still computes in the requested dtype.
    products_check(gpuarr.einsum("ij->i", d, dtype=np.float32, casting="same_kind"),
                   np.einsum("ij->i", h, dtype=np.float32, casting="same_kind"))


@gpu_test
def test_einsum_with_out_never_returns_a_view(rng):
    h = data(rng, (3, 4), "float64")
    d = gpuarr.asarray(h)
    out = gpuarr.empty((4, 3))
    got = gpuarr.einsum("ij->ji", d, out=out)
    assert got is out and not gpuarr.shares_memory(out, d)
    products_check(out, np.einsum("ij->ji", h))


@gpu_test
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "bool", "float16",
                                   "int32", "uint32"])
@pytest.mark.parametrize("subs,shapes", [
    ("ij->i", [(3, 4)]), ("ij->", [(3, 4)]), ("ii", [(3, 3)]), ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("i,i", [(6,), (6,)]), ("i,i->i", [(6,), (6,)]), ("ij,ij->i", [(3, 4), (3, 4)]),
    ("i,j->ij", [(3,), (4,)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
])
def test_einsum_keeps_small_integer_dtypes(rng, dtype, subs, shapes):
    # NumPy's einsum computes in the operands' own dtype (no widening as sum's): the result
    # of uint8 operands is uint8, wrapping as NumPy's.
    ops = []
    for s in shapes:
        if np.dtype(dtype).kind in "iu":
            ops.append(rng.integers(0, 60, size=s).astype(dtype))  # products wrap in int8
        else:
            ops.append(data(rng, s, dtype))
    e = _quiet(np.einsum, subs, *ops)
    g = gpuarr.einsum(subs, *[gpuarr.asarray(o) for o in ops])
    products_check(g, e, rtol=5e-2 if dtype == "float16" else None)
    # mixed: the result type of the operands
    if len(ops) == 2:
        other = ops[1].astype(np.int8 if dtype != "int8" else np.uint8)
        e = _quiet(np.einsum, subs, ops[0], other)
        g = gpuarr.einsum(subs, gpuarr.asarray(ops[0]), gpuarr.asarray(other))
        products_check(g, e, rtol=5e-2 if dtype == "float16" else None)


def _einsum_numpy_layout(subs, h):
    """NumPy's einsum of one host operand: ("view", shape, strides), ("computed",) or
    ("raise", exception)."""
    try:
        r = _quiet(np.einsum, subs, h)
    except Exception as e:  # noqa: BLE001
        return ("raise", e)
    if _numpy_is_view(r, h):
        start = r.__array_interface__["data"][0] - h.__array_interface__["data"][0]
        assert start == 0
        return ("view", r.shape, r.strides)
    return ("computed",)


def _check_einsum_layout(subs, h):
    expected = _einsum_numpy_layout(subs, h)
    try:
        got = _products._einsum_view_layout(subs, h.shape, h.strides)
    except ValueError as e:
        assert expected[0] == "raise", (subs, h.shape, e)
        assert_same_exception(e, expected[1])
        return
    if expected[0] == "view":
        if got is None and h.size == 0:
            # NumPy takes a repeated label's size 0 for "not seen yet" and makes a view of
            # the later size over no elements; gpuarr refuses the mismatch (general path).
            return
        assert got == expected[1:], (subs, h.shape, h.strides, got, expected)
    else:
        # NumPy computes, or raises from its parser (gpuarr's general path raises the same).
        assert got is None, (subs, h.shape, h.strides, got, expected)


@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("case", EINSUM_VIEWS + EINSUM_COMPUTED, ids=lambda c: repr(c[0]))
def test_einsum_view_lists_follow_numpy(case, optimize):
    # The device test's lists: NumPy returns a view for exactly the cases of EINSUM_VIEWS.
    subs, shape = case
    for layout in LAYOUTS:
        h, _ = _operand(np.arange(int(np.prod(_full_shape(shape, layout))), dtype=float)
                        .reshape(_full_shape(shape, layout)), layout)
        e = _quiet(np.einsum, subs, h, optimize=optimize)
        assert _numpy_is_view(e, h) == (case in EINSUM_VIEWS), (subs, layout)


@pytest.mark.parametrize("case", EINSUM_VIEWS + EINSUM_COMPUTED, ids=lambda c: repr(c[0]))
def test_einsum_view_layout_cases(case):
    subs, shape = case
    for layout in LAYOUTS:
        h, _ = _operand(np.zeros(_full_shape(shape, layout)), layout)
        _check_einsum_layout(subs, h)
        if h.ndim >= 2:
            _check_einsum_layout(subs, h.T)


@pytest.mark.parametrize("subs,shape", [
    ("ii->i", (2, 3)), ("iij->ij", (2, 3, 2)), ("ijk", (2, 3)), ("i", (2, 3)), ("ij->k", (2, 3)),
    ("ij->ii", (2, 3)), ("i.j", (2, 3)), ("i...j...", (2, 3)), ("i,j", (2,)), ("i-j", (2,)),
    ("ij->...ij", (2, 3)), ("i...->i", (2, 3)), ("i1", (2, 3)), ("ii->i", (0, 3)),
])
def test_einsum_view_layout_invalid(subs, shape):
    # Refused subscripts give no view; the single-operand size mismatch raises NumPy's own
    # message (its view path's), the rest is left to the general path.
    _check_einsum_layout(subs, np.zeros(shape))


def test_einsum_view_layout_random():
    rnd = random.Random(20240611)
    for _ in range(4000):
        ndim = rnd.randint(0, 4)
        shape = tuple(rnd.choice([0, 1, 2, 3, 3]) for _ in range(ndim))
        h = np.zeros(tuple(2 * n + 1 for n in shape))
        h = h[tuple(rnd.choice([slice(None, None, -2), slice(0, None, 2)]) for _ in shape)]
        h = h[tuple(slice(0, n) for n in shape)]
        if ndim >= 2 and rnd.random() < 0.3:
            h = h.transpose(rnd.sample(range(ndim), ndim))
        inp = "".join(rnd.sample("ijkABi", rnd.randint(0, min(4, ndim + 1))))
        if rnd.random() < 0.4:
            pos = rnd.randint(0, len(inp))
            inp = inp[:pos] + "..." + inp[pos:]
        subs = inp
        if rnd.random() < 0.7:
            letters = sorted({c for c in inp if c.isalpha()})
            rnd.shuffle(letters)
            out = "".join(letters[:rnd.randint(0, len(letters))])
            if "..." in inp and rnd.random() < 0.9:
                pos = rnd.randint(0, len(out))
                out = out[:pos] + "..." + out[pos:]
            subs = inp + "->" + out
        _check_einsum_layout(subs, h)


# --- 2. dot / matmul / outer with out= ------------------------------------------------------

# (a shape, a dtype, b shape, b dtype, out shape, out dtype, out layout)
DOT_OUT_CASES = [
    ((3, 4), "float64", (4, 5), "float64", (3, 5), "float64", "C"),
    ((3, 4), "float64", (4, 5), "float64", (3, 5), "float32", "C"),
    ((3, 4), "float64", (4, 5), "float64", (3, 5), "complex128", "C"),
    ((3, 4), "float64", (4, 5), "float64", (3, 5), "int64", "C"),
    ((3, 4), "float64", (4, 5), "float64", (3, 6), "float64", "C"),
    ((3, 4), "float64", (4, 5), "float64", (15,), "float64", "C"),
    ((3, 4), "float64", (4, 5), "float64", (1, 3, 5), "float64", "C"),
    ((3, 4), "float64", (4, 5), "float64", (3, 5), "float64", "F"),
    ((3, 4), "float64", (4, 5), "float64", (3, 5), "float64", "strided"),
    ((3, 4), "float64", (5, 5), "float64", (3, 5), "float32", "C"),
    ((3, 4), "int64", (4, 5), "int64", (3, 5), "float64", "C"),
    ((3, 4), "int64", (4, 5), "int64", (3, 5), "int32", "C"),
    ((3, 4), "int8", (4, 5), "int8", (3, 5), "int8", "C"),
    ((3, 4), "int8", (4, 5), "int8", (3, 5), "int16", "C"),
    ((3, 4), "complex64", (4, 5), "complex64", (3, 5), "complex128", "C"),
    ((3, 4), "bool", (4, 5), "bool", (3, 5), "bool", "C"),
    ((2, 3, 4), "float64", (4, 5), "float64", (2, 3, 5), "float64", "C"),
    ((2, 3, 4), "float64", (4, 5), "float64", (2, 3, 6), "float64", "C"),
    ((2, 3, 4), "float32", (2, 4, 5), "float32", (2, 3, 2, 5), "float32", "C"),
    ((4,), "float64", (4,), "float64", (), "float64", "C"),
    ((4,), "float64", (4,), "float64", (1,), "float64", "C"),
    ((4,), "float64", (4, 5), "float64", (5,), "float64", "C"),
    ((4,), "float64", (4, 5), "float64", (6,), "float64", "C"),
    ((), "float64", (3, 4), "float64", (3, 4), "float64", "C"),
    ((), "float64", (3, 4), "float64", (3, 4), "float32", "C"),
    ((), "float64", (3, 4), "float64", (3, 5), "float64", "C"),
    ((), "int64", (3, 4), "int64", (3, 4), "float64", "C"),
    ((), "int64", (3, 4), "int64", (3, 5), "int64", "C"),
    ((), "int64", (3, 4), "int64", (3, 4), "int8", "C"),
    ((), "float64", (2, 3, 4), "float64", (2, 3, 4), "float32", "C"),
]
MATMUL_OUT_CASES = [c for c in DOT_OUT_CASES if c[0] != () and c[2] != ()] + [
    ((3, 4), "float64", (4, 5), "float64", (2, 3, 5), "float64", "C"),
    ((2, 3, 4), "float64", (4, 5), "float64", (3, 5), "float64", "C"),
    ((2, 3, 4), "float64", (4, 5), "float64", (3, 3, 5), "float64", "C"),
    ((2, 3, 4), "float64", (4, 5), "float64", (2, 2, 3, 5), "float64", "C"),
    ((2, 3, 4), "float64", (3, 4, 5), "float64", (3, 5), "int64", "C"),
    ((3, 4), "float64", (4,), "float64", (3,), "float64", "C"),
    ((3, 4), "float64", (4,), "float64", (2, 3), "float64", "C"),
    ((3, 4), "float64", (4,), "float64", (4,), "float64", "C"),
    ((4,), "float64", (4,), "float64", (3,), "float64", "C"),
    ((3, 4), "float64", (4, 5), "float64", (3, 5), "bool", "C"),
    ((3, 4), "bool", (4, 5), "bool", (3, 5), "int8", "C"),
    ((3, 4), "int8", (4, 5), "uint8", (3, 5), "int8", "C"),
    ((3, 4), "complex128", (4, 5), "float64", (3, 5), "float64", "C"),
]


def _out_pair(shape, dtype, layout):
    """The same output layout on the host and on the device."""
    if layout == "F":
        h = np.zeros(shape[::-1], dtype).T
        d = gpuarr.zeros(shape[::-1], dtype=dtype).T
    elif layout == "strided":
        full = shape[:-1] + (2 * shape[-1],)
        h = np.zeros(full, dtype)[..., ::2]
        d = gpuarr.zeros(full, dtype=dtype)[..., ::2]
    else:
        h, d = np.zeros(shape, dtype), gpuarr.zeros(shape, dtype=dtype)
    return h, d


def _np_result_type(*dtypes):
    return np.result_type(*[np.dtype(d) for d in dtypes])


def _check_out_call(name, case, rng):
    ash, adt, bsh, bdt, osh, odt, layout = case
    a, b = data(rng, ash, adt), data(rng, bsh, bdt)
    ho, do = _out_pair(osh, odt, layout)
    np_fn, g_fn = getattr(np, name), getattr(gpuarr, name)
    res = _same_outcome(lambda: g_fn(gpuarr.asarray(a), gpuarr.asarray(b), out=do),
                        lambda: _quiet(np_fn, a, b, out=ho))
    if res is None:
        if name == "dot":  # dot's own messages about out, word for word
            g_kind, g_val, _ = outcome(g_fn, gpuarr.asarray(a), gpuarr.asarray(b), out=do)
            e_kind, e_val, _ = outcome(np_fn, a, b, out=ho)
            if str(e_val).startswith("output array"):
                assert str(g_val) == str(e_val)
        return
    got, expected = res
    assert got is do
    # The product is computed in the operands' common type and cast into out (NumPy 2.4);
    # NumPy 2.5's matmul computes in out's wider type instead, so the tolerance is the
    # operands' precision.
    ops = _np_result_type(adt, bdt)
    rtol = {4: 2e-4, 8: 2e-4 if ops.kind == "c" else 1e-10, 16: 1e-10}.get(ops.itemsize)
    products_check(do, ho, rtol=rtol if ops.kind in "fc" else None)


@gpu_test
@pytest.mark.parametrize("case", DOT_OUT_CASES, ids=str)
def test_dot_out(rng, case):
    _check_out_call("dot", case, rng)


@gpu_test
@pytest.mark.parametrize("case", MATMUL_OUT_CASES, ids=str)
def test_matmul_out(rng, case):
    _check_out_call("matmul", case, rng)


@gpu_test
def test_dot_matmul_out_of_other_types():
    a, b = gpuarr.ones((3, 4)), gpuarr.ones((4, 5))
    for fn, np_fn in ((gpuarr.dot, np.dot), (gpuarr.matmul, np.matmul)):
        for bad in ([[0.0] * 5] * 3, np.zeros((3, 5))):
            g_kind, g_val, _ = outcome(fn, a, b, out=bad)
            e_kind, e_val, _ = outcome(np_fn, np.ones((3, 4)), np.ones((4, 5)),
                                       out=[[0.0] * 5] * 3)
            assert g_kind == e_kind == "raise"
            assert_same_exception(g_val, e_val, message=False)
    # matmul takes a one-element tuple, as any ufunc
    out = gpuarr.zeros((3, 5))
    assert gpuarr.matmul(a, b, out=(out,)) is out
    products_check(out, np.ones((3, 4)) @ np.ones((4, 5)))


@gpu_test
@pytest.mark.parametrize("out_shape,out_dtype", [((3, 4), "float64"), ((3, 4), "float32"),
                                                 ((2, 3, 4), "float64"), ((3, 5), "float64"),
                                                 ((3, 4), "int64")])
def test_outer_out_follows_the_ufunc_rules(rng, out_shape, out_dtype):
    a, b = data(rng, (3,), "float64"), data(rng, (2, 2), "float64")
    ho, do = np.zeros(out_shape, out_dtype), gpuarr.zeros(out_shape, dtype=out_dtype)
    res = _same_outcome(lambda: gpuarr.outer(gpuarr.asarray(a), gpuarr.asarray(b), out=do),
                        lambda: np.outer(a, b, out=ho))
    if res is not None:
        assert res[0] is do
        products_check(do, ho)


# --- 3. median / quantile of complex data, and sorting complex values ------------------------

def _complex_data(rng, shape, dtype, nan=True):
    vals = np.array([0.0, 1.0, -1.0, 2.0, 0.5, -3.0] + ([np.nan] if nan else []))
    re = rng.choice(vals, size=shape)
    im = rng.choice(vals, size=shape)
    h = np.empty(shape, dtype)
    h.real, h.imag = re, im
    return h


@gpu_test
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("shape", [(7,), (6,), (3, 4), (2, 3, 5), (1,), (4, 1)], ids=str)
def test_complex_median_and_nanmedian(rng, dtype, shape):
    for nan in (False, True):
        h = _complex_data(rng, shape, dtype, nan=nan)
        for layout in ("contiguous", "reversed"):
            hv, idx = _operand(h, layout)
            d = gpuarr.asarray(h)[idx]
            axes = [None] + list(range(-h.ndim, h.ndim))
            if h.ndim > 1:
                axes.append((0, h.ndim - 1))
            for axis in axes:
                for keepdims in (False, True):
                    for name in ("median", "nanmedian"):
                        e = _quiet(getattr(np, name), hv, axis=axis, keepdims=keepdims)
                        g = _quiet(getattr(gpuarr, name), d, axis=axis, keepdims=keepdims)
                        _close(g, e, f"{name} axis={axis} keepdims={keepdims} nan={nan}")


@gpu_test
def test_complex_median_all_nan_and_empty():
    h = np.array([[complex(np.nan, 1), complex(2, np.nan)], [1 + 1j, complex(np.nan, 0)]])
    d = gpuarr.asarray(h)
    for name in ("median", "nanmedian"):
        for axis in (None, 0, 1):
            e_kind, e, e_w = outcome(getattr(np, name), h, axis=axis)
            g_kind, g, g_w = outcome(getattr(gpuarr, name), d, axis=axis)
            assert e_kind == g_kind == "ok"
            _close(g, e, f"{name} {axis}")
            assert ("RuntimeWarning" in g_w) == ("RuntimeWarning" in e_w), (name, axis)
    for shape, axis in (((0,), None), ((0, 3), 0), ((3, 0), 0)):
        for name in ("median", "nanmedian"):
            e = _quiet(getattr(np, name), np.zeros(shape, complex), axis=axis)
            g = _quiet(getattr(gpuarr, name), gpuarr.zeros(shape, dtype=complex), axis=axis)
            _close(g, e, f"{name} empty {shape}")


@gpu_test
@pytest.mark.parametrize("name", ["percentile", "quantile", "nanpercentile", "nanquantile"])
def test_percentile_and_quantile_refuse_complex(name):
    h = np.array([1 + 1j, 2 - 1j, 3 + 0j])
    q = 50 if "percentile" in name else 0.5
    res = _same_outcome(lambda: getattr(gpuarr, name)(gpuarr.asarray(h), q),
                        lambda: getattr(np, name)(h, q), message=True)
    if res is not None:  # a NumPy that computes them: the same values
        _close(res[0], res[1], name)


@gpu_test
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sort_complex_is_lexicographic_with_numpys_nan_order(rng, dtype):
    nan, inf = np.nan, np.inf
    vals = [complex(nan, 1), complex(1, nan), complex(nan, nan), 1 + 1j, complex(inf, 0),
            complex(-inf, nan), 2 - 1j, 2 + 0j, complex(1, -inf), -1 + 5j, complex(nan, -2)]
    h = np.array(vals * 3, dtype)
    rng.shuffle(h)
    e = np.sort(h)
    g = gpuarr.sort(gpuarr.asarray(h))
    assert g.dtype == e.dtype
    got = gpuarr.asnumpy(g)
    # Element for element the same numbers (NaN parts where NumPy has them).
    np.testing.assert_array_equal(np.isnan(got.real), np.isnan(e.real))
    np.testing.assert_array_equal(np.isnan(got.imag), np.isnan(e.imag))
    np.testing.assert_array_equal(np.nan_to_num(got), np.nan_to_num(e))
    # argsort is stable and follows the same order
    hs = h.reshape(3, -1)
    np.testing.assert_array_equal(
        gpuarr.asnumpy(gpuarr.argsort(gpuarr.asarray(hs), axis=1)),
        np.argsort(hs, axis=1, kind="stable"))


# --- 4. unique along an axis ----------------------------------------------------------------

UNIQUE_SHAPES = [(5, 3), (4, 3, 2), (6, 1), (1, 4), (0, 3), (3, 0), (2, 0, 3), (4, 2, 3, 2)]


@gpu_test
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float32", "float64",
                                   "complex64"])
@pytest.mark.parametrize("shape", UNIQUE_SHAPES, ids=str)
def test_unique_axis(rng, dtype, shape):
    h = rng.integers(0, 2, size=shape).astype(dtype)  # few distinct slices: repeats
    for layout in ("contiguous", "reversed"):
        hv, idx = _operand(h, layout)
        d = gpuarr.asarray(h)[idx]
        for axis in range(-h.ndim, h.ndim):
            for flags in ((False, False, False), (True, False, False), (False, True, False),
                          (False, False, True), (True, True, True)):
                e = np.unique(hv, *flags, axis=axis)
                g = gpuarr.unique(d, *flags, axis=axis)
                e = e if isinstance(e, tuple) else (e,)
                g = g if isinstance(g, tuple) else (g,)
                assert len(g) == len(e)
                for x, y in zip(g, e):
                    _close(x, y, f"axis={axis} flags={flags}")


@gpu_test
def test_unique_axis_nan_slices_and_errors():
    nan = np.nan
    h = np.array([[1, nan, 2], [1, nan, 2], [0, 5, 6], [1, 2, 3], [0, 5, 6], [-0.0, 5, 7]])
    d = gpuarr.asarray(h)
    for axis in (0, -2, 1):
        for equal_nan in (True, False):
            # return_index with the inverse: NumPy's stable sort orders equal NaN slices
            e = np.unique(h, True, True, True, axis=axis, equal_nan=equal_nan)
            g = gpuarr.unique(d, True, True, True, axis=axis, equal_nan=equal_nan)
            for x, y in zip(g, e):
                _close(x, y, f"axis={axis}")
    for bad_axis in (2, -3):
        _same_outcome(lambda: gpuarr.unique(d, axis=bad_axis),
                      lambda: np.unique(h, axis=bad_axis), message=True)
    _same_outcome(lambda: gpuarr.unique(gpuarr.asarray(np.array(3.0)), axis=0),
                  lambda: np.unique(np.array(3.0), axis=0))
    # 1-d with axis=0 is the flat unique (equal_nan applies)
    v = np.array([nan, 1.0, nan, 1.0])
    for equal_nan in (True, False):
        e = np.unique(v, return_inverse=True, return_counts=True, axis=0, equal_nan=equal_nan)
        g = gpuarr.unique(gpuarr.asarray(v), return_inverse=True, return_counts=True, axis=0,
                          equal_nan=equal_nan)
        for x, y in zip(g, e):
            _close(x, y, f"1-d equal_nan={equal_nan}")


# --- 5. histogram with complex weights -------------------------------------------------------

@gpu_test
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("bins", [4, [0.0, 0.25, 0.3, 1.0]], ids=str)
@pytest.mark.parametrize("density", [False, True])
def test_histogram_complex_weights(rng, dtype, bins, density):
    a = rng.uniform(0, 1, size=200)
    # weights away from 0, so that the density's normalisation (n.sum()) is well conditioned
    w = (rng.uniform(0.5, 1.5, 200) + 1j * rng.uniform(-1.5, -0.5, 200)).astype(dtype)
    for hv, wv, da, dw in ((a, w, gpuarr.asarray(a), gpuarr.asarray(w)),
                           (a[::-2], w[::-2], gpuarr.asarray(a)[::-2], gpuarr.asarray(w)[::-2])):
        e_hist, e_edges = np.histogram(hv, bins=bins, weights=wv, density=density)
        g_hist, g_edges = gpuarr.histogram(da, bins=bins, weights=dw, density=density)
        assert g_hist.dtype == e_hist.dtype and g_hist.shape == e_hist.shape
        # the weights' precision: NumPy sums complex64 weights in complex64 and divides
        # (density) in complex128, so the result's dtype says nothing about its accuracy
        tol = 1e-4 if np.dtype(dtype) == np.complex64 else 1e-10
        np.testing.assert_allclose(gpuarr.asnumpy(g_hist), e_hist, rtol=tol, atol=tol)
        _close(g_edges, e_edges)
    # empty data: zero sums in the weights' dtype
    e_hist, _ = np.histogram(a[:0], bins=3, weights=w[:0])
    g_hist, _ = gpuarr.histogram(gpuarr.asarray(a[:0]), bins=3, weights=gpuarr.asarray(w[:0]))
    _close(g_hist, e_hist)


# --- 6. 0-d arrays, empty masks, trunc/nextafter special values ------------------------------

INPLACE_OPS = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="]


def _inplace(op, a, b):
    ns = {"a": a, "b": b}
    exec(f"a {op} b", ns)  # noqa: S102  (the augmented assignment itself is under test)
    return ns["a"]


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("op", INPLACE_OPS)
def test_inplace_operators_on_0d_arrays(dtype, op):
    for other in (3, 2.5, np.array(2, dtype)):
        h = np.array(5, dtype)
        d = gpuarr.asarray(h)
        dv = gpuarr.asarray(other) if isinstance(other, np.ndarray) else other
        res = _same_outcome(lambda: _quiet(_inplace, op, d, dv),
                            lambda: _quiet(_inplace, op, h, other))
        if res is None:
            continue
        got, expected = res
        assert got is d, "an in-place operator keeps the array's identity"
        assert expected is h
        assert got.shape == () and got.dtype == h.dtype
        _close(got, h, f"{op} {other!r}")


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: d.name)
def test_copies_of_0d_arrays(dtype):
    h = np.array(7, dtype)
    d = gpuarr.asarray(h)
    for copy in (gpuarr.array(d, copy=True), d.copy(), gpuarr.copy(d),
                 gpuarr.asarray(d, copy=True)):
        assert isinstance(copy, gpuarr.ndarray) and copy is not d
        assert copy.shape == () and copy.dtype == d.dtype
        assert not gpuarr.shares_memory(copy, d)
        copy[...] = 1
        _close(d, h, "the original is untouched")
    # no copy asked: the same data
    assert gpuarr.shares_memory(gpuarr.asarray(d), d)


MASK_CASES = [((0, 0), (0, 0)), ((2, 3), (0, 0)), ((0, 3), (0, 0)), ((2, 0), (0, 0)),
              ((0, 2), (0, 0)), ((2, 3, 4), (0, 0)), ((0,), (0, 0)), ((0, 0), (0,)),
              ((0, 0), (1,)), ((0, 0), (0, 1)), ((2, 3), (0, 2)), ((2, 3), (1, 0)),
              ((2, 3), (2, 0)), ((2, 3), (0, 3)), ((2, 3), (0,)), ((2, 3, 4), (0, 3, 0)),
              ((2, 3, 4), (0, 5, 0)), ((3,), (0,))]


@gpu_test
@pytest.mark.parametrize("a_shape,m_shape", MASK_CASES, ids=str)
def test_boolean_masks_with_empty_axes(a_shape, m_shape):
    h = np.arange(int(np.prod(a_shape)), dtype=np.float64).reshape(a_shape)
    m = np.zeros(m_shape, bool)
    for dm in (m, gpuarr.asarray(m)):  # a host mask and a device mask
        d = gpuarr.asarray(h)
        res = _same_outcome(lambda: d[dm], lambda: h[m], message=True)
        if res is not None:
            _close(res[0], res[1], "getitem")
        h2 = h.copy()
        res = _same_outcome(lambda: d.__setitem__(dm, 1.0), lambda: h2.__setitem__(m, 1.0),
                            message=True)
        if res is not None:
            _close(d, h2, "setitem")
    # with an integer after the mask
    if len(a_shape) == 3 and len(m_shape) == 2:
        d = gpuarr.asarray(h)
        res = _same_outcome(lambda: d[m, 0], lambda: h[m, 0], message=True)
        if res is not None:
            _close(res[0], res[1], "mask then integer")


def test_boolean_mask_rule_of_empty_axes():
    # What the device test expects, as the installed NumPy has it: a mask axis of size 0
    # matches an axis of any size; any other size must be equal.
    for a_shape, m_shape in MASK_CASES:
        kind, val, _ = outcome(lambda: np.zeros(a_shape)[np.zeros(m_shape, bool)])
        if len(m_shape) > len(a_shape):
            assert kind == "raise"
            continue
        ok = all(m == 0 or m == a for m, a in zip(m_shape, a_shape))
        assert (kind == "ok") == ok, (a_shape, m_shape, val)
        if kind == "raise":
            assert public_exception_type(val) is IndexError


def _signbits_equal(got, expected, label):
    """Equal values, NaN where NumPy has NaN, and the sign of every non-NaN (zeros and
    infinities included) as NumPy's; a NaN's sign bit is not NumPy's contract."""
    got = gpuarr.asnumpy(got)
    assert got.dtype == expected.dtype, (label, got.dtype, expected.dtype)
    assert got.shape == expected.shape, (label, got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected, err_msg=label)
    numbers = ~np.isnan(expected)
    np.testing.assert_array_equal(np.signbit(got[numbers]), np.signbit(expected[numbers]),
                                  err_msg=label)


@gpu_test
@pytest.mark.parametrize("dtype", FLOATS)
def test_trunc_and_nextafter_at_zeros_and_infinities(dtype):
    fi = np.finfo(dtype)
    nan, inf = np.nan, np.inf
    x = np.array([-0.0, 0.0, inf, -inf, nan, -0.5, 0.5, -1.5, 2.5, float(fi.smallest_subnormal),
                  -float(fi.smallest_subnormal), float(fi.max)], dtype)
    for hv, dv in ((x, gpuarr.asarray(x)), (x[::-2], gpuarr.asarray(x)[::-2]),
                   (x[3], gpuarr.asarray(x[3]))):
        _signbits_equal(gpuarr.trunc(dv), np.asarray(_quiet(np.trunc, hv)), f"trunc {dtype}")
    pairs = [(0.0, -1.0), (0.0, 1.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -1.0), (1.0, nan),
             (nan, 1.0), (inf, 0.0), (-inf, 0.0), (inf, inf), (float(fi.max), inf),
             (float(fi.smallest_subnormal), 0.0), (-float(fi.smallest_subnormal), 0.0),
             (-float(fi.smallest_subnormal), 1.0), (1.0, 2.0), (1.0, 1.0)]
    a = np.array([p[0] for p in pairs], dtype)
    b = np.array([p[1] for p in pairs], dtype)
    _signbits_equal(gpuarr.nextafter(gpuarr.asarray(a), gpuarr.asarray(b)),
                    numpy_nextafter(a, b), f"nextafter {dtype}")
    # every special against every special, and 0-d operands
    s = float_specials(dtype)
    sx, sy = np.meshgrid(s, s)
    _signbits_equal(gpuarr.nextafter(gpuarr.asarray(sx), gpuarr.asarray(sy)),
                    numpy_nextafter(sx, sy), f"nextafter specials {dtype}")
    _signbits_equal(gpuarr.nextafter(gpuarr.asarray(a[0]), gpuarr.asarray(b[0])),
                    np.asarray(numpy_nextafter(a[0:1], b[0:1])[0]), "0-d")


# --- host: the Python-level logic with NumPy standing in for the device -------------------


def _sorted_rows(a, axes):
    """The stand-in of _core._sorted_rows: the reduced axes moved last, rows sorted."""
    a = np.asarray(a)
    axes = tuple(range(a.ndim)) if axes is None else tuple(
        np.lib.array_utils.normalize_axis_tuple(axes, a.ndim))
    moved = np.moveaxis(a, axes, tuple(range(-len(axes), 0)))
    n = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    return np.sort(moved.reshape(-1, n), axis=-1)


def _lexsort(keys, axis):
    return np.lexsort([np.asarray(k) for k in keys], axis)


def _histogram(a, w, edges, uniform, first, last, norm, density, widths):
    # sums per bin as NumPy's (the device kernel's bin rule is tested elsewhere)
    h, _ = np.histogram(np.asarray(a), bins=np.asarray(edges),
                        weights=None if w is None else np.asarray(w), density=density)
    return h


@pytest.fixture
def standin(monkeypatch):
    extra = {
        "_sorted_rows": _device_op(_sorted_rows), "_lexsort": _device_op(_lexsort),
        "_histogram": _device_op(_histogram), "_minmax": lambda a: (np.min(a), np.max(a)),
        "take_along_axis": _device_op(np.take_along_axis), "sum": _device_op(np.sum),
        "moveaxis": _device_op(np.moveaxis), "full": _device_op(np.full),
        "flatnonzero": _device_op(np.flatnonzero), "cumsum": _device_op(np.cumsum),
        **{n: _ufunc(getattr(np, n)) for n in (
            "true_divide", "add", "isnan", "logical_not", "floor_divide", "subtract", "less",
            "greater_equal", "equal", "not_equal")},
    }
    _device_standin.install(monkeypatch, {**STANDIN, **extra})


def _dev(h):
    return np.asarray(h).view(DeviceArray)


@pytest.mark.parametrize("seed", range(40))
def test_complex_median_logic(standin, seed):
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 5, size=rng.integers(1, 4)))
    vals = np.array([0, 1, -1, 2, 0.5, np.nan, np.inf, -np.inf])
    p = [.3, .15, .15, .1, .1, .1, .05, .05]
    h = np.empty(shape, np.complex64 if seed % 2 else np.complex128)
    h.real, h.imag = rng.choice(vals, size=shape, p=p), rng.choice(vals, size=shape, p=p)
    axes = [None] + list(range(-h.ndim, h.ndim)) + ([(0, h.ndim - 1)] if h.ndim > 1 else [])
    for axis in axes:
        for keepdims in (False, True):
            for name in ("median", "nanmedian"):
                e = np.asarray(_quiet(getattr(np, name), h, axis=axis, keepdims=keepdims))
                g = np.asarray(_quiet(getattr(_sorting, name), _dev(h), axis=axis,
                                      keepdims=keepdims))
                assert g.dtype == e.dtype and g.shape == e.shape, (name, axis)
                masked_route = name == "nanmedian" and axis is not None and \
                    len(np.atleast_1d(axis)) < h.ndim
                if masked_route and np.isinf(h).any():
                    continue  # NumPy's masked median fills NaNs with inf, mixing them in
                np.testing.assert_array_equal(g, e, err_msg=f"{name} axis={axis}")


@pytest.mark.parametrize("seed", range(60))
def test_unique_axis_logic(standin, seed):
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(0, 4, size=rng.integers(2, 4)))
    dtype = ["int8", "uint16", "float32", "float64", "complex128", "bool"][seed % 6]
    vals = np.array([0.0, 1.0, 2.0, np.nan, -np.inf]) if dtype[0] in "fc" else np.array([0, 1])
    h = rng.choice(vals, size=shape)
    if dtype.startswith("complex"):
        h = h.astype(complex)
        h.imag = rng.choice(vals, size=shape)
    h = _quiet(h.astype, dtype)
    for axis in range(-h.ndim, h.ndim):
        for flags in ((False, False, False), (True, True, True), (False, True, True),
                      (True, False, False)):
            if flags[1] and not flags[0] and np.isnan(h).any():
                continue  # NumPy's quicksort orders equal NaN slices arbitrarily
            e = np.unique(h, *flags, axis=axis)
            g = _sorting.unique(_dev(h), *flags, axis=axis)
            e = e if isinstance(e, tuple) else (e,)
            g = g if isinstance(g, tuple) else (g,)
            assert len(e) == len(g)
            for x, y in zip(g, e):
                x = np.asarray(x)
                assert x.dtype == y.dtype and x.shape == y.shape, (axis, flags)
                np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("bins", [3, [0, 0.3, 1]], ids=str)
@pytest.mark.parametrize("density", [False, True])
def test_histogram_complex_weights_logic(standin, dtype, bins, density):
    a = np.array([0.1, 0.5, 0.7, 0.2, 0.9])
    w = np.array([1 + 2j, 3 - 1j, 0.5j, 2, 1 + 1j], dtype)
    expected = np.histogram(a, bins=bins, weights=w, density=density)
    got = _sorting.histogram(_dev(a), bins=bins, weights=_dev(w), density=density)
    for x, y in zip(got, expected):
        x = np.asarray(x)
        assert x.dtype == y.dtype and x.shape == y.shape, (x.dtype, y.dtype)
        np.testing.assert_allclose(x, y, rtol=1e-6)
