"""The DLPack ABI as gpuarr reads it, checked on the host: capsules built with ctypes
(DLManagedTensor / DLManagedTensorVersioned laid out as dlpack.h) describing CUDA memory
are imported without touching the device, so the field offsets, the element -> byte stride
conversion, byte_offset, dtype codes, the capsule renaming and the deleter call (when the
last view dies) are all checked without a GPU."""

import ctypes
import gc

import numpy as np
import pytest

import gpuarr

kDLCPU, kDLCUDA, kDLCUDAManaged = 1, 2, 13
kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool = 0, 1, 2, 4, 5, 6


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


LEGACY_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", LEGACY_DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


VERSIONED_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
    ("deleter", VERSIONED_DELETER), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


def test_layout_matches_header():
    # The same numbers cpp/core/dlpack.h static_asserts.
    assert ctypes.sizeof(DLTensor) == 48 and DLTensor.byte_offset.offset == 40
    assert ctypes.sizeof(DLManagedTensor) == 64
    assert ctypes.sizeof(DLManagedTensorVersioned) == 80
    assert DLManagedTensorVersioned.dl_tensor.offset == 32


class FakeTensor:
    """Owns the ctypes structures of one capsule and counts deleter calls."""

    def __init__(self, shape, strides=None, *, versioned=True, data=0x7F0000001000,
                 byte_offset=0, code=kDLFloat, bits=64, lanes=1, device=(kDLCUDA, 0),
                 major=1):
        self.calls = 0
        self.shape = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        self.strides = None if strides is None else (ctypes.c_int64 * max(len(strides), 1))(*strides)
        t = DLTensor()
        t.data = data
        t.device = DLDevice(*device)
        t.ndim = len(shape)
        t.dtype = DLDataType(code, bits, lanes)
        t.shape = self.shape
        t.strides = self.strides if strides is not None else None
        t.byte_offset = byte_offset
        if versioned:
            self.deleter = VERSIONED_DELETER(self._delete)
            self.managed = DLManagedTensorVersioned(DLPackVersion(major, 0), None, self.deleter,
                                                    0, t)
            name = b"dltensor_versioned"
        else:
            self.deleter = LEGACY_DELETER(self._delete)
            self.managed = DLManagedTensor(t, None, self.deleter)
            name = b"dltensor"
        self.name = ctypes.create_string_buffer(name)
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        self.capsule = new(ctypes.addressof(self.managed), ctypes.cast(self.name, ctypes.c_char_p),
                           None)

    def _delete(self, _ptr):
        self.calls += 1

    def capsule_name(self):
        get = ctypes.pythonapi.PyCapsule_GetName
        get.restype = ctypes.c_char_p
        get.argtypes = [ctypes.py_object]
        return get(self.capsule)


@pytest.mark.parametrize("versioned", [True, False], ids=["versioned", "legacy"])
def test_import_fields_and_deleter(versioned):
    f = FakeTensor((3, 4), (-1, 3), versioned=versioned, byte_offset=64, code=kDLFloat, bits=32)
    a = gpuarr.from_dlpack(f.capsule)
    assert f.capsule_name() == (b"used_dltensor_versioned" if versioned else b"used_dltensor")
    assert a.dtype == np.float32
    assert a.shape == (3, 4)
    assert a.strides == (-4, 12)
    assert a.data.ptr == 0x7F0000001000 + 64
    v = a[1:, ::2]
    assert v.data.ptr == a.data.ptr - 4
    del a
    gc.collect()
    assert f.calls == 0  # the view still holds the producer
    del v
    gc.collect()
    assert f.calls == 1
    with pytest.raises(ValueError, match="already consumed"):
        gpuarr.from_dlpack(f.capsule)


@pytest.mark.parametrize("code,bits,expected", [
    (kDLBool, 8, "bool"), (kDLInt, 8, "int8"), (kDLInt, 16, "int16"), (kDLInt, 32, "int32"),
    (kDLInt, 64, "int64"), (kDLUInt, 8, "uint8"), (kDLUInt, 16, "uint16"),
    (kDLUInt, 32, "uint32"), (kDLUInt, 64, "uint64"), (kDLFloat, 16, "float16"),
    (kDLFloat, 32, "float32"), (kDLFloat, 64, "float64"), (kDLComplex, 64, "complex64"),
    (kDLComplex, 128, "complex128")])
def test_dtype_codes(code, bits, expected):
    f = FakeTensor((5,), None, code=code, bits=bits)
    a = gpuarr.from_dlpack(f.capsule)
    assert a.dtype == np.dtype(expected)
    assert a.strides == (np.dtype(expected).itemsize,)


def test_contiguous_when_strides_null_and_0d_and_empty():
    a = gpuarr.from_dlpack(FakeTensor((2, 3, 4), None, bits=16).capsule)
    assert a.strides == (24, 8, 2) and a.flags.c_contiguous
    z = gpuarr.from_dlpack(FakeTensor((), None).capsule)
    assert z.shape == () and z.data.ptr == 0x7F0000001000
    e = gpuarr.from_dlpack(FakeTensor((0, 3), None, data=0).capsule)
    assert e.shape == (0, 3) and e.size == 0
    m = gpuarr.from_dlpack(FakeTensor((4,), (0,), device=(kDLCUDAManaged, 0)).capsule)
    assert m.strides == (0,)


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"code": kDLBfloat, "bits": 16}, TypeError, "bfloat16"),
    ({"lanes": 4, "bits": 32}, TypeError, "float32x4"),
    ({"code": kDLBool, "bits": 1}, TypeError, "bool1"),
    ({"device": (kDLCPU, 0)}, BufferError, "host memory"),
    ({"device": (4, 0)}, BufferError, "device type 4"),
    ({"major": 2}, BufferError, "version 2"),
    ({"data": 0}, BufferError, "null data"),
])
def test_import_errors_leave_capsule_unconsumed(kwargs, exc, match):
    f = FakeTensor((2,), None, **kwargs)
    with pytest.raises(exc, match=match):
        gpuarr.from_dlpack(f.capsule)
    assert f.capsule_name() in (b"dltensor_versioned", b"dltensor")
    assert f.calls == 0


def test_gpuarr_ops_accept_foreign_metadata():
    # Views and reshapes are pure metadata: no device access needed.
    a = gpuarr.from_dlpack(FakeTensor((4, 6), None, bits=32).capsule)
    t = a.T
    assert t.strides == (4, 24)
    assert a.reshape(6, 4).shape == (6, 4)


def test_overflowing_extent_leaves_capsule_unconsumed():
    f = FakeTensor((1 << 40, 2), (1 << 22, 1), bits=64)
    with pytest.raises(BufferError, match="overflow"):
        gpuarr.from_dlpack(f.capsule)
    assert f.capsule_name() == b"dltensor_versioned" and f.calls == 0
