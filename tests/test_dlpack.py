"""DLPack: ndarray.__dlpack__ / __dlpack_device__ and gpuarr.from_dlpack, with gpuarr
itself, PyTorch, CuPy and JAX as the other side (each skipped where absent): zero-copy
(pointer equality, writes visible both ways), every dtype, non-contiguous, negative- and
zero-stride views, versioned and legacy capsules (consumed once), producer lifetime, copy
and dl_device requests, and stream ordering without host synchronization."""

import ctypes
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import gpuarr
from conftest import ALL_DTYPES, assert_gpu_equal, dtype_id, gpu_test, random_array

kDLCPU, kDLCUDA = 1, 2

# --- host-only: capsule parsing and argument errors ---------------------------------------

_NAMES = []


def _fake_capsule(name):
    buf = ctypes.create_string_buffer(name)
    _NAMES.append(buf)  # the capsule keeps a pointer to its name
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.addressof(buf), ctypes.cast(buf, ctypes.c_char_p), None)


@pytest.mark.parametrize("name", [b"used_dltensor", b"used_dltensor_versioned"])
def test_used_capsule_rejected(name):
    with pytest.raises(ValueError, match="already consumed"):
        gpuarr.from_dlpack(_fake_capsule(name))


def test_foreign_capsule_rejected():
    with pytest.raises(TypeError, match="not a DLPack capsule"):
        gpuarr.from_dlpack(_fake_capsule(b"something_else"))


@pytest.mark.parametrize("max_version", [None, (1, 0)])
def test_host_capsule_is_buffer_error(max_version):
    h = np.arange(6.0)
    cap = h.__dlpack__() if max_version is None else h.__dlpack__(max_version=max_version)
    with pytest.raises(BufferError, match="host memory"):
        gpuarr.from_dlpack(cap)
    # Not consumed: NumPy can still take it.
    np.testing.assert_array_equal(np.from_dlpack(_CapsuleHolder(cap)), h)


class _CapsuleHolder:
    def __init__(self, cap):
        self.cap = cap

    def __dlpack__(self, **kwargs):
        return self.cap

    def __dlpack_device__(self):
        return (kDLCPU, 0)


def test_host_source_needs_copy():
    h = np.arange(4.0)
    with pytest.raises(BufferError, match="copy=True"):
        gpuarr.from_dlpack(h)
    with pytest.raises(BufferError, match="copy=False"):
        gpuarr.from_dlpack(h, copy=False)


def test_from_dlpack_bad_inputs():
    with pytest.raises(TypeError, match="__dlpack__"):
        gpuarr.from_dlpack([1, 2, 3])
    with pytest.raises(TypeError):
        gpuarr.from_dlpack(np.arange(3), copy="yes")
    with pytest.raises(ValueError):
        gpuarr.from_dlpack(np.arange(3), device="tpu")


def test_import_gpuarr_does_not_import_torch():
    code = "import sys, gpuarr; assert 'torch' not in sys.modules, 'torch imported'"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


# --- gpuarr <-> gpuarr --------------------------------------------------------------------

def _roundtrip(d, versioned):
    cap = d.__dlpack__(max_version=(1, 0)) if versioned else d.__dlpack__()
    assert type(cap).__name__ == "PyCapsule"
    return gpuarr.from_dlpack(cap)


@gpu_test
@pytest.mark.parametrize("versioned", [False, True], ids=["legacy", "versioned"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_self_roundtrip_dtypes(rng, dtype, versioned):
    h = random_array(rng, (3, 4), dtype)
    d = gpuarr.asarray(h)
    r = _roundtrip(d, versioned)
    assert r.data.ptr == d.data.ptr
    assert_gpu_equal(r, h)


@gpu_test
@pytest.mark.parametrize("versioned", [False, True], ids=["legacy", "versioned"])
@pytest.mark.parametrize("view", ["0d", "empty", "T", "step", "negative", "broadcast",
                                  "offset", "real"])
def test_self_roundtrip_views(rng, view, versioned):
    h = random_array(rng, (6, 5), np.complex128 if view == "real" else np.float32)
    d = gpuarr.asarray(h)
    pick = {
        "empty": lambda a: a[3:3],
        "T": lambda a: a.T,
        "step": lambda a: a[::2, 1::2],
        "negative": lambda a: a[::-1, ::-2],
        "offset": lambda a: a[2:, 3:],
        "real": lambda a: a.real,
    }
    if view == "broadcast":
        dv, hv = gpuarr.broadcast_to(d[1], (4, 5)), np.broadcast_to(h[1], (4, 5))
    elif view == "0d":
        dv, hv = d[2:3, 3:4].reshape(()), np.asarray(h[2, 3])
    else:
        dv, hv = pick[view](d), pick[view](h)
    r = _roundtrip(dv, versioned)
    assert r.shape == hv.shape and r.strides == hv.strides
    if hv.size:
        assert r.data.ptr == dv.data.ptr
    assert_gpu_equal(r, hv)


@gpu_test
def test_self_roundtrip_writes_visible():
    d = gpuarr.zeros((4, 4))
    r = gpuarr.from_dlpack(d.__dlpack__(max_version=(1, 0)))
    r[1:3] = 7.0
    np.testing.assert_array_equal(d.get()[1:3], 7.0)
    d[0, 0] = -1.0
    assert float(r[0, 0]) == -1.0


@gpu_test
def test_capsule_consumed_once():
    d = gpuarr.arange(5.0)
    for cap in (d.__dlpack__(), d.__dlpack__(max_version=(1, 0))):
        gpuarr.from_dlpack(cap)
        with pytest.raises(ValueError, match="already consumed"):
            gpuarr.from_dlpack(cap)


@gpu_test
def test_unconsumed_capsule_is_freed_and_array_outlives_capsule():
    d = gpuarr.arange(5.0)
    for _ in range(3):
        cap = d.__dlpack__(max_version=(1, 0))
        del cap
    r = gpuarr.from_dlpack(d.__dlpack__())
    del d
    gc.collect()
    junk = gpuarr.full(5, -1.0)  # would reuse the block if it had been freed
    np.testing.assert_array_equal(r.get(), np.arange(5.0))
    del junk


@gpu_test
def test_dlpack_device():
    d = gpuarr.zeros(3)
    assert d.__dlpack_device__() == (kDLCUDA, d.device.id)


@gpu_test
def test_export_arguments():
    d = gpuarr.arange(6.0)
    with pytest.raises(ValueError, match="stream=0"):
        d.__dlpack__(stream=0)
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(kDLCUDA, d.device.id + 1))
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(kDLCPU, 0), copy=False)
    with pytest.raises(TypeError):
        d.__dlpack__(1)  # keyword-only
    for s in (None, -1, 1, 2):
        gpuarr.from_dlpack(d.__dlpack__(stream=s))
    # copy=True: a fresh buffer with the same values.
    c = gpuarr.from_dlpack(d.__dlpack__(copy=True, max_version=(1, 0)))
    assert c.data.ptr != d.data.ptr
    np.testing.assert_array_equal(c.get(), np.arange(6.0))
    c2 = gpuarr.from_dlpack(d, copy=True)
    assert c2.data.ptr != d.data.ptr
    assert gpuarr.from_dlpack(d) is d


@gpu_test
def test_export_to_cpu_is_a_host_copy():
    d = gpuarr.arange(6.0).reshape(2, 3)
    try:
        h = np.from_dlpack(d, device="cpu")
    except TypeError:
        pytest.skip("numpy.from_dlpack has no device argument")
    np.testing.assert_array_equal(h, np.arange(6.0).reshape(2, 3))
    with pytest.raises((BufferError, RuntimeError, TypeError, ValueError)):
        np.from_dlpack(d)  # device memory: NumPy refuses


@gpu_test
def test_from_dlpack_host_copy_on_request():
    h = np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2]
    d = gpuarr.from_dlpack(h, copy=True)
    assert_gpu_equal(d, np.ascontiguousarray(h), strides=False)
    d = gpuarr.from_dlpack(h, device=gpuarr.cuda.Device())
    assert_gpu_equal(d, np.ascontiguousarray(h), strides=False)


@gpu_test
def test_stream_argument_orders_consumer_stream():
    # Producer work on a non-blocking side stream; a consumer on another non-blocking
    # stream passes its handle: it must see the finished values without a host sync.
    n = 1 << 22
    s_prod = gpuarr.cuda.Stream(non_blocking=True)
    s_cons = gpuarr.cuda.Stream(non_blocking=True)
    with s_prod:
        d = gpuarr.ones(n, dtype=np.float32)
        for _ in range(20):
            d = d * 1.0 + 1.0
        cap = d.__dlpack__(stream=s_cons.ptr, max_version=(1, 0))
    with s_cons:
        r = gpuarr.from_dlpack(cap)
        total = gpuarr.sum(r, dtype=np.float64)
        assert float(total) == 21.0 * n


# --- PyTorch ------------------------------------------------------------------------------

def _torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA")
    return torch


_TORCH_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128"]


@gpu_test
@pytest.mark.parametrize("name", _TORCH_DTYPES)
def test_torch_roundtrips_dtypes(rng, name):
    torch = _torch()
    tdt = getattr(torch, name, None)
    if tdt is None:
        pytest.skip(f"torch has no {name}")
    h = random_array(rng, (3, 5), name)
    d = gpuarr.asarray(h)
    try:
        t = torch.from_dlpack(d)
    except (RuntimeError, TypeError, BufferError) as e:
        if name.startswith("uint") and name != "uint8":
            pytest.skip(f"this torch cannot import {name} via DLPack: {e}")
        raise
    assert t.dtype == tdt and t.is_cuda
    assert t.data_ptr() == d.data.ptr
    np.testing.assert_array_equal(t.cpu().numpy(), h)
    # torch -> gpuarr -> torch
    back = gpuarr.from_dlpack(t)
    assert back.data.ptr == t.data_ptr()
    assert_gpu_equal(back, h)
    t2 = torch.from_dlpack(back)
    assert t2.data_ptr() == t.data_ptr()


@gpu_test
def test_torch_writes_visible_both_ways():
    torch = _torch()
    t = torch.zeros(4, 3, device="cuda", dtype=torch.float64)
    d = gpuarr.from_dlpack(t)
    t[1] = 5.0
    np.testing.assert_array_equal(d.get()[1], 5.0)
    d[2] = -3.0
    assert (t[2] == -3.0).all().item()
    t2 = torch.from_dlpack(d)
    t2[0, 0] = 9.0
    assert float(d[0, 0]) == 9.0


@gpu_test
@pytest.mark.parametrize("view", ["T", "step", "expand", "narrow", "0d", "empty"])
def test_torch_views(view):
    torch = _torch()
    base = torch.arange(60, device="cuda", dtype=torch.float32).reshape(6, 10)
    t = {
        "T": lambda: base.t(),
        "step": lambda: base[::2, 1::3],
        "expand": lambda: base[2:3, :].expand(5, 10),
        "narrow": lambda: base[1:4, 2:7],
        "0d": lambda: base[3, 4],
        "empty": lambda: base[2:2],
    }[view]()
    d = gpuarr.from_dlpack(t)
    h = t.cpu().numpy()
    assert d.shape == tuple(t.shape)
    assert d.strides == tuple(s * 4 for s in t.stride())
    if t.numel():
        assert d.data.ptr == t.data_ptr()
    np.testing.assert_array_equal(d.get(), h)
    if view != "empty":
        back = torch.from_dlpack(d)
        assert back.data_ptr() == t.data_ptr() and back.stride() == t.stride()


@gpu_test
def test_torch_legacy_capsule_consumed_twice():
    torch = _torch()
    from torch.utils import dlpack as tdl
    t = torch.arange(5, device="cuda")
    cap = tdl.to_dlpack(t)
    d = gpuarr.from_dlpack(cap)
    assert d.data.ptr == t.data_ptr()
    with pytest.raises(ValueError, match="already consumed"):
        gpuarr.from_dlpack(cap)
    # And the other way: a gpuarr capsule taken by torch cannot be imported again.
    cap = gpuarr.arange(3).__dlpack__()
    tdl.from_dlpack(cap)
    with pytest.raises(ValueError, match="already consumed"):
        gpuarr.from_dlpack(cap)


@gpu_test
def test_torch_bfloat16_is_type_error():
    torch = _torch()
    t = torch.ones(3, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="bfloat16"):
        gpuarr.from_dlpack(t)
    # The capsule was not consumed by the failed import: torch's deleter frees it.
    gc.collect()


@gpu_test
def test_torch_producer_lifetime():
    torch = _torch()
    t = torch.arange(1000, device="cuda", dtype=torch.float32)
    d = gpuarr.from_dlpack(t)
    v = d[10:20]
    del t, d
    gc.collect()
    junk = [torch.full((1000,), -1.0, device="cuda") for _ in range(8)]
    np.testing.assert_array_equal(v.get(), np.arange(10, 20, dtype=np.float32))
    del junk
    # And the consumer keeps a gpuarr producer alive.
    d = gpuarr.arange(1000, dtype=np.float32)
    t = torch.from_dlpack(d)[5:8]
    del d
    gc.collect()
    junk = [gpuarr.full(1000, -1.0, dtype=np.float32) for _ in range(8)]
    np.testing.assert_array_equal(t.cpu().numpy(), [5, 6, 7])
    del junk


@gpu_test
def test_torch_side_stream_ordering():
    torch = _torch()
    n = 1 << 22
    ts = torch.cuda.Stream()
    with torch.cuda.stream(ts):
        t = torch.ones(n, device="cuda", dtype=torch.float32)
        for _ in range(30):
            t = t * 1.0 + 1.0
        d = gpuarr.from_dlpack(t)  # gpuarr's stream waits for ts
        total = float(gpuarr.sum(d, dtype=np.float64))
    assert total == 31.0 * n
    # gpuarr produces on a side stream; torch's default stream consumes.
    s = gpuarr.cuda.Stream(non_blocking=True)
    with s:
        d = gpuarr.ones(n, dtype=np.float32)
        for _ in range(30):
            d = d * 1.0 + 1.0
        t = torch.from_dlpack(d)
    assert t.sum(dtype=torch.float64).item() == 31.0 * n
    # Exported explicitly for a torch side stream.
    ts2 = torch.cuda.Stream()
    with s:
        d = gpuarr.ones(n, dtype=np.float32) * 2.0
        cap = d.__dlpack__(stream=ts2.cuda_stream)
    with torch.cuda.stream(ts2):
        from torch.utils import dlpack as tdl
        t = tdl.from_dlpack(cap)
        r = t.sum(dtype=torch.float64)
    ts2.synchronize()
    assert r.item() == 2.0 * n


@gpu_test
def test_asarray_takes_torch_zero_copy():
    torch = _torch()
    t = torch.arange(12, device="cuda", dtype=torch.float64).reshape(3, 4)
    d = gpuarr.asarray(t)
    assert isinstance(d, gpuarr.ndarray) and d.data.ptr == t.data_ptr()
    c = gpuarr.array(t)  # copy=True
    assert c.data.ptr != t.data_ptr()
    np.testing.assert_array_equal(c.get(), t.cpu().numpy())
    f = gpuarr.asarray(t, dtype=np.float32)
    assert f.dtype == np.float32
    np.testing.assert_array_equal(f.get(), t.cpu().numpy().astype(np.float32))


# --- CuPy and JAX ---------------------------------------------------------------------------

def _cupy():
    return pytest.importorskip("cupy")


@gpu_test
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_cupy_dlpack_both_ways(rng, dtype):
    cp = _cupy()
    h = random_array(rng, (4, 6), dtype)
    d = gpuarr.asarray(h)[::-1, ::2]
    c = cp.from_dlpack(d)
    assert c.data.ptr == d.data.ptr and c.strides == d.strides
    np.testing.assert_array_equal(cp.asnumpy(c), h[::-1, ::2])
    # Back through CuPy's export of a positive-stride view: CuPy 14 exports a negative
    # stride s as 2**63 + s (seen on the H100: -6 became 9223372036854775802), which gpuarr
    # refuses as an overflowing stride (see test_dlpack_abi.py).
    c = cp.from_dlpack(gpuarr.asarray(h)[1:, ::2])
    back = gpuarr.from_dlpack(c)
    assert back.data.ptr == c.data.ptr
    assert_gpu_equal(back, h[1:, ::2])
    back2 = gpuarr.asarray(cp.asarray(h))
    assert_gpu_equal(back2, h)


@gpu_test
def test_jax_from_dlpack():
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jax = pytest.importorskip("jax")
    try:
        gpus = jax.devices("gpu")
    except RuntimeError:
        gpus = []
    if not gpus:
        pytest.skip("JAX has no GPU backend")
    x = jax.device_put(jax.numpy.arange(10, dtype=jax.numpy.float32), gpus[0])
    d = gpuarr.from_dlpack(x)
    np.testing.assert_array_equal(d.get(), np.arange(10, dtype=np.float32))
    y = jax.dlpack.from_dlpack(gpuarr.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(np.asarray(y), np.arange(4, dtype=np.float32))
