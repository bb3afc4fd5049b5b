"""Group ``foundation``: per-call host overhead of array creation, read-back and views, and
1 GiB host<->device transfers. Group ``foundation-transfers``: the two transfer workloads
for gpuarr only (what ``--sweep-transfers`` runs in fresh processes).

Goals are the H100 targets, set against CuPy's figures (docs/decisions.md).
"""

import functools

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group

N_1GIB = 2**27              # float64 elements in 1 GiB
CHUNK = 4096                # elements per slice read back when checking a 1 GiB upload
N_CHUNKS = 16


@functools.lru_cache(maxsize=None)
def host_1gib():
    """1 GiB of float64 in ordinary (pageable) host memory, filled once and shared by the
    workloads and libraries of this process."""
    return np.random.default_rng(0).random(N_1GIB)


def _slice_source():
    return np.arange(100 * 100, dtype=np.float64).reshape(100, 100)


def _check_upload(h, to_host, chunk_of, what):
    """Checks a 1 GiB upload: the whole array read back with the library's own download
    (``to_host(d)``), then small slices (``chunk_of(start, count)``, each a NumPy copy of
    device elements; small reads take gpuarr's unstaged path) at the head, the tail, random
    offsets and across every 16 MiB boundary's neighbourhood (staging chunks are 16-64 MiB)."""
    full = to_host()
    check(np.array_equal(full, h), f"{what}: the array read back differs from the host source")
    del full
    n = h.shape[0]
    rng = np.random.default_rng(12345)
    starts = [0, n - CHUNK] + [int(s) for s in rng.integers(0, n - CHUNK, N_CHUNKS)]
    step = (16 << 20) // h.itemsize
    starts += [b - CHUNK // 2 for b in range(step, n, step)]
    for s in starts:
        got = chunk_of(s, CHUNK)
        check(np.array_equal(got, h[s:s + CHUNK]),
              f"{what}: elements [{s}, {s + CHUNK}) differ from the host source")


def _check_host_result(r, h, what):
    check(isinstance(r, np.ndarray), f"{what}: got {type(r).__name__}, not numpy.ndarray")
    check(r.dtype == h.dtype and r.shape == h.shape,
          f"{what}: got {r.dtype}{r.shape}, expected {h.dtype}{h.shape}")
    check(not np.shares_memory(r, h), f"{what}: the result shares memory with the source")
    check(np.array_equal(r, h), f"{what}: the host copy differs from the source")


def _check_item(v, expected, what):
    check(isinstance(v, float) and v == expected, f"{what}: item() gave {v!r}, not {expected!r}")


# ----------------------------------------------------------------- 1. create + read back

ITEM = Workload(
    "1-element array create + read back", key="item_roundtrip", kind="call",
    goal=Goal("<= 0.33x CuPy (>= 3x faster)", ratio_max=0.33),
    note="asarray(np.ones(1)).item(): allocation, 8-byte H2D, 8-byte D2H, Python float")


@ITEM.impl("gpuarr")
def _item_gpuarr(ga):
    h1 = np.ones(1)
    _check_item(ga.asarray(np.array([0.5])).item(), 0.5, "gpuarr")
    fn = lambda: ga.asarray(h1).item()  # noqa: E731
    _check_item(fn(), 1.0, "gpuarr")
    return fn


@ITEM.impl("cupy")
def _item_cupy(cp):
    h1 = np.ones(1)
    _check_item(cp.asarray(np.array([0.5])).item(), 0.5, "cupy")
    fn = lambda: cp.asarray(h1).item()  # noqa: E731
    _check_item(fn(), 1.0, "cupy")
    return fn


@ITEM.impl("torch")
def _item_torch(torch):
    h1 = np.ones(1)
    _check_item(torch.as_tensor(np.array([0.5]), device="cuda").item(), 0.5, "torch")
    fn = lambda: torch.as_tensor(h1, device="cuda").item()  # noqa: E731
    _check_item(fn(), 1.0, "torch")
    return fn


# -------------------------------------------------------------------------- 2. slice view

SLICE = Workload(
    "slice view x[1:10, ::2] (100x100 f64)", key="slice_view", kind="call",
    goal=Goal("<= 0.33x CuPy (<= 1.5 us)", ratio_max=0.33, abs_max=1.5),
    note="a basic-slice view of a device array: no device work, no allocation")


def _check_view(shape, got, h, ptr, base_ptr, what):
    check(tuple(shape) == (9, 50), f"{what}: view shape {tuple(shape)}, expected (9, 50)")
    check(np.array_equal(got, h[1:10, ::2]), f"{what}: view values differ from NumPy's")
    check(ptr == base_ptr + 100 * 8, f"{what}: the result is not a view of x (pointer "
                                     f"{ptr:#x}, base {base_ptr:#x})")


@SLICE.impl("gpuarr")
def _slice_gpuarr(ga):
    h = _slice_source()
    x = ga.asarray(h)
    fn = lambda: x[1:10, ::2]  # noqa: E731
    v = fn()
    _check_view(v.shape, ga.asnumpy(v), h, v.data.ptr, x.data.ptr, "gpuarr")
    return fn


@SLICE.impl("cupy")
def _slice_cupy(cp):
    h = _slice_source()
    x = cp.asarray(h)
    fn = lambda: x[1:10, ::2]  # noqa: E731
    v = fn()
    _check_view(v.shape, cp.asnumpy(v), h, v.data.ptr, x.data.ptr, "cupy")
    return fn


@SLICE.impl("torch")
def _slice_torch(torch):
    h = _slice_source()
    x = torch.as_tensor(h, device="cuda")
    fn = lambda: x[1:10, ::2]  # noqa: E731
    v = fn()
    _check_view(v.shape, v.cpu().numpy(), h, v.data_ptr(), x.data_ptr(), "torch")
    return fn


# ------------------------------------------------------------------ 3. asarray of 4 KB

ASARRAY_4K = Workload(
    "asarray of a 4 KB host array (512 f64)", key="asarray_4kb", kind="call",
    goal=Goal("<= 0.33x CuPy (<= 10 us)", ratio_max=0.33, abs_max=10.0),
    note="allocation + 4 KB host-to-device copy from pageable memory + new array object")


def _host_4kb():
    return np.random.default_rng(1).random(512)


@ASARRAY_4K.impl("gpuarr")
def _asarray4k_gpuarr(ga):
    h = _host_4kb()
    fn = lambda: ga.asarray(h)  # noqa: E731
    d = fn()
    check(d.dtype == np.float64 and d.shape == (512,), f"gpuarr: got {d.dtype}{d.shape}")
    check(np.array_equal(ga.asnumpy(d), h), "gpuarr: uploaded values differ")
    return fn


@ASARRAY_4K.impl("cupy")
def _asarray4k_cupy(cp):
    h = _host_4kb()
    fn = lambda: cp.asarray(h)  # noqa: E731
    d = fn()
    check(d.dtype == np.float64 and d.shape == (512,), f"cupy: got {d.dtype}{d.shape}")
    check(np.array_equal(cp.asnumpy(d), h), "cupy: uploaded values differ")
    return fn


@ASARRAY_4K.impl("torch")
def _asarray4k_torch(torch):
    h = _host_4kb()
    fn = lambda: torch.as_tensor(h, device="cuda")  # noqa: E731
    d = fn()
    check(d.dtype == torch.float64 and tuple(d.shape) == (512,), f"torch: got {d.dtype}{d.shape}")
    check(np.array_equal(d.cpu().numpy(), h), "torch: uploaded values differ")
    return fn


# ------------------------------------------------------------- 4. host-to-device 1 GiB

H2D = Workload(
    "host-to-device 1 GiB pageable f64", key="h2d_1gib", kind="transfer", nbytes=N_1GIB * 8,
    goal=Goal(">= 28 GB/s", abs_min=28.0),
    note="a new device array from a pageable NumPy array; timed to the device sync")


@H2D.impl("gpuarr")
def _h2d_gpuarr(ga):
    h = host_1gib()
    fn = lambda: ga.asarray(h)  # noqa: E731
    d = fn()
    ga.cuda.Device().synchronize()
    check(d.dtype == np.float64 and d.shape == h.shape, f"gpuarr: got {d.dtype}{d.shape}")
    _check_upload(h, lambda: ga.asnumpy(d), lambda s, c: ga.asnumpy(d[s:s + c]), "gpuarr")
    del d
    return fn


@H2D.impl("cupy")
def _h2d_cupy(cp):
    h = host_1gib()
    fn = lambda: cp.asarray(h)  # noqa: E731
    d = fn()
    cp.cuda.Device().synchronize()
    check(d.dtype == np.float64 and d.shape == h.shape, f"cupy: got {d.dtype}{d.shape}")
    _check_upload(h, lambda: cp.asnumpy(d), lambda s, c: cp.asnumpy(d[s:s + c]), "cupy")
    del d
    return fn


@H2D.impl("torch")
def _h2d_torch(torch):
    h = host_1gib()
    fn = lambda: torch.from_numpy(h).to("cuda")  # noqa: E731
    d = fn()
    torch.cuda.synchronize()
    check(d.dtype == torch.float64 and tuple(d.shape) == h.shape,
          f"torch: got {d.dtype}{tuple(d.shape)}")
    _check_upload(h, lambda: d.cpu().numpy(), lambda s, c: d[s:s + c].cpu().numpy(),
                  "torch")
    del d
    return fn


# ------------------------------------------------------------- 5. device-to-host 1 GiB

D2H = Workload(
    "device-to-host 1 GiB into a new NumPy array", key="d2h_1gib", kind="transfer",
    nbytes=N_1GIB * 8, goal=Goal(">= 18 GB/s", abs_min=18.0),
    note="a new pageable NumPy array (its first-touch page faults included)")


@D2H.impl("gpuarr")
def _d2h_gpuarr(ga):
    h = host_1gib()
    d = ga.asarray(h)
    fn = lambda: ga.asnumpy(d)  # noqa: E731
    _check_host_result(fn(), h, "gpuarr")
    return fn


@D2H.impl("cupy")
def _d2h_cupy(cp):
    h = host_1gib()
    d = cp.asarray(h)
    fn = lambda: cp.asnumpy(d)  # noqa: E731
    _check_host_result(fn(), h, "cupy")
    return fn


@D2H.impl("torch")
def _d2h_torch(torch):
    h = host_1gib()
    d = torch.from_numpy(h).to("cuda")
    fn = lambda: d.cpu().numpy()  # noqa: E731
    _check_host_result(fn(), h, "torch")
    return fn


# ------------------------------------------------------- 6. reduction read back to a float

SUM_ROUNDTRIP = Workload(
    "float(sum(a)) round trip (1024 f64)", key="sum_roundtrip", kind="call",
    goal=Goal("<= 0.34x CuPy (<= 20 us)", ratio_max=0.34, abs_max=20.0),
    note="a whole-array reduction on the device and its 0-d result read back as a Python float")


def _sum_source():
    return np.random.default_rng(6).random(1024)


def _check_sum(v, h, what):
    check(isinstance(v, float), f"{what}: got {type(v).__name__}, not float")
    check(abs(v - float(np.sum(h))) <= 1e-12 * abs(float(np.sum(h))),
          f"{what}: sum {v!r} differs from NumPy's {float(np.sum(h))!r}")


@SUM_ROUNDTRIP.impl("gpuarr")
def _sum_gpuarr(ga):
    h = _sum_source()
    a = ga.asarray(h)
    fn = lambda: float(ga.sum(a))  # noqa: E731
    _check_sum(fn(), h, "gpuarr")
    return fn


@SUM_ROUNDTRIP.impl("cupy")
def _sum_cupy(cp):
    h = _sum_source()
    a = cp.asarray(h)
    fn = lambda: float(cp.sum(a))  # noqa: E731
    _check_sum(fn(), h, "cupy")
    return fn


@SUM_ROUNDTRIP.impl("torch")
def _sum_torch(torch):
    h = _sum_source()
    a = torch.as_tensor(h, device="cuda")
    fn = lambda: float(torch.sum(a))  # noqa: E731
    _check_sum(fn(), h, "torch")
    return fn


@SUM_ROUNDTRIP.impl("numpy")
def _sum_numpy(np_):
    h = _sum_source()
    fn = lambda: float(np_.sum(h))  # noqa: E731
    _check_sum(fn(), h, "numpy")
    return fn


# ------------------------------------------- 7. fresh process: import + context + first op

FRESH = Workload(
    "fresh process: import + CUDA context + first op", key="fresh_process", kind="run",
    goal=Goal("<= 0.6 s", abs_max=600.0),
    note="python -c 'import LIB; x = ones(1) on the GPU; print((x + x).item())', whole "
         "process wall time (interpreter start included, as a user sees it)")

_FRESH_CODE = {
    "gpuarr": "import gpuarr as ga; x = ga.ones(1); print((x + x).item())",
    "cupy": "import cupy as cp; x = cp.ones(1); print((x + x).item())",
    "torch": "import torch; x = torch.ones(1, device='cuda'); print((x + x).item())",
}


def _fresh_impl(lib):
    def setup(_module):
        from benchmarks.harness import fresh_python
        fn = fresh_python(_FRESH_CODE[lib], check_output="2.0")
        fn()   # checked once (raises BenchmarkError when the child fails or prints otherwise)
        return fn
    return setup


for _lib in _FRESH_CODE:
    FRESH.impl(_lib)(_fresh_impl(_lib))


# ----------------------------- 8. first linalg call in a fresh process, with empty caches

FIRST_DET = Workload(
    "first linalg.det (512 f32) in a fresh process, empty caches", key="first_det_fresh",
    kind="run", goal=Goal("<= 50 ms", abs_max=50.0),
    note="the first det call alone (timed inside the child, after import, context and a "
         "synchronized upload); CUPY_CACHE_DIR and CUDA_CACHE_PATH point at new, empty folders")

_DET_CODE = {
    "gpuarr": ("import gpuarr as ga", "ga.eye(512, dtype=ga.float32)",
               "ga.cuda.Device().synchronize()", "float(ga.linalg.det(a))"),
    "cupy": ("import cupy as cp", "cp.eye(512, dtype=cp.float32)",
             "cp.cuda.Device().synchronize()", "float(cp.linalg.det(a))"),
    "torch": ("import torch", "torch.eye(512, dtype=torch.float32, device='cuda')",
              "torch.cuda.synchronize()", "float(torch.linalg.det(a))"),
}


def _first_det_impl(lib):
    imp, make, sync, det = _DET_CODE[lib]
    code = (f"import time; {imp}; a = {make}; {sync}; t0 = time.perf_counter(); d = {det}; "
            f"t = time.perf_counter() - t0; print(d, t)")

    def setup(_module):
        from benchmarks.harness import fresh_python
        fn = fresh_python(code, check_output="1.0", reports_time=True,
                          fresh_dirs=("CUPY_CACHE_DIR", "CUDA_CACHE_PATH"))
        fn()
        return fn
    return setup


for _lib in _DET_CODE:
    FIRST_DET.impl(_lib)(_first_det_impl(_lib))


register_group(
    "foundation", [ITEM, SLICE, ASARRAY_4K, H2D, D2H, SUM_ROUNDTRIP, FRESH, FIRST_DET],
    description="per-call overhead of create/read-back/view/small upload; 1 GiB transfers")
register_group(
    "foundation-transfers", [H2D.only("gpuarr"), D2H.only("gpuarr")],
    description="gpuarr's 1 GiB H2D and D2H only (used by --sweep-transfers)", default=False)
