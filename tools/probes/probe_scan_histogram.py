"""Scans and histogram against CuPy: do the device-wide scan of few long rows and the
privatised histogram close their holes, and does the block-per-row scan keep its lead?

    python -m tools.probes.probe_scan_histogram [rounds]

Per case, gpuarr and CuPy (when importable) timed interleaved round by round in one
process: each timing runs the op `reps` times keeping every result alive, synchronises the
device, then stops the clock (wall time per call, ms, median over the rounds). The floor
column is the bytes read and written over 2856 GB/s (the H100's measured copy bandwidth).
"""

import sys
import time

import numpy as np

BANDWIDTH = 2856e9  # bytes/s


def _cases(rng):
    n16 = 1 << 24
    f32 = rng.standard_normal(n16).astype(np.float32)
    return [
        # name, op name, host input, kwargs, bytes moved
        ("cumsum 16M float32 1-d", "cumsum", f32, {}, n16 * 8),
        ("cumsum 16M float64 1-d", "cumsum", f32.astype(np.float64), {}, n16 * 16),
        ("cumsum 16M int64 1-d", "cumsum", rng.integers(-100, 100, n16), {}, n16 * 16),
        ("cumprod 1M float64 1-d", "cumprod",
         np.exp(rng.standard_normal(1 << 20) * 1e-3), {}, (1 << 20) * 16),
        ("cumsum 4096x4096 float32 axis=1", "cumsum",
         rng.standard_normal((4096, 4096)).astype(np.float32), {"axis": 1}, n16 * 8),
        ("cumsum (2, 8M) float32 axis=1", "cumsum", f32.reshape(2, -1), {"axis": 1}, n16 * 8),
        ("histogram 16M float32 256 bins", "histogram", f32, {"bins": 256}, n16 * 4),
        ("histogram 16M float32 256 bins, range", "histogram", f32,
         {"bins": 256, "range": (-4.0, 4.0)}, n16 * 4),
        ("histogram 16M float32 weighted", "histogram", f32,
         {"bins": 256, "range": (-4.0, 4.0), "weights": True}, n16 * 12),
    ]


def _expected(op, h, kw, weights):
    args = {k: v for k, v in kw.items() if k != "weights"}
    if op == "histogram":
        return np.histogram(h, weights=weights, **args)[0]
    wide = np.float64 if h.dtype.kind == "f" else h.dtype
    return getattr(np, op)(h.astype(wide), **args)


def _check(lib_name, case, got, expected, h):
    """The same answer as NumPy first (a warning otherwise): counts exactly, float sums to
    their scale."""
    if got.dtype.kind in "iu":
        ok = np.array_equal(got, expected)
    elif "cumprod" in case:
        ok = np.allclose(got, expected, rtol=1e-9, atol=0)
    else:
        axis = 1 if h.ndim == 2 else None
        scale = np.cumsum(np.abs(h.astype(np.float64)), axis=axis) if "cumsum" in case else 1.0
        ok = bool((np.abs(got - expected) <= 1e-4 * scale + 1e-6).all())
    if not ok:
        print(f"WARNING {lib_name}: {case} differs from NumPy")


def _timer(sync, fn, reps):
    def run():
        keep = []
        t0 = time.perf_counter()
        for _ in range(reps):
            keep.append(fn())
        sync()
        t = (time.perf_counter() - t0) / reps * 1e3
        del keep
        return t
    return run


def main(rounds=15):
    import gpuarr as ga  # here, so that the runner can list probes without gpuarr
    try:
        import cupy as cp
    except ImportError:
        cp = None
    rng = np.random.default_rng(29)
    rows = []
    for name, op, h, kw, nbytes in _cases(rng):
        libs = [("gpuarr", ga, ga.cuda.runtime.deviceSynchronize)]
        if cp is not None:
            libs.append(("cupy", cp, cp.cuda.runtime.deviceSynchronize))
        weights = np.abs(h).astype(np.float64) if kw.get("weights") else None
        expected = _expected(op, h, kw, weights)
        timers = []
        for lib_name, lib, sync in libs:
            x = lib.asarray(h)
            args = dict(kw)
            if weights is not None:
                args["weights"] = lib.asarray(weights)
            fn = (lambda lib=lib, x=x, args=args: getattr(lib, op)(x, **args))
            got = fn()
            got = got[0] if op == "histogram" else got
            _check(lib_name, name, ga.asnumpy(got) if lib is ga else cp.asnumpy(got), expected, h)
            run = _timer(sync, fn, reps=20)
            run()  # warm
            timers.append(run)
        times = [[] for _ in libs]
        for _ in range(rounds):
            for i, run in enumerate(timers):
                times[i].append(run())
        med = [float(np.median(t)) for t in times]
        rows.append((name, med, nbytes / BANDWIDTH * 1e3))
    head = f"{'case':40s} {'gpuarr ms':>10s}" + (f" {'CuPy ms':>10s} {'ratio':>7s}" if cp else "")
    print(head + f" {'floor ms':>9s}")
    for name, med, floor in rows:
        line = f"{name:40s} {med[0]:10.3f}"
        if cp is not None:
            line += f" {med[1]:10.3f} {med[0] / med[1]:7.2f}"
        print(line + f" {floor:9.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
