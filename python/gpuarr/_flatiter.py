"""numpy.flatiter for gpuarr arrays: ``a.flat`` reads and writes ``a`` as a 1-d array in C
order, whatever its layout.

Reads return new arrays (NumPy's flatiter copies too): an int gives a 0-d array, as indexing a
gpuarr array does. Writes go to ``a`` itself; as NumPy's, the value is repeated when it has
fewer elements than the selection (``put``'s rule, which does the non-trivial writes). An
index repeated in a write gets one of its values, which one is unspecified: the device scatter
writes in parallel, where NumPy's loop keeps the last. Index checks and iteration state are
host integers; the elements stay on the device."""

from __future__ import annotations

import operator

import numpy as _np

from gpuarr import _core, _creation

_VALID_INDICES = ("only integers, slices (`:`), ellipsis (`...`) and integer or boolean "
                  "arrays are valid indices")


_BOOLEAN_INDICES = ("boolean indices for iterators are not supported because of previous "
                    "behavior that was confusing (valid boolean indices are expected to work in "
                    "the future)")


class flatiter:
    """A flat iterator over an array in C order (numpy.flatiter), made by ``a.flat``.

    ``len(it)`` is ``a.size``; ``it[key]`` takes an int, a slice, ``...``, an integer array
    or a 1-d boolean array of ``a.size`` elements and returns a new array; ``it[key] = v``
    writes into ``a``, repeating ``v`` when it is shorter than the selection. Iteration yields
    0-d arrays; ``index`` and ``coords`` are the position of the next one; ``base`` is ``a``.
    """

    __slots__ = ("_base", "_index")

    def __init__(self, *args, **kwargs):
        raise TypeError("cannot create 'gpuarr.flatiter' instances")

    @classmethod
    def _of(cls, a):
        it = object.__new__(cls)
        it._base = a
        it._index = 0
        return it

    @property
    def base(self):
        """The array being iterated over."""
        return self._base

    @property
    def index(self):
        """The flat position of the next element."""
        return self._index

    @property
    def coords(self):
        """The N-d position of the next element (the first coordinate does not wrap)."""
        i = self._index
        out = []
        shape = self._base.shape
        for k in range(len(shape) - 1, 0, -1):
            d = shape[k]
            out.append(i % d if d else 0)
            i = i // d if d else 0
        if shape:
            out.append(i)
        return tuple(reversed(out))

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self._base.size:
            raise StopIteration
        v = self[self._index]
        self._index += 1
        return v

    def copy(self):
        """The elements as a new 1-d array (``a.flatten()``)."""
        return self._base.flatten()

    def __array__(self, *args, **kwargs):
        # gpuarr arrays refuse the implicit conversion to NumPy; so does their iterator.
        return self.copy().__array__(*args, **kwargs)

    def __reduce__(self):
        raise TypeError("cannot pickle 'flatiter' object")

    def __eq__(self, other):
        return self.copy() == _operand(other)

    def __ne__(self, other):
        return self.copy() != _operand(other)

    def __lt__(self, other):
        return self.copy() < _operand(other)

    def __le__(self, other):
        return self.copy() <= _operand(other)

    def __gt__(self, other):
        return self.copy() > _operand(other)

    def __ge__(self, other):
        return self.copy() >= _operand(other)

    __hash__ = None

    def _key(self, key):
        """('int', i in range) | ('slice', slice) | ('array', device index array)."""
        n = self._base.size
        if isinstance(key, tuple):
            if len(key) > 1:
                raise IndexError("too many indices for flat iterator: flat iterator is "
                                 f"1-dimensional, but {len(key)} were indexed")
            key = key[0] if key else Ellipsis
        if key is Ellipsis:
            return "slice", slice(None)
        if isinstance(key, slice):
            return "slice", key
        if isinstance(key, list):
            key = _np.asarray(key) if key else _np.zeros(0, _np.intp)
            if key.dtype == _np.bool_:
                raise IndexError(_BOOLEAN_INDICES)
        if isinstance(key, (bool, _np.bool_)):
            # (NumPy 2.4 still reads a NumPy bool, deprecated; gpuarr refuses it already.)
            raise IndexError(_BOOLEAN_INDICES)
        if isinstance(key, (_core.ndarray, _np.ndarray)):
            kind = key.dtype.kind
            if kind == "b":
                if key.ndim == 0:
                    raise IndexError(_BOOLEAN_INDICES)
                if key.ndim != 1:
                    raise IndexError("too many indices for flat iterator: flat iterator is "
                                     f"1-dimensional, but {key.ndim} were indexed")
                if key.shape[0] != n:
                    raise IndexError(
                        "boolean index did not match indexed flat iterator along axis 0; "
                        f"size of axis is {n} but size of corresponding boolean axis is "
                        f"{key.shape[0]}")
                return "array", _creation.arange(n)[_device(key)]
            if kind not in "iu":
                raise IndexError(_VALID_INDICES)
            if key.ndim == 0:
                key = int(key)
            else:
                if isinstance(key, _np.ndarray) and key.size:
                    # Host indices are checked here, with NumPy's message; device ones by
                    # the gather itself.
                    for i in (int(key.min()), int(key.max())):
                        if i < -n or i >= n:
                            raise IndexError(f"index {i} is out of bounds for size {n}")
                return "array", _device(key)
        if not hasattr(type(key), "__index__"):
            raise IndexError(_VALID_INDICES)
        i = operator.index(key)
        if i < -n or i >= n:
            raise IndexError(f"index {i} is out of bounds for size {n}")
        return "int", i + n if i < 0 else i

    def _position(self, i):
        # The N-d index of flat position i (C order).
        return _np.unravel_index(i, self._base.shape)

    def __getitem__(self, key):
        kind, k = self._key(key)
        if kind == "int":
            return self._base[self._position(k)].copy()
        a = self._base
        if a.flags.c_contiguous:
            r = a.reshape(-1)[k]
            return r.copy() if kind == "slice" else r
        return a.ravel()[k]

    def __setitem__(self, key, value):
        a = self._base
        if not _is_scalar(value) and not isinstance(key, (int, _np.integer)):
            size = value.size if isinstance(value, (_core.ndarray, _np.ndarray)) else \
                _np.size(value)
            if size == 0:
                return  # nothing to write: NumPy checks no index then
        kind, k = self._key(key)
        if kind == "int":
            if isinstance(value, (list, tuple)) or getattr(value, "ndim", 0) > 0 or (
                    isinstance(value, (complex, _np.complexfloating))
                    and a.dtype.kind != "c"):
                raise ValueError("Error setting single item of array.")
            self._base[self._position(k)] = value
            return
        if kind == "slice":
            if a.flags.c_contiguous and _is_scalar(value):
                a.reshape(-1)[k] = value
                return
            k = _creation.arange(*k.indices(a.size))
        a.put(k, value)


def _device(key):
    return key if isinstance(key, _core.ndarray) else _core.asarray(key)


def _operand(other):
    return other.copy() if isinstance(other, flatiter) else other


def _is_scalar(value):
    return isinstance(value, (bool, int, float, complex, _np.generic)) or \
        getattr(value, "ndim", None) == 0


def flat(a):
    """``a.flat``: the flat iterator over ``a``."""
    return flatiter._of(a)


def set_flat(a, value):
    """``a.flat = value``: every element of ``a`` from ``value``, repeated as needed."""
    flatiter._of(a)[...] = value
