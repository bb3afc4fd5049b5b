"""File I/O in NumPy's formats: ``load``, ``save``, ``savez``, ``savez_compressed``,
``fromfile`` and ``ndarray.tofile``.

Files are NumPy's own (``.npy`` format 1.0/2.0/3.0, ``.npz`` zip archives), so NumPy reads
what gpuarr writes and the other way round. The header is parsed and written in C++
(``cpp/core/npy_header``); the data moves between the file object and device memory
through pinned staging buffers, reading the next chunk while the previous one is copied
(``cpp/bindings/npy_bind.cpp``).

Differences from NumPy, all because device arrays hold numbers only:
- big-endian files (``'>f8'``) load as native-order arrays with the same values;
- object arrays (pickled data) cannot go to the device: ValueError, even with
  ``allow_pickle=True``;
- ``mmap_mode`` is accepted and the data is read into device memory (as CuPy does).
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import pickle
import stat
import weakref
import zipfile
from collections.abc import Mapping
from typing import TYPE_CHECKING

try:
    import fcntl as _fcntl
except ImportError:  # not POSIX: always write through the file object
    _fcntl = None

import numpy as _np

from gpuarr import _core
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, DTypeLike, ndarray

__all__ = ["load", "save", "savez", "savez_compressed", "fromfile"]

_MAGIC_PREFIX = b"\x93NUMPY"
_ZIP_PREFIX = b"PK\x03\x04"
_ZIP_SUFFIX = b"PK\x05\x06"  # empty zip files start with this
_MAX_HEADER_SIZE = 10000
_MMAP_MODES = (None, "r", "r+", "c", "readonly", "readwrite", "copyonwrite")


def _file_name(file):
    if isinstance(file, (str, bytes, os.PathLike)):
        return os.fsdecode(file)
    name = getattr(file, "name", None)
    if isinstance(name, (str, bytes)):
        return os.fsdecode(name)
    return repr(file)


def _in_file(name, exc):
    """A ValueError naming the file, chained to the original error."""
    return ValueError(f"{name!r}: {exc}")


def _read_bytes(fid, n):
    """Up to ``n`` bytes (fewer only at the end of the file), as NumPy's _read_bytes."""
    data = b""
    while len(data) < n:
        r = fid.read(n - len(data))
        data += r
        if not r:
            break
    return data


def _readinto_of(fid):
    readinto = getattr(fid, "readinto", None)
    if readinto is not None:
        return readinto

    def readinto(mv):  # file-like objects with read() only
        data = fid.read(len(mv))
        mv[: len(data)] = data
        return len(data)

    return readinto


# File objects whose fileno() is the file they read and write (NumPy's isfileobj; a
# GzipFile's fileno() is the compressed file's, so it must go through read/write).
_REAL_FILE_TYPES = (io.FileIO, io.BufferedReader, io.BufferedWriter, io.BufferedRandom)


def _real_file_position(fid):
    """(fd, position) when ``fid`` is a regular file read through its descriptor, else
    None (zip members, BytesIO, compressed streams, pipes)."""
    if not isinstance(fid, _REAL_FILE_TYPES):
        return None
    try:
        fd = fid.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return fd, fid.tell()
    except (AttributeError, OSError, ValueError):
        return None


def _read_data(fid, shape, dtype, fortran_order=False, byteswap=False):
    """Reads the array's bytes from the file's position onto the device: regular files
    with parallel preads (then the position moves past the data), others by readinto."""
    real = _real_file_position(fid)
    if real is None:
        return _core._npy_read_array(_readinto_of(fid), shape, dtype, fortran_order, byteswap)
    fd, pos = real
    # A truncated (or corrupt-shape) file fails before any device memory is allocated.
    count = 1
    for n in shape:
        count *= n
    available = max(os.fstat(fd).st_size - pos, 0) // _np.dtype(dtype).itemsize
    if available < count:
        raise ValueError(
            "Failed to read all data for array. "
            f"Expected {tuple(shape)} = {count} elements, "
            f"could only read {available} elements. "
            "(file seems not fully written?)")
    out = _core._npy_read_array(None, shape, dtype, fortran_order, byteswap, fd, pos)
    fid.seek(pos + out.nbytes)
    return out


def _write_data(fid, arr, order):
    """Writes a device array's bytes in ``order`` at the file's position: regular files
    (not in append mode) with parallel pwrites, other file objects through write()."""
    try:
        if not isinstance(fid, _REAL_FILE_TYPES):
            raise ValueError
        fd = fid.fileno()
        ok = stat.S_ISREG(os.fstat(fd).st_mode)
        if ok and _fcntl is not None:
            ok = not (_fcntl.fcntl(fd, _fcntl.F_GETFL) & os.O_APPEND)
        if ok:
            fid.flush()
            pos = fid.tell()
    except (AttributeError, OSError, ValueError):
        ok = False
    if not ok:
        _core._npy_write_array(fid.write, arr, order)
        return
    if arr.nbytes <= _HOST_SAVE_MAX:
        # One D2H into a new NumPy array (gpuarr's fast transfer path), then NumPy's own
        # one-call write, as numpy.save does for real files: on the H100 machine this beat
        # the chunked pinned staging with parallel pwrites (1.02 GB/s for 1 GiB, CuPy's
        # asnumpy + np.save 1.86).
        h = _core.asnumpy(arr)
        if order == "F":
            _np.asfortranarray(h).T.tofile(fid)
        else:
            _np.ascontiguousarray(h).tofile(fid)
        return
    n = _core._npy_write_array(None, arr, order, fd, pos)
    fid.seek(pos + n)


# Arrays up to this size are saved through one host copy (see _write_data); larger ones
# through the pinned staging buffers.
_HOST_SAVE_MAX = 8 << 30


def _unsupported_descr(header, allow_pickle):
    descr_repr = header["descr_repr"]
    try:
        descr = ast.literal_eval(descr_repr)
        dtype = _np.lib.format.descr_to_dtype(descr)
    except (TypeError, ValueError, SyntaxError) as e:
        if header["is_object"]:
            dtype = _np.dtype(object)
        else:
            raise ValueError(f"descr is not a valid dtype descriptor: {descr_repr}") from e
    if header["is_object"] or dtype.hasobject:
        if not allow_pickle:
            raise ValueError("Object arrays cannot be loaded when allow_pickle=False")
        raise ValueError(
            "the file holds an object array (pickled Python objects); gpuarr arrays hold "
            "numbers only, so it cannot be loaded onto the device even with "
            "allow_pickle=True (use numpy.load to get it as a NumPy array)")
    raise ValueError(f"gpuarr does not support the dtype {dtype} stored in the file")


def _read_npy(fid, name, allow_pickle=False, max_header_size=_MAX_HEADER_SIZE):
    """Reads one .npy array from the file object's position onto the device."""
    try:
        major, _minor = _core._npy_parse_magic(_read_bytes(fid, 8))
        field = _read_bytes(fid, _core._npy_length_field_size(major))
        hlen = _core._npy_header_length(field, major)
        text = _read_bytes(fid, hlen)
        if len(text) < hlen:
            raise ValueError(f"EOF: reading array header, expected {hlen} bytes got {len(text)}")
        header = _core._npy_parse_header(text, major, -1 if allow_pickle else max_header_size)
        if header["dtype"] is None:
            _unsupported_descr(header, allow_pickle)
        return _read_data(fid, header["shape"], header["dtype"], header["fortran_order"],
                          header["byteswap"])
    except ValueError as e:
        raise _in_file(name, e) from e


def _check_mmap_mode(mmap_mode):
    if mmap_mode not in _MMAP_MODES:
        raise ValueError(
            "mode must be one of ['r', 'c', 'r+', 'w+', 'readonly', 'copyonwrite', "
            "'readwrite', 'write']")


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=_MAX_HEADER_SIZE):
    """Loads arrays from ``.npy`` / ``.npz`` files onto the current device.

    A ``.npy`` file gives a ``gpuarr.ndarray`` (Fortran-ordered when the file is); a
    ``.npz`` file gives an ``NpzFile``, a lazy dict-like of device arrays to use as a
    context manager. ``mmap_mode`` is accepted and the data is read through to the device.
    Pickled files load only with ``allow_pickle=True``; NumPy arrays in them are moved to
    the device, other objects are returned as they are.
    """
    if encoding not in ("ASCII", "latin1", "bytes"):
        raise ValueError("encoding must be 'ASCII', 'latin1', or 'bytes'")
    _check_mmap_mode(mmap_mode)
    pickle_kwargs = {"encoding": encoding, "fix_imports": fix_imports}
    name = _file_name(file)
    with contextlib.ExitStack() as stack:
        if hasattr(file, "read"):
            fid = file
            own_fid = False
        else:
            fid = stack.enter_context(open(os.fspath(file), "rb"))
            own_fid = True
        n = len(_MAGIC_PREFIX)
        magic = fid.read(n)
        if not magic:
            raise EOFError("No data left in file")
        fid.seek(-min(n, len(magic)), 1)
        if magic.startswith((_ZIP_PREFIX, _ZIP_SUFFIX)):
            stack.pop_all()  # the NpzFile owns the file now
            return NpzFile(fid, own_fid=own_fid, allow_pickle=allow_pickle,
                           pickle_kwargs=pickle_kwargs, max_header_size=max_header_size)
        if magic == _MAGIC_PREFIX:
            return _read_npy(fid, name, allow_pickle, max_header_size)
        if not allow_pickle:
            raise _in_file(name, ValueError(
                "This file contains pickled (object) data. If you trust "
                "the file you can load it unsafely using the "
                "`allow_pickle=` keyword argument or `pickle.load()`."))
        try:
            obj = pickle.load(fid, **pickle_kwargs)
        except Exception as e:
            raise pickle.UnpicklingError(f"Failed to interpret file {file!r} as a pickle") from e
        if isinstance(obj, _np.ndarray):
            if obj.dtype.hasobject:
                raise _in_file(name, ValueError(
                    "the pickle holds an object array; gpuarr arrays hold numbers only, so "
                    "it cannot be loaded onto the device (use numpy.load)"))
            return _core.array(obj)
        return obj


class _BagObj:
    """``npz.f.name`` attribute access to the arrays of an NpzFile (NumPy's BagObj)."""

    def __init__(self, obj):
        self._obj = weakref.proxy(obj)

    def __getattribute__(self, key):
        try:
            return object.__getattribute__(self, "_obj")[key]
        except KeyError:
            raise AttributeError(key) from None

    def __dir__(self):
        return list(object.__getattribute__(self, "_obj").keys())


class NpzFile(Mapping):
    """A ``.npz`` archive opened by :func:`load`: ``npz[name]`` reads one array onto the
    device (lazily, each access reads again, as NumPy's NpzFile). Close it, or use it in a
    ``with`` block."""

    zip = None
    fid = None
    _MAX_REPR_ARRAY_COUNT = 5

    def __init__(self, fid, own_fid=False, allow_pickle=False, pickle_kwargs=None, *,
                 max_header_size=_MAX_HEADER_SIZE):
        try:
            _zip = zipfile.ZipFile(fid, allowZip64=True)
        except zipfile.BadZipFile as e:
            if own_fid:
                fid.close()
            raise _in_file(_file_name(fid), ValueError(f"not a valid .npz archive: {e}")) from e
        _files = _zip.namelist()
        self.files = [n.removesuffix(".npy") for n in _files]
        self._files = dict(zip(self.files, _files))
        self._files.update(zip(_files, _files))
        self.allow_pickle = allow_pickle
        self.max_header_size = max_header_size
        self.pickle_kwargs = pickle_kwargs
        self.zip = _zip
        self._name = _file_name(fid)
        self.f = _BagObj(self)
        if own_fid:
            self.fid = fid

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def close(self):
        if self.zip is not None:
            self.zip.close()
            self.zip = None
        if self.fid is not None:
            self.fid.close()
            self.fid = None
        self.f = None  # break the reference cycle

    def __del__(self):
        self.close()

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __contains__(self, key):
        return key in self._files

    def __getitem__(self, key):
        try:
            member = self._files[key]
        except KeyError:
            raise KeyError(f"{key} is not a file in the archive") from None
        if self.zip is None:
            raise ValueError("I/O operation on a closed NpzFile")
        try:
            with self.zip.open(member) as f:
                magic = f.read(len(_MAGIC_PREFIX))
                f.seek(0)
                if magic == _MAGIC_PREFIX:
                    return _read_npy(f, f"{self._name}[{member}]", self.allow_pickle,
                                     self.max_header_size)
                return f.read()
        except (zipfile.BadZipFile, EOFError) as e:
            raise _in_file(f"{self._name}[{member}]", e) from e

    def __repr__(self):
        names = ", ".join(self.files[: self._MAX_REPR_ARRAY_COUNT])
        if len(self.files) > self._MAX_REPR_ARRAY_COUNT:
            names += "..."
        return f"NpzFile {self._name!r} with keys: {names}"

    def get(self, key, default=None, /):
        return Mapping.get(self, key, default)

    def items(self):
        return Mapping.items(self)

    def keys(self):
        return Mapping.keys(self)

    def values(self):
        return Mapping.values(self)


def _write_npy(fid, arr, allow_pickle=True, pickle_kwargs=None):
    if isinstance(arr, _ndarray):
        flags = arr.flags
        fortran = bool(flags.f_contiguous and not flags.c_contiguous)
        fid.write(_core._npy_format_header(arr.dtype, fortran, arr.shape))
        _write_data(fid, arr, "F" if fortran else "C")
    else:
        _np.lib.format.write_array(fid, _np.asanyarray(arr), allow_pickle=allow_pickle,
                                   pickle_kwargs=pickle_kwargs)


def save(file, arr: ArrayLike, allow_pickle=True, fix_imports=None) -> None:
    """Saves an array to a ``.npy`` file that NumPy reads (``.npy`` is appended to a file
    name without it). Fortran-contiguous arrays are written in Fortran order, as NumPy
    does; other non-contiguous arrays in C order."""
    if hasattr(file, "write"):
        ctx = contextlib.nullcontext(file)
    else:
        file = os.fspath(file)
        if not file.endswith(".npy"):
            file = file + ".npy"
        ctx = open(file, "wb")
    with ctx as fid:
        _write_npy(fid, arr, allow_pickle)


def _savez(file, args, kwds, compress, allow_pickle=True):
    if not hasattr(file, "write"):
        file = os.fspath(file)
        if not file.endswith(".npz"):
            file = file + ".npz"
    namedict = kwds
    for i, val in enumerate(args):
        key = "arr_%d" % i
        if key in namedict.keys():
            raise ValueError(f"Cannot use un-named variables and keyword {key}")
        namedict[key] = val
    compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    zipf = zipfile.ZipFile(file, mode="w", compression=compression, allowZip64=True)
    try:
        for key, val in namedict.items():
            # always force zip64, as NumPy (gh-10776)
            with zipf.open(key + ".npy", "w", force_zip64=True) as fid:
                _write_npy(fid, val, allow_pickle)
    finally:
        zipf.close()


def savez(file, *args, allow_pickle=True, **kwds) -> None:
    """Saves several arrays into one uncompressed ``.npz`` archive (NumPy's format)."""
    _savez(file, args, kwds, False, allow_pickle)


def savez_compressed(file, *args, allow_pickle=True, **kwds) -> None:
    """Saves several arrays into one ``.npz`` archive compressed with ZIP_DEFLATED."""
    _savez(file, args, kwds, True, allow_pickle)


def _remaining_bytes(fid):
    try:
        return os.fstat(fid.fileno()).st_size - fid.tell()
    except (AttributeError, OSError, ValueError):
        pos = fid.tell()
        end = fid.seek(0, 2)
        fid.seek(pos)
        return end - pos


def fromfile(file, dtype: DTypeLike = float, count=-1, sep="", offset=0, *, like=None) -> ndarray:
    """A 1-d device array from a binary file (``sep=''``) or a text file (``sep``
    separating the items, parsed by NumPy), as ``numpy.fromfile``."""
    if like is not None:
        raise TypeError("gpuarr.fromfile does not support the 'like' argument")
    dtype = _np.dtype(dtype)
    if sep != "":
        return _core.array(_np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))
    with contextlib.ExitStack() as stack:
        if hasattr(file, "read"):
            fid = file
        else:
            fid = stack.enter_context(open(os.fspath(file), "rb"))
        if offset:
            fid.seek(offset, 1)
        itemsize = dtype.itemsize
        available = max(_remaining_bytes(fid), 0) // itemsize
        n = available if count < 0 else min(count, available)
        return _read_data(fid, (n,), dtype)


def _tofile(self, fid, sep="", format="%s"):
    """Writes the array to a file as NumPy's ``ndarray.tofile``: raw bytes in C order
    (``sep=''``), or text with ``sep`` between items formatted by ``format``."""
    if sep != "":
        self.get().tofile(fid, sep=sep, format=format)
        return
    if hasattr(fid, "write"):
        ctx = contextlib.nullcontext(fid)
    else:
        ctx = open(os.fspath(fid), "wb")
    with ctx as f:
        _write_data(f, self, "C")
