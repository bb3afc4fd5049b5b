"""Is the seed 004 step's floor the host's per-op speed or its thread handoffs?

    python -m tools.probes.probe_step_host [rounds]

The reference host ran PyTorch's tiny `a + b` in 11.0 us and the seed's CuPy helper step in
1.46 ms; our machines run the same `a + b` in 8-12 us but that step in 1.5-2.4 ms. For CUDA
tensors the autograd engine runs backward on its own device thread, so each backward hands
work to another thread and back; a tiny op has no such handoff. This probe measures, round
by round in one process (the host's drift hits every case alike):

- PyTorch's tiny `a + b` (1 element, CUDA), the reference host's 11.0 us;
- the least backward: `(x * 2).sum().backward()` on one CUDA element, and on one CPU element
  (CPU backward runs on the calling thread), and on CUDA with the engine's device threads
  off (`torch.autograd.set_multithreading_enabled(False)`: backward on the calling thread);
- the seed 004 step with a do-nothing autograd Function, and with kth_eigvalh, as the seed
  runs it, with the engine's device threads off, and with every thread of the process
  pinned to one CPU.

None of these settings is gpuarr's to make for its users (they change PyTorch's engine or
the process's scheduling); they only say where the floor of the eager step comes from.
"""

import os
import sys

from benchmarks.interop import _zeros_function
from tools.probes.probe_rounds import interleaved_medians, print_medians, thread_ids
from tools.probes.probe_train_step import _model_and_step


def _pin_all(cpus):
    """Every thread of the process onto `cpus` (threads started later inherit the mask of
    the thread that starts them)."""
    for tid in thread_ids():
        try:
            os.sched_setaffinity(tid, cpus)
        except ProcessLookupError:
            pass                        # a thread that ended meanwhile


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    import torch

    import gpuarr.torch as gt

    sync = torch.cuda.synchronize
    all_cpus = os.sched_getaffinity(0)
    one_cpu = {min(all_cpus)}

    def default():
        torch.autograd.set_multithreading_enabled(True)
        _pin_all(all_cpus)

    def engine_threads_off():
        _pin_all(all_cpus)
        torch.autograd.set_multithreading_enabled(False)

    def pinned_to_one_cpu():
        torch.autograd.set_multithreading_enabled(True)
        _pin_all(one_cpu)

    a, b = torch.ones(1, device="cuda"), torch.ones(1, device="cuda")
    x_cuda = torch.ones(1, device="cuda", requires_grad=True)
    x_cpu = torch.ones(1, requires_grad=True)

    def tiny_add():
        a + b

    def least_backward(x):
        def run():
            (x * 2).sum().backward()
        return run

    nothing_step = _model_and_step(torch, _zeros_function(torch))[-1]
    kth_step = _model_and_step(torch, gt.kth_eigvalh)[-1]
    cases = {
        "torch a + b, 1 element (reference host: 11.0)": (tiny_add, sync, default),
        "least backward, CUDA": (least_backward(x_cuda), sync, default),
        "least backward, CPU": (least_backward(x_cpu), sync, default),
        "least backward, CUDA, engine threads off": (least_backward(x_cuda), sync,
                                                     engine_threads_off),
        "least backward, CUDA, pinned to one CPU": (least_backward(x_cuda), sync,
                                                    pinned_to_one_cpu),
        "step, do-nothing Function": (nothing_step, sync, default),
        "step, do-nothing Function, engine threads off": (nothing_step, sync,
                                                          engine_threads_off),
        "step, do-nothing Function, pinned to one CPU": (nothing_step, sync,
                                                         pinned_to_one_cpu),
        "step, kth_eigvalh": (kth_step, sync, default),
        "step, kth_eigvalh, engine threads off": (kth_step, sync, engine_threads_off),
        "step, kth_eigvalh, pinned to one CPU": (kth_step, sync, pinned_to_one_cpu),
    }
    try:
        samples = interleaved_medians(cases, rounds, calls=200, warm_calls=50)
    finally:
        default()
    print(f"{len(all_cpus)} CPUs allowed; one CPU = {sorted(one_cpu)}; "
          f"{len(thread_ids())} threads")
    print_medians(samples, width=50, digits=1)


if __name__ == "__main__":
    main()
