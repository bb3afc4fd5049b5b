"""__cuda_array_interface__ (v3): gpuarr's export (shape, typestr, data, strides None for
C-contiguous, version 3, stream) and the zero-copy import in gpuarr.asarray for any object
exposing it (a plain Python object, CuPy, Numba device arrays, PyTorch tensors), with the
stream synchronization the protocol describes."""

import gc

import numpy as np
import pytest

import gpuarr
from conftest import ALL_DTYPES, GPU_MODULE, assert_gpu_equal, dtype_id, random_array

pytestmark = GPU_MODULE


class Holder:
    """A minimal producer: exposes another array's interface (optionally edited)."""

    def __init__(self, iface, owner=None):
        self.__cuda_array_interface__ = iface
        self.owner = owner


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_export_fields(dtype):
    d = gpuarr.zeros((3, 4), dtype=dtype)
    i = d.__cuda_array_interface__
    assert i["version"] == 3
    assert i["shape"] == (3, 4)
    assert i["typestr"] == np.dtype(dtype).str.replace("=", "<")
    assert i["data"] == (d.data.ptr, False)
    assert i["strides"] is None
    assert i["stream"] == 1  # the legacy default stream is current
    v = d.T
    assert v.__cuda_array_interface__["strides"] == v.strides
    assert v.__cuda_array_interface__["data"][0] == d.data.ptr
    e = gpuarr.zeros((0, 3), dtype=dtype)
    assert e.__cuda_array_interface__["data"][0] == 0


def test_export_stream_is_current_stream():
    s = gpuarr.cuda.Stream(non_blocking=True)
    d = gpuarr.zeros(3)
    with s:
        assert d.__cuda_array_interface__["stream"] == s.ptr


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("view", ["c", "T", "neg", "bcast", "0d", "empty"])
def test_import_own_interface(rng, dtype, view):
    h = random_array(rng, (4, 5), dtype)
    d = gpuarr.asarray(h)
    if view == "c":
        dv, hv = d, h
    elif view == "T":
        dv, hv = d.T, h.T
    elif view == "neg":
        dv, hv = d[::-1, ::-2], h[::-1, ::-2]
    elif view == "bcast":
        dv, hv = gpuarr.broadcast_to(d[2], (3, 5)), np.broadcast_to(h[2], (3, 5))
    elif view == "0d":
        dv, hv = d[1:2, 2:3].reshape(()), np.asarray(h[1, 2])
    else:
        dv, hv = d[2:2], h[2:2]
    holder = Holder(dv.__cuda_array_interface__, owner=dv)
    r = gpuarr.asarray(holder)
    assert isinstance(r, gpuarr.ndarray)
    if hv.size:
        assert r.data.ptr == dv.data.ptr
    assert r.shape == hv.shape and r.strides == hv.strides
    assert_gpu_equal(r, hv)


def test_import_keeps_producer_alive_and_writes_visible():
    d = gpuarr.arange(10.0)
    holder = Holder(d.__cuda_array_interface__, owner=d)
    r = gpuarr.asarray(holder)
    r[3] = 42.0
    assert float(d[3]) == 42.0
    del d, holder
    gc.collect()
    junk = [gpuarr.full(10, -1.0) for _ in range(4)]
    expected = np.arange(10.0)
    expected[3] = 42.0
    np.testing.assert_array_equal(r.get(), expected)
    del junk


def test_import_copy_and_dtype():
    d = gpuarr.arange(6, dtype=np.int32)
    holder = Holder(d.__cuda_array_interface__, owner=d)
    c = gpuarr.array(holder)
    assert c.data.ptr != d.data.ptr
    f = gpuarr.asarray(holder, dtype=np.float64)
    assert_gpu_equal(f, np.arange(6, dtype=np.float64))


def test_import_errors():
    d = gpuarr.arange(6.0)
    base = d.__cuda_array_interface__
    with pytest.raises(ValueError, match="stream 0"):
        gpuarr.asarray(Holder(dict(base, stream=0), d))
    with pytest.raises(ValueError, match="mask"):
        gpuarr.asarray(Holder(dict(base, mask=(1, 2)), d))
    with pytest.raises(TypeError, match="big-endian"):
        gpuarr.asarray(Holder(dict(base, typestr=">f8"), d))
    with pytest.raises(TypeError):
        gpuarr.asarray(Holder(dict(base, typestr="<M8"), d))
    host = np.arange(6.0)
    with pytest.raises(BufferError, match="not CUDA memory"):
        gpuarr.asarray(Holder(dict(base, data=(host.ctypes.data, False)), host))


def test_import_orders_producer_stream():
    n = 1 << 22
    s = gpuarr.cuda.Stream(non_blocking=True)
    with s:
        d = gpuarr.ones(n, dtype=np.float32)
        for _ in range(20):
            d = d * 1.0 + 1.0
        iface = d.__cuda_array_interface__  # stream = s
    other = gpuarr.cuda.Stream(non_blocking=True)
    with other:
        r = gpuarr.asarray(Holder(iface, d))
        assert float(gpuarr.sum(r, dtype=np.float64)) == 21.0 * n


def test_cupy_both_ways(rng):
    cp = pytest.importorskip("cupy")
    h = random_array(rng, (5, 6), np.float32)
    d = gpuarr.asarray(h)[:, ::2]
    c = cp.asarray(d)  # CuPy reads __cuda_array_interface__
    assert c.data.ptr == d.data.ptr
    np.testing.assert_array_equal(cp.asnumpy(c), h[:, ::2])
    c2 = cp.asarray(h).T
    d2 = gpuarr._core._cai_import(c2)
    assert d2.data.ptr == c2.data.ptr
    assert_gpu_equal(d2, h.T)


def test_numba_both_ways(rng):
    pytest.importorskip("numba")
    from numba import cuda
    if not cuda.is_available():
        pytest.skip("numba.cuda not available")
    h = random_array(rng, (4, 3), np.float64)
    d = gpuarr.asarray(h)
    nb = cuda.as_cuda_array(d)
    assert nb.__cuda_array_interface__["data"][0] == d.data.ptr
    np.testing.assert_array_equal(nb.copy_to_host(), h)
    dev = cuda.to_device(h)
    g = gpuarr.asarray(dev)
    assert g.data.ptr == dev.__cuda_array_interface__["data"][0]
    assert_gpu_equal(g, h)
    g[0, 0] = 123.0
    assert dev.copy_to_host()[0, 0] == 123.0


def test_torch_interface_import():
    torch = pytest.importorskip("torch")
    t = torch.arange(12, device="cuda", dtype=torch.float32).reshape(3, 4).t()
    d = gpuarr._core._cai_import(t)
    assert d.data.ptr == t.data_ptr()
    np.testing.assert_array_equal(d.get(), t.cpu().numpy())
    back = torch.as_tensor(gpuarr.arange(5.0), device="cuda")  # torch reads the interface
    np.testing.assert_array_equal(back.cpu().numpy(), np.arange(5.0))
