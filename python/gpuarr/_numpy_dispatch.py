"""NumPy's dispatch protocols on ``gpuarr.ndarray``: ``__array_ufunc__`` (``np.sqrt(d)``,
``np.add(d, 1, out=d)``, ``np.add.reduce(d)``) and ``__array_function__``
(``np.concatenate``, ``np.sum``, ``np.allclose``, ``np.linalg.norm``, ...) run gpuarr's
implementation of the same name on the GPU and return gpuarr arrays. What gpuarr lacks
returns NotImplemented, so NumPy raises its TypeError naming the function; implicit
conversion to a host array stays refused (``__array__``).
"""

import functools
import sys

import numpy as _np

from gpuarr import _core, _dask_registration, _ufuncs  # noqa: F401  (lazy Dask entries)
from gpuarr._deferring_wrappers import FACTORIES as _FACTORIES
from gpuarr._foreign_dispatch import _PLAIN_TYPES, _call_deferring, _is_foreign, _plain_container
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
    # Called from NumPy's own dispatch: every argument is gpuarr's or NumPy's.
    return getattr(impl, "_gpuarr_implementation", impl)


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
        if t in seen or not _is_foreign(t, "__array_ufunc__"):
            continue
        seen.add(t)
        result = t.__array_ufunc__(x, np_ufunc, "__call__", *inputs, **kwargs)
        if result is not NotImplemented:
            return result
    return None


_core._set_ufunc_override(_ufunc_override)


# --- __array_function__ deferral of gpuarr's own functions -------------------------------


def _generic_deferring(impl, np_func):
    def call(*args, **kwargs):
        for x in (*args, *kwargs.values()):
            t = type(x)
            if t not in _PLAIN_TYPES and not _plain_container(x):
                return _call_deferring(impl, np_func, args, kwargs)
        return impl(*args, **kwargs)
    return call


def _code_shape(impl):
    # The parameters the generated wrapper was written for (tools/generate_deferring.py).
    c = impl.__code__
    n = c.co_argcount + c.co_kwonlyargcount + bool(c.co_flags & 4) + bool(c.co_flags & 8)
    return (c.co_argcount, c.co_posonlyargcount, c.co_kwonlyargcount, c.co_flags & 12,
            c.co_varnames[:n], len(impl.__defaults__ or ()),
            tuple(sorted(impl.__kwdefaults__ or ())))


def _deferring(impl, np_func):
    """``impl`` that hands the call to a foreign argument's ``__array_function__`` with
    NumPy's function of the same name, as NumPy's own functions do: ``gpuarr.sum(dask_array)``
    is a Dask array. The wrapper, generated ahead of time (``_deferring_wrappers``), has
    ``impl``'s own parameters, so a call whose arguments are all plain (gpuarr arrays, Python
    scalars, shapes, lists of arrays) costs one type check per argument and one call; a
    function without a generated wrapper gets a generic one (``*args, **kwargs``)."""
    key = f"{getattr(impl, '__module__', '')}.{getattr(impl, '__qualname__', '')}"
    entry = _FACTORIES.get(key)
    if entry is not None and hasattr(impl, "__code__") and entry[1] == _code_shape(impl):
        call = entry[0](impl, np_func)
    else:
        call = _generic_deferring(impl, np_func)
    functools.update_wrapper(call, impl)
    call._gpuarr_implementation = impl
    return call


# One deferring function per implementation, so that aliases (amax and max) stay one
# object; it hands foreign arguments the NumPy function of the first name it was made for.
_DEFERRING = {}


def defer_to_foreign_arrays(namespace, names, numpy_module):
    """Makes each function ``namespace[name]`` whose NumPy counterpart in ``numpy_module``
    takes part in ``__array_function__`` defer to foreign arguments (:func:`_deferring`).
    Ufuncs defer through the ufunc binding's override; classes and modules are left."""
    for name in names:
        impl = namespace.get(name)
        np_func = getattr(numpy_module, name, None)
        if (impl is None or isinstance(impl, (type, _core.ufunc)) or not callable(impl)
                or hasattr(impl, "_gpuarr_implementation")
                or not hasattr(np_func, "_implementation")):
            continue
        if impl not in _DEFERRING:
            _DEFERRING[impl] = _deferring(impl, np_func)
        namespace[name] = _DEFERRING[impl]
