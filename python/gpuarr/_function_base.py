"""Differences, integration, interpolation, binning and selection (numpy's function_base):
diff, ediff1d, gradient, trapezoid, interp, digitize, unwrap, sort_complex, select.
Composed from device ufuncs, slicing, sort/searchsorted and cumsum with NumPy's formulas
in NumPy's order of operations, so that results round as NumPy's do."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _indexing, _reductions, _shape_ops, _sorting, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, AxisLike, ndarray

__all__ = ["diff", "ediff1d", "gradient", "trapezoid", "interp", "digitize", "unwrap",
           "sort_complex", "select"]


class _NoValueType:
    """The "argument not given" marker of diff's prepend/append (None is a valid value)."""

    def __repr__(self):
        return "<no value>"


_NoValue = _NoValueType()


def _as(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _ndim(x):
    return x.ndim if isinstance(x, _ndarray) else _np.ndim(x)


def _normalize_axis(axis, ndim):
    return int(_np.lib.array_utils.normalize_axis_index(axis, ndim))


def diff(a: ArrayLike, n: int = 1, axis: int = -1, prepend=_NoValue, append=_NoValue) -> ndarray:
    """The n-th discrete difference along an axis (numpy.diff).

    Parameters
    ----------
    a : array_like
        Input array.
    n : int, optional
        The number of times values are differenced.
    axis : int, optional
        The axis along which the difference is taken, default the last.
    prepend, append : array_like, optional
        Values to prepend or append along ``axis`` before differencing (scalars are
        broadcast to length 1 along the axis).

    Returns
    -------
    ndarray
        The differences (``not_equal`` for boolean input, as NumPy's).
    """
    if n == 0:
        return _as(a)
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _as(a)
    nd = a.ndim
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _normalize_axis(axis, nd)
    combined = []
    for extra, position in ((prepend, 0), (append, 1)):
        if extra is _NoValue:
            continue
        extra = _as(extra)
        if extra.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            extra = _shape_ops.broadcast_to(extra, tuple(shape))
        combined.append((position, extra))
    if combined:
        parts = [e for p, e in combined if p == 0] + [a] + [e for p, e in combined if p == 1]
        a = _shape_ops.concatenate(parts, axis)
    slice1 = [slice(None)] * nd
    slice2 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice2[axis] = slice(None, -1)
    slice1 = tuple(slice1)
    slice2 = tuple(slice2)
    op = _ufuncs.not_equal if a.dtype == _np.bool_ else _ufuncs.subtract
    for _ in range(n):
        a = op(a[slice1], a[slice2])
    return a


def ediff1d(ary: ArrayLike, to_end: ArrayLike | None = None,
            to_begin: ArrayLike | None = None) -> ndarray:
    """The differences between consecutive elements of the flattened array
    (numpy.ediff1d).

    Parameters
    ----------
    ary : array_like
        Input array (flattened).
    to_end, to_begin : array_like, optional
        Values appended/prepended to the differences; they must cast to ``ary``'s dtype
        under the 'same_kind' rule.

    Returns
    -------
    ndarray
        1-d array of ``ary``'s dtype.
    """
    ary = _as(ary).reshape(-1)
    dtype_req = ary.dtype
    if to_begin is None and to_end is None:
        return _ufuncs.subtract(ary[1:], ary[:-1])
    parts = []
    for extra, name in ((to_begin, "to_begin"), (to_end, "to_end")):
        if extra is None:
            parts.append(None)
            continue
        if not isinstance(extra, _ndarray):
            extra = _np.asanyarray(extra)
        if not _np.can_cast(extra.dtype, dtype_req, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible "
                            "with input `ary` under the `same_kind` rule.")
        # Assigned into the result as NumPy does, an unsafe cast once the kinds agree
        # (to_end=300 is 44 for int8).
        if isinstance(extra, _np.ndarray):
            extra = extra.astype(dtype_req)
        parts.append(_core.asarray(extra, dtype=dtype_req).reshape(-1))
    l_diff = max(ary.shape[0] - 1, 0)
    body = _core.empty((l_diff,), dtype=dtype_req)
    if l_diff:
        _ufuncs.subtract(ary[1:], ary[:-1], out=body)
    seq = [p for p in (parts[0], body, parts[1]) if p is not None]
    return _shape_ops.concatenate(seq)


def _edge_formula(a, b, c, f, s2, s3, s4):
    return a * f[s2] + b * f[s3] + c * f[s4]


def gradient(f: ArrayLike, *varargs, axis: AxisLike = None, edge_order: int = 1):
    """The gradient by second-order central differences inside and first- or second-order
    one-sided differences at the boundaries (numpy.gradient).

    Parameters
    ----------
    f : array_like
        Samples of a function.
    *varargs : scalar or array_like, optional
        Spacing: one scalar for every axis, or one scalar or 1-d coordinate array per axis.
    axis : None or int or tuple of ints, optional
        The axes along which the gradient is computed (default all).
    edge_order : {1, 2}, optional
        The accuracy order at the boundaries.

    Returns
    -------
    ndarray or tuple of ndarray
        One array per axis (a single array when one axis is asked for).
    """
    f = _as(f)
    N = f.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, N)
    len_axes = len(axes)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len_axes
    elif n == 1 and _ndim(varargs[0]) == 0:
        dx = list(varargs) * len_axes
    elif n == len_axes:
        dx = list(varargs)
        for i, distances in enumerate(dx):
            if _ndim(distances) == 0:
                continue
            distances = _as(distances)
            if distances.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if distances.shape[0] != f.shape[axes[i]]:
                raise ValueError("when 1d, distances must match "
                                 "the length of the corresponding dimension")
            if distances.dtype.kind in "iub":
                distances = distances.astype(_np.float64)
            diffx = diff(distances)
            if diffx.shape[0] and bool(_reductions.all(_ufuncs.equal(diffx, diffx[0]))):
                diffx = diffx[0]
            dx[i] = diffx
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(_np.float64)
        otype = _np.dtype(_np.float64)
    outvals = []
    slice1 = [slice(None)] * N
    slice2 = [slice(None)] * N
    slice3 = [slice(None)] * N
    slice4 = [slice(None)] * N
    for ax, ax_dx in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError(
                "Shape of array too small to calculate a numerical gradient, "
                "at least (edge_order + 1) elements are required.")
        out = _core.empty(f.shape, dtype=otype)
        uniform = _ndim(ax_dx) == 0
        slice1[ax] = slice(1, -1)
        slice2[ax] = slice(None, -2)
        slice3[ax] = slice(1, -1)
        slice4[ax] = slice(2, None)
        if uniform:
            out[tuple(slice1)] = (f[tuple(slice4)] - f[tuple(slice2)]) / (2. * ax_dx)
        else:
            dx1 = ax_dx[0:-1]
            dx2 = ax_dx[1:]
            shape = [1] * N
            shape[ax] = -1
            a = (-(dx2) / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            out[tuple(slice1)] = _edge_formula(a, b, c, f, tuple(slice2), tuple(slice3),
                                               tuple(slice4))
        if edge_order == 1:
            slice1[ax] = 0
            slice2[ax] = 1
            slice3[ax] = 0
            dx_0 = ax_dx if uniform else ax_dx[0]
            out[tuple(slice1)] = (f[tuple(slice2)] - f[tuple(slice3)]) / dx_0
            slice1[ax] = -1
            slice2[ax] = -1
            slice3[ax] = -2
            dx_n = ax_dx if uniform else ax_dx[-1]
            out[tuple(slice1)] = (f[tuple(slice2)] - f[tuple(slice3)]) / dx_n
        else:
            slice1[ax] = 0
            slice2[ax] = 0
            slice3[ax] = 1
            slice4[ax] = 2
            if uniform:
                a = -1.5 / ax_dx
                b = 2. / ax_dx
                c = -0.5 / ax_dx
            else:
                dx1 = ax_dx[0]
                dx2 = ax_dx[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[tuple(slice1)] = _edge_formula(a, b, c, f, tuple(slice2), tuple(slice3),
                                               tuple(slice4))
            slice1[ax] = -1
            slice2[ax] = -3
            slice3[ax] = -2
            slice4[ax] = -1
            if uniform:
                a = 0.5 / ax_dx
                b = -2. / ax_dx
                c = 1.5 / ax_dx
            else:
                dx1 = ax_dx[-2]
                dx2 = ax_dx[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[tuple(slice1)] = _edge_formula(a, b, c, f, tuple(slice2), tuple(slice3),
                                               tuple(slice4))
        outvals.append(out)
        slice1[ax] = slice(None)
        slice2[ax] = slice(None)
        slice3[ax] = slice(None)
        slice4[ax] = slice(None)
    if len_axes == 1:
        return outvals[0]
    return tuple(outvals)


def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: float = 1.0,
              axis: int = -1) -> ndarray:
    """Integral along an axis by the composite trapezoidal rule (numpy.trapezoid).

    Parameters
    ----------
    y : array_like
        The values to integrate.
    x : array_like, optional
        The sample points (1-d, or of ``y``'s shape); ``dx`` spacing when None.
    dx : scalar, optional
        The spacing between samples when ``x`` is None.
    axis : int, optional
        The axis along which to integrate.

    Returns
    -------
    ndarray
        The integral (a 0-d array for 1-d ``y``).
    """
    y = _as(y)
    if x is None:
        d = dx
    else:
        x = _as(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    nd = y.ndim
    slice1 = [slice(None)] * nd
    slice2 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice2[axis] = slice(None, -1)
    return _reductions.sum(d * (y[tuple(slice1)] + y[tuple(slice2)]) / 2.0, axis=axis)


def _interp_real(x, xp, fp, left, right):
    """NumPy's compiled interp on float64 values: fp[j] + slope * (x - xp[j]) in the
    interval xp[j] <= x < xp[j+1], from the other end when that is NaN, left/right
    outside, NaN for NaN x."""
    n = xp.shape[0]
    fp0 = fp[0]
    fpn = fp[n - 1]
    lval = fp0 if left is None else left
    rval = fpn if right is None else right
    if n == 1:
        res = _indexing.where(_ufuncs.less(x, xp[0]), lval,
                              _indexing.where(_ufuncs.greater(x, xp[0]), rval, fp0))
        return res.astype(_np.float64, copy=False)
    j = _sorting.searchsorted(xp, x, "right") - 1
    jc = _ufuncs.minimum(_ufuncs.maximum(j, 0), n - 2)
    x0 = xp[jc]
    x1 = xp[jc + 1]
    y0 = fp[jc]
    y1 = fp[jc + 1]
    slope = (y1 - y0) / (x1 - x0)
    res = slope * (x - x0) + y0
    res = _indexing.where(_ufuncs.isnan(res), slope * (x - x1) + y1, res)
    res = _indexing.where(_ufuncs.logical_and(_ufuncs.isnan(res), _ufuncs.equal(y0, y1)),
                          y0, res)
    res = _indexing.where(_ufuncs.equal(x0, x), y0, res)
    res = _indexing.where(_ufuncs.equal(j, n - 1), fpn, res)
    res = _indexing.where(_ufuncs.less(x, xp[0]), lval, res)
    res = _indexing.where(_ufuncs.greater(x, xp[n - 1]), rval, res)
    res = _indexing.where(_ufuncs.isnan(x), x, res)
    return res.astype(_np.float64, copy=False)


def _as_float64(a, what):
    a = _as(a)
    if a.dtype.kind == "c":
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to "
                        f"{_np.dtype(_np.float64)!r} according to the rule 'safe'")
    return a.astype(_np.float64, copy=False)


def _split_bound(v, is_complex):
    if v is None:
        return None, None
    v = complex(v) if is_complex else float(v)
    return (v.real, v.imag) if is_complex else (v, None)


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left=None, right=None,
           period=None) -> ndarray:
    """One-dimensional piecewise linear interpolation (numpy.interp).

    Parameters
    ----------
    x : array_like
        The points at which to evaluate.
    xp : array_like
        Increasing 1-d sample points (not checked, as in NumPy).
    fp : array_like
        1-d sample values (float or complex), of ``xp``'s length.
    left, right : scalar, optional
        Values for ``x < xp[0]`` and ``x > xp[-1]`` (default ``fp[0]``, ``fp[-1]``).
    period : scalar, optional
        The period of periodic x-coordinates (``left``/``right`` are then ignored).

    Returns
    -------
    ndarray
        float64 (complex128 for complex ``fp``) values of ``x``'s shape.
    """
    fp = _as(fp)
    is_complex = fp.dtype.kind == "c"
    fp_dtype = _np.complex128 if is_complex else _np.float64
    x = _as_float64(x, "x")
    xp = _as_float64(xp, "xp")
    fp = fp.astype(fp_dtype, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = None
        right = None
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = _ufuncs.remainder(x, period)
        xp = _ufuncs.remainder(xp, period)
        order = _sorting.argsort(xp)
        xp = xp[order]
        fp = fp[order]
        xp = _shape_ops.concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = _shape_ops.concatenate((fp[-1:], fp, fp[0:1]))
    for arr in (xp, fp):
        if arr.ndim != 1:
            raise ValueError("object of too small depth for desired array" if arr.ndim == 0
                             else "object too deep for desired array")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != xp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if not is_complex:
        return _interp_real(x, xp, fp, _split_bound(left, False)[0],
                            _split_bound(right, False)[0])
    lre, lim = _split_bound(left, True)
    rre, rim = _split_bound(right, True)
    res = _core.empty(x.shape, dtype=_np.complex128)
    res.real[...] = _interp_real(x, xp, fp.real, lre, rre)
    res.imag[...] = _interp_real(x, xp, fp.imag, lim, rim)
    return res


def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False) -> ndarray:
    """The indices of the bins to which each value belongs (numpy.digitize).

    Parameters
    ----------
    x : array_like
        Input values (not complex).
    bins : array_like
        1-d monotonically increasing or decreasing bin edges.
    right : bool, optional
        Whether the intervals include their right edge instead of their left.

    Returns
    -------
    ndarray
        int64 indices of ``x``'s shape.
    """
    x = _as(x)
    bins = _as(bins)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("object of too small depth for desired array" if bins.ndim == 0
                         else "object too deep for desired array")
    side = "left" if right else "right"
    if bins.shape[0] > 1 and _bins_decrease(bins):
        return bins.shape[0] - _sorting.searchsorted(bins[::-1], x, side=side)
    return _sorting.searchsorted(bins, x, side=side)


def _bins_decrease(bins):
    """NumPy's monotonicity rule for digitize's bins (at least two): the first edge unequal
    to bins[0] sets the direction (increasing unless bins[0] < it is False: NaNs make bins
    decreasing), and no later step may go the other way (ValueError); all equal is
    increasing. One read-back: each step as +1 (rises), -1 (falls), 0 (equal) or 2 (unequal
    but neither, a NaN), and their minimum and maximum."""
    lo, hi = bins[:-1], bins[1:]
    rises = _ufuncs.less(lo, hi).astype(_np.int8)
    falls = _ufuncs.greater(lo, hi).astype(_np.int8)
    unequal = _ufuncs.not_equal(lo, hi).astype(_np.int8)
    lowest, highest = _core._minmax(2 * unequal - rises - 3 * falls)
    if highest == 2:
        # A NaN decides the direction where it is met first: NumPy's own check on the host.
        edges = _core.asnumpy(bins)
        _np.digitize(edges[:0], edges)  # its ValueError for bins that are not monotonic
        first = _np.flatnonzero(edges != edges[0])
        return not (first.size and edges[0] < edges[first[0]])
    if lowest < 0 and highest > 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    return lowest < 0


def unwrap(p: ArrayLike, discont=None, axis: int = -1, *, period=2 * _np.pi) -> ndarray:
    """Unwrap by replacing jumps larger than ``discont`` by their ``period``-complement
    (numpy.unwrap).

    Parameters
    ----------
    p : array_like
        Input array.
    discont : float, optional
        Maximum discontinuity between values, default ``period / 2``.
    axis : int, optional
        The axis along which to unwrap.
    period : float, optional
        The size of the range over which the input wraps.

    Returns
    -------
    ndarray
        The unwrapped array.
    """
    p = _as(p)
    nd = p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None, None)] * nd
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = _np.result_type(dd.dtype, period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = _ufuncs.remainder(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        fix = _ufuncs.logical_and(_ufuncs.equal(ddmod, interval_low), _ufuncs.greater(dd, 0))
        ddmod = _indexing.where(fix, _core.asarray(interval_high, dtype=ddmod.dtype), ddmod)
    ph_correct = ddmod - dd
    ph_correct = _indexing.where(_ufuncs.less(_ufuncs.absolute(dd), discont),
                                 _core.zeros((), dtype=ph_correct.dtype), ph_correct)
    up = _core.array(p, dtype=dtype, copy=True)
    up[slice1] = p[slice1] + _reductions.cumsum(ph_correct, axis=axis)
    return up


def sort_complex(a: ArrayLike) -> ndarray:
    """A sorted copy as complex values, by real part and then imaginary part
    (numpy.sort_complex).

    Parameters
    ----------
    a : array_like
        Input array.

    Returns
    -------
    ndarray
        complex64 for (u)int8/(u)int16 input, the input's dtype for complex input, else
        complex128.
    """
    b = _sorting.sort(_as(a))
    if b.dtype.kind == "c":
        return b
    if b.dtype.char in "bhBH":
        return b.astype(_np.complex64)
    return b.astype(_np.complex128)


def _choice_dtype_operand(c):
    if type(c) in (int, float, complex):
        return c
    return c.dtype if isinstance(c, _ndarray) else _np.asarray(c)


def _select_operand(c, dtype, casting):
    """A choice (or the default) of select in the result's dtype, cast as NumPy's select
    does: the default fills the result (np.full: unsafe, default=300 is 44 for uint8), the
    choices are copied in (np.copyto: same_kind). A Python scalar becomes NumPy's array of
    it first (int64; beyond int64 an object array, which casts to nothing)."""
    if isinstance(c, _ndarray):
        return c.astype(dtype, copy=False)
    host = _np.asarray(c)
    if casting != "unsafe" and not _np.can_cast(host, dtype, casting):
        raise TypeError(f"Cannot cast scalar from {host.dtype!r} to {_np.dtype(dtype)!r} "
                        f"according to the rule '{casting}'")
    with _np.errstate(all="ignore"):
        return _core.asarray(host.astype(dtype))


def select(condlist, choicelist, default=0) -> ndarray:
    """Elements from ``choicelist`` by the first true condition of ``condlist``
    (numpy.select).

    Parameters
    ----------
    condlist : list of bool ndarrays
        The conditions; the first true one picks the choice.
    choicelist : list of ndarrays
        The values, one per condition.
    default : scalar or array_like, optional
        The value where every condition is false.

    Returns
    -------
    ndarray
        The broadcast shape of the conditions and choices, with the choices' common dtype.
    """
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    choices = [c if type(c) in (int, float, complex) else _as(c) for c in choicelist]
    choices.append(default if type(default) in (int, float, complex) else _as(default))
    try:
        dtype = _np.result_type(*[_choice_dtype_operand(c) for c in choices])
    except TypeError as e:
        raise TypeError(
            f"Choicelist and default value do not have a common dtype: {e}") from None
    conds = [_as(c) for c in condlist]
    for i, cond in enumerate(conds):
        if cond.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    cond_shape = _np.broadcast_shapes(*[c.shape for c in conds])
    choice_shape = _np.broadcast_shapes(*[_np.shape(c) if not isinstance(c, _ndarray)
                                          else c.shape for c in choices])
    shape = _np.broadcast_shapes(cond_shape, choice_shape)
    result = _shape_ops.broadcast_to(_select_operand(choices[-1], dtype, "unsafe"), shape)
    for choice, cond in zip(choices[-2::-1], conds[::-1]):
        result = _indexing.where(cond, _select_operand(choice, dtype, "same_kind"), result)
    return _core.array(_shape_ops.broadcast_to(result, shape), dtype=dtype, copy=True)
