"""Seed 004's training step counted in CPU instructions and cycles, not only in wall time.

    python -m tools.probes.probe_step_counters [rounds]

The eager step is host-bound (the GPU is busy for about an eighth of it) and its wall time
drifts by +-100 us between processes on the H100 host, as much as kth_eigvalh's share of it.
The instructions a step retires do not drift with the host's load. This probe opens Linux
perf counters (perf_event_open: instructions, cycles, task clock; user and kernel) on every
thread of the process, so the autograd engine's device thread, where backward runs, is
counted too, and reports per step, as the median over interleaved rounds of 100 steps:
PyTorch's own step (the eigenvalue replaced by A[..., k, k] * 1.0), the step with
kth_eigvalh, kth_eigvalh with no kernel launched (its host work alone), a Python autograd
Function that does nothing, and the seed's CuPy helper where CuPy is installed.
Where the hardware counters cannot be opened (a virtual machine without them), only the
task clock (CPU time per thread) is reported.
"""

import ctypes
import os
import sys
import time

from benchmarks.interop import _zeros_function
from tools.probes.probe_rounds import thread_ids
from tools.probes.probe_train_step import _model_and_step, paired_rounds, print_paired

_PERF_EVENT_OPEN = 298          # x86-64
_HARDWARE, _SOFTWARE = 0, 1
_INSTRUCTIONS, _CYCLES, _TASK_CLOCK = 1, 0, 1
_EXCLUDE_HV = 1 << 6


class _PerfEventAttr(ctypes.Structure):
    # PERF_ATTR_SIZE_VER0 (64 bytes); the kernel takes the oldest layout as it is.
    _fields_ = [("type", ctypes.c_uint32), ("size", ctypes.c_uint32),
                ("config", ctypes.c_uint64), ("sample_period", ctypes.c_uint64),
                ("sample_type", ctypes.c_uint64), ("read_format", ctypes.c_uint64),
                ("flags", ctypes.c_uint64), ("wakeup_events", ctypes.c_uint32),
                ("bp_type", ctypes.c_uint32), ("config1", ctypes.c_uint64)]


_libc = ctypes.CDLL(None, use_errno=True)


def _open_counter(kind, config, tid):
    attr = _PerfEventAttr(type=kind, size=ctypes.sizeof(_PerfEventAttr), config=config,
                          flags=_EXCLUDE_HV)
    fd = _libc.syscall(_PERF_EVENT_OPEN, ctypes.byref(attr), tid, -1, -1, 0)
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"perf_event_open({kind}, {config}) for thread {tid}: "
                           f"{os.strerror(err)}")
    return fd


class ThreadCounters:
    """Counters on every thread that exists when it is built; `read()` sums them."""

    EVENTS = {"instructions": (_HARDWARE, _INSTRUCTIONS), "cycles": (_HARDWARE, _CYCLES),
              "task clock us": (_SOFTWARE, _TASK_CLOCK)}

    def __init__(self):
        self.tids = thread_ids()
        self.fds, self.unavailable = {}, {}
        for name, (kind, config) in self.EVENTS.items():
            try:
                self.fds[name] = [_open_counter(kind, config, tid) for tid in self.tids]
            except OSError as e:
                self.unavailable[name] = str(e)

    def read(self):
        totals = {}
        for name, fds in self.fds.items():
            total = sum(int.from_bytes(os.read(fd, 8), "little") for fd in fds)
            totals[name] = total / 1e3 if name == "task clock us" else total
        return totals

    def new_threads(self):
        return sorted(set(thread_ids()) - set(self.tids))


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    import torch

    import gpuarr.torch as gt

    floor = "PyTorch's own step (A[..., k, k] * 1.0)"
    cases = {
        floor: (_model_and_step(torch, lambda A, k: A[..., k, k] * 1.0)[-1], False),
        "kth_eigvalh": (_model_and_step(torch, gt.kth_eigvalh)[-1], False),
        "kth_eigvalh, no kernel launched": (_model_and_step(torch, gt.kth_eigvalh)[-1], True),
        "do-nothing autograd Function": (_model_and_step(torch, _zeros_function(torch))[-1],
                                         False),
    }
    try:
        import cupy as cp

        from benchmarks.interop import _cupy_kth
        cases["seed's CuPy helper"] = (_model_and_step(torch, _cupy_kth(torch, cp))[-1], False)
    except ImportError:
        pass
    sync, calls = torch.cuda.synchronize, 100
    counters = None

    def measure(step):
        before, t = counters.read(), time.perf_counter()
        for _ in range(calls):
            step()
        sync()
        wall = (time.perf_counter() - t) / calls * 1e6
        after = counters.read()
        return {**{k: (after[k] - before[k]) / calls for k in after}, "wall us": wall}

    # every thread the steps start exists once they have run: warm up, then open counters
    paired_rounds(cases, 0, measure)
    sync()
    counters = ThreadCounters()
    for name, why in counters.unavailable.items():
        print(f"{name}: not counted ({why})")
    samples = paired_rounds(cases, rounds, measure, warm_steps=0)
    if counters.new_threads():
        print(f"threads started after the counters opened (not counted): "
              f"{counters.new_threads()}")
    print_paired(samples, floor, f"per step, median of {rounds} interleaved rounds of {calls} "
                 f"steps, all {len(counters.tids)} threads; in brackets the median over rounds "
                 f"of the difference to PyTorch's own step")


if __name__ == "__main__":
    main()
