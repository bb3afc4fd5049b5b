"""Thin CUDA runtime queries with CuPy's names (``gpuarr.cuda.runtime``)."""

from gpuarr import _core


def getDeviceCount():
    """Number of CUDA devices; 0 (never an error) when there is no device or driver."""
    return _core.device_count()


def getDevice():
    return _core.get_device()


def setDevice(device):
    _core.set_device(device)


def deviceSynchronize():
    _core.device_synchronize()


def memGetInfo():
    return _core.mem_get_info(_core.get_device())


def runtimeGetVersion():
    return _core.runtime_version()


def driverGetVersion():
    """The driver's CUDA version, or 0 when no driver is installed."""
    return _core.driver_version()


def getDeviceProperties(device):
    return _core.device_properties(device)
