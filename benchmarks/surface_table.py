"""The rows of the ``surface`` benchmark group (benchmarks/surface.py turns them into
workloads): one row per public function or operator family, at the sizes a user meets.

A row names the function, its family and its size class, builds its host inputs once
(NumPy arrays and plain values), and gives each library's call ``call(xp, *args)``, where
``xp`` is the library's module and ``args`` the inputs on the device. ``calls["numpy"]``
computes the reference the other libraries are checked against (``ref`` replaces it where
NumPy's own result is less accurate than the devices'). ``prep(xp, *args) -> args`` runs
once, untimed, after the transfer: views for the strided rows, generators for the random
rows. ``check(args, got, expected, lib)`` replaces the comparison with NumPy where results
may legitimately differ (sort order of ties, eigenvector signs, random values) or where
NumPy's reference would cost seconds (4096x4096 factorizations: residuals instead).

Sizes: ``latency`` rows have 1000 elements (32x32 matrices), ``bandwidth`` rows 16M
elements (2**24) or a 4096x4096 matrix; linalg rows are ``batched`` (16-64), ``medium``
(512) or ``large`` (4096).
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import os
import shutil
import tempfile
from typing import Callable, Mapping

import numpy as np

from benchmarks.harness import check as _require

L = 1000            # latency size (elements)
B = 1 << 24         # bandwidth size (elements, 64 MB of float32)
M = 4096            # side of a bandwidth matrix (4096**2 == B)
S = 32              # side of a latency matrix

LIBS = ("numpy", "gpuarr", "cupy", "torch")

FAMILIES = (
    "ufunc-arithmetic", "ufunc-transcendental", "ufunc-comparison", "ufunc-bitwise",
    "reduction", "scan", "sort", "indexing-get", "indexing-set", "copy", "creation",
    "random", "statistics", "linalg-batched", "linalg-medium", "linalg-large", "fft", "io",
)
SIZES = ("latency", "bandwidth", "batched", "medium", "large")


@dataclasses.dataclass(frozen=True)
class Row:
    name: str
    family: str
    size: str
    inputs: Callable[[], tuple]
    calls: Mapping[str, Callable]
    prep: Mapping[str, Callable] = dataclasses.field(default_factory=dict)
    ref: Callable | None = None
    check: Callable | None = None
    rtol: float | None = None
    # "run" (3 whole synchronised runs) where a call may take more than a few milliseconds
    # in one of the libraries (a looped batched factorization, say): the call budget runs at
    # least 50 calls.
    kind: str = "call"


# ------------------------------------------------------------------------ host inputs


def _dt(d):
    return np.dtype(d)


@functools.lru_cache(maxsize=12)
def host(dtype, shape, seed=0, lo=None, hi=None):
    """Deterministic values of ``dtype``: floats (and both parts of complex numbers) in
    [0.5, 2) (inside every transcendental's domain, no division by zero), integers in
    [1, 100), booleans half true; ``lo``/``hi`` set another range. Cached: never write
    into the result."""
    d = _dt(dtype)
    rng = np.random.default_rng(seed)
    if d.kind == "b":
        return rng.random(shape) < 0.5
    if d.kind in "iu":
        return rng.integers(1 if lo is None else lo, 100 if hi is None else hi, shape,
                            dtype=d)
    lo, hi = (0.5 if lo is None else lo), (2.0 if hi is None else hi)
    if d.kind == "c":
        part = _dt(f"f{d.itemsize // 2}")
        return (rng.uniform(lo, hi, shape).astype(part)
                + 1j * rng.uniform(lo, hi, shape).astype(part)).astype(d)
    return rng.uniform(lo, hi, shape).astype(d)


def vec(dtype, n, seed=0, lo=None, hi=None):
    return lambda: (host(dtype, (n,) if isinstance(n, int) else n, seed, lo, hi),)


def pair(dtype, n, lo=None, hi=None, dtype2=None, lo2=None, hi2=None):
    shape = (n,) if isinstance(n, int) else n
    return lambda: (host(dtype, shape, 0, lo, hi), host(dtype2 or dtype, shape, 1, lo2, hi2))


def args(*make):
    """Inputs made of several builders' results and plain values, in order."""
    def build():
        out = []
        for m in make:
            out.extend(m() if callable(m) else (m,))
        return tuple(out)
    return build


@functools.lru_cache(maxsize=6)
def _well_conditioned64(shape, spd, seed):
    n = shape[-1]
    u = np.random.default_rng(seed).uniform(0.5, 2.0, shape)
    u = u @ np.swapaxes(u, -1, -2) / n if spd else u / n
    return u + np.eye(n)


@functools.lru_cache(maxsize=6)
def well_conditioned(dtype, shape, spd=False, seed=0):
    """Square matrices (stacked when ``shape`` has 3 dimensions) close to the identity:
    I + U/n, U in [0.5, 2); with ``spd``, (U U^T)/n + I, symmetric positive definite."""
    return _well_conditioned64(shape, spd, seed).astype(_dt(dtype))


def square(dtype, shape, spd=False):
    return lambda: (well_conditioned(dtype, shape, spd),)


def square_rhs(dtype, shape):
    return lambda: (well_conditioned(dtype, shape), host(dtype, shape[:-1] + (1,), 1))


@functools.lru_cache(maxsize=4)
def sorted_host(dtype, n, seed=0):
    return np.sort(host(dtype, (n,), seed))


@functools.lru_cache(maxsize=4)
def indices(n, count, dtype="int64", seed=2):
    return np.random.default_rng(seed).integers(0, n, count, dtype=_dt(dtype))


@functools.lru_cache(maxsize=2)
def unique_indices(n, count):
    return np.unique(indices(n, count))


def scatter(n, count):
    """A target of ``n`` float32, distinct indices into it, values for them."""
    return lambda: (host("float32", (n,)), unique_indices(n, count),
                    host("float32", (unique_indices(n, count).size,), 1))


_TMP = []


def tmpdir():
    if not _TMP:
        _TMP.append(tempfile.mkdtemp(prefix="gpuarr-surface-"))
        atexit.register(shutil.rmtree, _TMP[0], True)
    return _TMP[0]


def saved_file(dtype, n):
    """A .npy file of ``host(dtype, n)`` written by NumPy (the input of the load rows)."""
    def build():
        path = os.path.join(tmpdir(), f"in_{_dt(dtype).name}_{n}.npy")
        if not os.path.exists(path):
            np.save(path, host(dtype, (n,)))
        return (path,)
    return build


def save_target(dtype, n):
    return lambda: (host(dtype, (n,)), os.path.join(tmpdir(), f"out_{_dt(dtype).name}_{n}.npy"))


# --------------------------------------------------------------------------- checks


def tolerance(*dtypes):
    """rtol for results of ``dtypes`` (the least precise wins)."""
    rt = 0.0
    for d in dtypes:
        d = _dt(d)
        if d.kind == "c":
            d = _dt(f"f{d.itemsize // 2}")
        rt = max(rt, {2: 5e-3, 4: 1e-4, 8: 1e-10}.get(d.itemsize, 0.0) if d.kind == "f"
                 else 0.0)
    return rt


def _leaves(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def compare(got, expected, rtol=None, lib="gpuarr", what="result", scaled=False):
    """``got`` (host arrays, or a tuple of them) against NumPy's ``expected``: same
    structure and shapes, gpuarr's dtype equal to NumPy's, values equal (integers,
    booleans) or within rtol (floats; ``scaled``: atol relative to the root mean square of
    NumPy's values, for transforms whose outputs span many magnitudes)."""
    g, e = _leaves(got), _leaves(expected)
    _require(len(g) == len(e), f"{what}: {len(g)} results, NumPy gives {len(e)}")
    for i, (x, y) in enumerate(zip(g, e)):
        x, y = np.asarray(x), np.asarray(y)
        name = what if len(g) == 1 else f"{what}[{i}]"
        _require(x.shape == y.shape, f"{name}: shape {x.shape}, NumPy's {y.shape}")
        if lib == "gpuarr":
            _require(x.dtype == y.dtype, f"{name}: dtype {x.dtype}, NumPy's {y.dtype}")
        rt = tolerance(x.dtype, y.dtype) if rtol is None else rtol
        if (rt == 0.0 and x.dtype.kind in "biu" and y.dtype.kind in "biu") or \
                "b" in (x.dtype.kind, y.dtype.kind):
            ok = np.array_equal(x, y)
        else:
            atol = rt * (float(np.sqrt(np.mean(np.abs(y.astype(np.complex128)) ** 2)))
                         if scaled and y.size else 1.0)
            # The fast test first (a few passes over 16M elements, per library and row);
            # NumPy's isclose, which also matches NaNs, only when it fails.
            with np.errstate(invalid="ignore", over="ignore"):
                ok = bool(np.all(np.abs(x - y) <= atol + rt * np.abs(y)))
            ok = ok or np.allclose(x, y, rtol=rt, atol=atol, equal_nan=True)
        if not ok:
            bad = np.argwhere(~np.isclose(x, y, rtol=rt, atol=atol, equal_nan=True))
            at = tuple(bad[0]) if len(bad) else ()
            _require(False, f"{name}: differs from NumPy's (rtol {rt:g}); first at {at}: "
                            f"{x[at] if at else x.ravel()[:3]} vs {y[at] if at else y.ravel()[:3]}")


def check_scaled(a, got, expected, lib, rtol=None):
    compare(got, expected(), rtol, lib, scaled=True)


# The rows that use these checks take NumPy's sort as their reference (``ref=sort_ref()``):
# ties and the order around kth may legitimately differ from NumPy's own argsort/partition.
def sort_ref(axis=-1):
    return lambda np_, a: np_.sort(a, axis=axis)


def check_sorted_by(axis=-1):
    """An argsort: ``a`` taken along the result is NumPy's sort."""
    def chk(a, got, expected, lib):
        a = a[0]
        idx = np.asarray(got)
        _require(idx.shape == a.shape, f"argsort: shape {idx.shape}, expected {a.shape}")
        _require(np.array_equal(np.take_along_axis(a, idx.astype(np.int64), axis),
                                expected()), "argsort: a[result] is not sorted")
    return chk


def check_partition(kth, axis=-1, indices=False):
    """A partition (of ``a`` taken at the result, for an argpartition): the sorted value
    at kth, nothing larger before it, nothing smaller after it."""
    def chk(a, got, expected, lib):
        a, p = a[0], np.asarray(got)
        _require(p.shape == a.shape, f"partition: shape {p.shape}")
        if indices:
            p = np.take_along_axis(a, p.astype(np.int64), axis)
        p = np.moveaxis(p, axis, -1)
        s = np.moveaxis(expected(), axis, -1)
        _require(np.array_equal(p[..., kth], s[..., kth]), "partition: a[kth] is not in place")
        _require(bool(np.all(p[..., :kth].max(axis=-1) <= p[..., kth]))
                 and bool(np.all(p[..., kth + 1:].min(axis=-1) >= p[..., kth])),
                 "partition: elements on the wrong side of kth")
    return chk


def check_moments(a, got, expected, lib):
    """Random values: shape (and gpuarr's dtype) as NumPy's sample's, mean and standard
    deviation within about 4 standard errors of the difference of two samples."""
    g, e = np.asarray(got), np.asarray(expected())
    _require(g.shape == e.shape, f"random: shape {g.shape}, NumPy's {e.shape}")
    if lib == "gpuarr":
        _require(g.dtype == e.dtype, f"random: dtype {g.dtype}, NumPy's {e.dtype}")
    g, e = g.astype(np.float64).ravel(), e.astype(np.float64).ravel()
    sd, se = float(e.std()), float(e.std()) / np.sqrt(e.size)
    _require(abs(g.mean() - e.mean()) <= 6 * se + 1e-9,
             f"random: mean {g.mean()} vs NumPy's {e.mean()}")
    _require(abs(g.std() - sd) <= 8 * se + 1e-9, f"random: std {g.std()} vs NumPy's {sd}")


def check_counts(a, got, expected, lib):
    """Histogram counts (and edges, when the result has them): the same total, and at most
    1 in 10^5 of the values in another bin (values within an ulp of an edge may fall on
    either side, by the order of the bin arithmetic)."""
    g, e = _leaves(got), _leaves(expected())
    _require(len(g) == len(e), f"histogram: {len(g)} results, NumPy gives {len(e)}")
    counts, ecounts = np.asarray(g[0]), np.asarray(e[0])
    _require(counts.shape == ecounts.shape, f"histogram: shape {counts.shape}")
    if lib == "gpuarr":
        _require(counts.dtype == ecounts.dtype, f"histogram: dtype {counts.dtype}")
    total = float(ecounts.sum())
    _require(float(counts.sum()) == total, f"histogram: {counts.sum()} counted, NumPy {total}")
    moved = float(np.abs(counts.astype(np.float64) - ecounts).sum()) / 2
    _require(moved <= 1e-5 * total + 1, f"histogram: {moved:g} values in other bins")
    if len(g) > 1:
        compare(g[1], e[1], lib=lib, what="histogram edges")


def check_permutation(a, got, expected, lib):
    g = np.asarray(got)
    _require(np.array_equal(np.sort(g), np.arange(g.size)), "permutation: not a permutation")


def check_shape_only(a, got, expected, lib):
    g, e = np.asarray(got), expected()
    _require(g.shape == e.shape, f"empty: shape {g.shape}, NumPy's {e.shape}")
    if lib == "gpuarr":
        _require(g.dtype == e.dtype, f"empty: dtype {g.dtype}, NumPy's {e.dtype}")


def check_saved(a, got, expected, lib):
    data, path = a
    compare(np.load(path), data, lib=lib, what="saved file")


def _relres(lhs, rhs):
    return float(np.linalg.norm(lhs - rhs) / max(np.linalg.norm(rhs), 1e-30))


def _tol(a):
    return 1e-3 if _dt(a.dtype).itemsize <= 4 or a.dtype == np.complex64 else 1e-8


def check_eigh(values_only=False, cheap=False):
    """Eigenvalues against NumPy's (or, ``cheap``, their sum and sum of squares against the
    trace and the Frobenius norm), eigenvectors by the residual A V - V diag(w) (``cheap``:
    of 8 of them)."""
    def chk(args, got, expected, lib):
        a = args[0].astype(np.float64)
        w, v = (got, None) if values_only else got
        w = np.asarray(w, np.float64)
        tol = _tol(args[0])
        if cheap:
            _require(bool(np.all(np.diff(w, axis=-1) >= -tol * np.abs(w[..., 1:]))),
                     "eigenvalues not ascending")
            _require(abs(w.sum() - np.trace(a)) <= tol * np.abs(w).sum(), "sum(w) != trace(A)")
            _require(abs((w * w).sum() - (a * a).sum()) <= tol * (a * a).sum(),
                     "sum(w**2) != |A|_F**2")
        else:
            ew = expected()
            compare(w, ew[0] if not values_only else ew, tol, "any", "eigenvalues")
        if v is not None:
            v = np.asarray(v, np.float64)
            if cheap:
                v, w = v[..., :8], w[..., :8]
            _require(_relres(a @ v, v * w[..., None, :]) <= tol * 10, "A V != V diag(w)")
    return chk


def check_qr(cheap=False):
    def chk(args, got, expected, lib):
        a = args[0].astype(np.float64)
        q, r = (np.asarray(x, np.float64) for x in got)
        tol = _tol(args[0])
        _require(np.allclose(np.tril(r, -1), 0), "R is not upper triangular")
        if cheap:
            _require(np.allclose((r * r).sum(axis=-2), (a * a).sum(axis=-2), rtol=tol),
                     "column norms of R differ from A's")
            _require(_relres(q @ r[..., :8], a[..., :8]) <= tol, "Q R != A (8 columns)")
        else:
            _require(_relres(q @ r, a) <= tol, "Q R != A")
    return chk


def check_svd(args, got, expected, lib):
    a = args[0].astype(np.float64)
    u, s, vh = (np.asarray(x, np.float64) for x in got)
    tol = _tol(args[0])
    compare(s, expected()[1], tol, "any", "singular values")
    _require(_relres((u * s[..., None, :]) @ vh, a) <= tol, "U S Vh != A")


def check_solve(args, got, expected, lib):
    a, b = (x.astype(np.float64) for x in args)
    x = np.asarray(got, np.float64)
    _require(x.shape == b.shape, f"solve: shape {x.shape}")
    _require(_relres(a @ x, b) <= _tol(args[0]), "A x != b")


def check_inv_cheap(args, got, expected, lib):
    a = args[0].astype(np.float64)
    b = np.random.default_rng(3).random(a.shape[-1])
    _require(_relres(a @ (np.asarray(got, np.float64) @ b), b) <= _tol(args[0]),
             "A (inv(A) b) != b")


def check_cholesky_cheap(args, got, expected, lib):
    a = args[0].astype(np.float64)
    c = np.asarray(got, np.float64)
    _require(np.allclose(np.triu(c, 1), 0), "L is not lower triangular")
    _require(_relres(c @ c[:8].T, a[:, :8]) <= _tol(args[0]), "L L^T != A (8 columns)")


def check_matmul_cheap(args, got, expected, lib):
    a, b = (x.astype(np.float64) for x in args)
    g = np.asarray(got, np.float64)
    _require(g.shape == (a.shape[0], b.shape[1]), f"matmul: shape {g.shape}")
    _require(_relres(g[:, :8], a @ b[:, :8]) <= _tol(args[0]), "A B != NumPy's (8 columns)")


# ---------------------------------------------------------------------------- rows

ROWS: list[Row] = []


def api(f, torch=None):
    """The same NumPy-API call for NumPy, gpuarr and CuPy; PyTorch's where it has the op."""
    calls = {"numpy": f, "gpuarr": f, "cupy": f}
    if torch is not None:
        calls["torch"] = torch
    return calls


def add(name, family, size, inputs, calls, prep=None, **kw):
    if callable(prep):
        prep = {lib: prep for lib in LIBS}
    ROWS.append(Row(name, family, size, inputs, calls, prep or {}, **kw))


def _label(n):
    if isinstance(n, tuple):
        return "x".join(map(str, n))
    return "16M" if n == B else str(n)


def _torch_ok(d):
    return _dt(d).name not in ("uint16", "uint32", "uint64")


def ufunc(family, op, dtypes, sizes=(L, B), torch=None, arity=2, lo2=None, hi2=None,
          lo=None, hi=None, torch_dtypes=None):
    for d in dtypes:
        for n in sizes:
            inputs = (pair(d, n, lo, hi, lo2=lo2, hi2=hi2) if arity == 2
                      else vec(d, n, 0, lo, hi))
            use_torch = torch and _torch_ok(d) and (torch_dtypes is None or d in torch_dtypes)
            add(f"{op} {_dt(d).name} {_label(n)}", family,
                "latency" if n == L else "bandwidth", inputs,
                api(_ufunc_call(op), _torch_call(torch) if use_torch else None))


def _ufunc_call(name):
    return lambda xp, *a: getattr(xp, name)(*a)


def _torch_call(name):
    return lambda t, *a: getattr(t, name)(*a)


FLOATS = ("float16", "float32", "float64")
COMPLEX = ("complex64", "complex128")
INTS = ("int8", "int16", "int32", "int64")
EVERY = FLOATS + COMPLEX + INTS + ("uint8", "bool")

# -- ufuncs: arithmetic. add over every dtype; the others over one or two.
ufunc("ufunc-arithmetic", "add", EVERY, torch="add",
      torch_dtypes=FLOATS + COMPLEX + INTS + ("uint8",))
ufunc("ufunc-arithmetic", "subtract", ("float32",), torch="sub")
ufunc("ufunc-arithmetic", "multiply", ("float64", "complex64"), torch="mul")
ufunc("ufunc-arithmetic", "true_divide", ("float32", "int32"), torch="true_divide")
ufunc("ufunc-arithmetic", "floor_divide", ("int64",), torch="floor_divide")
ufunc("ufunc-arithmetic", "remainder", ("float32",), torch="remainder")
ufunc("ufunc-arithmetic", "power", ("float32",), torch="pow")
ufunc("ufunc-arithmetic", "negative", ("int8",), torch="neg", arity=1)
ufunc("ufunc-arithmetic", "absolute", ("complex64",), torch="abs", arity=1)
ufunc("ufunc-arithmetic", "maximum", ("float16",), torch="maximum")

# -- transcendental
ufunc("ufunc-transcendental", "exp", FLOATS + COMPLEX, torch="exp", arity=1)
ufunc("ufunc-transcendental", "log", ("float32", "float64"), torch="log", arity=1)
ufunc("ufunc-transcendental", "sin", ("float32", "complex64"), torch="sin", arity=1)
ufunc("ufunc-transcendental", "sqrt", ("float64", "complex128"), torch="sqrt", arity=1)
ufunc("ufunc-transcendental", "tanh", ("float32",), torch="tanh", arity=1)
ufunc("ufunc-transcendental", "arctan2", ("float64",), torch="atan2")
ufunc("ufunc-transcendental", "log1p", ("float32",), torch="log1p", arity=1)
ufunc("ufunc-transcendental", "expm1", ("float64",), torch="expm1", arity=1)

# -- comparison and logic
ufunc("ufunc-comparison", "less", ("float32", "float64", "int8", "int64"), torch="lt")
ufunc("ufunc-comparison", "equal", ("float32", "bool", "complex128"), torch="eq",
      torch_dtypes=("float32", "bool"))
ufunc("ufunc-comparison", "isnan", ("float32",), torch="isnan", arity=1)
ufunc("ufunc-comparison", "isfinite", ("float64",), torch="isfinite", arity=1)
ufunc("ufunc-comparison", "logical_and", ("bool",), torch="logical_and")
ufunc("ufunc-comparison", "logical_not", ("bool",), torch="logical_not", arity=1)

# -- bitwise
ufunc("ufunc-bitwise", "bitwise_and", ("int8", "int32", "int64", "bool"), torch="bitwise_and")
ufunc("ufunc-bitwise", "bitwise_or", ("int16",), torch="bitwise_or")
ufunc("ufunc-bitwise", "bitwise_xor", ("uint8",), torch="bitwise_xor")
ufunc("ufunc-bitwise", "invert", ("int64", "bool"), torch="bitwise_not", arity=1)
ufunc("ufunc-bitwise", "left_shift", ("int32",), torch="bitwise_left_shift", lo2=0, hi2=20)
ufunc("ufunc-bitwise", "right_shift", ("int8",), torch="bitwise_right_shift", lo2=0, hi2=7)

# -- strided and broadcast operands
add("add float32 16M strided [::2]", "ufunc-arithmetic", "bandwidth", pair("float32", 2 * B),
    api(lambda xp, a, b: xp.add(a, b), lambda t, a, b: t.add(a, b)),
    prep=lambda xp, a, b: (a[::2], b[::2]))
add("add float32 16M reversed [::-1]", "ufunc-arithmetic", "bandwidth", pair("float32", B),
    api(lambda xp, a, b: xp.add(a, b)), prep=lambda xp, a, b: (a[::-1], b))
add("add float32 4096x4096 a.T + b", "ufunc-arithmetic", "bandwidth", pair("float32", (M, M)),
    api(lambda xp, a, b: xp.add(a, b), lambda t, a, b: t.add(a, b)),
    prep=lambda xp, a, b: (a.T, b))
add("add float64 4096x4096 + row (broadcast)", "ufunc-arithmetic", "bandwidth",
    args(vec("float64", (M, M)), vec("float64", (M,), 1)),
    api(lambda xp, a, b: xp.add(a, b), lambda t, a, b: t.add(a, b)))
add("multiply float32 4096x4096 by a scalar", "ufunc-arithmetic", "bandwidth",
    vec("float32", (M, M)), api(lambda xp, a: a * 3.0, lambda t, a: a * 3.0))
add("multiply float32 1000 by a scalar", "ufunc-arithmetic", "latency",
    vec("float32", L), api(lambda xp, a: a * 3.0, lambda t, a: a * 3.0))
add("exp float32 16M strided [::2]", "ufunc-transcendental", "bandwidth", vec("float32", 2 * B),
    api(lambda xp, a: xp.exp(a), lambda t, a: t.exp(a)), prep=lambda xp, a: (a[::2],))
add("less float32 4096x4096 a.T < b", "ufunc-comparison", "bandwidth", pair("float32", (M, M)),
    api(lambda xp, a, b: xp.less(a, b), lambda t, a, b: t.lt(a, b)),
    prep=lambda xp, a, b: (a.T, b))


# -- reductions, whole and along each axis
def _red(name, d, shape, f, torch=None, rtol=None, lo=None, hi=None, prep=None, ref=None):
    size = "latency" if np.prod(shape) <= L * 2 else "bandwidth"
    add(name, "reduction", size, vec(d, shape, 0, lo, hi), api(f, torch), prep=prep, rtol=rtol,
        ref=ref)


for d in ("float32", "float64", "int32"):
    _red(f"sum {d} 16M", d, (B,), lambda xp, a: xp.sum(a), lambda t, a: t.sum(a),
         rtol=1e-4 if d == "float32" else None)
_red("sum float32 1000", "float32", (L,), lambda xp, a: xp.sum(a), lambda t, a: t.sum(a))
_red("sum bool 16M", "bool", (B,), lambda xp, a: xp.sum(a), lambda t, a: t.sum(a))
_red("sum float32 16M strided [::2]", "float32", (2 * B,), lambda xp, a: xp.sum(a),
     lambda t, a: t.sum(a), rtol=1e-4, prep=lambda xp, a: (a[::2],))
_red("mean float32 16M", "float32", (B,), lambda xp, a: xp.mean(a), lambda t, a: t.mean(a))
_red("max float32 16M", "float32", (B,), lambda xp, a: xp.max(a), lambda t, a: t.amax(a))
_red("min int64 16M", "int64", (B,), lambda xp, a: xp.min(a), lambda t, a: t.amin(a))
_red("argmax float32 16M", "float32", (B,), lambda xp, a: xp.argmax(a), lambda t, a: t.argmax(a))
_red("argmax float32 1000", "float32", (L,), lambda xp, a: xp.argmax(a), lambda t, a: t.argmax(a))
_red("prod float64 16M", "float64", (B,), lambda xp, a: xp.prod(a), lambda t, a: t.prod(a),
     lo=0.999999, hi=1.000001, rtol=1e-8)
_red("any bool 16M", "bool", (B,), lambda xp, a: xp.any(a), lambda t, a: t.any(a))
_red("all bool 16M", "bool", (B,), lambda xp, a: xp.all(a), lambda t, a: t.all(a))
_red("std float32 16M", "float32", (B,), lambda xp, a: xp.std(a),
     lambda t, a: t.std(a, correction=0), rtol=1e-3)
_red("var float64 16M", "float64", (B,), lambda xp, a: xp.var(a),
     lambda t, a: t.var(a, correction=0))
_red("norm float32 16M", "float32", (B,), lambda xp, a: xp.linalg.norm(a),
     lambda t, a: t.linalg.vector_norm(a), rtol=1e-4)
_red("count_nonzero bool 16M", "bool", (B,), lambda xp, a: xp.count_nonzero(a),
     lambda t, a: t.count_nonzero(a))
for ax in (0, 1):
    _red(f"sum float32 4096x4096 axis={ax}", "float32", (M, M),
         lambda xp, a, ax=ax: xp.sum(a, axis=ax), lambda t, a, ax=ax: t.sum(a, dim=ax))
    _red(f"sum float32 32x32 axis={ax}", "float32", (S, S),
         lambda xp, a, ax=ax: xp.sum(a, axis=ax), lambda t, a, ax=ax: t.sum(a, dim=ax))
    _red(f"max float64 4096x4096 axis={ax}", "float64", (M, M),
         lambda xp, a, ax=ax: xp.max(a, axis=ax), lambda t, a, ax=ax: t.amax(a, dim=ax))
    _red(f"argmax float32 4096x4096 axis={ax}", "float32", (M, M),
         lambda xp, a, ax=ax: xp.argmax(a, axis=ax), lambda t, a, ax=ax: t.argmax(a, dim=ax))
    _red(f"mean float32 4096x4096 axis={ax}", "float32", (M, M),
         lambda xp, a, ax=ax: xp.mean(a, axis=ax), lambda t, a, ax=ax: t.mean(a, dim=ax))
_red("std float64 4096x4096 axis=0", "float64", (M, M), lambda xp, a: xp.std(a, axis=0),
     lambda t, a: t.std(a, dim=0, correction=0))
_red("sum int32 4096x4096 axis=1", "int32", (M, M), lambda xp, a: xp.sum(a, axis=1),
     lambda t, a: t.sum(a, dim=1))
_red("sum float32 16384x1024 axis=1", "float32", (16384, 1024), lambda xp, a: xp.sum(a, axis=1),
     lambda t, a: t.sum(a, dim=1))
_red("sum float32 256x256x256 axis=(0, 2)", "float32", (256, 256, 256),
     lambda xp, a: xp.sum(a, axis=(0, 2)), lambda t, a: t.sum(a, dim=(0, 2)), rtol=1e-4)


# -- scans, 1-d and along each axis
def _f64_ref(f):
    """NumPy's scan in float64, cast back: NumPy's float32 scan adds sequentially and is
    less accurate than the devices' tree scans."""
    return lambda np_, a: f(np_, a.astype(np.float64)).astype(a.dtype)


def _scan(name, d, shape, f, torch=None, lo=None, hi=None, prep=None, exact_ref=False,
          rtol=None):
    size = "latency" if np.prod(shape) <= L * 2 else "bandwidth"
    float32 = _dt(d) == np.float32
    add(name, "scan", size, vec(d, shape, 0, lo, hi), api(f, torch), prep=prep,
        ref=_f64_ref(f) if float32 and not exact_ref else None,
        rtol=rtol if rtol is not None else (1e-3 if float32 else None))


_cumsum = lambda xp, a: xp.cumsum(a)  # noqa: E731
_tcumsum = lambda t, a: t.cumsum(a, dim=0)  # noqa: E731
for d in ("float32", "float64", "int32", "int64"):
    _scan(f"cumsum {d} 16M", d, (B,), _cumsum, _tcumsum)
_scan("cumsum float32 1000", "float32", (L,), _cumsum, _tcumsum)
_scan("cumsum int64 1000", "int64", (L,), _cumsum, _tcumsum)
_scan("cumsum bool 16M", "bool", (B,), _cumsum, _tcumsum)
_scan("cumsum float32 16M strided [::2]", "float32", (2 * B,), _cumsum, _tcumsum,
      prep=lambda xp, a: (a[::2],))
for ax in (0, 1):
    _scan(f"cumsum float32 4096x4096 axis={ax}", "float32", (M, M),
          lambda xp, a, ax=ax: xp.cumsum(a, axis=ax), lambda t, a, ax=ax: t.cumsum(a, dim=ax))
_scan("cumprod float64 16M", "float64", (B,), lambda xp, a: xp.cumprod(a),
      lambda t, a: t.cumprod(a, dim=0), lo=0.999999, hi=1.000001, rtol=1e-8)
_scan("cumprod float64 1M", "float64", (1 << 20,), lambda xp, a: xp.cumprod(a),
      lambda t, a: t.cumprod(a, dim=0), lo=0.99999, hi=1.00001, rtol=1e-9)
_scan("cumprod float32 4096x4096 axis=1", "float32", (M, M), lambda xp, a: xp.cumprod(a, axis=1),
      lambda t, a: t.cumprod(a, dim=1), lo=0.9999, hi=1.0001)
_scan("diff float32 16M", "float32", (B,), lambda xp, a: xp.diff(a), lambda t, a: t.diff(a),
      exact_ref=True)

# -- sorting and searching
for d in ("float32", "float64", "int32", "int64"):
    add(f"sort {d} 16M", "sort", "bandwidth", vec(d, B, 0, None, None if d[0] == "f" else 1 << 30),
        api(lambda xp, a: xp.sort(a), lambda t, a: t.sort(a).values))
add("sort float32 1000", "sort", "latency", vec("float32", L),
    api(lambda xp, a: xp.sort(a), lambda t, a: t.sort(a).values))
add("sort float32 4096x4096 axis=-1", "sort", "bandwidth", vec("float32", (M, M)),
    api(lambda xp, a: xp.sort(a, axis=-1), lambda t, a: t.sort(a, dim=-1).values))
add("sort float32 4096x4096 axis=0", "sort", "bandwidth", vec("float32", (M, M)),
    api(lambda xp, a: xp.sort(a, axis=0), lambda t, a: t.sort(a, dim=0).values))
add("sort float32 65536x256 rows", "sort", "bandwidth", vec("float32", (65536, 256)),
    api(lambda xp, a: xp.sort(a, axis=-1), lambda t, a: t.sort(a, dim=-1).values))
add("sort float32 32x32 rows", "sort", "latency", vec("float32", (S, S)),
    api(lambda xp, a: xp.sort(a, axis=-1), lambda t, a: t.sort(a, dim=-1).values))
add("argsort float32 16M", "sort", "bandwidth", vec("float32", B),
    api(lambda xp, a: xp.argsort(a), lambda t, a: t.argsort(a)), check=check_sorted_by(), ref=sort_ref())
add("argsort float32 1000", "sort", "latency", vec("float32", L),
    api(lambda xp, a: xp.argsort(a), lambda t, a: t.argsort(a)), check=check_sorted_by(), ref=sort_ref())
add("argsort int64 16M", "sort", "bandwidth", vec("int64", B, 0, 0, 1 << 40),
    api(lambda xp, a: xp.argsort(a), lambda t, a: t.argsort(a)), check=check_sorted_by(), ref=sort_ref())
add("argsort float32 4096x4096 axis=-1", "sort", "bandwidth", vec("float32", (M, M)),
    api(lambda xp, a: xp.argsort(a, axis=-1), lambda t, a: t.argsort(a, dim=-1)),
    check=check_sorted_by(-1), ref=sort_ref())
add("partition float32 16M", "sort", "bandwidth", vec("float32", B),
    api(lambda xp, a: xp.partition(a, B // 2)), check=check_partition(B // 2),
    ref=sort_ref())
add("partition float32 1000", "sort", "latency", vec("float32", L),
    api(lambda xp, a: xp.partition(a, L // 2)), check=check_partition(L // 2),
    ref=sort_ref())
add("partition float32 4096x4096 axis=-1", "sort", "bandwidth", vec("float32", (M, M)),
    api(lambda xp, a: xp.partition(a, M // 2, axis=-1)), check=check_partition(M // 2),
    ref=sort_ref())
add("argpartition float32 16M", "sort", "bandwidth", vec("float32", B),
    api(lambda xp, a: xp.argpartition(a, B // 2)), check=check_partition(B // 2, indices=True),
    ref=sort_ref())
add("searchsorted float32 16M haystack, 1M needles", "sort", "bandwidth",
    lambda: (sorted_host("float32", B), host("float32", (1 << 20,), 5)),
    api(lambda xp, a, v: xp.searchsorted(a, v), lambda t, a, v: t.searchsorted(a, v)))
add("searchsorted float32 1000 haystack, 1000 needles", "sort", "latency",
    lambda: (sorted_host("float32", L), host("float32", (L,), 5)),
    api(lambda xp, a, v: xp.searchsorted(a, v), lambda t, a, v: t.searchsorted(a, v)))
add("unique int32 16M (65536 values)", "sort", "bandwidth", vec("int32", B, 0, 0, 65536),
    api(lambda xp, a: xp.unique(a), lambda t, a: t.unique(a)))
add("unique int32 16M return_counts", "sort", "bandwidth", vec("int32", B, 0, 0, 65536),
    api(lambda xp, a: xp.unique(a, return_counts=True),
        lambda t, a: t.unique(a, return_counts=True)))
add("unique float32 1000", "sort", "latency", vec("float32", L),
    api(lambda xp, a: xp.unique(a), lambda t, a: t.unique(a)))


# -- indexing: get
def _get(name, size, inputs, f, torch=None, prep=None, **kw):
    add(name, "indexing-get", size, inputs, api(f, torch), prep=prep, **kw)


_idx = lambda n, c, d="int64": (lambda: (indices(n, c, d),))  # noqa: E731
_mask = lambda n: vec("bool", n, 7)  # noqa: E731
_get("slice a[1:-1:3] float32 1000 (view)", "latency", vec("float32", L),
     lambda xp, a: a[1:-1:3], lambda t, a: a[1:-1:3])
_get("slice a[10:500, ::2] float64 4096x4096 (view)", "latency", vec("float64", (M, M)),
     lambda xp, a: a[10:500, ::2], lambda t, a: a[10:500, ::2])
_get("int a[5] float32 1000", "latency", vec("float32", L), lambda xp, a: a[5],
     lambda t, a: a[5])
_get("int a[3, 4] float64 32x32", "latency", vec("float64", (S, S)), lambda xp, a: a[3, 4],
     lambda t, a: a[3, 4])
_get("mask a[m] float32 16M (half true)", "bandwidth", args(vec("float32", B), _mask(B)),
     lambda xp, a, m: a[m], lambda t, a, m: a[m])
_get("mask a[m] float32 1000", "latency", args(vec("float32", L), _mask(L)),
     lambda xp, a, m: a[m], lambda t, a, m: a[m])
_get("fancy a[idx] float32 16M, 4M int64 indices", "bandwidth",
     args(vec("float32", B), _idx(B, 1 << 22)), lambda xp, a, i: a[i], lambda t, a, i: a[i])
_get("fancy a[idx] float32 16M, 4M int32 indices", "bandwidth",
     args(vec("float32", B), _idx(B, 1 << 22, "int32")), lambda xp, a, i: a[i])
_get("fancy a[idx] float32 1000, 100 indices", "latency",
     args(vec("float32", L), _idx(L, 100)), lambda xp, a, i: a[i], lambda t, a, i: a[i])
_get("fancy rows a[idx] float32 4096x4096, 2048 rows", "bandwidth",
     args(vec("float32", (M, M)), _idx(M, M // 2)), lambda xp, a, i: a[i],
     lambda t, a, i: a[i])
_get("fancy columns a[:, idx] float32 4096x4096, 2048 columns", "bandwidth",
     args(vec("float32", (M, M)), _idx(M, M // 2)), lambda xp, a, i: a[:, i],
     lambda t, a, i: a[:, i])
_get("take float32 16M, 4M indices", "bandwidth", args(vec("float32", B), _idx(B, 1 << 22)),
     lambda xp, a, i: xp.take(a, i), lambda t, a, i: t.take(a, i))
_get("take float32 1000, 100 indices", "latency", args(vec("float32", L), _idx(L, 100)),
     lambda xp, a, i: xp.take(a, i), lambda t, a, i: t.take(a, i))
_get("take axis=0 float32 4096x4096, 2048 rows", "bandwidth",
     args(vec("float32", (M, M)), _idx(M, M // 2)), lambda xp, a, i: xp.take(a, i, axis=0),
     lambda t, a, i: t.index_select(a, 0, i))
_get("take_along_axis float32 4096x4096 axis=1", "bandwidth",
     args(vec("float32", (M, M)), lambda: (indices(M, M * M).reshape(M, M),)),
     lambda xp, a, i: xp.take_along_axis(a, i, axis=1), lambda t, a, i: t.gather(a, 1, i))
_get("compress float32 16M", "bandwidth", args(_mask(B), vec("float32", B)),
     lambda xp, m, a: xp.compress(m, a), lambda t, m, a: a[m])
_get("where(c, a, b) float32 16M", "bandwidth", args(_mask(B), pair("float32", B)),
     lambda xp, c, a, b: xp.where(c, a, b), lambda t, c, a, b: t.where(c, a, b))
_get("where(c, a, b) float32 1000", "latency", args(_mask(L), pair("float32", L)),
     lambda xp, c, a, b: xp.where(c, a, b), lambda t, c, a, b: t.where(c, a, b))
_get("where(c, a, 0.0) float64 4096x4096", "bandwidth",
     args(vec("bool", (M, M), 7), vec("float64", (M, M))),
     lambda xp, c, a: xp.where(c, a, 0.0), lambda t, c, a: t.where(c, a, 0.0))
_get("nonzero bool 16M", "bandwidth", _mask(B), lambda xp, m: xp.nonzero(m),
     lambda t, m: t.nonzero(m, as_tuple=True))
_get("nonzero bool 1000", "latency", _mask(L), lambda xp, m: xp.nonzero(m),
     lambda t, m: t.nonzero(m, as_tuple=True))
_get("nonzero bool 4096x4096", "bandwidth", vec("bool", (M, M), 7), lambda xp, m: xp.nonzero(m),
     lambda t, m: t.nonzero(m, as_tuple=True))
_get("flatnonzero float32 16M", "bandwidth", vec("float32", B, 0, -1.0, 1.0),
     lambda xp, a: xp.flatnonzero(a > 0))
_get("argwhere bool 4096x4096", "bandwidth", vec("bool", (M, M), 7),
     lambda xp, m: xp.argwhere(m), lambda t, m: t.argwhere(m))


# -- indexing: set (each call writes the same values again; the result is the target)
def _set(name, size, inputs, f, torch=None, prep=None):
    add(name, "indexing-set", size, inputs, api(f, torch), prep=prep)


def _setitem(key_at=None, value=None):
    def f(xp, a, *rest):
        key = rest[0] if key_at is None else key_at
        a[key] = rest[-1] if value is None else value
        return a
    return f


_set("a[::2] = 0 float32 16M", "bandwidth", vec("float32", B), _setitem(slice(None, None, 2), 0.0),
     _setitem(slice(None, None, 2), 0.0))
_set("a[::2] = 0 float32 1000", "latency", vec("float32", L), _setitem(slice(None, None, 2), 0.0),
     _setitem(slice(None, None, 2), 0.0))
_set("a[1:-1] = b float32 16M", "bandwidth",
     lambda: (host("float32", (B,)), host("float32", (B - 2,), 1)),
     _setitem(slice(1, -1)), _setitem(slice(1, -1)))
_set("a[:, ::2] = b float32 4096x4096", "bandwidth",
     lambda: (host("float32", (M, M)), host("float32", (M, M // 2), 1)),
     _setitem((slice(None), slice(None, None, 2))), _setitem((slice(None), slice(None, None, 2))))
_set("a[5] = 1 float32 1000", "latency", vec("float32", L), _setitem(5, 1.0), _setitem(5, 1.0))
_set("a[m] = 0 float32 16M", "bandwidth", args(vec("float32", B), _mask(B)),
     _setitem(value=0.0), _setitem(value=0.0))
_set("a[m] = 0 float32 1000", "latency", args(vec("float32", L), _mask(L)),
     _setitem(value=0.0), _setitem(value=0.0))
_set("a[idx] = v float32 16M, 4M unique indices", "bandwidth", scatter(B, 1 << 22),
     _setitem(), _setitem())
_set("a[idx] = v float32 1000, 100 indices", "latency", scatter(L, 100), _setitem(), _setitem())


def _put(xp, a, i, v):
    xp.put(a, i, v)
    return a


def _putmask(xp, a, m):
    xp.putmask(a, m, 0.0)
    return a


def _copyto(xp, a, b, m):
    xp.copyto(a, b, where=m)
    return a


def _fill(xp, a):
    a.fill(1.5)
    return a


_set("put float32 16M, 4M unique indices", "bandwidth", scatter(B, 1 << 22), _put, lambda t, a, i, v: a.put_(i, v))
_set("putmask float32 16M", "bandwidth", args(vec("float32", B), _mask(B)), _putmask,
     lambda t, a, m: a.masked_fill_(m, 0.0))
_set("copyto(a, b, where=m) float32 16M", "bandwidth",
     args(pair("float32", B), _mask(B)), _copyto)
_set("fill float32 16M", "bandwidth", vec("float32", B), _fill, lambda t, a: a.fill_(1.5))


# -- shape operations that copy
def _copy(name, size, inputs, f, torch=None, prep=None, **kw):
    add(name, "copy", size, inputs, api(f, torch), prep=prep, **kw)


_half = B // 2
_copy("concatenate 2 x 8M float32", "bandwidth", pair("float32", _half),
      lambda xp, a, b: xp.concatenate((a, b)), lambda t, a, b: t.cat((a, b)))
_copy("concatenate 2 x 500 float32", "latency", pair("float32", L // 2),
      lambda xp, a, b: xp.concatenate((a, b)), lambda t, a, b: t.cat((a, b)))
_copy("concatenate axis=1 2 x 4096x2048 float32", "bandwidth", pair("float32", (M, M // 2)),
      lambda xp, a, b: xp.concatenate((a, b), axis=1), lambda t, a, b: t.cat((a, b), dim=1))
_copy("stack 2 x 8M float32", "bandwidth", pair("float32", _half),
      lambda xp, a, b: xp.stack((a, b)), lambda t, a, b: t.stack((a, b)))
_copy("stack 2 x 500 float32", "latency", pair("float32", L // 2),
      lambda xp, a, b: xp.stack((a, b)), lambda t, a, b: t.stack((a, b)))
_copy("stack axis=1 2 x 8M float32", "bandwidth", pair("float32", _half),
      lambda xp, a, b: xp.stack((a, b), axis=1), lambda t, a, b: t.stack((a, b), dim=1))
_copy("vstack 2 x 2048x4096 float32", "bandwidth", pair("float32", (M // 2, M)),
      lambda xp, a, b: xp.vstack((a, b)), lambda t, a, b: t.vstack((a, b)))
_copy("tile 1M float32 16 times", "bandwidth", vec("float32", 1 << 20),
      lambda xp, a: xp.tile(a, 16), lambda t, a: t.tile(a, (16,)))
_copy("tile 100 float32 10 times", "latency", vec("float32", 100),
      lambda xp, a: xp.tile(a, 10), lambda t, a: t.tile(a, (10,)))
_copy("tile 2048x2048 float32 (2, 2)", "bandwidth", vec("float32", (M // 2, M // 2)),
      lambda xp, a: xp.tile(a, (2, 2)), lambda t, a: t.tile(a, (2, 2)))
_copy("repeat 8M float32 2 times", "bandwidth", vec("float32", _half),
      lambda xp, a: xp.repeat(a, 2), lambda t, a: t.repeat_interleave(a, 2))
_copy("repeat 500 float32 2 times", "latency", vec("float32", L // 2),
      lambda xp, a: xp.repeat(a, 2), lambda t, a: t.repeat_interleave(a, 2))
_copy("repeat axis=1 4096x2048 float32 2 times", "bandwidth", vec("float32", (M, M // 2)),
      lambda xp, a: xp.repeat(a, 2, axis=1), lambda t, a: t.repeat_interleave(a, 2, dim=1))
_copy("pad constant 4096x4096 float32 by 1", "bandwidth", vec("float32", (M, M)),
      lambda xp, a: xp.pad(a, 1), lambda t, a: t.nn.functional.pad(a, (1, 1, 1, 1)))
_copy("pad constant 32x32 float32 by 1", "latency", vec("float32", (S, S)),
      lambda xp, a: xp.pad(a, 1), lambda t, a: t.nn.functional.pad(a, (1, 1, 1, 1)))
_copy("pad edge 4096x4096 float32 by 3", "bandwidth", vec("float32", (M, M)),
      lambda xp, a: xp.pad(a, 3, mode="edge"))
_copy("pad reflect 4096x4096 float32 by 3", "bandwidth", vec("float32", (M, M)),
      lambda xp, a: xp.pad(a, 3, mode="reflect"))
_copy("transpose copy ascontiguousarray(a.T) float32 4096x4096", "bandwidth",
      vec("float32", (M, M)), lambda xp, a: xp.ascontiguousarray(a.T),
      lambda t, a: a.T.contiguous())
_copy("transpose copy a.T.copy() float64 4096x4096", "bandwidth", vec("float64", (M, M)),
      lambda xp, a: a.T.copy(), lambda t, a: a.T.clone(memory_format=t.contiguous_format))
_copy("transpose copy ascontiguousarray(a.T) float32 32x32", "latency", vec("float32", (S, S)),
      lambda xp, a: xp.ascontiguousarray(a.T), lambda t, a: a.T.contiguous())
_copy("transpose copy (2, 0, 1) float32 256x256x256", "bandwidth",
      vec("float32", (256, 256, 256)),
      lambda xp, a: xp.ascontiguousarray(xp.transpose(a, (2, 0, 1))),
      lambda t, a: a.permute(2, 0, 1).contiguous())
_copy("reshape of a.T (copy) float32 4096x4096", "bandwidth", vec("float32", (M, M)),
      lambda xp, a: a.T.reshape(-1), lambda t, a: a.T.reshape(-1))
_copy("flip copy float32 16M", "bandwidth", vec("float32", B),
      lambda xp, a: xp.ascontiguousarray(xp.flip(a)), lambda t, a: t.flip(a, (0,)))
_copy("flip copy axis=0 float32 4096x4096", "bandwidth", vec("float32", (M, M)),
      lambda xp, a: xp.ascontiguousarray(xp.flip(a, axis=0)), lambda t, a: t.flip(a, (0,)))
_copy("roll float32 16M by 1000", "bandwidth", vec("float32", B),
      lambda xp, a: xp.roll(a, 1000), lambda t, a: t.roll(a, 1000))
_copy("roll float32 1000 by 7", "latency", vec("float32", L),
      lambda xp, a: xp.roll(a, 7), lambda t, a: t.roll(a, 7))
_copy("roll axis=1 float32 4096x4096 by 7", "bandwidth", vec("float32", (M, M)),
      lambda xp, a: xp.roll(a, 7, axis=1), lambda t, a: t.roll(a, 7, dims=1))
_copy("copy float32 16M", "bandwidth", vec("float32", B), lambda xp, a: a.copy(),
      lambda t, a: a.clone())
_copy("copy strided a[::2] float32 16M", "bandwidth", vec("float32", 2 * B),
      lambda xp, a: a.copy(), lambda t, a: a.contiguous(), prep=lambda xp, a: (a[::2],))
_copy("tril float32 4096x4096", "bandwidth", vec("float32", (M, M)), lambda xp, a: xp.tril(a),
      lambda t, a: t.tril(a))
_copy("triu float64 4096x4096", "bandwidth", vec("float64", (M, M)), lambda xp, a: xp.triu(a),
      lambda t, a: t.triu(a))
for src, dst, n in (("float32", "float64", B), ("float64", "float32", B),
                    ("float32", "float16", B), ("int32", "float32", B),
                    ("float32", "int32", B), ("float32", "float64", L)):
    _copy(f"astype {src} -> {dst} {_label(n)}", "latency" if n == L else "bandwidth",
          vec(src, n), lambda xp, a, dst=dst: a.astype(dst),
          lambda t, a, dst=dst: a.to(getattr(t, dst)))


# -- creation
def _new(name, size, f, torch=None, **kw):
    add(name, "creation", size, lambda: (), api(f, torch), **kw)


_cuda = {"device": "cuda"}
_new("zeros float32 16M", "bandwidth", lambda xp: xp.zeros(B, np.float32),
     lambda t: t.zeros(B, dtype=t.float32, **_cuda))
_new("zeros float32 1000", "latency", lambda xp: xp.zeros(L, np.float32),
     lambda t: t.zeros(L, dtype=t.float32, **_cuda))
_new("ones float64 16M", "bandwidth", lambda xp: xp.ones(B),
     lambda t: t.ones(B, dtype=t.float64, **_cuda))
_new("full int32 16M", "bandwidth", lambda xp: xp.full(B, 7, np.int32),
     lambda t: t.full((B,), 7, dtype=t.int32, **_cuda))
_new("full float64 1000", "latency", lambda xp: xp.full(L, 2.5),
     lambda t: t.full((L,), 2.5, dtype=t.float64, **_cuda))
_new("empty float32 16M", "bandwidth", lambda xp: xp.empty(B, np.float32),
     lambda t: t.empty(B, dtype=t.float32, **_cuda), check=check_shape_only)
add("zeros_like float32 16M", "creation", "bandwidth", vec("float32", B),
    api(lambda xp, a: xp.zeros_like(a), lambda t, a: t.zeros_like(a)))
_new("arange int64 16M", "bandwidth", lambda xp: xp.arange(B),
     lambda t: t.arange(B, **_cuda))
_new("arange int64 1000", "latency", lambda xp: xp.arange(L), lambda t: t.arange(L, **_cuda))
_new("arange float32 16M", "bandwidth", lambda xp: xp.arange(B, dtype=np.float32),
     lambda t: t.arange(B, dtype=t.float32, **_cuda))
_new("linspace float64 16M", "bandwidth", lambda xp: xp.linspace(0.0, 1.0, B),
     lambda t: t.linspace(0.0, 1.0, B, dtype=t.float64, **_cuda), rtol=1e-9)
_new("linspace float64 1000", "latency", lambda xp: xp.linspace(0.0, 1.0, L),
     lambda t: t.linspace(0.0, 1.0, L, dtype=t.float64, **_cuda), rtol=1e-9)
_new("linspace float32 16M", "bandwidth",
     lambda xp: xp.linspace(0.0, 1.0, B, dtype=np.float32),
     lambda t: t.linspace(0.0, 1.0, B, dtype=t.float32, **_cuda), rtol=1e-3)
_new("eye float32 4096", "bandwidth", lambda xp: xp.eye(M, dtype=np.float32),
     lambda t: t.eye(M, dtype=t.float32, **_cuda))
_new("eye float64 32", "latency", lambda xp: xp.eye(S), lambda t: t.eye(S, dtype=t.float64, **_cuda))
_new("tri float32 4096", "bandwidth", lambda xp: xp.tri(M, dtype=np.float32),
     lambda t: t.ones((M, M), dtype=t.float32, **_cuda).tril_())
_new("tri float64 32", "latency", lambda xp: xp.tri(S))
_new("identity float64 4096", "bandwidth", lambda xp: xp.identity(M),
     lambda t: t.eye(M, dtype=t.float64, **_cuda))


# -- random distributions: each library's generator seeded once (CuPy's legacy
# RandomState is cuRAND's, as in the random group)
def _rng_prep():
    return {"numpy": lambda np_: (np_.random.default_rng(0),),
            "gpuarr": lambda ga: (ga.random.default_rng(0),),
            "cupy": lambda cp: (cp.random.RandomState(0),),
            "torch": lambda t: (t.Generator(device="cuda").manual_seed(0),)}


def _rand(name, size, generator_call, cupy_call, torch=None, check=check_moments):
    calls = {"numpy": generator_call, "gpuarr": generator_call, "cupy": cupy_call}
    if torch is not None:
        calls["torch"] = torch
    add(name, "random", size, lambda: (), calls, prep=_rng_prep(), check=check)


_f32, _f64 = np.float32, np.float64
_rand("random float64 16M", "bandwidth", lambda xp, g: g.random(B),
      lambda cp, g: g.random_sample(B), lambda t, g: t.rand(B, dtype=t.float64, generator=g, **_cuda))
_rand("random float32 16M", "bandwidth", lambda xp, g: g.random(B, dtype=_f32),
      lambda cp, g: g.random_sample(B, dtype=_f32),
      lambda t, g: t.rand(B, generator=g, **_cuda))
_rand("random float32 1000", "latency", lambda xp, g: g.random(L, dtype=_f32),
      lambda cp, g: g.random_sample(L, dtype=_f32),
      lambda t, g: t.rand(L, generator=g, **_cuda))
_rand("standard_normal float32 16M", "bandwidth", lambda xp, g: g.standard_normal(B, dtype=_f32),
      lambda cp, g: g.standard_normal(B, dtype=_f32),
      lambda t, g: t.randn(B, generator=g, **_cuda))
_rand("standard_normal float64 16M", "bandwidth", lambda xp, g: g.standard_normal(B),
      lambda cp, g: g.standard_normal(B),
      lambda t, g: t.randn(B, dtype=t.float64, generator=g, **_cuda))
_rand("standard_normal float64 1000", "latency", lambda xp, g: g.standard_normal(L),
      lambda cp, g: g.standard_normal(L),
      lambda t, g: t.randn(L, dtype=t.float64, generator=g, **_cuda))
_rand("normal(1, 2) float64 16M", "bandwidth", lambda xp, g: g.normal(1.0, 2.0, B),
      lambda cp, g: g.normal(1.0, 2.0, B),
      lambda t, g: t.empty(B, dtype=t.float64, **_cuda).normal_(1.0, 2.0, generator=g))
_rand("uniform(-1, 1) float64 16M", "bandwidth", lambda xp, g: g.uniform(-1.0, 1.0, B),
      lambda cp, g: g.uniform(-1.0, 1.0, B),
      lambda t, g: t.empty(B, dtype=t.float64, **_cuda).uniform_(-1.0, 1.0, generator=g))
_rand("integers [0, 1000) int64 16M", "bandwidth", lambda xp, g: g.integers(0, 1000, B),
      lambda cp, g: g.randint(0, 1000, B, dtype=np.int64),
      lambda t, g: t.randint(0, 1000, (B,), generator=g, **_cuda))
_rand("integers [0, 1000) int64 1000", "latency", lambda xp, g: g.integers(0, 1000, L),
      lambda cp, g: g.randint(0, 1000, L, dtype=np.int64),
      lambda t, g: t.randint(0, 1000, (L,), generator=g, **_cuda))
_rand("exponential float64 16M", "bandwidth", lambda xp, g: g.exponential(1.0, B),
      lambda cp, g: g.exponential(1.0, B),
      lambda t, g: t.empty(B, dtype=t.float64, **_cuda).exponential_(generator=g))
_rand("poisson(4) int64 16M", "bandwidth", lambda xp, g: g.poisson(4.0, B),
      lambda cp, g: g.poisson(4.0, B, dtype=np.int64))
_rand("permutation 16M", "bandwidth", lambda xp, g: g.permutation(B),
      lambda cp, g: g.permutation(B), lambda t, g: t.randperm(B, generator=g, **_cuda),
      check=check_permutation)


# -- statistics
def _stat(name, size, inputs, f, torch=None, **kw):
    add(name, "statistics", size, inputs, api(f, torch), **kw)


_stat("histogram float32 16M, 256 bins, range", "bandwidth", vec("float32", B),
      lambda xp, a: xp.histogram(a, 256, (0.5, 2.0))[0],
      lambda t, a: t.histc(a, 256, 0.5, 2.0).to(t.int64), check=check_counts)
_stat("histogram float32 16M, 256 bins, automatic range", "bandwidth", vec("float32", B),
      lambda xp, a: xp.histogram(a, 256), check=check_counts)
_stat("histogram float32 1000, 10 bins", "latency", vec("float32", L),
      lambda xp, a: xp.histogram(a, 10), check=check_counts)
_stat("bincount int32 16M (1024 values)", "bandwidth", vec("int32", B, 0, 0, 1024),
      lambda xp, a: xp.bincount(a), lambda t, a: t.bincount(a))
_stat("bincount int64 1000", "latency", vec("int64", L, 0, 0, 100),
      lambda xp, a: xp.bincount(a), lambda t, a: t.bincount(a))
_stat("bincount weights float64 16M", "bandwidth",
      args(vec("int32", B, 0, 0, 1024), vec("float64", B, 1)),
      lambda xp, a, w: xp.bincount(a, w), lambda t, a, w: t.bincount(a, w), rtol=1e-9)
_stat("percentile float32 16M [5, 50, 95]", "bandwidth", vec("float32", B),
      lambda xp, a: xp.percentile(a, (5.0, 50.0, 95.0)))
_stat("percentile float64 1000 [5, 50, 95]", "latency", vec("float64", L),
      lambda xp, a: xp.percentile(a, (5.0, 50.0, 95.0)),
      lambda t, a: t.quantile(a, t.tensor((0.05, 0.5, 0.95), dtype=t.float64, **_cuda)))
_stat("median float32 16M", "bandwidth", vec("float32", B), lambda xp, a: xp.median(a))
_stat("median float32 1000", "latency", vec("float32", L), lambda xp, a: xp.median(a))
_stat("median float32 4096x4096 axis=1", "bandwidth", vec("float32", (M, M)),
      lambda xp, a: xp.median(a, axis=1))
_stat("quantile float64 16M 0.9", "bandwidth", vec("float64", B),
      lambda xp, a: xp.quantile(a, 0.9))
_stat("cov float64 256 variables x 65536", "bandwidth", vec("float64", (256, 1 << 16)),
      lambda xp, a: xp.cov(a), lambda t, a: t.cov(a), rtol=1e-9)
_stat("cov float64 3 variables x 100", "latency", vec("float64", (3, 100)),
      lambda xp, a: xp.cov(a), lambda t, a: t.cov(a), rtol=1e-9)
_stat("corrcoef float32 64 variables x 65536", "bandwidth", vec("float32", (64, 1 << 16)),
      lambda xp, a: xp.corrcoef(a), lambda t, a: t.corrcoef(a), rtol=1e-3)
_stat("digitize float32 16M, 256 bins", "bandwidth",
      lambda: (host("float32", (B,)), np.linspace(0.5, 2.0, 257, dtype=np.float32)),
      lambda xp, a, b: xp.digitize(a, b), lambda t, a, b: t.bucketize(a, b, right=True))


# -- linalg: batched small, medium (512), large (4096)
def _la(name, size, inputs, f, torch=None, **kw):
    add(name, f"linalg-{size}", size, inputs, api(f, torch), **kw)


_solve = (lambda xp, a, b: xp.linalg.solve(a, b), lambda t, a, b: t.linalg.solve(a, b))
_inv = (lambda xp, a: xp.linalg.inv(a), lambda t, a: t.linalg.inv(a))
_chol = (lambda xp, a: xp.linalg.cholesky(a), lambda t, a: t.linalg.cholesky(a))
_eigh = (lambda xp, a: xp.linalg.eigh(a), lambda t, a: t.linalg.eigh(a))
_eigvalsh = (lambda xp, a: xp.linalg.eigvalsh(a), lambda t, a: t.linalg.eigvalsh(a))
_qr = (lambda xp, a: xp.linalg.qr(a), lambda t, a: t.linalg.qr(a))
_svd = (lambda xp, a: xp.linalg.svd(a), lambda t, a: t.linalg.svd(a))
_det = (lambda xp, a: xp.linalg.det(a), lambda t, a: t.linalg.det(a))
_slogdet = (lambda xp, a: xp.linalg.slogdet(a), lambda t, a: t.linalg.slogdet(a))
_matmul = (lambda xp, a, b: xp.matmul(a, b), lambda t, a, b: t.matmul(a, b))

for shape in ((1024, 32, 32), (256, 64, 64), (4096, 16, 16)):
    lab = "x".join(map(str, shape))
    _la(f"solve float32 {lab}", "batched", square_rhs("float32", shape), *_solve,
        check=check_solve)
    _la(f"eigh float32 {lab}", "batched", square("float32", shape, spd=True), *_eigh,
        check=check_eigh(), kind="run")
    _la(f"inv float32 {lab}", "batched", square("float32", shape), *_inv, rtol=1e-3)
_b = (1024, 32, 32)
_la("cholesky float32 1024x32x32", "batched", square("float32", _b, spd=True), *_chol, rtol=1e-3)
_la("det float32 1024x32x32", "batched", square("float32", _b), *_det, rtol=1e-3)
_la("eigvalsh float64 1024x32x32", "batched", square("float64", _b, spd=True), *_eigvalsh,
    check=check_eigh(values_only=True), kind="run")
_la("qr float32 1024x32x32", "batched", square("float32", _b), *_qr, check=check_qr(),
    kind="run")
_la("svd float32 1024x32x32", "batched", square("float32", _b), *_svd, check=check_svd,
    kind="run")
_la("matmul float32 1024x32x32", "batched", lambda: (well_conditioned("float32", _b),
                                                     well_conditioned("float32", _b, seed=1)),
    *_matmul, rtol=1e-4)

_m = (512, 512)
_la("matmul float32 512", "medium", pair("float32", _m), *_matmul, rtol=1e-4)
_la("solve float64 512", "medium", square_rhs("float64", _m), *_solve, check=check_solve)
_la("inv float32 512", "medium", square("float32", _m), *_inv, rtol=1e-3)
_la("cholesky float64 512", "medium", square("float64", _m, spd=True), *_chol)
_la("det float32 512", "medium", square("float32", _m), *_det, rtol=1e-3)
_la("slogdet float64 512", "medium", square("float64", _m), *_slogdet, rtol=1e-9)
_la("qr float32 512", "medium", square("float32", _m), *_qr, check=check_qr())
_la("eigh float32 512", "medium", square("float32", _m, spd=True), *_eigh, check=check_eigh(),
    kind="run")
_la("eigvalsh float64 512", "medium", square("float64", _m, spd=True), *_eigvalsh,
    check=check_eigh(values_only=True), kind="run")
_la("svd float32 512", "medium", square("float32", _m), *_svd, check=check_svd, kind="run")
_la("lstsq float64 512x256", "medium",
    lambda: (host("float64", (512, 256)), host("float64", (512,), 1)),
    lambda xp, a, b: xp.linalg.lstsq(a, b, rcond=None)[0], rtol=1e-8, kind="run")
_la("pinv float32 512x256", "medium", vec("float32", (512, 256)),
    lambda xp, a: xp.linalg.pinv(a), lambda t, a: t.linalg.pinv(a), rtol=1e-2, kind="run")

_g = (M, M)
_la("matmul float32 4096", "large", pair("float32", _g), *_matmul, check=check_matmul_cheap)
_la("matmul float64 4096", "large", pair("float64", _g), *_matmul, check=check_matmul_cheap,
    kind="run")
_la("solve float32 4096", "large", square_rhs("float32", _g), *_solve, check=check_solve,
    kind="run")
_la("inv float32 4096", "large", square("float32", _g), *_inv, check=check_inv_cheap, kind="run")
_la("cholesky float32 4096", "large", square("float32", _g, spd=True), *_chol,
    check=check_cholesky_cheap, kind="run")
_la("slogdet float64 4096", "large", square("float64", _g), *_slogdet, rtol=1e-9, kind="run")
_la("qr float32 4096", "large", square("float32", _g), *_qr, check=check_qr(cheap=True),
    kind="run")
_la("eigh float32 4096", "large", square("float32", _g, spd=True), *_eigh,
    check=check_eigh(cheap=True), kind="run")
_la("eigvalsh float64 4096", "large", square("float64", _g, spd=True), *_eigvalsh,
    check=check_eigh(values_only=True, cheap=True), kind="run")
_la("dot float32 16M . 16M", "large", pair("float32", B), lambda xp, a, b: xp.dot(a, b),
    lambda t, a, b: t.dot(a, b), rtol=1e-4,
    ref=lambda np_, a, b: np_.dot(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype))
_la("matvec float32 4096x4096 @ 4096", "large",
    args(vec("float32", _g), vec("float32", (M,), 1)), *_matmul, rtol=1e-4)


# -- fft
def _fft(name, size, inputs, f, torch=None, **kw):
    add(name, "fft", size, inputs, api(f, torch), check=check_scaled, **kw)


_fft("fft complex64 16M", "bandwidth", vec("complex64", B), lambda xp, a: xp.fft.fft(a),
     lambda t, a: t.fft.fft(a))
_fft("fft complex128 16M", "bandwidth", vec("complex128", B), lambda xp, a: xp.fft.fft(a),
     lambda t, a: t.fft.fft(a))
_fft("fft complex64 1000", "latency", vec("complex64", L), lambda xp, a: xp.fft.fft(a),
     lambda t, a: t.fft.fft(a))
_fft("ifft complex64 16M", "bandwidth", vec("complex64", B), lambda xp, a: xp.fft.ifft(a),
     lambda t, a: t.fft.ifft(a))
_fft("rfft float32 16M", "bandwidth", vec("float32", B), lambda xp, a: xp.fft.rfft(a),
     lambda t, a: t.fft.rfft(a))
_fft("rfft float64 1000", "latency", vec("float64", L), lambda xp, a: xp.fft.rfft(a),
     lambda t, a: t.fft.rfft(a))
@functools.lru_cache(maxsize=1)
def _half_spectrum(n):
    """A real signal's spectrum (DC and Nyquist real, as c2r transforms assume)."""
    return np.fft.rfft(host("float32", (n,))).astype(np.complex64)


_fft("irfft complex64 8M+1 -> 16M", "bandwidth", lambda: (_half_spectrum(B),),
     lambda xp, a: xp.fft.irfft(a), lambda t, a: t.fft.irfft(a))
_fft("fft2 complex64 4096x4096", "bandwidth", vec("complex64", _g), lambda xp, a: xp.fft.fft2(a),
     lambda t, a: t.fft.fft2(a))
_fft("fft2 complex64 32x32", "latency", vec("complex64", (S, S)), lambda xp, a: xp.fft.fft2(a),
     lambda t, a: t.fft.fft2(a))
_fft("ifft2 complex64 4096x4096", "bandwidth", vec("complex64", _g),
     lambda xp, a: xp.fft.ifft2(a), lambda t, a: t.fft.ifft2(a))
_fft("rfft2 float32 4096x4096", "bandwidth", vec("float32", _g), lambda xp, a: xp.fft.rfft2(a),
     lambda t, a: t.fft.rfft2(a))
_fft("fft rows complex64 4096x4096 axis=-1", "bandwidth", vec("complex64", _g),
     lambda xp, a: xp.fft.fft(a, axis=-1), lambda t, a: t.fft.fft(a, dim=-1))
_fft("fft columns complex64 4096x4096 axis=0", "bandwidth", vec("complex64", _g),
     lambda xp, a: xp.fft.fft(a, axis=0), lambda t, a: t.fft.fft(a, dim=0))
_fft("fftn complex64 256x256x256", "bandwidth", vec("complex64", (256, 256, 256)),
     lambda xp, a: xp.fft.fftn(a), lambda t, a: t.fft.fftn(a))


# -- I/O: .npy files in a temporary folder (the page cache, not the disk, at these sizes)
def _save(xp, a, path):
    xp.save(path, a)


add("save .npy float32 1000", "io", "latency", save_target("float32", L), api(_save),
    check=check_saved)
add("save .npy float32 16M", "io", "bandwidth", save_target("float32", B), api(_save),
    check=check_saved, kind="run")
add("load .npy float32 1000", "io", "latency", saved_file("float32", L),
    api(lambda xp, p: xp.load(p)), ref=lambda np_, p: np_.load(p))
add("load .npy float32 16M", "io", "bandwidth", saved_file("float32", B),
    api(lambda xp, p: xp.load(p)), ref=lambda np_, p: np_.load(p), kind="run")
