"""The parts of ``gpuarr.ndarray`` that are NumPy's own behaviour applied to a host copy:
printing, formatting and conversion to Python scalars. Each costs one small device-to-host
copy (one element for scalars), so NumPy's rules and messages apply exactly."""

import numpy as _np

from gpuarr._core import ndarray as _ndarray
from gpuarr import _core


def _repr(self):
    return repr(self.get())


def _str(self):
    return str(self.get())


def _format(self, spec):
    # NumPy formats 0-d arrays as their item and refuses a spec for larger arrays.
    if self.ndim == 0:
        return format(self._host_scalar(), spec)
    return format(self.get(), spec)


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _reduce(self):
    # Through host memory, onto the current device when unpickled.
    return (_core.array, (self.get(),))


def _copy(self):
    # As NumPy's, the copy keeps the memory layout.
    return self.copy(order="K")


def _deepcopy(self, memo):
    return self.copy(order="K")


def _bool(self):
    return bool(self._host_scalar())


def _float(self):
    return float(self._host_scalar())


def _int(self):
    return int(self._host_scalar())


def _complex(self):
    return complex(self._host_scalar())


def _index(self):
    h = self._host_scalar()
    return h.__index__()


for _name, _fn in {
    "__repr__": _repr,
    "__str__": _str,
    "__format__": _format,
    "__iter__": _iter,
    "__reduce__": _reduce,
    "__copy__": _copy,
    "__deepcopy__": _deepcopy,
    "__bool__": _bool,
    "__float__": _float,
    "__int__": _int,
    "__complex__": _complex,
    "__index__": _index,
}.items():
    setattr(_ndarray, _name, _fn)

_ndarray.__module__ = "gpuarr"
# Keep NumPy from treating gpuarr arrays as sequences to iterate over element by element.
_ndarray.__array_priority__ = 100.0
