"""Breakdown of gpuarr's small-transfer latency (docs/decisions.md).

    python -m tools.probes.probe_latency        # runs each readback-wait variant in a fresh process

Times (us/call, median of 7 batches) of ga.empty(1), ga.asarray of 1 and 512 float64,
d.item(), and create + read back, with the readback spin on (GPUARR_READBACK_SPIN_US=50,
the default) and off (0: cudaStreamSynchronize only); CuPy's create + read back and
asarray 4 KB in the first process for reference. Not a registered group: the variants
need fresh processes because gpuarr reads its settings once.

Then the small-op dispatch figures with the pool's small-block cache on and off
(GPUARR_SMALL_BLOCK_CACHE=1/0) and the direct operator / fused-call slots on and off
(GPUARR_FAST_OPERATOR_SLOTS=1/0), one fresh process each (off/off: neither): tiny ``a + b`` (1-element
float32), ``x + y`` (10000 int64), fused squared_diff (gpuarr.fuse, 10000 int64) and
asarray(1).item(), in us/call of wall time and of process CPU time.

    python -m tools.probes.probe_latency dispatch   # only the cache on/off comparison
"""

import gc
import os
import subprocess
import sys
import time

import numpy as np


def per_call(f, sync, n=2000, clock=time.perf_counter):
    for _ in range(300):
        f()
    times = []
    gc.disable()
    try:
        for _ in range(7):
            t = clock()
            for _ in range(n):
                f()
            sync()
            times.append((clock() - t) / n * 1e6)
    finally:
        gc.enable()
    return sorted(times)[3]


def measure_dispatch():
    import gpuarr as ga

    sync = ga.cuda.Device().synchronize
    rng = np.random.default_rng(0)
    a = ga.asarray(np.ones(1, np.float32))
    b = ga.asarray(np.ones(1, np.float32))
    x = ga.asarray(rng.integers(-1000, 1000, 10000))
    y = ga.asarray(rng.integers(-1000, 1000, 10000))

    @ga.fuse
    def squared_diff(p, q):
        return (p - q) * (p - q)

    h1 = np.ones(1)
    cases = {
        "tiny a+b": lambda: a + b,
        "x+y 1e4 int64": lambda: x + y,
        "fused sqdiff 1e4 int64": lambda: squared_diff(x, y),
        "asarray(1)+item": lambda: ga.asarray(h1).item(),
    }
    assert (squared_diff(x, y).get() == (x.get() - y.get()) ** 2).all()
    enabled, _, _ = ga._core._small_block_cache_info()
    label = "cache %-3s slots %-3s" % ("on" if enabled else "off",
                                       "on" if ga._core._fast_operator_slots else "off")
    parts = []
    for name, f in cases.items():
        wall = per_call(f, sync)
        cpu = per_call(f, sync, clock=time.process_time)
        parts.append(f"{name} {wall:.2f} (cpu {cpu:.2f})")
    print(label + " us/call:  " + "  ".join(parts), flush=True)


def run_dispatch_variants():
    # (small-block cache, direct operator/fuse call slots): the last row has both off.
    for cache, slots in [("1", "1"), ("0", "1"), ("1", "0"), ("0", "0")]:
        env = dict(os.environ, GPUARR_SMALL_BLOCK_CACHE=cache, GPUARR_FAST_OPERATOR_SLOTS=slots)
        subprocess.run([sys.executable, "-m", "tools.probes.probe_latency", "dispatch-one"],
                       env=env, check=True)


def measure(with_cupy):
    import gpuarr as ga

    sync = ga.cuda.Device().synchronize
    h1, h4k = np.ones(1), np.random.default_rng(0).random(512)
    d = ga.asarray(h1)
    row = {
        "empty(1)": per_call(lambda: ga.empty(1), sync),
        "asarray(1)": per_call(lambda: ga.asarray(h1), sync),
        "item()": per_call(lambda: d.item(), sync),
        "create+read": per_call(lambda: ga.asarray(h1).item(), sync),
        "asarray 4KB": per_call(lambda: ga.asarray(h4k), sync),
    }
    if with_cupy:
        try:
            import cupy as cp
        except ImportError:
            pass
        else:
            csync = cp.cuda.Device().synchronize
            row["CuPy create+read"] = per_call(lambda: cp.asarray(h1).item(), csync)
            row["CuPy asarray 4KB"] = per_call(lambda: cp.asarray(h4k), csync)
    spin = os.environ.get("GPUARR_READBACK_SPIN_US", "50")
    print(f"spin={spin:>3} us  " + "  ".join(f"{k} {v:.2f}" for k, v in row.items()), flush=True)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "dispatch-one":
        measure_dispatch()
        return
    if len(sys.argv) > 1 and sys.argv[1] != "dispatch":
        measure(sys.argv[1] == "cupy")
        return
    import gpuarr as ga

    if not ga.cuda.is_available():
        print("no CUDA device is available; nothing to probe")
        return
    if len(sys.argv) > 1:  # "dispatch"
        run_dispatch_variants()
        return
    for i, spin in enumerate(["50", "0"]):
        env = dict(os.environ, GPUARR_READBACK_SPIN_US=spin)
        subprocess.run([sys.executable, "-m", "tools.probes.probe_latency", "cupy" if i == 0 else "-"],
                       env=env, check=True)
    run_dispatch_variants()


if __name__ == "__main__":
    main()
