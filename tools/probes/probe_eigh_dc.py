"""Where does eigh's divide-and-conquer path ("dc": own tridiagonal reduction,
GPU divide and conquer, cusolverDnDormtr) overtake cusolverDnXsyevd ("syevd") for one float64
matrix with eigenvectors? Sets the dc row of the H100 eigh table (core/routing_thresholds.cpp). Also times CuPy's eigh
(Xsyevd) and the eigenvalues' agreement between the two paths, on random symmetric matrices
and on a matrix with clustered spectrum:

    python -m tools.probes.probe_eigh_dc [n ...]
"""
import sys
import time

import numpy as np


def main():
    import gpuarr

    sizes = [int(x) for x in sys.argv[1:]] or [1024, 2048, 2560, 3072, 3584, 4096, 6144]
    try:
        import cupy as cp
    except ImportError:
        cp = None

    def best_ms(f, reps):
        f()
        gpuarr.cuda.runtime.deviceSynchronize()
        t = []
        for _ in range(reps):
            t0 = time.perf_counter()
            f()
            gpuarr.cuda.runtime.deviceSynchronize()
            t.append(time.perf_counter() - t0)
        return 1e3 * min(t), 1e3 * float(np.median(t))

    print(f"{'n':>6} {'spectrum':>9} {'dc min/med ms':>16} {'syevd min/med ms':>18} "
          f"{'cupy min/med ms':>17} {'max|w_dc-w_syevd|/|w|':>22}")
    for n in sizes:
        rng = np.random.default_rng(n)
        for kind in ("random", "clusters"):
            if kind == "random":
                a = rng.standard_normal((n, n))
                a = (a + a.T) / 2
            else:
                q, _ = np.linalg.qr(rng.standard_normal((n, n)))
                d = np.repeat(rng.standard_normal(8), n // 8 + 1)[:n] + 1e-10 * rng.standard_normal(n)
                a = (q * d) @ q.T
                a = (a + a.T) / 2
            g = gpuarr.asarray(a)
            reps = 5 if n <= 4096 else 3
            dc = best_ms(lambda: gpuarr.linalg.eigh(g, _method="dc"), reps)
            sy = best_ms(lambda: gpuarr.linalg.eigh(g, _method="syevd"), reps)
            w1 = gpuarr.asnumpy(gpuarr.linalg.eigh(g, _method="dc")[0])
            w2 = gpuarr.asnumpy(gpuarr.linalg.eigh(g, _method="syevd")[0])
            err = np.abs(w1 - w2).max() / np.abs(w2).max()
            cps = "-"
            if cp is not None and kind == "random":
                c = cp.asarray(a)

                def f():
                    cp.linalg.eigh(c)
                    cp.cuda.runtime.deviceSynchronize()

                f()
                t = []
                for _ in range(reps):
                    t0 = time.perf_counter()
                    f()
                    t.append(time.perf_counter() - t0)
                cps = f"{1e3 * min(t):7.2f}/{1e3 * float(np.median(t)):7.2f}"
            print(f"{n:6d} {kind:>9} {dc[0]:7.2f}/{dc[1]:7.2f} {sy[0]:8.2f}/{sy[1]:8.2f} "
                  f"{cps:>17} {err:22.2e}", flush=True)


if __name__ == "__main__":
    main()
