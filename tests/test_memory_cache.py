"""The memory pool's small-block cache (blocks <= 1 MiB kept per stream after a free and
reused by the next allocation of their size class on the same stream, with no CUDA call).
Checked: data is right after reuse in stream order, blocks never cross streams, the cache
is flushed by free_all_blocks, by an out-of-memory retry, by a stream's destruction and
when switched off, and GPUARR_SMALL_BLOCK_CACHE=0 turns it off."""

import ast
import gc
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE, assert_bits_equal

pytestmark = GPU_MODULE

MiB = 2**20
_core = gpuarr._core


def info():
    return _core._small_block_cache_info()  # (enabled, bytes, blocks)


def ptr(a):
    return a.__cuda_array_interface__["data"][0]


@pytest.fixture
def cache_on():
    was = _core._set_small_block_cache(True)
    gc.collect()
    _core._flush_small_block_cache()  # start below the cache's bounds
    gc.disable()  # no collection in the middle freeing arrays of earlier tests
    try:
        yield
    finally:
        gc.enable()
        _core._set_small_block_cache(was)


def test_reuse_on_the_same_stream_returns_the_block(cache_on):
    s = gpuarr.cuda.Stream(non_blocking=True)
    with s:
        a = gpuarr.empty(1000, dtype=np.float32)
        p = ptr(a)
        del a
        assert info()[2] >= 1
        b = gpuarr.empty(999, dtype=np.float32)  # same size class
        assert ptr(b) == p
        del b
    s.synchronize()


def test_two_streams_do_not_share_blocks(cache_on):
    s1 = gpuarr.cuda.Stream(non_blocking=True)
    s2 = gpuarr.cuda.Stream(non_blocking=True)
    with s1:
        a = gpuarr.empty(4096, dtype=np.uint8)
        p = ptr(a)
        del a
    with s2:
        b = gpuarr.empty(4096, dtype=np.uint8)
        assert ptr(b) != p  # the cached block belongs to s1
    with s1:
        c = gpuarr.empty(4096, dtype=np.uint8)
        assert ptr(c) == p
    del b, c
    s1.synchronize()
    s2.synchronize()


def test_reused_blocks_keep_stream_order(cache_on, rng):
    # A kernel reading t is queued before t's block is refilled by the next allocation:
    # the refill must not overtake it.
    s = gpuarr.cuda.Stream(non_blocking=True)
    h = rng.standard_normal(50_000).astype(np.float32)  # 200 KB: cached class
    results, expect = [], []
    with s:
        for k in range(20):
            t = gpuarr.asarray(h + k)
            results.append(t * 2)
            del t
            filler = gpuarr.full(h.shape, -1.0, dtype=np.float32)  # takes t's block
            expect.append((h + k) * 2)
            del filler
    s.synchronize()
    for r, e in zip(results, expect):
        assert_bits_equal(r.get(), e)


@pytest.mark.parametrize("n", [1, 64, 257, 1000, 4097, 100_000, MiB // 4])
def test_values_after_many_reuses(cache_on, n):
    hs, ds = [], []
    for k in range(30):
        x = gpuarr.full(n, k, dtype=np.int32)
        y = x + 1
        del x  # its block goes to the cache and comes back for the next iteration
        hs.append(np.full(n, k + 1, np.int32))
        ds.append(y)
    for d, h in zip(ds, hs):
        assert_bits_equal(d.get(), h)


def test_used_bytes_exclude_cached_blocks(cache_on):
    pool = gpuarr.get_default_memory_pool()
    gc.collect()
    used = pool.used_bytes()
    a = gpuarr.empty(3000, dtype=np.uint8)
    assert pool.used_bytes() == used + 3000
    del a
    assert pool.used_bytes() == used
    assert pool.total_bytes() >= pool.used_bytes() + info()[1]
    assert pool.free_bytes() == pool.total_bytes() - pool.used_bytes()


def test_free_all_blocks_flushes(cache_on):
    a = [gpuarr.empty(1000 * (k + 1), dtype=np.uint8) for k in range(8)]
    del a
    assert info()[1] > 0
    gpuarr.get_default_memory_pool().free_all_blocks()
    assert info()[1:] == (0, 0)
    x = gpuarr.asarray(np.arange(100))
    assert_bits_equal(x.get(), np.arange(100))


def test_out_of_memory_retry_flushes_the_cache(cache_on):
    a = [gpuarr.empty(5000, dtype=np.uint8) for _ in range(4)]
    del a
    assert info()[1] > 0
    with pytest.raises(gpuarr.cuda.OutOfMemoryError):
        gpuarr.empty(2**45, dtype=np.uint8)
    assert info()[1:] == (0, 0)  # freed before the retry
    h = np.arange(1000, dtype=np.int64)
    assert_bits_equal(gpuarr.asarray(h).get(), h)


def test_limit_counts_only_used_bytes(cache_on):
    pool = gpuarr.get_default_memory_pool()
    a = [gpuarr.empty(MiB, dtype=np.uint8) for _ in range(2)]
    del a
    assert info()[1] >= 2 * MiB
    try:
        pool.set_limit(size=pool.used_bytes() + MiB + MiB // 2)
        b = gpuarr.empty(MiB, dtype=np.uint8)  # fits: the cached blocks are not in use
        with pytest.raises(gpuarr.cuda.OutOfMemoryError):
            gpuarr.empty(MiB, dtype=np.uint8)
        del b
    finally:
        pool.set_limit(size=0)


def test_stream_destruction_flushes_its_blocks(cache_on):
    gpuarr.get_default_memory_pool().free_all_blocks()
    blocks = info()[2]
    s = gpuarr.cuda.Stream(non_blocking=True)
    with s:
        a = gpuarr.empty(777, dtype=np.uint8)
        del a
    assert info()[2] == blocks + 1
    s.synchronize()
    del s
    assert info()[2] == blocks
    # A new stream (perhaps with the old handle value) starts with nothing cached.
    s2 = gpuarr.cuda.Stream(non_blocking=True)
    with s2:
        b = gpuarr.full(777, 3, dtype=np.uint8)
        # Read on s2: the fill is queued there (the legacy default stream does not wait
        # for a non-blocking stream).
        assert_bits_equal(b.get(), np.full(777, 3, np.uint8))


def test_switching_off_flushes_and_frees_later_blocks(cache_on):
    a = gpuarr.empty(2000, dtype=np.uint8)
    b = gpuarr.empty(2000, dtype=np.uint8)
    del a
    assert info()[1] > 0
    assert _core._set_small_block_cache(False) is True
    assert info() == (False, 0, 0)
    del b  # allocated in a size class, freed with the cache off: back to the pool
    assert info() == (False, 0, 0)
    c = gpuarr.full(2000, 5, dtype=np.uint8)
    assert_bits_equal(c.get(), np.full(2000, 5, np.uint8))
    _core._set_small_block_cache(True)
    del c  # allocated with the cache off (exact size): never cached
    assert info()[1:] == (0, 0)


def test_threads_on_the_same_stream(cache_on):
    errors = []

    def work(seed):
        try:
            for k in range(200):
                x = gpuarr.full(513, seed * 1000 + k, dtype=np.int64)
                y = x * 2
                del x
                if k % 50 == 0:
                    assert_bits_equal(y.get(), np.full(513, 2 * (seed * 1000 + k), np.int64))
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_env_switch():
    code = ("import gpuarr, numpy as np; a = gpuarr.empty(100, dtype=np.uint8); del a; "
            "print(tuple(gpuarr._core._small_block_cache_info()))")
    for value in ("0", "1"):
        env = dict(os.environ, GPUARR_SMALL_BLOCK_CACHE=value)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout.strip()
        enabled, nbytes, blocks = ast.literal_eval(out.splitlines()[-1])
        if value == "0":
            assert (enabled, nbytes, blocks) == (False, 0, 0), out
        else:
            assert enabled is True and nbytes >= 256 and blocks >= 1, out
