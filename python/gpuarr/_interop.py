"""Interop with other array libraries: ``from_dlpack`` (DLPack, both capsule kinds),
``get_array_module``, and NumPy's comparison helpers (``allclose``, ``isclose``,
``array_equal``, ``array_equiv``) which, as in CuPy, also take host operands (moved to the
device) so that ``np.allclose(d, h)`` runs on the GPU through ``__array_function__``.

The protocols themselves (``ndarray.__dlpack__``, ``__dlpack_device__``,
``__cuda_array_interface__`` and the zero-copy import in ``gpuarr.asarray``) live in C++:
cpp/bindings/interop_bind.cpp.
"""

from __future__ import annotations

import builtins as _builtins
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _array_api, _core, _reductions, _ufuncs
from gpuarr._core import ndarray as _ndarray
from gpuarr.cuda import Device as _Device

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["from_dlpack", "get_array_module", "allclose", "isclose", "array_equal",
           "array_equiv"]

_kDLCPU, _kDLCUDA, _kDLCUDAHost, _kDLCUDAManaged = 1, 2, 3, 13


def _device_id(device):
    """A device id from ``from_dlpack``'s ``device`` argument (None: no preference)."""
    if device is None:
        return None
    if isinstance(device, _builtins.bool):
        raise TypeError(f"invalid device {device!r}")
    if isinstance(device, int):
        return device
    if isinstance(device, tuple) and len(device) == 2:
        kind, ident = int(device[0]), int(device[1])
        if kind in (_kDLCUDA, _kDLCUDAManaged):
            return ident
        raise ValueError(f"gpuarr arrays live on CUDA devices; cannot create one on "
                         f"DLPack device {device!r}")
    if isinstance(device, str):
        if device in ("cuda", "gpu"):
            return _core.get_device()
        if device.startswith("cuda:"):
            return int(device[5:])
        raise ValueError(f"invalid device {device!r}")
    ident = getattr(device, "id", None)
    if isinstance(ident, int):
        return ident
    raise TypeError(f"invalid device {device!r}")


def _on_device(ident, fn):
    with _Device(ident):
        return fn()


def from_dlpack(x, /, *, device=None, copy=None) -> ndarray:
    """A gpuarr array sharing ``x``'s memory, through DLPack (the Array API's
    ``from_dlpack``).

    ``x`` is any object with ``__dlpack__`` (PyTorch, CuPy, JAX, NumPy, ...) or a DLPack
    capsule (``torch.utils.dlpack.to_dlpack(t)``; a capsule can be consumed once). CUDA
    memory is taken without a copy; the producer's pending work is ordered before gpuarr's
    current stream. Host memory (kDLCPU) raises ``BufferError`` unless ``copy=True`` or a
    ``device`` asks for a copy onto the GPU. ``copy=True`` always copies; ``copy=False``
    raises ``BufferError`` where a copy would be needed.
    """
    target = _device_id(device)
    if copy is not None and not isinstance(copy, (_builtins.bool, _np.bool_)):
        raise TypeError("copy must be True, False or None")
    if isinstance(x, _ndarray):
        a = x
    elif type(x).__name__ == "PyCapsule":
        a = _core._dlpack_import_capsule(x)
    else:
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"from_dlpack: a {type(x).__name__!r} object has no __dlpack__ "
                            f"method (and is not a DLPack capsule)")
        if hasattr(x, "__dlpack_device__"):
            kind, ident = (int(v) for v in x.__dlpack_device__())
        else:
            kind, ident = _kDLCUDA, _core.get_device()
        if kind in (_kDLCUDA, _kDLCUDAManaged):
            a = _core._dlpack_import_object(x, ident)
        elif kind in (_kDLCPU, _kDLCUDAHost):
            if copy is False:
                raise BufferError("from_dlpack: the data is in host memory; a gpuarr array "
                                  "needs a copy to the GPU, which copy=False forbids")
            if copy is None and target is None:
                raise BufferError("from_dlpack: the data is in host memory (kDLCPU) and "
                                  "gpuarr arrays live in GPU memory; pass copy=True (or a "
                                  "device) to copy it to the GPU")
            host = _np.from_dlpack(x)
            ident = _core.get_device() if target is None else target
            return _on_device(ident, lambda: _core.array(host))
        else:
            raise BufferError(f"from_dlpack: gpuarr cannot import data on DLPack device "
                              f"type {kind}")
    if target is not None and a.device.id != target:
        if copy is False:
            raise BufferError(f"from_dlpack: the data is on device {a.device.id}; "
                              f"copy=False cannot move it to device {target}")
        return _on_device(target, lambda: _core.array(a))
    if copy:
        return _on_device(a.device.id, lambda: a.copy())
    return a


def get_array_module(*args):
    """``gpuarr`` if any argument is a gpuarr array, else ``numpy`` (as CuPy's
    ``get_array_module``), for code that runs on both."""
    for a in args:
        if isinstance(a, _ndarray):
            return _array_api.namespace()
    return _np


# --- comparison helpers ------------------------------------------------------------------

def _operand(x):
    """Host arrays and sequences move to the device; scalars stay scalars (weak Python
    scalars keep NEP 50's promotion)."""
    if isinstance(x, _ndarray):
        return x
    if isinstance(x, (_builtins.bool, int, float, complex, _np.generic)):
        return x
    return _core.asarray(x)


def _ufunc(name):
    return _ufuncs._UFUNCS[name]


def isclose(a: ArrayLike, b: ArrayLike, rtol=1.e-5, atol=1.e-8,
            equal_nan: bool = False) -> ndarray:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (infinities equal when of the same
    sign; NaNs equal only with ``equal_nan``), NumPy's ``isclose``. Host operands are copied
    to the device; the result is a gpuarr bool array (0-d for scalar inputs)."""
    x, y, rtol, atol = (_operand(v) for v in (a, b, rtol, atol))
    # NumPy's isfinite check of host tolerances: a Python int beyond int64 (an object
    # array) is its TypeError.
    for tol in (atol, rtol):
        if not isinstance(tol, _ndarray):
            _np.isfinite(tol)
    if not isinstance(x, _ndarray) and not isinstance(y, _ndarray):
        x = _core.asarray(x)
    # As NumPy: y becomes inexact so that |y| and the tolerance cannot overflow integers.
    if isinstance(y, _ndarray):
        if y.dtype.kind not in "fc":
            y = y.astype(_np.result_type(y.dtype, 1.0))
    elif isinstance(y, _np.generic):
        if y.dtype.kind not in "fc":
            y = _np.result_type(y, 1.0).type(y)
    elif isinstance(y, int):
        y = float(y)
    absolute, less_equal, equal = _ufunc("absolute"), _ufunc("less_equal"), _ufunc("equal")
    # (A scalar y's finiteness is known on the host.)
    finite = _ufunc("isfinite")(y) if isinstance(y, _ndarray) else _builtins.bool(_np.isfinite(y))
    result = (less_equal(absolute(x - y), atol + rtol * absolute(y)) & finite) | equal(x, y)
    if equal_nan:
        isnan = _ufunc("isnan")
        result = result | (isnan(x) & isnan(y))
    return result


def allclose(a: ArrayLike, b: ArrayLike, rtol=1.e-5, atol=1.e-8,
             equal_nan: bool = False) -> ndarray:
    """Whether all elements are close (``isclose(...).all()``); a 0-d gpuarr bool array, as
    CuPy's, so that no host synchronization is forced (``bool()`` of it waits)."""
    return _reductions.all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _false():
    return _core.asarray(False)


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> ndarray:
    """True (a 0-d gpuarr bool) when both have the same shape and elements; NaNs compare
    equal with ``equal_nan``. Host operands are copied to the device."""
    try:
        a1, a2 = _core.asarray(_operand(a1)), _core.asarray(_operand(a2))
    except Exception:
        return _false()
    if a1.shape != a2.shape:
        return _false()
    eq = _ufunc("equal")(a1, a2)
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        isnan = _ufunc("isnan")
        eq = eq | (isnan(a1) & isnan(a2))
    return _reductions.all(eq)


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> ndarray:
    """True (a 0-d gpuarr bool) when the shapes broadcast together and all elements are
    equal. Host operands are copied to the device."""
    try:
        a1, a2 = _core.asarray(_operand(a1)), _core.asarray(_operand(a2))
    except Exception:
        return _false()
    try:
        _np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return _false()
    return _reductions.all(_ufunc("equal")(a1, a2))
