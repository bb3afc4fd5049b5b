"""Error parity with NumPy, as a property test: every implemented function is called with
wrong shapes, wrong dtypes, a bad ``axis``, a bad ``out=`` and out-of-range arguments, on
NumPy and on gpuarr.  Both must raise an exception of the same public type
(``conftest.public_exception_type``: NumPy's private subclasses count as their public base),
or both must return equal results; NumPy raising where gpuarr returns a value is the bug
this file exists to find.  Valid calls are mixed in, so a generator that only produced
calls both libraries reject would not pass unnoticed.

The functions are data.  ``SPECS`` maps each public name to its signature written as
slots (``"arr axis?=axes out?=out"``: a positional array, an optional ``axis=`` keyword of
kind ``axes``, an optional ``out=``); every slot kind (``KINDS``) knows how to draw a valid
value for the array drawn first and its bad variants.  A drawn call is valid, or has
exactly one slot replaced by a bad variant, or has every array's dtype drawn at random
(``dtype``), or carries an unknown keyword (``kw``), or lacks its last positional
argument (``drop``).  The ufuncs come from gpuarr's ufunc objects (``nin``) and their
loops from NumPy's (``types``), so a new ufunc is covered without an edit here; any other
new public function fails ``test_every_function_is_covered`` until it has a row in a table
or a reason in ``NOT_COVERED``.

The calls are drawn by Hypothesis, a few per way of being bad and a few valid ones, with a
fixed seed per function and variant and no example database, so every run (host or GPU,
any worker) checks the same calls, and all of a function's mismatches are reported at
once, one line each (the call, its variant, both outcomes).  Without a GPU,
``test_numpy_side_of_the_draws`` checks on a sample of functions that the draws test
something (NumPy rejects some calls and accepts the valid ones) and
``test_the_harness_compared_with_itself`` that with NumPy in gpuarr's place no call
differs; ``python tests/test_error_parity.py [names]`` does both for every function and
prints what NumPy does with the draws.
"""

import functools
import re
import sys
import zlib
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings, strategies as st

import gpuarr
import gpuarr.fft
import gpuarr.linalg
from conftest import gpu_test, outcome, public_exception_type

# Calls per function: VALID_EXAMPLES valid ones and VARIANT_EXAMPLES per way of being bad
# (5 to 20 ways): about 490 functions and 13,000 calls in all; drawing them takes about a
# minute of CPU, spread over the xdist workers.
VALID_EXAMPLES = 6
VARIANT_EXAMPLES = 2

ALL = "?bBhHiIlLefdFD"  # the dtypes gpuarr implements (conftest.ALL_DTYPES), by char
NOBOOL = ALL[1:]
REAL = "?bBhHiIlLefd"
REAL_NOBOOL = REAL[1:]
INTEGER = "bBhHiIlL"
INTEGER_BOOL = "?" + INTEGER
LINALG = "lfdFD"  # NumPy's linalg computes integers in float64; float16 is refused
TOLERANCE = {"e": 1e-2, "f": 1e-4, "d": 1e-9, "F": 1e-4, "D": 1e-9}


# --- the drawn call ---------------------------------------------------------------------


class Strided(NamedTuple):
    """An array argument that is a non-contiguous view: ``base[key]``, taken on each side
    (a copy of ``base`` for NumPy, a device copy for gpuarr), so that in-place writes
    through it reach the base as they would in the caller's code."""
    base: np.ndarray
    key: Any


class SameAsMain:
    """``out=`` that is the call's main array itself (NumPy buffers overlapping operands;
    gpuarr must give the same values)."""

    def __repr__(self):
        return "<the main array>"


SAME_AS_MAIN = SameAsMain()


class Parts(NamedTuple):
    """What a ``*`` slot draws: positional arguments and keyword arguments together."""
    args: tuple = ()
    kwargs: dict = {}


class Case(NamedTuple):
    fn: str  # the dotted name in gpuarr's namespace ("linalg.solve", "add.reduce")
    np_fn: str  # the same in NumPy's
    args: tuple
    kwargs: dict
    main: int | None  # position of the main array in args (what SAME_AS_MAIN stands for)
    label: str  # "valid", "dtype", "kw", "drop", or "<slot>:<variant>"
    check: str  # "close": equal values; "meta": equal structure, dtypes and shapes; "set":
    # equal values in any order


# --- the slot kinds ---------------------------------------------------------------------


class Kind(NamedTuple):
    draw: Any  # (draw, ctx, param, bad) -> value
    order: int  # 0: arrays drawn first (the first is the main array); 1: axes; 2: values
    # that depend on the main array and the axis; 9: out= (needs NumPy's result)
    bad: Any  # param -> tuple of bad variant names


KINDS: dict = {}


def kind(name, order=2, bad=()):
    def register(fn):
        KINDS[name] = Kind(fn, order, bad if callable(bad) else (lambda p, b=tuple(bad): b))
        return fn
    return register


class Param:
    """A slot's parameter: ``lo-hi`` ndim range, ``lo:hi`` value range, ``key=value`` and
    bare flags, separated by commas."""

    def __init__(self, text):
        self.text = text or ""
        self.flags, self.values = set(), {}
        self.ndim = self.range = None
        for part in filter(None, self.text.split(",")):
            if re.fullmatch(r"\d-\d", part):
                self.ndim = tuple(int(x) for x in part.split("-"))
            elif re.fullmatch(r"-?\d+:-?\d+", part):
                self.range = tuple(int(x) for x in part.split(":"))
            elif "=" in part:
                key, value = part.split("=", 1)
                self.values[key] = value
            else:
                self.flags.add(part)

    def __contains__(self, flag):
        return flag in self.flags


class Ctx:
    """What the slots drawn so far decided (the main array ``a``, the ``axis``, NumPy's
    ``result`` for out=), the spec, the dtype rule of the call, a generator for array
    data; None for anything not set."""

    def __init__(self, **values):
        self.__dict__.update(values)

    def __getattr__(self, key):
        return None


def _norm_char(c):
    return {"q": "l", "Q": "L"}.get(c, c)


def _dtype(draw, ctx, position=0, *, dependent=False):
    """The dtype of an array slot: the drawn ufunc loop's type at this position, any dtype
    when the call's variant is ``dtype``, the main array's for a dependent array, else one
    the function takes."""
    if ctx.any_dtype:
        return np.dtype(draw(st.sampled_from(ALL)))
    if ctx.loop is not None:
        return np.dtype(ctx.loop[min(position, len(ctx.loop) - 1)])
    if dependent and ctx.a is not None:
        return ctx.a.dtype
    return np.dtype(draw(st.sampled_from(ctx.spec.dt)))


def _values(rng, shape, dtype, *, positive=False):
    """Small integers (exact in every dtype, so sums and products are exact too):
    [-3, 3], [0, 3] for unsigned or ``positive``, 0/1 for bool."""
    dtype = np.dtype(dtype)
    lo = 0 if positive or dtype.kind in "bu" else -3
    hi = 2 if dtype.kind == "b" else 4
    v = rng.integers(lo, hi, size=shape)
    if dtype.kind == "c":
        v = v + 1j * rng.integers(lo, hi, size=shape)
    return np.asarray(v).astype(dtype)


def _shape(draw, ndim, lo=1, hi=4):
    return tuple(draw(st.integers(lo, hi)) for _ in range(ndim))


def _set_main(ctx, a):
    if ctx.a is None:
        ctx.a = a
    return a


def _ndim_bad(p, default=(0, 3)):
    lo, hi = p.ndim or default
    return ("ndim",) if (lo, hi) != (0, 3) else ()


@kind("arr", order=0, bad=lambda p: _ndim_bad(p) + (() if "noempty" in p else ("empty",)) + (
    ("nan",) if "nan" in p else ()))
def _arr(draw, ctx, p, bad):
    """An array: ndim in the slot's range (0-3), dims 1-4 (at least ``dmin``); ``empty``
    gives one dimension 0 (unless ``noempty``); ``nan`` is all NaN (for the
    nan-functions)."""
    lo, hi = p.ndim or (0, 3)
    if bad == "ndim":
        ndim = draw(st.sampled_from([n for n in range(5) if not lo <= n <= hi]))
    else:
        ndim = draw(st.integers(max(lo, 1) if ctx.nontrivial and hi else lo, hi))
    shape = list(_shape(draw, ndim, int(p.values.get("dmin", 1))))
    if ctx.nontrivial and shape:
        shape[0] = max(shape[0], 2)
    if bad == "empty":
        if not shape:
            shape = [0]
        shape[draw(st.integers(0, len(shape) - 1))] = 0
    dtype = _dtype(draw, ctx, ctx.position)
    if bad == "nan":
        dtype = np.dtype(draw(st.sampled_from("fdD")))
        return _set_main(ctx, np.full(shape, np.nan, dtype))
    return _set_main(ctx, _values(ctx.rng, tuple(shape), dtype, positive="pos" in p))


@kind("sq", order=0, bad=("nonsquare", "ndim", "singular", "empty"))
def _sq(draw, ctx, p, bad):
    """A (stack of) square matrices: ``gen`` nonsingular (diagonally dominant), ``spd``
    Hermitian positive definite, ``sym`` Hermitian; ``singular`` is zeros (``spd``: -I, not
    positive definite)."""
    n = draw(st.integers(1, 4))
    batch = () if "2d" in p else _shape(draw, draw(st.integers(0, 1)), 1, 3)
    dtype = _dtype(draw, ctx)
    rng = ctx.rng
    if bad == "nonsquare":
        return _set_main(ctx, _values(rng, batch + (n, n + 1), dtype))
    if bad == "ndim":
        return _set_main(ctx, _values(rng, (n,), dtype))
    if bad == "empty":
        return _set_main(ctx, np.zeros(batch + (0, 0), dtype))
    b = _values(rng, batch + (n, n), "D" if dtype.kind == "c" else "d")
    bh = np.conj(np.swapaxes(b, -1, -2))
    eye = np.eye(n)
    if bad == "singular":
        m = -eye if "spd" in p else np.zeros((n, n))
        m = np.broadcast_to(m, batch + (n, n))
    elif "spd" in p:
        m = b @ bh + n * eye
    elif "sym" in p:
        m = b + bh
    else:
        m = b + 4 * n * eye
    if dtype.kind != "c":
        m = m.real
    return _set_main(ctx, np.ascontiguousarray(m).astype(dtype))


@kind("sortedvec", order=0, bad=lambda p: ("ndim",) + (("unsorted",) if "mono" in p else ()))
def _sortedvec(draw, ctx, p, bad):
    """A sorted 1-d array (``strict``: increasing); ``unsorted`` goes down then up."""
    n = draw(st.integers(3 if bad == "unsorted" else 1, 5))
    dtype = _dtype(draw, ctx, ctx.position, dependent=True)
    if bad == "ndim":
        return _set_main(ctx, np.sort(_values(ctx.rng, (2, n), dtype), axis=-1))
    if "strict" in p or bad == "unsorted":
        v = np.arange(n) * 2 - 3
    else:
        v = np.sort(ctx.rng.integers(-3, 4, n))
    if bad == "unsorted":
        v[[0, 1]] = v[[1, 0]]
    if dtype.kind in "bu":
        v = v - v.min()
    return _set_main(ctx, v.astype(dtype))


@kind("arr2", bad=("shape", "pyint"))
def _arr2(draw, ctx, p, bad):
    """An array that broadcasts with the main array (a suffix of its shape, some dims 1),
    or a Python scalar of its kind; ``shape`` does not broadcast; ``pyint`` is a Python int
    out of range for most integer dtypes."""
    if bad == "pyint":
        return draw(st.sampled_from([300, -1, 2**70]))
    shape = ctx.a.shape
    dtype = _dtype(draw, ctx, ctx.position, dependent=True)
    if bad == "shape":
        shape = _incompatible(draw, shape)
    else:
        if "scalar" in p and draw(st.integers(0, 3)) == 0:
            return {"b": True, "u": 2, "i": 2, "f": 2.0, "c": 2 + 1j}[dtype.kind]
        shape = shape[draw(st.integers(0, len(shape))):]
        shape = tuple(1 if d and draw(st.booleans()) else d for d in shape)
    return _values(ctx.rng, shape, dtype)


def _incompatible(draw, shape):
    """A shape that does not broadcast with ``shape`` (where one exists)."""
    axes = [i for i, d in enumerate(shape) if d != 1]
    if not axes:
        return (2,) + tuple(shape) if shape else (2,)  # broadcasts; NumPy says what follows
    i = draw(st.sampled_from(axes))
    return tuple(d + 1 if j == i else d for j, d in enumerate(shape))


@kind("same", bad=lambda p: ("shape",) + (("zero",) if "pos" in p else ()))
def _same(draw, ctx, p, bad):
    """An array of the main array's shape (and dtype; ``pos``: positive values, for
    weights); ``shape`` has another shape, ``zero`` is all zeros."""
    shape = ctx.a.shape
    if bad == "shape":
        shape = shape + (2,) if draw(st.booleans()) or not shape else shape[:-1] + (shape[-1] + 1,)
    dtype = _dtype(draw, ctx, ctx.position, dependent=True)
    if "pos" in p:
        if bad == "zero":
            return np.zeros(shape, dtype)
        return (_values(ctx.rng, shape, dtype, positive=True) + 1).astype(dtype)
    return _values(ctx.rng, shape, dtype)


@kind("mask", bad=("shape",))
def _mask(draw, ctx, p, bad):
    """A boolean array of the main array's shape; ``shape`` has another shape."""
    shape = ctx.a.shape
    if bad == "shape":
        shape = _incompatible(draw, shape) if shape else (3,)
    dtype = np.dtype(draw(st.sampled_from(ALL))) if ctx.any_dtype else np.dtype(bool)
    return _values(ctx.rng, shape, dtype)


@kind("cond", bad=("long", "ndim"))
def _cond(draw, ctx, p, bad):
    """compress's condition: 1-d boolean, at most as long as the main array along the
    drawn axis (flattened for None); ``long`` is longer, with True past the end."""
    n = _axis_length(ctx)
    if bad == "long":
        return np.ones(n + 2, bool)
    if bad == "ndim":
        return np.ones((1, n), bool)
    return _values(ctx.rng, (draw(st.integers(0, n)),), bool)


@kind("other", bad=lambda p: _ndim_bad(p, (0, 2)))
def _other(draw, ctx, p, bad):
    """An array of its own shape (ndim 0-2 or the slot's range), the main array's dtype."""
    lo, hi = p.ndim or (0, 2)
    if bad == "ndim":
        ndim = draw(st.sampled_from([n for n in range(4) if not lo <= n <= hi]))
    else:
        ndim = draw(st.integers(lo, hi))
    dtype = _dtype(draw, ctx, ctx.position, dependent=True)
    return _values(ctx.rng, _shape(draw, ndim), dtype)


def _axis_length(ctx, axis=None):
    """The length of the main array along ``axis`` (the drawn axis by default; flattened
    for None or an axis out of range)."""
    a = ctx.a
    axis = ctx.axis if axis is None else axis
    if not isinstance(axis, int) or not -a.ndim <= axis < a.ndim:
        return a.size
    return a.shape[axis]


@kind("idx", bad=("oob", "float"))
def _idx(draw, ctx, p, bad):
    """Integer indices in range for the flattened main array (``flat``) or along the
    drawn axis; ``oob`` has one out of range, ``float`` is a float array."""
    n = ctx.a.size if "flat" in p else _axis_length(ctx)
    shape = _shape(draw, draw(st.integers(0, 2)), 1, 3) if n else (0,)
    values = ctx.rng.integers(-n, n, size=shape) if n else np.zeros(shape, np.intp)
    values = np.asarray(values, np.intp)
    if bad == "oob":
        values = values.reshape(-1)[:1] if values.size else np.zeros(1, np.intp)
        values[0] = draw(st.sampled_from([n, n + 2, -n - 1]))
    if bad == "float":
        return values.astype(np.float64)
    if ctx.any_dtype:
        return values.astype(draw(st.sampled_from(ALL)))
    return values


@kind("idxalong", bad=("ndim", "oob", "float"))
def _idxalong(draw, ctx, p, bad):
    """Indices for take_along_axis/put_along_axis: the main array's shape with 1-3 along
    the axis (1-d for axis=None), values in range; ``ndim`` has one dimension fewer."""
    a, axis = ctx.a, ctx.axis
    k = draw(st.integers(1, 3))
    if not isinstance(axis, int) or not -a.ndim <= axis < a.ndim:
        shape, n = (k,), a.size
    else:
        shape, n = a.shape[:axis % a.ndim] + (k,) + a.shape[axis % a.ndim + 1:], a.shape[axis]
    values = ctx.rng.integers(-n, n, size=shape) if n else np.zeros(shape, np.intp)
    values = np.asarray(values, np.intp)
    if bad == "ndim":
        values = values[..., 0] if values.ndim > 1 else values.reshape(values.shape + (1,))
    if bad == "oob":
        values.reshape(-1)[0] = n + 1
    if bad == "float":
        values = values.astype(np.float64)
    return values


@kind("vals", bad=("empty",))
def _vals(draw, ctx, p, bad):
    """Values to put: a 1-d array of 1-3 values of the main array's dtype; ``empty`` has
    none."""
    n = 0 if bad == "empty" else draw(st.integers(1, 3))
    return _values(ctx.rng, (n,), _dtype(draw, ctx, ctx.position, dependent=True))


@kind("num", bad=lambda p: ("big",) + (("zero",) if "nonzero" in p else ()))
def _num(draw, ctx, p, bad):
    """A Python scalar that fits every dtype (``nonzero``: never 0); ``big`` does not fit
    the integer dtypes, ``zero`` is 0."""
    if bad == "big":
        return draw(st.sampled_from([300, -1, 2**70]))
    if bad == "zero":
        return 0
    if "int" in p:
        return draw(st.sampled_from([1, 2, 3]))
    return draw(st.sampled_from([1, 2, 1.5, 0.5]))


@kind("int", bad=lambda p: ("float",) + (("neg",) if (p.range or (0, 0))[0] >= 0 else ()))
def _int(draw, ctx, p, bad):
    """An int in the slot's range; ``float`` is 1.5, ``neg`` is negative (for ranges of
    non-negative ints)."""
    lo, hi = p.range or (0, 3)
    if bad == "float":
        return 1.5
    if bad == "neg":
        return draw(st.sampled_from([-1, -3]))
    return draw(st.integers(lo, hi))


@kind("q", bad=("oob", "nan"))
def _q(draw, ctx, p, bad):
    """percentile's q in [0, 100] (``1``: quantile's, in [0, 1]): a number or a list;
    ``oob`` is outside the range."""
    top = float(p.text or 100)
    if bad == "oob":
        return draw(st.sampled_from([-1.0, top * 1.5, [0.0, top + 1]]))
    if bad == "nan":
        return float("nan")
    q = [top * draw(st.sampled_from([0, 0.25, 0.5, 0.9, 1]))
         for _ in range(draw(st.integers(1, 3)))]
    return q[0] if len(q) == 1 and draw(st.booleans()) else q


def _choice_value(text):
    if text == "None":
        return None
    if text in ("inf", "-inf"):
        return float(text)
    try:
        return int(text)
    except ValueError:
        return text


CHOICES = {
    # (valid, accepted by some calls only): the ord= of the norms
    "vnorm": ([None, 1, 2, np.inf, -np.inf, 0, 3], ["fro", "nuc"]),
    "mnorm": (["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf], [3, 0]),
    "cnorm": ([None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf], [3]),
}


def _enum_values(p):
    if p.text.startswith("@"):
        return CHOICES[p.text[1:]]
    valid, _, alt = p.text.partition(";")
    return ([_choice_value(v) for v in valid.split("|")],
            [_choice_value(v) for v in alt.split("|")] if alt else [])


@kind("enum", bad=lambda p: ("bogus",) + (("alt",) if _enum_values(p)[1] else ()))
def _enum(draw, ctx, p, bad):
    """One of the listed values (``a|b;c``: ``c`` is the ``alt`` variant, a value NumPy
    takes only in some calls); ``bogus`` is a string none of them."""
    valid, alt = _enum_values(p)
    if bad == "bogus":
        return "bogus"
    return draw(st.sampled_from(alt if bad == "alt" else valid))


@kind("bool")
def _bool(draw, ctx, p, bad):
    return draw(st.booleans())


@kind("dtype", bad=lambda p: ("bogus",) + (() if "create" in p else ("narrow",)))
def _dtype_kw(draw, ctx, p, bad):
    """``dtype=``: one the main array casts to (``same_kind``; ``safe`` for einsum; the
    drawn loop's output for a ufunc; any for creation); ``bogus`` is no dtype name,
    ``narrow`` one it does not cast to."""
    if bad == "bogus":
        return "bogus"
    if "create" in p:
        return draw(st.sampled_from([None] + list(ALL)))
    if "ufunc" in p:
        if bad == "narrow":
            return np.dtype(draw(st.sampled_from("?b")))
        return draw(st.sampled_from([None, np.dtype(ctx.loop_out)])) if ctx.loop_out else None
    rule = "safe" if "safe" in p else "same_kind"
    src = ctx.a.dtype if ctx.a is not None else np.dtype("d")
    cands = [np.dtype(c) for c in ("d", "D", "l", "f")]
    ok = [c for c in cands if np.can_cast(src, c, rule)]
    if bad == "narrow":
        no = [c for c in [np.dtype(c) for c in "?bBf"] if not np.can_cast(src, c, rule)]
        return draw(st.sampled_from(no or [np.dtype("?")]))
    return draw(st.sampled_from([None] + ok))


@kind("axis", order=1, bad=("oob", "float"))
def _axis(draw, ctx, p, bad):
    """An axis of the main array (``none``: None too; ``+1``: the range of ndim + 1, for
    expand_dims/stack); ``d=`` the function's default, for the slots that depend on it
    when this one is left out; ``oob`` is out of range, ``float`` is 1.0."""
    n = ctx.a.ndim + (1 if "+1" in p or "start" in p else 0) if ctx.a is not None else 1
    lo = -(n - 1) if "start" in p else -n  # rollaxis's start: -ndim <= start <= ndim
    if bad == "oob":
        value = draw(st.sampled_from([n, n + 1, lo - 1]))
    elif bad == "float":
        value = 1.0
    elif "none" in p and (n == 0 or draw(st.integers(0, 3)) == 0):
        value = None
    else:
        value = draw(st.integers(lo, n - 1)) if n else 0
    ctx.axis = value
    return value


def _axis_default(p):
    text = p.values.get("d", "None")
    return None if text == "None" else int(text)


@kind("axes", order=1, bad=lambda p: ("oob", "dup", "float") + (("notone",) if "ones" in p else ()))
def _axes(draw, ctx, p, bad):
    """None, an axis or a tuple of distinct axes (``+1``: axes of the result, ndim +
    len(axes), for expand_dims; ``req``: never None; ``ones``: only axes of length 1, for
    squeeze); ``dup`` repeats an axis, ``notone`` names an axis longer than 1."""
    ndim = ctx.a.ndim
    plus = "+1" in p
    if bad == "float":
        value = draw(st.sampled_from([1.0, (0, 1.0)]))
    elif bad == "oob":
        n = ndim + (1 if plus else 0)
        value = draw(st.sampled_from([n, -n - 1, (0, n + 1)]))
    elif bad == "dup":
        value = (0, 0) if draw(st.booleans()) or ndim < 2 else (ndim - 1, -1)
    elif bad == "notone":
        longer = [i for i, d in enumerate(ctx.a.shape) if d != 1]
        value = draw(st.sampled_from(longer)) if longer else 0
    elif "req" not in p and draw(st.integers(0, 3)) == 0:
        value = None
    else:
        if plus:
            k = draw(st.integers(1, 2))
            pool = list(range(ndim + k))
        elif "ones" in p:
            pool = [i for i, d in enumerate(ctx.a.shape) if d == 1]
            k = draw(st.integers(0, len(pool)))
        else:
            pool = list(range(ndim))
            k = draw(st.integers(0, ndim))
        n = len(range(ndim + k)) if plus else ndim
        chosen = tuple(c - n if draw(st.booleans()) else c
                       for c in draw(st.permutations(pool))[:k])
        value = chosen[0] if len(chosen) == 1 and draw(st.booleans()) else chosen
    ctx.axis = value
    return value


@kind("perm", order=1, bad=("len", "dup", "oob"))
def _perm(draw, ctx, p, bad):
    """A permutation of the axes; ``len`` has one too many, ``dup`` repeats one."""
    n = ctx.a.ndim
    perm = list(draw(st.permutations(range(n))))
    if bad == "len":
        perm = perm + [n] if draw(st.booleans()) or not perm else perm[:-1]
    elif bad == "dup":
        perm = perm[:-1] + [perm[0]] if n >= 2 else [0, 0]
    elif bad == "oob":
        perm = perm[:-1] + [n] if perm else [1]
    return tuple(perm)


@kind("axpair", order=1, bad=lambda p: ("same", "oob") + (("len",) if p.text == "axes" else ()))
def _axpair(draw, ctx, p, bad):
    """Two distinct axes, as ``axis1=``/``axis2=`` (or the one keyword named): ``same``
    names one axis twice."""
    n = max(ctx.a.ndim, 2)
    i, j = draw(st.permutations(range(n)))[:2]
    if draw(st.booleans()):
        i -= n
    if bad == "same":
        j = i
    elif bad == "oob":
        j = n
    names = p.text.split("|")
    if len(names) == 1:
        value = (i, j, 1 - n) if bad == "len" else (i, j)
        return Parts(kwargs={names[0]: value})
    return Parts(kwargs=dict(zip(names, (i, j))))


@kind("kth", bad=("oob", "float"))
def _kth(draw, ctx, p, bad):
    """partition's kth: in range along the drawn axis (or a list of such)."""
    n = _axis_length(ctx)
    if bad == "oob":
        return draw(st.sampled_from([n, -n - 1]))
    if bad == "float":
        return 1.5
    if n == 0:
        return 0
    if draw(st.booleans()):
        return draw(st.integers(-n, n - 1))
    return sorted(set(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))))


@kind("shape", order=1, bad=("neg", "float", "nested"))
def _shape_kind(draw, ctx, p, bad):
    """A shape for creation functions (a tuple of dims 0-3, or an int unless ``tuple``)."""
    dims = [draw(st.integers(0, 3)) for _ in range(draw(st.integers(0, 3)))]
    if bad == "neg":
        dims = (dims or [2]) and dims[:-1] + [draw(st.sampled_from([-1, -3]))]
    elif bad == "float":
        dims = dims[:-1] + [2.0]
    elif bad == "nested":
        return (2, (3,))
    if len(dims) == 1 and "tuple" not in p and draw(st.booleans()):
        return dims[0]
    return tuple(dims)


@kind("newshape", bad=("size", "two-1", "neg", "float"))
def _newshape(draw, ctx, p, bad):
    """A shape with the main array's size (maybe with one -1); ``size`` has another size,
    ``two-1`` two -1s, ``neg`` a dim below -1."""
    size = ctx.a.size
    divisors = [d for d in range(1, size + 1) if size % d == 0] or [1]
    d = draw(st.sampled_from(divisors))
    shape = [d, size // d] if draw(st.booleans()) else [size]
    if draw(st.booleans()) and size:
        shape[draw(st.integers(0, len(shape) - 1))] = -1
    if bad == "size":
        shape = [size + 1]
    elif bad == "two-1":
        shape = [-1, -1]
    elif bad == "neg":
        shape = [-2, -(size // 2) or 1]
    elif bad == "float":
        shape = [float(size)]
    return tuple(shape) if len(shape) > 1 or draw(st.booleans()) else shape[0]


@kind("bshape", bad=("incompat", "neg", "fewer"))
def _bshape(draw, ctx, p, bad):
    """A shape the main array broadcasts to; ``fewer`` has fewer dimensions."""
    shape = ctx.a.shape
    if bad == "incompat":
        return _incompatible(draw, shape)
    if bad == "fewer":
        return shape[1:] if shape else (-1,)
    out = _shape(draw, draw(st.integers(0, 1)), 1, 3) + tuple(
        draw(st.integers(1, 3)) if d == 1 else d for d in shape)
    if bad == "neg":
        out = out[:-1] + (-2,) if out else (-2,)
    return out


@kind("sections", bad=("nondiv", "zero", "neg"))
def _sections(draw, ctx, p, bad):
    """split's indices_or_sections: a divisor of the length along the split axis (the
    drawn axis, or hsplit's/vsplit's/dsplit's), or sorted split points."""
    a = ctx.a
    axis = {"h": 1 if a.ndim > 1 else 0, "v": 0, "d": 2}.get(
        p.text, 0 if ctx.axis is None else ctx.axis)
    n = _axis_length(ctx, axis)
    if bad == "nondiv":
        return n + 1 if n > 0 else 3
    if bad == "zero":
        return 0
    if bad == "neg":
        return -1
    if draw(st.booleans()):
        return draw(st.sampled_from([d for d in range(1, n + 1) if n % d == 0] or [1]))
    return sorted(draw(st.lists(st.integers(0, n + 1), max_size=3)))


@kind("reps", bad=("neg",))
def _reps(draw, ctx, p, bad):
    reps = [draw(st.integers(0, 2)) for _ in range(draw(st.integers(1, 3)))]
    if bad == "neg":
        reps[-1] = -1
    return reps[0] if len(reps) == 1 and draw(st.booleans()) else tuple(reps)


@kind("repeats", bad=("neg", "len", "float"))
def _repeats(draw, ctx, p, bad):
    """repeat's repeats: an int or one int per element along the axis."""
    n = _axis_length(ctx)
    if bad == "float":
        return 1.5
    if draw(st.booleans()) and bad != "len":
        return -1 if bad == "neg" else draw(st.integers(0, 2))
    reps = [draw(st.integers(0, 2)) for _ in range(n + (1 if bad == "len" else 0))]
    if bad == "neg" and reps:
        reps[0] = -1
    return reps if reps or bad != "neg" else -1


@kind("roll", order=1, bad=("len", "oob"))
def _roll(draw, ctx, p, bad):
    """roll's shift and axis: an int shift with axis None or an axis, or equal-length
    tuples of shifts and distinct axes."""
    ndim = ctx.a.ndim
    if bad == "len":
        return Parts((1, 2), {"axis": (0, 0, 0)[: 3]})
    if bad == "oob":
        return Parts((1,), {"axis": ndim})
    if ndim == 0 or draw(st.booleans()):
        return Parts((draw(st.integers(-5, 5)),))
    k = draw(st.integers(1, ndim))
    axes = tuple(draw(st.permutations(range(ndim)))[:k])
    shifts = tuple(draw(st.integers(-5, 5)) for _ in axes)
    return Parts((shifts,), {"axis": axes})


@kind("moveaxis", order=1, bad=("len", "dup", "oob"))
def _moveaxis(draw, ctx, p, bad):
    ndim = ctx.a.ndim
    if bad == "len":
        return Parts(((0,), (0, 1)))
    if bad == "dup":
        return Parts(((0, 0), (0, 1)))
    if bad == "oob":
        return Parts((0, ndim))
    if ndim == 0:
        return Parts(((), ()))
    k = draw(st.integers(1, ndim))
    src = tuple(draw(st.permutations(range(ndim)))[:k])
    dst = tuple(draw(st.permutations(range(ndim)))[:k])
    return Parts((src, dst) if k > 1 or draw(st.booleans()) else (src[0], dst[0]))


@kind("pad", order=1, bad=("neg", "shape", "mode", "kw"))
def _pad(draw, ctx, p, bad):
    """pad's pad_width, mode and that mode's keywords; ``kw`` gives a keyword of another
    mode."""
    ndim = ctx.a.ndim
    mode = draw(st.sampled_from(["constant", "edge", "reflect", "symmetric", "wrap",
                                 "linear_ramp", "maximum", "minimum", "mean", "median"]))
    form = draw(st.integers(0, 2 if ndim else 1))
    if form == 0:
        width = draw(st.integers(0, 2))
    elif form == 1:
        width = (draw(st.integers(0, 2)), draw(st.integers(0, 2)))
    else:
        width = tuple((draw(st.integers(0, 2)), draw(st.integers(0, 2))) for _ in range(ndim))
    kwargs = {"mode": mode}
    if mode == "constant" and draw(st.booleans()):
        kwargs["constant_values"] = draw(st.sampled_from([1, 2]))
    if mode in ("reflect", "symmetric") and draw(st.booleans()):
        kwargs["reflect_type"] = draw(st.sampled_from(["even", "odd"]))
    if mode in ("maximum", "minimum", "mean", "median") and draw(st.booleans()):
        kwargs["stat_length"] = 1
    if mode == "linear_ramp" and draw(st.booleans()):
        kwargs["end_values"] = 1
    if bad == "neg":
        width = -1
    elif bad == "shape":
        width = ((1, 2, 3),)
    elif bad == "mode":
        kwargs = {"mode": "bogus"}
    elif bad == "kw":
        kwargs = {"mode": "edge", "constant_values": 1}
    return Parts((width,), kwargs)


@kind("fftn", bad=("zero", "neg", "float"))
def _fftn(draw, ctx, p, bad):
    """fft's n: None or 1-6."""
    if bad:
        return {"zero": 0, "neg": -1, "float": 2.5}[bad]
    return draw(st.sampled_from([None, 1, 2, 3, 4, 6]))


@kind("fftsa", order=1, bad=("len", "zero", "oob", "dup"))
def _fftsa(draw, ctx, p, bad):
    """The s= and axes= of the n-d transforms (``2``: fft2's, two axes): none, one or
    both, of equal length."""
    ndim = ctx.a.ndim
    k = 2 if p.text == "2" else draw(st.integers(1, max(ndim, 1)))
    axes = tuple(a - ndim if draw(st.booleans()) else a
                 for a in draw(st.permutations(range(max(ndim, 1))))[:k])
    s = tuple(draw(st.integers(1, 5)) for _ in axes)
    kwargs = {}
    form = draw(st.integers(0, 1 if ctx.target == "out" else 3))
    if form & 1 or bad in ("len", "zero"):
        kwargs["s"] = s
    if form & 2 or bad in ("len", "oob", "dup") or (p.text != "2" and "s" in kwargs):
        kwargs["axes"] = axes
    if bad == "len":
        kwargs["s"] = s + (2,)
    elif bad == "zero":
        kwargs["s"] = s[:-1] + (0,)
    elif bad == "oob":
        kwargs["axes"] = axes[:-1] + (ndim,)
    elif bad == "dup":
        kwargs["axes"] = (axes[0],) * len(axes) if len(axes) > 1 else (axes[0], axes[0])
        if "s" in kwargs:
            kwargs["s"] = kwargs["s"][:1] * len(kwargs["axes"])
    # NumPy 2.4 writes out= axis by axis and refuses it when s resizes an axis before the
    # last (a NumPy defect, not a rule gpuarr should copy): no out= with s=.
    ctx.no_out = "s" in kwargs
    return Parts(kwargs=kwargs)


@kind("prod", bad=lambda p: ("core",) + (("batch",) if p.text == "matmul" else ()))
def _prod(draw, ctx, p, bad):
    """The second operand of a product whose contracted dimension matches the main
    array's (``matmul``, ``dot``, ``vdot``, ``inner``, ``matvec``, ``vecmat``); ``core``
    does not match, ``batch`` has a stack dimension that does not broadcast."""
    a, mode = ctx.a, p.text
    dtype = _dtype(draw, ctx, ctx.position, dependent=True)
    k = a.shape[-1] if a.ndim else 1
    kc = k + 1 if bad == "core" else k
    m = draw(st.integers(1, 3))
    if mode == "vdot":
        shape = (a.size + (1 if bad == "core" else 0),)
    elif mode == "inner":
        lead = _shape(draw, draw(st.integers(0, 1)), 1, 3)
        shape = lead + (kc,) if a.ndim else lead
    elif mode == "dot":
        ndim = draw(st.integers(1 if bad == "core" else 0, 3))
        if a.ndim == 0 or ndim == 0:
            shape = _shape(draw, ndim, 1, 3)
        elif ndim == 1:
            shape = (kc,)
        else:
            shape = _shape(draw, ndim - 2, 1, 3) + (kc, m)
    elif mode == "matvec":
        shape = a.shape[:-2][draw(st.integers(0, max(a.ndim - 2, 0))):] + (kc,)
    elif mode == "vecmat":
        shape = a.shape[:-1][draw(st.integers(0, max(a.ndim - 1, 0))):] + (kc, m)
    else:  # matmul
        ndim = draw(st.integers(1, 3))
        if bad == "batch":
            ndim = 3
        if ndim == 1:
            shape = (kc,)
        elif ndim == 2:
            shape = (kc, m)
        else:
            batch = a.shape[0] if a.ndim == 3 and draw(st.booleans()) else 1
            if bad == "batch":
                batch = a.shape[0] + 1 if a.ndim == 3 else 2
            shape = (batch, kc, m)
    return Parts((_values(ctx.rng, shape, dtype),))


@kind("rhs", bad=("shape",))
def _rhs(draw, ctx, p, bad):
    """The right-hand side of solve (``(n,)`` or ``(..., n, k)``) or lstsq (``(m,)`` or
    ``(m, k)``); ``shape`` has n + 1 rows."""
    a = ctx.a
    n = a.shape[-2] if a.ndim >= 2 else (a.shape[0] if a.ndim else 1)
    n = n + 1 if bad == "shape" else n
    dtype = _dtype(draw, ctx, ctx.position, dependent=True)
    if draw(st.booleans()):
        shape = (n,)
    else:
        shape = (a.shape[:-2] if p.text == "solve" else ()) + (n, draw(st.integers(1, 3)))
    return _values(ctx.rng, shape, dtype)


@kind("chain", order=0, bad=("len", "core", "ndim"))
def _chain(draw, ctx, p, bad):
    """multi_dot's list: 2-4 arrays with matching dimensions (the first and last may be
    1-d)."""
    count = draw(st.integers(2, 4))
    dims = [draw(st.integers(1, 3)) for _ in range(count + 1)]
    dtype = _dtype(draw, ctx)
    arrays = [_values(ctx.rng, (dims[i], dims[i + 1]), dtype) for i in range(count)]
    if draw(st.booleans()):
        arrays[0] = arrays[0][0]
    if draw(st.booleans()):
        arrays[-1] = arrays[-1][:, 0]
    if bad == "len":
        arrays = arrays[:1]
    elif bad == "core":
        arrays[1] = _values(ctx.rng, (dims[1] + 1, dims[2]), dtype)
    elif bad == "ndim":
        arrays[1] = _values(ctx.rng, (1, dims[1], dims[2]), dtype)
    _set_main(ctx, arrays[0])
    return Parts((arrays,))


@kind("tdot", bad=("core", "oob"))
def _tdot(draw, ctx, p, bad):
    """tensordot's second operand and axes (an int or two lists of axes)."""
    a = ctx.a
    dtype = _dtype(draw, ctx, ctx.position, dependent=True)
    extra = _shape(draw, draw(st.integers(0, 1)), 1, 3)
    if draw(st.booleans()):
        k = draw(st.integers(0, a.ndim))
        core = a.shape[a.ndim - k:]
        if bad == "core" and core:
            core = (core[0] + 1,) + core[1:]
        b = _values(ctx.rng, core + extra, dtype)
        axes = a.ndim + 1 if bad == "oob" else k
    else:
        k = draw(st.integers(0, a.ndim))
        ax = list(draw(st.permutations(range(a.ndim)))[:k])
        core = tuple(a.shape[i] for i in ax)
        if bad == "core" and core:
            core = (core[0] + 1,) + core[1:]
        b = _values(ctx.rng, core + extra, dtype)
        bx = list(range(len(core)))
        if bad == "oob":
            ax = ax + [a.ndim]
            bx = bx + [len(core) + len(extra)]
        axes = (ax, bx)
    if "kw" in p:
        return Parts((b,), {"axes": axes})
    return Parts((b, axes))


@kind("cross", order=0, bad=("dim", "axis"))
def _cross(draw, ctx, p, bad):
    """cross's operands: vectors of 2 or 3 components (3 for linalg.cross) along the last
    axis, broadcasting; ``dim`` has 4 components, ``axis`` an axis out of range."""
    dtype = _dtype(draw, ctx)
    da = 3 if "linalg" in p else draw(st.sampled_from([2, 3]))
    db = 3 if "linalg" in p else draw(st.sampled_from([2, 3]))
    if bad == "dim":
        db = 4
    lead = _shape(draw, draw(st.integers(0, 2)), 1, 3)
    a = _set_main(ctx, _values(ctx.rng, lead + (da,), dtype))
    b = _values(ctx.rng, lead[draw(st.integers(0, len(lead))):] + (db,), dtype)
    kwargs = {}
    if bad == "axis":
        kwargs["axis" if "linalg" in p else "axisa"] = a.ndim
    return Parts((a, b), kwargs)


EINSUM_TEMPLATES = ["ij,jk->ik", "ii->i", "ij->ji", "i,i->", "ij,j->i", "...ij->...ji",
                    "ii", "ij,ij->ij", "i,j->ij", "ijk,ikl->ijl", "ij->"]


@kind("einsum", order=0, bad=("count", "dims", "subs"))
def _einsum(draw, ctx, p, bad):
    """einsum's subscripts and operands, from templates with letter sizes 1-3 (and 0-2
    broadcast dimensions for ``...``); ``count`` drops an operand, ``dims`` gives one a
    size that conflicts, ``subs`` is malformed."""
    subs = draw(st.sampled_from(EINSUM_TEMPLATES))
    inputs = subs.split("->")[0].split(",")
    sizes = {c: draw(st.integers(1, 3)) for c in "ijkl"}
    ell = _shape(draw, draw(st.integers(0, 2)), 1, 3)
    dtypes = [_dtype(draw, ctx, i) for i in range(len(inputs))]
    ops = [_values(ctx.rng, (ell if "..." in term else ()) + tuple(
        sizes[c] for c in term.replace("...", "")), dt) for term, dt in zip(inputs, dtypes)]
    if bad == "count":
        ops = ops[:-1] if len(ops) > 1 else ops + ops
    elif bad == "dims":
        op = ops[0]
        if op.ndim:
            ops[0] = _values(ctx.rng, op.shape[:-1] + (op.shape[-1] + 1,), op.dtype)
            if len(ops) == 1 and len(set(inputs[0])) == len(inputs[0]):
                subs = inputs[0] + "," + inputs[0] + "->"
                ops = ops + [op]
    elif bad == "subs":
        subs = draw(st.sampled_from([subs.replace("->", "->z") if "->" in subs else subs + "->z",
                                     subs + "->" if "->" not in subs else subs + subs[-1],
                                     "i" + subs, subs.replace("i", "1", 1)]))
    _set_main(ctx, ops[0])
    return Parts((subs,) + tuple(ops))


@kind("keys", order=0, bad=("shape", "empty"))
def _keys(draw, ctx, p, bad):
    """lexsort's keys: a tuple of 1-3 arrays of one shape (ndim 1-2), or a 2-d array."""
    shape = _shape(draw, draw(st.integers(1, 2)), 1, 4)
    dtype = _dtype(draw, ctx)
    keys = [_values(ctx.rng, shape, _dtype(draw, ctx) if ctx.any_dtype else dtype)
            for _ in range(draw(st.integers(1, 3)))]
    _set_main(ctx, keys[0])
    if bad == "empty":
        return ()
    if bad == "shape":
        keys.append(_values(ctx.rng, shape[:-1] + (shape[-1] + 1,), dtype))
    if len(shape) == 1 and bad is None and draw(st.booleans()):
        return np.stack(keys)
    return tuple(keys)


@kind("select", order=0, bad=("len", "dtype", "empty"))
def _select(draw, ctx, p, bad):
    """select's condlist and choicelist: 1-3 boolean conditions and as many choices of one
    shape."""
    shape = _shape(draw, draw(st.integers(0, 2)))
    dtype = _dtype(draw, ctx)
    k = draw(st.integers(1, 3))
    conds = [_values(ctx.rng, shape, bool) for _ in range(k)]
    choices = [_values(ctx.rng, shape, dtype) for _ in range(k)]
    _set_main(ctx, choices[0])
    if bad == "len":
        choices.append(choices[0])
    elif bad == "dtype":
        conds[0] = conds[0].astype(np.int64)
    elif bad == "empty":
        conds, choices = [], []
    return Parts((conds, choices))


@kind("choose", order=0, bad=("oob", "shape", "float"))
def _choose(draw, ctx, p, bad):
    """choose's index array (values in [0, k)) and its k choices, broadcasting."""
    shape = _shape(draw, draw(st.integers(0, 2)))
    k = draw(st.integers(1, 3))
    a = np.asarray(ctx.rng.integers(0, k, size=shape), np.intp)
    dtype = _dtype(draw, ctx)
    choices = [_values(ctx.rng, shape[draw(st.integers(0, len(shape))):], dtype)
               for _ in range(k)]
    if bad == "oob":
        a = np.full(a.shape, k, np.intp)
    elif bad == "shape":
        choices[0] = _values(ctx.rng, _incompatible(draw, shape), dtype)
    elif bad == "float":
        a = a.astype(np.float64)
    _set_main(ctx, a)
    return Parts((a, choices))


@kind("interp", bad=("len", "ndim", "empty", "period"))
def _interp(draw, ctx, p, bad):
    """interp's xp (increasing) and fp of one length, maybe a period."""
    n = draw(st.integers(1, 5))
    xp = np.arange(n, dtype=np.float64) * 2 - 3
    fp = _values(ctx.rng, (n,), draw(st.sampled_from("dD")))
    kwargs = {}
    if draw(st.integers(0, 3)) == 0:
        kwargs["period"] = 4.0
    if bad == "len":
        fp = np.concatenate([fp, fp[:1]])
    elif bad == "ndim":
        xp, fp = xp.reshape(1, n), fp.reshape(1, n)
    elif bad == "empty":
        xp, fp = xp[:0], fp[:0]
    elif bad == "period":
        kwargs["period"] = 0
    return Parts((xp, fp), kwargs)


@kind("sorter", bad=("len", "oob"))
def _sorter(draw, ctx, p, bad):
    """searchsorted's sorter for a sorted main array: arange(n)."""
    n = ctx.a.size
    sorter = np.arange(n + (1 if bad == "len" else 0), dtype=np.intp)
    if bad == "oob":
        sorter[-1] = n
    return sorter


@kind("bins", bad=("neg", "zero", "unsorted", "bogus", "float", "rule"))
def _bins(draw, ctx, p, bad):
    """histogram's bins: a count or increasing edges; ``rule`` is a rule name (which NumPy
    refuses with weights)."""
    if bad == "rule":
        return draw(st.sampled_from(["auto", "sturges", "sqrt", "rice", "scott", "doane", "fd"]))
    if bad:
        return {"neg": -1, "zero": 0, "unsorted": np.array([0.0, 2.0, 1.0]), "bogus": "bogus",
                "float": 2.5}[bad]
    if draw(st.booleans()):
        return draw(st.integers(1, 5))
    return np.arange(draw(st.integers(2, 4)), dtype=np.float64) * 2 - 3


@kind("hrange", bad=("reversed", "nan"))
def _hrange(draw, ctx, p, bad):
    if bad == "reversed":
        return (2.0, -2.0)
    if bad == "nan":
        return (0.0, float("nan"))
    return draw(st.sampled_from([(-3.0, 3.0), (0.0, 1.0), (-1.0, 5.0)]))


@kind("rmi", order=0, bad=("oob", "len", "float"))
def _rmi(draw, ctx, p, bad):
    """ravel_multi_index's index arrays and dims."""
    dims = _shape(draw, draw(st.integers(1, 3)), 1, 4)
    n = draw(st.integers(0, 4))
    index = [np.asarray(ctx.rng.integers(0, d, size=n), np.intp) for d in dims]
    kwargs = {}
    if draw(st.integers(0, 2)) == 0:
        kwargs["mode"] = draw(st.sampled_from(["raise", "wrap", "clip"]))
    if bad == "oob":
        index = [np.resize(i, max(n, 1)) if n else np.zeros(1, np.intp) for i in index]
        index[0][0] = dims[0]
        kwargs.pop("mode", None)
    elif bad == "len":
        index = index + [index[0]]
    elif bad == "float":
        index[0] = index[0].astype(np.float64)
    _set_main(ctx, index[0])
    return Parts((tuple(index), dims), kwargs)


@kind("unravel", order=0, bad=("oob", "float", "negdims"))
def _unravel(draw, ctx, p, bad):
    """unravel_index's flat indices and shape."""
    dims = _shape(draw, draw(st.integers(1, 3)), 1, 4)
    size = int(np.prod(dims))
    ind = np.asarray(ctx.rng.integers(0, size, size=draw(st.integers(0, 4))), np.intp)
    if draw(st.booleans()) and ind.size:
        ind = ind[0]
    if bad == "oob":
        ind = np.asarray([size], np.intp)
    elif bad == "float":
        ind = np.asarray(ind, np.float64)
    elif bad == "negdims":
        dims = dims[:-1] + (-1,)
    ind = np.asarray(ind)
    _set_main(ctx, ind)
    return Parts((ind, dims))


@kind("tinv", order=0, bad=("ind", "shape"))
def _tinv(draw, ctx, p, bad):
    """tensorinv's operand (a square matrix reshaped to (n, p, q) with p*q == n) and ind."""
    p_, q_ = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    n = p_ * q_
    dtype = _dtype(draw, ctx)
    m = (_values(ctx.rng, (n, n), "d") + 4 * n * np.eye(n)).astype(dtype)
    a = m.reshape(n, p_, q_)
    ind = 1
    if bad == "ind":
        ind = 0
    elif bad == "shape":
        a = _values(ctx.rng, (n, p_, q_ + 1), dtype)
    _set_main(ctx, a)
    return Parts((a,), {"ind": ind})


@kind("tsolve", order=0, bad=("shape",))
def _tsolve(draw, ctx, p, bad):
    """tensorsolve's a (b.shape + Q with prod(Q) == b.size) and b."""
    bshape = _shape(draw, draw(st.integers(1, 2)), 1, 3)
    n = int(np.prod(bshape))
    dtype = _dtype(draw, ctx)
    m = (_values(ctx.rng, (n, n), "d") + 4 * n * np.eye(n)).astype(dtype)
    a = m.reshape(bshape + (n,))
    b = _values(ctx.rng, bshape, dtype)
    if bad == "shape":
        b = _values(ctx.rng, bshape[:-1] + (bshape[-1] + 1,), dtype)
    _set_main(ctx, a)
    return Parts((a, b))


@kind("sortkind", order=1, bad=("bogus", "both", "order"))
def _sortkind(draw, ctx, p, bad):
    """sort's kind= or stable= (not both: NumPy refuses that), or neither."""
    if bad == "bogus":
        return Parts(kwargs={"kind": "bogus"})
    if bad == "both":
        return Parts(kwargs={"kind": "stable", "stable": True})
    if bad == "order":
        return Parts(kwargs={"order": "x"})
    form = draw(st.integers(0, 2))
    if form == 1:
        return Parts(kwargs={"kind": draw(st.sampled_from(p.text.split("|")))})
    if form == 2:
        return Parts(kwargs={"stable": draw(st.booleans())})
    return Parts()


@kind("norm", order=1, bad=("ord", "axis", "dup"))
def _norm(draw, ctx, p, bad):
    """linalg.norm's ord and axis, consistent: a vector norm over one axis or the whole
    1-d array, a matrix norm over two axes or the whole 2-d array."""
    ndim = ctx.a.ndim
    if bad == "axis":
        return Parts(kwargs={"axis": draw(st.sampled_from([(0, 1, 2), ndim]))})
    if bad == "dup":
        return Parts(kwargs={"axis": (0, 0)})
    matrix = ndim >= 2 and draw(st.booleans())
    if matrix:
        axis = tuple(draw(st.permutations(range(ndim)))[:2])
        if ndim == 2 and draw(st.booleans()):
            axis = None
        ords = CHOICES["mnorm"][0] + [None]
        if bad == "ord":
            return Parts(kwargs={"axis": axis, "ord": draw(st.sampled_from([3, 0, "bogus"]))})
    else:
        axis = draw(st.integers(-ndim, ndim - 1)) if ndim else None
        if ndim == 1 and draw(st.booleans()):
            axis = None
        if ndim >= 2 and axis is None:
            axis = 0
        ords = CHOICES["vnorm"][0]
        if bad == "ord":
            return Parts(kwargs={"axis": axis, "ord": draw(st.sampled_from(["fro", "nuc",
                                                                            "bogus"]))})
    kwargs = {"ord": draw(st.sampled_from(ords))}
    if axis is not None or draw(st.booleans()):
        kwargs["axis"] = axis
    return Parts(kwargs=kwargs)


@kind("block", order=0, bad=("depth", "shape", "empty"))
def _block(draw, ctx, p, bad):
    """block's nested lists: [a, b] (1-d or 2-d) or [[a, b], [c, d]] of matching shapes."""
    dtype = _dtype(draw, ctx)
    r, c = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    if draw(st.booleans()):
        blocks = [_values(ctx.rng, (r, c), dtype), _values(ctx.rng, (r, 2), dtype)]
        if bad == "shape":
            blocks[1] = _values(ctx.rng, (r + 1, 2), dtype)
    else:
        top = [_values(ctx.rng, (r, c), dtype), _values(ctx.rng, (r, 1), dtype)]
        bottom = [_values(ctx.rng, (2, c), dtype), _values(ctx.rng, (2, 1), dtype)]
        if bad == "shape":
            bottom[1] = _values(ctx.rng, (2, 2), dtype)
        blocks = [top, bottom]
    if bad == "depth":
        blocks = [blocks[0], [blocks[1]]]
    elif bad == "empty":
        blocks = []
    _set_main(ctx, _values(ctx.rng, (r, c), dtype))
    return Parts((blocks,))


@kind("seq", order=0, bad=("shape", "ndim", "empty", "0d"))
def _seq(draw, ctx, p, bad):
    """A list of 1-3 arrays of one shape (ndim 1-3), for concatenate/stack and friends;
    ``shape`` changes one dimension of one array, ``ndim`` drops one, ``0d`` are 0-d."""
    shape = _shape(draw, draw(st.integers(1, 3)))
    k = draw(st.integers(1, 3))
    dtype = _dtype(draw, ctx)
    arrays = [_values(ctx.rng, shape, _dtype(draw, ctx) if ctx.any_dtype else dtype)
              for _ in range(k)]
    _set_main(ctx, arrays[0])
    if bad == "shape":
        i = draw(st.integers(0, len(shape) - 1))
        arrays.append(_values(ctx.rng, tuple(d + 1 if j == i else d for j, d in enumerate(shape)),
                              arrays[0].dtype))
    elif bad == "ndim":
        arrays.append(arrays[0][0])
    elif bad == "empty":
        arrays = []
    elif bad == "0d":
        arrays = [a.reshape(-1)[0].reshape(()) for a in arrays]
    return arrays if "list" in p or draw(st.booleans()) else tuple(arrays)


@kind("out", order=9, bad=lambda p: ("shape", "dtype", "type", "strided", "alias") + (
    ("tuple2",) if p.text == "ufunc" else ("tuple1",) if p.text == "ufunc2" else ()))
def _out(draw, ctx, p, bad):
    """``out=``: an array of NumPy's result shape and dtype (a 1-tuple of it, for a ufunc,
    sometimes); ``shape``/``dtype`` differ, ``type`` is a list, ``strided`` a
    non-contiguous view (NumPy's dot refuses it), ``alias`` the main array itself,
    ``tuple2``/``tuple1`` a tuple of the wrong length.  Never 0-d where NumPy's result is
    not: NumPy 2.4's accumulations (cumsum, add.accumulate) crash the process on a 0-d
    out."""
    if ctx.no_out:
        return None
    result = ctx.result
    result_0d = isinstance(result, (np.ndarray, np.generic)) and np.ndim(result) == 0
    if bad == "alias":
        if ctx.a is None or ctx.a.ndim or result_0d:
            return SAME_AS_MAIN
        bad = "shape"
    results = list(result) if isinstance(result, tuple) else [result]
    if not results or any(not isinstance(r, (np.ndarray, np.generic)) for r in results):
        results = [np.zeros(3)] * (2 if p.text == "ufunc2" else 1)
    outs = []
    for r in results:
        shape, dtype = np.shape(r), np.asarray(r).dtype
        if bad == "shape":
            longer = [i for i, d in enumerate(shape) if d != 1]
            if longer and draw(st.integers(0, 2)) < 2:
                i = draw(st.sampled_from(longer))
                shape = shape[:i] + (shape[i] + 1,) + shape[i + 1:]
            else:
                shape = shape + (2,) if len(shape) < 2 or draw(st.booleans()) else shape[1:]
        elif bad == "dtype":
            dtype = draw(st.sampled_from([d for d in "?bBlfdD" if np.dtype(d) != dtype]))
        if bad == "strided":
            outs.append(Strided(np.zeros(shape + (2,), dtype), (Ellipsis, 0)))
        elif bad == "type":
            outs.append(np.zeros(shape, dtype).tolist())
        else:
            outs.append(np.zeros(shape, dtype))
    if p.text == "ufunc2":
        return tuple(outs[:1]) if bad == "tuple1" else tuple(outs)
    if bad == "tuple2":
        return (outs[0], outs[0].copy())
    if p.text == "ufunc" and draw(st.booleans()):
        return (outs[0],)
    return outs[0]


# --- the signatures ---------------------------------------------------------------------


class Slot(NamedTuple):
    name: str | None  # keyword; None: positional; "*": a Parts splat
    optional: bool
    kind: str
    param: Param


class Spec(NamedTuple):
    fn: str
    np_fn: str
    slots: tuple
    dt: str  # the dtypes of valid calls (by char)
    check: str
    strict: bool  # NumPy accepts every valid call (False: values decide, e.g. int ** -1)
    loops: tuple  # a ufunc's input types per loop (NumPy's), else ()
    loop_outs: tuple


_TOKEN = re.compile(r"(?:(?P<name>\*|[A-Za-z_]\w*)(?P<opt>\?)?=)?(?P<kind>\w+)(?:/(?P<param>.*))?")


def parse(sig):
    slots = []
    for token in sig.split():
        m = _TOKEN.fullmatch(token)
        assert m and m["kind"] in KINDS, f"bad slot {token!r} in {sig!r}"
        slots.append(Slot(m["name"], bool(m["opt"]), m["kind"], Param(m["param"])))
    return tuple(slots)


def spec(fn, sig, *, dt=ALL, check="close", np_fn=None, strict=True, loops=(), loop_outs=()):
    return Spec(fn, np_fn or fn, parse(sig), dt, check, strict, tuple(loops), tuple(loop_outs))


REDUCE = "arr axis?=axes dtype?=dtype out?=out keepdims?=bool"
EXTREMUM = "arr axis?=axes out?=out keepdims?=bool"
ARGEXT = "arr axis?=axis/none out?=out keepdims?=bool"
SCAN = "arr axis?=axis/none dtype?=dtype out?=out"
STAT = "arr axis?=axes dtype?=dtype out?=out ddof?=int/0:2 keepdims?=bool"
QUANTILE = ("arr q/{} axis?=axes out?=out method?=enum/linear|lower|higher|nearest|midpoint"
            "|inverted_cdf|hazen|weibull|median_unbiased|normal_unbiased keepdims?=bool")
FFT1 = "arr/1-3 n?=fftn axis?=axis norm?=enum/None|backward|ortho|forward out?=out"
FFT2 = "arr/2-3 *=fftsa/2 norm?=enum/backward|ortho|forward out?=out"
FFTN = "arr/1-3 *=fftsa/n norm?=enum/backward|ortho|forward out?=out"


def _numpy_fft_ignores_out(name, a, out):
    """NumPy 2.4's hfft, ifft2 and irfft2 ignore out= (they pass out=None on); 2.5 writes
    into it, as the documentation says and gpuarr does."""
    return getattr(np.fft, name)(a, out=out) is not out


# Functions whose calls leave out= out rather than compare gpuarr with that NumPy defect.
FFT_OUT_IGNORED = {name for name, a, out in [
    ("hfft", np.ones(2), np.empty(2)), ("ifft2", np.ones((2, 2)), np.empty((2, 2), complex)),
    ("irfft2", np.ones((2, 2)), np.empty((2, 2)))] if _numpy_fft_ignores_out(name, a, out)}


def _fft_sig(name, sig):
    return sig.replace(" out?=out", "") if name in FFT_OUT_IGNORED else sig


# name: signature, or (signature, options).  One table per calling convention.
TABLES = {
    "elementwise": {
        "divmod": ("arr arr2/scalar out?=out/ufunc2", {"ufunc": "divmod"}),
        "frexp": ("arr out?=out/ufunc2", {"ufunc": "frexp"}),
        "modf": ("arr out?=out/ufunc2", {"ufunc": "modf"}),
        "isposinf": ("arr out?=out", {"dt": REAL}),
        "isneginf": ("arr out?=out", {"dt": REAL}),
        "sinc": ("arr", {"dt": NOBOOL}),
        "i0": ("arr", {"dt": REAL_NOBOOL}),
        "clip": ("arr arr2 arr2 out?=out", {"dt": NOBOOL}),
        "around": ("arr decimals?=int/-2:2 out?=out", {"dt": NOBOOL}),
        "round": ("arr decimals?=int/-2:2 out?=out", {"dt": NOBOOL}),
        "fix": ("arr out?=out", {"dt": REAL_NOBOOL}),
        "angle": "arr deg?=bool",
        "real": "arr",
        "imag": "arr",
        "nan_to_num": "arr copy?=bool nan?=num",
        "isreal": "arr",
        "iscomplex": "arr",
        "real_if_close": "arr tol?=num",
        "isclose": ("arr arr2 rtol?=num atol?=num equal_nan?=bool", {"dt": NOBOOL}),
        "allclose": ("arr arr2 rtol?=num atol?=num equal_nan?=bool", {"dt": NOBOOL}),
        "array_equal": "arr arr2 equal_nan?=bool",
        "array_equiv": "arr arr2",
        "emath.sqrt": "arr",
        "emath.log": ("arr", {"dt": NOBOOL}),
        "emath.log2": ("arr", {"dt": NOBOOL}),
        "emath.log10": ("arr", {"dt": NOBOOL}),
        # Not complex64: NumPy's result is complex128 from complex64 logs (its libm's, an
        # ulp from the device's), which complex128's tolerance cannot compare.
        "emath.logn": ("num/nonzero arr", {"dt": NOBOOL.replace("F", "")}),
        "emath.power": ("arr arr2", {"dt": "lfdFD", "strict": False}),
        "emath.arccos": ("arr", {"dt": NOBOOL}),
        "emath.arcsin": ("arr", {"dt": NOBOOL}),
        "emath.arctanh": ("arr", {"dt": NOBOOL}),
    },
    "reduction": {
        **{n: REDUCE for n in ("sum", "prod", "nansum", "nanprod", "mean", "nanmean")},
        **{n: STAT for n in ("std", "var", "nanstd", "nanvar")},
        **{n: EXTREMUM for n in ("min", "max", "amin", "amax", "any", "all")},
        "nanmin": EXTREMUM.replace("arr", "arr/nan", 1),
        "nanmax": EXTREMUM.replace("arr", "arr/nan", 1),
        "ptp": (EXTREMUM, {"dt": NOBOOL}),
        "argmin": ARGEXT, "argmax": ARGEXT,
        "nanargmin": ARGEXT.replace("arr", "arr/nan", 1),
        "nanargmax": ARGEXT.replace("arr", "arr/nan", 1),
        "count_nonzero": "arr axis?=axes keepdims?=bool",
        **{n: SCAN for n in ("cumsum", "cumprod", "nancumsum", "nancumprod")},
        "cumulative_sum": "arr/1-3 axis=axis dtype?=dtype out?=out include_initial?=bool",
        "cumulative_prod": "arr/1-3 axis=axis dtype?=dtype out?=out include_initial?=bool",
        "median": "arr axis?=axes out?=out overwrite_input?=bool keepdims?=bool",
        "nanmedian": ("arr/nan axis?=axes out?=out overwrite_input?=bool keepdims?=bool",
                      {"dt": REAL}),
        "percentile": (QUANTILE.format("100"), {"dt": REAL_NOBOOL}),
        "nanpercentile": (QUANTILE.format("100").replace("arr", "arr/nan", 1),
                          {"dt": REAL_NOBOOL}),
        "quantile": (QUANTILE.format("1"), {"dt": REAL_NOBOOL}),
        "nanquantile": (QUANTILE.format("1").replace("arr", "arr/nan", 1), {"dt": REAL_NOBOOL}),
        "average": "arr axis?=axes weights?=same/pos returned?=bool keepdims?=bool",
    },
    "shape": {
        "reshape": "arr newshape order?=enum/C|F|A",
        "ravel": "arr order?=enum/C|F|A|K",
        "transpose": "arr axes?=perm",
        "permute_dims": "arr perm",
        "matrix_transpose": "arr/2-3",
        "swapaxes": "arr/1-3 axis axis",
        "moveaxis": "arr *=moveaxis",
        "rollaxis": "arr/1-3 axis start?=axis/start",
        "squeeze": "arr axis?=axes/ones",
        "expand_dims": "arr axis=axes/+1,req",
        "concatenate": "seq axis?=axis/none out?=out casting?=enum/same_kind|unsafe;no|equiv|safe",
        "concat": "seq axis?=axis/none",
        "stack": "seq axis?=axis/+1 out?=out",
        "hstack": "seq dtype?=dtype",
        "vstack": "seq dtype?=dtype",
        "dstack": "seq",
        "column_stack": "seq",
        "block": "*=block",
        "split": "arr/1-3 sections axis?=axis",
        "array_split": "arr/1-3 sections axis?=axis",
        "hsplit": "arr/1-3 sections/h",
        "vsplit": "arr/2-3 sections/v",
        "dsplit": "arr/3-3 sections/d",
        "unstack": "arr/1-3 axis?=axis",
        "tile": "arr reps",
        "repeat": "arr repeats axis?=axis/none",
        "roll": "arr *=roll",
        "flip": "arr axis?=axes",
        "fliplr": "arr/2-3",
        "flipud": "arr/1-3",
        "rot90": "arr/2-3 k?=int/-3:3 *?=axpair/axes",
        "broadcast_to": "arr bshape",
        "broadcast_arrays": "arr arr2",
        "atleast_1d": "arr",
        "atleast_2d": "arr",
        "atleast_3d": "arr",
        "resize": "arr shape",
        "pad": "arr *=pad",
        "append": "arr same axis?=axis/none",
        "insert": "arr/1-3 int/0:1 num axis?=axis/none",
        "delete": "arr/1-3 kth axis?=axis/none",
        "trim_zeros": "arr/1-1 trim?=enum/fb|f|b",
        "diag": "arr/1-2 k?=int/-2:2",
        "diagflat": "arr k?=int/-2:2",
        "tril": "arr/2-3 k?=int/-2:2",
        "triu": "arr/2-3 k?=int/-2:2",
    },
    "indexing": {
        "take": "arr idx axis?=axis/none out?=out mode?=enum/raise|wrap|clip",
        "put": "arr idx/flat vals mode?=enum/raise|wrap|clip",
        "take_along_axis": "arr/1-3 idxalong axis=axis/none",
        "put_along_axis": "arr/1-3 idxalong num axis=axis",
        "compress": "cond arr/1-3 axis?=axis/none out?=out",
        "choose": "*=choose out?=out mode?=enum/raise|wrap|clip",
        "diagonal": "arr/2-3 offset?=int/-2:2 *?=axpair/axis1|axis2",
        "trace": "arr/2-3 offset?=int/-2:2 *?=axpair/axis1|axis2 dtype?=dtype out?=out",
        "where": "arr arr2 arr2",
        "nonzero": "arr/1-3",
        "argwhere": "arr",
        "flatnonzero": "arr",
        "searchsorted": "sortedvec other side?=enum/left|right sorter?=sorter",
        "extract": "mask arr",
        "place": "arr mask vals",
        "putmask": "arr mask vals",
        "copyto": "arr arr2 casting?=enum/same_kind|unsafe|no|equiv|safe where?=mask",
        "fill_diagonal": "arr/2-2 num wrap?=bool",
        "select": "*=select default?=num",
        "diag_indices_from": ("sq/2d", {"dt": ALL}),
        "tril_indices_from": "arr/2-2 k?=int/-2:2",
        "triu_indices_from": "arr/2-2 k?=int/-2:2",
        "ravel_multi_index": "*=rmi",
        "unravel_index": "*=unravel",
        "indices": "shape/tuple dtype?=enum/int64|int32|float64;bool sparse?=bool",
        "diag_indices": "int/0:4 ndim?=int/1:3",
        "tril_indices": "int/0:4 k?=int/-2:2 m?=int/0:4",
        "triu_indices": "int/0:4 k?=int/-2:2 m?=int/0:4",
        "ix_": "arr/1-1 other/1-1",
    },
    "sorting": {
        "sort": "arr/1-3 axis?=axis/none,d=-1 *=sortkind/quicksort|mergesort|heapsort|stable",
        "argsort": ("arr/1-3 axis?=axis/none,d=-1 *=sortkind/quicksort|mergesort|heapsort|stable",
                    {"check": "meta"}),
        "partition": ("arr/1-3 kth axis?=axis/none,d=-1 kind?=enum/introselect",
                      {"check": "meta"}),
        "argpartition": ("arr/1-3 kth axis?=axis/none,d=-1 kind?=enum/introselect",
                         {"check": "meta"}),
        "lexsort": ("keys axis?=axis", {"dt": REAL}),
        "unique": ("arr return_index?=bool return_inverse?=bool return_counts?=bool "
                   "axis?=axis/none equal_nan?=bool"),
        "unique_all": "arr",
        "unique_counts": "arr",
        "unique_inverse": "arr",
        # NumPy's unique_values leaves the order unspecified (hash order, sorted=False)
        "unique_values": ("arr", {"check": "set"}),
        "sort_complex": "arr/1-3",
    },
    "set": {
        "isin": "arr other invert?=bool assume_unique?=bool kind?=enum/sort|None;table",
        "intersect1d": "arr other assume_unique?=bool return_indices?=bool",
        "union1d": "arr other",
        "setdiff1d": "arr other assume_unique?=bool",
        "setxor1d": "arr other assume_unique?=bool",
    },
    "linalg": {
        "matmul": "arr/1-3 *=prod/matmul out?=out",
        "dot": "arr *=prod/dot out?=out",
        "vdot": "arr *=prod/vdot",
        "inner": "arr *=prod/inner",
        "outer": "arr other out?=out",
        "tensordot": "arr *=tdot",
        "kron": "arr other",
        "cross": ("*=cross/np", {"dt": NOBOOL}),
        "vecdot": "arr/1-3 same axis?=axis",
        "matvec": "arr/2-3 *=prod/matvec out?=out",
        "vecmat": "arr/1-3 *=prod/vecmat out?=out",
        "einsum": "*=einsum out?=out dtype?=dtype/safe",
        "einsum_path": ("*=einsum", {"check": "meta"}),
        "linalg.matmul": "arr/1-3 *=prod/matmul",
        "linalg.tensordot": "arr *=tdot/kw",
        "linalg.outer": "arr/1-1 other/1-1",
        "linalg.cross": ("*=cross/linalg", {"dt": NOBOOL}),
        "linalg.vecdot": "arr/1-3 same axis?=axis",
        "linalg.diagonal": "arr/2-3 offset?=int/-2:2",
        "linalg.trace": "arr/2-3 offset?=int/-2:2 dtype?=dtype",
        "linalg.matrix_transpose": "arr/2-3",
        "linalg.solve": ("sq rhs/solve", {"dt": LINALG}),
        "linalg.inv": ("sq", {"dt": LINALG}),
        "linalg.det": ("sq", {"dt": LINALG}),
        "linalg.slogdet": ("sq", {"dt": LINALG}),
        "linalg.cholesky": ("sq/spd upper?=bool", {"dt": LINALG}),
        "linalg.eigh": ("sq/sym UPLO?=enum/L|U", {"dt": LINALG, "check": "meta"}),
        "linalg.eigvalsh": ("sq/sym UPLO?=enum/L|U", {"dt": LINALG}),
        "linalg.eig": ("sq", {"dt": LINALG, "check": "meta"}),
        "linalg.eigvals": ("sq", {"dt": LINALG, "check": "meta"}),
        "linalg.qr": ("arr/2-3 mode?=enum/reduced|complete|r;raw", {"dt": LINALG,
                                                                    "check": "meta"}),
        "linalg.svd": ("arr/2-3 full_matrices?=bool compute_uv?=bool",
                       {"dt": LINALG, "check": "meta"}),
        "linalg.svdvals": ("arr/2-3", {"dt": LINALG}),
        "linalg.pinv": ("arr/2-3", {"dt": LINALG, "check": "meta"}),
        "linalg.matrix_rank": ("arr/2-3", {"dt": LINALG}),
        "linalg.norm": ("arr/1-3 *=norm keepdims?=bool", {"dt": LINALG}),
        "linalg.matrix_norm": ("arr/2-3 ord?=enum/@mnorm keepdims?=bool", {"dt": LINALG}),
        "linalg.vector_norm": ("arr axis?=axes ord?=enum/@vnorm keepdims?=bool",
                               {"dt": LINALG}),
        "linalg.matrix_power": ("sq int/-2:3", {"dt": LINALG}),
        "linalg.multi_dot": ("*=chain", {"dt": LINALG}),
        "linalg.lstsq": ("arr/2-2 rhs/lstsq rcond?=enum/None", {"dt": LINALG,
                                                                   "check": "meta"}),
        "linalg.tensorinv": ("*=tinv", {"dt": LINALG}),
        "linalg.tensorsolve": ("*=tsolve", {"dt": LINALG}),
        "linalg.cond": ("sq p?=enum/@cnorm", {"dt": LINALG}),
    },
    "fft": {
        **{f"fft.{n}": FFT1 for n in ("fft", "ifft")},
        # n=None takes 2 * (length - 1) points: a length of 1 is an error
        "fft.irfft": FFT1.replace("1-3", "1-3,dmin=2"),
        "fft.hfft": _fft_sig("hfft", FFT1.replace("1-3", "1-3,dmin=2")),
        **{f"fft.{n}": (FFT1, {"dt": REAL}) for n in ("rfft", "ihfft")},
        "fft.fft2": FFT2,
        "fft.ifft2": _fft_sig("ifft2", FFT2),
        "fft.irfft2": _fft_sig("irfft2", FFT2.replace("2-3", "2-3,dmin=2")),
        "fft.rfft2": (FFT2, {"dt": REAL}),
        **{f"fft.{n}": FFTN for n in ("fftn", "ifftn")},
        "fft.irfftn": FFTN.replace("1-3", "1-3,dmin=2"),
        "fft.rfftn": (FFTN, {"dt": REAL}),
        "fft.fftfreq": "int/1:6 d?=num",
        "fft.rfftfreq": "int/1:6 d?=num",
        "fft.fftshift": "arr/1-3 axes?=axes",
        "fft.ifftshift": "arr/1-3 axes?=axes",
    },
    "creation": {
        "zeros": "shape dtype?=dtype/create order?=enum/C|F",
        "ones": "shape dtype?=dtype/create order?=enum/C|F",
        "empty": ("shape dtype?=dtype/create order?=enum/C|F", {"check": "meta"}),
        "full": "shape num dtype?=dtype/create order?=enum/C|F",
        "zeros_like": "arr dtype?=dtype/create shape?=shape",
        "ones_like": "arr dtype?=dtype/create shape?=shape",
        "empty_like": ("arr dtype?=dtype/create shape?=shape", {"check": "meta"}),
        "full_like": "arr num dtype?=dtype/create shape?=shape",
        "arange": "int/-3:3 int/1:6 step?=num/nonzero dtype?=enum/int64|float64|float32",
        "linspace": "num num num?=int/0:6 endpoint?=bool retstep?=bool dtype?=dtype/create",
        "logspace": "num num num?=int/0:6 endpoint?=bool base?=num",
        "geomspace": "num/nonzero num/nonzero num?=int/0:6 endpoint?=bool",
        "eye": "int/0:4 M?=int/0:4 k?=int/-2:2 dtype?=dtype/create order?=enum/C|F",
        "identity": "int/0:4 dtype?=dtype/create",
        "tri": "int/0:4 M?=int/0:4 k?=int/-2:2 dtype?=dtype/create",
        "vander": "arr/1-1 N?=int/0:4 increasing?=bool",
        "meshgrid": "arr/1-1 other/1-1 indexing?=enum/xy|ij sparse?=bool copy?=bool",
        "astype": "arr dtype/create copy?=bool",
        "bartlett": "int/0:6", "blackman": "int/0:6", "hamming": "int/0:6",
        "hanning": "int/0:6",
        "kaiser": "int/0:6 num",
    },
    "statistics": {
        "histogram": ("arr bins?=bins range?=hrange density?=bool weights?=same/pos",
                      {"dt": REAL_NOBOOL}),
        "histogram_bin_edges": ("arr bins?=bins range?=hrange", {"dt": REAL_NOBOOL}),
        "histogram2d": ("arr/1-1 same bins?=int/1:4", {"dt": REAL_NOBOOL}),
        "histogramdd": ("arr/2-2 bins?=int/1:4", {"dt": REAL_NOBOOL}),
        "bincount": ("arr/1-1,pos weights?=same/pos minlength?=int/0:5", {"dt": INTEGER}),
        "cov": ("arr/1-2,dmin=2 y?=same rowvar?=bool bias?=bool ddof?=int/0:2", {"dt": NOBOOL}),
        "corrcoef": ("arr/1-2,dmin=2 y?=same rowvar?=bool", {"dt": NOBOOL}),
        "digitize": ("arr sortedvec/mono right?=bool", {"dt": REAL_NOBOOL}),
        "interp": ("arr *=interp", {"dt": REAL_NOBOOL}),
        "diff": "arr/1-3 n?=int/0:2 axis?=axis",
        "ediff1d": ("arr to_end?=num to_begin?=num", {"dt": NOBOOL}),
        "gradient": ("arr/1-3,dmin=3 axis?=axes edge_order?=enum/1|2;3", {"dt": NOBOOL}),
        "trapezoid": ("arr/1-3 x?=same dx?=num axis?=axis", {"dt": NOBOOL}),
        "unwrap": ("arr/1-3 discont?=num axis?=axis period?=num/nonzero", {"dt": REAL_NOBOOL}),
        "convolve": ("arr/1-1 other/1-1 mode?=enum/full|same|valid", {"dt": NOBOOL}),
        "correlate": ("arr/1-1 other/1-1 mode?=enum/valid|same|full", {"dt": NOBOOL}),
        "packbits": ("arr axis?=axis/none bitorder?=enum/big|little", {"dt": INTEGER_BOOL}),
        # NumPy 2.4 pads an empty input's unpacked bits with uninitialised bytes: no empty.
        "unpackbits": ("arr/noempty axis?=axis/none count?=int/-2:8 bitorder?=enum/big|little",
                       {"dt": "B"}),
        "polyfit": ("arr/1-1,dmin=4 same int/0:3", {"dt": "lfd", "check": "meta"}),
        "polyval": ("arr/1-1 other", {"dt": NOBOOL}),
        "polyder": ("arr/1-1 m?=int/0:2", {"dt": NOBOOL}),
        "polyint": ("arr/1-1 m?=int/0:2", {"dt": NOBOOL}),
        "polyadd": ("arr/1-1 other/1-1", {"dt": NOBOOL}),
        "polysub": ("arr/1-1 other/1-1", {"dt": NOBOOL}),
        "polymul": ("arr/1-1 other/1-1", {"dt": NOBOOL}),
        "polydiv": ("arr/1-1 other/1-1", {"dt": "lfdD", "strict": False}),
        "roots": ("arr/1-1", {"dt": "lfdD", "check": "meta"}),
        "poly": ("arr/1-1", {"dt": "lfdD", "check": "meta"}),
    },
    "host": {
        "shape": "arr",
        "ndim": "arr",
        "size": "arr/1-3 axis?=axis",
        "result_type": "arr arr2",
        "may_share_memory": "arr arr2",
        "shares_memory": "arr arr2",
        "isfortran": "arr",
        "iscomplexobj": "arr",
        "isrealobj": "arr",
    },
}

# Public functions this file does not call, and why (the coverage test reads this).
NOT_COVERED = {
    "host data in and out (covered by test_transfer, test_io and test_creation)": [
        "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray",
        "asarray_chkfinite", "copy", "require", "frombuffer", "fromiter", "fromstring",
        "fromfile", "load", "save", "savez", "savez_compressed", "loadtxt", "savetxt",
        "genfromtxt", "from_dlpack"],
    "take a Python callable": [
        "apply_along_axis", "apply_over_axes", "piecewise", "fromfunction", "mask_indices"],
    "text output (covered by test_printing)": [
        "array2string", "array_repr", "array_str", "format_float_positional",
        "format_float_scientific", "base_repr", "binary_repr", "set_printoptions",
        "get_printoptions", "printoptions"],
    "dtype and type queries on NumPy's own dtypes (no arrays)": [
        "can_cast", "promote_types", "min_scalar_type", "common_type", "mintypecode",
        "typename", "issubdtype", "isdtype", "finfo", "iinfo", "isscalar", "iterable",
        "broadcast_shapes"],
    "prints the build and library configuration": ["show_config"],
}

_UFUNC_METHOD_SIGS = {
    "reduce": "arr/1-3 axis?=axes dtype?=dtype/ufunc out?=out keepdims?=bool",
    "accumulate": "arr/1-3 axis?=axis dtype?=dtype/ufunc out?=out",
    "outer": "arr other out?=out",
}
_UFUNC_SIG = "{} out?=out/ufunc dtype?=dtype/ufunc casting?=enum/same_kind|unsafe;no|equiv|safe"
# int ** negative int raises in NumPy, depending on the values drawn.
_DATA_DEPENDENT = {"power", "pow"}


def _loops(np_ufunc):
    """NumPy's loops of a ufunc as (input chars, output char), restricted to gpuarr's
    dtypes."""
    loops = {}
    for t in np_ufunc.types:
        ins, outs = t.split("->")
        ins = "".join(_norm_char(c) for c in ins)
        if all(c in ALL for c in ins + outs.replace("q", "l").replace("Q", "L")):
            loops.setdefault(ins, _norm_char(outs[0]))
    return tuple(loops), tuple(loops.values())


def _reorderable(np_ufunc, loop):
    """NumPy reduces over several axes at once only with a reorderable ufunc."""
    try:
        np_ufunc.reduce(np.ones((2, 2), loop[0]), axis=(0, 1))
        return True
    except ValueError:
        return False


def _ufunc_names():
    return sorted(n for n in dir(gpuarr) if isinstance(getattr(gpuarr, n), gpuarr.ufunc))


def build_specs():
    specs = {}
    for name in _ufunc_names():
        u = getattr(gpuarr, name)
        ins, outs = _loops(getattr(np, name))
        args = " ".join(["arr"] + ["arr2/scalar"] * (u.nin - 1))
        specs[name] = spec(name, _UFUNC_SIG.format(args), loops=ins, loop_outs=outs,
                           strict=name not in _DATA_DEPENDENT)
        np_u = getattr(np, name)
        if u.nin != 2 or np_u.__name__ != name:  # aliases share their ufunc's methods
            continue
        same = [(i, o) for i, o in zip(ins, outs) if i[0] == i[1] == o]
        for method, sig in _UFUNC_METHOD_SIGS.items():
            loops = (ins, outs) if method == "outer" else tuple(zip(*same)) if same else None
            if loops is None:
                continue
            if method == "reduce" and not _reorderable(np_u, loops[0][0]):
                sig = sig.replace("axis?=axes", "axis?=axis")
            specs[f"{name}.{method}"] = spec(f"{name}.{method}", sig, loops=loops[0],
                                             loop_outs=loops[1],
                                             strict=name not in _DATA_DEPENDENT)
    for family, table in TABLES.items():
        for name, row in table.items():
            sig, opts = (row, {}) if isinstance(row, str) else row
            opts = dict(opts)
            if "ufunc" in opts:
                ins, outs = _loops(getattr(np, opts.pop("ufunc")))
                opts.update(loops=ins, loop_outs=outs)
            assert name not in specs, name
            specs[name] = spec(name, sig, **opts)
    return specs


SPECS = build_specs()


# --- drawing a call ---------------------------------------------------------------------


def _resolve(root, dotted):
    obj = root
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _variants(sp):
    """The ways a call can be bad: (slot index, variant) per slot, and the spec-wide ones."""
    out = []
    for i, slot in enumerate(sp.slots):
        out += [(i, v) for v in KINDS[slot.kind].bad(slot.param)]
    has_arrays = any(KINDS[s.kind].order == 0 for s in sp.slots)
    if has_arrays:
        out.append((None, "dtype"))
    out.append((None, "kw"))
    if any(s.name is None or s.name == "*" for s in sp.slots):
        out.append((None, "drop"))
    return out


def _host_copy(obj):
    if isinstance(obj, np.ndarray):
        return obj.copy()
    if isinstance(obj, Strided):
        return obj.base.copy()[obj.key]
    if isinstance(obj, list):
        return [_host_copy(x) for x in obj]
    if isinstance(obj, tuple) and type(obj) is tuple:
        return tuple(_host_copy(x) for x in obj)
    return obj


def _assemble(sp, values):
    args, kwargs, main = [], {}, None
    for slot, value in zip(sp.slots, values):
        if value is _OMIT:
            continue
        if slot.name == "*":
            args += list(value.args)
            kwargs.update(value.kwargs)
        elif slot.name is None:
            if main is None and KINDS[slot.kind].order == 0:
                main = len(args)
            args.append(value)
        else:
            kwargs[slot.name] = value
    return args, kwargs, main


_OMIT = object()


@st.composite
def calls(draw, sp, chosen):
    """A call of ``sp``, valid or bad in the way ``chosen`` (a slot index and variant, or
    None and a call-wide variant) says."""
    target, variant = chosen
    ctx = Ctx(spec=sp, rng=np.random.default_rng(draw(st.integers(0, 2**32 - 1))),
              any_dtype=variant == "dtype", loop=None, loop_out=None, a=None, axis=None,
              target=sp.slots[target].kind if target is not None else None,
              # A bad value of another slot shows best against a main array with some
              # dimension longer than 1 (a 0-d main array broadcasts with anything).
              nontrivial=target is not None and KINDS[sp.slots[target].kind].order != 0)
    if sp.loops and variant != "dtype":
        k = draw(st.integers(0, len(sp.loops) - 1))
        ctx.loop, ctx.loop_out = sp.loops[k], sp.loop_outs[k]
    values = [_OMIT] * len(sp.slots)
    order = sorted(range(len(sp.slots)), key=lambda i: KINDS[sp.slots[i].kind].order)
    positions = {}
    for i in range(len(sp.slots)):
        if sp.slots[i].name is None:
            positions[i] = len(positions)
    for i in order:
        slot = sp.slots[i]
        kind_ = KINDS[slot.kind]
        bad = variant if target == i else None
        if kind_.order == 9:  # out= needs NumPy's result of the call without it
            args, kwargs, _ = _assemble(sp, values)
            _, result, _ = _numpy_outcome(sp.np_fn, args, kwargs)
            ctx.result = result
        ctx.position = positions.get(i, 0)
        value = kind_.draw(draw, ctx, slot.param, bad)
        if slot.optional and bad is None and not draw(st.booleans()):
            if slot.kind in ("axis", "axes"):
                ctx.axis = _axis_default(slot.param)
            continue
        values[i] = value
    args, kwargs, main = _assemble(sp, values)
    if variant == "kw":
        kwargs["bogus_keyword"] = 1
    if variant == "drop":
        args = args[:-1]
    if target is not None:
        variant = f"{sp.slots[target].name or sp.slots[target].kind}:{variant}"
    return Case(sp.fn, sp.np_fn, tuple(args), kwargs, main, variant, sp.check)


def _draw_calls(sp, chosen, count):
    found = []

    @seed(zlib.crc32(f"{sp.fn}:{chosen}".encode()))
    @settings(max_examples=count, deadline=None, database=None, derandomize=False,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(calls(sp, chosen))
    def collect(case):
        found.append(case)

    collect()
    return found


@functools.lru_cache(maxsize=None)
def examples(name):
    """The calls drawn for ``name``, every variant of it: the same on every run and every
    machine (a fixed seed per function and variant, no example database)."""
    sp = SPECS[name]
    found = _draw_calls(sp, (None, "valid"), VALID_EXAMPLES)
    for chosen in _variants(sp):
        found += _draw_calls(sp, chosen, VARIANT_EXAMPLES)
    return tuple(found)


# --- running a call on each side ----------------------------------------------------------


class Side(NamedTuple):
    """The library under test: its namespace, how a host array becomes one of its arrays,
    their type, and how one comes back to the host."""
    namespace: Any
    asarray: Any
    ndarray: type
    asnumpy: Any


GPUARR = Side(gpuarr, gpuarr.asarray, gpuarr.ndarray, gpuarr.asnumpy)


class StandinArray(np.ndarray):
    """NumPy's arrays in gpuarr's place (``STANDIN``): the harness compared with itself."""


STANDIN = Side(np, lambda a: a.copy().view(StandinArray), StandinArray,
               lambda a: np.asarray(a).view(np.ndarray))


def _converter(side):
    def convert(obj):
        if isinstance(obj, np.ndarray):
            return side.asarray(obj)
        if isinstance(obj, Strided):
            return side.asarray(obj.base)[obj.key]
        if isinstance(obj, list):
            return [convert(x) for x in obj]
        if isinstance(obj, tuple) and type(obj) is tuple:
            return tuple(convert(x) for x in obj)
        return obj
    return convert


def _materialize(case, convert):
    args = [convert(a) for a in case.args]
    kwargs = {k: convert(v) for k, v in case.kwargs.items()}
    for k, v in kwargs.items():
        if v is SAME_AS_MAIN:
            kwargs[k] = args[case.main] if case.main is not None and case.main < len(args) else None
    return args, kwargs


def _numpy_outcome(np_fn, args, kwargs):
    args = [_host_copy(a) for a in args]
    kwargs = {k: _host_copy(v) for k, v in kwargs.items()}
    with np.errstate(all="ignore"):
        return outcome(_resolve(np, np_fn), *args, **kwargs)


def run_numpy(case):
    args, kwargs = _materialize(case, _host_copy)
    with np.errstate(all="ignore"):
        kind_, value, _ = outcome(_resolve(np, case.np_fn), *args, **kwargs)
    return kind_, value, args, kwargs


def run_side(case, side):
    args, kwargs = _materialize(case, _converter(side))
    kind_, value, _ = outcome(_resolve(side.namespace, case.np_fn if side is STANDIN else
                                       case.fn), *args, **kwargs)
    return kind_, value, args, kwargs


# --- comparing and describing ---------------------------------------------------------


def _short(dtype):
    return np.dtype(dtype).str.lstrip("<>|=")


def describe(obj, depth=0):
    if isinstance(obj, Strided):
        return describe(obj.base[obj.key]) + "(strided)"
    if isinstance(obj, (np.ndarray, gpuarr.ndarray)):
        shape = ",".join(map(str, obj.shape))
        text = f"{_short(obj.dtype)}[{shape}]"
        if obj.size <= 6 and isinstance(obj, np.ndarray):
            text += "{" + ",".join(str(v) for v in obj.reshape(-1).tolist()) + "}"
        return text
    if isinstance(obj, (list, tuple)) and depth < 3:
        inner = ", ".join(describe(x, depth + 1) for x in obj[:6])
        inner += ", ..." if len(obj) > 6 else ""
        return f"[{inner}]" if isinstance(obj, list) else f"({inner}{',' if len(obj) == 1 else ''})"
    if isinstance(obj, np.generic):
        return f"{_short(obj.dtype)}({obj.item()!r})"
    text = repr(obj)
    return text if len(text) <= 40 else text[:37] + "..."


def describe_call(case):
    parts = [describe(a) for a in case.args]
    parts += [f"{k}={describe(v)}" for k, v in case.kwargs.items()]
    return f"{case.fn}({', '.join(parts)})"


def describe_outcome(kind_, value):
    if kind_ == "raise":
        text = str(value).replace("\n", " ")
        text = text if len(text) <= 90 else text[:87] + "..."
        return f"raised {type(value).__name__}({text!r})"
    return f"returned {describe(value)}"


def _is_arraylike(x):
    return isinstance(x, (np.ndarray, gpuarr.ndarray, np.generic, bool, int, float, complex))


def _host(x, side):
    if isinstance(x, side.ndarray):
        return side.asnumpy(x)
    return np.asarray(x)


def compare(expected, got, check, side=GPUARR, path="result"):
    """None when ``got`` (gpuarr's) equals ``expected`` (NumPy's), else what differs."""
    if expected is None or got is None:
        if expected is got:
            return None
        return f"{path}: {describe(got)} where NumPy has {describe(expected)}"
    if isinstance(expected, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return f"{path}: {describe(got)} where NumPy has {describe(expected)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            diff = compare(e, g, check, side, f"{path}[{i}]")
            if diff:
                return diff
        return None
    if not _is_arraylike(expected):
        if check == "meta" or expected == got:
            return None
        return f"{path}: {got!r} where NumPy has {expected!r}"
    if not _is_arraylike(got):
        return f"{path}: {type(got).__name__} where NumPy has an array"
    e, g = np.asarray(expected), _host(got, side)
    if e.dtype != g.dtype or e.shape != g.shape:
        return f"{path}: {describe(g)} where NumPy has {describe(e)}"
    if check == "set":  # the same elements in any order
        e, g, check = np.sort(e, axis=None), np.sort(g, axis=None), "close"
    if check == "meta" or e.size == 0:
        return None
    if e.dtype.kind in "fc":
        tol = TOLERANCE[e.dtype.char]
        finite = np.abs(e[np.isfinite(e)])
        atol = tol * max(1.0, float(finite.max()) if finite.size else 1.0)
        ok = np.isclose(g, e, rtol=tol, atol=atol, equal_nan=True)
    else:
        ok = g == e
    if not np.all(ok):
        i = np.flatnonzero(~np.asarray(ok).reshape(-1))[0]
        return (f"{path}: {describe(g)} differs from NumPy's first at flat index {i}: "
                f"{g.reshape(-1)[i]!r} vs {e.reshape(-1)[i]!r}")
    return None


def _mutated(np_args, ga_args, side):
    """Arguments written in place (put, place, copyto, out=, ...) must end up equal too."""
    for i, (e, g) in enumerate(zip(np_args, ga_args)):
        if isinstance(e, np.ndarray) and isinstance(g, side.ndarray):
            diff = compare(e, g, "close", side, f"argument {i} after the call")
            if diff:
                return diff
    return None


# Deliberate differences: calls where NumPy returns a value a user would not want and
# gpuarr raises instead (stricter, never looser), by (function, variant), with the reason.
_ACCUMULATE_OUT = ("NumPy's accumulations with axis=None (ufunc.accumulate with any axis) "
                   "take an out= of more dimensions and fill its first column only")
STRICTER_THAN_NUMPY = {
    **{(n, "out:shape"): _ACCUMULATE_OUT
       for n in ("cumsum", "cumprod", "nancumsum", "nancumprod")},
    **{(n, "out:shape"): _ACCUMULATE_OUT for n in SPECS if n.endswith(".accumulate")},
    ("searchsorted", "sorter:oob"): "NumPy checks only the sorter entries its binary search "
                                    "visits, else searches an invalid permutation",
    ("eye", "k:float"): "NumPy accepts a float offset only when it misses the matrix and "
                        "raises TypeError otherwise; gpuarr raises for every float",
    ("broadcast_arrays", "arr2:pyint"): "an integer beyond int64 makes NumPy an object array, "
                                        "a dtype gpuarr does not have",
    ("kaiser", "int:float"): "NumPy computes a window of ceil(M) points from a float M, "
                             "with NaN where the formula leaves [0, M-1]; gpuarr refuses a "
                             "float M",
}


# Calls whose values NumPy does not define (both sides must still return), by function and
# variant (None: every variant), with the reason.
_NUMPY_25 = tuple(int(x) for x in np.__version__.split(".")[:2]) >= (2, 5)
UNSPECIFIED_VALUES = {
    ("float_power.accumulate", "out:dtype"): "an infinite or NaN power cast into an integer "
                                             "out: C leaves the value undefined (NumPy warns)",
    **({("arctan2.reduce", None): "NumPy 2.5's arctan2.reduce drops the middle elements "
                                  "(arctan2.reduce([2, 0, 3]) is arctan2(2, 3)); gpuarr folds "
                                  "every element, as NumPy 2.4 and the definition do"}
       if _NUMPY_25 else {}),
}


def _values_unspecified(case):
    return ((case.fn, case.label) in UNSPECIFIED_VALUES
            or (case.fn, None) in UNSPECIFIED_VALUES)


def check_case(case, side=GPUARR):
    """None when gpuarr does what NumPy does with this call, else (the kind of mismatch,
    one line saying what differs)."""
    ga_kind, ga_value, ga_args, ga_kwargs = run_side(case, side)
    np_kind, np_value, np_args, np_kwargs = run_numpy(case)
    diff = None
    if np_kind == "raise" and ga_kind == "raise":
        expected = public_exception_type(np_value)
        if not isinstance(ga_value, expected):
            diff = f"gpuarr's exception is not a {expected.__name__}"
    elif np_kind != ga_kind:
        if ga_kind == "raise" and (case.fn, case.label) in STRICTER_THAN_NUMPY:
            return None
        diff = "gpuarr returned a value" if ga_kind == "ok" else "gpuarr raised"
    elif _values_unspecified(case):
        return None
    else:
        try:
            diff = compare(np_value, ga_value, case.check, side)
            diff = diff or _mutated(np_args + list(np_kwargs.values()),
                                    ga_args + list(ga_kwargs.values()), side)
        except Exception as e:  # noqa: BLE001  (an asynchronous device error at the copy)
            ga_kind, ga_value = "raise", e
            diff = "gpuarr's result could not be read back"
    if diff is None:
        return None
    key = (case.label, np_kind, type(np_value).__name__ if np_kind == "raise" else "",
           ga_kind, type(ga_value).__name__ if ga_kind == "raise" else "")
    return key, (f"{describe_call(case)} [{case.label}]: NumPy "
                 f"{describe_outcome(np_kind, np_value)}; gpuarr "
                 f"{describe_outcome(ga_kind, ga_value)} ({diff})")


# --- the tests ----------------------------------------------------------------------------


NAMES = sorted(SPECS)


# Drawing every function's calls takes about a minute on one core: the host suite checks
# one function of each calling convention, ``python tests/test_error_parity.py`` all of
# them.
HOST_SAMPLE = [
    "add", "sqrt", "ldexp", "add.reduce", "subtract.accumulate", "multiply.outer", "divmod",
    "clip", "sum", "std", "argmax", "cumsum", "percentile", "average", "reshape",
    "concatenate", "split", "pad", "moveaxis", "take", "put", "take_along_axis", "choose",
    "where", "sort", "partition", "lexsort", "unique", "isin", "matmul", "tensordot",
    "einsum", "linalg.solve", "linalg.cholesky", "linalg.norm", "linalg.multi_dot",
    "fft.fftn", "fft.irfft", "zeros", "arange", "linspace", "histogram", "bincount", "interp",
    "shape",
]


def mismatches(name, side=GPUARR):
    """AssertionError's message for the calls of ``name`` on which ``side`` does not do
    what NumPy does, or None."""
    failures = {}
    cases = examples(name)
    for case in cases:
        found = check_case(case, side)
        if found:
            # One line per kind of mismatch: the variant and both outcomes' types.
            failures.setdefault(*found)
    if not failures:
        return None
    lines = list(failures.values())
    head = f"{len(lines)} kind(s) of mismatch in {len(cases)} calls: " + " || ".join(lines[:3])
    return "\n".join([head] + lines[3:])


@gpu_test
@pytest.mark.parametrize("name", NAMES)
def test_same_outcome_as_numpy(name):
    """Every drawn call: the same exception type as NumPy's, or equal results (one line
    per kind of mismatch: the call, its variant, both outcomes)."""
    message = mismatches(name)
    if message:
        raise AssertionError(message)


@pytest.mark.parametrize("name", HOST_SAMPLE)
def test_the_harness_compared_with_itself(name):
    """With NumPy standing in for gpuarr, no call differs: what the GPU test reports is
    gpuarr's, not the harness's (its copies, views, aliases and comparisons)."""
    message = mismatches(name, STANDIN)
    assert message is None, message


def numpy_summary(name):
    """What NumPy does with the calls drawn for ``name``: counts by outcome, the valid
    calls it rejects, and the labels of the calls it accepts and rejects."""
    raised, accepted, valid_rejected = {}, 0, []
    labels = {}
    for case in examples(name):
        kind_, value, _, _ = run_numpy(case)
        if kind_ == "raise":
            key = public_exception_type(value).__name__
            raised[key] = raised.get(key, 0) + 1
            if case.label == "valid":
                valid_rejected.append(f"{describe_call(case)}: {describe_outcome(kind_, value)}")
        else:
            accepted += 1
        labels.setdefault(case.label, [0, 0])[kind_ == "raise"] += 1
    return raised, accepted, valid_rejected, labels


@pytest.mark.parametrize("name", HOST_SAMPLE)
def test_numpy_side_of_the_draws(name):
    """The draws test something: NumPy rejects some calls and accepts others, and accepts
    every call drawn as valid (for the functions whose valid calls cannot fail on their
    values)."""
    raised, accepted, valid_rejected, _ = numpy_summary(name)
    assert raised, f"{name}: NumPy raised on none of the {accepted} calls drawn"
    assert accepted, f"{name}: NumPy raised on every call drawn: {raised}"
    if SPECS[name].strict:
        assert not valid_rejected, f"{name}: valid calls NumPy rejects: {valid_rejected[:3]}"


def _public_functions():
    """gpuarr's public functions that NumPy has too, by dotted name."""
    names = set()
    for prefix, ns, np_ns in (("", gpuarr, np), ("linalg.", gpuarr.linalg, np.linalg),
                              ("fft.", gpuarr.fft, np.fft), ("emath.", gpuarr.emath, np.emath)):
        exported = getattr(ns, "__all__", None) or [n for n in dir(ns) if not n.startswith("_")]
        for n in exported:
            obj = getattr(ns, n, None)
            if obj is None or isinstance(obj, type) or not callable(obj):
                continue
            if hasattr(np_ns, n):
                names.add(prefix + n)
    return names


def test_every_function_is_covered():
    """A public function NumPy also has is in a table here or in NOT_COVERED with a reason."""
    excluded = {n for names in NOT_COVERED.values() for n in names}
    missing = sorted(_public_functions() - set(SPECS) - excluded)
    assert not missing, f"add these to a table in {__name__} (or to NOT_COVERED): {missing}"
    stale = sorted(n for n in SPECS if not _has(gpuarr, n))
    assert not stale, f"not gpuarr functions: {stale}"
    assert not excluded & set(SPECS), excluded & set(SPECS)
    assert excluded <= _public_functions(), excluded - _public_functions()


def _has(root, dotted):
    try:
        _resolve(root, dotted)
        return True
    except AttributeError:
        return False


def test_the_calls_are_the_same_every_time():
    first = [describe_call(c) + c.label for c in examples("take")]
    again = sum((_draw_calls(SPECS["take"], chosen, VARIANT_EXAMPLES)
                 for chosen in _variants(SPECS["take"])),
                _draw_calls(SPECS["take"], (None, "valid"), VALID_EXAMPLES))
    assert [describe_call(c) + c.label for c in again] == first


def main(argv):
    """Prints, per function (all, or those named), what NumPy does with the drawn calls,
    and fails where ``test_numpy_side_of_the_draws`` would."""
    names = argv or NAMES
    totals, problems = {}, []
    n_calls = n_raised = 0
    for name in names:
        raised, accepted, valid_rejected, labels = numpy_summary(name)
        n_calls += accepted + sum(raised.values())
        n_raised += sum(raised.values())
        for k, v in raised.items():
            totals[k] = totals.get(k, 0) + v
        bad_ok = sorted(lbl for lbl, (ok, err) in labels.items() if lbl != "valid" and not err)
        print(f"{name:28s} ok {accepted:3d}  raised {sum(raised.values()):3d} "
              f"{dict(sorted(raised.items()))}"
              + (f"  VALID REJECTED {len(valid_rejected)}: {valid_rejected[0]}"
                 if valid_rejected else "")
              + (f"  accepted-only variants: {bad_ok}" if bad_ok and len(names) < 20 else ""))
        harness = mismatches(name, STANDIN)
        if harness:
            print(f"  HARNESS: {harness}")
        if not raised or not accepted or (valid_rejected and SPECS[name].strict) or harness:
            problems.append(name)
    print(f"\n{len(names)} functions, {n_calls} calls, NumPy raised on {n_raised}: "
          f"{dict(sorted(totals.items(), key=lambda kv: -kv[1]))}")
    if problems:
        print(f"draws that test nothing or valid calls NumPy rejects: {problems}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
