"""Where the seed 002 float32 distance matrix spends its time (docs/decisions.md).

    python -m tools.probes.probe_distance

Times (ms, median of 15, events on the current stream) of each step of
sqrt(qq[:, None] - 2 * (q @ p.T) + pp) on 10000x784 float32: the two row norms, the GEMM,
each elementwise pass, and the whole expression; with CuPy and PyTorch's GEMM for
reference. The floor of one elementwise pass over the 400 MB result is 0.28 ms (read +
write at 2.86 TB/s).
"""

import numpy as np


def timed(fn, n=15):
    import gpuarr as ga
    fn()
    start, stop = ga.cuda.Event(), ga.cuda.Event()
    times = []
    for _ in range(n):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(ga.cuda.get_elapsed_time(start, stop))
    return float(np.median(times))


def main():
    import gpuarr as ga  # here, so that the runner can list groups without gpuarr
    rng = np.random.default_rng(5)
    q = ga.asarray(rng.uniform(-1, 1, (10_000, 784)).astype(np.float32))
    p = ga.asarray(rng.uniform(-1, 1, (10_000, 784)).astype(np.float32))
    qq = ga.einsum("ij,ij->i", q, q)
    pp = ga.einsum("ij,ij->i", p, p)
    g = q @ p.T
    g2 = 2 * g
    d = qq[:, None] - g2
    e = d + pp
    rows = [
        ("einsum row norm (qq)", lambda: ga.einsum("ij,ij->i", q, q)),
        ("GEMM q @ p.T", lambda: q @ p.T),
        ("2 * G", lambda: 2 * g),
        ("qq[:, None] - G2", lambda: qq[:, None] - g2),
        ("D + pp", lambda: d + pp),
        ("sqrt(E)", lambda: ga.sqrt(e)),
        ("G + G (contiguous, no broadcast)", lambda: g + g2),
        ("whole expression", lambda: ga.sqrt(qq[:, None] - 2 * (q @ p.T) + pp)),
    ]
    for name, fn in rows:
        print(f"{name:40s} {timed(fn):8.3f} ms")
    try:
        import cupy as cp
        cq, cpp_ = cp.asarray(ga.asnumpy(q)), cp.asarray(ga.asnumpy(p))
        s, t = cp.cuda.Event(), cp.cuda.Event()
        ts = []
        for _ in range(15):
            s.record(); cq @ cpp_.T; t.record(); t.synchronize()
            ts.append(cp.cuda.get_elapsed_time(s, t))
        print(f"{'CuPy GEMM q @ p.T':40s} {np.median(ts):8.3f} ms")
    except ImportError:
        pass
    try:
        import torch
        tq = torch.as_tensor(ga.asnumpy(q), device="cuda")
        tp = torch.as_tensor(ga.asnumpy(p), device="cuda")
        s, t = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        ts = []
        for _ in range(15):
            s.record(); tq @ tp.T; t.record(); t.synchronize()
            ts.append(s.elapsed_time(t))
        print(f"{'PyTorch GEMM q @ p.T':40s} {np.median(ts):8.3f} ms")
    except ImportError:
        pass


if __name__ == "__main__":
    main()
