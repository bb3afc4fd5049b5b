"""Devices, streams, events, memory pool and pinned memory (CuPy's ``cupy.cuda``)."""

from gpuarr import _core
from gpuarr._core import (
    Stream,
    Event,
    get_current_stream,
    get_elapsed_time,
    CUDARuntimeError,
    NoDeviceError,
    OutOfMemoryError,
    PinnedMemory,
    MemoryPool,
)
from gpuarr.cuda import runtime
from gpuarr.cuda._device import Device
from gpuarr._core import CompileError  # noqa: F401  (NVRTC errors of user and fused kernels)

__all__ = [
    "is_available", "Device", "Stream", "Event", "get_current_stream", "get_elapsed_time",
    "CUDARuntimeError", "NoDeviceError", "OutOfMemoryError", "PinnedMemory", "MemoryPool",
    "alloc_pinned_memory", "get_default_memory_pool", "runtime",
]


def is_available() -> bool:
    """True when at least one CUDA device can be used."""
    return _core.device_count() > 0


def alloc_pinned_memory(size: int) -> PinnedMemory:
    """``size`` bytes of pinned host memory (a buffer-protocol object)."""
    return _core.PinnedMemory(size)


def get_default_memory_pool():
    """gpuarr's device memory pool (acting on the current device)."""
    return _core.get_default_memory_pool()
