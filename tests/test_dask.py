"""gpuarr arrays as Dask array chunks (gpuarr.dask): the registrations, the reductions whose
element counts Dask computes per chunk, mixed Dask/gpuarr operands, the "gpuarr" array
backend and its random numbers, to_backend, sizeof, the threaded scheduler, a distributed
round trip and a thread stress test, each result against NumPy."""

import os
import pathlib
import subprocess
import sys
import threading
import tomllib

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="Dask is not installed (pip install gpuarr[dask])")
import dask  # noqa: E402

import gpuarr  # noqa: E402
import gpuarr.dask as gdask  # noqa: E402
from conftest import gpu_test  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _close(actual, expected, rtol=1e-6, atol=1e-6):
    # Results are gpuarr arrays; a full reduction may come back as a NumPy scalar (Dask
    # finishes some of them with NumPy scalars, as for CuPy chunks).
    if np.ndim(expected) == 0 and isinstance(actual, (np.generic, float)):
        actual = gpuarr.asarray(np.asarray(actual))
    assert isinstance(actual, gpuarr.ndarray), type(actual)
    got = gpuarr.asnumpy(actual)
    assert got.shape == np.shape(expected)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


# --- host-side: what is registered and declared ----------------------------------------

def _subprocess_env():
    # The gpuarr this process imported (a source tree or an installed build) and the path
    # that found Dask here.
    path = [os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))]
    path += [p for p in sys.path if p and os.path.isdir(p)]
    return {"PYTHONPATH": os.pathsep.join(path), "PATH": "/usr/bin:/bin"}


def test_import_gpuarr_does_not_import_dask():
    code = "import sys, gpuarr; print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=_subprocess_env(), check=True)
    assert out.stdout.strip() == "[]"


def test_chunk_type_and_lookups_registered():
    from dask.array import dispatch
    from dask.array.chunk_types import is_valid_chunk_type
    from dask.sizeof import sizeof

    assert is_valid_chunk_type(gpuarr.ndarray)
    nd = gpuarr.ndarray
    assert dispatch.concatenate_lookup.dispatch(nd) is gdask._concatenate
    assert dispatch.take_lookup.dispatch(nd) is gdask._take
    assert dispatch.tensordot_lookup.dispatch(nd) is gdask._tensordot
    assert dispatch.einsum_lookup.dispatch(nd) is gdask._einsum
    assert dispatch.empty_lookup.dispatch(nd) is gdask._empty
    assert dispatch.divide_lookup.dispatch(nd) is gdask._divide
    assert dispatch.percentile_lookup.dispatch(nd) is gdask._percentile
    assert dispatch.numel_lookup.dispatch(nd) is gdask._numel
    assert dispatch.nannumel_lookup.dispatch(nd) is gdask._nannumel
    assert dispatch.to_numpy_dispatch.dispatch(nd) is gdask._gpuarr_to_numpy
    assert gdask.to_gpuarr_dispatch.dispatch(np.ndarray) is gdask._numpy_to_gpuarr
    assert sizeof.dispatch(nd) is gdask._sizeof_gpuarr
    # One table names every registration, the lazy ones too.
    from gpuarr._dask_registration import DISPATCH_TABLES
    import importlib.util
    for module_name, table, implementation in DISPATCH_TABLES:
        if module_name.startswith("distributed") and not importlib.util.find_spec("distributed"):
            continue
        dispatch_table = getattr(importlib.import_module(module_name), table)
        assert dispatch_table.dispatch(nd) is getattr(gdask, implementation), table
    # Registering twice keeps one chunk-type entry.
    from dask.array.chunk_types import _HANDLED_CHUNK_TYPES
    gdask.register()
    assert _HANDLED_CHUNK_TYPES.count(nd) == 1


def test_distributed_serializers_registered():
    pytest.importorskip("distributed", reason="distributed is not installed")
    from distributed.protocol import dask_deserialize, dask_serialize
    from distributed.protocol.cuda import cuda_deserialize, cuda_serialize

    assert dask_serialize.dispatch(gpuarr.ndarray) is gdask._host_serialize
    assert dask_deserialize.dispatch(gpuarr.ndarray) is gdask._host_deserialize
    assert cuda_serialize.dispatch(gpuarr.ndarray) is gdask._device_serialize
    assert cuda_deserialize.dispatch(gpuarr.ndarray) is gdask._device_deserialize


def test_backend_entry_point_declared_and_registered():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["entry-points"]["dask.array.backends"]["gpuarr"] == \
        "gpuarr.dask:GpuarrBackendEntrypoint"
    extra = meta["optional-dependencies"]["dask"]
    assert any(r.startswith("dask[array]") for r in extra)
    assert any(r.startswith("distributed") for r in extra)
    from dask.array.backends import array_creation_dispatch
    with dask.config.set({"array.backend": "gpuarr"}):
        assert array_creation_dispatch.backend == "gpuarr"
        assert isinstance(array_creation_dispatch.dispatch("gpuarr"),
                          gdask.GpuarrBackendEntrypoint)
        assert array_creation_dispatch.RandomState is gpuarr.random.RandomState
        assert array_creation_dispatch.default_bit_generator is gpuarr.random.Generator


def test_ufunc_override_hook_defers_to_dask():
    # The hook the ufunc binding calls after a TypeError (host-side: Dask arrays of NumPy
    # chunks need no device).
    from gpuarr import _numpy_dispatch

    h = np.linspace(0, 1, 12).reshape(3, 4)
    x = da.from_array(h, chunks=2)
    r = gpuarr.sin(x)  # through the binding and the registered hook
    assert isinstance(r, da.Array)
    np.testing.assert_allclose(r.compute(), np.sin(h))
    r = _numpy_dispatch._ufunc_override("sin", (x,), {})
    assert isinstance(r, da.Array)
    np.testing.assert_allclose(r.compute(), np.sin(h))
    r = _numpy_dispatch._ufunc_override("add", (2.0, x), {"dtype": np.float32})
    assert isinstance(r, da.Array) and r.dtype == np.float32
    np.testing.assert_allclose(r.compute(), h + 2, rtol=1e-6)
    # No foreign override: the call's own TypeError stands (host arrays stay refused).
    assert _numpy_dispatch._ufunc_override("sin", (h,), {}) is None
    assert _numpy_dispatch._ufunc_override("add", ([1.0], 2), {}) is None
    assert _numpy_dispatch._ufunc_override("_no_such_kernel", (x,), {}) is None


# --- on the GPU -------------------------------------------------------------------------

def _pair(shape=(64, 48), chunks=(16, 24), dtype=np.float64, seed=0):
    h = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return h, da.from_array(gpuarr.asarray(h), chunks=chunks, asarray=False)


@gpu_test
def test_chunks_are_gpuarr():
    h, x = _pair()
    assert isinstance(x._meta, gpuarr.ndarray)
    _close((x + 1).compute(), h + 1)


@gpu_test
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("name", ["sum", "mean", "std", "var", "min", "max"])
def test_reductions_along_axes(name, axis):
    h, x = _pair()
    _close(getattr(x, name)(axis=axis).compute(), getattr(h, name)(axis=axis), rtol=1e-9)


@gpu_test
@pytest.mark.parametrize("name", ["nanmean", "nanstd", "nanvar", "nansum"])
def test_nan_reductions_along_axes(name):
    h, _ = _pair()
    h[::5, ::3] = np.nan
    x = da.from_array(gpuarr.asarray(h), chunks=(16, 24), asarray=False)
    for axis in (None, 0, 1):
        _close(getattr(da, name)(x, axis=axis).compute(), getattr(np, name)(h, axis=axis),
               rtol=1e-9)


@gpu_test
def test_mixed_dask_and_gpuarr_operands():
    h, x = _pair()
    g = gpuarr.asarray(h[0])
    for r in (x + g, g + x, x * g, np.add(x, g)):
        assert isinstance(r, da.Array)
        expected = h * h[0] if r.name.startswith("mul") else h + h[0]
        _close(r.compute(), expected)


@gpu_test
def test_gpuarr_ufunc_given_dask_array_returns_dask_array():
    h, x = _pair()
    r = gpuarr.sin(x)
    assert isinstance(r, da.Array)
    _close(r.compute(), np.sin(h))
    r = gpuarr.add(x, 2.0)
    assert isinstance(r, da.Array)
    _close(r.compute(), h + 2.0)


def test_gpuarr_functions_given_dask_arrays_return_dask_arrays_host():
    # Dask arrays of NumPy chunks need no device: the call goes to Dask, as np.sum's would.
    h = np.linspace(0, 1, 12).reshape(3, 4)
    x = da.from_array(h, chunks=2)
    cases = [
        (gpuarr.sum(x, axis=0), h.sum(axis=0)),
        (gpuarr.mean(x, axis=1), h.mean(axis=1)),
        (gpuarr.concatenate([x, x], axis=1), np.concatenate([h, h], axis=1)),
        (gpuarr.where(x > 0.5, x, 0.0), np.where(h > 0.5, h, 0.0)),
        (gpuarr.linalg.norm(x), np.linalg.norm(h)),
        (gpuarr.transpose(x), h.T),
    ]
    for got, expected in cases:
        assert isinstance(got, da.Array)
        np.testing.assert_allclose(got.compute(), expected, rtol=1e-12)


@gpu_test
def test_gpuarr_functions_given_dask_arrays_return_dask_arrays():
    h, x = _pair()
    cases = [
        (gpuarr.sum(x, axis=0), h.sum(axis=0)),
        (gpuarr.std(x, axis=1), h.std(axis=1)),
        (gpuarr.concatenate([x, x]), np.concatenate([h, h])),
        (gpuarr.where(x > 0, x, 0.0), np.where(h > 0, h, 0.0)),
        (gpuarr.tensordot(x, x.T, axes=1), np.tensordot(h, h.T, axes=1)),
        (gpuarr.linalg.norm(x, axis=1), np.linalg.norm(h, axis=1)),
    ]
    for got, expected in cases:
        assert isinstance(got, da.Array) and isinstance(got._meta, gpuarr.ndarray)
        _close(got.compute(), expected, rtol=1e-9, atol=1e-9)


@gpu_test
def test_concatenate_take_tensordot_einsum():
    h, x = _pair()
    _close(da.concatenate([x, x], axis=0).compute(), np.concatenate([h, h], axis=0))
    _close(x[[3, 1, 40]].compute(), h[[3, 1, 40]])
    _close(da.tensordot(x, x.T, axes=1).compute(), np.tensordot(h, h.T, axes=1), rtol=1e-9)
    _close(da.einsum("ij,kj->ik", x, x).compute(), np.einsum("ij,kj->ik", h, h), rtol=1e-9)


@gpu_test
def test_percentile():
    h, x = _pair()
    v = x[:, 0].rechunk(16)
    got = da.percentile(v, [10, 50, 90]).compute()
    got = gpuarr.asnumpy(got) if isinstance(got, gpuarr.ndarray) else np.asarray(got)
    # Dask merges per-chunk percentiles: approximate, as for NumPy chunks.
    np.testing.assert_allclose(got, np.percentile(h[:, 0], [10, 50, 90]), atol=0.5)


@gpu_test
@pytest.mark.parametrize("fn", ["ones", "zeros", "empty", "full", "arange"])
def test_backend_creation(fn):
    with dask.config.set({"array.backend": "gpuarr"}):
        if fn == "full":
            x = da.full((10, 6), 2.5, chunks=(4, 3))
            expected = np.full((10, 6), 2.5)
        elif fn == "arange":
            x = da.arange(0, 20, 3, chunks=3)
            expected = np.arange(0, 20, 3)
        else:
            x = getattr(da, fn)((10, 6), chunks=(4, 3))
            expected = getattr(np, fn)((10, 6))
    assert isinstance(x._meta, gpuarr.ndarray)
    r = x.compute()
    assert isinstance(r, gpuarr.ndarray)
    if fn != "empty":
        _close(r, expected)
    assert r.shape == expected.shape and r.dtype == expected.dtype


@gpu_test
def test_backend_random():
    with dask.config.set({"array.backend": "gpuarr"}):
        x = da.random.random((1000, 50), chunks=(250, 25))
        rng = da.random.default_rng(42)
        y = rng.standard_normal((1000, 50), chunks=(250, 25))
        y2 = da.random.default_rng(42).standard_normal((1000, 50), chunks=(250, 25))
    for a in (x, y):
        assert isinstance(a._meta, gpuarr.ndarray)
    hx = gpuarr.asnumpy(x.compute())
    assert hx.shape == (1000, 50) and hx.min() >= 0 and hx.max() < 1
    assert abs(hx.mean() - 0.5) < 0.02
    hy = gpuarr.asnumpy(y.compute())
    assert abs(hy.mean()) < 0.02 and abs(hy.std() - 1) < 0.02
    np.testing.assert_array_equal(hy, gpuarr.asnumpy(y2.compute()))
    # Chunks draw different streams.
    assert not np.array_equal(hy[:250], hy[250:500])


@gpu_test
def test_to_backend_round_trip():
    h = np.arange(60.0).reshape(6, 10)
    x = da.from_array(h, chunks=(3, 5))
    g = x.to_backend("gpuarr")
    assert isinstance(g._meta, gpuarr.ndarray)
    _close(g.compute(), h)
    assert g.to_backend("gpuarr") is g
    back = g.to_backend("numpy")
    r = back.compute()
    assert type(r) is np.ndarray
    np.testing.assert_array_equal(r, h)


@gpu_test
def test_sizeof_counts_device_bytes():
    from dask.sizeof import sizeof

    a = gpuarr.zeros((256, 1024), dtype=np.float32)
    assert sizeof(a) == 256 * 1024 * 4
    assert sizeof(a[:, :512]) == 256 * 512 * 4


@gpu_test
def test_threaded_scheduler_compute():
    h, x = _pair((512, 256), (64, 64))
    r = ((x - x.mean(axis=0)) / x.std(axis=0)).sum(axis=1)
    expected = ((h - h.mean(axis=0)) / h.std(axis=0)).sum(axis=1)
    _close(r.compute(scheduler="threads", num_workers=8), expected, rtol=1e-9, atol=1e-9)
    _close((x @ x.T).compute(scheduler="threads"), h @ h.T, rtol=1e-9, atol=1e-9)


@gpu_test
@pytest.mark.parametrize("family", ["dask", "cuda"])
def test_serializers_round_trip(family):
    pytest.importorskip("distributed", reason="distributed is not installed")
    h = np.random.default_rng(3).standard_normal((33, 17)).astype(np.float32)
    a = gpuarr.asarray(h)
    from distributed.protocol import deserialize, serialize

    for src in (a, a[::2, 1:], a.T, gpuarr.asarray(np.zeros((0, 3), np.float32)),
                gpuarr.asarray(np.float64(2.5)), gpuarr.asarray(h.astype(np.complex64))):
        expected = gpuarr.asnumpy(src)
        header, frames = serialize(src, serializers=(family,), on_error="raise")
        assert header["serializer"] == family
        if family == "dask":
            # Host frames only (what crosses a TCP socket): no pickle of the array.
            assert all(not isinstance(f, gpuarr.ndarray) for f in frames)
            frames = [bytes(f) for f in frames]
        else:
            assert all(isinstance(f, gpuarr.ndarray) for f in frames)
        _close(deserialize(header, frames), expected, rtol=0, atol=0)


@gpu_test
def test_distributed_round_trip():
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    h, x = _pair((256, 128), (64, 64))
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=2,
                            dashboard_address=None) as client:
        g = client.scatter(gpuarr.asarray(h))
        back = client.submit(lambda a: a * 2, g).result()
        _close(back, h * 2)
        r = client.compute((x - x.mean(axis=0)).sum(axis=1)).result()
        _close(r, (h - h.mean(axis=0)).sum(axis=1), rtol=1e-9, atol=1e-9)
        _close(client.compute(x @ x.T).result(), h @ h.T, rtol=1e-9, atol=1e-9)


@gpu_test
def test_local_cluster_processes_round_trip():
    # Worker processes: arrays cross TCP through the "dask" serializers (the workers
    # register gpuarr.dask lazily when they first unpickle the gpuarr type).
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    h = np.random.default_rng(5).standard_normal((128, 64))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        f = client.scatter(gpuarr.asarray(h))
        _close(client.submit(lambda a: a * 2, f).result(), h * 2)
        with dask.config.set({"array.backend": "gpuarr"}):
            x = da.random.random((256, 64), chunks=(64, 32))
        x = x.persist()
        hx = gpuarr.asnumpy(client.compute(x).result())
        _close(client.compute(x.std(axis=0)).result(), hx.std(axis=0), rtol=1e-9)


@gpu_test
def test_local_cuda_cluster_workers_compute_on_their_own_gpus():
    # dask-cuda gives each worker its own GPU through CUDA_VISIBLE_DEVICES (rotated so that
    # the worker's GPU is its device 0): gpuarr's current device in each worker is that GPU.
    distributed = pytest.importorskip("distributed", reason="distributed is not installed")
    dask_cuda = pytest.importorskip("dask_cuda", reason="dask-cuda is not installed")
    if gpuarr.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs")

    def bus(device):
        return gpuarr.cuda.runtime.getDeviceProperties(device)["pciBusID"]

    def worker_device():
        import gpuarr as g
        props = g.cuda.runtime.getDeviceProperties(g.cuda.runtime.getDevice())
        return props["pciBusID"], float(g.arange(4.0).sum())

    h = np.random.default_rng(9).standard_normal((512, 256))
    with dask_cuda.LocalCUDACluster(n_workers=2, CUDA_VISIBLE_DEVICES="0,1", protocol="tcp",
                                    dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        seen = client.run(worker_device)
        assert sorted(b for b, _ in seen.values()) == sorted([bus(0), bus(1)])
        assert all(v == 6.0 for _, v in seen.values())
        x = da.from_array(gpuarr.asarray(h), chunks=(64, 128), asarray=False).persist()
        _close(client.compute((x @ x.T).sum(axis=0)).result(), (h @ h.T).sum(axis=0),
               rtol=1e-9, atol=1e-9)


@gpu_test
def test_thread_stress_mixed_operations():
    # Dask's threaded scheduler runs chunk tasks from many threads on one GPU: 16 threads x
    # 1000 operations over what they share (streams, the memory pool, the cuBLAS, cuSOLVER
    # and cuFFT handle and plan caches, the fuse JIT cache, the deferred elementwise chains,
    # the random generators), every result checked against NumPy.
    rng = np.random.default_rng(7)
    hosts = [rng.standard_normal((64, 32)) for _ in range(16)]
    errors = []
    iterations = 1000

    @gpuarr.fuse()
    def fused(x, y):
        return x * y + 1.5

    def work(i):
        try:
            h = hosts[i]
            g = gpuarr.asarray(h)
            square = g[:32] @ g[:32].T + 64 * gpuarr.eye(32)
            hsquare = h[:32] @ h[:32].T + 64 * np.eye(32)
            for k in range(iterations):
                op = (i + k) % 10
                if k % 50 == i % 50:
                    x = da.from_array(g, chunks=(16, 16), asarray=False)
                    got, expected = x.mean(axis=1).compute(scheduler="sync"), h.mean(axis=1)
                elif op == 0:
                    got, expected = gpuarr.sin(g) * 2 + 1, np.sin(h) * 2 + 1
                elif op == 1:
                    got, expected = gpuarr.sum(g, axis=0), h.sum(axis=0)
                elif op == 2:
                    got, expected = g @ g.T, h @ h.T
                elif op == 3:
                    got, expected = gpuarr.sort(g, axis=1), np.sort(h, axis=1)
                elif op == 4:
                    got, expected = fused(g, g), h * h + 1.5
                elif op == 5:
                    got, expected = gpuarr.fft.rfft(g, axis=1), np.fft.rfft(h, axis=1)
                elif op == 6:
                    got, expected = gpuarr.linalg.solve(square, g[:32]), \
                        np.linalg.solve(hsquare, h[:32])
                elif op == 7:
                    seed = 1000 * i + k
                    got = gpuarr.random.default_rng(seed).standard_normal(256)
                    expected = gpuarr.asnumpy(gpuarr.random.default_rng(seed).standard_normal(256))
                elif op == 8:
                    with gpuarr.cuda.Stream():
                        got, expected = gpuarr.cumsum(g, axis=1), np.cumsum(h, axis=1)
                else:
                    got, expected = gpuarr.argmax(g, axis=0), np.argmax(h, axis=0)
                np.testing.assert_allclose(gpuarr.asnumpy(got), expected, rtol=1e-9, atol=1e-9,
                                           err_msg=f"thread {i} iteration {k} op {op}")
        except BaseException as e:  # noqa: BLE001 - reported from the main thread
            errors.append((i, repr(e)))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=240)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors[:3]


def test_gpuarr_imported_after_dask_registers_lazily():
    # A distributed worker imports gpuarr when it unpickles a gpuarr type: the first lookup
    # of that type in Dask's or distributed's tables registers gpuarr.dask.
    pytest.importorskip("distributed", reason="distributed is not installed")
    code = """
import sys
import dask.array, dask.sizeof, distributed.protocol
import gpuarr
assert "gpuarr.dask" not in sys.modules
from distributed.protocol import dask_deserialize
f = dask_deserialize.dispatch(gpuarr.ndarray)
import gpuarr.dask as g
assert f is g._host_deserialize, f
from dask.array.chunk_types import is_valid_chunk_type
assert is_valid_chunk_type(gpuarr.ndarray)
from dask.array.dispatch import concatenate_lookup
assert concatenate_lookup.dispatch(gpuarr.ndarray) is g._concatenate
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=_subprocess_env())
    assert out.stdout.strip() == "ok", out.stderr[-2000:]
