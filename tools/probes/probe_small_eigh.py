"""Batched eigh (or eigvalsh) of small real matrices by method: the routing table's pick,
the own kernel, cuSOLVER's syevjBatched and XsyevBatched, and CuPy's, interleaved round by
round (us per call, device time included: each batch of calls ends with a sync).

    python -m tools.probes.probe_small_eigh [--rounds R] [--n 12,16,24]
        [--batch 100,1000,4096] [--methods auto,own,syevj,xsyev_batched] [--values]
        [--dtype float32]

The question: at which (n, batch) does the own kernel lose to the library (the `Own` rows
of `kH100EighRules`, cpp/core/routing_thresholds.cpp)? One line per shape.
"""

import argparse

import numpy as np

from tools.probes.probe_rounds import interleaved_medians


def _ints(text):
    return [int(v) for v in text.split(",")]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--n", type=_ints, default=[12, 16, 24])
    p.add_argument("--batch", type=_ints, default=[100, 1000, 4096])
    p.add_argument("--methods", default="auto,own,syevj,xsyev_batched")
    p.add_argument("--values", action="store_true", help="eigvalsh instead of eigh")
    p.add_argument("--dtype", default="float32")
    args = p.parse_args()
    import gpuarr as ga
    try:
        import cupy as cp
    except ImportError:
        cp = None

    def sync():
        ga.cuda.Device().synchronize()
        if cp is not None:
            cp.cuda.Device().synchronize()

    ours = ga.linalg.eigvalsh if args.values else ga.linalg.eigh
    methods = args.methods.split(",")
    rng = np.random.default_rng(0)
    print(f"{'eigvalsh' if args.values else 'eigh'} {args.dtype}, us per call, median of "
          f"{args.rounds} interleaved rounds")
    print(f"{'n':>4s} {'batch':>6s}" + "".join(f" {m:>13s}" for m in methods)
          + ("        cupy" if cp is not None else ""))
    for n in args.n:
        for batch in args.batch:
            h = rng.standard_normal((batch, n, n)).astype(args.dtype)
            h = h + h.transpose(0, 2, 1)
            g = ga.asarray(h)
            cases = {m: (lambda m=m: ours(g, _method=m), sync) for m in methods}
            if cp is not None:
                c = cp.asarray(h)
                theirs = cp.linalg.eigvalsh if args.values else cp.linalg.eigh
                cases["cupy"] = (lambda: theirs(c), sync)
            med = {k: v[len(v) // 2]
                   for k, v in interleaved_medians(cases, args.rounds, calls=20,
                                                   warm_calls=3).items()}
            print(f"{n:4d} {batch:6d}" + "".join(f" {med[k]:13.1f}" for k in cases), flush=True)


if __name__ == "__main__":
    main()
