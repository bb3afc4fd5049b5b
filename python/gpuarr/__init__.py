"""gpuarr: NumPy-compatible arrays on CUDA GPUs.

Arrays live in device memory; operations are enqueued on the current CUDA stream and
only results that reach the host (``item()``, ``float()``, printing, ``asnumpy``) wait for
the device.
"""

import typing as _typing

import numpy as _numpy  # noqa: F401  (before the extension, which imports NumPy's modules)
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
from gpuarr import _ndarray_methods  # noqa: F401  (ndarray's Python-level methods)
from gpuarr import _numpy_dispatch
from gpuarr._creation import arange, linspace, identity, empty_pinned
from gpuarr._creation import logspace, geomspace, frombuffer, fromiter, fromstring, asanyarray, asarray_chkfinite  # noqa: E501
from gpuarr._sorting import *  # noqa: F401,F403  (sort, argsort, unique, searchsorted, histogram, median, ...)
from gpuarr._sorting import __all__ as _sorting_all
from gpuarr._reductions import *  # noqa: F401,F403  (sum, mean, argmax, cumsum, ...)
from gpuarr._reductions import __all__ as _reductions_all
from gpuarr import cuda
from gpuarr._array_api import __array_api_version__, __array_namespace_info__, astype  # noqa: E402,F401
from gpuarr import _ufuncs
from gpuarr._ufuncs import *  # noqa: F401,F403  (every ufunc: gpuarr.add, gpuarr.sqrt, ...)
from gpuarr._ufuncs import (  # noqa: F401
    ufunc, clip, around, round, fix, angle, real, imag, result_type, can_cast, promote_types,
    finfo, iinfo, isdtype,
)

if _typing.TYPE_CHECKING:
    # The ufuncs (gpuarr.add, gpuarr.sqrt, ...) are named from the extension's table when
    # _ufuncs is imported; type checkers see them through this.
    def __getattr__(name: str) -> ufunc: ...

from gpuarr._products import matmul, dot, vdot, inner, outer, tensordot, kron, cross, vecdot, matvec, vecmat, einsum  # noqa: E501
from gpuarr import linalg
from gpuarr import random  # noqa: E402  (gpuarr.random)
from gpuarr._indexing import take, put, nonzero, argwhere, flatnonzero, where, compress, extract, place, take_along_axis, put_along_axis  # noqa: E501
from gpuarr._shape_ops import *  # noqa: F401,F403  (shape and data-movement operations)
from gpuarr._shape_ops import __all__ as _shape_ops_all
from gpuarr._constants import *  # noqa: F401,F403  (nan, inf, pi, e, euler_gamma)
from gpuarr._constants import __all__ as _constants_all
from gpuarr._type_checks import *  # noqa: F401,F403  (scalar types, issubdtype, iscomplexobj, ...)
from gpuarr._type_checks import __all__ as _type_checks_all
from gpuarr._grid_creation import *  # noqa: F401,F403  (tri, vander, fromfunction)
from gpuarr._grid_creation import __all__ as _grid_creation_all
from gpuarr._index_tricks import *  # noqa: F401,F403  (ix_, r_, c_, mgrid, ogrid, tril_indices, ...)
from gpuarr._index_tricks import __all__ as _index_tricks_all
from gpuarr._window_functions import *  # noqa: F401,F403  (bartlett, blackman, hamming, hanning, kaiser)
from gpuarr._window_functions import __all__ as _window_functions_all
from gpuarr._text_io import *  # noqa: F401,F403  (loadtxt, genfromtxt, savetxt)
from gpuarr._text_io import __all__ as _text_io_all
from gpuarr._set_ops import *  # noqa: F401,F403  (isin, intersect1d, union1d, setdiff1d, setxor1d)
from gpuarr._function_base import *  # noqa: F401,F403  (diff, gradient, interp, digitize, select, ...)
from gpuarr._array_edit import *  # noqa: F401,F403  (append, delete, insert, resize, trim_zeros, ...)
from gpuarr._assignment import *  # noqa: F401,F403  (choose, copyto, putmask, fill_diagonal)
from gpuarr._value_checks import *  # noqa: F401,F403  (nan_to_num, real_if_close, isreal, iscomplex)
from gpuarr._statistics import *  # noqa: F401,F403  (cov, corrcoef, histogram2d, histogramdd)
from gpuarr._padding import pad  # noqa: F401
from gpuarr._bit_packing import packbits, unpackbits  # noqa: F401
from gpuarr import _set_ops, _function_base, _array_edit, _assignment, _value_checks, _statistics  # noqa: E501
from gpuarr._interop import from_dlpack, get_array_module, allclose, isclose, array_equal, array_equiv  # noqa: E501
from gpuarr._io import load, save, savez, savez_compressed, fromfile, NpzFile  # also ndarray.tofile
from gpuarr import fft  # noqa: E402  (cuFFT transforms)
from gpuarr import signal  # noqa: E402  (scipy.signal convolutions)
from gpuarr._convolve import convolve, correlate  # noqa: E402
from gpuarr._kernels import RawKernel, RawModule, ElementwiseKernel, ReductionKernel  # noqa: E402
from gpuarr._fusion import fuse  # noqa: E402
from gpuarr import profiler  # noqa: E402
from gpuarr._config import show_config, get_config  # noqa: E402
from gpuarr._flatiter import flatiter  # noqa: E402  (the type of ndarray.flat)
from gpuarr._array_utils import *  # noqa: F401,F403,E402  (block, shape, ...)
from gpuarr._printing import *  # noqa: F401,F403,E402  (array2string, set_printoptions, ...)
from gpuarr._polynomial import *  # noqa: F401,F403,E402  (poly1d, polyfit, polyval, roots, ...)
from gpuarr._histogram_bins import histogram_bin_edges  # noqa: E402
from gpuarr import _array_utils, _printing, _polynomial, emath  # noqa: E402
from numpy import exceptions  # noqa: E402,F401  (NumPy's warning and exception classes)

from gpuarr._version import __version__  # noqa: E402

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
    "logspace", "geomspace", "frombuffer", "fromiter", "fromstring", "asanyarray",
    "asarray_chkfinite",
    "ascontiguousarray", "copy", "asnumpy", "empty_pinned", "get_default_memory_pool", "cuda",
    "ufunc", "where", "clip", "around", "round", "fix", "angle", "real", "imag", "result_type",
    "can_cast", "promote_types", "finfo", "iinfo", "isdtype",
    "matmul", "dot", "vdot", "inner", "outer", "tensordot", "kron", "cross", "vecdot", "matvec",
    "vecmat", "einsum",
    "linalg", "random", "fft", "signal", "convolve", "correlate",
    "take", "put", "nonzero", "argwhere", "flatnonzero", "compress", "extract", "place",
    "take_along_axis", "put_along_axis",
    "from_dlpack", "get_array_module", "allclose", "isclose", "array_equal", "array_equiv",
    "load", "save", "savez", "savez_compressed", "fromfile",
    "RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel", "fuse", "profiler",
    "show_config", "get_config", "flatiter",
] + _ufuncs.ufunc_names + _sorting_all + _reductions_all + _shape_ops_all
__all__ += _constants_all + _type_checks_all + _grid_creation_all + _index_tricks_all
__all__ += _window_functions_all + _text_io_all
__all__ += (_array_utils.__all__ + _printing.__all__ + _polynomial.__all__
            + ["histogram_bin_edges", "emath", "exceptions"])
__all__ += (_set_ops.__all__ + _function_base.__all__ + _array_edit.__all__ + _assignment.__all__
            + _value_checks.__all__ + _statistics.__all__ + ["pad", "packbits", "unpackbits"])

# gpuarr.sum(dask_array) and the like hand the call to the foreign array, as NumPy does.
_numpy_dispatch.defer_to_foreign_arrays(globals(), __all__, _numpy)
