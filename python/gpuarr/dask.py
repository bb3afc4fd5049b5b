"""gpuarr arrays as Dask array chunks (``dask.array`` on one or several GPUs).

Importing this module registers gpuarr with Dask through Dask's own mechanisms, the way
Dask registers CuPy (``dask/array/backends.py``); ``import gpuarr`` never imports Dask.
The module is imported for you when

- Dask's array backend is set to gpuarr
  (``dask.config.set({"array.backend": "gpuarr"})``: the ``dask.array.backends`` entry
  point ``gpuarr`` names :class:`GpuarrBackendEntrypoint`); ``da.ones``, ``da.zeros``,
  ``da.empty``, ``da.full``, ``da.arange`` and ``da.random`` then make gpuarr chunks;
- a Dask array is converted with ``x.to_backend("gpuarr")``.

Otherwise ``import gpuarr.dask`` once per process (on workers: in the task, or through a
worker plugin / ``--preload gpuarr.dask``) before mixing gpuarr arrays with Dask arrays.

What is registered:

- ``dask.array.register_chunk_type(gpuarr.ndarray)``: ``dask_array + gpuarr_array`` and
  NumPy functions on mixed operands give Dask arrays;
- the chunk lookups ``concatenate``, ``take``, ``tensordot``, ``einsum``, ``empty``,
  ``divide``, ``percentile``, ``numel`` and ``nannumel``. The element counts behind
  ``mean``/``std``/``var`` are gpuarr arrays (as CuPy's are CuPy arrays), so every operand
  of the reductions' combine steps lives on the device;
- ``dask.sizeof.sizeof``: an array's device bytes (``a.nbytes``), so that memory limits and
  spilling see gpuarr chunks;
- ``to_numpy_dispatch`` (gpuarr -> NumPy) and :data:`to_gpuarr_dispatch` (NumPy -> gpuarr,
  the dispatch behind ``x.to_backend("gpuarr")``);
- with ``distributed`` installed, the ``dask`` and ``cuda`` serializer families.

What each transport costs (one array of ``n`` bytes between two workers):

- ``dask`` family (TCP, the default comm): the sender copies device -> host (one host
  frame of ``n`` bytes, C order, with ``shape``/``dtype``/``strides`` in the header), the
  frame crosses the socket, and the receiver copies host -> device, allocating on its own
  current device. Two PCIe copies and one network transfer; no pickle of the array object.
- ``cuda`` family (UCX comms, e.g. dask-cuda's ``protocol="ucx"``): the frame is the array's
  device memory itself (a C-contiguous ``uint8`` view, copied once on the device only when
  the array is not contiguous), read through ``__cuda_array_interface__``. UCX moves it
  device to device (NVLink / GPUDirect where available): zero host copies. The receiver wraps
  the frame UCX allocated on its device as a gpuarr array without a further copy where
  gpuarr can adopt the buffer, and copies it once on the device otherwise.
- ``pickle`` is never used for gpuarr arrays once this module is imported.
"""

from __future__ import annotations

import importlib
import math

import numpy as _np

import dask.array as _da
from dask import config as _config
from dask.array.backends import ArrayBackendEntrypoint, array_creation_dispatch
from dask.array.chunk_types import _HANDLED_CHUNK_TYPES, register_chunk_type
from dask.array.core import Array as _DaskArray
from dask.utils import Dispatch

from gpuarr import _core, _indexing, _products, _reductions, _shape_ops, _sorting
from gpuarr import _ufuncs
from gpuarr import random as _random
from gpuarr._dask_registration import DISPATCH_TABLES
from gpuarr._core import ndarray

__all__ = ["GpuarrBackendEntrypoint", "to_gpuarr_dispatch", "register"]

# NumPy (and other host arrays) -> gpuarr chunks: the dispatch behind
# ``x.to_backend("gpuarr")``. Other libraries may register their chunk types with it.
to_gpuarr_dispatch = Dispatch("to_gpuarr")


@to_gpuarr_dispatch.register(_np.ndarray)
def _numpy_to_gpuarr(data, **kwargs):
    return _core.asarray(data, **kwargs)


@to_gpuarr_dispatch.register(ndarray)
def _gpuarr_to_gpuarr(data, **kwargs):
    return data


def _gpuarr_to_numpy(data, **kwargs):
    return _core.asnumpy(data, **kwargs)


def _concatenate(arrays, axis=0):
    return _shape_ops.concatenate(arrays, axis=axis)


def _einsum(*args, **kwargs):
    # Dask passes NumPy's `casting`/`order` through; gpuarr's einsum computes in the
    # result type (as CuPy's, whose registration drops them the same way).
    kwargs.pop("casting", None)
    kwargs.pop("order", None)
    return _products.einsum(*args, **kwargs)


def _divide(a, b, dtype=None):
    if dtype is None:
        return _ufuncs.divide(a, b)
    return _ufuncs.divide(a, b, dtype=dtype)


def _percentile(a, q, method="linear"):
    # dask.array.percentile's chunk step: the chunk's percentiles and its length.
    n = len(a)
    if not n:
        return None, n
    if not _np.issubdtype(a.dtype, _np.number):
        method = "nearest"
    # Dask may hand the percentages over as a gpuarr array: they are a few host numbers.
    q = _core.asnumpy(q) if isinstance(q, ndarray) else _np.asarray(q)
    return _sorting.percentile(a, q, method=method), n


def _numel(x, **kwargs):
    """The element count of a reduction over ``axis`` as a gpuarr array (Dask's numel)."""
    shape = x.shape
    axis = kwargs.get("axis")
    dtype = kwargs.get("dtype", _np.float64)
    n, axes = _reductions._reduced_count(shape, axis)
    if axis is None and not kwargs.get("keepdims", False):
        return _np.asarray(n, dtype=dtype)[()]
    if kwargs.get("keepdims", False):
        new_shape = tuple(1 if d in axes else s for d, s in enumerate(shape))
    else:
        new_shape = tuple(s for d, s in enumerate(shape) if d not in axes)
    return _core.full(new_shape, n, dtype=dtype)


_take = _indexing.take
_tensordot = _products.tensordot
_empty = _core.empty


def _nannumel(x, **kwargs):
    """The count of non-NaN elements of a reduction over ``axis`` (Dask's nannumel)."""
    return _reductions.sum(_ufuncs.logical_not(_ufuncs.isnan(x)), **kwargs)


def _sizeof_gpuarr(a):
    return int(a.nbytes)


# --- distributed serialization ---------------------------------------------------------

def _host_serialize(a):
    host = _np.asarray(_core.asnumpy(a), order="C")  # ascontiguousarray would make 0-d 1-d
    header = {"shape": host.shape, "dtype": host.dtype.str, "strides": host.strides}
    return header, [memoryview(host).cast("B") if host.size else b""]


def _host_deserialize(header, frames):
    dtype = _np.dtype(header["dtype"])
    shape = tuple(header["shape"])
    host = _np.frombuffer(frames[0], dtype=dtype, count=math.prod(shape)).reshape(shape)
    return _core.asarray(host)


def _device_serialize(a):
    c = a if a.flags.c_contiguous else _core.ascontiguousarray(a)
    header = {"shape": tuple(c.shape), "dtype": c.dtype.str, "strides": tuple(c.strides),
              "lengths": [c.nbytes]}
    flat = _shape_ops.reshape(c, (c.size,))  # 1-D first: a 0-d array cannot change itemsize
    frame = flat.view(_np.uint8) if c.nbytes else flat
    return header, [frame]


def _device_deserialize(header, frames):
    dtype = _np.dtype(header["dtype"])
    shape = tuple(header["shape"])
    frame = frames[0]
    if isinstance(frame, ndarray):
        flat = frame
    elif hasattr(frame, "__cuda_array_interface__"):
        flat = _core.asarray(frame)
    else:  # a host frame (a comm without device support)
        return _host_deserialize(header, frames)
    return _shape_ops.reshape(flat.view(dtype), shape) if math.prod(shape) else \
        _core.empty(shape, dtype=dtype)


def register():
    """Registers gpuarr with Dask (idempotent; importing ``gpuarr.dask`` calls it).

    Returns
    -------
    bool
        Whether ``distributed``'s serializers were registered too (False when
        ``distributed`` is not installed).
    """
    if ndarray not in _HANDLED_CHUNK_TYPES:
        register_chunk_type(ndarray)
    with_distributed = True
    for module_name, table_name, implementation in DISPATCH_TABLES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # distributed is optional
            with_distributed = False
            continue
        getattr(module, table_name).register(ndarray, globals()[implementation])
    return with_distributed


# --- the array backend -----------------------------------------------------------------

def _meta(dtype=None):
    return _core.empty((), dtype=_np.float64 if dtype is None else dtype)


def _with_gpuarr_meta(name, *args, meta=None, **kwargs):
    # Dask's own creation functions, building the chunks from a gpuarr meta array (NumPy's
    # *_like functions dispatch to gpuarr through __array_function__).
    meta = _meta(kwargs.get("dtype")) if meta is None else meta
    with _config.set({"array.backend": "numpy"}):
        return getattr(_da, name)(*args, meta=meta, **kwargs)


class GpuarrBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's array backend ``"gpuarr"``: creation functions and random numbers on the GPU.

    Selected with ``dask.config.set({"array.backend": "gpuarr"})``; found through the
    ``dask.array.backends`` entry point of gpuarr's package metadata.
    """

    def __init__(self):
        register()

    @classmethod
    def to_backend_dispatch(cls):
        """The dispatch that converts one chunk to gpuarr.

        Returns
        -------
        dask.utils.Dispatch
            :data:`to_gpuarr_dispatch`.
        """
        return to_gpuarr_dispatch

    @classmethod
    def to_backend(cls, data: _DaskArray, **kwargs):
        """A Dask array with gpuarr chunks (``data`` itself when its chunks are gpuarr's).

        Parameters
        ----------
        data : dask.array.Array
            The array to convert.
        **kwargs
            Passed to :data:`to_gpuarr_dispatch` for each chunk.

        Returns
        -------
        dask.array.Array
        """
        if isinstance(data._meta, ndarray):
            return data
        meta = _core.empty((0,) * data.ndim, dtype=data.dtype)
        return data.map_blocks(cls.to_backend_dispatch(), meta=meta, **kwargs)

    @property
    def RandomState(self):
        """gpuarr's legacy ``RandomState`` (seeded by Dask per chunk)."""
        return _random.RandomState

    @property
    def default_bit_generator(self):
        """gpuarr's ``Generator`` (Dask spawns one per chunk from its ``SeedSequence``)."""
        return _random.Generator

    @staticmethod
    def ones(*args, **kwargs):
        """``dask.array.ones`` with gpuarr chunks."""
        return _with_gpuarr_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        """``dask.array.zeros`` with gpuarr chunks."""
        return _with_gpuarr_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        """``dask.array.empty`` with gpuarr chunks."""
        return _with_gpuarr_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        """``dask.array.full`` with gpuarr chunks."""
        return _with_gpuarr_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        """``dask.array.arange`` with gpuarr chunks."""
        like = _meta() if like is None else like
        with _config.set({"array.backend": "numpy"}):
            return _da.arange(*args, like=like, **kwargs)


register()
# The entry point finds the backend in an installed gpuarr; this finds it in a source tree too.
if "gpuarr" not in array_creation_dispatch._lookup:
    array_creation_dispatch.register_backend("gpuarr", GpuarrBackendEntrypoint())
