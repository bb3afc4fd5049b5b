"""What the host-time probes share: calls per second of wall time, and cases measured
interleaved round by round, so that a slow stretch of the host hits every case alike."""

import os
import time


def per_call(f, sync, n):
    """us per call of `n` calls of f() followed by one sync()."""
    t = time.perf_counter()
    for _ in range(n):
        f()
    sync()
    return (time.perf_counter() - t) / n * 1e6


def interleaved_medians(cases, rounds, calls, warm_calls):
    """cases: name -> (f, sync) or (f, sync, before); `before()` runs ahead of each of the
    case's batches. One warm-up round, then `rounds` rounds of `calls` calls per case.
    Returns name -> sorted samples (us per call)."""
    samples = {name: [] for name in cases}
    for r in range(rounds + 1):
        for name, case in cases.items():
            if len(case) > 2:
                case[2]()
            v = per_call(case[0], case[1], warm_calls if r == 0 else calls)
            if r:
                samples[name].append(v)
    return {name: sorted(v) for name, v in samples.items()}


def print_medians(samples, width=40, digits=2):
    rounds = len(next(iter(samples.values()), []))
    print(f"us per call, median of {rounds} interleaved rounds (min .. max):")
    for name, v in samples.items():
        print(f"  {name:{width}s} {v[len(v) // 2]:8.{digits}f}   ({v[0]:.{digits}f} .. {v[-1]:.{digits}f})")


def thread_ids():
    """The ids of this process's threads (the autograd engine's device thread included once
    a backward has run), sorted."""
    return sorted(int(t) for t in os.listdir("/proc/self/task"))
