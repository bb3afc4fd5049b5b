"""A NumPy stand-in for the device parts of gpuarr.fft / gpuarr.signal / gpuarr.convolve, so
that their Python layer (argument handling, dtype rules, plans, swaps, flips, conjugations,
errors) runs against numpy.fft / scipy.signal on a machine without a GPU. It goes in
through the one seam, ``_device_standin``: its transforms are numpy.fft's (unnormalised like
cuFFT) and its direct kernel evaluates the device kernel's formula
``out[i] = sum_u w[u] * in_b(i + u - pad)`` with the C++ boundary rule."""

import itertools

import numpy as np

import _device_standin
import gpuarr._convolve as gconv
import gpuarr.fft as gfft
import gpuarr.signal as gsig
from gpuarr import _core as real_core


def _c2c(x, forward, inplace, rank=1):
    axes = tuple(range(x.ndim - rank, x.ndim))
    if forward:
        y = np.fft.fftn(x, axes=axes)
    else:
        y = np.fft.ifftn(x, axes=axes) * np.prod([x.shape[a] for a in axes])
    y = y.astype(x.dtype)
    if inplace:
        x[...] = y
        return x
    return y


def _r2c(x, rank=1):
    assert x.flags.c_contiguous and x.dtype in (np.float32, np.float64)
    axes = tuple(range(x.ndim - rank, x.ndim))
    return np.fft.rfftn(x, axes=axes).astype(np.complex64 if x.dtype == np.float32 else np.complex128)


def _c2r(x, n):
    assert x.flags.c_contiguous and x.shape[-1] == n // 2 + 1
    return (np.fft.irfft(x, n) * n).astype(np.float32 if x.dtype == np.complex64 else np.float64)


def _correlate_direct(x, w, out_shape, pads, boundary, fill):
    assert x.dtype == w.dtype and w.flags.c_contiguous and x.ndim in (1, 2)
    assert x.dtype in (np.float32, np.float64, np.complex64, np.complex128)
    f = np.frombuffer(fill, x.dtype)[0]
    out = np.zeros(out_shape, x.dtype)
    idx = []
    for d in range(x.ndim):
        idx.append([np.array([real_core._conv_boundary_index(int(i) + u - pads[d], x.shape[d],
                                                             boundary)
                              for i in range(out_shape[d])], dtype=np.int64)
                    for u in range(w.shape[d])])
    for u in itertools.product(*[range(k) for k in w.shape]):
        grids = np.meshgrid(*[idx[d][u[d]] for d in range(x.ndim)], indexing="ij")
        mask = np.zeros(out_shape, bool)
        for g in grids:
            mask |= g < 0
        vals = x[tuple(np.where(g < 0, 0, g) for g in grids)]
        out += w[u] * np.where(mask, f, vals)
    return out


STANDIN = {
    "_fft_c2c": _c2c, "_fft_r2c": _r2c, "_fft_c2r": _c2r, "_correlate_direct": _correlate_direct,
    # a machine without a GPU routes as the fallback row (compute capability 0)
    "_conv_direct_max_taps": lambda: real_core._routing_thresholds(0)["conv_direct_max_taps"],
    "ndarray": np.ndarray, "asarray": np.asarray, "zeros": np.zeros,
    "array": lambda x, dtype=None, order="K", copy=True: np.array(x, dtype=dtype, order=order,
                                                                  copy=copy),
    "moveaxis": np.moveaxis, "multiply": np.multiply, "real": np.real,
    "conjugate": np.conjugate, "roll": np.roll, "rint": np.rint, "around": np.around,
    "ascontiguousarray": np.ascontiguousarray,
}


def install(monkeypatch):
    """Swaps the stand-in in for the test (pytest's monkeypatch undoes it)."""
    _device_standin.install(monkeypatch, STANDIN)
    return gfft, gsig, gconv
