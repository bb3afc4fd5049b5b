"""Timing and profiling helpers (CuPy's ``cupyx.profiler``): ``benchmark``,
``time_range`` and ``profile`` (NVTX ranges; no-ops when no NVTX tool is attached)."""

import contextlib
import functools
import math
import time

import numpy as _np

from gpuarr import _core

__all__ = ["benchmark", "time_range", "profile"]


class _PerfCaseResult:
    """Result of ``benchmark``: ``cpu_times`` (repeats,) and ``gpu_times`` (devices,
    repeats), both in seconds."""

    def __init__(self, name, ts, devices):
        assert ts.ndim == 2 and ts.shape[0] == len(devices) + 1
        self.name = name
        self._ts = ts
        self._devices = devices

    def __repr__(self):
        return self.to_str(show_gpu=True)

    __str__ = __repr__

    @property
    def cpu_times(self):
        return self._ts[0]

    @property
    def gpu_times(self):
        return self._ts[1:]

    @staticmethod
    def _to_str_per_item(device_name, t):
        t_us = t * 1e6
        s = "    {}: {:9.03f} us".format(device_name, t_us.mean() if t.size else math.nan)
        if t.size > 1:
            s += "   +/- {:6.03f} (min: {:9.03f} / max: {:9.03f}) us".format(
                t_us.std(), t_us.min(), t_us.max())
        return s

    def to_str(self, show_gpu=False):
        results = [self._to_str_per_item("CPU", self._ts[0])]
        if show_gpu:
            for i, d in enumerate(self._devices):
                results.append(self._to_str_per_item("GPU-{}".format(d), self._ts[1 + i]))
        return "{:<20s}:{}".format(self.name, " ".join(results))


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None, n_warmup=10,  # noqa: B006
              max_duration=math.inf, devices=None):
    """Times ``func(*args, **kwargs)``: CPU time (perf_counter around the call) and GPU
    time per device (events recorded on the current stream before and after the call)."""
    if not callable(func):
        raise ValueError("`func` should be a callable object.")
    if not isinstance(args, tuple):
        raise ValueError("`args` should be of tuple type.")
    if not isinstance(kwargs, dict):
        raise ValueError("`kwargs` should be of dict type.")
    if not isinstance(n_repeat, int) or n_repeat < 0:
        raise ValueError("`n_repeat` should be a non-negative integer.")
    if not isinstance(n_warmup, int) or n_warmup < 0:
        raise ValueError("`n_warmup` should be a non-negative integer.")
    if name is None:
        name = getattr(func, "__name__", "benchmark")
    if devices is None:
        devices = (_core.get_device(),)
    devices = tuple(devices)
    for _ in range(n_warmup):
        func(*args, **kwargs)
    prev = _core.get_device()
    events = []
    for d in devices:
        _core.set_device(d)
        events.append((_core.Event(), _core.Event()))
    _core.set_device(prev)
    ts = _np.empty((len(devices) + 1, n_repeat), dtype=_np.float64)
    perf = time.perf_counter
    duration = 0.0
    i = 0
    while i < n_repeat:
        for d, (start, _) in zip(devices, events):
            _core.set_device(d)
            start.record()
        _core.set_device(prev)
        t1 = perf()
        func(*args, **kwargs)
        t2 = perf()
        for d, (_, end) in zip(devices, events):
            _core.set_device(d)
            end.record()
        _core.set_device(prev)
        for k, (start, end) in enumerate(events):
            end.synchronize()
            ts[k + 1, i] = _core.get_elapsed_time(start, end) * 1e-3
        ts[0, i] = t2 - t1
        duration += perf() - t1
        i += 1
        if duration > max_duration:
            break
    return _PerfCaseResult(name, ts[:, :i], devices)


@contextlib.contextmanager
def _range(message, color_id=None, argb_color=None, sync=False):
    if sync:
        _core.device_synchronize()
    _core._nvtx_push(str(message))
    try:
        yield
    finally:
        if sync:
            _core.device_synchronize()
        _core._nvtx_pop()


class time_range:
    """An NVTX range, as a context manager or a function decorator (CuPy's
    ``cupyx.profiler.time_range``)."""

    def __init__(self, message=None, color_id=None, argb_color=None, sync=False):
        self.message = message
        self.sync = sync

    def __enter__(self):
        self._cm = _range(self.message, sync=self.sync)
        self._cm.__enter__()
        return self

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)

    def __call__(self, func):
        msg = self.message if self.message is not None else func.__name__

        @functools.wraps(func)
        def inner(*args, **kwargs):
            with _range(msg, sync=self.sync):
                return func(*args, **kwargs)
        return inner


@contextlib.contextmanager
def profile():
    """Enables the CUDA profiler's collection inside the block (cudaProfilerStart/Stop)."""
    _core._profiler_start()
    try:
        yield
    finally:
        _core._profiler_stop()
