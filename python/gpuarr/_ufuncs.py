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
