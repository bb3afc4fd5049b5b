"""Groups ``eigen`` (batched eigvalsh/eigh) and ``eigen-large`` (eigh 4096
float64, eigvals 4096 float64; not run by default: a call takes up to ~2 s), gpuarr vs
CuPy vs PyTorch. Goals are the H100 targets in microseconds.

``python -m benchmarks.eigen`` instead runs the method sweep: every eigh method of gpuarr
(forced through the private ``_method``; "own" is the tridiagonal kernel: bisection for
eigenvalues, implicit QL + back-transform for vectors; "own_jacobi" always Jacobi) over
n x batch, the fastest per size and what "auto" chose, so that the crossover table
(kEighRules in cpp/core/eigen_plan.cpp) is set from measurement. ``--vectors`` times eigh
instead of eigvalsh, ``--dtype float64``.

``python -m benchmarks.eigen --probe`` times the eigh figures of the targets (500x100 and
seed 004's 256x45 float32, with vectors) for own / own_jacobi / xsyev_batched / syevj and
checks the own result (A V = V diag(w), V'V = I).
"""

import argparse
import sys
import time

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group


def _sym(batch, n, dtype, seed):
    rng = np.random.default_rng(seed)
    shape = (batch, n, n) if batch else (n, n)
    x = rng.standard_normal(shape)
    return (x + np.swapaxes(x, -1, -2)).astype(dtype)


def _check_values(got, a, what, rtol):
    ref = np.linalg.eigvalsh(a[:4].astype(np.float64) if a.ndim == 3 else a.astype(np.float64))
    got = np.asarray(got, dtype=np.float64)
    got = got[:4] if a.ndim == 3 else got
    scale = max(1.0, float(np.abs(ref).max()))
    check(np.allclose(got, ref, rtol=0, atol=rtol * scale), f"{what}: eigenvalues differ from NumPy's")


def _libs_impl(w, batch, n, dtype, vectors, rtol):
    """Registers the three implementations of a batched eigvalsh/eigh workload."""
    def setup(to_dev, fn, to_host):
        a = _sym(batch, n, dtype, 11)
        da = to_dev(a)
        res = fn(da)
        vals = res[0] if vectors else res
        _check_values(to_host(vals), a, w.name, rtol)
        return lambda: fn(da)

    @w.impl("gpuarr")
    def _(ga):
        f = ga.linalg.eigh if vectors else ga.linalg.eigvalsh
        return setup(ga.asarray, f, ga.asnumpy)

    @w.impl("cupy")
    def _(cp):
        f = cp.linalg.eigh if vectors else cp.linalg.eigvalsh
        return setup(cp.asarray, f, cp.asnumpy)

    @w.impl("torch")
    def _(torch):
        f = torch.linalg.eigh if vectors else torch.linalg.eigvalsh
        return setup(lambda h: torch.as_tensor(h, device="cuda"), f, lambda t: t.cpu().numpy())

    return w


def _batched(batch, n, vectors, target_us, note):
    fn = "eigh" if vectors else "eigvalsh"
    w = Workload(f"{fn} {batch}x{n}x{n} float32", key=f"{fn}_{batch}x{n}_f32", kind="call",
                 goal=Goal(f"<= {target_us / 1000:g} ms", abs_max=float(target_us)), note=note)
    return _libs_impl(w, batch, n, np.float32, vectors, 1e-3)


EIGVALSH_500x100 = _batched(500, 100, False, 1500, "XsyevBatched alone 2.14 ms")
EIGVALSH_200x45 = _batched(200, 45, False, 250, "XsyevBatched alone 0.35 ms")
EIGVALSH_200x256 = _batched(200, 256, False, 6000, "XsyevBatched alone 6.6 ms")
EIGH_500x100 = _batched(500, 100, True, 2000, "XsyevBatched with vectors 2.75 ms")
EIGH_256x45 = _batched(256, 45, True, 590, "seed 004: XsyevBatched 0.59 ms")

EIGH_4096 = _libs_impl(
    Workload("eigh 4096x4096 float64", key="eigh_4096_f64", kind="call",
             goal=Goal("<= CuPy (128 ms)", ratio_max=1.0, abs_max=128000.0),
             note="gpuarr: own reduction + GPU divide and conquer + Dormtr; CuPy: Xsyevd"),
    0, 4096, np.float64, True, 1e-8)

EIGVALS_4096 = Workload("eigvals 4096x4096 float64", key="eigvals_4096_f64", kind="call",
                        goal=Goal("<= 1.7 s", abs_max=1.7e6), note="cusolverDnXgeev")


def _eigvals_setup(to_dev, fn, to_host):
    a = np.random.default_rng(12).standard_normal((4096, 4096))
    da = to_dev(a)
    w = np.asarray(to_host(fn(da)))
    check(w.shape == (4096,), "eigvals: wrong shape")
    # trace(A) = sum of eigenvalues
    check(abs(w.sum().real - np.trace(a)) <= 1e-6 * 4096 * max(1.0, np.abs(w).max()),
          "eigvals: sum of eigenvalues differs from the trace")
    return lambda: fn(da)


@EIGVALS_4096.impl("gpuarr")
def _(ga):
    return _eigvals_setup(ga.asarray, ga.linalg.eigvals, ga.asnumpy)


@EIGVALS_4096.impl("cupy")
def _(cp):
    if not hasattr(cp.linalg, "eigvals"):
        raise RuntimeError("this CuPy has no linalg.eigvals")
    return _eigvals_setup(cp.asarray, cp.linalg.eigvals, cp.asnumpy)


@EIGVALS_4096.impl("torch")
def _(torch):
    return _eigvals_setup(lambda h: torch.as_tensor(h, device="cuda"), torch.linalg.eigvals,
                          lambda t: t.cpu().numpy())


register_group("eigen", [EIGVALSH_500x100, EIGVALSH_200x45, EIGVALSH_200x256, EIGH_500x100,
                         EIGH_256x45],
               "batched eigvalsh/eigh (own tridiagonal kernels, Jacobi, syevjBatched, XsyevBatched)")
register_group("eigen-large", [EIGH_4096, EIGVALS_4096],
               "eigh and eigvals of one 4096 float64 matrix (slow: not run by default)",
               default=False)


# ---------------------------------------------------------------- the method sweep

SWEEP_N = (8, 16, 32, 45, 64, 100, 128, 256, 512)
SWEEP_BATCH = (1, 10, 100, 1000)
METHODS = ("syevj", "xsyev_batched", "own", "own_jacobi", "syevd")
WORK_CAP = 3e10      # skip sizes with batch * n^3 above this (keeps the sweep ~60 s)
SYEVD_CAP = 2e9      # syevd is a loop over the batch: tighter cap


def _time(fn, sync, min_time=0.05, max_calls=50):
    fn()
    sync()
    calls, t0 = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        if calls >= max_calls or time.perf_counter() - t0 >= min_time:
            break
    sync()
    return (time.perf_counter() - t0) / calls * 1e6


def sweep(dtype="float32", vectors=False, out=sys.stdout):
    import gpuarr as ga
    sync = ga.cuda.Device().synchronize
    routines = ga._core._eigen_routines()
    print(f"# eigen sweep: {'eigh' if vectors else 'eigvalsh'} {dtype}, us per call; "
          f"routines {routines}", file=out)
    head = f"{'n':>5} {'batch':>6} " + " ".join(f"{m:>14}" for m in METHODS) + \
        f" {'fastest':>14} {'auto':>14} {'auto us':>10}"
    print(head, file=out)
    rows = []
    t_start = time.perf_counter()
    for n in SWEEP_N:
        for batch in SWEEP_BATCH:
            work = batch * n ** 3
            if work > WORK_CAP:
                continue
            a = ga.asarray(_sym(batch, n, dtype, n * 7 + batch))
            times = {}
            for m in METHODS:
                if m == "syevd" and work > SYEVD_CAP and batch > 1:
                    times[m] = None
                    continue
                try:
                    f = (lambda m=m: ga.linalg.eigh(a, _method=m)) if vectors else \
                        (lambda m=m: ga.linalg.eigvalsh(a, _method=m))
                    times[m] = _time(f, sync)
                except ValueError:
                    times[m] = None  # not applicable (size/dtype/availability)
            auto = ga._core._eigh_method(n, batch, np.dtype(dtype), vectors)
            f = (lambda: ga.linalg.eigh(a)) if vectors else (lambda: ga.linalg.eigvalsh(a))
            t_auto = _time(f, sync)
            ok = {m: t for m, t in times.items() if t is not None}
            best = min(ok, key=ok.get) if ok else "-"
            cells = " ".join(f"{times[m]:>14.1f}" if times[m] is not None else f"{'-':>14}"
                             for m in METHODS)
            flag = "" if best == auto else "  <- auto differs"
            print(f"{n:>5} {batch:>6} {cells} {best:>14} {auto:>14} {t_auto:>10.1f}{flag}",
                  file=out, flush=True)
            rows.append((n, batch, times, best, auto, t_auto))
            del a
    print(f"# {time.perf_counter() - t_start:.1f} s", file=out)
    return rows


PROBE_SIZES = ((500, 100), (256, 45), (1000, 32), (100, 64), (10, 100), (1, 100), (100, 128),
               (20, 190))
PROBE_METHODS = ("own", "own_jacobi", "xsyev_batched", "syevj")


def probe(dtype="float32", out=sys.stdout):
    """The targets' eigh-with-vectors figures, per method, with the own result checked."""
    import gpuarr as ga
    sync = ga.cuda.Device().synchronize
    print(f"# eigh probe {dtype} with vectors, us per call", file=out)
    print(f"{'batch':>6} {'n':>4} " + " ".join(f"{m:>14}" for m in PROBE_METHODS) +
          f" {'auto':>14} {'auto us':>9} {'own resid':>10} {'own orth':>10}", file=out)
    for batch, n in PROBE_SIZES:
        h = _sym(batch, n, dtype, 5 * n + batch)
        a = ga.asarray(h)
        times = {}
        for m in PROBE_METHODS:
            try:
                times[m] = _time(lambda m=m: ga.linalg.eigh(a, _method=m), sync)
            except ValueError:
                times[m] = None
        auto = ga._core._eigh_method(n, batch, np.dtype(dtype), True)
        t_auto = _time(lambda: ga.linalg.eigh(a), sync)
        resid = orth = float("nan")
        try:
            w, v = ga.linalg.eigh(a, _method="own")
            w, v = ga.asnumpy(w).astype(np.float64), ga.asnumpy(v).astype(np.float64)
            scale = max(1.0, float(np.abs(w).max()))
            resid = float(np.abs(h.astype(np.float64) @ v - v * w[:, None, :]).max()) / scale
            orth = float(np.abs(np.swapaxes(v, -1, -2) @ v - np.eye(n)).max())
        except ValueError:
            pass
        cells = " ".join(f"{times[m]:>14.1f}" if times[m] is not None else f"{'-':>14}"
                         for m in PROBE_METHODS)
        print(f"{batch:>6} {n:>4} {cells} {auto:>14} {t_auto:>9.1f} {resid:>10.2e} "
              f"{orth:>10.2e}", file=out, flush=True)


def _main(argv=None):
    p = argparse.ArgumentParser(prog="python -m benchmarks.eigen",
                                description="Times every gpuarr eigh method over n x batch.")
    p.add_argument("--dtype", default="float32", choices=["float32", "float64", "complex64",
                                                           "complex128"])
    p.add_argument("--vectors", action="store_true", help="eigh (default: eigvalsh)")
    p.add_argument("--probe", action="store_true",
                   help="only the targets' eigh figures per method, own result checked")
    args = p.parse_args(argv)
    if args.probe:
        probe(args.dtype if args.dtype in ("float32", "float64") else "float32")
        return 0
    sweep(args.dtype, args.vectors)
    return 0


if __name__ == "__main__":
    sys.exit(_main())
