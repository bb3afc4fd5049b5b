"""File I/O against NumPy: .npy/.npz files written by gpuarr are byte-identical to NumPy's
and NumPy's files load with NumPy's values, dtypes and layout (every dtype, Fortran order,
0-d, empty, non-contiguous, big-endian); corrupt, truncated and object files raise
ValueError naming the file. Header parsing and error tests run without a GPU."""

import io
import os
import pickle
import zipfile

import numpy as np
import pytest

import gpuarr
from conftest import (
    ALL_DTYPES,
    assert_bits_equal,
    dtype_id,
    gpu_test,
    random_bits_array,
    shape_id,
)

dtypes = pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
SHAPES = [(), (0,), (3, 0), (1,), (5,), (3, 4), (2, 3, 4)]
shapes = pytest.mark.parametrize("shape", SHAPES, ids=shape_id)
MULTIBYTE = [d for d in ALL_DTYPES if d.itemsize > 1]
_core = gpuarr._core


def npy_bytes(h, **kw):
    b = io.BytesIO()
    np.save(b, h, **kw)
    return b.getvalue()


def header_len(data):
    return data.index(b"\n") + 1


def assert_loaded(d, h):
    """A loaded gpuarr array matches what np.load gives: dtype (native order), shape,
    contiguity flags, strides (non-empty) and bit-identical values."""
    assert isinstance(d, gpuarr.ndarray), type(d)
    assert d.shape == h.shape and d.dtype == h.dtype.newbyteorder("="), (d.shape, d.dtype)
    assert d.flags.c_contiguous == h.flags.c_contiguous
    assert d.flags.f_contiguous == h.flags.f_contiguous
    if h.size:
        assert d.strides == h.strides
    assert_bits_equal(d.get(), h.astype(h.dtype.newbyteorder("=")))


# --- host: header bytes and parsing (no GPU) ---------------------------------------------


@dtypes
@pytest.mark.parametrize("shape", SHAPES + [(10**12,), (1, 2, 3, 4, 5, 6, 7)], ids=shape_id)
@pytest.mark.parametrize("fortran", [False, True])
def test_header_bytes_equal_numpy(dtype, shape, fortran):
    d = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": fortran, "shape": shape}
    b = io.BytesIO()
    np.lib.format.write_array_header_1_0(b, d)
    assert _core._npy_format_header(dtype, fortran, shape) == b.getvalue()


@pytest.mark.parametrize("dtype", ALL_DTYPES + [np.dtype(">" + d.str[1:]) for d in MULTIBYTE],
                         ids=lambda d: d.str)
@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
def test_parse_numpy_headers(dtype, version):
    h = np.zeros((2, 3), dtype=dtype, order="F")
    data = npy_bytes(np.asfortranarray(h)) if version == (1, 0) else None
    if data is None:
        b = io.BytesIO()
        np.lib.format.write_array(b, h, version=version)
        data = b.getvalue()
    assert _core._npy_parse_magic(data[:8]) == version
    n = _core._npy_length_field_size(version[0])
    hlen = _core._npy_header_length(data[8:8 + n], version[0])
    hd = _core._npy_parse_header(data[8 + n:8 + n + hlen], version[0])
    assert hd["dtype"] == dtype.newbyteorder("=")
    assert hd["byteswap"] == (dtype.byteorder == ">")
    assert hd["fortran_order"] is True
    assert hd["shape"] == (2, 3)
    assert 8 + n + hlen == len(data) - h.nbytes


def corrupt_cases(tmp_path):
    good = npy_bytes(np.arange(6.0).reshape(2, 3))
    n = header_len(good)
    hdr = good[10:n]
    out = {
        "bad_version": (good[:6] + b"\x09\x00" + good[8:], "we only support format version"),
        "short_magic": (good[:7], "EOF: reading magic string"),
        "short_length": (good[:9], "EOF: reading array header length"),
        "short_header": (good[:40], "EOF: reading array header, expected 118 bytes got 30"),
        "not_dict": (good[:10] + hdr.replace(b"{", b"[", 1).replace(b"}", b"]", 1),
                     "Cannot parse header"),
        "bad_keys": (good[:10] + hdr.replace(b"'shape'", b"'shapf'"),
                     "Header does not contain the correct keys"),
        "bad_shape": (good[:10] + hdr.replace(b"(2, 3)", b"(2, x)"), "Cannot parse header"),
        "neg_shape": (good[:10] + hdr.replace(b"(2, 3)", b"(2,-3)"), "shape is not valid"),
        "bad_fortran": (good[:10] + hdr.replace(b"False", b"Nope "), "Cannot parse header"),
        "bad_descr": (good[:10] + hdr.replace(b"'<f8'", b"'<q9'"), "descr is not a valid"),
        "string_dtype": (good[:10] + hdr.replace(b"'<f8'", b"'<U2'"), "does not support"),
        "object": (npy_bytes(np.array([1, "a"], dtype=object)),
                   "Object arrays cannot be loaded when allow_pickle=False"),
        "pickle": (pickle.dumps([1, 2]), "contains pickled"),
        # Checked against the file size before any device allocation (no GPU needed).
        "truncated": (good[:-1], r"Expected \(2, 3\) = 6 elements, could only read 5"),
        "huge_shape": (good[:10] + hdr.replace(b"(2, 3), }" + b" " * 10, b"(2, 3000000000000)}")
                       + good[n:], "could only read 6 elements"),
    }
    for k, (data, _) in out.items():
        (tmp_path / f"{k}.npy").write_bytes(data)
    return out


def test_corrupt_files_raise_value_error_naming_file(tmp_path):
    for name, (_, msg) in corrupt_cases(tmp_path).items():
        path = tmp_path / f"{name}.npy"
        with pytest.raises(ValueError, match=msg) as info:
            gpuarr.load(path)
        assert str(path) in str(info.value), name
        # NumPy refuses the same files with ValueError (it loads the string array and
        # runs out of memory allocating the huge one).
        if name not in ("string_dtype", "huge_shape"):
            with pytest.raises(ValueError):
                np.load(path)


def test_object_arrays_refused_even_with_allow_pickle(tmp_path):
    p = tmp_path / "obj.npy"
    np.save(p, np.array([{"a": 1}, None], dtype=object))
    with pytest.raises(ValueError, match="allow_pickle=False"):
        gpuarr.load(p)
    with pytest.raises(ValueError, match="numbers only") as info:
        gpuarr.load(p, allow_pickle=True)
    assert str(p) in str(info.value)
    # Structured dtypes with an object field too.
    np.save(p, np.zeros(2, dtype=[("a", "O"), ("b", "f8")]), allow_pickle=True)
    with pytest.raises(ValueError, match="allow_pickle=False"):
        gpuarr.load(p)
    # A pickled object array.
    p2 = tmp_path / "obj.pkl"
    p2.write_bytes(pickle.dumps(np.array([1, None], dtype=object)))
    with pytest.raises(ValueError, match="numbers only"):
        gpuarr.load(p2, allow_pickle=True)


def test_pickles_need_allow_pickle(tmp_path):
    p = tmp_path / "x.pkl"
    p.write_bytes(pickle.dumps({"a": 1}))
    with pytest.raises(ValueError, match="allow_pickle"):
        gpuarr.load(p)
    assert gpuarr.load(p, allow_pickle=True) == {"a": 1}
    p.write_bytes(b"not a pickle at all")
    with pytest.raises(pickle.UnpicklingError):
        gpuarr.load(p, allow_pickle=True)
    p.write_bytes(b"")
    with pytest.raises(EOFError):
        gpuarr.load(p)


def test_header_size_limit(tmp_path):
    h = np.zeros(3)
    b = io.BytesIO()
    np.lib.format.write_array(b, h)
    data = b.getvalue()
    hdr = data[10:header_len(data)].rstrip(b"\n") + b" " * 20000 + b"\n"
    p = tmp_path / "big_header.npy"
    p.write_bytes(b"\x93NUMPY\x02\x00" + len(hdr).to_bytes(4, "little") + hdr + h.tobytes())
    with pytest.raises(ValueError, match="max_header_size"):
        gpuarr.load(p)


def test_bad_arguments(tmp_path):
    p = tmp_path / "a.npy"
    np.save(p, np.zeros(2))
    with pytest.raises(ValueError, match="encoding"):
        gpuarr.load(p, encoding="utf8")
    with pytest.raises(ValueError, match="mode must be one of"):
        gpuarr.load(p, mmap_mode="x")
    with pytest.raises(ValueError, match="Cannot use un-named variables and keyword arr_0"):
        gpuarr.savez(tmp_path / "z", np.zeros(1), arr_0=np.zeros(1))
    with pytest.raises(KeyError, match="is not a file in the archive"):
        np.savez(tmp_path / "y.npz", a=np.zeros(1))
        with gpuarr.load(tmp_path / "y.npz") as f:
            f["b"]


def test_npz_of_numpy_arrays_and_corrupt_zip(tmp_path):
    # NumPy values pass through savez unchanged (no device needed), and a broken archive
    # is a ValueError naming the file.
    p = tmp_path / "h.npz"
    gpuarr.savez(p, np.arange(3), b=np.ones((2, 2), np.float32))
    with np.load(p) as f:
        assert sorted(f.files) == ["arr_0", "b"]
        np.testing.assert_array_equal(f["arr_0"], np.arange(3))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04" + b"\x00" * 50)
    with pytest.raises(ValueError, match="bad.npz"):
        gpuarr.load(bad)


# --- GPU: round trips against NumPy ------------------------------------------------------


@gpu_test
@dtypes
@shapes
@pytest.mark.parametrize("order", ["C", "F"])
def test_save_is_byte_identical_to_numpy(tmp_path, rng, dtype, shape, order):
    h = random_bits_array(rng, shape, dtype)
    h = np.asfortranarray(h) if order == "F" else np.ascontiguousarray(h)
    d = gpuarr.asarray(h)
    assert d.flags.f_contiguous == h.flags.f_contiguous
    p = tmp_path / "a.npy"
    gpuarr.save(p, d)
    assert p.read_bytes() == npy_bytes(h)
    # And NumPy's file loads back with NumPy's layout.
    p.write_bytes(npy_bytes(h))
    assert_loaded(gpuarr.load(p), np.load(p))


@gpu_test
@pytest.mark.parametrize("dtype", MULTIBYTE, ids=dtype_id)
@pytest.mark.parametrize("order", ["C", "F"])
def test_load_big_endian(tmp_path, rng, dtype, order):
    h = random_bits_array(rng, (5, 7), dtype).astype(dtype.newbyteorder(">"))
    h = np.asfortranarray(h) if order == "F" else h
    p = tmp_path / "be.npy"
    np.save(p, h)
    d = gpuarr.load(p)
    assert d.dtype == dtype
    assert_loaded(d, np.load(p))


@gpu_test
@pytest.mark.parametrize("view", ["step", "reverse", "transpose3", "column", "broadcast"])
def test_save_non_contiguous(tmp_path, rng, view):
    h = random_bits_array(rng, (6, 8, 5), np.float32)
    d = gpuarr.asarray(h)
    take = {
        "step": lambda a: a[::2, 1::3],
        "reverse": lambda a: a[::-1, :, ::-2],
        "transpose3": lambda a: a.transpose(1, 0, 2)[:, ::2],
        "column": lambda a: a[:, 3, :].T,  # F-contiguous? no: strided; NumPy decides
        "broadcast": lambda a: a[:1, :1, :1].reshape(1),
    }[view]
    dv, hv = take(d), take(h)
    p = tmp_path / "v.npy"
    gpuarr.save(p, dv)
    assert p.read_bytes() == npy_bytes(hv)
    assert_loaded(gpuarr.load(p), np.load(p))


@gpu_test
@pytest.mark.parametrize("big_endian", [False, True])
def test_large_pipelined_round_trip(tmp_path, rng, big_endian):
    # Several staging chunks (32 MiB by default) and a partial last one.
    h = rng.standard_normal(21_000_003).astype(np.float32)
    p = tmp_path / "big.npy"
    np.save(p, h.astype(">f4") if big_endian else h)
    d = gpuarr.load(p)
    assert_bits_equal(d.get(), h)
    q = tmp_path / "big2.npy"
    gpuarr.save(q, d[::-1])
    assert_bits_equal(np.load(q), h[::-1])
    # The same through file objects without a descriptor (readinto / write pipeline).
    assert_bits_equal(gpuarr.load(io.BytesIO(p.read_bytes())).get(), h)
    if not big_endian:
        z = tmp_path / "big.npz"
        gpuarr.savez(z, big=d)
        with np.load(z) as f:
            assert_bits_equal(f["big"], h)
        with gpuarr.load(z) as f:
            assert_bits_equal(f["big"].get(), h)


@gpu_test
@pytest.mark.parametrize("order", ["C", "F", "strided"])
def test_save_through_staging_buffers(tmp_path, rng, monkeypatch, order):
    # Arrays over gpuarr._io._HOST_SAVE_MAX (8 GiB) are written through the pinned staging
    # buffers with parallel pwrites; a limit of 0 sends every array that way. Several
    # staging chunks (32 MiB by default) and a partial last one.
    from gpuarr import _io
    monkeypatch.setattr(_io, "_HOST_SAVE_MAX", 0)
    h = random_bits_array(rng, (3_000_001, 3), np.float32)
    h = {"C": h, "F": np.asfortranarray(h), "strided": h[::-2, ::2]}[order]
    d = gpuarr.asarray(h)
    p = tmp_path / "staged.npy"
    gpuarr.save(p, d)
    assert p.read_bytes() == npy_bytes(h)
    # After other bytes in the same file: the data lands at the file's position.
    with open(tmp_path / "two.npy", "wb") as f:
        gpuarr.save(f, d[:5])
        gpuarr.save(f, d)
    with open(tmp_path / "two.npy", "rb") as f:
        assert_bits_equal(np.load(f), h[:5])
        assert_bits_equal(np.load(f), h)


@gpu_test
@pytest.mark.parametrize("nbytes", [800, 21_000_000 * 4])
def test_truncated_file(tmp_path, nbytes):
    h = np.arange(nbytes // 4, dtype=np.float32)
    data = npy_bytes(h)
    p = tmp_path / "t.npy"
    p.write_bytes(data[:-6])
    with pytest.raises(ValueError, match="Failed to read all data for array") as info:
        gpuarr.load(p)
    assert str(p) in str(info.value)
    with pytest.raises(ValueError):
        np.load(p)
    with pytest.raises(ValueError, match="Failed to read all data for array"):
        gpuarr.load(io.BytesIO(data[:-6]))


@gpu_test
def test_file_objects_and_sequential_arrays(tmp_path, rng):
    a = random_bits_array(rng, (4, 5), np.complex64)
    b = random_bits_array(rng, (3,), np.int16)
    buf = io.BytesIO()
    gpuarr.save(buf, gpuarr.asarray(a))
    gpuarr.save(buf, gpuarr.asarray(b))
    np.save(buf, a.T)
    buf.seek(0)
    assert_loaded(gpuarr.load(buf), a)
    assert_loaded(gpuarr.load(buf), b)
    assert_loaded(gpuarr.load(buf), a.T)
    p = tmp_path / "two.npy"
    big = random_bits_array(rng, (700_000,), np.float64)  # above the small-array path
    with open(p, "wb") as f:
        np.save(f, a)
        gpuarr.save(f, gpuarr.asarray(b))
        gpuarr.save(f, gpuarr.asarray(big))
        np.save(f, b)
    with open(p, "rb") as f:
        np.testing.assert_array_equal(np.load(f), a)
        assert_loaded(gpuarr.load(f), b)
        assert_loaded(gpuarr.load(f), big)
        np.testing.assert_array_equal(np.load(f), b)
        assert f.read() == b""
    # Append mode writes through the file object (positional writes would misplace data).
    q = tmp_path / "append.npy"
    for _ in range(2):
        with open(q, "ab") as f:
            gpuarr.save(f, gpuarr.asarray(big))
    with open(q, "rb") as f:
        assert_bits_equal(np.load(f), big)
        assert_loaded(gpuarr.load(f), big)
    # save appends .npy to names, accepts path-likes; mmap_mode reads through.
    gpuarr.save(str(tmp_path / "noext"), gpuarr.asarray(b))
    assert_loaded(gpuarr.load(tmp_path / "noext.npy", mmap_mode="r"), b)
    # Compressed streams go through read/write, not their underlying descriptor.
    import gzip
    with gzip.open(tmp_path / "g.npy.gz", "wb") as f:
        gpuarr.save(f, gpuarr.asarray(big))
    with gzip.open(tmp_path / "g.npy.gz", "rb") as f:
        assert_loaded(gpuarr.load(f), big)
    # A NumPy array is saved as NumPy would.
    gpuarr.save(tmp_path / "h.npy", a)
    assert (tmp_path / "h.npy").read_bytes() == npy_bytes(a)


@gpu_test
@pytest.mark.parametrize("compressed", [False, True])
def test_npz_round_trip(tmp_path, rng, compressed):
    arrays = {str(d): random_bits_array(rng, (3, 2), d) for d in ALL_DTYPES}
    scalar = random_bits_array(rng, (), np.float64)
    fortran = np.asfortranarray(random_bits_array(rng, (4, 3), np.int32))
    save = gpuarr.savez_compressed if compressed else gpuarr.savez
    p = tmp_path / "arch"
    save(p, gpuarr.asarray(scalar), gpuarr.asarray(fortran),
         **{k: gpuarr.asarray(v) for k, v in arrays.items()})
    p = tmp_path / "arch.npz"
    with zipfile.ZipFile(p) as z:
        kinds = {i.compress_type for i in z.infolist()}
    assert kinds == {zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED}
    with np.load(p) as f:
        assert_bits_equal(f["arr_0"], scalar)
        assert f["arr_1"].flags.f_contiguous
        assert_bits_equal(f["arr_1"], fortran)
        for k, v in arrays.items():
            assert_bits_equal(f[k], v)
    # NumPy's archive loads lazily into device arrays.
    q = tmp_path / "np.npz"
    (np.savez_compressed if compressed else np.savez)(q, scalar, fortran, **arrays)
    with gpuarr.load(q) as f:
        assert isinstance(f, gpuarr.NpzFile)
        assert sorted(f.files) == sorted(["arr_0", "arr_1"] + list(arrays))
        assert "arr_0" in f and "arr_0.npy" in f and len(f) == 2 + len(arrays)
        assert_loaded(f["arr_0"], scalar)
        assert_loaded(f["arr_1.npy"], fortran)
        for k, v in arrays.items():
            assert_loaded(f[k], v)
        assert sorted(f.keys()) == sorted(f.files)
        assert_loaded(f.f.arr_0, scalar)
        with pytest.raises(AttributeError):
            f.f.nothing
    assert f.zip is None  # closed by the with block


@gpu_test
@dtypes
def test_tofile_fromfile_binary(tmp_path, rng, dtype):
    h = random_bits_array(rng, (7, 6), dtype)
    d = gpuarr.asarray(np.asfortranarray(h))
    p = tmp_path / "raw.bin"
    d.tofile(p)  # C order whatever the layout, as NumPy
    assert p.read_bytes() == h.tobytes()
    r = gpuarr.fromfile(p, dtype=dtype)
    assert_loaded(r, np.fromfile(p, dtype=dtype))
    kw = dict(dtype=dtype, count=5, offset=3 * dtype.itemsize)
    assert_loaded(gpuarr.fromfile(p, **kw), np.fromfile(p, **kw))
    kw = dict(dtype=dtype, count=1000)
    assert_loaded(gpuarr.fromfile(p, **kw), np.fromfile(p, **kw))
    d[::2, ::-3].tofile(p)
    assert p.read_bytes() == h[::2, ::-3].tobytes()


@gpu_test
def test_fromfile_partial_items_and_file_objects(tmp_path, rng):
    p = tmp_path / "odd.bin"
    p.write_bytes(bytes(range(13)))
    assert_loaded(gpuarr.fromfile(p, dtype=np.float32), np.fromfile(p, dtype=np.float32))
    with open(p, "rb") as f:
        f.read(1)
        a = gpuarr.fromfile(f, dtype=np.uint16, count=3)
        assert f.tell() == 7
    np.testing.assert_array_equal(a.get(), np.frombuffer(bytes(range(1, 7)), np.uint16))
    big = rng.integers(0, 2**31, 10_000_000, dtype=np.int64)
    big.tofile(p)
    assert_loaded(gpuarr.fromfile(p, dtype=np.int64), big)


@gpu_test
def test_text_tofile_fromfile(tmp_path):
    h = np.array([[1.5, -2.25, 3.0], [4.0, 5.0, 6.125]])
    p = tmp_path / "t.txt"
    gpuarr.asarray(h).tofile(p, sep=",", format="%.3f")
    q = tmp_path / "n.txt"
    h.tofile(q, sep=",", format="%.3f")
    assert p.read_text() == q.read_text()
    assert_loaded(gpuarr.fromfile(p, sep=","), np.fromfile(p, sep=","))
    assert_loaded(gpuarr.fromfile(p, dtype=np.float32, sep=",", count=4),
                  np.fromfile(p, dtype=np.float32, sep=",", count=4))


@gpu_test
def test_pickled_numpy_array_goes_to_device(tmp_path, rng):
    h = random_bits_array(rng, (3, 4), np.float64)
    p = tmp_path / "a.pkl"
    p.write_bytes(pickle.dumps(h))
    assert_loaded(gpuarr.load(p, allow_pickle=True), h)


@gpu_test
def test_load_on_a_stream(tmp_path, rng):
    h = rng.standard_normal((1000, 1500))
    p = tmp_path / "s.npy"
    np.save(p, h)
    with gpuarr.cuda.Stream() as s:
        d = gpuarr.load(p)
        e = d * 2
        gpuarr.save(tmp_path / "t.npy", e)
    s.synchronize()
    np.testing.assert_array_equal(np.load(tmp_path / "t.npy"), h * 2)
