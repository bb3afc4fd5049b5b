"""Where the DLPack round trip torch -> gpuarr -> torch (the interop group's row) spends its
host time, step by step, against CuPy's, interleaved round by round.

    python -m tools.probes.probe_dlpack_roundtrip [rounds]

Every figure is host time per call (a 1000-element float32 tensor: no device work):
PyTorch's export alone (`t.__dlpack__` with the stream a consumer on the legacy default
stream passes), the library's import of that capsule, the library's whole `from_dlpack`,
its export (`__dlpack__` as `torch.from_dlpack` calls it), `torch.from_dlpack` of the
library's array, and the whole round trip; then `__dlpack_device__` alone, which
`from_dlpack` asks first.
"""

import sys

from tools.probes.probe_rounds import interleaved_medians, print_medians


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    import torch

    import gpuarr as ga
    from gpuarr import _core

    try:
        import cupy as cp
    except ImportError:
        cp = None

    t = torch.arange(1000, dtype=torch.float32, device="cuda")
    sync = torch.cuda.synchronize
    cases = {
        "torch t.__dlpack__(stream=1, max_version)":
            (lambda: t.__dlpack__(stream=1, max_version=(1, 0)), sync),
        "torch t.__dlpack_device__()": (lambda: t.__dlpack_device__(), sync),
    }
    a = ga.from_dlpack(t)
    cases["gpuarr import of a fresh capsule"] = (
        lambda: _core._dlpack_import_capsule(t.__dlpack__(stream=1, max_version=(1, 0))), sync)
    cases["gpuarr from_dlpack(t)"] = (lambda: ga.from_dlpack(t), sync)
    cases["gpuarr a.__dlpack__(stream=1, max_version)"] = (
        lambda: a.__dlpack__(stream=1, max_version=(1, 0)), sync)
    cases["torch.from_dlpack(gpuarr array)"] = (lambda: torch.from_dlpack(a), sync)
    cases["gpuarr round trip"] = (lambda: torch.from_dlpack(ga.from_dlpack(t)), sync)
    if cp is not None:
        c = cp.from_dlpack(t)
        cases["cupy from_dlpack(t)"] = (lambda: cp.from_dlpack(t), sync)
        cases["cupy c.__dlpack__(stream=1, max_version)"] = (
            lambda: c.__dlpack__(stream=1, max_version=(1, 0)), sync)
        cases["torch.from_dlpack(cupy array)"] = (lambda: torch.from_dlpack(c), sync)
        cases["cupy round trip"] = (lambda: torch.from_dlpack(cp.from_dlpack(t)), sync)
    samples = interleaved_medians(cases, rounds, calls=2000, warm_calls=200)
    print_medians(samples, width=46)


if __name__ == "__main__":
    main()
