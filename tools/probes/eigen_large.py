"""Probe: eigh / eigvalsh / eigvals 4096 float64, each cuSOLVER variant of
cpp/ops/eigen_cusolver.cu (selected by environment variables, read at each call) and CuPy's
in the same process.

    python3 -m benchmarks.eigen_large [--n 4096] [--reps 5] [--only eigh,eigvalsh,eigvals]

Variants (see eigen_cusolver.cu): GPUARR_EIGH_PREPARE=block|grid (the NaN check before
cuSOLVER), GPUARR_SYEVD_API=x|legacy, GPUARR_SYEVD_HOST=pinned; GPUARR_GEEV_HOST=pinned|pageable,
GPUARR_GEEV_VR=separate|alias. Prints the median ms per call (synchronised) and the
eigenvalue difference from the first variant."""
import argparse
import os
import time

import numpy as np

EIGH_VARIANTS = [
    ("old: X, block prepare", {"GPUARR_EIGH_PREPARE": "block", "GPUARR_SYEVD_API": "x"}),
    ("X, grid prepare (default)", {"GPUARR_EIGH_PREPARE": "grid", "GPUARR_SYEVD_API": "x"}),
    ("legacy, grid prepare", {"GPUARR_EIGH_PREPARE": "grid", "GPUARR_SYEVD_API": "legacy"}),
    ("X, grid, pinned host ws", {"GPUARR_EIGH_PREPARE": "grid", "GPUARR_SYEVD_API": "x",
                                 "GPUARR_SYEVD_HOST": "pinned"}),
]
GEEV_VARIANTS = [
    ("old: pageable host, VR alias", {"GPUARR_GEEV_HOST": "pageable", "GPUARR_GEEV_VR": "alias"}),
    ("pinned host, VR separate (default)", {"GPUARR_GEEV_HOST": "pinned", "GPUARR_GEEV_VR": "separate"}),
    ("pinned host, VR alias", {"GPUARR_GEEV_HOST": "pinned", "GPUARR_GEEV_VR": "alias"}),
    ("pageable host, VR separate", {"GPUARR_GEEV_HOST": "pageable", "GPUARR_GEEV_VR": "separate"}),
]
ALL_KEYS = {k for _, e in EIGH_VARIANTS + GEEV_VARIANTS for k in e}


def _time(fn, sync, reps):
    fn()
    sync()  # warm-up: handles, workspaces, pool
    ts = []
    for _ in range(reps):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t0)
    return 1e3 * float(np.median(ts)), 1e3 * min(ts)


def _set_env(env):
    for k in ALL_KEYS:
        os.environ.pop(k, None)
    os.environ.update(env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", default="eigh,eigvalsh,eigvals")
    args = ap.parse_args()
    only = set(args.only.split(","))
    import gpuarr

    try:
        import cupy
    except Exception:  # noqa: BLE001
        cupy = None
    n, reps = args.n, args.reps
    rng = np.random.default_rng(12)
    a = rng.standard_normal((n, n))
    s = (a + a.T) / 2
    ga, gs = gpuarr.asarray(a), gpuarr.asarray(s)
    gsync = gpuarr.cuda.Device().synchronize
    print(f"n = {n}, reps = {reps}, median / min ms per call (synchronised)")

    def run(name, variants, fn, arr, cupy_fn):
        ref = None
        for label, env in variants:
            _set_env(env)
            try:
                med, mn = _time(lambda: fn(arr), gsync, reps)
                w = np.sort_complex(gpuarr.asnumpy(fn(arr)).astype(np.complex128))
                diff = 0.0 if ref is None else float(np.abs(w - ref).max())
                ref = w if ref is None else ref
                print(f"{name:9s} gpuarr {label:36s} {med:9.2f} {mn:9.2f}   max|dw| {diff:.2e}",
                      flush=True)
            except Exception as e:  # noqa: BLE001
                print(f"{name:9s} gpuarr {label:36s} FAILED: {type(e).__name__}: {e}", flush=True)
        _set_env({})
        if cupy is not None:
            carr = cupy.asarray(gpuarr.asnumpy(arr))
            med, mn = _time(lambda: cupy_fn(carr), cupy.cuda.Device().synchronize, reps)
            print(f"{name:9s} CuPy   {'':36s} {med:9.2f} {mn:9.2f}", flush=True)

    if "eigh" in only:
        run("eigh", EIGH_VARIANTS, lambda x: gpuarr.linalg.eigh(x, _method="syevd")[0], gs,
            lambda x: cupy.linalg.eigh(x))
    if "eigvalsh" in only:
        run("eigvalsh", EIGH_VARIANTS, lambda x: gpuarr.linalg.eigvalsh(x, _method="syevd"), gs, lambda x: cupy.linalg.eigvalsh(x))
    if "eigvals" in only:
        run("eigvals", GEEV_VARIANTS, gpuarr.linalg.eigvals, ga, lambda x: cupy.linalg.eigvals(x))


if __name__ == "__main__":
    main()
