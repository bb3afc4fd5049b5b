"""NumPy's ``__array_function__`` protocol as gpuarr's own functions apply it to their
arguments: which argument types are plain (gpuarr arrays, Python scalars, shapes), which are
foreign (a Dask array: a type with its own ``__array_function__``), and handing a call to a
foreign argument with NumPy's function of the same name. The wrappers that use it are in
``_numpy_dispatch`` and the generated ``_deferring_wrappers``."""

import numpy as _np

from gpuarr._core import ndarray as _ndarray

# Argument types that never override NumPy functions; types met later join once checked.
# Lists and tuples are not in it: their elements may be arrays (concatenate's).
_PLAIN_TYPES = {_ndarray, int, float, complex, bool, str, bytes, type(None), type, slice,
                type(Ellipsis), _np.dtype}


def _is_foreign(t, protocol="__array_function__"):
    """Whether arguments of type ``t`` take NumPy's functions (``protocol``
    ``"__array_function__"``) or ufuncs (``"__array_ufunc__"``) through their own override
    (a Dask array, ...): not gpuarr's, NumPy's arrays or scalars."""
    if issubclass(t, (_ndarray, _np.ndarray, _np.generic)):
        return False
    return getattr(t, protocol, None) is not None


def _holds_arrays(seq):
    # A list or tuple whose first element is a number (a shape, axes, values) holds no
    # arrays for NumPy's dispatchers; any other is looked into.
    return bool(seq) and not isinstance(seq[0], (int, float, complex, _np.generic))


def _call_deferring(impl, np_func, args, kwargs):
    # An argument of a type not yet known plain: NumPy's __array_function__ protocol over the
    # arguments and one level into list and tuple arguments that hold arrays.
    relevant = []
    for x in (*args, *kwargs.values()):
        if isinstance(x, (list, tuple)):
            if _holds_arrays(x):
                relevant.extend(x)
        else:
            relevant.append(x)
    foreign, types = [], []
    for x in relevant:
        t = type(x)
        if t in _PLAIN_TYPES or t in types:
            continue
        if _is_foreign(t):
            foreign.append(x)
            types.append(t)
        elif issubclass(t, _ndarray):
            types.append(t)
        elif not issubclass(t, (list, tuple)):
            _PLAIN_TYPES.add(t)
    if not foreign:
        return impl(*args, **kwargs)
    if any(isinstance(x, _ndarray) for x in relevant) and _ndarray not in types:
        types.append(_ndarray)
    types = tuple(types)
    # Subclasses before their bases, as NumPy orders the overrides.
    foreign.sort(key=lambda x: sum(issubclass(u, type(x)) for u in types))
    for x in foreign:
        result = type(x).__array_function__(x, np_func, types, args, kwargs)
        if result is not NotImplemented:
            return result
    raise TypeError(
        f"no implementation found for '{np_func.__module__}.{np_func.__name__}' on types "
        f"that implement __array_function__: {list(types)}")


# Element types that mark a list or tuple as numbers (a shape, axes, values): no arrays in it.
_NUMBER_TYPES = {int, float, complex, bool}


def _plain_container(x):
    """Whether ``x`` is a list or tuple with nothing to defer to (the wrappers' fast path:
    one call, no further ones)."""
    t = type(x)
    if t is not tuple and t is not list:
        return False
    if not x:
        return True
    first = type(x[0])
    if first in _NUMBER_TYPES or issubclass(first, _np.generic):
        return True
    for y in x:
        if type(y) not in _PLAIN_TYPES:
            return False
    return True
