"""Creation functions whose argument rules are NumPy's Python-level logic: arange,
linspace, identity, and pinned host arrays. The values are computed on the device."""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core

if TYPE_CHECKING:
    from gpuarr._typing import AxisLike, DTypeLike, ShapeLike, ndarray

_EXACT_KERNEL_KINDS = "iuf"


def arange(start, stop=None, step=None, dtype: DTypeLike = None) -> ndarray:
    """Evenly spaced values in [start, stop), as ``numpy.arange``."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    args = [start, stop, step]
    if dtype is None:
        # NumPy starts from the default integer and promotes with each argument's dtype, so
        # np.float32 arguments give float64 and np.uint8 ones int64.
        dtype = _np.dtype(_np.intp)
        for a in args:
            dtype = _np.promote_types(dtype, _np.asarray(a).dtype)
    dtype = _np.dtype(dtype)
    if step == 0:
        raise ZeroDivisionError("division by zero")
    length = (stop - start) / step
    try:
        length = math.ceil(float(_np.real(length)))
    except (ValueError, OverflowError):
        raise ValueError("arange: cannot compute length") from None
    length = max(length, 0)
    if dtype.kind not in _EXACT_KERNEL_KINDS or length <= 2:
        return _core.array(_np.arange(start, stop, step, dtype=dtype))
    out = _core.empty((length,), dtype)
    # NumPy stores start and start + step in the array's dtype, then extrapolates.
    first = _np.asarray(start).astype(dtype)
    second = _np.asarray(start + step).astype(dtype)
    _core._arange_fill(out, first, second)
    return out


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype: DTypeLike = None,
             axis: AxisLike = 0):
    """``num`` evenly spaced samples over [start, stop], as ``numpy.linspace``."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    start_a, stop_a = _np.asarray(start), _np.asarray(stop)
    if isinstance(start, _core.ndarray) or isinstance(stop, _core.ndarray):
        raise TypeError("gpuarr.linspace takes host scalars or arrays for start and stop")
    dt = _np.result_type(start, stop, float(num))
    if start_a.ndim or stop_a.ndim or dt.kind == "c" or dt not in (_np.float32, _np.float64):
        # Array end points, complex or float16 computations: NumPy's values, uploaded.
        res = _np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
        if retstep:
            return _core.array(res[0]), res[1]
        return _core.array(res)
    out_dtype = dt if dtype is None else _np.dtype(dtype)
    div = (num - 1) if endpoint else num
    delta = _np.subtract(stop_a, start_a, dtype=dt)
    if div > 0:
        step = delta / div
        step_is_zero = bool(step == 0)
    else:
        step = _np.nan
        step_is_zero = False
    y = _core.empty((num,), dt)
    _core._linspace_fill(
        y, float(start_a.astype(dt)), float(stop_a.astype(dt)),
        float(step) if div > 0 else 0.0, float(delta), float(max(div, 1)),
        step_is_zero, bool(endpoint), out_dtype.kind in "iu")
    if div <= 0:
        # NumPy multiplies by delta here: 0 * delta + start (nan delta gives nan).
        y = _core.array(_np.linspace(start, stop, num, endpoint, False, dt))
    if out_dtype != dt:
        y = y.astype(out_dtype)
    if retstep:
        return y, step
    return y


def identity(n, dtype: DTypeLike = None) -> ndarray:
    """The ``n`` x ``n`` identity matrix."""
    return _core.eye(n, dtype=dtype)


def empty_pinned(shape: ShapeLike, dtype: DTypeLike = float, order="C"):
    """An uninitialised NumPy array in pinned (page-locked) host memory: it copies to and
    from the device at full bus speed, and asynchronously when a stream is given."""
    dtype = _np.dtype(dtype)
    try:
        shape = (operator.index(shape),)
    except TypeError:
        shape = tuple(operator.index(n) for n in shape)
    size = math.prod(shape)
    mem = _core.PinnedMemory(max(size * dtype.itemsize, 1))
    flat = _np.frombuffer(mem, dtype=dtype, count=size)
    return flat.reshape(shape, order=order)
