"""Creation functions whose argument rules are NumPy's Python-level logic: arange,
linspace, logspace, geomspace, identity, and pinned host arrays, whose values are computed on
the device; and frombuffer, fromiter, fromstring, which read host data with NumPy and upload
it once."""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _ufuncs
from gpuarr.cuda import Device as _Device

if TYPE_CHECKING:
    from gpuarr._typing import AxisLike, DTypeLike, ShapeLike, ndarray

_EXACT_KERNEL_KINDS = "iuf"


def arange(start, stop=None, step=None, dtype: DTypeLike = None, *, device=None,
           like=None) -> ndarray:
    """Evenly spaced values in [start, stop), as ``numpy.arange``; on ``device`` (a
    gpuarr.cuda.Device or an id) when given."""
    if device is not None or like is not None:
        _reject_like("arange", like)
        with _Device(_core._device_index(device)):
            return arange(start, stop, step, dtype)
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
             axis: AxisLike = 0, *, device=None):
    """``num`` evenly spaced samples over [start, stop], as ``numpy.linspace``; on
    ``device`` (a gpuarr.cuda.Device or an id) when given."""
    if device is not None:
        with _Device(_core._device_index(device)):
            return linspace(start, stop, num, endpoint, retstep, dtype, axis)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    start_a, stop_a = _np.asarray(start), _np.asarray(stop)
    if isinstance(start, _core.ndarray) or isinstance(stop, _core.ndarray):
        raise TypeError("gpuarr.linspace takes host scalars or arrays for start and stop")
    # Python scalars stay weak (NumPy's rule); sequences go in as their arrays, since
    # result_type reads a list as a structured dtype.
    dt = _np.result_type(start if start_a.ndim == 0 else start_a,
                         stop if stop_a.ndim == 0 else stop_a, float(num))
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
    # float64 values wanted as float32 are rounded as they are stored (one pass).
    fill_dtype = out_dtype if (dt, out_dtype) == (_np.float64, _np.float32) else dt
    y = _core.empty((num,), fill_dtype)
    _core._linspace_fill(
        y, float(start_a.astype(dt)), float(stop_a.astype(dt)),
        float(step) if div > 0 else 0.0, float(delta), float(max(div, 1)),
        step_is_zero, bool(endpoint), out_dtype.kind in "iu", dt == _np.float64)
    if div <= 0:
        # NumPy multiplies by delta here: 0 * delta + start (nan delta gives nan).
        y = _core.array(_np.linspace(start, stop, num, endpoint, False, dt))
    if out_dtype != y.dtype:
        y = y.astype(out_dtype)
    if retstep:
        return y, step
    return y


def identity(n, dtype: DTypeLike = None, *, like=None) -> ndarray:
    """The ``n`` x ``n`` identity matrix."""
    _reject_like("identity", like)
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


def _reject_device_endpoints(name, *args):
    if any(isinstance(a, _core.ndarray) for a in args):
        raise TypeError(f"gpuarr.{name} takes host scalars or arrays for its end points")


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype: DTypeLike = None,
             axis: AxisLike = 0) -> ndarray:
    """Numbers spaced evenly on a log scale (numpy.logspace).

    Parameters
    ----------
    start, stop : array_like
        ``base ** start`` and ``base ** stop`` are the first and last samples (host scalars
        or arrays).
    num : int, optional
        Number of samples.
    endpoint : bool, optional
        Whether ``base ** stop`` is the last sample.
    base : array_like, optional
        The base of the log space.
    dtype : dtype, optional
        The output dtype; by default the dtype of ``base ** linspace(start, stop)``.
    axis : int, optional
        The axis of the result that holds the samples, for array ``start``/``stop``/``base``.

    Returns
    -------
    ndarray
        ``base ** linspace(start, stop, num, endpoint)``, computed on the device.
    """
    _reject_device_endpoints("logspace", start, stop, base)
    return _logspace(start, stop, num, endpoint, base, dtype, axis)


def _logspace(start, stop, num, endpoint, base, dtype, axis):
    """logspace of host end points and base."""
    if not isinstance(base, (float, int)) and _np.ndim(base):
        ndmax = _np.broadcast(start, stop, base).ndim
        start, stop, base = (_np.array(a, copy=None, subok=True, ndmin=ndmax)
                             for a in (start, stop, base))
        base = _core.asarray(_np.expand_dims(base, axis=axis))
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    res = _ufuncs.power(base, y)
    if dtype is None:
        return res
    return res.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype: DTypeLike = None,
              axis: AxisLike = 0) -> ndarray:
    """Numbers spaced evenly on a log scale between two end points (numpy.geomspace).

    Parameters
    ----------
    start, stop : array_like
        The first and last samples (host scalars or arrays); neither may be zero. Negative
        and complex end points follow NumPy's rotation rule.
    num : int, optional
        Number of samples.
    endpoint : bool, optional
        Whether ``stop`` is the last sample.
    dtype : dtype, optional
        The output dtype; by default float64 or complex128 as NumPy's.
    axis : int, optional
        The axis of the result that holds the samples, for array ``start``/``stop``.

    Returns
    -------
    ndarray
        The samples, computed on the device; the end points are ``start`` and ``stop``
        exactly.
    """
    _reject_device_endpoints("geomspace", start, stop)
    start = _np.asanyarray(start)
    stop = _np.asanyarray(stop)
    if _np.any(start == 0) or _np.any(stop == 0):
        raise ValueError("Geometric sequence cannot include zero")
    dt = _np.result_type(start, stop, float(num), _np.zeros((), dtype))
    dtype = dt if dtype is None else _np.dtype(dtype)
    start = start.astype(dt, copy=True)
    stop = stop.astype(dt, copy=True)
    # NumPy rotates start onto the positive real axis (negative and complex end points),
    # computes there, and rotates back.
    out_sign = _np.sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = _logspace(_np.log10(start), _np.log10(stop), num, endpoint, 10.0, dt, 0)
    # 10 ** log10(x) need not be x: the end points are set exactly.
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = _ufuncs.multiply(result, _core.asarray(out_sign), out=result)
    if axis != 0:
        result = _core._moveaxis(result, 0, axis)
    return result.astype(dtype, copy=False)


def frombuffer(buffer, dtype: DTypeLike = None, count=-1, offset=0, *, like=None) -> ndarray:
    """A 1-d array from a host buffer (numpy.frombuffer), uploaded to the device.

    Parameters
    ----------
    buffer : buffer_like
        An object exposing the buffer protocol (bytes, bytearray, memoryview, NumPy array).
    dtype : dtype, optional
        The dtype of the elements; float64 when None.
    count : int, optional
        Number of elements to read; -1 reads to the end of the buffer.
    offset : int, optional
        Start reading at this byte offset.
    like : None
        Not supported (NumPy's ``__array_function__`` dispatch); must be None.

    Returns
    -------
    ndarray
        A device copy of NumPy's ``frombuffer`` result (device memory cannot alias a host
        buffer).
    """
    _reject_like("frombuffer", like)
    return _core.array(_np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromiter(iter, dtype: DTypeLike, count=-1, *, like=None) -> ndarray:  # noqa: A002
    """A 1-d array from an iterable (numpy.fromiter), read on the host and uploaded once.

    Parameters
    ----------
    iter : iterable
        The values (each element a scalar, or a sequence for subarray dtypes).
    dtype : dtype
        The dtype of the result.
    count : int, optional
        Number of items to read; -1 reads the whole iterable.
    like : None
        Not supported (NumPy's ``__array_function__`` dispatch); must be None.

    Returns
    -------
    ndarray
        The values on the device.
    """
    _reject_like("fromiter", like)
    return _core.array(_np.fromiter(iter, dtype=dtype, count=count))


def fromstring(string, dtype: DTypeLike = float, count=-1, *, sep, like=None) -> ndarray:
    """A 1-d array from text data (numpy.fromstring), parsed on the host and uploaded once.

    Parameters
    ----------
    string : str
        The text holding the numbers.
    dtype : dtype, optional
        The dtype of the result.
    count : int, optional
        Number of items to read; -1 reads all of them.
    sep : str
        The separator between numbers (whitespace around it is ignored).
    like : None
        Not supported (NumPy's ``__array_function__`` dispatch); must be None.

    Returns
    -------
    ndarray
        The values on the device.
    """
    _reject_like("fromstring", like)
    return _core.array(_np.fromstring(string, dtype=dtype, count=count, sep=sep))


def _reject_like(name, like):
    if like is not None:
        raise TypeError(f"gpuarr.{name} does not support like= (NumPy's __array_function__ "
                        "dispatch)")


def asanyarray(a, dtype: DTypeLike = None, order=None, *, device=None, copy=None,
               like=None) -> ndarray:
    """The input as a gpuarr array (numpy.asanyarray); gpuarr has no ndarray subclasses, so
    this is ``asarray``.

    Parameters
    ----------
    a : array_like
        A gpuarr array (returned as is when it fits), a CUDA array of another library, or
        host data (uploaded).
    dtype : dtype, optional
        The dtype of the result.
    order : {'C', 'F', 'A', 'K'}, optional
        Memory layout of the result.
    device : gpuarr.cuda.Device or int, optional
        The device of the result; the current one by default.
    copy : bool, optional
        True always copies; False raises ValueError when a copy is needed (host data always
        needs one); None copies only when needed.
    like : None
        Not supported (NumPy's ``__array_function__`` dispatch); must be None.

    Returns
    -------
    ndarray
        The array on the device.
    """
    _reject_like("asanyarray", like)
    return _core.asarray(a, dtype, order, device=device, copy=copy)


def asarray_chkfinite(a, dtype: DTypeLike = None, order=None) -> ndarray:
    """The input as a gpuarr array, checked to hold no infinities or NaNs
    (numpy.asarray_chkfinite).

    Parameters
    ----------
    a : array_like
        A gpuarr array or host data.
    dtype : dtype, optional
        The dtype of the result.
    order : {'C', 'F', 'A', 'K'}, optional
        Memory layout of the result.

    Returns
    -------
    ndarray
        ``asarray(a, dtype, order)``. For inexact dtypes one flag is read back from the
        device.

    Raises
    ------
    ValueError
        When an element is infinite or NaN.
    """
    a = _core.asarray(a, dtype, order)
    if a.dtype.kind in "fc" and not bool(_core._reduce("all", _ufuncs.isfinite(a), None,
                                                       False)):
        raise ValueError("array must not contain infs or NaNs")
    return a
