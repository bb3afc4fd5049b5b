"""gpuarr.profiler: benchmark's timings (a clock64 spin kernel gives a lower bound of
the GPU time), its summary string, argument checks, and the NVTX context managers."""

import re

import numpy as np
import pytest

import gpuarr
from gpuarr import profiler
from conftest import gpu_test

SPIN = r'''
extern "C" __global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) { }
}
'''


def test_benchmark_argument_checks():
    with pytest.raises(ValueError):
        profiler.benchmark(1)
    with pytest.raises(ValueError):
        profiler.benchmark(lambda: None, args=[1])
    with pytest.raises(ValueError):
        profiler.benchmark(lambda: None, kwargs=())
    with pytest.raises(ValueError):
        profiler.benchmark(lambda: None, n_repeat=-1)


def test_time_range_is_usable_without_a_device():
    with profiler.time_range("outer"):
        with profiler.time_range("inner"):
            pass

    @profiler.time_range()
    def f(x):
        return x + 1
    assert f(1) == 2


@gpu_test
def test_benchmark_spin_kernel_lower_bound():
    k = gpuarr.RawKernel(SPIN, "spin")
    cycles = 2_000_000        # >= 0.66 ms at any clock up to 3 GHz
    r = profiler.benchmark(k, ((1,), (1,), (np.int64(cycles),)), n_repeat=20, n_warmup=2,
                           name="spin")
    assert r.name == "spin"
    assert r.cpu_times.shape == (20,) and r.gpu_times.shape == (1, 20)
    assert (r.gpu_times >= 0.66e-3).all()
    assert (r.gpu_times < 1.0).all() and (r.cpu_times >= 0).all()
    s = str(r)
    assert re.match(r"spin\s*:\s+CPU:\s+[\d.]+ us\s+\+/-\s*[\d.]+ \(min:\s+[\d.]+ / max:\s+[\d.]+\) us"
                    r"\s+GPU-0:\s+[\d.]+ us", s), s


@gpu_test
def test_benchmark_max_duration_and_kwargs():
    calls = []

    def f(a, b=0):
        calls.append((a, b))
        return gpuarr.ones(10) * a
    r = profiler.benchmark(f, (2,), {"b": 3}, n_repeat=1000, n_warmup=3, max_duration=0.0)
    assert r.cpu_times.shape == (1,) and r.gpu_times.shape == (1, 1)
    assert len(calls) == 4 and calls[0] == (2, 3)
    assert r.name == "f"
    assert "GPU-0" in str(r)


@gpu_test
def test_profile_context():
    with profiler.profile():
        gpuarr.ones(4).sum()
