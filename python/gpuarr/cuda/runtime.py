"""Thin CUDA runtime queries with CuPy's names (``gpuarr.cuda.runtime``)."""

from gpuarr import _core


def getDeviceCount() -> int:
    """Number of CUDA devices; 0 (never an error) when there is no device or driver."""
    return _core.device_count()


def getDevice() -> int:
    """The current device's id."""
    return _core.get_device()


def setDevice(device: int) -> None:
    """Makes ``device`` the current device."""
    _core.set_device(device)


def deviceSynchronize() -> None:
    """Waits for all work on the current device."""
    _core.device_synchronize()


def memGetInfo() -> tuple[int, int]:
    """(free, total) bytes of the current device's memory."""
    return _core.mem_get_info(_core.get_device())


def runtimeGetVersion() -> int:
    """The CUDA runtime's version (e.g. 13000 for 13.0)."""
    return _core.runtime_version()


def driverGetVersion() -> int:
    """The driver's CUDA version, or 0 when no driver is installed."""
    return _core.driver_version()


def getDeviceProperties(device: int) -> dict:
    """The device's properties (cudaDeviceProp's fields by name, as CuPy's)."""
    return _core.device_properties(device)
