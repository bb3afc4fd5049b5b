"""Reductions with NumPy's signatures: sum prod mean var std min max amin amax ptp argmin
argmax all any count_nonzero cumsum cumprod, the nan-variants, average, and the Array API's
cumulative_sum/cumulative_prod. Each calls one C++ reduction (cpp/ops/reduce.cuh); the
statistics (mean, var, std) compose reductions with the elementwise engine."""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _indexing, _shape_ops, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, DTypeLike, ndarray

_py_sum = sum


def _as_array(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _reduced_count(shape, axis):
    axes = _core._reduce_axes(axis, len(shape))
    n = 1
    for ax in axes:
        n *= shape[ax]
    return n, axes


def _output_count(shape, axes):
    n = 1
    for d, s in enumerate(shape):
        if d not in axes:
            n *= s
    return n


def _axis_arg(axis):
    """A reduction's ``axis`` as NumPy reads it, before any device work: None, an int or a
    tuple of ints, each entry through operator.index (TypeError for 1.0 or a list, as NumPy);
    the range (AxisError) and repeats (ValueError) are checked where the axes are resolved
    against the array (_core._reduce_axes)."""
    if axis is None:
        return None
    if isinstance(axis, tuple):
        return tuple(operator.index(ax) for ax in axis)
    return operator.index(axis)


def _check_out(out, shape, what="add"):
    """NumPy's out= of a ufunc reduction: an array of exactly the result's dimensions and
    shape (ValueError); any dtype (reductions cast their output unsafely)."""
    if not isinstance(out, _ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if out.ndim != len(shape):
        raise ValueError(f"output parameter for reduction operation {what} has the wrong number "
                         f"of dimensions: Found {out.ndim} but expected {len(shape)}")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"output parameter for reduction operation {what} has shape "
                         f"{tuple(out.shape)}, expected {tuple(shape)}")


def _cast_error(ufunc, frm, to, casting="same_kind"):
    return TypeError(f"Cannot cast ufunc '{ufunc}' output from {_np.dtype(frm)!r} to "
                     f"{_np.dtype(to)!r} with casting rule '{casting}'")


def _finish(r, dtype, out, what="add", ufunc=None):
    """The result, cast to ``dtype``, or written into ``out`` by the reduction rules
    (_check_out). ``ufunc`` names an elementwise ufunc NumPy applies to ``out`` in place
    afterwards (std's sqrt): its loop's output must cast to out's dtype by 'same_kind'."""
    if dtype is not None and r.dtype != _np.dtype(dtype):
        r = r.astype(dtype)
    if out is None:
        return r
    _check_out(out, r.shape, what)
    if ufunc is not None:
        loop_out = getattr(_np, ufunc)(_np.zeros((), out.dtype)).dtype
        if not _np.can_cast(loop_out, out.dtype, "same_kind"):
            raise _cast_error(ufunc, loop_out, out.dtype)
    out[...] = r
    return out


def _check_no_identity(a, axis, what):
    # NumPy refuses whenever the reduced range is empty, even with no outputs.
    n, _ = _reduced_count(a.shape, axis)
    if n == 0:
        raise ValueError(f"zero-size array to reduction operation {what} which has no identity")


def _strict_axes(a, axis):
    """mean/var/std (NumPy's _methods) normalise axes even for 0-d arrays: AxisError."""
    if a.ndim == 0 and axis is not None:
        for ax in (axis if isinstance(axis, tuple) else (axis,)):
            raise _np.exceptions.AxisError(operator.index(ax), 0)


def _computation_dtype(dtype, out):
    """NumPy reduces in out's dtype when dtype= is not given (ufunc.reduce's rule)."""
    if dtype is None and isinstance(out, _ndarray):
        return out.dtype
    return dtype


def _in_out_dtype(a, out):
    """max/min and friends compare in out's dtype, as NumPy's maximum.reduce(out=...)."""
    if isinstance(out, _ndarray) and out.dtype != a.dtype:
        return a.astype(out.dtype)
    return a


def _simple(kind, a, axis, dtype, out, keepdims):
    a = _as_array(a)
    axis = _axis_arg(axis)
    dtype = _computation_dtype(dtype, out)
    if dtype is not None:
        dtype = _np.dtype(dtype)
        if dtype != a.dtype:
            a = a.astype(dtype)
    return _finish(_core._reduce(kind, a, axis, keepdims), dtype, out)


def sum(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None, out: ndarray | None = None,  # noqa: A001
        keepdims: bool = False) -> ndarray:
    """Sum of array elements over the given axes (NumPy's accumulator dtypes)."""
    return _simple("sum", a, axis, dtype, out, keepdims)


def prod(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None, out: ndarray | None = None,
         keepdims: bool = False) -> ndarray:
    """Product of array elements over the given axes."""
    return _simple("prod", a, axis, dtype, out, keepdims)


def nansum(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
           out: ndarray | None = None, keepdims: bool = False) -> ndarray:
    """Sum treating NaNs as zero."""
    return _simple("nansum", a, axis, dtype, out, keepdims)


def nanprod(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
            out: ndarray | None = None, keepdims: bool = False) -> ndarray:
    """Product treating NaNs as one."""
    return _simple("nanprod", a, axis, dtype, out, keepdims)


def max(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,  # noqa: A001
        keepdims: bool = False) -> ndarray:
    """Maximum along the given axes; NaN propagates."""
    a = _as_array(a)
    axis = _axis_arg(axis)
    _check_no_identity(a, axis, "maximum")
    return _finish(_core._reduce("max", _in_out_dtype(a, out), axis, keepdims), None, out,
                   "maximum")


def min(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,  # noqa: A001
        keepdims: bool = False) -> ndarray:
    """Minimum along the given axes; NaN propagates."""
    a = _as_array(a)
    axis = _axis_arg(axis)
    _check_no_identity(a, axis, "minimum")
    return _finish(_core._reduce("min", _in_out_dtype(a, out), axis, keepdims), None, out,
                   "minimum")


amax = max
amin = min


def _all_nan_warning(r, stacklevel):
    if r.dtype.kind in "fc" and r.size and bool(_core._reduce("any", _isnan(r), None, False)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=stacklevel)


def _isnan(x):
    return _ufuncs.isnan(x)


def _nan_extremum(kind, ufunc_name, a, axis, out, keepdims):
    a = _as_array(a)
    axis = _axis_arg(axis)
    _check_no_identity(a, axis, ufunc_name)
    r = _core._reduce(kind, a, axis, keepdims)
    _all_nan_warning(r, stacklevel=4)  # the caller of nanmax/nanmin
    return _finish(r, None, out, ufunc_name)


def nanmax(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
           keepdims: bool = False) -> ndarray:
    """Maximum ignoring NaNs; an all-NaN slice gives NaN with a RuntimeWarning."""
    return _nan_extremum("nanmax", "fmax", a, axis, out, keepdims)


def nanmin(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
           keepdims: bool = False) -> ndarray:
    """Minimum ignoring NaNs; an all-NaN slice gives NaN with a RuntimeWarning."""
    return _nan_extremum("nanmin", "fmin", a, axis, out, keepdims)


def ptp(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,
        keepdims: bool = False) -> ndarray:
    """Range (maximum - minimum) along the given axes."""
    a = _as_array(a)
    axis = _axis_arg(axis)
    # As NumPy: the maximum goes into out (its reduction rules and dtype), then
    # subtract(maximum, minimum, out) with the ufunc's same_kind cast.
    hi = max(a, axis, out, keepdims)
    lo = min(a, axis, keepdims=keepdims)
    if out is None:
        return _ufuncs.subtract(hi, lo)
    return _ufuncs.subtract(hi, lo, out=out)


def _arg_out_dtype(out):
    if isinstance(out, _ndarray) and not _np.can_cast(out.dtype, _np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from {out.dtype!r} to "
                        f"{_np.dtype(_np.intp)!r} according to the rule 'safe'")


def _arg(kind, what, a, axis, out, keepdims, out_first=True):
    a = _as_array(a)
    if axis is not None:
        axis = operator.index(axis)
    n, _ = _reduced_count(a.shape, axis)
    if n == 0:
        raise ValueError(f"attempt to get {what} of an empty sequence")
    if out_first:
        _arg_out_dtype(out)
    r = _core._reduce(kind, a, axis, keepdims)
    if axis is None and keepdims:
        r = r.reshape((1,) * a.ndim)
    return r, out


def argmax(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None, *,
           keepdims: bool = False) -> ndarray:
    """Indices of the maximum values (first occurrence; NaN counts as the maximum)."""
    r, out = _arg("argmax", "argmax", a, axis, out, keepdims)
    return _finish(r, None, out)


def argmin(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None, *,
           keepdims: bool = False) -> ndarray:
    """Indices of the minimum values (first occurrence; NaN counts as the minimum)."""
    r, out = _arg("argmin", "argmin", a, axis, out, keepdims)
    return _finish(r, None, out)


def _nanarg(kind, a, axis, out, keepdims):
    # NumPy looks for all-NaN slices before argmax sees out=.
    r, out = _arg(kind, kind[3:], a, axis, out, keepdims, out_first=False)
    if r.size and bool(_core._reduce("any", r < 0, None, False)):
        raise ValueError("All-NaN slice encountered")
    _arg_out_dtype(out)
    return _finish(r, None, out)


def nanargmax(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None, *,
              keepdims: bool = False) -> ndarray:
    """argmax ignoring NaNs; ValueError for an all-NaN slice."""
    return _nanarg("nanargmax", a, axis, out, keepdims)


def nanargmin(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None, *,
              keepdims: bool = False) -> ndarray:
    """argmin ignoring NaNs; ValueError for an all-NaN slice."""
    return _nanarg("nanargmin", a, axis, out, keepdims)


def all(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,  # noqa: A001
        keepdims: bool = False) -> ndarray:
    """True where every element along the axes is true."""
    return _finish(_core._reduce("all", _as_array(a), _axis_arg(axis), keepdims), None, out,
                   "logical_and")


def any(a: ArrayLike, axis: AxisLike = None, out: ndarray | None = None,  # noqa: A001
        keepdims: bool = False) -> ndarray:
    """True where any element along the axes is true."""
    return _finish(_core._reduce("any", _as_array(a), _axis_arg(axis), keepdims), None, out,
                   "logical_or")


def count_nonzero(a: ArrayLike, axis: AxisLike = None, *, keepdims: bool = False) -> ndarray:
    """Number of non-zero elements (int64)."""
    a = _as_array(a)
    axis = _axis_arg(axis)
    return _core._reduce("sum", _ufuncs.not_equal(a, 0) if a.dtype != _np.bool_ else a, axis, keepdims)


def _mean_dtype(a, dtype):
    """(accumulation dtype, result dtype) of NumPy's mean."""
    if dtype is not None:
        dtype = _np.dtype(dtype)
        acc = _np.dtype(_np.float32) if dtype == _np.float16 else dtype
        return acc, dtype
    if a.dtype.kind in "biu":
        return _np.dtype(_np.float64), _np.dtype(_np.float64)
    if a.dtype == _np.float16:
        return _np.dtype(_np.float32), a.dtype
    return a.dtype, a.dtype


def mean(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None, out: ndarray | None = None,
         keepdims: bool = False) -> ndarray:
    """Arithmetic mean (float64 for integers; float16 accumulates in float32)."""
    a = _as_array(a)
    axis = _axis_arg(axis)
    _strict_axes(a, axis)
    acc, res = _mean_dtype(a, dtype)
    n, _ = _reduced_count(a.shape, axis)
    if n and a.dtype.kind in "fc" and res == a.dtype:
        # The sum's kernel divides (float16 sums in float32 there, as NumPy's).
        return _finish(_core._reduce_mean(a, axis, keepdims, float(n)), None, out)
    s = _core._reduce("sum", a if a.dtype == acc else a.astype(acc), axis, keepdims)
    if s.dtype != acc:
        # NumPy sums in the dtype asked for (an integer one wraps around), then divides.
        s = s.astype(acc)
    if n == 0:
        warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=2)
    with _np.errstate(all="ignore"):
        r = _ufuncs.divide(s, float(n)) if n else _ufuncs.multiply(s, float("nan"))
    return _finish(r, res if r.dtype != res else None, out)


_BOOL_SUBTRACT = ("numpy boolean subtract, the `-` operator, is not supported, use the "
                  "bitwise_xor, the `^` operator, or the logical_xor function instead.")


def _var(a, axis, dtype, out, ddof, keepdims, nan, root=False):
    """(var, or std where root, result dtype)."""
    a = _as_array(a)
    axis = _axis_arg(axis)
    if not nan:
        _strict_axes(a, axis)  # the nan-functions accept axis 0 of a 0-d array, as NumPy's
    acc, res = _mean_dtype(a, dtype)
    if a.dtype == _np.bool_ and acc == _np.bool_:
        # NumPy keeps the mean in dtype= (bool here) and subtracts it from the data.
        raise TypeError(_BOOL_SUBTRACT)
    if a.dtype.kind == "c" and dtype is None:
        res = _np.empty(0, res).real.dtype  # |x - mean|^2 of complex input is real
    x = a if a.dtype == acc else a.astype(acc)
    if not nan and acc in (_np.float32, _np.float64):
        # One pass: each output's mean and squared deviations merged as the data is read,
        # then divided (and the root taken) by the same kernel.
        n, _ = _reduced_count(a.shape, axis)
        _warn_no_degrees_of_freedom(n, ddof)
        return _core._reduce_variance(x, axis, keepdims, float(max_int(n - ddof)), root), res
    if nan:
        valid = _ufuncs.logical_not(_ufuncs.isnan(x))
        n = _core._reduce("sum", valid, axis, True)
        m = _ufuncs.divide(_core._reduce("nansum", x, axis, True), n)
    else:
        n, _ = _reduced_count(a.shape, axis)
        m = _ufuncs.divide(_core._reduce("sum", x, axis, True), float(n) if n else float("nan"))
    if acc.kind == "f" or (acc.kind == "c" and a.dtype.kind == "c"):
        # One pass over x reduces |x - m|^2 (the deviations are never stored).
        m = m if m.dtype == acc else m.astype(acc)
        s = _core._reduce_squared_deviations(x, _core.ascontiguousarray(m), axis, keepdims,
                                              nan)
    else:
        # An integer dtype=, or complex arithmetic asked for real data: NumPy computes d*d
        # in that dtype (complex d*d stays complex).
        d = _ufuncs.subtract(x, m)
        if nan:
            d = _indexing.where(valid, d, 0)
        s = _core._reduce("sum", _ufuncs.multiply(d, d), axis, keepdims)
    if nan:
        denom = _ufuncs.subtract(n.reshape(s.shape), ddof)  # the mean's counts, as the result
        none_left = _ufuncs.less_equal(denom, 0)
        if bool(_core._reduce("any", none_left, None, False)):
            warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=3)
        denom = _indexing.where(none_left, float("nan"), denom)
        with _np.errstate(all="ignore"):
            r = _ufuncs.divide(s, denom)
    else:
        _warn_no_degrees_of_freedom(n, ddof)
        with _np.errstate(all="ignore"):
            r = _ufuncs.divide(s, float(max_int(n - ddof)))
    return (_ufuncs.sqrt(r) if root else r), res


def _warn_no_degrees_of_freedom(n, ddof):
    """NumPy's warning where n - ddof <= 0 (the result is then inf or NaN)."""
    if n - ddof <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=4)


def max_int(v):
    return v if v > 0 else 0


def var(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None, out: ndarray | None = None,
        ddof: float = 0, keepdims: bool = False, *, correction=None) -> ndarray:
    """Variance (``ddof``, or the Array API's ``correction``)."""
    if correction is not None:
        ddof = correction
    r, res = _var(a, axis, dtype, out, ddof, keepdims, nan=False)
    return _finish(r, res if r.dtype != res else None, out)


def std(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None, out: ndarray | None = None,
        ddof: float = 0, keepdims: bool = False, *, correction=None) -> ndarray:
    """Standard deviation (square root of ``var``)."""
    if correction is not None:
        ddof = correction
    r, res = _var(a, axis, dtype, out, ddof, keepdims, nan=False, root=True)
    return _finish(r, res if r.dtype != res else None, out, ufunc="sqrt")


def nanmean(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
            out: ndarray | None = None, keepdims: bool = False) -> ndarray:
    """Mean ignoring NaNs; an all-NaN slice gives NaN with a RuntimeWarning."""
    a = _as_array(a)
    if a.dtype.kind in "biu":
        return mean(a, axis, dtype, out, keepdims)
    axis = _axis_arg(axis)
    _nan_inexact_args(dtype, out)
    acc, res = _mean_dtype(a, dtype)
    x = a if a.dtype == acc else a.astype(acc)
    cnt = _core._reduce("sum", _ufuncs.logical_not(_ufuncs.isnan(x)), axis, keepdims)
    s = _core._reduce("nansum", x, axis, keepdims)
    if cnt.size and bool(_core._reduce("any", _ufuncs.equal(cnt, 0), None, False)):
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    with _np.errstate(all="ignore"):
        r = _ufuncs.divide(s, cnt)
    if r.dtype != res:
        r = r.astype(res)
    return _finish(r, None, out)


def _nan_inexact_args(dtype, out):
    """numpy.nanmean/nanvar/nanstd of inexact data refuse integer dtype= and out= (an out=
    without a dtype fails as NumPy's, reading out.dtype)."""
    if dtype is not None and not issubclass(_np.dtype(dtype).type, _np.inexact):
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and not issubclass(out.dtype.type, _np.inexact):
        raise TypeError("If a is inexact, then out must be inexact")


def nanvar(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
           out: ndarray | None = None, ddof: float = 0, keepdims: bool = False) -> ndarray:
    """Variance ignoring NaNs."""
    a = _as_array(a)
    if a.dtype.kind in "biu":
        return var(a, axis, dtype, out, ddof, keepdims)
    _nan_inexact_args(dtype, out)
    r, res = _var(a, axis, dtype, out, ddof, keepdims, nan=True)
    return _finish(r, res if r.dtype != res else None, out)


def nanstd(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
           out: ndarray | None = None, ddof: float = 0, keepdims: bool = False) -> ndarray:
    """Standard deviation ignoring NaNs."""
    a = _as_array(a)
    if a.dtype.kind in "biu":
        return std(a, axis, dtype, out, ddof, keepdims)
    _nan_inexact_args(dtype, out)
    r, res = _var(a, axis, dtype, out, ddof, keepdims, nan=True, root=True)
    return _finish(r, res if r.dtype != res else None, out, ufunc="sqrt")


def average(a: ArrayLike, axis: AxisLike = None, weights: ArrayLike | None = None, returned=False,
            *, keepdims: bool = False):
    """Weighted average (NumPy's ``average``)."""
    a = _as_array(a)
    axis = _axis_arg(axis)
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        if avg.size == 0:
            # NumPy's scale is a.size / avg.size, computed whether or not it is returned.
            raise ZeroDivisionError("division by zero")
        scl = _core.full_like(avg, a.size // (avg.size or 1) if a.size else 0, dtype=avg.dtype)
    else:
        w = _as_array(weights)
        if a.shape != w.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights differ.")
            axes = tuple(_core._reduce_axes(axis, a.ndim)) if not isinstance(axis, tuple) else tuple(
                _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim))
            if w.shape != tuple(a.shape[ax] for ax in axes):
                raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
            # As NumPy: weights' axes in increasing order, then broadcast along the others.
            w = _core.ascontiguousarray(w.transpose(tuple(int(k) for k in _np.argsort(axes))))
            w = w.reshape(tuple(s if ax in axes else 1 for ax, s in enumerate(a.shape)))
        rt = _np.result_type(a.dtype, w.dtype, 1.0 if a.dtype.kind in "biu" else a.dtype)
        scl = sum(_ufuncs.multiply(_core.ones_like(a, dtype=rt), w) if w.shape != a.shape else w.astype(rt),
                  axis=axis, keepdims=keepdims)
        if bool(_core._reduce("any", _ufuncs.equal(scl, 0), None, False)):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _ufuncs.divide(sum(_ufuncs.multiply(a.astype(rt), w), axis=axis, keepdims=keepdims), scl)
    if returned:
        if scl.shape != avg.shape:
            scl = _ufuncs.multiply(_core.ones_like(avg), scl)
        return avg, scl
    return avg


def _scan(a, axis, dtype, out, product, skip_nan):
    a = _as_array(a)
    dtype = _computation_dtype(dtype, out)
    if dtype is not None and _np.dtype(dtype) != a.dtype:
        a = a.astype(dtype)
    if axis is None:
        x = _core.ascontiguousarray(a).reshape(-1)
        axis = 0
    elif a.ndim == 0:
        _core._reduce_axes(operator.index(axis), 0)  # AxisError unless 0 or -1
        x = a.reshape(1)
        axis = 0
    else:
        axis = _core._reduce_axes(operator.index(axis), a.ndim)[0]
        x = a
    moved = _core.ascontiguousarray(_shape_ops.moveaxis(x, axis, -1)) if x.ndim else x.reshape(1)
    r = _core._scan_last(moved, product, skip_nan)
    if x.ndim:
        r = _shape_ops.moveaxis(r, -1, axis)
    return _finish(r, dtype, out)


def cumsum(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
           out: ndarray | None = None) -> ndarray:
    """Cumulative sum (flattened when axis is None)."""
    return _scan(a, axis, dtype, out, False, False)


def cumprod(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
            out: ndarray | None = None) -> ndarray:
    """Cumulative product (flattened when axis is None)."""
    return _scan(a, axis, dtype, out, True, False)


def nancumsum(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
              out: ndarray | None = None) -> ndarray:
    """Cumulative sum treating NaNs as zero (numpy.nancumsum)."""
    return _scan(a, axis, dtype, out, False, True)


def nancumprod(a: ArrayLike, axis: AxisLike = None, dtype: DTypeLike = None,
               out: ndarray | None = None) -> ndarray:
    """Cumulative product treating NaNs as one (numpy.nancumprod)."""
    return _scan(a, axis, dtype, out, True, True)


def _cumulative(a, axis, dtype, include_initial, product, out):
    a = _as_array(a)
    if axis is None:
        if a.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    if not include_initial:
        return _scan(a, axis, dtype, out, product, False)
    r = _scan(a, axis, dtype, None, product, False)
    axis = _core._reduce_axes(axis, a.ndim)[0]
    shape = list(r.shape)
    shape[axis] = 1
    init = _core.full(tuple(shape), 1 if product else 0, dtype=r.dtype)
    r = _shape_ops.concatenate([init, r], axis=axis)
    if isinstance(out, _ndarray) and out.shape != r.shape:
        raise ValueError("provided out is the wrong size for the accumulation.")
    return _finish(r, None, out)


def cumulative_sum(x: ArrayLike, /, *, axis: AxisLike = None, dtype: DTypeLike = None,
                   out: ndarray | None = None, include_initial: bool = False) -> ndarray:
    """The Array API's cumulative sum (numpy.cumulative_sum)."""
    return _cumulative(x, axis, dtype, include_initial, False, out)


def cumulative_prod(x: ArrayLike, /, *, axis: AxisLike = None, dtype: DTypeLike = None,
                    out: ndarray | None = None, include_initial: bool = False) -> ndarray:
    """The Array API's cumulative product (numpy.cumulative_prod)."""
    return _cumulative(x, axis, dtype, include_initial, True, out)


__all__ = ["sum", "prod", "nansum", "nanprod", "max", "min", "amax", "amin", "nanmax", "nanmin",
           "ptp", "argmax", "argmin", "nanargmax", "nanargmin", "all", "any", "count_nonzero",
           "mean", "var", "std", "nanmean", "nanvar", "nanstd", "average", "cumsum", "cumprod",
           "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod"]
