"""Devices, streams, events and the memory pool (CuPy's ``cupy.cuda`` API).  Data moved on
streams is checked against the NumPy source it came from."""

import gc
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE, assert_bits_equal, random_array

pytestmark = GPU_MODULE

MiB = 2**20


# --- Device ------------------------------------------------------------------------------


def test_device_current():
    dev = gpuarr.cuda.Device()
    assert isinstance(dev.id, int)
    assert dev.id == gpuarr.cuda.runtime.getDevice()
    assert 0 <= dev.id < gpuarr.cuda.runtime.getDeviceCount()
    assert dev == gpuarr.cuda.Device(dev.id)
    assert dev == dev.id
    assert int(dev) == dev.id
    assert hash(dev) == hash(gpuarr.cuda.Device(dev.id))
    assert gpuarr.cuda.Device(dev) == dev


def test_device_properties():
    dev = gpuarr.cuda.Device(0)
    cc = dev.compute_capability
    assert isinstance(cc, str) and cc.isdigit() and len(cc) >= 2
    props = gpuarr.cuda.runtime.getDeviceProperties(0)
    assert cc == f"{props['major']}{props['minor']}"
    free, total = dev.mem_info
    assert isinstance(dev.mem_info, tuple) and len(dev.mem_info) == 2
    assert isinstance(free, int) and isinstance(total, int)
    assert 0 < free <= total
    # cudaMemGetInfo's total and the device property describe the same memory.
    assert abs(total - props["totalGlobalMem"]) <= 0.05 * props["totalGlobalMem"]
    assert gpuarr.cuda.runtime.memGetInfo()[1] == total
    assert gpuarr.cuda.runtime.runtimeGetVersion() > 0
    assert gpuarr.cuda.runtime.driverGetVersion() > 0
    for key in ("pciBusID", "pciDeviceID", "pciDomainID"):
        assert isinstance(props[key], int) and props[key] >= 0
    assert isinstance(props["uuid"], bytes) and len(props["uuid"]) == 16


# A fresh process: whether device 0's primary context is active (the driver API, read
# through ctypes, so that the probe itself creates none) right after `import gpuarr`, and
# after a first array.
_CONTEXT_PROBE = r"""
import ctypes, json
cuda = ctypes.CDLL("libcuda.so.1")

def primary_context_active(ordinal):
    dev, flags, active = ctypes.c_int(), ctypes.c_uint(), ctypes.c_int()
    assert cuda.cuInit(0) == 0
    assert cuda.cuDeviceGet(ctypes.byref(dev), ordinal) == 0
    assert cuda.cuDevicePrimaryCtxGetState(dev, ctypes.byref(flags), ctypes.byref(active)) == 0
    return bool(active.value)

import gpuarr
count = gpuarr.cuda.runtime.getDeviceCount()
at_import = primary_context_active(0)
value = float((gpuarr.arange(4.0) + 1).sum())
props = gpuarr.cuda.runtime.getDeviceProperties(0)
print(json.dumps({"count": count, "at_import": at_import,
                  "after_use": primary_context_active(0), "value": value,
                  "bus": [props["pciDomainID"], props["pciBusID"], props["pciDeviceID"]]}))
"""


def _probe(env_update):
    env = dict(os.environ, **env_update)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))]
        + [p for p in sys.path if p and os.path.isdir(p)])
    out = subprocess.run([sys.executable, "-c", _CONTEXT_PROBE], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _bus(device):
    props = gpuarr.cuda.runtime.getDeviceProperties(device)
    return [props["pciDomainID"], props["pciBusID"], props["pciDeviceID"]]


def test_context_created_on_first_use_not_at_import():
    r = _probe({})
    assert r["count"] == gpuarr.cuda.runtime.getDeviceCount()
    assert r["at_import"] is False
    assert r["after_use"] is True
    assert r["value"] == 10.0
    assert r["bus"] == _bus(0)


def test_cuda_visible_devices_selects_the_physical_device():
    count = gpuarr.cuda.runtime.getDeviceCount()
    if count < 2 or os.environ.get("CUDA_VISIBLE_DEVICES"):
        pytest.skip("needs two or more GPUs, all visible to this process")
    last = count - 1
    assert len({tuple(_bus(d)) for d in range(count)}) == count
    r = _probe({"CUDA_VISIBLE_DEVICES": str(last)})
    # gpuarr's device 0 in that process is this process's last device.
    assert r["count"] == 1 and r["bus"] == _bus(last) and r["value"] == 10.0


def test_device_context_manager(rng):
    before = gpuarr.cuda.runtime.getDevice()
    with gpuarr.cuda.Device(0) as dev:
        assert isinstance(dev, gpuarr.cuda.Device)
        assert gpuarr.cuda.runtime.getDevice() == 0
        assert gpuarr.cuda.Device() == dev
        h = random_array(rng, (100,), "float32")
        d = gpuarr.asarray(h)
        assert d.device == dev
    assert gpuarr.cuda.runtime.getDevice() == before
    assert_bits_equal(d.get(), h)
    dev.synchronize()
    gpuarr.cuda.Device().synchronize()
    gpuarr.cuda.runtime.deviceSynchronize()


def test_invalid_device():
    n = gpuarr.cuda.runtime.getDeviceCount()
    before = gpuarr.cuda.runtime.getDevice()
    with pytest.raises(gpuarr.cuda.CUDARuntimeError, match="cudaSetDevice"):
        gpuarr.cuda.runtime.setDevice(n)
    with pytest.raises(gpuarr.cuda.CUDARuntimeError):
        with gpuarr.cuda.Device(n):
            pass
    assert gpuarr.cuda.runtime.getDevice() == before


# --- Stream ------------------------------------------------------------------------------


def test_stream_basics():
    s = gpuarr.cuda.Stream()
    assert isinstance(s.ptr, int) and s.ptr != 0
    assert s != gpuarr.cuda.Stream.null
    assert s == s
    s.synchronize()
    assert s.done is True
    nb = gpuarr.cuda.Stream(non_blocking=True)
    assert nb.ptr not in (0, s.ptr)
    assert gpuarr.cuda.Stream.null.ptr == 0
    assert gpuarr.cuda.Stream.null == gpuarr.cuda.Stream.null


def test_stream_context_makes_current():
    prev = gpuarr.cuda.get_current_stream()
    assert prev == gpuarr.cuda.Stream.null
    s1 = gpuarr.cuda.Stream()
    s2 = gpuarr.cuda.Stream(non_blocking=True)
    with s1 as entered:
        assert entered is s1
        assert gpuarr.cuda.get_current_stream() == s1
        with s2:
            assert gpuarr.cuda.get_current_stream() == s2
            with gpuarr.cuda.Stream.null:
                assert gpuarr.cuda.get_current_stream() == gpuarr.cuda.Stream.null
            assert gpuarr.cuda.get_current_stream() == s2
        assert gpuarr.cuda.get_current_stream() == s1
    assert gpuarr.cuda.get_current_stream() == prev


def test_stream_context_restored_after_exception():
    prev = gpuarr.cuda.get_current_stream()
    s = gpuarr.cuda.Stream()
    with pytest.raises(ZeroDivisionError):
        with s:
            1 / 0
    assert gpuarr.cuda.get_current_stream() == prev


def test_copy_enqueued_on_stream_visible_after_sync(rng):
    n = 3 * MiB // 4
    h = random_array(rng, (n,), "float32")
    p = gpuarr.empty_pinned(n, np.float32)
    p[...] = h
    d = gpuarr.empty(n, dtype=np.float32)
    s = gpuarr.cuda.Stream(non_blocking=True)
    gpuarr.cuda.Device().synchronize()  # the allocation is complete before s uses it
    d.set(p, stream=s)
    s.synchronize()
    assert s.done
    assert_bits_equal(d.get(), h)


def test_work_inside_stream_context(rng):
    h = random_array(rng, (512, 300), "complex64")
    s = gpuarr.cuda.Stream(non_blocking=True)
    with s:
        x = gpuarr.asarray(h)
        y = x.T.copy()
        z = gpuarr.zeros((3, 3))
        z[1] = 2.0
        w = gpuarr.arange(1000)
        v = gpuarr.linspace(0, 1, 1000)
    s.synchronize()
    assert_bits_equal(x.get(), h)
    assert_bits_equal(y.get(), h.T.copy())
    zh = np.zeros((3, 3))
    zh[1] = 2.0
    assert_bits_equal(z.get(), zh)
    assert_bits_equal(w.get(), np.arange(1000))
    assert_bits_equal(v.get(), np.linspace(0, 1, 1000))


def test_stream_record_and_wait_event(rng):
    s = gpuarr.cuda.Stream()
    e = s.record()
    assert isinstance(e, gpuarr.cuda.Event)
    e.synchronize()
    assert e.done
    s2 = gpuarr.cuda.Stream()
    s2.wait_event(e)
    s2.synchronize()
    # record() into an existing event returns that event.
    e2 = gpuarr.cuda.Event()
    assert s.record(e2) is e2


def test_ordering_between_streams(rng):
    n = 8 * MiB // 8
    h = random_array(rng, (n,), "float64")
    p = gpuarr.empty_pinned(n, np.float64)
    p[...] = h
    s1 = gpuarr.cuda.Stream(non_blocking=True)
    s2 = gpuarr.cuda.Stream(non_blocking=True)
    d = gpuarr.zeros(n, dtype=np.float64)
    gpuarr.cuda.Device().synchronize()
    d.set(p, stream=s1)  # asynchronous copy on s1
    s2.wait_event(s1.record())  # s2 waits for it
    with s2:
        y = d[::-1].copy()  # runs on s2 after the copy
        z = d.copy()
    s2.synchronize()
    assert_bits_equal(y.get(), h[::-1].copy())
    assert_bits_equal(z.get(), h)


def test_async_round_trip_on_stream(rng):
    n = 2 * MiB
    h = rng.integers(0, 256, size=n, dtype=np.uint8)
    pin_in = gpuarr.empty_pinned(n, np.uint8)
    pin_out = gpuarr.empty_pinned(n, np.uint8)
    pin_in[...] = h
    pin_out[...] = 0
    s = gpuarr.cuda.Stream(non_blocking=True)
    with s:
        d = gpuarr.empty(n, dtype=np.uint8)
    d.set(pin_in, stream=s)
    d.get(stream=s, out=pin_out, blocking=False)
    s.synchronize()
    assert np.array_equal(pin_out, h)


# --- Event -------------------------------------------------------------------------------


def test_event_timing(rng):
    e1 = gpuarr.cuda.Event(timing=True)
    e2 = gpuarr.cuda.Event()
    assert e1.ptr != 0 and e2.ptr != 0 and e1.ptr != e2.ptr
    e1.record()
    d = gpuarr.asarray(random_array(rng, (MiB,), "float32"))
    d2 = d[::-1].copy()
    e2.record()
    e2.synchronize()
    assert e1.done and e2.done
    t = gpuarr.cuda.get_elapsed_time(e1, e2)
    assert isinstance(t, float) and t >= 0.0
    assert d2.size == d.size


def test_event_on_stream(rng):
    s = gpuarr.cuda.Stream()
    e1 = gpuarr.cuda.Event()
    e2 = gpuarr.cuda.Event()
    e1.record(s)
    with s:
        x = gpuarr.ones(MiB, dtype=np.float64)
    e2.record(s)
    e2.synchronize()
    assert e2.done
    assert gpuarr.cuda.get_elapsed_time(e1, e2) >= 0.0
    assert_bits_equal(x.get(), np.ones(MiB))


def test_event_without_timing():
    e1 = gpuarr.cuda.Event(disable_timing=True)
    e2 = gpuarr.cuda.Event(timing=False)
    e1.record()
    e2.record()
    e2.synchronize()
    with pytest.raises(gpuarr.cuda.CUDARuntimeError):
        gpuarr.cuda.get_elapsed_time(e1, e2)


# --- memory pool ----------------------------------------------------------------------------


@pytest.fixture
def pool():
    p = gpuarr.get_default_memory_pool()
    yield p
    p.set_limit(size=0)


def test_pool_is_shared():
    assert isinstance(gpuarr.get_default_memory_pool(), gpuarr.cuda.MemoryPool)
    assert gpuarr.get_default_memory_pool() is gpuarr.cuda.get_default_memory_pool()


def test_pool_used_bytes(pool, rng):
    gc.collect()
    before = pool.used_bytes()
    a = gpuarr.empty(MiB, dtype=np.uint8)
    after = pool.used_bytes()
    assert after >= before + a.nbytes
    assert pool.total_bytes() >= pool.used_bytes()
    b = gpuarr.asarray(random_array(rng, (MiB // 8,), "float64"))
    assert pool.used_bytes() >= after + b.nbytes
    del a
    assert pool.used_bytes() <= after + b.nbytes - MiB
    del b
    assert pool.used_bytes() <= before
    assert pool.free_bytes() == pool.total_bytes() - pool.used_bytes()


def test_pool_views_do_not_allocate(pool, rng):
    a = gpuarr.asarray(random_array(rng, (1024, 1024), "float32"))
    used = pool.used_bytes()
    v = a[::2, 1:].T
    assert pool.used_bytes() == used
    del a  # the view keeps the memory alive
    assert pool.used_bytes() == used
    assert v.shape == (1023, 512)
    del v


def test_pool_free_all_blocks(pool):
    a = gpuarr.empty(8 * MiB, dtype=np.uint8)
    del a
    total_before = pool.total_bytes()
    pool.free_all_blocks()
    assert pool.total_bytes() <= total_before
    assert pool.total_bytes() >= pool.used_bytes()
    # Allocation still works after trimming the pool.
    h = np.arange(1000, dtype=np.int64)
    assert_bits_equal(gpuarr.asarray(h).get(), h)


def test_pool_limit(pool, rng):
    assert pool.get_limit() == 0
    try:
        limit = pool.used_bytes() + 2 * MiB
        pool.set_limit(size=limit)
        assert pool.get_limit() == limit
        small = gpuarr.empty(MiB, dtype=np.uint8)  # fits under the limit
        request = 4 * MiB
        with pytest.raises(gpuarr.cuda.OutOfMemoryError) as info:
            gpuarr.empty(request, dtype=np.uint8)
        assert isinstance(info.value, MemoryError)
        msg = str(info.value)
        assert f"{request:,}" in msg or str(request) in msg, msg
        with pytest.raises(MemoryError):
            gpuarr.zeros((request // 8,), dtype=np.float64)
        with pytest.raises(MemoryError):
            gpuarr.asarray(random_array(rng, (request,), "uint8"))
        del small
    finally:
        pool.set_limit(size=0)
    assert pool.get_limit() == 0
    big = gpuarr.asarray(random_array(rng, (request,), "uint8"))
    assert big.nbytes == request


def test_pool_limit_fraction(pool):
    total = gpuarr.cuda.Device().mem_info[1]
    try:
        pool.set_limit(fraction=0.5)
        assert abs(pool.get_limit() - total // 2) <= 1
    finally:
        pool.set_limit(size=0)
    assert pool.get_limit() == 0


@pytest.mark.parametrize("kwargs, exc", [({"size": -1}, ValueError),
                                         ({"fraction": 1.5}, ValueError),
                                         ({"fraction": -0.1}, ValueError),
                                         ({"size": 10, "fraction": 0.5}, ValueError)],
                         ids=repr)
def test_pool_limit_errors(pool, kwargs, exc):
    with pytest.raises(exc):
        pool.set_limit(**kwargs)
    assert pool.get_limit() == 0


def test_out_of_memory_without_limit_recovers(pool, rng):
    used = pool.used_bytes()
    with pytest.raises(gpuarr.cuda.OutOfMemoryError) as info:
        gpuarr.empty(2**45, dtype=np.uint8)  # 32 TiB
    assert isinstance(info.value, MemoryError)
    assert f"{2**45:,}" in str(info.value) or str(2**45) in str(info.value)
    assert pool.used_bytes() == used
    with pytest.raises(MemoryError):
        gpuarr.zeros((2**20, 2**20, 8), dtype=np.float32)
    # The process is fully usable afterwards.
    h = random_array(rng, (1000, 257), "complex64")
    d = gpuarr.asarray(h)
    assert_bits_equal(d.get(), h)
    assert_bits_equal(d.T.copy().get(), np.ascontiguousarray(h.T))
    gpuarr.cuda.Device().synchronize()
    s = gpuarr.cuda.Stream()
    with s:
        e = gpuarr.ones(10)
    s.synchronize()
    assert_bits_equal(e.get(), np.ones(10))


def test_pinned_memory_attributes():
    mem = gpuarr.cuda.alloc_pinned_memory(4096)
    assert isinstance(mem, gpuarr.cuda.PinnedMemory)
    assert mem.size == 4096 and len(mem) == 4096
    assert mem.ptr != 0
    view = memoryview(mem)
    assert view.nbytes == 4096 and view.format == "B"
