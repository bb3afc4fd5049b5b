"""Group ``io``: save and load of a 1 GiB float32 .npy file, in GB/s of array data.

The file lives in a temporary directory; the load reads a file just written, so it comes
from the page cache (the figure is page cache -> device, not disk speed). CuPy's
``cupy.load``/``cupy.save`` go through a NumPy array in pageable memory; PyTorch has no
.npy reader, so its row is ``numpy.load`` + ``.to('cuda')`` and ``.cpu()`` +
``numpy.save``.
"""

import atexit
import os
import shutil
import tempfile

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group

N = (1 << 30) // 4  # float32 elements in 1 GiB
NBYTES = N * 4

_tmpdir = None
_host = None


def tmp_path(name):
    global _tmpdir
    if _tmpdir is None:
        _tmpdir = tempfile.mkdtemp(prefix="gpuarr-bench-io-")
        atexit.register(shutil.rmtree, _tmpdir, ignore_errors=True)
    return os.path.join(_tmpdir, name)


def host_1gib():
    global _host
    if _host is None:
        _host = np.random.default_rng(6).standard_normal(N, dtype=np.float32)
    return _host


def source_file():
    p = tmp_path("src.npy")
    if not os.path.exists(p):
        np.save(p, host_1gib())
    return p


def _check_sample(get, what):
    h = host_1gib()
    for s in (0, N // 3, N - 1000):
        got = get(s, 1000)
        check(np.array_equal(got, h[s:s + 1000]), f"{what}: wrong values at {s}")


def _check_saved(path, what):
    m = np.load(path, mmap_mode="r")
    check(m.dtype == np.float32 and m.shape == (N,), f"{what}: saved {m.dtype}{m.shape}")
    _check_sample(lambda s, c: np.asarray(m[s:s + c]), what)
    del m


LOAD = Workload(
    "load 1 GiB float32 .npy to the device", key="io_load_1gib", kind="transfer",
    nbytes=NBYTES, goal=Goal(">= CuPy", ratio_min=1.0),
    note="file in the page cache; timed to the device sync")


@LOAD.impl("gpuarr")
@LOAD.impl("cupy")
def _load_array_module(xp):
    """gpuarr and CuPy share load/asnumpy, so one setup serves both."""
    what = xp.__name__
    p = source_file()
    d = xp.load(p)
    check(d.dtype == np.float32 and d.shape == (N,), f"{what}: got {d.dtype}{d.shape}")
    _check_sample(lambda s, c: xp.asnumpy(d[s:s + c]), what)
    del d
    return lambda: xp.load(p)


@LOAD.impl("torch")
def _load_torch(torch):
    p = source_file()
    fn = lambda: torch.from_numpy(np.load(p)).to("cuda")  # noqa: E731
    d = fn()
    _check_sample(lambda s, c: d[s:s + c].cpu().numpy(), "torch")
    del d
    return fn


SAVE = Workload(
    "save 1 GiB float32 device array to .npy", key="io_save_1gib", kind="transfer",
    nbytes=NBYTES, goal=Goal(">= CuPy", ratio_min=1.0),
    note="written to the page cache (no fsync)")


@SAVE.impl("gpuarr")
@SAVE.impl("cupy")
def _save_array_module(xp):
    """gpuarr and CuPy share asarray/save, so one setup serves both."""
    what = xp.__name__
    d = xp.asarray(host_1gib())
    p = tmp_path(f"{what}.npy")
    xp.save(p, d)
    _check_saved(p, what)
    return lambda: xp.save(p, d)


@SAVE.impl("torch")
def _save_torch(torch):
    d = torch.from_numpy(host_1gib()).to("cuda")
    p = tmp_path("torch.npy")
    fn = lambda: np.save(p, d.cpu().numpy())  # noqa: E731
    fn()
    _check_saved(p, "torch")
    return fn


register_group("io", [SAVE, LOAD], description="save + load of a 1 GiB float32 .npy (GB/s)")
