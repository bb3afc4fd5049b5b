"""Batched eigh of small float32 matrices by method: the routing table's pick, the own QL
kernel, cuSOLVER's syevjBatched and XsyevBatched, and CuPy's eigh, interleaved round by
round (us per call, device time included: each batch of calls ends with a sync).

    python -m tools.probes.probe_small_eigh [rounds]

The question: from which batch size does the own kernel lose to the library at n <= 24
(the `{16, 1, ..., Own}` rule of `kH100EighRules`, cpp/core/routing_thresholds.cpp)?
"""

import sys

import numpy as np

from tools.probes.probe_rounds import interleaved_medians, print_medians


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    import gpuarr as ga
    try:
        import cupy as cp
    except ImportError:
        cp = None

    def sync():
        ga.cuda.Device().synchronize()
        if cp is not None:
            cp.cuda.Device().synchronize()

    rng = np.random.default_rng(0)
    for n in (12, 16, 24):
        for batch in (100, 1000, 4096):
            h = rng.standard_normal((batch, n, n)).astype(np.float32)
            h = h + h.transpose(0, 2, 1)
            g = ga.asarray(h)
            cases = {}
            for m in ("auto", "own", "syevj", "xsyev_batched"):
                cases[m] = (lambda m=m: ga.linalg.eigh(g, _method=m), sync)
            if cp is not None:
                c = cp.asarray(h)
                cases["cupy"] = (lambda: cp.linalg.eigh(c), sync)
            print(f"eigh {batch}x{n}x{n} float32")
            print_medians(interleaved_medians(cases, rounds, calls=20, warm_calls=3),
                          width=16, digits=1)


if __name__ == "__main__":
    main()
