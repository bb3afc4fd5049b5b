"""The one seam through which host tests stand NumPy in for the device.

gpuarr's Python layers (fft, signal, convolve, random, linalg, ...) reach the device through
the modules that define its operations: the extension ``gpuarr._core`` (kernels, array
creation, ``ndarray``) and the Python modules below them (``_ufuncs``, ``_shape_ops``,
``_indexing``, ...), always as module attributes (``_core.zeros``, ``_ufuncs.multiply``).
``install`` replaces a name in every such module that defines it, for one test (pytest's
monkeypatch undoes it), so that the Python layer runs its argument handling, dtype rules and
plans against NumPy on a machine without a GPU."""

import types

from gpuarr import (
    _core,
    _creation,
    _indexing,
    _products,
    _reductions,
    _shape_ops,
    _sorting,
    _ufuncs,
)

OPERATION_MODULES = (_core, _creation, _ufuncs, _shape_ops, _indexing, _sorting, _reductions,
                     _products)


def defined_names():
    """Every name an operation module defines (modules they import excluded)."""
    return {n for m in OPERATION_MODULES for n, v in vars(m).items()
            if not isinstance(v, types.ModuleType)}


def install(monkeypatch, replacements):
    """Replaces each name of ``replacements`` (a mapping) in the operation modules that
    define it; a name that none defines is an error (a stand-in for nothing)."""
    for name, value in replacements.items():
        homes = [m for m in OPERATION_MODULES if name in vars(m)]
        if not homes:
            raise AttributeError(f"no gpuarr operation module defines {name!r}")
        for m in homes:
            monkeypatch.setattr(m, name, value)
