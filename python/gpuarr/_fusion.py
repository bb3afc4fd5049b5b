"""``gpuarr.fuse``: one generated kernel for an elementwise expression (CuPy's
``cupy.fuse``).

On the first call for a tuple of argument kinds (array dtype and ndim, Python scalar
type, NumPy scalar dtype) the function runs once on symbolic values; every ufunc,
operator and ``gpuarr.where`` records a node whose loop (input and output dtypes) comes
from the eager ufuncs' resolver (``_core._ufunc_loop_for``), so that fused results have
the eager dtypes, with Python scalars weak (NEP 50). The recorded graph becomes C code in
an elementwise kernel pair (contiguous/strided) launched by the C++ launcher; a final
``sum/prod/max/min/any/all`` (axis=None) folds into the same launch as a block reduction.
Later calls cost one dict lookup and one C++ call.

What cannot be traced (Python control flow on values, unsupported functions or dtypes)
runs eagerly instead, with one warning naming the reason.
"""

import functools
import struct
import types
import warnings

import numpy as _np

from gpuarr import _core
from gpuarr._kernels import GENERATED_PRELUDE, ctype

__all__ = ["fuse"]


class _Unfusable(Exception):
    pass


# No FMA contraction across the fused operations: eager ops round after each ufunc.
FUSE_OPTIONS = ("--fmad=false",)


# ------------------------------------------------------------------------------------
# Generated code calls the eager loops' functors (gpuarr/ufunc_math.cuh, shipped with the
# package and on NVRTC's include path): the registry names each ufunc's functor, so a fused
# operation means what the eager one does, with no table here.

HEADER = "#include <gpuarr/ufunc_math.cuh>\n"

# float16 storage -> float32 compute, as the eager loops convert (the NaN's sign kept).
_HALF_TO_FLOAT = "gpuarr::ufn::half_to_float(%s)"


# Ufuncs whose float16 loop is not their functor applied to float values but a functor of
# its own (NumPy's npy_half_* neighbours; cpp/ops/ufunc_special.cu): the registry names one
# functor per ufunc, so fusing these for float16 would give the float32 neighbour, rounded.
HALF_LOOPS_NOT_FUSED = frozenset({"nextafter", "spacing"})


def _functor_call(functor, operands):
    return "gpuarr::ufn::%s{}(%s)" % (functor, ", ".join(operands))


# ------------------------------------------------------------------------------------
# Tracing


class _Var:
    """A symbolic value during tracing."""

    __slots__ = ("_tr", "dtype", "ndim", "code", "weak")

    def __init__(self, tr, dtype, ndim, code, weak=None):
        self._tr = tr
        self.dtype = dtype
        self.ndim = ndim
        self.code = code
        self.weak = weak  # Python scalar type for weak scalar parameters

    def __bool__(self):
        raise _Unfusable("data-dependent control flow (bool() of a traced value)")

    def __len__(self):
        raise _Unfusable("len() of a traced value")

    def __iter__(self):
        raise _Unfusable("iteration over a traced value")

    def __getitem__(self, key):
        raise _Unfusable("indexing a traced value")

    def __setitem__(self, key, value):
        raise _Unfusable("assignment into a traced value")

    def __index__(self):
        raise _Unfusable("int() of a traced value")

    __int__ = __float__ = __complex__ = __index__

    def astype(self, dtype, copy=True):
        return self._tr.cast(self, _np.dtype(dtype))

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tr.reduce("sum", self, axis, dtype, out, keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._tr.reduce("prod", self, axis, dtype, out, keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("max", self, axis, None, out, keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("min", self, axis, None, out, keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("any", self, axis, None, out, keepdims)

    def all(self, axis=None, out=None, keepdims=False):
        return self._tr.reduce("all", self, axis, None, out, keepdims)


def _binop(name, reflected=False):
    if reflected:
        return lambda self, other: self._tr.ufunc(name, other, self)
    return lambda self, other: self._tr.ufunc(name, self, other)


for _op, _name in [("add", "add"), ("sub", "subtract"), ("mul", "multiply"),
                   ("truediv", "divide"), ("floordiv", "floor_divide"), ("mod", "remainder"),
                   ("pow", "power"), ("and", "bitwise_and"), ("or", "bitwise_or"),
                   ("xor", "bitwise_xor"), ("lshift", "left_shift"), ("rshift", "right_shift")]:
    setattr(_Var, "__%s__" % _op, _binop(_name))
    setattr(_Var, "__r%s__" % _op, _binop(_name, True))
for _op, _name in [("eq", "equal"), ("ne", "not_equal"), ("lt", "less"), ("le", "less_equal"),
                   ("gt", "greater"), ("ge", "greater_equal")]:
    setattr(_Var, "__%s__" % _op, _binop(_name))
_Var.__hash__ = object.__hash__
_Var.__neg__ = lambda self: self._tr.ufunc("negative", self)
_Var.__pos__ = lambda self: self._tr.ufunc("positive", self)
_Var.__abs__ = lambda self: self._tr.ufunc("absolute", self)
_Var.__invert__ = lambda self: self._tr.ufunc("invert", self)

_REDUCTIONS = {"sum": "sum", "prod": "prod", "max": "max", "amax": "max", "min": "min",
               "amin": "min", "any": "any", "all": "all"}


def _literal(value, dt):
    """A C expression of ``value`` converted to dtype ``dt`` exactly (NumPy's conversion;
    OverflowError as NumPy for out-of-range Python ints)."""
    v = _np.array(value, dtype=dt)
    if dt.kind == "b":
        return "true" if bool(v) else "false"
    if dt.kind in "iu":
        return "((%s)%dLL)" % (ctype(dt), int(v)) if dt.kind == "i" else "((%s)%dULL)" % (
            ctype(dt), int(v))
    if dt == _np.float64:
        return "__longlong_as_double(%dLL)" % int(v.view(_np.int64))
    if dt == _np.float32:
        return "__int_as_float(%d)" % int(v.view(_np.int32))
    if dt == _np.float16:
        return "__ushort_as_half((unsigned short)%d)" % int(v.view(_np.uint16))
    raise _Unfusable("constant of dtype %s" % dt)


class _Tracer:
    def __init__(self):
        self.lines = []
        self.n = 0
        self.reduction = None  # (kind, var, out dtype)
        self.weak_int_targets = {}  # param code -> integer dtypes it is converted to
        self.used_after_reduce = False

    def new(self, dtype, ndim, expr):
        if self.reduction is not None:
            raise _Unfusable("operations after a reduction")
        name = "v%d" % self.n
        self.n += 1
        self.lines.append("const %s %s = %s;" % (ctype(dtype), name, expr))
        return _Var(self, dtype, ndim, name)

    def _check(self, v):
        if isinstance(v, _Var):
            if v._tr is not self:
                raise _Unfusable("a traced value from another fused function")
            if v.dtype.kind == "c":
                raise _Unfusable("complex dtypes are not fused")
            return v
        if isinstance(v, (bool, int, float)) or (isinstance(v, _np.generic) and v.dtype.kind in "biuf"):
            return v
        raise _Unfusable("an operand of type %s" % type(v).__name__)

    def _promo(self, v):
        """What the eager resolver sees for operand v."""
        if isinstance(v, _Var):
            return v.weak(0) if v.weak is not None else v.dtype
        return v

    def _note_weak_int(self, v, dt):
        """A Python int argument converted to integer dtype dt: calls check its range as
        NumPy does (OverflowError)."""
        if isinstance(v, _Var) and v.weak is int and dt.kind in "iu":
            self.weak_int_targets.setdefault(v.code, set()).add(dt)

    def _operand(self, v, dt):
        """C expression of operand v converted to the compute type of a loop input dt."""
        comp = _np.dtype(_np.float32) if dt == _np.float16 else dt
        self._note_weak_int(v, dt)
        if isinstance(v, _Var):
            src = v.code
            if v.dtype == _np.float16:
                src = _HALF_TO_FLOAT % src
            elif dt == _np.float16 and v.dtype.kind in "iuf" and v.dtype != _np.float32:
                # NumPy rounds the operand to float16 once (a Python float is weak, an
                # int or float64 value is cast): no double rounding through float.
                src = _HALF_TO_FLOAT % ("__double2half((double)%s)" % src)
            return "((%s)%s)" % (ctype(comp), src)
        return "((%s)%s)" % (ctype(comp), _literal(v, dt))

    def ufunc(self, name, *args):
        args = [self._check(a) for a in args]
        sig = _core._ufunc_loop_for(name, [self._promo(a) for a in args])
        ins, outs = sig.split("->")
        if len(outs) != 1:
            raise _Unfusable("gpuarr.%s has several outputs" % name)
        in_dts = [_np.dtype(c) for c in ins]
        out_dt = _np.dtype(outs)
        if any(d.kind == "c" for d in in_dts) or out_dt.kind == "c":
            raise _Unfusable("complex dtypes are not fused")
        if name in HALF_LOOPS_NOT_FUSED and in_dts[0] == _np.float16:
            raise _Unfusable("gpuarr.%s of float16 has its own float16 loop" % name)
        functor, int_exponent_checked = _core._ufunc_jit_info(name)
        if functor is None:
            raise _Unfusable("gpuarr.%s is not supported by fuse" % name)
        if int_exponent_checked and in_dts[1].kind in "iu":
            # The eager call refuses a negative scalar exponent before launching; a kernel
            # cannot raise.
            e = args[1]
            if isinstance(e, _Var) and e.ndim == 0:
                raise _Unfusable("gpuarr.%s of integers with a scalar exponent" % name)
            if not isinstance(e, _Var) and e < 0:
                raise _Unfusable("gpuarr.%s of integers with a negative exponent" % name)
        ops = [self._operand(a, d) for a, d in zip(args, in_dts)]
        call = _functor_call(functor, ops)
        if out_dt == _np.float16:
            body = "__float2half((float)%s)" % call
        else:
            body = "((%s)%s)" % (ctype(out_dt), call)
        ndim = max([a.ndim for a in args if isinstance(a, _Var)] + [0])
        return self.new(out_dt, ndim, body)

    def cast(self, v, dt):
        v = self._check(v)
        if not isinstance(v, _Var):
            raise _Unfusable("astype of a constant")
        if dt.kind == "c":
            raise _Unfusable("complex dtypes are not fused")
        if v.dtype == dt:
            return v
        if dt.kind in "iu" and v.dtype.kind == "f":
            raise _Unfusable("float to integer astype (NumPy's out-of-range rules)")
        src = _HALF_TO_FLOAT % v.code if v.dtype == _np.float16 else v.code
        if dt == _np.float16:
            expr = "__double2half((double)%s)" % src
        elif dt.kind == "b":
            expr = "(%s != 0)" % src
        else:
            expr = "((%s)%s)" % (ctype(dt), src)
        return self.new(dt, v.ndim, expr)

    def where(self, cond, x, y):
        cond, x, y = self._check(cond), self._check(x), self._check(y)
        dt = _np.dtype(_core._ufunc_loop_for("add", [self._promo(x), self._promo(y)])[-1])
        if dt.kind == "c":
            raise _Unfusable("complex dtypes are not fused")
        c = self._operand(cond, _np.dtype(bool)) if isinstance(cond, _Var) else _literal(cond, _np.dtype(bool))
        conv = []
        for v in (x, y):
            self._note_weak_int(v, dt)
            if isinstance(v, _Var) and v.dtype == dt:
                conv.append(v.code)
                continue
            if isinstance(v, _Var):
                src = _HALF_TO_FLOAT % v.code if v.dtype == _np.float16 else v.code
            else:
                src = _literal(v, dt)
            if dt == _np.float16:
                conv.append("__double2half((double)%s)" % src)   # one rounding, as NumPy
            else:
                conv.append("((%s)%s)" % (ctype(dt), src))
        ndim = max([a.ndim for a in (cond, x, y) if isinstance(a, _Var)] + [0])
        return self.new(dt, ndim, "(%s ? %s : %s)" % (c, conv[0], conv[1]))

    def reduce(self, kind, v, axis, dtype, out, keepdims):
        v = self._check(v)
        if not isinstance(v, _Var):
            raise _Unfusable("reduction of a constant")
        if axis is not None or out is not None or keepdims or dtype is not None:
            raise _Unfusable("reductions with axis/dtype/out/keepdims are not fused")
        if self.reduction is not None:
            raise _Unfusable("more than one reduction")
        dt = v.dtype
        if kind in ("sum", "prod"):
            if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
                dt = _np.dtype(_np.int64)
            elif dt.kind == "u" and dt.itemsize < 8:
                dt = _np.dtype(_np.uint64)
        elif kind in ("any", "all"):
            dt = _np.dtype(bool)
        self.reduction = (kind, v, dt)
        r = _Var(self, dt, 0, "<reduction>")
        return r


def _reduce_code(kind, dt, src_code, src_dt):
    acc = _np.dtype(_np.float32) if dt == _np.float16 else dt
    act = ctype(acc)
    val = _HALF_TO_FLOAT % src_code if src_dt == _np.float16 else src_code
    if kind in ("any", "all"):
        val = "(%s != 0)" % val
    else:
        val = "((%s)%s)" % (act, val)
    # The eager reductions' combining functors (ops/reduce.cuh).
    ident, functor = {"sum": ("(%s)0" % act, "Add"), "prod": ("(%s)1" % act, "Multiply"),
                      "max": (None, "Maximum"), "min": (None, "Minimum"),
                      "any": ("false", "LogicalOr"), "all": ("true", "LogicalAnd")}[kind]
    return acc, act, ident, _functor_call(functor, ["x", "y"]), val


_ELEMENTWISE_TEMPLATE = """
extern "C" __global__ void %(name)s_%(variant)s(%(sig)s) {
  %(prep)s
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < _n;
       i += (long long)blockDim.x * gridDim.x) {
%(offsets)s
%(loads)s
%(body)s
%(stores)s
  }
%(after)s
}
"""


def _gen_source(name, in_specs, tr, outs):
    """in_specs: per parameter (kind 'a' or 's', dtype, var code). outs: output vars."""
    src = [GENERATED_PRELUDE, HEADER]
    red = tr.reduction
    for variant in ("c", "s"):
        sig = ["const long long _n"]
        if variant == "s":
            sig.append("const __grid_constant__ ga_shape _sh")
        loads, offs = [], []
        k = 0
        for kind, dt, code in in_specs:
            ct = ctype(dt)
            if kind == "a":
                sig.append("const %s* __restrict__ _p%d" % (ct, k))
                if variant == "s":
                    sig.append("const __grid_constant__ ga_strides _s%d" % k)
                    offs.append(k)
                    loads.append("    const %s %s = *reinterpret_cast<const %s*>("
                                 "reinterpret_cast<const char*>(_p%d) + _o%d);" % (ct, code, ct, k, k))
                else:
                    loads.append("    const %s %s = _p%d[i];" % (ct, code, k))
            else:
                sig.append("const %s %s" % (ct, code))
            k += 1
        stores = []
        prep = after = ""
        if red is None:
            for j, v in enumerate(outs):
                ct = ctype(v.dtype)
                sig.append("%s* __restrict__ _q%d" % (ct, j))
                if variant == "s":
                    sig.append("const __grid_constant__ ga_strides _t%d" % j)
                    offs.append("q%d" % j)
                    stores.append("    *reinterpret_cast<%s*>(reinterpret_cast<char*>(_q%d) + _oq%d) = %s;"
                                  % (ct, j, j, v.code))
                else:
                    stores.append("    _q%d[i] = %s;" % (j, v.code))
        else:
            kind, v, dt = red
            acc, act, ident, comb, val = _reduce_code(kind, dt, v.code, v.dtype)
            sig.append("%s* __restrict__ _q0" % ctype(dt))
            prep = "%s _acc; bool _has = %s;%s" % (act, "true" if ident else "false",
                                                  (" _acc = %s;" % ident) if ident else "")
            stores.append("    { const %s _v = %s; if (_has) { const %s x = _acc, y = _v; _acc = %s; }"
                          " else { _acc = _v; _has = true; } }" % (act, val, act, comb))
            sig.append("%s* __restrict__ _part" % act)
            sig.append("bool* __restrict__ _part_has")
            sig.append("unsigned int* __restrict__ _cnt")
            block_reduce = """  _sm[threadIdx.x] = _acc; _sh_has[threadIdx.x] = _has; __syncthreads();
  for (unsigned _s = blockDim.x / 2; _s > 0; _s >>= 1) {
    if (threadIdx.x < _s && _sh_has[threadIdx.x + _s]) {
      if (_sh_has[threadIdx.x]) { const %(act)s x = _sm[threadIdx.x], y = _sm[threadIdx.x + _s]; _sm[threadIdx.x] = %(comb)s; }
      else { _sm[threadIdx.x] = _sm[threadIdx.x + _s]; _sh_has[threadIdx.x] = true; }
    }
    __syncthreads();
  }""" % {"act": act, "comb": comb}
            # Each block reduces its share; its partial goes to _part; the last block to
            # finish (atomic ticket) reduces the partials: one launch for any size.
            after = """  __shared__ %(act)s _sm[512]; __shared__ bool _sh_has[512]; __shared__ bool _last;
%(block_reduce)s
  if (threadIdx.x == 0) {
    _part[blockIdx.x] = _sm[0]; _part_has[blockIdx.x] = _sh_has[0];
    __threadfence();
    _last = atomicAdd(_cnt, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!_last) return;
  __threadfence();
  _has = false;
  for (unsigned _j = threadIdx.x; _j < gridDim.x; _j += blockDim.x) {
    if (!reinterpret_cast<volatile bool*>(_part_has)[_j]) continue;
    const %(act)s _v = reinterpret_cast<volatile %(act)s*>(_part)[_j];
    if (_has) { const %(act)s x = _acc, y = _v; _acc = %(comb)s; } else { _acc = _v; _has = true; }
  }
  __syncthreads();
%(block_reduce)s
  if (threadIdx.x == 0) *_q0 = %(store)s;""" % {
                "act": act, "comb": comb, "block_reduce": block_reduce,
                "store": "__float2half(_sm[0])" if dt == _np.float16 else "(%s)_sm[0]" % ctype(dt)}
        offsets = ""
        if variant == "s" and offs:
            names = ["_o%s" % o for o in offs]
            strides = ["_s%d" % o if isinstance(o, int) else "_t%s" % o[1:] for o in offs]
            offsets = ("    long long %s;\n    { long long _r = i;\n"
                       "      for (int _d = _sh.ndim - 1; _d >= 0; --_d) {\n"
                       "        const long long _c = _r %% _sh.d[_d]; _r /= _sh.d[_d];\n        %s\n"
                       "      } }") % (", ".join(n + " = 0" for n in names),
                                       " ".join("%s += _c * %s.s[_d];" % (n, s)
                                                for n, s in zip(names, strides)))
        body = "\n".join("    " + ln for ln in tr.lines)
        src.append(_ELEMENTWISE_TEMPLATE % {
            "name": name, "variant": variant, "sig": ", ".join(sig), "prep": prep,
            "offsets": offsets, "loads": "\n".join(loads), "body": body,
            "stores": "\n".join(stores), "after": after})
    return "\n".join(src)


# ------------------------------------------------------------------------------------
# The fused function


def _arg_key(a):
    t = type(a)
    if t is _core.ndarray:
        return (a.dtype.char, a.ndim)
    if t in (bool, int, float, complex):
        return t
    if isinstance(a, _np.generic):
        return ("s", a.dtype.char)
    if isinstance(a, _core.ndarray):
        return (a.dtype.char, a.ndim)
    return None


_PACK = {bool: struct.Struct("<?").pack, int: struct.Struct("<q").pack,
         float: struct.Struct("<d").pack}


class _TraceNamespace:
    """Stands for the gpuarr module inside a traced function."""

    def __init__(self, tr, real):
        self._tr = tr
        self._real = real

    def __getattr__(self, name):
        return _traced_callable(self._tr, name, getattr(self._real, name))


def _traced_callable(tr, name, real):
    if isinstance(real, _core.ufunc):
        uname = real.__name__
        return lambda *a, **kw: _ufunc_call(tr, uname, a, kw)
    if name == "where":
        def where(*a, **kw):
            if len(a) != 3 or kw:
                raise _Unfusable("gpuarr.where with one argument")
            return tr.where(*a)
        return where
    if name in _REDUCTIONS:
        kind = _REDUCTIONS[name]

        def red(x, axis=None, dtype=None, out=None, keepdims=False, **kw):
            if kw:
                raise _Unfusable("%s with %s" % (name, sorted(kw)))
            if kind in ("max", "min", "any", "all") and dtype is not None:
                raise _Unfusable("%s with dtype" % name)
            return tr.reduce(kind, x, axis, dtype, out, keepdims)
        return red
    if callable(real) and not isinstance(real, type) and not isinstance(real, types.ModuleType):
        @functools.wraps(real)
        def guard(*a, **kw):
            if any(isinstance(x, _Var) for x in list(a) + list(kw.values())):
                raise _Unfusable("gpuarr.%s is not supported by fuse" % name)
            return real(*a, **kw)
        return guard
    return real


def _ufunc_call(tr, name, args, kw):
    if kw:
        raise _Unfusable("ufunc keyword arguments %s" % sorted(kw))
    return tr.ufunc(name, *args)


def _check_int_range(value, ranges):
    for lo, hi, name in ranges:
        if not lo <= value <= hi:
            raise OverflowError("Python integer %d out of bounds for %s" % (value, name))


class Fusion(_core._FusedDispatcher):
    """A fused function. Calling it goes to C++ (``_FusedDispatcher.__call__``): a known
    kind of arguments launches the compiled kernel at once; anything else comes back to
    ``_slow_call``."""

    def __init__(self, func, name=None):
        super().__init__()
        self.func = func
        self.name = name or getattr(func, "__name__", "fused")
        functools.update_wrapper(self, func)
        self._cache = {}

    def __repr__(self):
        return "<gpuarr.fuse %s>" % self.name

    def _slow_call(self, *args, **kwargs):
        # Called with traced values (a fused function inside another): trace inline.
        for a in args:
            if isinstance(a, _Var):
                return self._traceable(a._tr)(*args, **kwargs)
        if kwargs:
            return self.func(*args, **kwargs)
        key = tuple(map(_arg_key, args))
        plan = self._cache.get(key)
        if plan is None:
            plan = self._plan(key, args)
            self._cache[key] = plan
        return plan(args)

    # The first call for a key: trace, generate, compile.
    def trace(self, specs, ranges_out=None):
        """Traces for argument specs (each a dtype and ndim for an array, a Python scalar
        type, or ('s', dtype) for a NumPy scalar). Returns (kernel name, source, kinds,
        output dtypes, single); raises _Unfusable."""
        tr = _Tracer()
        params, in_specs = [], []
        if not any(isinstance(sp, tuple) and sp[0] != "s" for sp in specs):
            raise _Unfusable("no array arguments")
        for k, sp in enumerate(specs):
            code = "in%d" % k
            if isinstance(sp, tuple) and sp[0] != "s":
                dt, ndim = _np.dtype(sp[0]), sp[1]
                if dt.kind not in "biuf":
                    raise _Unfusable("%s dtypes are not fused" % dt)
                params.append(_Var(tr, dt, ndim, code))
                in_specs.append(("a", dt, code))
            elif isinstance(sp, tuple):
                dt = _np.dtype(sp[1])
                if dt.kind not in "biuf":
                    raise _Unfusable("a scalar of dtype %s" % dt)
                params.append(_Var(tr, dt, 0, code))
                in_specs.append(("s", dt, code))
            else:
                if sp not in (bool, int, float):
                    raise _Unfusable("a Python %s argument" % sp.__name__)
                dt = _np.dtype({bool: _np.bool_, int: _np.int64, float: _np.float64}[sp])
                params.append(_Var(tr, dt, 0, code, weak=sp))
                in_specs.append(("s", dt, code))
        fn = self._traceable(tr)
        try:
            result = fn(*params)
        except _Unfusable:
            raise
        except Exception as e:  # noqa: BLE001  (eager reports the real error, if any)
            raise _Unfusable("%s: %s" % (type(e).__name__, e)) from None
        single = not isinstance(result, tuple)
        outs = [result] if single else list(result)
        if tr.reduction is not None:
            if not single or not isinstance(outs[0], _Var) or outs[0].code != "<reduction>":
                raise _Unfusable("a reduction that is not the final result")
        for v in outs:
            if not isinstance(v, _Var) or v._tr is not tr:
                raise _Unfusable("a result that is not an array expression")
            if v.weak is not None:
                raise _Unfusable("a result that is a Python scalar")
        kname = "gafused_" + "".join(c if c.isalnum() else "_" for c in self.name)
        src = _gen_source(kname, in_specs, tr, outs)
        kinds = "".join(kind for kind, _, _ in in_specs)
        if tr.reduction is not None:
            kinds += "R"
            out_dtypes = [tr.reduction[2]]
        else:
            kinds += "o" * len(outs)
            out_dtypes = [v.dtype for v in outs]
        if ranges_out is not None:
            for k in range(len(specs)):
                ranges_out.append(sorted(
                    ((int(_np.iinfo(d).min), int(_np.iinfo(d).max), d.name)
                     for d in tr.weak_int_targets.get("in%d" % k, ())), key=lambda r: r[2]))
        return kname, src, kinds, out_dtypes, single

    def _plan(self, key, args):
        if None in key:
            bad = [type(a).__name__ for a, k in zip(args, key) if k is None]
            return self._eager("an argument of type %s" % bad[0])
        try:
            ranges = []
            kname, src, kinds, out_vals, single = self.trace(list(key), ranges)
        except _Unfusable as e:
            return self._eager(str(e))
        mod = _core._jit_module(src, list(FUSE_OPTIONS), [])
        launch = _core._jit_elementwise
        # Later calls of this kind of arguments go straight to the C++ dispatcher.
        self._register(tuple(args), mod, kname, kinds, list(out_vals), single, ranges)
        checks = [(k, r) for k, r in enumerate(ranges) if r]
        packers = []
        for a in args:
            if isinstance(a, _core.ndarray):
                packers.append(None)
            elif isinstance(a, _np.generic):
                packers.append(_np.generic.tobytes)
            else:
                packers.append(_PACK[type(a)])
        func = self.func
        if "R" in kinds:
            def run(args):
                if any(a.size == 0 for a in args if isinstance(a, _core.ndarray)):
                    return func(*args)  # NumPy's identity or its empty-reduction error
                vals = [a if p is None else p(a) for a, p in zip(args, packers)]
                return launch(mod, kname, vals + out_vals, kinds)[0]
        elif all(p is None for p in packers) and single:
            def run(args):
                return launch(mod, kname, [*args, *out_vals], kinds)[0]
        else:
            def run(args):
                vals = [a if p is None else p(a) for a, p in zip(args, packers)]
                res = launch(mod, kname, vals + out_vals, kinds)
                return res[0] if single else tuple(res)
        if checks:
            def run_checked(args, _run=run):
                for k, rs in checks:
                    _check_int_range(args[k], rs)
                return _run(args)
            return run_checked
        return run

    def _traceable(self, tr):
        func = self.func
        real = __import__("gpuarr")
        g = dict(func.__globals__)
        for k, v in list(g.items()):
            if v is real:
                g[k] = _TraceNamespace(tr, real)
            elif isinstance(v, _core.ufunc):
                g[k] = _traced_callable(tr, k, v)
            elif k in ("where", "sum", "prod", "amax", "amin", "max", "min", "any", "all") and \
                    getattr(v, "__module__", "").startswith("gpuarr"):
                g[k] = _traced_callable(tr, k, v)
        return types.FunctionType(func.__code__, g, func.__name__, func.__defaults__,
                                  func.__closure__)

    def _eager(self, reason):
        warnings.warn("gpuarr.fuse: %s is not fused (%s); it runs eagerly" % (self.name, reason),
                      RuntimeWarning, stacklevel=4)
        func = self.func
        return lambda args: func(*args)


# Calls go to C++ through the type's call slot (see _install_fused_call in jit_bind.cpp).
_FAST_CALL = _core._install_fused_call(Fusion)


def fuse(*args, **kwargs):
    """Decorator: ``@gpuarr.fuse`` or ``@gpuarr.fuse(kernel_name="name")``."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fusion(args[0])
    name = kwargs.pop("kernel_name", None)
    if kwargs or args:
        raise TypeError("fuse() takes a function or kernel_name=")
    return lambda f: Fusion(f, name)
