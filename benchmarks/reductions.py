"""Group ``reductions``: whole-array sum of 16M float32 and the axis-0 / axis-1 sums of a
8192x8192 float32 matrix. Floors: 64 MB read in 22 us; 256 MB read at the 2856 GB/s copy
bandwidth (the goal is 80% of it, 2285 GB/s, counting the bytes read)."""

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group

N_16M = 16 * 2**20
N_MAT = 8192


def _impl(to_dev, to_host, reduce, host, expected, rtol, what):
    d = to_dev(host)
    got = np.asarray(to_host(reduce(d)), dtype=np.float64)
    check(np.allclose(got, expected, rtol=rtol), f"{what}: result differs from NumPy's")
    return lambda: reduce(d)


def _vec():
    return np.random.default_rng(0).random(N_16M, dtype=np.float32)


def _mat():
    return np.random.default_rng(1).random((N_MAT, N_MAT), dtype=np.float32)


SUM16 = Workload("sum of 16M float32", key="sum_16m_f32", kind="call",
                 goal=Goal("<= 35 us (CuPy 62; floor 22)", abs_max=35.0),
                 note="whole-array sum, result stays on the device")


def _sum16(lib, to_dev, to_host):
    h = _vec()
    return _impl(to_dev, to_host, lambda d: lib.sum(d), h, h.astype(np.float64).sum(), 1e-4, "sum")


@SUM16.impl("gpuarr")
def _s16_gpuarr(ga):
    return _sum16(ga, ga.asarray, ga.asnumpy)


@SUM16.impl("cupy")
def _s16_cupy(cp):
    return _sum16(cp, cp.asarray, cp.asnumpy)


@SUM16.impl("torch")
def _s16_torch(torch):
    return _sum16(torch, lambda h: torch.as_tensor(h, device="cuda"), lambda t: t.cpu().numpy())


def _axis_workload(axis):
    w = Workload(f"sum over axis {axis} of 8192x8192 float32", key=f"sum_axis{axis}_8192",
                 kind="transfer", nbytes=N_MAT * N_MAT * 4,
                 goal=Goal(">= 2285 GB/s (80% of copy bandwidth)", abs_min=2285.0),
                 note="bytes read per second")

    def make(lib, to_dev, to_host):
        h = _mat()
        return _impl(to_dev, to_host, lambda d: lib.sum(d, axis), h,
                     h.astype(np.float64).sum(axis), 1e-4, f"sum axis {axis}")

    w.impl("gpuarr")(lambda ga: make(ga, ga.asarray, ga.asnumpy))
    w.impl("cupy")(lambda cp: make(cp, cp.asarray, cp.asnumpy))
    w.impl("torch")(lambda torch: make(torch, lambda h: torch.as_tensor(h, device="cuda"),
                                       lambda t: t.cpu().numpy()))
    return w


register_group("reductions", [SUM16, _axis_workload(0), _axis_workload(1)],
               "whole-array and axis reductions")
