"""First-call compile time of generated kernels: what NVRTC spends on the source that
``gpuarr.fuse`` / ``ElementwiseKernel`` generate, compiled as the JIT compiles it (same
entry point and options, no cache involved, so every compile is cold). NVRTC needs no
GPU: this runs on any machine with the toolkit's NVRTC.

    PYTHONPATH=python python -m tools.probes.probe_fuse_compile [repeats]

Prints, per kernel, the first compile in the process (NVRTC's own start-up included for
the first row), then the median and least wall time of the following ones and their median
CPU time (NVRTC is single-threaded: CPU time is what a loaded machine distorts least), in
milliseconds.
"""

import statistics
import sys
import time

import numpy as np

import gpuarr
from gpuarr import _core, _fusion, _kernels

ARCH = "-arch=sm_90"


@gpuarr.fuse
def sqdiff(a, b):  # the README's example
    return (a - b) * (a - b)


@gpuarr.fuse
def sqrt_exp_where(x, y):
    return gpuarr.where(x > y, gpuarr.sqrt(gpuarr.absolute(x)), gpuarr.exp(-y) * 0.5)


@gpuarr.fuse
def many_ufuncs(x, y):
    return (gpuarr.logaddexp(x, y) + gpuarr.hypot(x, y) - gpuarr.arctan2(x, y)
            + gpuarr.maximum(x, y) + x // y + x % y)


@gpuarr.fuse
def sum_sq(x, y):
    return gpuarr.sum((x - y) * (x - y))


def _fused(f, specs):
    return f.trace(specs)[1], list(_fusion.FUSE_OPTIONS)


def _complex_elementwise():
    k = _kernels.ElementwiseKernel("T x, T y", "T z", "z = x * y + x", "cmul")
    params = k.in_params + k.out_params
    dt = np.dtype(np.complex64)
    return _kernels.elementwise_source("cmul", params, "aao", [dt] * 3, k.operation), []


CASES = [
    ("fuse sqdiff int64", lambda: _fused(sqdiff, [("int64", 1), ("int64", 1)])),
    ("fuse sqdiff float32", lambda: _fused(sqdiff, [("float32", 1), ("float32", 1)])),
    ("fuse sqrt/exp/where float32", lambda: _fused(sqrt_exp_where, [("float32", 2), ("float32", 2)])),
    ("fuse sqrt/exp/where float16", lambda: _fused(sqrt_exp_where, [("float16", 1), ("float16", 1)])),
    ("fuse 7 ufuncs float64", lambda: _fused(many_ufuncs, [("float64", 1), ("float64", 1)])),
    ("fuse sum of squares float32", lambda: _fused(sum_sq, [("float32", 1), ("float32", 1)])),
    ("ElementwiseKernel complex64", _complex_elementwise),
]


def main(repeats=5):
    print("NVRTC %d.%d, options %s + each case's own" % (
        _core._nvrtc_version() // 1000, _core._nvrtc_version() % 1000 // 10, ARCH))
    print("%-32s %9s %9s %9s %9s" % ("kernel", "first", "median", "least", "cpu"))
    for name, make in CASES:
        src, opts = make()
        wall, cpu = [], []
        for _ in range(repeats + 1):
            t0, c0 = time.perf_counter(), time.process_time()
            _core._jit_check_compile(src, [ARCH] + opts)
            wall.append((time.perf_counter() - t0) * 1e3)
            cpu.append((time.process_time() - c0) * 1e3)
        print("%-32s %9.1f %9.1f %9.1f %9.1f" % (name, wall[0], statistics.median(wall[1:]),
                                                min(wall[1:]), statistics.median(cpu[1:])))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
