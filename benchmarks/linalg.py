"""Group ``linalg``: qr 64 and 2048 float32, det 512 float32 (warm), the first det in a
fresh process, and two inv 6000x6000 float32 on two streams; gpuarr vs CuPy vs PyTorch.
Goals are the H100 targets.

The first det in a fresh process cannot be timed by the harness's repeated calls: each
library runs once in a child process (import, context, a 512 float32 matrix on the device,
then one timed det with a sync), and the workload's callable replays that time scaled by
1/1000 (a spin of t/1000), so the table's "us/call" reads as milliseconds. Run it alone
with ``python -m benchmarks.linalg --first-det`` (also with the all-cuBLAS route and
with the cuSOLVER handle created beforehand, to show what creating it costs);
``--det-sweep`` times det with cuBLAS's batched LU vs cuSOLVER's per-matrix LU vs the
default route over sizes (GPUARR_DET_CUBLAS_MAX_N forces a route); ``--qr-compare`` times
small qr with the own one-block kernel vs cuSOLVER (GPUARR_QR_OWN_MAX_N=0);
``--inv2`` times the two-stream inv (trsm solve, early info wait) vs one info read at the
end (GPUARR_INV_EARLY_MIN_N), and one inv alone.
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
                 note="n <= 64 real: own one-block Householder kernel (Q and R in one "
                      "launch); else Xgeqrf + orgqr")

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
                  note="one matrix n >= 128: cuSOLVER Xgetrf (no sync, no info read) + "
                       "one-block diagonal/pivot kernel")


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
if lib.startswith("gpuarr"):
    import gpuarr as m
    d = m.asarray(a)
    sync = m.cuda.Device().synchronize
    det = m.linalg.det
    if lib == "gpuarr-handle-first":  # the cuSOLVER handle exists before the timed det
        sync()
        t0 = time.perf_counter()
        m.linalg.cholesky(m.eye(2, dtype=np.float32))
        sync()
        print("cuSOLVER handle + first cholesky 2x2: %.1f ms" % ((time.perf_counter() - t0) * 1e3),
              file=sys.stderr)
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


def first_det_ms(lib_name, timeout=600, extra_env=None):
    """The first det 512 float32 of a fresh process, in milliseconds. lib_name "gpuarr",
    "gpuarr-handle-first" (cuSOLVER handle created before the timer), "cupy", "torch"."""
    env = dict(os.environ, **(extra_env or {}))
    env["PYTHONPATH"] = _gpuarr_path(env)
    p = subprocess.run([sys.executable, "-c", _CHILD, lib_name], env=env, cwd=REPO_ROOT,
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise BenchmarkError(f"child process failed: {p.stderr.strip()[-500:]}")
    if p.stderr.strip():
        print("   ", p.stderr.strip().splitlines()[-1])
    return json.loads(p.stdout.strip().splitlines()[-1])["ms"]


# -- two inv 6000 on two streams --------------------------------------------------------

INV2 = Workload("two inv 6000x6000 float32 on two streams", key="inv2_6000_f32", kind="call",
                goal=Goal("<= 62 ms (CuPy 62)", ratio_max=1.0, abs_max=62000.0),
                note="Xgetrf, info read, permuted identity + two trsm; each on its own stream")


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
general = "general" in sys.argv  # uniform(-1, 1): a row interchange at most steps
for n in (8, 16, 32, 64, 128, 256, 512, 1024, 2048):
    for batch in (1, 10, 100):
        if n * n * batch > 2**26:
            continue
        a = np.random.default_rng(1).uniform(-1, 1, (batch, n, n))
        if not general:  # the benchmark's well-conditioned matrices: no interchanges
            a = (a + n * np.eye(n)) / n
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


def _child_json(code, env_extra, timeout=600, args=()):
    env = dict(os.environ, **env_extra)
    for k, v in env_extra.items():
        if v is None:
            env.pop(k)
    env["PYTHONPATH"] = _gpuarr_path(env)
    p = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=REPO_ROOT,
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-2000:])
    return json.loads(p.stdout.strip().splitlines()[-1])


def det_route_sweep():
    """det float32 (ms per call) with cuBLAS getrfBatched for every n vs cuSOLVER Xgetrf
    per matrix (GPUARR_DET_CUBLAS_MAX_N) vs the default route (core/linalg_plan), on
    well-conditioned matrices (the benchmark's) and general ones, to place the crossover by
    measurement."""
    routes = (("cuBLAS", {"GPUARR_DET_CUBLAS_MAX_N": "1000000"}),
              ("cuSOLVER", {"GPUARR_DET_CUBLAS_MAX_N": "0"}),
              ("default", {"GPUARR_DET_CUBLAS_MAX_N": None}))
    for kind in ("wellcond", "general"):
        rows = {label: _child_json(_SWEEP_CHILD, env, args=(kind,)) for label, env in routes}
        print(f"{kind} matrices, ms per det call")
        print(f"{'batch x n':>12s}" + "".join(f" {label:>9s}" for label, _ in routes))
        for key in rows["default"]:
            print(f"{key:>12s}" + "".join(f" {rows[label][key]:9.3f}" for label, _ in routes))


_QR_CHILD = r"""
import json, time
import numpy as np
import gpuarr as ga
sync = ga.cuda.Device().synchronize
out = {}
for shape, dt, mode in [((64, 64), "float32", "reduced"), ((64, 64), "float64", "reduced"),
                        ((32, 32), "float32", "reduced"), ((16, 16), "float32", "reduced"),
                        ((64, 64), "float32", "r"), ((64, 16), "float32", "complete"),
                        ((100, 64, 64), "float32", "reduced"), ((1000, 8, 8), "float32", "reduced"),
                        ((1000, 64, 64), "float64", "reduced"), ((128, 128), "float32", "reduced")]:
    a = np.random.default_rng(1).standard_normal(shape).astype(dt)
    d = ga.asarray(a)
    res = ga.linalg.qr(d, mode=mode)
    if mode != "r":
        q, r = (ga.asnumpy(v) for v in res)
        err = float(np.abs(q @ r - a).max())
        assert err < (1e-3 if dt == "float32" else 1e-10), err
    for _ in range(20):
        ga.linalg.qr(d, mode=mode)
    sync()
    reps = 200
    t0 = time.perf_counter()
    for _ in range(reps):
        ga.linalg.qr(d, mode=mode)
    sync()
    out[f"{'x'.join(map(str, shape))} {dt} {mode}"] = (time.perf_counter() - t0) / reps * 1e3
print(json.dumps(out))
"""


def qr_compare():
    """qr (ms per call, host clock over back-to-back calls) with the own one-block kernel
    (default; m, n <= 64) vs cuSOLVER geqrf + orgqr (GPUARR_QR_OWN_MAX_N=0)."""
    rows = {label: _child_json(_QR_CHILD, {"GPUARR_QR_OWN_MAX_N": v})
            for label, v in (("own", None), ("cusolver", "0"))}
    print(f"{'qr':>34s} {'own ms':>8s} {'cuSOLVER ms':>12s}")
    for key in rows["own"]:
        print(f"{key:>34s} {rows['own'][key]:8.3f} {rows['cusolver'][key]:12.3f}")


_INV2_CHILD = r"""
import json, time
import numpy as np
import gpuarr as ga
n = 6000
def wc(seed):
    return ((np.random.default_rng(seed).uniform(-1, 1, (n, n)) + n * np.eye(n)) / n).astype(np.float32)
da, db = ga.asarray(wc(30)), ga.asarray(wc(31))
s1, s2 = ga.cuda.Stream(), ga.cuda.Stream()
sync = ga.cuda.Device().synchronize
def two():
    with s1:
        x = ga.linalg.inv(da)
    with s2:
        y = ga.linalg.inv(db)
    return x, y
def one():
    return ga.linalg.inv(da)
out = {}
for name, fn in (("two inv, two streams", two), ("one inv", one)):
    fn(); sync()
    ts = []
    for _ in range(7):
        sync()
        t0 = time.perf_counter()
        r = fn()
        sync()
        ts.append((time.perf_counter() - t0) * 1e3)
        del r
    # back-to-back calls (as the harness): the pool reuses blocks across iterations
    sync()
    t0 = time.perf_counter()
    for _ in range(7):
        r = fn()
    sync()
    out[name] = (sorted(ts)[3], (time.perf_counter() - t0) / 7 * 1e3)
print(json.dumps(out))
"""


def inv2_compare():
    """Two inv 6000 float32 on two streams, and one alone (ms; one synchronised call, and
    back-to-back): the default (early info wait, inverse from a permuted identity and two
    trsm) vs one info read after everything (GPUARR_INV_EARLY_MIN_N=1000000000)."""
    for label, env in (("default", {}),
                       ("info read at the end", {"GPUARR_INV_EARLY_MIN_N": "1000000000"})):
        r = _child_json(_INV2_CHILD, env)
        for name, (med, b2b) in r.items():
            print(f"{label:>22s} {name:>22s}: synced median {med:7.2f} ms, "
                  f"back-to-back {b2b:7.2f} ms")


if __name__ == "__main__":
    if "--det-sweep" in sys.argv:
        det_route_sweep()
    if "--qr-compare" in sys.argv:
        qr_compare()
    if "--inv2" in sys.argv:
        inv2_compare()
    if "--first-det" in sys.argv:
        for name, env in (("gpuarr", None), ("gpuarr-handle-first", None),
                          ("gpuarr", {"GPUARR_DET_CUBLAS_MAX_N": "512"}),
                          ("cupy", None), ("torch", None)):
            label = name + (" (cuBLAS route)" if env else "")
            try:
                print(f"{label:28s} first det 512 f32: {first_det_ms(name, extra_env=env):10.1f} ms")
            except Exception as e:  # noqa: BLE001
                print(f"{label:28s} unavailable: {e}")
