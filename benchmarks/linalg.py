"""Group ``linalg``: qr 64 and 2048 float32, det 512 float32 (warm), the first det in a
fresh process, and two inv 6000x6000 float32 on two streams; gpuarr vs CuPy vs PyTorch.
Goals are issue 4's H100 targets.

The first det in a fresh process cannot be timed by the harness's repeated calls: each
library runs once in a child process (import, context, a 512 float32 matrix on the device,
then one timed det with a sync), and the workload's callable replays that time scaled by
1/1000 (a spin of t/1000), so the table's "us/call" reads as milliseconds. Run it alone
with ``python -m benchmarks.linalg --first-det``; ``--det-sweep`` times det with cuBLAS's
batched LU vs cuSOLVER's per-matrix LU over sizes (GPUARR_DET_CUBLAS_MAX_N picks the route).
"""

import json
import os
import subprocess
import sys
import time

import numpy as np

from benchmarks.harness import REPO_ROOT, BenchmarkError, Goal, Workload, check, register_group


def _host(shape, dtype, seed):
    return np.random.default_rng(seed).uniform(-1, 1, size=shape).astype(dtype)


def _wellcond(n, seed):
    return (_host((n, n), np.float32, seed) + n * np.eye(n, dtype=np.float32)) / n


def _close(got, expected, rtol, what):
    got = np.asarray(got, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
    check(np.allclose(got, expected, rtol=rtol, atol=rtol * scale, equal_nan=True),
          f"{what}: result differs from NumPy's")


def _libs(lib):
    """(to_dev, to_host, qr, det, inv, Stream context factory) of a library module."""
    name = lib.__name__
    if name == "gpuarr":
        return (lib.asarray, lib.asnumpy, lib.linalg.qr, lib.linalg.det, lib.linalg.inv,
                lambda: lib.cuda.Stream())
    if name == "cupy":
        return (lib.asarray, lib.asnumpy, lib.linalg.qr, lib.linalg.det, lib.linalg.inv,
                lambda: lib.cuda.Stream(non_blocking=True))
    return (lambda h: lib.as_tensor(h, device="cuda"), lambda t: t.cpu().numpy(),
            lib.linalg.qr, lib.linalg.det, lib.linalg.inv,
            lambda: lib.cuda.stream(lib.cuda.Stream()))


# -- qr ---------------------------------------------------------------------------------

def _qr_workload(n, goal):
    w = Workload(f"qr {n}x{n} float32 (reduced)", key=f"qr_{n}_f32", kind="call", goal=goal,
                 note="Xgeqrf + orgqr, workspace sizes cached, no info readback")

    def impl(lib):
        to_dev, to_host, qr, *_ = _libs(lib)
        a = _host((n, n), np.float32, 10 + n)
        d = to_dev(a)
        q, r = qr(d)
        _close(to_host(q) @ to_host(r), a, 1e-3, "qr (Q @ R)")
        return lambda: qr(d)

    for lib in ("gpuarr", "cupy", "torch"):
        w.impl(lib)(impl)
    return w


QR64 = _qr_workload(64, Goal("<= 0.15 ms (CuPy 0.36)", ratio_max=0.42, abs_max=150.0))
QR2048 = _qr_workload(2048, Goal("<= 11.5 ms (CuPy 11.2)", ratio_max=1.03, abs_max=11500.0))


# -- det 512 warm ---------------------------------------------------------------------------

DET512 = Workload("det 512x512 float32 (warm)", key="det_512_f32", kind="call",
                  goal=Goal("<= 1.0 ms (CuPy 1.2)", ratio_max=0.83, abs_max=1000.0),
                  note="cuBLAS getrfBatched + one-block diagonal/pivot kernel")


def _det_impl(lib):
    to_dev, to_host, _, det, *_ = _libs(lib)
    a = _wellcond(512, 20)
    d = to_dev(a)
    _close(to_host(det(d)), np.linalg.det(a.astype(np.float64)), 1e-2, "det")
    return lambda: det(d)


for _lib in ("gpuarr", "cupy", "torch"):
    DET512.impl(_lib)(_det_impl)


# -- first det in a fresh process -------------------------------------------------------

_CHILD = r"""
import json, sys, time
import numpy as np
lib = sys.argv[1]
a = ((np.random.default_rng(20).uniform(-1, 1, (512, 512)) + 512 * np.eye(512)) / 512).astype(np.float32)
if lib == "gpuarr":
    import gpuarr as m
    d = m.asarray(a)
    sync = m.cuda.Device().synchronize
    det = m.linalg.det
elif lib == "cupy":
    import cupy as m
    d = m.asarray(a)
    sync = m.cuda.Device().synchronize
    det = m.linalg.det
else:
    import torch as m
    d = m.as_tensor(a, device="cuda")
    sync = m.cuda.synchronize
    det = m.linalg.det
sync()
t0 = time.perf_counter()
r = det(d)
sync()
t1 = time.perf_counter()
print(json.dumps({"ms": (t1 - t0) * 1e3}))
"""


def _gpuarr_path(env):
    """PYTHONPATH for a child that imports the same gpuarr as this process (an installed
    one on the GPU machine; the source tree's python/ holds no extension built there)."""
    import gpuarr
    parent = os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))
    return os.pathsep.join(p for p in (parent, env.get("PYTHONPATH")) if p)


def first_det_ms(lib_name, timeout=600):
    """The first det 512 float32 of a fresh process, in milliseconds."""
    env = dict(os.environ)
    env["PYTHONPATH"] = _gpuarr_path(env)
    p = subprocess.run([sys.executable, "-c", _CHILD, lib_name], env=env, cwd=REPO_ROOT,
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise BenchmarkError(f"child process failed: {p.stderr.strip()[-500:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])["ms"]


# -- two inv 6000 on two streams --------------------------------------------------------

INV2 = Workload("two inv 6000x6000 float32 on two streams", key="inv2_6000_f32", kind="call",
                goal=Goal("<= 62 ms (CuPy 62)", ratio_max=1.0, abs_max=62000.0),
                note="Xgetrf + Xgetrs per matrix, each on its own stream")


def _inv2_impl(lib):
    to_dev, to_host, _, _, inv, stream = _libs(lib)
    n = 6000
    a, b = _wellcond(n, 30), _wellcond(n, 31)
    da, db = to_dev(a), to_dev(b)
    s1, s2 = stream(), stream()
    got = to_host(inv(da)[:8])
    _close(got @ a, np.eye(n, dtype=np.float32)[:8], 1e-2, "inv")

    def fn():
        with s1:
            x = inv(da)
        with s2:
            y = inv(db)
        return x, y
    return fn


for _lib in ("gpuarr", "cupy", "torch"):
    INV2.impl(_lib)(_inv2_impl)


# The first det of a fresh process is the foundation group's "first linalg.det" row.
register_group("linalg", [QR64, QR2048, DET512, INV2],
               "cuSOLVER/cuBLAS factorizations: qr, det, inv on two streams")


_SWEEP_CHILD = r"""
import json, sys, time
import numpy as np
import gpuarr as ga
out = {}
sync = ga.cuda.Device().synchronize
for n in (16, 64, 128, 256, 512, 1024, 2048):
    for batch in (1, 100):
        if n * n * batch > 2**26:
            continue
        a = ((np.random.default_rng(1).uniform(-1, 1, (batch, n, n)) + n * np.eye(n)) / n)
        d = ga.asarray(a.astype(np.float32))
        ga.linalg.det(d); sync()
        reps = 20
        t0 = time.perf_counter()
        for _ in range(reps):
            ga.linalg.det(d)
        sync()
        out[f"{batch}x{n}"] = (time.perf_counter() - t0) / reps * 1e3
print(json.dumps(out))
"""


def det_route_sweep():
    """det float32 (ms per call) with cuBLAS getrfBatched for every n vs cuSOLVER Xgetrf
    per matrix (GPUARR_DET_CUBLAS_MAX_N), to place the crossover by measurement."""
    rows = {}
    for label, max_n in (("cublas", "1000000"), ("cusolver", "0")):
        env = dict(os.environ, GPUARR_DET_CUBLAS_MAX_N=max_n)
        env["PYTHONPATH"] = _gpuarr_path(env)
        p = subprocess.run([sys.executable, "-c", _SWEEP_CHILD], env=env, cwd=REPO_ROOT,
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(p.stderr[-2000:])
        rows[label] = json.loads(p.stdout.strip().splitlines()[-1])
    print(f"{'batch x n':>12s} {'cuBLAS ms':>10s} {'cuSOLVER ms':>12s}")
    for key in rows["cublas"]:
        print(f"{key:>12s} {rows['cublas'][key]:10.3f} {rows['cusolver'][key]:12.3f}")


if __name__ == "__main__":
    if "--det-sweep" in sys.argv:
        det_route_sweep()
    if "--first-det" in sys.argv:
        for name in ("gpuarr", "cupy", "torch"):
            try:
                print(f"{name:8s} first det 512 f32: {first_det_ms(name):10.1f} ms")
            except Exception as e:  # noqa: BLE001
                print(f"{name:8s} unavailable: {e}")
