"""gpuarr.random's generators: ``Generator`` (``default_rng``) and ``RandomState``.

Both draw from a counter-based Philox4x32-10 stream (cpp/ops/random_kernels.cu): a 64-bit
key derived from the seed plus a call counter; each device call uses one counter value, so
the same seed gives the same arrays on every run of the same gpuarr version, independently
of launch configuration. NumPy's bit streams are not reproduced (different algorithms).

Parameters are validated as NumPy validates them (same exception types and messages). With
``size=None`` and scalar parameters the result is a 0-d device array (CuPy's behaviour: a
Python scalar would force a device synchronisation).
"""

import math
import numbers
import operator
import warnings

import numpy as np

from gpuarr import _core, _indexing, _shape_ops, _sorting, _ufuncs

_MASK64 = (1 << 64) - 1
_POISSON_LAM_MAX = np.iinfo("l").max - np.sqrt(np.iinfo("l").max) * 10


def _splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def _key_from_seed_sequence(ss):
    w = ss.generate_state(2, np.uint32)
    return int(w[0]) | (int(w[1]) << 32)


class _Stream:
    """The Philox key and the call counter of one generator."""

    __slots__ = ("key", "calls")

    def __init__(self, key):
        self.key = key & _MASK64
        self.calls = 0

    def next(self):
        """(key, counter word) for one device call; the generator advances by one."""
        c = self.calls
        self.calls = c + 1
        key = self.key
        if c >> 32:  # past 2**32 calls: a fresh key per 2**32 calls
            key = _splitmix64(key ^ _splitmix64(c >> 32))
        return key, c & 0xFFFFFFFF


# ---- argument helpers --------------------------------------------------------------------

def _norm_size(size):
    if size is None:
        return None
    if isinstance(size, (numbers.Integral, np.integer)):
        return (operator.index(size),)
    return tuple(operator.index(s) for s in size)


def _is_device(x):
    return isinstance(x, _core.ndarray)


def _as_param(x, dtype=np.float64):
    """A parameter as a host NumPy array or a device array, of `dtype`."""
    if _is_device(x):
        return x if x.dtype == dtype else x.astype(dtype)
    return np.asarray(x, dtype=dtype)


def _xp(v):
    return _ufuncs if _is_device(v) else np


def _any(v):
    return bool(v.any()) if _is_device(v) else bool(np.any(v))


def _all(v):
    return bool(v.all()) if _is_device(v) else bool(np.all(v))


# NumPy's constraints (numpy/random/_common.pyx, check_constraint), same messages.
def _non_negative(v, name):
    if not _is_device(v) and v.ndim == 0:  # the common scalar case, without NumPy ufuncs
        f = float(v)
        if f == f and math.copysign(1.0, f) < 0:
            raise ValueError(f"{name} < 0")
        return
    xp = _xp(v)
    if _any(xp.logical_and(xp.logical_not(xp.isnan(v)), xp.signbit(v))):
        raise ValueError(f"{name} < 0")


def _positive(v, name):
    if _any(_xp(v).less_equal(v, 0)):
        raise ValueError(f"{name} <= 0")


def _bounded_0_1(v, name):
    xp = _xp(v)
    if not _all(xp.greater_equal(v, 0)) or not _all(xp.less_equal(v, 1)):
        raise ValueError(f"{name} < 0, {name} > 1 or {name} is NaN")


def _bounded_gt_0_1(v, name):
    xp = _xp(v)
    if not _all(xp.greater(v, 0)) or not _all(xp.less_equal(v, 1)):
        raise ValueError(f"{name} <= 0, {name} > 1 or {name} contains NaNs")


def _poisson_lam(v, name):
    xp = _xp(v)
    if _any(xp.greater(v, _POISSON_LAM_MAX)):
        raise ValueError(f"{name} value too large")
    if not _all(xp.greater_equal(v, 0.0)):
        raise ValueError(f"{name} < 0 or {name} is NaN")


def _cmp_any(op, a, b):
    """any(op(a, b)) on the host when both are host values, else on the device."""
    if _is_device(a) or _is_device(b):
        return _any(getattr(_ufuncs, op)(_dev(a), _dev(b)))
    return bool(np.any(getattr(np, op)(a, b)))


def _out_shape(size, params, size_last=False):
    """The result shape: `size`, or the broadcast shape of the parameters (NumPy's
    shape-mismatch ValueError where they do not broadcast to `size`)."""
    shapes = [p.shape for p in params]
    if all(s == () for s in shapes):  # scalars broadcast to any size
        return () if size is None else size
    if size is None:
        return np.broadcast_shapes(*shapes) if shapes else ()
    if size_last:  # integers(): NumPy broadcasts (low, high, size)
        np.broadcast_shapes(*shapes, size)
    else:  # the other distributions: (size, params...)
        np.broadcast_shapes(size, *shapes)
    for s in shapes:  # parameters must broadcast *to* size, not beyond it
        if np.broadcast_shapes(size, s) != size:
            raise ValueError(
                "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                f"between arg 0 with shape {size} and arg 1 with shape {s}.")
    return size


def _is_scalar(p):
    return not _is_device(p) and p.ndim == 0


def _kernel_param(p, shape):
    """A float, or a C-contiguous float64 device array of `shape` (for the kernels)."""
    if _is_scalar(p):
        return float(p)
    d = p if _is_device(p) else _core.asarray(p)
    if d.dtype != np.float64:
        d = d.astype(np.float64)
    return _core.ascontiguousarray(_shape_ops.broadcast_to(d, shape))


def _dev(p):
    """A parameter as a device operand of an elementwise expression."""
    if _is_scalar(p):
        return float(p)
    return p if _is_device(p) else _core.asarray(p)


def _float_dtype(dtype, fname):
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float64), np.dtype(np.float32)):
        raise TypeError(f"Unsupported dtype {dt!r} for {fname}")
    return dt


def _check_out(out, size, dt):
    if not _is_device(out):
        raise TypeError("out must be a gpuarr.ndarray")
    if out.dtype != dt:
        raise TypeError(f"Supplied output array has the wrong type. Expected {dt.name}, got "
                        f"{out.dtype.name}")
    if not out.flags.c_contiguous:
        raise ValueError("Supplied output array must be contiguous, writable, aligned, and in "
                         "machine byte-order.")
    if size is not None and tuple(size) != out.shape:
        raise ValueError("size must match out.shape when used together")
    return out


def _int_bounds(dt):
    if dt == np.dtype(np.bool_):
        return 0, 1
    info = np.iinfo(dt)
    return int(info.min), int(info.max)


def _as_int(x):
    if _is_device(x):
        raise NotImplementedError("gpuarr.random: array bounds for integers are not supported; "
                                  "pass Python or NumPy integers")
    a = np.asarray(x)
    if a.ndim != 0:
        raise NotImplementedError("gpuarr.random: array bounds for integers are not supported; "
                                  "pass Python or NumPy integers")
    return int(a)


_HYPERGEOM_MAX = 10**9
_LOG_FACTORIAL_TABLE = np.array([math.lgamma(k + 1.0) for k in range(126)])


def _log_factorial(k, table):
    """log(k!) of float-valued integers k >= 0 as NumPy's logfactorial: the table (on the
    device) below 126, Stirling's series above."""
    idx = _ufuncs.clip(k, 0.0, 125.0).astype(np.int64)
    kk = _ufuncs.maximum(k, 1.0)
    stirling = _ufuncs.add(
        _ufuncs.subtract(_ufuncs.multiply(_ufuncs.add(kk, 0.5), _ufuncs.log(kk)), kk),
        _ufuncs.add(_ufuncs.multiply(_ufuncs.divide(1.0, kk), _ufuncs.subtract(
            1.0 / 12.0, _ufuncs.divide(1.0 / 360.0, _ufuncs.multiply(kk, kk)))),
            0.9189385332046728))
    return _indexing.where(_ufuncs.less(k, 126.0), _indexing.take(table, idx), stirling)


def _log_factorials(k, lo, cs, hi):
    """The HRUA log-density term lf(k) + lf(lo - k) + lf(cs - k) + lf(hi - cs + k)."""
    table = _core.asarray(_LOG_FACTORIAL_TABLE)
    return _ufuncs.add(
        _ufuncs.add(_log_factorial(k, table), _log_factorial(_ufuncs.subtract(lo, k), table)),
        _ufuncs.add(_log_factorial(_ufuncs.subtract(cs, k), table),
                    _log_factorial(_ufuncs.add(_ufuncs.subtract(hi, cs), k), table)))


class _Base:
    """The distributions both Generator and RandomState offer."""

    _legacy = False

    def __init__(self, key):
        self._stream = _Stream(key)

    # -- raw kernel calls -------------------------------------------------------------------
    def _new(self, shape, dtype):
        return _core.empty(shape, dtype=dtype)

    def _next(self):
        return self._stream.next()

    def _uniform01(self, shape, dtype=np.float64, out=None):
        out = self._new(shape, dtype) if out is None else out
        _core._random_uniform(out, *self._next(), 0.0, 1.0)
        return out

    def _std_normal(self, shape, dtype=np.float64, out=None):
        out = self._new(shape, dtype) if out is None else out
        _core._random_normal(out, *self._next(), 0.0, 1.0)
        return out

    def _std_exp(self, shape, dtype=np.float64, out=None):
        out = self._new(shape, dtype) if out is None else out
        _core._random_exponential(out, *self._next(), 1.0)
        return out

    def _gamma(self, shape_param, shape, dtype=np.float64, scale=1.0, out=None):
        out = self._new(shape, dtype) if out is None else out
        _core._random_gamma(out, *self._next(), _kernel_param(shape_param, shape), scale)
        return out

    def _random_order(self, n):
        """A random permutation of range(n) (int64)."""
        out = self._new((n,), np.int64)
        _core._random_permutation(out, *self._next())
        return out

    # -- continuous --------------------------------------------------------------------------
    def random(self, size=None, dtype=np.float64, out=None):
        """Floats uniform on [0, 1)."""
        dt = _float_dtype(dtype, "random")
        size = _norm_size(size)
        if out is not None:
            return self._uniform01(None, dt, _check_out(out, size, dt))
        return self._uniform01(() if size is None else size, dt)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=np.float64):
        lo, hi = _as_param(low), _as_param(high)
        size = _norm_size(size)
        dt = np.dtype(dtype)
        if dt not in (np.dtype(np.float64), np.dtype(np.float32)):
            raise TypeError(f"Unsupported dtype {dt!r} for uniform")
        if _is_device(lo) or _is_device(hi):
            rng = _ufuncs.subtract(_dev(hi), _dev(lo))
            finite = _all(_ufuncs.isfinite(rng))
        else:
            with np.errstate(over="ignore", invalid="ignore"):
                finite = _all(np.isfinite(np.subtract(hi, lo)))
        if not finite:
            raise OverflowError("high - low range exceeds valid bounds")
        shape = _out_shape(size, [lo, hi])
        if _is_scalar(lo) and _is_scalar(hi):
            out = self._new(shape, dt)
            _core._random_uniform(out, *self._next(), float(lo), float(hi))
            return out
        u = self._uniform01(shape)
        res = _ufuncs.add(_dev(lo), _ufuncs.multiply(_ufuncs.subtract(_dev(hi), _dev(lo)), u))
        return res if dt == np.float64 else res.astype(dt)

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        dt = _float_dtype(dtype, "standard_normal")
        size = _norm_size(size)
        if out is not None:
            return self._std_normal(None, dt, _check_out(out, size, dt))
        return self._std_normal(() if size is None else size, dt)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=np.float64):
        lo, sc = _as_param(loc), _as_param(scale)
        _non_negative(sc, "scale")
        dt = np.dtype(dtype)
        if dt not in (np.dtype(np.float64), np.dtype(np.float32)):
            raise TypeError(f"Unsupported dtype {dt!r} for normal")
        shape = _out_shape(_norm_size(size), [lo, sc])
        if _is_scalar(lo) and _is_scalar(sc):
            out = self._new(shape, dt)
            _core._random_normal(out, *self._next(), float(lo), float(sc))
            return out
        z = self._std_normal(shape)
        res = _ufuncs.add(_dev(lo), _ufuncs.multiply(_dev(sc), z))
        return res if dt == np.float64 else res.astype(dt)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        m, s = _as_param(mean), _as_param(sigma)
        _non_negative(s, "sigma")
        shape = _out_shape(_norm_size(size), [m, s])
        z = self._std_normal(shape)
        return _ufuncs.exp(_ufuncs.add(_dev(m), _ufuncs.multiply(_dev(s), z)))

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None):
        dt = _float_dtype(dtype, "standard_exponential")
        if method not in ("zig", "inv"):
            raise ValueError("'method' argument must be 'zig' or 'inv'")
        size = _norm_size(size)
        if out is not None:
            return self._std_exp(None, dt, _check_out(out, size, dt))
        return self._std_exp(() if size is None else size, dt)

    def exponential(self, scale=1.0, size=None, dtype=np.float64):
        sc = _as_param(scale)
        _non_negative(sc, "scale")
        dt = _float_dtype(dtype, "exponential")
        shape = _out_shape(_norm_size(size), [sc])
        if _is_scalar(sc):
            out = self._new(shape, dt)
            _core._random_exponential(out, *self._next(), float(sc))
            return out
        res = _ufuncs.multiply(_dev(sc), self._std_exp(shape))
        return res if dt == np.float64 else res.astype(dt)

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None):
        k = _as_param(shape)
        _non_negative(k, "shape")
        dt = _float_dtype(dtype, "standard_gamma")
        size = _norm_size(size)
        if out is not None:
            _check_out(out, size, dt)
            return self._gamma(k, _out_shape(out.shape, [k]), dt, out=out)
        return self._gamma(k, _out_shape(size, [k]), dt)

    def gamma(self, shape, scale=1.0, size=None, dtype=np.float64):
        k, sc = _as_param(shape), _as_param(scale)
        _non_negative(k, "shape")
        _non_negative(sc, "scale")
        dt = _float_dtype(dtype, "gamma")
        out_shape = _out_shape(_norm_size(size), [k, sc])
        if _is_scalar(sc):
            return self._gamma(k, out_shape, dt, scale=float(sc))
        res = _ufuncs.multiply(_dev(sc), self._gamma(k, out_shape))
        return res if dt == np.float64 else res.astype(dt)

    def beta(self, a, b, size=None):
        pa, pb = _as_param(a), _as_param(b)
        _positive(pa, "a")
        _positive(pb, "b")
        shape = _out_shape(_norm_size(size), [pa, pb])
        x = self._gamma(pa, shape)
        y = self._gamma(pb, shape)
        return _ufuncs.divide(x, _ufuncs.add(x, y))

    def chisquare(self, df, size=None):
        d = _as_param(df)
        _positive(d, "df")
        shape = _out_shape(_norm_size(size), [d])
        half = d * 0.5 if not _is_device(d) else _ufuncs.multiply(d, 0.5)
        return _ufuncs.multiply(self._gamma(_as_param(half), shape), 2.0)

    def standard_t(self, df, size=None):
        d = _as_param(df)
        _positive(d, "df")
        shape = _out_shape(_norm_size(size), [d])
        z = self._std_normal(shape)
        half = d * 0.5 if not _is_device(d) else _ufuncs.multiply(d, 0.5)
        g = self._gamma(_as_param(half), shape)  # chi2(df) / 2
        return _ufuncs.divide(z, _ufuncs.sqrt(_ufuncs.divide(g, _ufuncs.multiply(_dev(d), 0.5))))

    def laplace(self, loc=0.0, scale=1.0, size=None):
        lo, sc = _as_param(loc), _as_param(scale)
        _non_negative(sc, "scale")
        shape = _out_shape(_norm_size(size), [lo, sc])
        # The difference of two standard exponentials is standard Laplace.
        e = _ufuncs.subtract(self._std_exp(shape), self._std_exp(shape))
        return _ufuncs.add(_dev(lo), _ufuncs.multiply(_dev(sc), e))

    def logistic(self, loc=0.0, scale=1.0, size=None):
        lo, sc = _as_param(loc), _as_param(scale)
        _non_negative(sc, "scale")
        shape = _out_shape(_norm_size(size), [lo, sc])
        # log(E1 / E2) of two standard exponentials is standard logistic.
        x = _ufuncs.subtract(_ufuncs.log(self._std_exp(shape)), _ufuncs.log(self._std_exp(shape)))
        return _ufuncs.add(_dev(lo), _ufuncs.multiply(_dev(sc), x))

    def weibull(self, a, size=None):
        pa = _as_param(a)
        _non_negative(pa, "a")
        shape = _out_shape(_norm_size(size), [pa])
        e = self._std_exp(shape)
        if _is_scalar(pa):
            if float(pa) == 0.0:  # NumPy: a == 0 gives 0
                return _core.zeros(shape, dtype=np.float64)
            return _ufuncs.power(e, 1.0 / float(pa))
        da = _dev(pa)
        res = _ufuncs.power(e, _ufuncs.divide(1.0, _indexing.where(_ufuncs.equal(da, 0.0), 1.0, da)))
        return _indexing.where(_ufuncs.equal(da, 0.0), 0.0, res)

    def triangular(self, left, mode, right, size=None):
        lf, md, rt = _as_param(left), _as_param(mode), _as_param(right)
        if _cmp_any("greater", lf, md):
            raise ValueError("left > mode")
        if _cmp_any("greater", md, rt):
            raise ValueError("mode > right")
        if _cmp_any("equal", lf, rt):
            raise ValueError("left == right")
        shape = _out_shape(_norm_size(size), [lf, md, rt])
        u = self._uniform01(shape)
        L, M, R = _dev(lf), _dev(md), _dev(rt)
        base = _ufuncs.subtract(R, L)
        leftbase = _ufuncs.subtract(M, L)
        ratio = _ufuncs.divide(leftbase, base)
        lo_branch = _ufuncs.add(L, _ufuncs.sqrt(_ufuncs.multiply(u, _ufuncs.multiply(leftbase, base))))
        hi_branch = _ufuncs.subtract(R, _ufuncs.sqrt(_ufuncs.multiply(_ufuncs.subtract(1.0, u),
                                                          _ufuncs.multiply(_ufuncs.subtract(R, M),
                                                                       base))))
        return _indexing.where(_ufuncs.less_equal(u, ratio), lo_branch, hi_branch)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        lo, sc = _as_param(loc), _as_param(scale)
        _non_negative(sc, "scale")
        shape = _out_shape(_norm_size(size), [lo, sc])
        # -log(E) of a standard exponential is standard Gumbel.
        g = _ufuncs.negative(_ufuncs.log(self._std_exp(shape)))
        return _ufuncs.add(_dev(lo), _ufuncs.multiply(_dev(sc), g))

    def pareto(self, a, size=None):
        pa = _as_param(a)
        _positive(pa, "a")
        shape = _out_shape(_norm_size(size), [pa])
        return _ufuncs.expm1(_ufuncs.divide(self._std_exp(shape), _dev(pa)))

    def power(self, a, size=None):
        pa = _as_param(a)
        _positive(pa, "a")
        shape = _out_shape(_norm_size(size), [pa])
        base = _ufuncs.negative(_ufuncs.expm1(_ufuncs.negative(self._std_exp(shape))))
        return _ufuncs.power(base, _ufuncs.divide(1.0, _dev(pa)))

    def rayleigh(self, scale=1.0, size=None):
        sc = _as_param(scale)
        _non_negative(sc, "scale")
        shape = _out_shape(_norm_size(size), [sc])
        return _ufuncs.multiply(_dev(sc), _ufuncs.sqrt(_ufuncs.multiply(self._std_exp(shape), 2.0)))

    def standard_cauchy(self, size=None):
        size = _norm_size(size)
        shape = () if size is None else size
        return _ufuncs.divide(self._std_normal(shape), self._std_normal(shape))

    def f(self, dfnum, dfden, size=None):
        dn, dd = _as_param(dfnum), _as_param(dfden)
        _positive(dn, "dfnum")
        _positive(dd, "dfden")
        shape = _out_shape(_norm_size(size), [dn, dd])
        # (chi2(dfnum) / dfnum) / (chi2(dfden) / dfden) = (G(dfnum/2) / dfnum) / (G(dfden/2) / dfden)
        half = lambda d: _as_param(d * 0.5 if not _is_device(d) else _ufuncs.multiply(d, 0.5))  # noqa: E731
        num = _ufuncs.divide(self._gamma(half(dn), shape), _dev(dn))
        den = _ufuncs.divide(self._gamma(half(dd), shape), _dev(dd))
        return _ufuncs.divide(num, den)

    def _rejection(self, shape, params, draw, dtype=np.float64):
        """Rejection sampling vectorised over the elements. ``draw(n, params)`` proposes n
        candidates for the parameters given (floats, or flat device arrays of n elements)
        and returns (candidates, accepted mask); each round redraws only the rejected
        elements, until none is left (one host synchronisation per round, for the count)."""
        n = math.prod(shape)
        flat = [p if isinstance(p, float) else _shape_ops.reshape(p, (n,)) for p in params]
        out, ok = draw(n, flat)
        out = _core.ascontiguousarray(_shape_ops.reshape(out.astype(dtype), (n,)))
        rem = _indexing.flatnonzero(_ufuncs.logical_not(ok))
        while rem.shape[0]:
            sub = [p if isinstance(p, float) else _indexing.take(p, rem) for p in flat]
            cand, ok = draw(rem.shape[0], sub)
            acc = _indexing.flatnonzero(ok)
            if acc.shape[0]:
                _indexing.put(out, _indexing.take(rem, acc), _indexing.take(cand, acc))
            rem = _indexing.take(rem, _indexing.flatnonzero(_ufuncs.logical_not(ok)))
        return _shape_ops.reshape(out, shape)

    def _noncentral_chisquare(self, d, nc, shape):
        """NumPy's algorithm: chi2(df - 1) + (Z + sqrt(nonc))**2 for df > 1, else
        chi2(df + 2 Poisson(nonc / 2)); NaN parameters give NaN."""
        if _is_scalar(d) and _is_scalar(nc):
            df, nonc = float(d), float(nc)
            if df != df or nonc != nonc:
                return _core.full(shape, np.nan, dtype=np.float64)
            if df > 1:
                z = _ufuncs.add(self._std_normal(shape), math.sqrt(nonc))
                chi = _ufuncs.multiply(self._gamma(np.asarray((df - 1) * 0.5), shape), 2.0)
                return _ufuncs.add(chi, _ufuncs.multiply(z, z))
            i = self._new(shape, np.int64)
            _core._random_poisson(i, *self._next(), nonc * 0.5)
            k = _ufuncs.add(i.astype(np.float64), df * 0.5)
            return _ufuncs.multiply(self._gamma(_core.ascontiguousarray(k), shape), 2.0)
        D, NC = _kernel_param(d, shape), _kernel_param(nc, shape)
        D = _core.full(shape, D, dtype=np.float64) if isinstance(D, float) else D
        NC = _core.full(shape, NC, dtype=np.float64) if isinstance(NC, float) else NC
        nan = _ufuncs.logical_or(_ufuncs.isnan(D), _ufuncs.isnan(NC))
        # Kernel parameters made valid where the branch is not taken (or the result is NaN).
        big = _ufuncs.greater(D, 1.0)
        a_half = _indexing.where(big, _ufuncs.multiply(_ufuncs.subtract(D, 1.0), 0.5), 1.0)
        z = _ufuncs.add(self._std_normal(shape), _ufuncs.sqrt(_indexing.where(nan, 0.0, NC)))
        chi_a = _ufuncs.add(_ufuncs.multiply(self._gamma(_core.ascontiguousarray(a_half), shape),
                                             2.0), _ufuncs.multiply(z, z))
        lam = _indexing.where(_ufuncs.logical_or(nan, big), 0.0, _ufuncs.multiply(NC, 0.5))
        i = self._new(shape, np.int64)
        _core._random_poisson(i, *self._next(), _core.ascontiguousarray(lam.astype(np.float64)))
        b_half = _ufuncs.add(i.astype(np.float64),
                             _ufuncs.multiply(_indexing.where(nan, 1.0, D), 0.5))
        chi_b = _ufuncs.multiply(self._gamma(_core.ascontiguousarray(b_half), shape), 2.0)
        return _indexing.where(nan, np.nan, _indexing.where(big, chi_a, chi_b))

    def noncentral_chisquare(self, df, nonc, size=None):
        """Noncentral chi-square: NumPy's algorithm over the device's normal, gamma and
        Poisson draws."""
        d, nc = _as_param(df), _as_param(nonc)
        _positive(d, "df")
        _non_negative(nc, "nonc")
        shape = _out_shape(_norm_size(size), [d, nc])
        return self._noncentral_chisquare(d, nc, shape)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        """Noncentral F: (noncentral chi2(dfnum, nonc) / dfnum) / (chi2(dfden) / dfden), on
        the device."""
        dn, dd, nc = _as_param(dfnum), _as_param(dfden), _as_param(nonc)
        _positive(dn, "dfnum")
        _positive(dd, "dfden")
        _non_negative(nc, "nonc")
        shape = _out_shape(_norm_size(size), [dn, dd, nc])
        t = _ufuncs.multiply(self._noncentral_chisquare(dn, nc, shape), _dev(dd))
        half = _as_param(dd * 0.5 if not _is_device(dd) else _ufuncs.multiply(dd, 0.5))
        chi = _ufuncs.multiply(self._gamma(half, shape), 2.0)
        return _ufuncs.divide(t, _ufuncs.multiply(chi, _dev(dn)))

    def wald(self, mean, scale, size=None):
        """Wald (inverse Gaussian): NumPy's transformation of a normal and a uniform, with the
        root written as 4 mean scale / (sqrt(Y) + sqrt(Y + 4 scale))**2 (no cancellation)."""
        m, sc = _as_param(mean), _as_param(scale)
        _positive(m, "mean")
        _positive(sc, "scale")
        shape = _out_shape(_norm_size(size), [m, sc])
        M, S = _dev(m), _dev(sc)
        z = self._std_normal(shape)
        y = _ufuncs.multiply(M, _ufuncs.multiply(z, z))
        root = _ufuncs.add(_ufuncs.sqrt(y), _ufuncs.sqrt(_ufuncs.add(y, _ufuncs.multiply(S, 4.0))))
        x = _ufuncs.divide(_ufuncs.multiply(_ufuncs.multiply(M, S), 4.0),
                           _ufuncs.multiply(root, root))
        u = self._uniform01(shape)
        keep = _ufuncs.less_equal(u, _ufuncs.divide(M, _ufuncs.add(M, x)))
        return _indexing.where(keep, x, _ufuncs.divide(_ufuncs.multiply(M, M), x))

    def vonmises(self, mu, kappa, size=None):
        """von Mises on [-pi, pi]: NumPy's algorithm (Best-Fisher rejection; uniform for
        kappa < 1e-8, a wrapped normal for kappa > 1e6), the rejection vectorised."""
        pm, pk = _as_param(mu), _as_param(kappa)
        _non_negative(pk, "kappa")
        shape = _out_shape(_norm_size(size), [pm, pk])
        k = _kernel_param(pk, shape)
        if isinstance(k, float):
            if k != k:
                return _core.full(shape, np.nan, dtype=np.float64)
            if k < 1e-8:
                # NumPy draws uniform angles here, whatever mu
                return _ufuncs.add(_ufuncs.multiply(self._uniform01(shape), 2 * math.pi),
                                   -math.pi)
            if k > 1e6:
                return self._wrap_angle(_ufuncs.add(
                    _dev(pm), _ufuncs.multiply(self._std_normal(shape), math.sqrt(1.0 / k))))
            if k < 1e-5:
                s = 1.0 / k + k
            else:
                r = 1.0 + math.sqrt(1.0 + 4.0 * k * k)
                rho = (r - math.sqrt(2.0 * r)) / (2.0 * k)
                s = (1.0 + rho * rho) / (2.0 * rho)
            special = None
        else:
            with np.errstate(all="ignore"):
                r = _ufuncs.add(_ufuncs.sqrt(_ufuncs.add(_ufuncs.multiply(
                    _ufuncs.multiply(k, k), 4.0), 1.0)), 1.0)
                rho = _ufuncs.divide(_ufuncs.subtract(r, _ufuncs.sqrt(_ufuncs.multiply(r, 2.0))),
                                     _ufuncs.multiply(k, 2.0))
                s = _ufuncs.divide(_ufuncs.add(_ufuncs.multiply(rho, rho), 1.0),
                                   _ufuncs.multiply(rho, 2.0))
                s = _indexing.where(_ufuncs.less(k, 1e-5),
                                    _ufuncs.add(_ufuncs.divide(1.0, k), k), s)
            # Elements outside the rejection branch accept their first candidate.
            special = _ufuncs.logical_not(_ufuncs.logical_and(
                _ufuncs.greater_equal(k, 1e-8), _ufuncs.less_equal(k, 1e6)))
            s = _core.ascontiguousarray(_indexing.where(special, 2.0, s))
            k = _core.ascontiguousarray(_indexing.where(special, 1.0, k))
            special = _core.ascontiguousarray(special.astype(np.float64))

        def draw(n, prm):
            s_, k_ = prm[0], prm[1]
            z = _ufuncs.cos(_ufuncs.multiply(self._uniform01((n,)), math.pi))
            w = _ufuncs.divide(_ufuncs.add(_ufuncs.multiply(z, s_), 1.0), _ufuncs.add(z, s_))
            y = _ufuncs.multiply(k_, _ufuncs.subtract(s_, w))
            v = self._uniform01((n,))
            with np.errstate(all="ignore"):
                ok = _ufuncs.logical_or(
                    _ufuncs.greater_equal(_ufuncs.subtract(
                        _ufuncs.multiply(y, _ufuncs.subtract(2.0, y)), v), 0.0),
                    _ufuncs.greater_equal(_ufuncs.subtract(
                        _ufuncs.add(_ufuncs.log(_ufuncs.divide(y, v)), 1.0), y), 0.0))
            if len(prm) > 2:
                ok = _ufuncs.logical_or(ok, _ufuncs.not_equal(prm[2], 0.0))
            return w, ok

        w = self._rejection(shape, [s, k] + ([] if special is None else [special]), draw)
        ang = _ufuncs.arccos(_ufuncs.clip(w, -1.0, 1.0))
        ang = _indexing.where(_ufuncs.less(self._uniform01(shape), 0.5), _ufuncs.negative(ang), ang)
        res = self._wrap_angle(_ufuncs.add(ang, _dev(pm)))
        if special is None:
            return res
        kk = _dev(pk)
        small = _ufuncs.less(kk, 1e-8)
        uni = _ufuncs.multiply(_ufuncs.subtract(_ufuncs.multiply(self._uniform01(shape), 2.0),
                                                1.0), math.pi)
        with np.errstate(all="ignore"):
            wrapped = self._wrap_angle(_ufuncs.add(_dev(pm), _ufuncs.multiply(
                self._std_normal(shape), _ufuncs.sqrt(_ufuncs.divide(1.0, kk)))))
        res = _indexing.where(_ufuncs.greater(kk, 1e6), wrapped, res)
        res = _indexing.where(small, uni, res)
        return _indexing.where(_ufuncs.isnan(kk), np.nan, res)

    @staticmethod
    def _wrap_angle(x):
        """x wrapped to [-pi, pi] as NumPy's vonmises does (the sign of x kept)."""
        mod = _ufuncs.subtract(_ufuncs.fmod(_ufuncs.add(_ufuncs.absolute(x), math.pi),
                                            2 * math.pi), math.pi)
        return _indexing.where(_ufuncs.less(x, 0.0), _ufuncs.negative(mod), mod)

    def dirichlet(self, alpha, size=None):
        """Dirichlet: normalised gammas along the last axis. Where some alpha < 1 the gammas
        are drawn in log space (log G(a + 1) + log(U) / a) and normalised from their maximum,
        so that small concentrations neither underflow to 0/0 nor lose their mass."""
        a = np.asarray(alpha.get() if _is_device(alpha) else alpha, dtype=np.float64)
        if a.ndim == 0:
            raise TypeError(f"object of type '{type(alpha).__name__}' has no len()")
        if a.ndim > 1:
            raise ValueError("setting an array element with a sequence. The requested array "
                             "would exceed the maximum number of dimension of 1.")
        if self._legacy:
            if np.any(np.less_equal(a, 0)):
                raise ValueError("alpha <= 0")
        elif np.any(np.less(a, 0)):
            raise ValueError("alpha < 0")
        size = _norm_size(size)
        shape = (() if size is None else size) + a.shape
        if a.size == 0 or math.prod(shape) == 0:
            return _core.empty(shape, dtype=np.float64)
        if np.any(np.isnan(a)):
            return _core.full(shape, np.nan, dtype=np.float64)
        if np.all(a >= 1):
            g = self._gamma(_core.asarray(a), shape)
            return _ufuncs.divide(g, g.sum(axis=-1, keepdims=True))
        da = _core.asarray(a)
        with np.errstate(all="ignore"):
            logg = _ufuncs.add(_ufuncs.log(self._gamma(_core.asarray(a + 1.0), shape)),
                               _ufuncs.divide(_ufuncs.log(self._uniform01(shape)), da))
            top = logg.max(axis=-1, keepdims=True)
            e = _ufuncs.exp(_ufuncs.subtract(logg, top))
            x = _ufuncs.divide(e, e.sum(axis=-1, keepdims=True))
        # All alpha == 0 (Generator only): every component is 0, as NumPy's.
        return _indexing.where(_ufuncs.isfinite(top), x, 0.0)

    def bytes(self, length):
        """``length`` random bytes: drawn on the device as uniform uint8, returned as a host
        ``bytes`` object (NumPy's return type is inherently host data)."""
        n = max(int(length), 0)
        return self.integers(0, 256, size=n, dtype=np.uint8).get().tobytes()

    # -- discrete ----------------------------------------------------------------------------
    def negative_binomial(self, n, p, size=None):
        pn, pp = _as_param(n), _as_param(p)
        if self._legacy:
            _positive(pn, "n")
            _bounded_0_1(pp, "p")
        else:
            if _any(_xp(pn).isnan(pn)):
                raise ValueError("n must not be NaN")
            _positive(pn, "n")
            _bounded_gt_0_1(pp, "p")
        shape = _out_shape(_norm_size(size), [pn, pp])
        # Poisson with a Gamma(n, (1 - p) / p) rate.
        with np.errstate(divide="ignore"):
            scale = _ufuncs.divide(_ufuncs.subtract(1.0, _dev(pp)), _dev(pp)) if not _is_scalar(pp) \
                else (1.0 - float(pp)) / float(pp) if float(pp) != 0 else np.inf
        lam = self._gamma(pn, shape)
        lam = _core.ascontiguousarray(_ufuncs.multiply(lam, scale))
        out = self._new(shape, np.int64)
        _core._random_poisson(out, *self._next(), lam)
        return out

    def logseries(self, p, size=None):
        """Logarithmic series: NumPy's algorithm (Kemp's), its rare rejections redrawn
        vectorised."""
        pp = _as_param(p)
        xp = _xp(pp)
        if not _all(xp.greater_equal(pp, 0)) or not _all(xp.less(pp, 1)):
            raise ValueError("p < 0, p >= 1 or p " + ("is NaN" if _is_scalar(pp) else
                                                       "contains NaNs"))
        shape = _out_shape(_norm_size(size), [pp])
        P = _kernel_param(pp, shape)
        R = math.log1p(-P) if isinstance(P, float) else _core.ascontiguousarray(
            _ufuncs.log1p(_ufuncs.negative(P)))

        def draw(n, prm):
            p_, r_ = prm
            v = self._uniform01((n,))
            u = self._uniform01((n,))
            q = _ufuncs.negative(_ufuncs.expm1(_ufuncs.multiply(u, r_)))
            with np.errstate(all="ignore"):
                k = _ufuncs.floor(_ufuncs.add(_ufuncs.divide(_ufuncs.log(v), _ufuncs.log(q)), 1.0))
            tail = _ufuncs.less_equal(v, _ufuncs.multiply(q, q))
            low = _indexing.where(_ufuncs.greater_equal(v, q), 1.0, 2.0)
            one = _ufuncs.greater_equal(v, p_)
            res = _indexing.where(one, 1.0, _indexing.where(tail, k, low))
            bad = _ufuncs.logical_or(_ufuncs.less(k, 1.0), _ufuncs.equal(v, 0.0))
            ok = _ufuncs.logical_not(_ufuncs.logical_and(
                _ufuncs.logical_and(_ufuncs.logical_not(one), tail), bad))
            return _indexing.where(ok, res, 1.0), ok

        return self._rejection(shape, [P, R], draw, np.int64)

    def zipf(self, a, size=None):
        """Zipf: NumPy's rejection algorithm (Devroye), vectorised; a >= 1025 gives 1."""
        pa = _as_param(a)
        if not _all(_xp(pa).greater(pa, 1)):
            raise ValueError("a <= 1 or a " + ("is NaN" if _is_scalar(pa) else "contains NaNs"))
        shape = _out_shape(_norm_size(size), [pa])
        A = _kernel_param(pa, shape)
        i64max = float(np.iinfo(np.int64).max)  # 2**63: the first float past int64
        if isinstance(A, float):
            if A >= 1025:
                return _core.full(shape, 1, dtype=np.int64)
            am1 = A - 1.0
            prm = [am1, 2.0 ** am1, i64max ** -am1, 0.0]
        else:
            am1 = _core.ascontiguousarray(_ufuncs.subtract(_ufuncs.minimum(A, 1024.0), 1.0))
            prm = [am1, _core.ascontiguousarray(_ufuncs.power(2.0, am1)),
                   _core.ascontiguousarray(_ufuncs.power(i64max, _ufuncs.negative(am1))),
                   _core.ascontiguousarray(_ufuncs.greater_equal(A, 1025.0).astype(np.float64))]

        def draw(n, prm):
            am1_, b_, umin_, done_ = prm
            u01 = self._uniform01((n,))
            u = _ufuncs.add(_ufuncs.multiply(u01, umin_), _ufuncs.subtract(1.0, u01))
            v = self._uniform01((n,))
            with np.errstate(all="ignore"):
                x = _ufuncs.floor(_ufuncs.power(u, _ufuncs.divide(-1.0, am1_)))
                t = _ufuncs.power(_ufuncs.add(_ufuncs.divide(1.0, x), 1.0), am1_)
                lhs = _ufuncs.divide(_ufuncs.multiply(_ufuncs.multiply(v, x),
                                                      _ufuncs.subtract(t, 1.0)),
                                     _ufuncs.subtract(b_, 1.0))
                ok = _ufuncs.logical_and(
                    _ufuncs.logical_and(_ufuncs.less(x, i64max), _ufuncs.greater_equal(x, 1.0)),
                    _ufuncs.less_equal(lhs, _ufuncs.divide(t, b_)))
            done = _ufuncs.not_equal(done_, 0.0)
            ok = _ufuncs.logical_or(ok, done)
            return _indexing.where(_ufuncs.logical_or(done, _ufuncs.logical_not(ok)), 1.0, x), ok

        return self._rejection(shape, prm, draw, np.int64)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        """Hypergeometric: NumPy's algorithms on the device: for nsample < 10 or within 10 of
        the population, drawing the (at most 9) marbles one by one, every element at once;
        otherwise Stadlober's ratio-of-uniforms (HRUA) rejection, vectorised."""
        def as_int(x):
            if _is_device(x):
                return x.astype(np.int64)
            return np.asarray(int(x) if np.ndim(x) == 0 else np.asarray(x).astype(np.int64),
                              dtype=np.int64)

        g, b, n = as_int(ngood), as_int(nbad), as_int(nsample)
        if not self._legacy and (_any(_xp(g).greater_equal(g, _HYPERGEOM_MAX))
                                 or _any(_xp(b).greater_equal(b, _HYPERGEOM_MAX))):
            raise ValueError(f"both ngood and nbad must be less than {_HYPERGEOM_MAX}")
        total = _ufuncs.add(_dev(g), _dev(b)) if _is_device(g) or _is_device(b) else g + b
        if _cmp_any("less", total, n):
            raise ValueError("ngood + nbad < nsample")
        if _any(_xp(g).less(g, 0)):
            raise ValueError("ngood < 0")
        if _any(_xp(b).less(b, 0)):
            raise ValueError("nbad < 0")
        if self._legacy:
            if _any(_xp(n).less(n, 1)):
                raise ValueError("nsample < 1 or nsample " + ("is NaN" if _is_scalar(n) else
                                                              "contains NaNs"))
        elif _any(_xp(n).less(n, 0)):
            raise ValueError("nsample < 0")
        shape = _out_shape(_norm_size(size), [g, b, n])
        G, B, S = (_core.full(shape, float(v), dtype=np.float64) if _is_scalar(v)
                   else _core.ascontiguousarray(_shape_ops.broadcast_to(
                       _dev(v).astype(np.float64), shape)) for v in (g, b, n))
        if all(_is_scalar(v) for v in (g, b, n)):
            tot, ns = int(g) + int(b), int(n)
            if 10 <= ns <= tot - 10:
                return self._hypergeometric_hrua(G, B, S, shape)
            return self._hypergeometric_sample(G, B, S, shape,
                                               tot - ns if ns > tot // 2 else ns)
        tot = _ufuncs.add(G, B)
        hrua = _ufuncs.logical_and(_ufuncs.greater_equal(S, 10.0),
                                   _ufuncs.less_equal(S, _ufuncs.subtract(tot, 10.0)))
        # Each path runs with harmless parameters where the other one is taken.
        small = self._hypergeometric_sample(G, B, _indexing.where(hrua, 0.0, S), shape, 9)
        big = self._hypergeometric_hrua(_indexing.where(hrua, G, 10.0),
                                        _indexing.where(hrua, B, 10.0),
                                        _indexing.where(hrua, S, 10.0), shape)
        return _indexing.where(hrua, big, small)

    def _hypergeometric_sample(self, G, B, S, shape, rounds):
        """NumPy's hypergeometric_sample: the smaller of nsample and its complement drawn one
        marble per round (``rounds`` bounds that count over the elements)."""
        tot = _ufuncs.add(G, B)
        flip = _ufuncs.greater(S, _ufuncs.floor(_ufuncs.multiply(tot, 0.5)))
        cs = _indexing.where(flip, _ufuncs.subtract(tot, S), S)
        rt, rg = tot, G
        for _ in range(rounds):
            active = _ufuncs.logical_and(
                _ufuncs.logical_and(_ufuncs.greater(cs, 0.0), _ufuncs.greater(rg, 0.0)),
                _ufuncs.greater(rt, rg))
            pick = _ufuncs.less(_ufuncs.floor(_ufuncs.multiply(self._uniform01(shape), rt)), rg)
            act = active.astype(np.float64)
            rg = _ufuncs.subtract(rg, _ufuncs.multiply(act, pick.astype(np.float64)))
            rt = _ufuncs.subtract(rt, act)
            cs = _ufuncs.subtract(cs, act)
        rg = _indexing.where(_ufuncs.equal(rt, rg), _ufuncs.subtract(rg, cs), rg)
        return _indexing.where(flip, rg, _ufuncs.subtract(G, rg)).astype(np.int64)

    def _hypergeometric_hrua(self, G, B, S, shape):
        """NumPy's hypergeometric_hrua (Stadlober's ratio of uniforms), vectorised."""
        d1, d2 = 1.7155277699214135, 0.8989161620588988
        pop = _ufuncs.add(G, B)
        cs = _ufuncs.minimum(S, _ufuncs.subtract(pop, S))
        lo, hi = _ufuncs.minimum(G, B), _ufuncs.maximum(G, B)
        p, q = _ufuncs.divide(lo, pop), _ufuncs.divide(hi, pop)
        a = _ufuncs.add(_ufuncs.multiply(cs, p), 0.5)
        var = _ufuncs.divide(_ufuncs.multiply(_ufuncs.multiply(_ufuncs.subtract(pop, cs), cs),
                                              _ufuncs.multiply(p, q)),
                             _ufuncs.subtract(pop, 1.0))
        c = _ufuncs.sqrt(_ufuncs.add(var, 0.5))
        h = _ufuncs.add(_ufuncs.multiply(c, d1), d2)
        m = _ufuncs.floor(_ufuncs.divide(_ufuncs.multiply(_ufuncs.add(cs, 1.0),
                                                          _ufuncs.add(lo, 1.0)),
                                         _ufuncs.add(pop, 2.0)))
        gm = _log_factorials(m, lo, cs, hi)
        bound = _ufuncs.minimum(_ufuncs.add(_ufuncs.minimum(cs, lo), 1.0),
                                _ufuncs.floor(_ufuncs.add(a, _ufuncs.multiply(c, 16.0))))
        prm = [_core.ascontiguousarray(v) for v in (a, h, bound, lo, cs, hi, gm)]

        def draw(n, prm):
            a_, h_, bound_, lo_, cs_, hi_, gm_ = prm
            u = self._uniform01((n,))
            v = self._uniform01((n,))
            x = _ufuncs.add(a_, _ufuncs.divide(_ufuncs.multiply(h_, _ufuncs.subtract(v, 0.5)), u))
            inside = _ufuncs.logical_and(_ufuncs.greater_equal(x, 0.0), _ufuncs.less(x, bound_))
            k = _indexing.where(inside, _ufuncs.floor(x), 0.0)
            t = _ufuncs.subtract(gm_, _log_factorials(k, lo_, cs_, hi_))
            with np.errstate(all="ignore"):
                fast = _ufuncs.less_equal(
                    _ufuncs.subtract(_ufuncs.multiply(u, _ufuncs.subtract(4.0, u)), 3.0), t)
                slow = _ufuncs.logical_and(
                    _ufuncs.less(_ufuncs.multiply(u, _ufuncs.subtract(u, t)), 1.0),
                    _ufuncs.less_equal(_ufuncs.multiply(_ufuncs.log(u), 2.0), t))
            return k, _ufuncs.logical_and(inside, _ufuncs.logical_or(fast, slow))

        k = self._rejection(shape, prm, draw).astype(np.float64)
        k = _indexing.where(_ufuncs.greater(G, B), _ufuncs.subtract(cs, k), k)
        k = _indexing.where(_ufuncs.less(cs, S), _ufuncs.subtract(G, k), k)
        return k.astype(np.int64)

    def poisson(self, lam=1.0, size=None):
        lm = _as_param(lam)
        _poisson_lam(lm, "lam")
        shape = _out_shape(_norm_size(size), [lm])
        out = self._new(shape, np.int64)
        _core._random_poisson(out, *self._next(), _kernel_param(lm, shape))
        return out

    def binomial(self, n, p, size=None):
        pn = _as_param(n, np.int64) if not _is_device(n) else n.astype(np.int64)
        pp = _as_param(p)
        if _any(_xp(pn).less(pn, 0)):
            raise ValueError("n < 0")
        _bounded_0_1(pp, "p")
        shape = _out_shape(_norm_size(size), [pn, pp])
        fn = pn.astype(np.float64) if not _is_scalar(pn) else np.asarray(float(pn))
        out = self._new(shape, np.int64)
        _core._random_binomial(out, *self._next(), _kernel_param(fn, shape),
                               _kernel_param(pp, shape))
        return out

    def geometric(self, p, size=None):
        pp = _as_param(p)
        _bounded_gt_0_1(pp, "p")
        shape = _out_shape(_norm_size(size), [pp])
        e = self._std_exp(shape)
        # ceil(E / -log(1 - p)); p == 1 gives 1.
        with np.errstate(divide="ignore"):
            denom = _ufuncs.negative(_ufuncs.log1p(_ufuncs.negative(_dev(pp)))) if not _is_scalar(pp) \
                else -np.log1p(-float(pp))
            k = _ufuncs.ceil(_ufuncs.divide(e, denom))
        return _ufuncs.maximum(k, 1.0).astype(np.int64)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        dt = np.dtype(dtype)
        if dt.kind not in "biu":
            raise TypeError(f"Unsupported dtype {dt!r} for "
                            f"{'randint' if self._legacy else 'integers'}")
        if high is None:
            low, high = 0, low
        if np.ndim(low) or np.ndim(high) or _is_device(low) or _is_device(high):
            return self._integers_array(low, high, _norm_size(size), dt, endpoint)
        lo, hi = _as_int(low), _as_int(high)
        closed_hi = hi if endpoint else hi - 1
        lb, ub = _int_bounds(dt)
        name = "bool" if dt.kind == "b" else dt.name
        if lo < lb:
            raise ValueError(f"low is out of bounds for {name}")
        if closed_hi > ub:
            raise ValueError(f"high is out of bounds for {name}")
        if lo > closed_hi:
            if lo == 0:
                raise ValueError("high < 0" if endpoint else "high <= 0")
            raise ValueError("low > high" if endpoint else "low >= high")
        size = _norm_size(size)
        out = self._new(() if size is None else size, dt)
        _core._random_integers(out, *self._next(), lo & _MASK64, closed_hi - lo)
        return out

    def _integers_array(self, low, high, size, dt, endpoint):
        """integers() with array bounds: NumPy's broadcast checks on the host (object
        arithmetic on the un-broadcast bounds), then per-element bounds on the device."""
        def host_ints(x):
            h = np.asarray(x.get() if _is_device(x) else x)
            if h.dtype.kind == "f":
                h = h.astype(np.int64)
            return h.astype(object)

        lo, hi = host_ints(low), host_ints(high)
        lb, ub = _int_bounds(dt)
        name = "bool" if dt.kind == "b" else dt.name
        if np.any(lo < lb):
            raise ValueError(f"low is out of bounds for {name}")
        if np.any(hi > ub) if endpoint else np.any(hi > ub + 1):
            raise ValueError(f"high is out of bounds for {name}")
        if np.any(lo > hi) if endpoint else np.any(lo >= hi):
            if not np.any(lo != 0):
                raise ValueError("high < 0" if endpoint else "high <= 0")
            raise ValueError("low > high" if endpoint else "low >= high")
        shape = _out_shape(size, [lo, hi], size_last=True)
        closed_hi = hi if endpoint else hi - 1
        lo_b, hi_b = np.broadcast_arrays(lo, closed_hi)
        low_bits = np.array([int(v) & _MASK64 for v in lo_b.ravel()],
                            dtype=np.uint64).reshape(lo_b.shape)
        rng_bits = np.array([int(h) - int(v) for h, v in zip(hi_b.ravel(), lo_b.ravel())],
                            dtype=np.uint64).reshape(lo_b.shape)
        out = self._new(shape, dt)

        def dev(a):
            return _core.ascontiguousarray(_shape_ops.broadcast_to(_core.asarray(a), shape))

        _core._random_integers_array(out, *self._next(), dev(low_bits), dev(rng_bits))
        return out

    def multinomial(self, n, pvals, size=None):
        nn = _as_int(n)
        if nn < 0:
            raise ValueError("n < 0")
        pv = np.asarray(pvals.get() if _is_device(pvals) else pvals, dtype=np.float64)
        if pv.ndim != 1:
            raise ValueError("pvals must be a one-dimensional array")
        if np.any(np.isnan(pv)) or np.any(pv < 0) or np.any(pv > 1):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if float(np.sum(pv[:-1])) > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        size = _norm_size(size)
        shape = () if size is None else size
        k = pv.shape[0]
        out = _core.empty(shape + (k,), dtype=np.int64)
        if k == 0:
            return out
        # Conditional binomials: x_j ~ Binomial(remaining, p_j / (1 - sum of earlier p)).
        remaining = _core.full(shape, float(nn), dtype=np.float64)
        rest = 1.0
        for j in range(k - 1):
            pj = float(pv[j])
            q = 0.0 if rest <= 0 else min(max(pj / rest, 0.0), 1.0)
            x = self._new(shape, np.int64)
            _core._random_binomial(x, *self._next(), _core.ascontiguousarray(remaining), q)
            out[..., j] = x
            remaining = _ufuncs.subtract(remaining, x.astype(np.float64))
            rest -= pj
        out[..., k - 1] = remaining.astype(np.int64)
        return out

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8,
                            method="svd"):
        # The factorisation of the (small) covariance is done on the host with NumPy.
        if method not in {"svd", "eigh", "cholesky"}:
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        m = np.asarray(mean.get() if _is_device(mean) else mean, dtype=np.float64)
        c = np.asarray(cov.get() if _is_device(cov) else cov, dtype=np.float64)
        size = _norm_size(size)
        shape = () if size is None else size
        if len(m.shape) != 1:
            raise ValueError("mean must be 1 dimensional")
        if (len(c.shape) != 2) or (c.shape[0] != c.shape[1]):
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if method == "cholesky":
            factor = np.linalg.cholesky(c).T
        elif method == "eigh":
            s, u = np.linalg.eigh(c)
            if check_valid != "ignore":
                self._check_psd(c, s, u.T, check_valid, tol, eigh=True)
            factor = (np.sqrt(np.abs(s)) * u).T
        else:
            u, s, vh = np.linalg.svd(c)
            if check_valid != "ignore":
                self._check_psd(c, s, vh, check_valid, tol, eigh=False)
            factor = np.sqrt(s)[:, None] * vh
        z = self._std_normal(shape + (m.shape[0],))
        return _ufuncs.add(_core.matmul(z, _core.asarray(factor)), _core.asarray(m))

    @staticmethod
    def _check_psd(c, s, v, check_valid, tol, eigh):
        if check_valid not in ("warn", "raise"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if eigh:
            psd = not np.any(s < -tol)
        else:
            psd = np.allclose(np.dot(v.T * s, v), c, rtol=tol, atol=tol)
        if not psd:
            if check_valid == "warn":
                warnings.warn("covariance is not symmetric positive-semidefinite.",
                              RuntimeWarning, stacklevel=3)
            else:
                raise ValueError("covariance is not symmetric positive-semidefinite.")

    # -- permutations and sampling ----------------------------------------------------------
    def permutation(self, x, axis=0):
        if isinstance(x, (numbers.Integral, np.integer)):
            return self._random_order(max(int(x), 0))
        arr = x if _is_device(x) else _core.asarray(x)
        if arr.ndim == 0:
            if self._legacy:
                raise IndexError("x must be an integer or at least 1-dimensional")
            raise np.exceptions.AxisError(axis, 0)
        ax = operator.index(axis)
        n = arr.shape[ax if ax >= 0 else ax + arr.ndim] if -arr.ndim <= ax < arr.ndim else None
        if n is None:
            raise np.exceptions.AxisError(ax, arr.ndim)
        return _indexing.take(arr, self._random_order(n), axis=ax)

    def shuffle(self, x, axis=0):
        if not _is_device(x):
            raise TypeError("The array must be gpuarr.ndarray")
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        ax = operator.index(axis)
        if not -x.ndim <= ax < x.ndim:
            raise np.exceptions.AxisError(ax, x.ndim)
        n = x.shape[ax]
        if n <= 1:
            return None
        x[...] = _indexing.take(x, self._random_order(n), axis=ax)
        return None

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        legacy = self._legacy
        if isinstance(a, (numbers.Integral, np.integer)):
            arr = None
            pop = int(a)
        else:
            arr = a if _is_device(a) else np.asarray(a)
            if arr.ndim == 0:
                if legacy:
                    raise ValueError("a must be 1-dimensional or an integer")
                if not np.issubdtype(arr.dtype, np.integer):
                    raise ValueError(f"a must be a sequence or an integer, not {type(a)}")
                pop, arr = int(arr), None
            else:
                if legacy and arr.ndim != 1:
                    raise ValueError("a must be 1-dimensional")
                ax = operator.index(axis)
                if not -arr.ndim <= ax < arr.ndim:
                    raise np.exceptions.AxisError(ax, arr.ndim)
                axis = ax % arr.ndim
                pop = arr.shape[axis]
        size_t = _norm_size(size)
        n_samples = 1 if size_t is None else int(np.prod(size_t, dtype=np.int64))
        if pop <= 0 and n_samples != 0:
            if legacy:
                raise ValueError("a must be greater than 0 unless no samples are taken" if arr is None
                                 else "a cannot be empty unless no samples are taken")
            raise ValueError("a must be a positive integer unless no samples are taken"
                             if arr is None else "a cannot be empty unless no samples are taken")
        pv = None
        if p is not None:
            pv = np.asarray(p.get() if _is_device(p) else p, dtype=np.float64)
            if pv.ndim != 1:
                raise ValueError("'p' must be 1-dimensional" if legacy
                                 else "p must be 1-dimensional")
            if pv.size != pop:
                raise ValueError("'a' and 'p' must have same size" if legacy
                                 else "a and p must have same size")
            if np.any(np.isnan(pv)):
                raise ValueError("probabilities contain NaN" if legacy
                                 else "Probabilities contain NaN")
            if np.any(pv < 0):
                raise ValueError("probabilities are not non-negative" if legacy
                                 else "Probabilities are not non-negative")
            atol = max(np.sqrt(np.finfo(np.float64).eps), 1e-8)
            if abs(float(np.sum(pv)) - 1.0) > atol:
                raise ValueError("probabilities do not sum to 1" if legacy else
                                 "Probabilities do not sum to 1. See Notes section of docstring "
                                 "for more information.")
        shape = () if size_t is None else size_t
        if not replace:
            if n_samples > pop:
                raise ValueError("Cannot take a larger sample than population when "
                                 "'replace=False'" if legacy else
                                 "Cannot take a larger sample than population when replace "
                                 "is False")
            if pv is not None and np.count_nonzero(pv > 0) < n_samples:
                raise ValueError("Fewer non-zero entries in p than size")
        if n_samples == 0:
            idx = _core.empty(shape, dtype=np.int64)
        elif replace:
            if pv is None:
                idx = self.integers(0, pop, size=shape)
            else:
                cdf = np.cumsum(pv)
                cdf /= cdf[-1]
                u = self._uniform01(shape)
                idx = _sorting.searchsorted(_core.asarray(cdf), u, side="right")
                idx = _ufuncs.minimum(idx, pop - 1)
        else:
            if pv is None:
                order = self._random_order(pop)
            else:
                # Efraimidis-Spirakis: the n smallest of E_i / p_i are a weighted sample
                # without replacement (p_i == 0 gives inf: never among them).
                with np.errstate(divide="ignore"):
                    keys = _ufuncs.divide(self._std_exp((pop,)), _core.asarray(pv))
                order = _sorting.argsort(keys)
            idx = _shape_ops.reshape(order[:n_samples], shape)
        if arr is None:
            return idx
        src = arr if _is_device(arr) else _core.asarray(arr)
        return _indexing.take(src, idx, axis=axis)


class Generator(_Base):
    """NumPy's Generator interface on the device (``default_rng(seed)``)."""

    def __init__(self, seed=None):
        if isinstance(seed, np.random.SeedSequence):
            ss = seed
        else:
            ss = np.random.SeedSequence(seed)
        self._seed_seq = ss
        super().__init__(_key_from_seed_sequence(ss))

    def __repr__(self):
        return "Generator(Philox4x32-10)"

    def spawn(self, n_children):
        return [Generator(s) for s in self._seed_seq.spawn(n_children)]

    # NumPy's Generator signatures (no dtype= on these).
    def uniform(self, low=0.0, high=1.0, size=None):
        return super().uniform(low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return super().normal(loc, scale, size)

    def exponential(self, scale=1.0, size=None):
        return super().exponential(scale, size)

    def gamma(self, shape, scale=1.0, size=None):
        return super().gamma(shape, scale, size)


def default_rng(seed=None):
    """A new Generator; a Generator passed in is returned unaltered (as NumPy)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


class RandomState(_Base):
    """NumPy's legacy RandomState interface (CuPy's: float32 allowed through dtype=)."""

    _legacy = True

    def __init__(self, seed=None):
        super().__init__(0)
        self.seed(seed)

    def __repr__(self):
        return "RandomState(Philox4x32-10)"

    def seed(self, seed=None):
        if seed is None:
            ss = np.random.SeedSequence()
        else:
            # NumPy's legacy seeding rules (0 <= seed < 2**32, or an array of such): the same
            # exceptions as numpy.random.RandomState(seed).
            np.random.RandomState(seed)
            ss = np.random.SeedSequence(np.asarray(seed, dtype=np.int64).ravel().tolist()
                                        if np.ndim(seed) else int(seed))
        self._stream = _Stream(_key_from_seed_sequence(ss))

    def random_sample(self, size=None, dtype=np.float64):
        return self.random(size, dtype)

    def rand(self, *size, dtype=np.float64):
        return self.random(size, dtype)

    def randn(self, *size, dtype=np.float64):
        return self.standard_normal(size, dtype)

    def randint(self, low, high=None, size=None, dtype=np.int64):
        return self.integers(low, high, size, dtype, endpoint=False)

    def random_integers(self, low, high=None, size=None):
        if high is None:
            low, high = 1, low
        return self.integers(low, high, size, np.int64, endpoint=True)

    def standard_exponential(self, size=None, dtype=np.float64):
        return super().standard_exponential(size, dtype)

    def standard_gamma(self, shape, size=None, dtype=np.float64):
        return super().standard_gamma(shape, size, dtype)

    def permutation(self, x):
        return super().permutation(x, 0)

    def shuffle(self, x):
        return super().shuffle(x, 0)

    def choice(self, a, size=None, replace=True, p=None):
        return super().choice(a, size, replace, p)

    def tomaxint(self, size=None):
        return self.integers(0, np.iinfo(np.int64).max, size)
