"""The Array API standard (2024.12) surface of gpuarr: the version, ``__array_namespace__``,
``__array_namespace_info__``, ``to_device`` and the standard's names that differ from NumPy's
only in spelling. The operations themselves are gpuarr's NumPy-compatible ones."""

import sys

import numpy as _np

from gpuarr import _core
from gpuarr.cuda import Device as _Device, Stream as _Stream, runtime as _runtime

__array_api_version__ = "2024.12"
_SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")


def _array_namespace(self, /, *, api_version=None):
    if api_version is not None and api_version not in _SUPPORTED_VERSIONS:
        raise ValueError(f"Unrecognized array API version: {api_version!r}")
    return namespace()


def namespace():
    """The ``gpuarr`` namespace (the package object, fully initialised by the time any
    array exists), for ``__array_namespace__`` and ``get_array_module``."""
    return sys.modules[__package__]


def _to_device(self, device, /, *, stream=None):
    """A copy on ``device`` (a gpuarr.cuda.Device, what ``ndarray.device`` returns, or an
    id); ``self`` when already there. ``stream`` (a gpuarr.cuda.Stream) orders the copy on
    that stream of the target device instead of its current one."""
    if isinstance(device, str):
        raise ValueError(f"Unsupported device: {device!r}. gpuarr arrays live on CUDA devices "
                         "(gpuarr.cuda.Device or an id); gpuarr.asnumpy copies to the host")
    target = _core._device_index(device)
    if target < 0 or target == self.device.id:
        return self
    with _Device(target):
        if stream is None:
            return _core.asarray(self, copy=True)
        if not isinstance(stream, _Stream):
            raise TypeError(f"stream must be a gpuarr.cuda.Stream or None, not {type(stream)}")
        with stream:
            return _core.asarray(self, copy=True)


def astype(x, dtype, /, *, copy=True, device=None):
    """The standard's ``astype`` function."""
    if dtype is None:  # NumPy's default dtype, as np.dtype(None) and np.astype say
        dtype = _np.float64
    if device is None:
        return x.astype(dtype, copy=copy)
    # One copy at most: the cast happens in the copy onto the device.
    return _core.asarray(x, dtype, device=device, copy=True if copy else None)


class _Info:
    """What ``__array_namespace_info__()`` returns."""

    __module__ = "gpuarr"

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self):
        return _Device()

    def devices(self):
        return [_Device(i) for i in range(_runtime.getDeviceCount())]

    def default_dtypes(self, *, device=None):
        return {"real floating": _np.dtype(_np.float64), "complex floating": _np.dtype(_np.complex128),
                "integral": _np.dtype(_np.int64), "indexing": _np.dtype(_np.int64)}

    _KINDS = {
        "bool": ["bool"],
        "signed integer": ["int8", "int16", "int32", "int64"],
        "unsigned integer": ["uint8", "uint16", "uint32", "uint64"],
        "real floating": ["float32", "float64"],
        "complex floating": ["complex64", "complex128"],
    }
    _KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
    _KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]

    def dtypes(self, *, device=None, kind=None):
        if kind is None:
            names = self._KINDS["bool"] + self._KINDS["numeric"]
        elif isinstance(kind, tuple):
            names = []
            for k in kind:
                names += [n for n in self.dtypes(kind=k) if n not in names]
        elif kind in self._KINDS:
            names = self._KINDS[kind]
        else:
            raise ValueError(f"unsupported kind: {kind!r}")
        return {n: _np.dtype(n) for n in names}


def __array_namespace_info__():
    return _Info()
