from gpuarr import _core


class Device:
    """A CUDA device. ``Device()`` is the current one; ``with Device(1):`` makes device 1
    current inside the block."""

    __slots__ = ("id", "_previous")

    def __init__(self, device=None):
        if device is None:
            device = _core.get_device()
        elif isinstance(device, Device):
            device = device.id
        self.id = int(device)
        self._previous = []

    def use(self):
        _core.set_device(self.id)
        return self

    def __enter__(self):
        previous = _core.get_device()
        _core.set_device(self.id)
        self._previous.append(previous)
        return self

    def __exit__(self, *exc):
        _core.set_device(self._previous.pop())

    def synchronize(self):
        """Waits for all work on this device (the GIL is released while waiting)."""
        with Device(self.id):
            _core.device_synchronize()

    @property
    def compute_capability(self):
        """'90' for sm_90, as CuPy spells it."""
        major, minor = _core.compute_capability(self.id)
        return f"{major}{minor}"

    @property
    def mem_info(self):
        """(free, total) bytes of device memory."""
        return _core.mem_get_info(self.id)

    def __int__(self):
        return self.id

    __index__ = __int__

    def __eq__(self, other):
        if isinstance(other, Device):
            return self.id == other.id
        if isinstance(other, int):
            return self.id == other
        return NotImplemented

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return f"<CUDA Device {self.id}>"
