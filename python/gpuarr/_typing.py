"""The types that gpuarr's public signatures are annotated with. Modules import this under
``typing.TYPE_CHECKING`` only (their annotations are strings, never evaluated at run time), so
``import gpuarr`` does not import numpy.typing."""

from typing import Optional, Sequence, SupportsIndex, Tuple, Union

import numpy.typing as npt

from gpuarr._core import ndarray

__all__ = ["ArrayLike", "AxisLike", "DTypeLike", "ShapeLike", "ndarray"]

#: What the functions accept as an array: gpuarr arrays, and host data (NumPy arrays,
#: scalars, nested sequences) that they move to the device.
ArrayLike = Union[ndarray, npt.ArrayLike]
#: A dtype, or None for the function's default.
DTypeLike = Optional[npt.DTypeLike]
ShapeLike = Union[SupportsIndex, Sequence[SupportsIndex]]
AxisLike = Optional[Union[SupportsIndex, Tuple[SupportsIndex, ...]]]
