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

    def _bits64(self, n):
        out = self._new((n,), np.uint64)
        _core._random_bits64(out, *self._next())
        return out

    def _random_order(self, n):
        """A random permutation of range(n) (int64): argsort of random 64-bit keys."""
        if n == 0:
            return _core.empty((0,), dtype=np.int64)
        return _sorting.argsort(self._bits64(n))

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
