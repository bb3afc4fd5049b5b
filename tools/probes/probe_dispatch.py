"""Tiny-op dispatch against floors measured in the same process (`a + b` on 1-element arrays).

    python -m tools.probes.probe_dispatch [rounds]

Builds tools/probes/dispatch_floor.cu (a minimal pybind11 module: a bare launch and an
allocate + launch + free) into a temporary folder, then times, in one process and interleaved round by round
so that a slow stretch of the host hits every case alike: the floor module's calls, gpuarr's
pieces (`empty(1)`, `add(a, b, out=c)`, `a + b` through the generic and the direct operator
slots, a gpuarr.fuse call through the generic and the direct call slot), and CuPy's and
PyTorch's `a + b`. Prints the median over rounds of each case's
us/call (each round: 2000 calls then one synchronize).
"""

import gc
import os
import subprocess
import sys
import sysconfig
import tempfile

import numpy as np

from tools.probes.probe_rounds import interleaved_medians, print_medians

HERE = os.path.dirname(os.path.abspath(__file__))


def build_floor_module(folder):
    import pybind11
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    out = os.path.join(folder, "dispatch_floor" + suffix)
    cmd = ["nvcc", "-O2", "-arch=sm_90", "-std=c++17", "-shared", "-Xcompiler", "-fPIC",
           "-I" + pybind11.get_include(), "-I" + sysconfig.get_paths()["include"],
           os.path.join(HERE, "dispatch_floor.cu"), "-o", out]
    subprocess.run(cmd, check=True)
    sys.path.insert(0, folder)
    import dispatch_floor
    return dispatch_floor


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    import gpuarr as ga

    cases = {}
    with tempfile.TemporaryDirectory() as folder:
        fl = build_floor_module(folder)
        fa, fb, fo = fl.Buf(1), fl.Buf(1), fl.Buf(1)
        cases["floor: pybind11 no-op call"] = (fl.noop, fl.sync)
        cases["floor: empty kernel launch"] = (fl.launch, fl.sync)
        cases["floor: launch, 32 B of args"] = (lambda: fl.launch_small_args(fa, fb, fo), fl.sync)
        cases["floor: launch, 600 B of args"] = (lambda: fl.launch_big_args(fa, fb, fo), fl.sync)
        cases["floor: alloc+launch+object+free"] = (lambda: fl.add(fa, fb), fl.sync)
        cases["floor: same, 600 B of args"] = (lambda: fl.add_big_args(fa, fb), fl.sync)

        sync = ga.cuda.Device().synchronize
        a = ga.asarray(np.ones(1, np.float32))
        b = ga.asarray(np.ones(1, np.float32))
        c = ga.empty(1, np.float32)
        add = ga.add
        cases["gpuarr: a.ndim"] = (lambda: a.ndim, sync)
        cases["gpuarr: empty(1, float32)"] = (lambda: ga.empty(1, np.float32), sync)
        cases["gpuarr: add(a, b, out=c)"] = (lambda: add(a, b, out=c), sync)
        cases["gpuarr: add(a, b)"] = (lambda: add(a, b), sync)
        slots = ga._core._set_fast_operator_slots

        def generic():
            slots(False)

        def direct():
            slots(True)

        cases["gpuarr: a + b (generic slots)"] = (lambda: a + b, sync, generic)
        cases["gpuarr: a + b (direct slots)"] = (lambda: a + b, sync, direct)

        @ga.fuse
        def squared_diff(p, q):
            return (p - q) * (p - q)

        fusion_cls = type(squared_diff)
        x = ga.asarray(np.arange(10000, dtype=np.int64))
        y = ga.asarray(np.arange(10000, 0, -1, dtype=np.int64))
        assert (squared_diff(x, y).get() == (x.get() - y.get()) ** 2).all()
        call_slot = ga._core._install_fused_call
        cases["gpuarr: fused sqdiff 1e4 (generic call)"] = (
            lambda: squared_diff(x, y), sync, lambda: call_slot(fusion_cls, False))
        cases["gpuarr: fused sqdiff 1e4 (direct call)"] = (
            lambda: squared_diff(x, y), sync, lambda: call_slot(fusion_cls, True))
        try:
            import cupy as cp
            ca, cb = cp.ones(1, cp.float32), cp.ones(1, cp.float32)
            cases["cupy: a + b"] = (lambda: ca + cb, cp.cuda.Device().synchronize)
        except ImportError:
            pass
        try:
            import torch
            ta = torch.ones(1, dtype=torch.float32, device="cuda")
            tb = torch.ones(1, dtype=torch.float32, device="cuda")
            cases["torch: a + b"] = (lambda: ta + tb, torch.cuda.synchronize)
        except ImportError:
            pass

        gc.disable()
        try:
            samples = interleaved_medians(cases, rounds, 2000, 500)
        finally:
            gc.enable()
            slots(ga._core._fast_operator_slots)
            call_slot(fusion_cls, None)
        print_medians(samples, width=38)


if __name__ == "__main__":
    main()
