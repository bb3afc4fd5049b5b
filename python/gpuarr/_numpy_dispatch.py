"""NumPy's dispatch protocols on ``gpuarr.ndarray``: ``__array_ufunc__`` (``np.sqrt(d)``,
``np.add(d, 1, out=d)``, ``np.add.reduce(d)``) and ``__array_function__``
(``np.concatenate``, ``np.sum``, ``np.allclose``, ``np.linalg.norm``, ...) run gpuarr's
implementation of the same name on the GPU and return gpuarr arrays. What gpuarr lacks
returns NotImplemented, so NumPy raises its TypeError naming the function; implicit
conversion to a host array stays refused (``__array__``).
"""

import sys

import numpy as _np

from gpuarr import _core, _dask_registration, _ufuncs  # noqa: F401  (lazy Dask entries)
from gpuarr._core import ndarray as _ndarray

# NumPy ufuncs whose gpuarr counterpart is a plain function (no ufunc methods).
_FUNCTION_UFUNCS = ("divmod", "matmul", "vecdot", "matvec", "vecmat")


def _gpuarr_ufunc(name):
    u = _ufuncs._UFUNCS.get(name)
    if u is not None:
        return u
    if name in _FUNCTION_UFUNCS:
        return getattr(_namespace("numpy"), name, None)
    return None


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    impl = _gpuarr_ufunc(ufunc.__name__)
    if impl is None or method in ("at", "reduceat"):
        return NotImplemented
    out = kwargs.get("out")
    if isinstance(out, tuple):
        # NumPy always passes `out` as a tuple; gpuarr's single-output ufuncs take the array.
        if len(out) == 1:
            kwargs["out"] = out[0]
        elif ufunc.__name__ != "divmod":
            return NotImplemented
    if method == "__call__":
        return impl(*inputs, **kwargs)
    fn = getattr(impl, method, None)
    if fn is None:
        return NotImplemented
    return fn(*inputs, **kwargs)


def _namespace(module_name):
    """gpuarr's public namespace for a NumPy module name ('numpy', 'numpy.linalg',
    'numpy.fft', 'numpy._core.multiarray', ...), or None when gpuarr has no such module.
    The namespaces are looked up, not imported: ``import gpuarr`` has imported all of them
    before any array exists to dispatch on."""
    if module_name is None or not module_name.startswith("numpy"):
        return None
    parts = [p for p in module_name.split(".")[1:] if not p.startswith("_")]
    return sys.modules.get("gpuarr" + "".join("." + p for p in parts))


def _lookup(func):
    ns = _namespace(getattr(func, "__module__", None))
    if ns is None:
        return None
    impl = getattr(ns, func.__name__, None)
    if impl is None or impl is func or not callable(impl) or isinstance(impl, type):
        return None
    return impl


def _array_function(self, func, types, args, kwargs):
    for t in types:
        if not (issubclass(t, _ndarray) or issubclass(t, _np.ndarray)):
            return NotImplemented
    impl = _lookup(func)
    if impl is None:
        return NotImplemented
    return impl(*args, **kwargs)


def _ufunc_override(name, args, kwargs):
    """NumPy's ``__array_ufunc__`` protocol for a gpuarr ufunc call that raised TypeError:
    the first operand of a foreign type that overrides ufuncs (a Dask array, ...) gets the
    call with NumPy's ufunc of the same name, so ``gpuarr.sin(dask_array)`` is a Dask array.
    None where no operand takes it (the call's TypeError stands). NumPy arrays and scalars
    are not foreign: gpuarr refuses host arrays as operands. The ufunc binding calls this
    only after a call failed, so successful calls pay nothing for it."""
    np_ufunc = getattr(_np, name, None)
    if not isinstance(np_ufunc, _np.ufunc):
        return None
    nin = np_ufunc.nin
    inputs = tuple(args[:nin])
    kwargs = dict(kwargs)
    out = tuple(args[nin:]) if len(args) > nin else kwargs.pop("out", ())
    if not isinstance(out, tuple):
        out = (out,)
    if out:
        kwargs["out"] = out
    seen = set()
    for x in inputs + out:
        t = type(x)
        if t in seen or issubclass(t, (_ndarray, _np.ndarray, _np.generic)):
            continue
        seen.add(t)
        override = getattr(t, "__array_ufunc__", None)
        if override is None:
            continue
        result = override(x, np_ufunc, "__call__", *inputs, **kwargs)
        if result is not NotImplemented:
            return result
    return None


_core._set_ufunc_override(_ufunc_override)
