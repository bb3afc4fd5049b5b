"""gpuarr: NumPy-compatible arrays on CUDA GPUs.

Arrays live in device memory; operations are enqueued on the current CUDA stream and
only results that reach the host (``item()``, ``float()``, printing, ``asnumpy``) wait for
the device.
"""

from gpuarr import _core
from gpuarr._core import (
    ndarray,
    empty,
    zeros,
    ones,
    full,
    empty_like,
    zeros_like,
    ones_like,
    full_like,
    eye,
    array,
    asarray,
    ascontiguousarray,
    copy,
    asnumpy,
    get_default_memory_pool,
)
from gpuarr import _ndarray_methods  # noqa: F401  (adds Python-level methods to ndarray)
from gpuarr._creation import arange, linspace, identity, empty_pinned
from gpuarr import cuda
from gpuarr._shape_ops import *  # noqa: F401,F403  (shape and data-movement operations)

__version__ = "0.1.0"

# NumPy's scalar types and dtype helpers, so that ``gpuarr.float32`` works as in CuPy.
from numpy import (  # noqa: E402
    bool_,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    float32,
    float64,
    complex64,
    complex128,
    dtype,
    newaxis,
)

bool = bool_  # noqa: A001  (NumPy 2 spells it numpy.bool)

__all__ = [
    "ndarray", "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like",
    "full_like", "eye", "identity", "arange", "linspace", "array", "asarray",
    "ascontiguousarray", "copy", "asnumpy", "empty_pinned", "get_default_memory_pool", "cuda",
] + _shape_ops.__all__
