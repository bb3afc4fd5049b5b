"""numpy.pad on the device: NumPy's algorithm (pad one axis at a time, filling the new
areas by slice assignments that copy edges, reflections, periods, ramps or statistics), with
its host index arithmetic on the pad widths."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _creation, _reductions, _shape_ops, _sorting, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["pad"]

_ALLOWED_KWARGS = {
    "empty": [], "edge": [], "wrap": [], "constant": ["constant_values"],
    "linear_ramp": ["end_values"], "maximum": ["stat_length"], "mean": ["stat_length"],
    "median": ["stat_length"], "minimum": ["stat_length"], "reflect": ["reflect_type"],
    "symmetric": ["reflect_type"],
}


# The modes whose every padded element is a source element chosen by its index alone
# (numpy.pad's 'reflect' and 'symmetric' with reflect_type 'odd' compute values instead).
_INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")

# Padded sizes up to this fill the whole result before copying the array in: launches, not
# bytes, decide their time.
_WHOLE_FILL_MAX = 1 << 20


def _slice_at_axis(sl, axis):
    return (slice(None),) * axis + (sl,) + (...,)


def _view_roi(array, original_area_slice, axis):
    axis += 1
    sl = (slice(None),) * axis + original_area_slice[axis:]
    return array[sl]


def _pad_simple(array, pad_width, fill_value=None):
    new_shape = tuple(left + size + right
                      for size, (left, right) in zip(array.shape, pad_width))
    order = "F" if (array.flags.f_contiguous and not array.flags.c_contiguous) else "C"
    padded = _core.empty(new_shape, dtype=array.dtype, order=order)
    if fill_value is not None:
        padded[...] = fill_value
    original_area_slice = tuple(slice(left, left + size)
                                for size, (left, right) in zip(array.shape, pad_width))
    padded[original_area_slice] = array
    return padded, original_area_slice


def _set_pad_area(padded, axis, width_pair, value_pair):
    padded[_slice_at_axis(slice(None, width_pair[0]), axis)] = value_pair[0]
    padded[_slice_at_axis(slice(padded.shape[axis] - width_pair[1], None), axis)] = \
        value_pair[1]


def _get_edges(padded, axis, width_pair):
    left_index = width_pair[0]
    left_edge = padded[_slice_at_axis(slice(left_index, left_index + 1), axis)]
    right_index = padded.shape[axis] - width_pair[1]
    right_edge = padded[_slice_at_axis(slice(right_index - 1, right_index), axis)]
    return left_edge, right_edge


def _ramp(start, stop, num, dtype, axis):
    """numpy.linspace(start, stop, num, endpoint=False, dtype=dtype, axis=axis) for a host
    scalar ``start`` and a device array ``stop``, with linspace's arithmetic."""
    dt = _np.result_type(start, stop.dtype, 1.0)
    stop = stop.astype(dt, copy=False)
    delta = _ufuncs.subtract(stop, dt.type(start))
    y = _creation.arange(0, num, dtype=_np.float64).astype(dt)
    y = y.reshape((-1,) + (1,) * delta.ndim)
    if num == 0:
        y = y * delta
    else:
        step = delta / num
        if bool(_reductions.any(_ufuncs.equal(step, 0))):  # linspace's choice, read back
            y = (y / num) * delta
        else:
            y = y * step
    y = y + dt.type(start)
    if axis != 0:
        y = _shape_ops.moveaxis(y, 0, axis)
    if _np.dtype(dtype).kind in "iu":
        y = _ufuncs.floor(y)
    return y.astype(dtype, copy=False)


def _get_linear_ramps(padded, axis, width_pair, end_value_pair):
    edge_pair = _get_edges(padded, axis, width_pair)
    left_ramp, right_ramp = (
        _ramp(end_value, _shape_ops.squeeze(edge, axis), width, padded.dtype, axis)
        for end_value, edge, width in zip(end_value_pair, edge_pair, width_pair))
    right_ramp = right_ramp[_slice_at_axis(slice(None, None, -1), axis)]
    return left_ramp, right_ramp


def _round_if_needed(arr, dtype):
    if dtype.kind in "iu":
        return _ufuncs.rint(arr)
    return arr


def _get_stats(padded, axis, width_pair, length_pair, stat_func, is_extremum):
    left_index = width_pair[0]
    right_index = padded.shape[axis] - width_pair[1]
    max_length = right_index - left_index
    left_length, right_length = length_pair
    if left_length is None or max_length < left_length:
        left_length = max_length
    if right_length is None or max_length < right_length:
        right_length = max_length
    if (left_length == 0 or right_length == 0) and is_extremum:
        raise ValueError("stat_length of 0 yields no value for padding")
    left_chunk = padded[_slice_at_axis(slice(left_index, left_index + left_length), axis)]
    left_stat = _round_if_needed(stat_func(left_chunk, axis=axis, keepdims=True),
                                 padded.dtype)
    if left_length == right_length == max_length:
        return left_stat, left_stat
    right_chunk = padded[_slice_at_axis(slice(right_index - right_length, right_index), axis)]
    right_stat = _round_if_needed(stat_func(right_chunk, axis=axis, keepdims=True),
                                  padded.dtype)
    return left_stat, right_stat


def _set_reflect_both(padded, axis, width_pair, method, original_period, include_edge=False):
    left_pad, right_pad = width_pair
    old_length = padded.shape[axis] - right_pad - left_pad
    if include_edge:
        old_length = old_length // original_period * original_period
        edge_offset = 1
    else:
        old_length = ((old_length - 1) // (original_period - 1)
                      * (original_period - 1) + 1)
        edge_offset = 0
        old_length -= 1
    if left_pad > 0:
        chunk_length = min(old_length, left_pad)
        stop = left_pad - edge_offset
        start = stop + chunk_length
        left_chunk = padded[_slice_at_axis(slice(start, stop, -1), axis)]
        if method == "odd":
            edge = padded[_slice_at_axis(slice(left_pad, left_pad + 1), axis)]
            left_chunk = 2 * edge - left_chunk
        padded[_slice_at_axis(slice(left_pad - chunk_length, left_pad), axis)] = left_chunk
        left_pad -= chunk_length
    if right_pad > 0:
        chunk_length = min(old_length, right_pad)
        start = -right_pad + edge_offset - 2
        stop = start - chunk_length
        right_chunk = padded[_slice_at_axis(slice(start, stop, -1), axis)]
        if method == "odd":
            edge = padded[_slice_at_axis(slice(-right_pad - 1, -right_pad), axis)]
            right_chunk = 2 * edge - right_chunk
        start = padded.shape[axis] - right_pad
        padded[_slice_at_axis(slice(start, start + chunk_length), axis)] = right_chunk
        right_pad -= chunk_length
    return left_pad, right_pad


def _set_wrap_both(padded, axis, width_pair, original_period):
    left_pad, right_pad = width_pair
    period = padded.shape[axis] - right_pad - left_pad
    period = period // original_period * original_period
    new_left_pad = 0
    new_right_pad = 0
    if left_pad > 0:
        slice_end = left_pad + period
        slice_start = slice_end - min(period, left_pad)
        right_chunk = padded[_slice_at_axis(slice(slice_start, slice_end), axis)]
        if left_pad > period:
            pad_area = _slice_at_axis(slice(left_pad - period, left_pad), axis)
            new_left_pad = left_pad - period
        else:
            pad_area = _slice_at_axis(slice(None, left_pad), axis)
        padded[pad_area] = right_chunk
    if right_pad > 0:
        slice_start = -right_pad - period
        slice_end = slice_start + min(period, right_pad)
        left_chunk = padded[_slice_at_axis(slice(slice_start, slice_end), axis)]
        if right_pad > period:
            pad_area = _slice_at_axis(slice(-right_pad, -right_pad + period), axis)
            new_right_pad = right_pad - period
        else:
            pad_area = _slice_at_axis(slice(-right_pad, None), axis)
        padded[pad_area] = left_chunk
    return new_left_pad, new_right_pad


def _as_pairs(x, ndim, as_index=False):
    """NumPy's pad-argument normalisation: ``ndim`` (before, after) pairs of host values
    (device arrays are read back: they are pad widths or fill values)."""
    if x is None:
        return ((None, None),) * ndim
    if isinstance(x, _ndarray):
        x = _core.asnumpy(x)
    x = _np.array(x)
    if as_index:
        x = _np.round(x).astype(_np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("index can't contain negative values")
    return _np.broadcast_to(x, (ndim, 2)).tolist()


def _median(a, axis, keepdims):
    return _sorting.median(a, axis=axis, keepdims=keepdims)


_STAT_FUNCTIONS = {
    "maximum": (lambda a, axis, keepdims: _reductions.max(a, axis=axis, keepdims=keepdims),
                True),
    "minimum": (lambda a, axis, keepdims: _reductions.min(a, axis=axis, keepdims=keepdims),
                True),
    "mean": (lambda a, axis, keepdims: _reductions.mean(a, axis=axis, keepdims=keepdims),
             False),
    "median": (_median, False),
}


def pad(array: ArrayLike, pad_width, mode="constant", **kwargs) -> ndarray:
    """The array padded along each axis (numpy.pad).

    Parameters
    ----------
    array : array_like
        The array to pad.
    pad_width : int or sequence
        ``((before_1, after_1), ..., (before_N, after_N))``, or one pair / one int for
        every axis.
    mode : str, optional
        'constant' (``constant_values``), 'edge', 'linear_ramp' (``end_values``),
        'maximum', 'mean', 'median', 'minimum' (``stat_length``), 'reflect', 'symmetric'
        (``reflect_type`` 'even' or 'odd'), 'wrap', 'empty', or a function
        ``mode(vector, iaxis_pad_width, iaxis, kwargs)`` that fills the padding of each 1-d
        vector along each axis in place, as numpy.pad calls it (one call per vector, as
        NumPy's: for large arrays prefer a named mode).
    **kwargs
        The mode's keyword arguments, as numpy.pad's.

    Returns
    -------
    ndarray
        The padded array, of ``array``'s dtype.
    """
    array = _core.asarray(array)
    pad_width = _np.asarray(_core.asnumpy(pad_width) if isinstance(pad_width, _ndarray)
                            else pad_width)
    if not pad_width.dtype.kind == "i":
        raise TypeError("`pad_width` must be of integral type.")
    pad_width = _as_pairs(pad_width, array.ndim, as_index=True)
    pad_width = [(int(lo), int(hi)) for lo, hi in pad_width]
    if callable(mode):
        padded, _ = _pad_simple(array, pad_width, fill_value=0)
        for axis in range(padded.ndim):
            others = padded.shape[:axis] + padded.shape[axis + 1:]
            for ind in _np.ndindex(others):
                vector = padded[ind[:axis] + (slice(None),) + ind[axis:]]
                mode(vector, pad_width[axis], axis, kwargs)
        return padded
    try:
        unsupported_kwargs = set(kwargs) - set(_ALLOWED_KWARGS[mode])
    except (KeyError, TypeError):
        raise ValueError(f"mode '{mode}' is not supported") from None
    if unsupported_kwargs:
        raise ValueError("unsupported keyword arguments for mode "
                         f"'{mode}': {unsupported_kwargs}")
    # The one-pass kernel writes NumPy's C order; an F-ordered array keeps F order below.
    one_pass = array.ndim and not (array.flags.f_contiguous and not array.flags.c_contiguous)
    cv = kwargs.get("constant_values", 0)
    if mode == "constant" and array.ndim and not isinstance(cv, _ndarray) and _np.ndim(cv) == 0:
        # One value everywhere: the result in one pass. The value as _as_pairs gives it (a
        # NumPy scalar), assigned as the pad areas' assignments below would: out-of-range
        # integers wrap, as NumPy's do.
        value = _np.asarray(cv)[()]
        if one_pass:
            padded = _core._pad(array, pad_width, "constant", value)
            if padded is not None:
                return padded
        size = 1
        for n, (lo, hi) in zip(array.shape, pad_width):
            size *= n + lo + hi
        if size <= _WHOLE_FILL_MAX:
            # Fill, then copy the array in (two launches); large arrays fill only the pad
            # areas below, not the whole array before the copy overwrites it.
            return _pad_simple(array, pad_width, value)[0]
    if one_pass and mode in _INDEX_MODES and array.size and kwargs.get("reflect_type") != "odd":
        # Each result element is the source element its index maps to: one pass.
        padded = _core._pad(array, pad_width, mode)
        if padded is not None:
            return padded
    padded, original_area_slice = _pad_simple(array, pad_width)
    axes = range(padded.ndim)
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), padded.ndim)
        for axis, width_pair, value_pair in zip(axes, pad_width, values):
            roi = _view_roi(padded, original_area_slice, axis)
            _set_pad_area(roi, axis, width_pair, value_pair)
    elif mode == "empty":
        pass
    elif array.size == 0:
        for axis, width_pair in zip(axes, pad_width):
            if array.shape[axis] == 0 and any(width_pair):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
    elif mode == "edge":
        for axis, width_pair in zip(axes, pad_width):
            roi = _view_roi(padded, original_area_slice, axis)
            _set_pad_area(roi, axis, width_pair, _get_edges(roi, axis, width_pair))
    elif mode == "linear_ramp":
        end_values = _as_pairs(kwargs.get("end_values", 0), padded.ndim)
        for axis, width_pair, value_pair in zip(axes, pad_width, end_values):
            roi = _view_roi(padded, original_area_slice, axis)
            ramp_pair = _get_linear_ramps(roi, axis, width_pair, value_pair)
            _set_pad_area(roi, axis, width_pair, ramp_pair)
    elif mode in _STAT_FUNCTIONS:
        func, is_extremum = _STAT_FUNCTIONS[mode]
        length = _as_pairs(kwargs.get("stat_length"), padded.ndim, as_index=True)
        for axis, width_pair, length_pair in zip(axes, pad_width, length):
            roi = _view_roi(padded, original_area_slice, axis)
            stat_pair = _get_stats(roi, axis, width_pair, length_pair, func, is_extremum)
            _set_pad_area(roi, axis, width_pair, stat_pair)
    elif mode in ("reflect", "symmetric"):
        method = kwargs.get("reflect_type", "even")
        include_edge = mode == "symmetric"
        for axis, (left_index, right_index) in zip(axes, pad_width):
            if array.shape[axis] == 1 and (left_index > 0 or right_index > 0):
                edge_pair = _get_edges(padded, axis, (left_index, right_index))
                _set_pad_area(padded, axis, (left_index, right_index), edge_pair)
                continue
            roi = _view_roi(padded, original_area_slice, axis)
            while left_index > 0 or right_index > 0:
                left_index, right_index = _set_reflect_both(
                    roi, axis, (left_index, right_index), method, array.shape[axis],
                    include_edge)
    elif mode == "wrap":
        for axis, (left_index, right_index) in zip(axes, pad_width):
            roi = _view_roi(padded, original_area_slice, axis)
            original_period = padded.shape[axis] - right_index - left_index
            original_period = original_period - original_period % array.shape[axis]
            while left_index > 0 or right_index > 0:
                left_index, right_index = _set_wrap_both(
                    roi, axis, (left_index, right_index), original_period)
    return padded
