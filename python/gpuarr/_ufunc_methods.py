"""The methods of gpuarr's ufunc type: reduce, accumulate and outer, with NumPy's argument
rules. add, multiply and the extrema run gpuarr's reductions and scans; the other binary
ufuncs compose the ufunc itself on the device (a pairwise tree where the operation is
reorderable, else a left fold along the axis); outer broadcasts. _ndarray_methods attaches
them to the ufunc type."""

from __future__ import annotations

import operator as _operator

import numpy as _np

from gpuarr import _core, _reductions, _shape_ops, _ufuncs

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
    if out is not None and not isinstance(out, _core.ndarray):
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
                  initial=_ufuncs._NO_VALUE, where=True):
    """ufunc.reduce (NumPy's): ``where=`` other than True is not supported."""
    _binary_only(self, "reduce")
    a = _ufuncs._as_array(array)
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
                 and initial is _ufuncs._NO_VALUE)
    kept = tuple(d for i, d in enumerate(a.shape) if i not in axes)
    shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape)) if keepdims else kept
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    x = a if a.dtype == dt else a.astype(dt)
    if initial is _ufuncs._NO_VALUE:
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
    a = _ufuncs._as_array(array)
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
    A = _ufuncs._as_array(A)
    B = _ufuncs._as_array(B)
    return self(A.reshape(A.shape + (1,) * B.ndim), B, **kwargs)
