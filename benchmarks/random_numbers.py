"""Group ``random``: filling 8192x8192 arrays with random numbers, gpuarr vs CuPy vs PyTorch,
as GB/s of output written. The target is 80% of the H100's write bandwidth: a
device-to-device copy moves 2856 GB/s (read + write), so a pure write should reach about the same
rate; 80% of it is 2285 GB/s."""

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group

N = 8192
WRITE_GBPS = 2856.0
TARGET = 0.8 * WRITE_GBPS


def _check_uniform(h, what):
    check(h.shape == (N, N), f"{what}: shape {h.shape}")
    check(float(h.min()) >= 0.0 and float(h.max()) < 1.0, f"{what}: values outside [0, 1)")
    check(abs(float(h.mean()) - 0.5) < 1e-3, f"{what}: mean {float(h.mean())} is not 0.5")


def _check_normal(h, what):
    check(h.shape == (N, N), f"{what}: shape {h.shape}")
    h = h.astype(np.float64)
    check(abs(float(h.mean())) < 1e-3 and abs(float(h.std()) - 1.0) < 1e-3,
          f"{what}: mean {float(h.mean())} std {float(h.std())} are not 0, 1")


_NOTE = (f"GB/s of output written by back-to-back calls (the generator's rate); target 80% of "
         f"{WRITE_GBPS:g} GB/s (device copy)")

def _fill_workload(w, check_values, dtype, ga_method, cp_method, torch_fn):
    """Registers the three fills of an (N, N) ``dtype`` array for ``w``: each library's
    generator seeded with 0 (CuPy: the legacy RandomState, cuRAND), one result checked by
    ``check_values``, then the same call timed."""

    @w.impl("gpuarr")
    def _(ga):
        fill = getattr(ga.random.default_rng(0), ga_method)
        check_values(ga.asnumpy(fill((N, N), dtype=dtype)), "gpuarr")
        return lambda: fill((N, N), dtype=dtype)

    @w.impl("cupy")
    def _(cp):
        fill = getattr(cp.random.RandomState(0), cp_method)
        check_values(cp.asnumpy(fill((N, N), dtype=dtype)), "cupy")
        return lambda: fill((N, N), dtype=dtype)

    @w.impl("torch")
    def _(torch):
        gen = torch.Generator(device="cuda").manual_seed(0)
        fill, tdtype = getattr(torch, torch_fn), getattr(torch, np.dtype(dtype).name)
        f = lambda: fill((N, N), dtype=tdtype, device="cuda", generator=gen)  # noqa: E731
        check_values(f().cpu().numpy(), "torch")
        return f

    return w


RANDOM64 = _fill_workload(
    Workload("random((8192, 8192)) float64", key="random_8192_f64", kind="throughput",
             nbytes=N * N * 8, goal=Goal(f">= {TARGET:.0f} GB/s", abs_min=TARGET),
             note=_NOTE + "; CuPy: legacy random_sample (cuRAND), PyTorch: rand"),
    _check_uniform, np.float64, "random", "random_sample", "rand")

NORMAL32 = _fill_workload(
    Workload("standard_normal((8192, 8192)) float32", key="normal_8192_f32",
             kind="throughput", nbytes=N * N * 4,
             goal=Goal(f">= {TARGET:.0f} GB/s", abs_min=TARGET),
             note=_NOTE + "; CuPy: legacy standard_normal (cuRAND), PyTorch: randn"),
    _check_normal, np.float32, "standard_normal", "standard_normal", "randn")


def _synchronised_twin(w):
    """The same workload timed one synchronised call at a time (launch and wait latency
    included in each sample); no goal: the goal row measures the generator's rate."""
    twin = w.only(*w.impls)
    twin.name, twin.key = w.name + ", one synchronised call", w.key + "_synced"
    twin.kind, twin.goal = "transfer", None
    twin.note = "each sample: sync, one call, sync (~20 us of fixed latency per sample)"
    return twin


register_group("random", [RANDOM64, NORMAL32, _synchronised_twin(RANDOM64),
                          _synchronised_twin(NORMAL32)],
               "random((8192,8192)) f64 and standard_normal f32, GB/s of output written")
