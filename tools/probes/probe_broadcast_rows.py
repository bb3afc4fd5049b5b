"""A deferred ``a + r`` over a 4096x4096 matrix and a broadcast row (r of shape (4096,)) or
column (r of shape (4096, 1)), float32 and float64: the pending single operation (which
runs its ufunc's loop where the loop's launch takes 16-byte rows), the same layout through
the fused interpreter (``(a + r) * 1``, one operation more, the same bytes), the eager
``a + r`` (deferral off) and CuPy's, interleaved round by round. us a call, median of the
rounds, results launched and kept until the sync.

    python -m tools.probes.probe_broadcast_rows [rounds]
"""

import sys

import numpy as np

import gpuarr as ga
from tools.probes.probe_rounds import interleaved_medians

try:
    import cupy as cp
except ImportError:  # noqa: BLE001
    cp = None

M = 4096


def eager(a, r):
    old = ga._core._set_lazy_min_size(0)
    try:
        return a + r
    finally:
        ga._core._set_lazy_min_size(old)


def main(rounds=15):
    launch = ga._core._launch_pending
    keep = []
    sync_ga = ga.cuda.Device().synchronize

    def ga_case(expr):
        def f():
            r = expr()
            launch(r)
            keep.append(r)
        return f, lambda: (sync_ga(), keep.clear())

    cases = {}
    for dtype in ("float32", "float64"):
        a_np = np.random.rand(M, M).astype(dtype)
        for name, shape in (("row", (M,)), ("column", (M, 1))):
            r_np = np.random.rand(*shape).astype(dtype)
            a, r = ga.asarray(a_np), ga.asarray(r_np)
            assert np.array_equal(ga.asnumpy(a + r), a_np + r_np)
            cases[f"{dtype} + {name}: single operation"] = ga_case(lambda a=a, r=r: a + r)
            cases[f"{dtype} + {name}: interpreter"] = ga_case(lambda a=a, r=r: (a + r) * 1)
            cases[f"{dtype} + {name}: eager"] = ga_case(lambda a=a, r=r: eager(a, r))
            if cp is not None:
                ca, cr = cp.asarray(a_np), cp.asarray(r_np)
                kept = []
                cases[f"{dtype} + {name}: CuPy"] = (
                    lambda ca=ca, cr=cr, kept=kept: kept.append(ca + cr),
                    lambda kept=kept: (cp.cuda.Device().synchronize(), kept.clear()))
    medians = interleaved_medians(cases, rounds, calls=50, warm_calls=5)
    for name, v in medians.items():
        print(f"{name:40s} {v[len(v) // 2]:8.1f} us")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
