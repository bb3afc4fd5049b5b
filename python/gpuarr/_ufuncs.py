"""The ufuncs (``gpuarr.add``, ``gpuarr.sqrt``, ...) and the elementwise functions built on
them; dtype helpers (``result_type``, ``can_cast``, ``promote_types``, ``finfo``, ``iinfo``).

The ufunc objects and the ndarray operators live in C++ (cpp/bindings/ufunc_bind.cpp); this
module names them and adds the few functions NumPy defines in Python on top of ufuncs.
"""

from __future__ import annotations

import operator as _operator
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core
from gpuarr._core import ndarray as _ndarray, ufunc

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, DTypeLike, ndarray

if TYPE_CHECKING:
    # The ufuncs are named from the extension's table below; type checkers see them here.
    def __getattr__(name: str) -> ufunc: ...


_UFUNCS = dict(_core._ufuncs)
del _UFUNCS["where"]  # gpuarr.where is a function (one or three arguments)
globals().update(_UFUNCS)

# NumPy's aliases (the same objects, as in NumPy).
mod = _UFUNCS["remainder"]
true_divide = _UFUNCS["divide"]
abs = _UFUNCS["absolute"]  # noqa: A001
conj = _UFUNCS["conjugate"]
degrees = _UFUNCS["rad2deg"]
radians = _UFUNCS["deg2rad"]
# Array API standard names.
acos = _UFUNCS["arccos"]
asin = _UFUNCS["arcsin"]
atan = _UFUNCS["arctan"]
atan2 = _UFUNCS["arctan2"]
acosh = _UFUNCS["arccosh"]
asinh = _UFUNCS["arcsinh"]
atanh = _UFUNCS["arctanh"]
pow = _UFUNCS["power"]  # noqa: A001
bitwise_left_shift = _UFUNCS["left_shift"]
bitwise_right_shift = _UFUNCS["right_shift"]
bitwise_invert = _UFUNCS["invert"]
bitwise_not = _UFUNCS["invert"]

_clip_ufunc = _UFUNCS.pop("clip")
ufunc_names = sorted(_UFUNCS) + [
    "mod", "true_divide", "abs", "conj", "degrees", "radians", "acos", "asin", "atan", "atan2",
    "acosh", "asinh", "atanh", "pow", "bitwise_left_shift", "bitwise_right_shift",
    "bitwise_invert", "bitwise_not", "divmod", "frexp", "modf", "isposinf", "isneginf",
    "sinc", "i0"]


_NO_VALUE = object()  # an argument not given (None is a value for clip's bounds)


def clip(a: ArrayLike, a_min=_NO_VALUE, a_max=_NO_VALUE, out: ndarray | None = None, *,
         min=_NO_VALUE, max=_NO_VALUE, **kwargs) -> ndarray:  # noqa: A002
    """Clip (limit) the values in an array (NumPy's ``clip``, including ``min=``/``max=``)."""
    if a_min is _NO_VALUE and a_max is _NO_VALUE:
        a_min = None if min is _NO_VALUE else min
        a_max = None if max is _NO_VALUE else max
    elif a_min is _NO_VALUE:
        raise TypeError("clip() missing 1 required positional argument: 'a_min'")
    elif a_max is _NO_VALUE:
        raise TypeError("clip() missing 1 required positional argument: 'a_max'")
    elif min is not _NO_VALUE or max is not _NO_VALUE:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` "
                         "are provided is forbidden.")
    a = _as_array(a)
    if a.dtype.kind in "iu":
        # A Python int bound beyond the dtype's range clips nothing (NumPy's _clip), rather
        # than failing to convert to the dtype.
        info = _np.iinfo(a.dtype)
        if type(a_min) is int and a_min <= info.min:
            a_min = None
        if type(a_max) is int and a_max >= info.max:
            a_max = None
    if a_min is None and a_max is None:
        return _UFUNCS["positive"](a, out=out, **kwargs)
    if a_min is None:
        return _UFUNCS["minimum"](a, a_max, out=out, **kwargs)
    if a_max is None:
        return _UFUNCS["maximum"](a, a_min, out=out, **kwargs)
    return _clip_ufunc(a, a_min, a_max, out=out, **kwargs)


def around(a: ArrayLike, decimals=0, out: ndarray | None = None) -> ndarray:
    """Round to the given number of decimals, half to even (NumPy's ``around``)."""
    decimals = _operator.index(decimals)
    a = _as_array(a)
    if a.dtype.kind == "b":
        # NumPy rounds bool as it does floats: rint gives float16; other decimals scale
        # into a bool result, which the multiply (or divide) cannot cast to.
        if decimals == 0:
            return _UFUNCS["rint"](a, out=out)
        op = _UFUNCS["multiply" if decimals > 0 else "divide"]
        return op(a, 10.0 ** _abs_int(decimals), out=_core.empty(a.shape, a.dtype)
                  if out is None else out)
    if decimals == 0 or a.dtype.kind in "iu":
        if a.dtype.kind in "iu" and decimals < 0:
            # NumPy's steps: true division into out (float64 without one), then rint and
            # multiply in place; an integer out fails divide's same_kind cast, as NumPy's.
            factor = 10 ** (-decimals)
            q = _UFUNCS["divide"](a, factor, out=out)
            _UFUNCS["multiply"](_UFUNCS["rint"](q, out=q), factor, out=q)
            return q.astype(a.dtype) if out is None else q
        if a.dtype.kind in "iu":
            return _core.copy(a) if out is None else _UFUNCS["positive"](a, out=out)
        return _UFUNCS["rint"](a, out=out)
    factor = 10.0 ** _abs_int(decimals)
    if decimals > 0:
        y = _UFUNCS["multiply"](a, factor)
        return _UFUNCS["divide"](_UFUNCS["rint"](y), factor, out=out)
    y = _UFUNCS["divide"](a, factor)
    return _UFUNCS["multiply"](_UFUNCS["rint"](y), factor, out=out)


def _abs_int(n):
    return -n if n < 0 else n


round = around  # noqa: A001


def fix(x: ArrayLike, out: ndarray | None = None) -> ndarray:
    """Round towards zero (NumPy's ``fix``: floor for positive, ceil for negative values)."""
    return _UFUNCS["trunc"](x, out=out)


def angle(z, deg=False) -> ndarray:
    """The counterclockwise angle from the positive real axis, in radians (or degrees)."""
    z = _as_array(z)
    if z.dtype.kind == "c":
        a = _UFUNCS["arctan2"](z.imag, z.real)
    else:
        a = _UFUNCS["arctan2"](0, z)  # a weak 0, as NumPy: int8 input gives float16
    if deg:
        a = _UFUNCS["multiply"](a, 180.0 / _np.pi)
    return a


def real(val) -> ndarray:
    """The real part (a view for gpuarr arrays, as NumPy returns)."""
    return _as_array(val).real


def imag(val) -> ndarray:
    """The imaginary part (a view for complex gpuarr arrays)."""
    return _as_array(val).imag


def _as_array(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _dtype_of(x):
    return x.dtype if isinstance(x, _ndarray) else x


def result_type(*arrays_and_dtypes):
    """numpy.result_type for gpuarr arrays, dtypes and Python scalars (NEP 50)."""
    return _np.result_type(*[_dtype_of(x) for x in arrays_and_dtypes])


def can_cast(from_, to, casting="safe"):
    """numpy.can_cast; Python scalars are refused as in NumPy 2 (use their dtype)."""
    return _np.can_cast(_dtype_of(from_), to, casting=casting)


def promote_types(type1, type2):
    """numpy.promote_types."""
    return _np.promote_types(type1, type2)


class _FloatInfo:
    """numpy.finfo's fields, the Array API's as Python floats (``bits`` an int, ``dtype`` the
    real dtype); the others (``resolution``, ``tiny``, ``precision``, ...) as NumPy's."""

    __slots__ = ("_info", "bits", "eps", "max", "min", "smallest_normal", "dtype")

    def __init__(self, info):
        self._info = info
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.dtype = info.dtype

    def __getattr__(self, name):
        return getattr(self._info, name)

    def __repr__(self):
        return repr(self._info)

    def __str__(self):
        return str(self._info)


def finfo(dtype: DTypeLike):
    """numpy.finfo, also for gpuarr arrays; ``eps``, ``max``, ``min`` and ``smallest_normal``
    are Python floats (the Array API's ``finfo``)."""
    return _FloatInfo(_np.finfo(_dtype_of(dtype)))


def iinfo(int_type):
    """numpy.iinfo, also for gpuarr arrays."""
    return _np.iinfo(_dtype_of(int_type))


def isdtype(dtype: DTypeLike, kind):
    """The Array API's ``isdtype`` (NumPy's)."""
    return _np.isdtype(_dtype_of(dtype), kind)


# --- ufunc methods ------------------------------------------------------------------
# reduce and accumulate for every binary ufunc, with NumPy's argument rules; add, multiply
# and the extrema run gpuarr's reductions and scans, the others compose the ufunc itself on
# the device (a pairwise tree where the operation is reorderable, else a left fold along
# the axis). outer broadcasts. _ndarray_methods attaches them to the ufunc type.

# The ufuncs NumPy reduces over several axes at once (an identity, or maximum's kind).
_REORDERABLE = frozenset({
    "add", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor", "gcd", "hypot",
    "logaddexp", "logaddexp2", "logical_and", "logical_or", "logical_xor",
    "maximum", "minimum", "fmax", "fmin"})
# NumPy's identities (an empty reduction fills with it; bitwise_and's -1 is all ones).
_IDENTITY = {
    "add": 0, "multiply": 1, "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0, "gcd": 0,
    "hypot": 0, "logaddexp": -_np.inf, "logaddexp2": -_np.inf, "logical_and": True,
    "logical_or": False, "logical_xor": False}
_LOGICAL = frozenset({"logical_and", "logical_or", "logical_xor"})


def _binary_only(ufunc, method):
    if ufunc.nin != 2 or ufunc.nout != 1:
        raise ValueError(f"{method} only supported for binary functions")


def _method_out(out):
    """The one output array of a ufunc method's out= (an array or a 1-tuple)."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is not None and not isinstance(out, _ndarray):
        raise TypeError("return arrays must be of ArrayType")
    return out


def _method_axes(axis, ndim):
    """reduce's axes, normalised: None is every axis; ints only (TypeError for a float);
    AxisError out of range (a 0-d array takes 0 and -1 as no axis); ValueError for a
    repeated axis."""
    if axis is None:
        return tuple(range(ndim))
    axes = []
    for item in axis if isinstance(axis, tuple) else (axis,):
        i = _operator.index(item)
        if ndim == 0:
            if i not in (0, -1):
                raise _np.exceptions.AxisError(i, 0)
            continue
        ax = _np.lib.array_utils.normalize_axis_index(i, ndim)
        if ax in axes:
            raise ValueError("duplicate value in 'axis'")
        axes.append(ax)
    return tuple(axes)


def _homogeneous_loop(ufunc, dt):
    dt = _np.dtype(dt)
    return f"{dt.char}{dt.char}->{dt.char}" in ufunc.types


def _resolved_homogeneous(ufunc, first, second):
    """The dtype of the loop the ufunc resolves for operands of these dtypes, when its
    inputs and output are that one dtype (a loop reduce and accumulate can use), else None;
    NumPy's TypeError where it has no loop for them."""
    loop = _core._ufunc_loop_for(ufunc.__name__, [_np.dtype(first), _np.dtype(second)])
    ins, res = loop.split("->")
    return _np.dtype(res) if ins[0] == ins[1] == res else None


def _no_loop(ufunc):
    return TypeError("No loop matching the specified signature and casting was found for "
                     f"ufunc {ufunc.__name__}")


def _method_dtype(ufunc, a, dtype, out):
    """The dtype reduce and accumulate compute in, as NumPy resolves it: dtype= names the
    loop (dtype, dtype) -> dtype; else the loop of out's dtype with the array's (the
    array's own loop where that one mixes dtypes), else the array's; add and multiply
    take integers and bool in int64 (uint64), the logical ufuncs everything in bool."""
    name = ufunc.__name__
    if dtype is not None:
        dt = _np.dtype(dtype)
        if not _homogeneous_loop(ufunc, dt):
            raise _no_loop(ufunc)
        return dt
    if name in _LOGICAL:
        return _np.dtype(bool)
    if out is not None:
        dt = _resolved_homogeneous(ufunc, out.dtype, a.dtype)
        if dt is not None:
            return dt
    if name in ("add", "multiply") and a.dtype.kind in "biu" and a.dtype.itemsize < 8:
        return _np.dtype("u8" if a.dtype.kind == "u" else "i8")
    try:
        dt = _resolved_homogeneous(ufunc, a.dtype, a.dtype)
    except TypeError:
        dt = None
    if dt is None:
        raise _no_loop(ufunc)
    return dt


def _write_out(result, out, what):
    """Copy `result` into `out` (NumPy casts a method's result into out unsafely)."""
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(f"output parameter for {what} has shape {out.shape}, expected "
                         f"{result.shape}")
    if result.dtype != out.dtype:
        result = result.astype(out.dtype)
    out[...] = result
    return out


def _fold_last(ufunc, x, dt):
    """ufunc folded over the last axis of x (length >= 1), in dtype dt on the device."""
    from gpuarr import _shape_ops
    n = x.shape[-1]
    if ufunc.__name__ in _REORDERABLE:
        while n > 1:
            h = n // 2
            y = ufunc(x[..., :h], x[..., n - h:], dtype=dt)
            x = y if n % 2 == 0 else _shape_ops.concatenate([y, x[..., h:h + 1]], axis=-1)
            n = x.shape[-1]
        return x[..., 0]
    r = x[..., 0]
    for i in range(1, n):
        r = ufunc(r, x[..., i], dtype=dt)
    return r


_FAST_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min",
                "logical_and": "all", "logical_or": "any", "fmax": "nanmax", "fmin": "nanmin"}


def _ufunc_reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
                  initial=_NO_VALUE, where=True):
    """ufunc.reduce (NumPy's): ``where=`` other than True is not supported."""
    _binary_only(self, "reduce")
    from gpuarr import _reductions, _shape_ops
    a = _as_array(array)
    out = _method_out(out)
    axes = _method_axes(axis, a.ndim)
    name = self.__name__
    if len(axes) > 1 and name not in _REORDERABLE:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one "
                         "axis may be specified")
    if where is not True:
        raise TypeError(f"gpuarr's {name}.reduce does not take a where= mask")
    dt = _method_dtype(self, a, dtype, out)
    # Without an identity NumPy starts from each reduction's first element stored in out,
    # so an out of another dtype sees it cast (arctan2.reduce([-3, 3], out=uint8) is
    # arctan2(253, 3)).
    out_first = (out is not None and out.dtype != dt and name not in _IDENTITY
                 and initial is _NO_VALUE)
    kept = tuple(d for i, d in enumerate(a.shape) if i not in axes)
    shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape)) if keepdims else kept
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    x = a if a.dtype == dt else a.astype(dt)
    if initial is _NO_VALUE:
        # Over no axis NumPy still applies the operation once, to the identity and each
        # element (gcd.reduce of -2 is 2).
        initial = _IDENTITY.get(name) if n == 0 or not axes else None
        if n == 0 and initial is None and _np.prod(kept, dtype=int) != 0:
            raise ValueError(f"zero-size array to reduction operation {name} which has no "
                             "identity")
    if n == 0 or not axes and initial is not None:
        fill = _np.array(initial if initial is not None else 0).astype(dt)[()]
        r = _core.full(kept, fill, dt)
        if n and not axes:
            r = self(r, x, dtype=dt)
    elif not axes:
        r = _core.copy(x)
    elif name in _FAST_REDUCE and initial is None and not out_first:
        r = getattr(_reductions, _FAST_REDUCE[name])(x, axis=axes)
        if r.dtype != dt:
            r = r.astype(dt)
    else:
        rest = [i for i in range(a.ndim) if i not in axes]
        y = x.transpose(rest + list(axes)).reshape(kept + (n,))
        if out_first:
            y = _core.copy(y)
            y[..., 0] = y[..., 0].astype(out.dtype).astype(dt)
        if initial is not None:  # the fold starts from it
            fill = _np.array(initial).astype(dt)[()]
            y = _shape_ops.concatenate([_core.full(kept + (1,), fill, dt), y], axis=-1)
        r = _fold_last(self, y, dt)
    r = r.reshape(shape)
    return _write_out(r, out, f"reduction operation {name}")


def _ufunc_accumulate(self, array, axis=0, dtype=None, out=None):
    """ufunc.accumulate (NumPy's); out= must have the array's shape."""
    _binary_only(self, "accumulate")
    from gpuarr import _reductions, _shape_ops
    a = _as_array(array)
    out = _method_out(out)
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    if axis is None or isinstance(axis, tuple):
        if axis is None and a.ndim == 1:
            axis = 0
        else:
            raise ValueError("accumulate does not allow multiple axes")
    axis = _np.lib.array_utils.normalize_axis_index(_operator.index(axis), a.ndim)
    dt = _method_dtype(self, a, dtype, out)
    if out is not None and out.shape != a.shape:
        raise ValueError(f"output parameter for accumulate has shape {out.shape}, expected "
                         f"{a.shape}")
    x = a if a.dtype == dt else a.astype(dt)
    name = self.__name__
    n = a.shape[axis]
    if n == 0 or x.size == 0:
        r = _core.copy(x)
    elif name in ("add", "multiply"):
        r = getattr(_reductions, "cumsum" if name == "add" else "cumprod")(x, axis=axis)
        if r.dtype != dt:
            r = r.astype(dt)
    else:
        y = _shape_ops.moveaxis(x, axis, -1)
        if name in _REORDERABLE:
            # Hillis-Steele: after the step of shift s every element holds its last 2s.
            s = 1
            while s < n:
                head = y[..., :s]
                y = _shape_ops.concatenate([head, self(y[..., :n - s], y[..., s:], dtype=dt)],
                                           axis=-1)
                s *= 2
        else:
            parts = [y[..., :1]]
            r = y[..., 0]
            for i in range(1, n):
                r = self(r, y[..., i], dtype=dt)
                parts.append(r[..., None])
            y = _shape_ops.concatenate(parts, axis=-1)
        r = _shape_ops.moveaxis(y, -1, axis)
    return _write_out(r, out, "accumulate")


def _ufunc_outer(self, A, B, **kwargs):
    if self.nin != 2:
        raise ValueError("outer product only supported for binary functions")
    A = _as_array(A)
    B = _as_array(B)
    return self(A.reshape(A.shape + (1,) * B.ndim), B, **kwargs)


def divmod(x1: ArrayLike, x2: ArrayLike, out1=None, out2=None, /, *,  # noqa: A001
           out=(None, None)):
    """``(floor_divide(x1, x2), remainder(x1, x2))`` as NumPy's ``divmod``; the outputs
    positional or as a 2-tuple ``out=``.

    The quotient is NumPy's also where floor_divide follows the Array API standard instead
    (an infinite operand: ``divmod(inf, 2)`` is ``(nan, nan)``, ``inf // 2`` is ``inf``).
    """
    q_out, r_out = _two_outputs(out1, out2, out)
    return (_core._ufunc_kernels["_divmod_quotient"](x1, x2, out=q_out),
            _UFUNCS["remainder"](x1, x2, out=r_out))


def _divmod_method(self, other):
    if not isinstance(other, (_ndarray, int, float, bool, _np.generic)):
        return NotImplemented
    return divmod(self, other)


def _rdivmod_method(self, other):
    if not isinstance(other, (int, float, bool, _np.generic)):
        return NotImplemented
    return divmod(other, self)


# --- two-output ufuncs and NumPy's functions over ufuncs --------------------------------
# frexp, modf, sinc and i0 run the kernels in _core._ufunc_kernels (ufuncs that NumPy does
# not have under these names: one per output of frexp and modf).


def _two_outputs(out1, out2, out):
    """NumPy's rules for the outputs of a two-output ufunc (positional or ``out=``)."""
    if out is None:
        raise TypeError("'out' must be a tuple of arrays")
    if out1 is not None or out2 is not None:
        if out != (None, None):
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        return out1, out2
    if not isinstance(out, tuple):
        raise TypeError("'out' must be a tuple of arrays")
    if len(out) != 2:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    return out


def _extent(a):
    lo = hi = a.__cuda_array_interface__["data"][0]
    for n, s in zip(a.shape, a.strides):
        if s < 0:
            lo += s * (n - 1)
        else:
            hi += s * (n - 1)
    return lo, hi + a.itemsize


def _overlaps(x, out):
    """Whether `out` (an output) may overlap input `x`, by the bounds of their elements."""
    if not (isinstance(x, _ndarray) and isinstance(out, _ndarray)) or not x.size or not out.size:
        return False
    (xl, xh), (ol, oh) = _extent(x), _extent(out)
    return xl < oh and ol < xh


def _apply_two(first, second, x, out1, out2, out, kwargs):
    """Kernels `first` and `second` (names in _core._ufunc_kernels) of one input, into the
    two outputs."""
    out1, out2 = _two_outputs(out1, out2, out)
    first, second = _core._ufunc_kernels[first], _core._ufunc_kernels[second]
    if _overlaps(x, out1) or _overlaps(x, out2):
        x = _core.copy(x)  # the first result must not change the input of the second
    return first(x, out=out1, **kwargs), second(x, out=out2, **kwargs)


def frexp(x: ArrayLike, out1=None, out2=None, /, *, out=(None, None), **kwargs):
    """Decompose x into mantissa and twos exponent, ``x = m * 2**e`` (numpy.frexp).

    Returns ``(m, e)``: m in [0.5, 1) with x's sign (x itself for 0, inf and NaN) and the
    int32 exponent (0 for those). Two kernels, one per output. ``where=`` is not supported.
    """
    return _apply_two("_frexp_mantissa", "_frexp_exponent", x, out1, out2, out, kwargs)


def modf(x: ArrayLike, out1=None, out2=None, /, *, out=(None, None), **kwargs):
    """The fractional and integral parts of x, both signed like x (numpy.modf).

    Two kernels, one per output. ``where=`` is not supported.
    """
    return _apply_two("_modf_fractional", "_modf_integral", x, out1, out2, out, kwargs)


def _signbit_unless_ambiguous(x):
    try:
        return _UFUNCS["signbit"](x)
    except TypeError as e:
        dtype = _as_array(x).dtype
        raise TypeError(f"This operation is not supported for {dtype} values because it "
                        "would be ambiguous.") from e


def isposinf(x: ArrayLike, out: ndarray | None = None) -> ndarray:
    """True where x is positive infinity (numpy.isposinf: ``isinf(x) & ~signbit(x)``)."""
    sign = _signbit_unless_ambiguous(x)
    return _UFUNCS["logical_and"](_UFUNCS["isinf"](x), _UFUNCS["logical_not"](sign), out=out)


def isneginf(x: ArrayLike, out: ndarray | None = None) -> ndarray:
    """True where x is negative infinity (numpy.isneginf: ``isinf(x) & signbit(x)``)."""
    sign = _signbit_unless_ambiguous(x)
    return _UFUNCS["logical_and"](_UFUNCS["isinf"](x), sign, out=out)


def sinc(x: ArrayLike) -> ndarray:
    """The normalised sinc function ``sin(pi x) / (pi x)``, 1 at 0 (numpy.sinc), in one
    kernel; integer and bool input gives float64, as NumPy's ``pi * x``."""
    x = _as_array(x)
    if x.dtype.kind in "biu":
        return _core._ufunc_kernels["_sinc"](x, dtype=_np.float64)
    return _core._ufunc_kernels["_sinc"](x)


def i0(x: ArrayLike) -> ndarray:
    """The modified Bessel function of the first kind, order 0 (numpy.i0): Cephes' Chebyshev
    expansions that NumPy evaluates, in one kernel; integer and bool input gives float64.
    Complex input raises TypeError, as NumPy's."""
    x = _as_array(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype.kind != "f":
        return _core._ufunc_kernels["_i0"](x, dtype=_np.float64)
    return _core._ufunc_kernels["_i0"](x)
