"""Devices, streams, events, memory pool and pinned memory (CuPy's ``cupy.cuda``)."""

from gpuarr import _core
from gpuarr._core import (
    Stream,
    Event,
    get_current_stream,
    get_elapsed_time,
    CUDARuntimeError,
    NoDeviceError,
    LibraryLoadError,
    OutOfMemoryError,
    PinnedMemory,
    MemoryPool,
)
from gpuarr.cuda import runtime
from gpuarr.cuda._device import Device
from gpuarr._core import CompileError  # noqa: F401  (NVRTC errors of user and fused kernels)

__all__ = [
    "is_available", "Device", "Stream", "Event", "get_current_stream", "get_elapsed_time",
    "CUDARuntimeError", "NoDeviceError", "LibraryLoadError", "OutOfMemoryError", "PinnedMemory",
    "MemoryPool", "alloc_pinned_memory", "get_default_memory_pool", "library_paths", "runtime",
]


def is_available() -> bool:
    """True when at least one CUDA device can be used."""
    return _core.device_count() > 0


def library_paths(load: bool = False) -> dict[str, str | None]:
    """The file each CUDA library gpuarr uses was loaded from: ``{"cublas": ..., "cusolver":
    ..., "cufft": ..., "nvrtc": ...}``, None for one not loaded yet.

    gpuarr loads cuBLAS, cuSOLVER, cuFFT and NVRTC on first use, not at import. It looks in
    NVIDIA's pip wheels first (``nvidia/cu13/lib`` under each ``sys.path`` entry as it was
    at import), then where the system's dynamic linker looks (``LD_LIBRARY_PATH``,
    ``ld.so.cache``), then in the CUDA toolkit gpuarr was built with; a copy some other
    module already loaded is used as it is. With ``load=True`` each library is loaded now
    (needs no GPU); one that cannot be found raises :class:`LibraryLoadError`, a
    :class:`CUDARuntimeError` whose message says where gpuarr looked and which pip package
    provides it. The same error comes from the first operation that needs the library.
    """
    if load:
        for name in ("cublas", "cusolver", "cufft", "nvrtc"):
            _core._load_cuda_library(name)
    return dict(_core._cuda_library_paths())


def alloc_pinned_memory(size: int) -> PinnedMemory:
    """``size`` bytes of pinned host memory (a buffer-protocol object)."""
    return _core.PinnedMemory(size)


def get_default_memory_pool():
    """gpuarr's device memory pool (acting on the current device)."""
    return _core.get_default_memory_pool()
