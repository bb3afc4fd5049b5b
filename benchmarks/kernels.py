"""Group ``kernels``: seed 001's ``squared_diff`` fused (gpuarr.fuse vs cupy.fuse) and
unfused (also PyTorch eager), on 10 000 int64 (host overhead per call: the
goal is <= 6 us CPU time per call, CuPy fused measured 15.9) and on 10 000 000
int64 (device-bound). The goal "GPU time <= CuPy's" is measured directly on the
10 000-element call: each library's own ``profiler.benchmark`` (CUDA events around every
call), median GPU time of 2000 calls."""

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group

SMALL, LARGE = 10_000, 10_000_000


def _inputs(n):
    rng = np.random.default_rng(1)
    return (rng.integers(-1000, 1000, size=n, dtype=np.int64),
            rng.integers(-1000, 1000, size=n, dtype=np.int64))


def _squared_diff(x, y):
    return (x - y) * (x - y)


def _impl(n, to_dev, to_host, make):
    x, y = _inputs(n)
    dx, dy = to_dev(x), to_dev(y)
    f = make()
    got = to_host(f(dx, dy))
    check(np.array_equal(got, (x - y) * (x - y)), "squared_diff: result differs from NumPy's")
    return lambda: f(dx, dy)


def _workloads(n, label, key, goal_fused, goal_unfused):
    fused = Workload(f"squared_diff fused, {label} int64", key=f"sqdiff_fused_{key}",
                     kind="call", goal=goal_fused,
                     note="gpuarr.fuse / cupy.fuse (PyTorch left out: torch.compile's "
                          "inductor setup takes minutes)")
    unfused = Workload(f"squared_diff unfused, {label} int64", key=f"sqdiff_unfused_{key}",
                       kind="call", goal=goal_unfused, note="three eager ops")

    @fused.impl("gpuarr")
    def _(ga):
        return _impl(n, ga.asarray, ga.asnumpy, lambda: ga.fuse(_squared_diff))

    @fused.impl("cupy")
    def _(cp):
        return _impl(n, cp.asarray, cp.asnumpy, lambda: cp.fuse(_squared_diff))

    @unfused.impl("gpuarr")
    def _(ga):
        return _impl(n, ga.asarray, ga.asnumpy, lambda: _squared_diff)

    @unfused.impl("cupy")
    def _(cp):
        return _impl(n, cp.asarray, cp.asnumpy, lambda: _squared_diff)

    @unfused.impl("torch")
    def _(torch):
        return _impl(n, lambda h: torch.as_tensor(h, device="cuda"), lambda t: t.cpu().numpy(),
                     lambda: _squared_diff)

    return [fused, unfused]


FUSED_GPU_TIME = Workload(
    "squared_diff fused, 1e4 int64, GPU time per call (CUDA events)", key="sqdiff_fused_gpu_1e4",
    kind="run", goal=Goal("<= CuPy's GPU time", ratio_max=1.0),
    note="median GPU time of 2000 calls from gpuarr.profiler.benchmark / "
         "cupyx.profiler.benchmark (events around each call); value in ms")


def _median_gpu_seconds(bench, fn):
    from benchmarks.harness import Seconds

    def run():
        r = bench(fn, n_repeat=2000, n_warmup=50)
        return Seconds(float(np.median(np.asarray(r.gpu_times)[0])))
    return run


@FUSED_GPU_TIME.impl("gpuarr")
def _(ga):
    import gpuarr.profiler
    fn = _impl(SMALL, ga.asarray, ga.asnumpy, lambda: ga.fuse(_squared_diff))
    return _median_gpu_seconds(gpuarr.profiler.benchmark, fn)


@FUSED_GPU_TIME.impl("cupy")
def _(cp):
    import cupyx.profiler
    fn = _impl(SMALL, cp.asarray, cp.asnumpy, lambda: cp.fuse(_squared_diff))
    return _median_gpu_seconds(cupyx.profiler.benchmark, fn)


WORKLOADS = (
    _workloads(SMALL, "1e4", "1e4", Goal("<= 6 us CPU per call (CuPy fused 15.9)", abs_max=6.0),
               None)
    + [FUSED_GPU_TIME]
    # GPU-bound at 1e7 (both move 240 MB at copy speed): information, no goal of its own.
    + _workloads(LARGE, "1e7", "1e7", None, None)
)

register_group("kernels", WORKLOADS, "user kernels: fuse vs CuPy's fuse, fused vs unfused")
