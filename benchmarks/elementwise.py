"""Group ``elementwise``: per-call overhead of a tiny ufunc and the bandwidth of a large one.

Floors (docs/decisions.md): a bare kernel launch from pybind11 costs 3.6 us on the H100,
allocate + launch + object 5.4 us; add of two 16M float32 arrays moves 192 MB, 67 us at the
measured 2856 GB/s copy bandwidth.
"""

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group

N_16M = 16 * 2**20


def _check_close(got, expected, what):
    check(np.allclose(got, expected), f"{what}: result differs from NumPy's")


TINY_ADD = Workload(
    "tiny op a + b (1-element f32), per call", key="tiny_add", kind="call",
    goal=Goal("<= 6.5 us (CuPy 16.9)", abs_max=6.5),
    note="one ufunc call on 1-element arrays: dispatch + allocation + launch + new object")


def _tiny(lib_asarray, to_host, what):
    a = lib_asarray(np.array([1.5], np.float32))
    b = lib_asarray(np.array([2.0], np.float32))
    _check_close(to_host(a + b), [3.5], what)
    return lambda: a + b


@TINY_ADD.impl("gpuarr")
def _tiny_gpuarr(ga):
    return _tiny(ga.asarray, ga.asnumpy, "gpuarr")


@TINY_ADD.impl("cupy")
def _tiny_cupy(cp):
    return _tiny(cp.asarray, cp.asnumpy, "cupy")


@TINY_ADD.impl("torch")
def _tiny_torch(torch):
    return _tiny(lambda h: torch.from_numpy(h).cuda(), lambda t: t.cpu().numpy(), "torch")


ADD_16M = Workload(
    "add of two 16M f32 arrays", key="add_16m_f32", kind="call",
    goal=Goal("<= 75 us (CuPy 112)", abs_max=75.0),
    note="c = a + b, 192 MB moved; floor 67 us")


def _add16(lib_asarray, to_host, what):
    rng = np.random.default_rng(0)
    ha = rng.random(N_16M, dtype=np.float32)
    hb = rng.random(N_16M, dtype=np.float32)
    a, b = lib_asarray(ha), lib_asarray(hb)
    got = to_host(a + b)
    check(np.array_equal(got, ha + hb), f"{what}: a + b differs from NumPy's")
    return lambda: a + b


@ADD_16M.impl("gpuarr")
def _add16_gpuarr(ga):
    return _add16(ga.asarray, ga.asnumpy, "gpuarr")


@ADD_16M.impl("cupy")
def _add16_cupy(cp):
    return _add16(cp.asarray, cp.asnumpy, "cupy")


@ADD_16M.impl("torch")
def _add16_torch(torch):
    return _add16(lambda h: torch.from_numpy(h).cuda(), lambda t: t.cpu().numpy(), "torch")


register_group("elementwise", [TINY_ADD, ADD_16M],
               "ufunc dispatch overhead and bandwidth")
