"""Scalar types and type predicates. gpuarr's dtypes are NumPy's, so the scalar types
(concrete and abstract) are NumPy's own classes and ``issubdtype`` is NumPy's; the
predicates on arrays read the dtype and flags without touching device memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np
from numpy import (  # noqa: F401  (re-exported)
    False_,
    True_,
    byte,
    cdouble,
    complexfloating,
    csingle,
    double,
    floating,
    generic,
    half,
    inexact,
    int_,
    intc,
    integer,
    intp,
    issubdtype,
    long,
    longlong,
    number,
    short,
    signedinteger,
    single,
    ubyte,
    uint,
    uintc,
    uintp,
    ulong,
    ulonglong,
    unsignedinteger,
    ushort,
)

from gpuarr import _core

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike

_SCALAR_TYPES = [
    "False_", "True_", "byte", "cdouble", "csingle", "double", "half", "int_", "intc", "intp",
    "long", "longlong", "short", "single", "ubyte", "uint", "uintc", "uintp", "ulong",
    "ulonglong", "ushort",
]
_ABSTRACT_TYPES = [
    "complexfloating", "floating", "generic", "inexact", "integer", "number", "signedinteger",
    "unsignedinteger",
]


def _dtype_type(x):
    # NumPy's rule: the object's own dtype when it has one (a gpuarr array, a NumPy array or
    # scalar), else the dtype NumPy infers for it; neither reads device memory.
    try:
        return x.dtype.type
    except AttributeError:
        return _np.asarray(x).dtype.type


def iscomplexobj(x: object) -> bool:
    """True when ``x`` has a complex dtype, whatever its values (numpy.iscomplexobj).

    Parameters
    ----------
    x : object
        A gpuarr array, or anything NumPy reads as an array.

    Returns
    -------
    bool
        Whether the dtype of ``x`` is complex; no device data is read.
    """
    return issubclass(_dtype_type(x), _np.complexfloating)


def isrealobj(x: object) -> bool:
    """True when ``x`` does not have a complex dtype (numpy.isrealobj).

    Parameters
    ----------
    x : object
        A gpuarr array, or anything NumPy reads as an array.

    Returns
    -------
    bool
        ``not iscomplexobj(x)``.
    """
    return not iscomplexobj(x)


def isfortran(a: ArrayLike) -> bool:
    """True when ``a`` is Fortran-contiguous and not C-contiguous (numpy.isfortran).

    Parameters
    ----------
    a : ndarray
        A gpuarr array (or a NumPy array, read by NumPy).

    Returns
    -------
    bool
        ``a.flags.f_contiguous and not a.flags.c_contiguous``.
    """
    if not isinstance(a, _core.ndarray):
        return _np.isfortran(a)  # NumPy's result, and its error for non-arrays
    return bool(a.flags.f_contiguous and not a.flags.c_contiguous)


__all__ = _SCALAR_TYPES + _ABSTRACT_TYPES + ["iscomplexobj", "isfortran", "isrealobj",
                                            "issubdtype"]
