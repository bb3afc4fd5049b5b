"""Packing boolean values into the bits of uint8 and back (numpy.packbits,
numpy.unpackbits): elementwise shifts, masks and a sum over groups of eight, on the
device."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _reductions, _shape_ops, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["packbits", "unpackbits"]

_BIG = _np.array([7, 6, 5, 4, 3, 2, 1, 0], dtype=_np.uint8)
_LITTLE = _np.array([0, 1, 2, 3, 4, 5, 6, 7], dtype=_np.uint8)


def _as(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _order_string(bitorder, fn, position):
    if not isinstance(bitorder, str):
        raise TypeError(f"{fn}() argument {position} must be str, not "
                        f"{type(bitorder).__name__}")
    return bitorder


def _pack_shifts(bitorder):
    """packbits' rule (NumPy's io_pack): the string starts with 'little' or 'big'."""
    bitorder = _order_string(bitorder, "pack", 3)
    if bitorder.startswith("little"):
        return _LITTLE
    if bitorder.startswith("big"):
        return _BIG
    raise ValueError("'order' must be either 'little' or 'big'")


def _unpack_shifts(bitorder):
    """unpackbits' rule (NumPy's io_unpack): only the first character counts."""
    bitorder = _order_string(bitorder, "unpack", 4)
    if bitorder[:1] == "l":
        return _LITTLE
    if bitorder[:1] == "b":
        return _BIG
    raise ValueError("'order' must begin with 'l' or 'b'")


def _axis_last(a, axis):
    if axis is None:
        return a.reshape(-1), None
    axis = int(_np.lib.array_utils.normalize_axis_index(axis, a.ndim))
    return _shape_ops.moveaxis(a, axis, -1), axis


def packbits(a: ArrayLike, /, axis: int | None = None, bitorder: str = "big") -> ndarray:
    """The elements of a boolean or integer array packed into the bits of uint8 values
    (numpy.packbits).

    Parameters
    ----------
    a : array_like
        Integer or boolean array; non-zero elements give 1 bits.
    axis : int, optional
        The axis along which to pack (the flattened array when None); the axis is padded
        with zeros to a multiple of 8.
    bitorder : {'big', 'little'}, optional
        The bit order within each byte.

    Returns
    -------
    ndarray
        uint8 array, ``ceil(n / 8)`` long along the packed axis.
    """
    a = _as(a)
    shifts = _pack_shifts(bitorder)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    if a.ndim == 0:  # NumPy packs a 0-d array as a 1-d one
        a = a.reshape(1)
    moved, axis = _axis_last(a, axis)
    n = moved.shape[-1]
    groups = (n + 7) // 8
    bits = _ufuncs.not_equal(moved, 0).astype(_np.uint8)
    if groups * 8 != n:
        pad = _core.zeros(moved.shape[:-1] + (groups * 8 - n,), dtype=_np.uint8)
        bits = _shape_ops.concatenate((bits, pad), axis=-1)
    bits = bits.reshape(moved.shape[:-1] + (groups, 8))
    weights = _core.asarray(_np.left_shift(_np.uint8(1), shifts))
    packed = _reductions.sum(_ufuncs.multiply(bits, weights), axis=-1, dtype=_np.uint8)
    if axis is None:
        return packed
    return _shape_ops.moveaxis(packed, -1, axis)


def unpackbits(a: ArrayLike, /, axis: int | None = None, count: int | None = None,
               bitorder: str = "big") -> ndarray:
    """The bits of a uint8 array as an array of 0/1 uint8 values (numpy.unpackbits).

    Parameters
    ----------
    a : array_like
        uint8 array.
    axis : int, optional
        The axis along which to unpack (the flattened array when None).
    count : int, optional
        The number of bits to keep along the axis: more pads with zeros, a negative count
        drops bits from the end.
    bitorder : {'big', 'little'}, optional
        The bit order within each byte.

    Returns
    -------
    ndarray
        uint8 array of 0 and 1.
    """
    a = _as(a)
    shifts = _unpack_shifts(bitorder)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    if count is not None:
        count = operator.index(count)
    if a.ndim == 0:  # NumPy unpacks a 0-d array as a 1-d one
        a = a.reshape(1)
    moved, axis = _axis_last(a, axis)
    n = moved.shape[-1] * 8
    bits = _ufuncs.bitwise_and(
        _ufuncs.right_shift(moved.reshape(moved.shape + (1,)), _core.asarray(shifts)),
        _np.uint8(1))
    bits = bits.reshape(moved.shape[:-1] + (n,))
    if count is not None:
        if count < 0:
            if -count > n:
                raise ValueError("-count larger than number of elements")
            bits = bits[..., :n + count]
        elif count < n:
            bits = bits[..., :count]
        elif count > n:
            pad = _core.zeros(moved.shape[:-1] + (count - n,), dtype=_np.uint8)
            bits = _shape_ops.concatenate((bits, pad), axis=-1)
    if axis is None:
        return bits
    return _core.ascontiguousarray(_shape_ops.moveaxis(bits, -1, axis))
