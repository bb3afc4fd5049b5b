"""gpuarr.signal: SciPy's convolution functions (scipy.signal signatures) on the device.

convolve2d / correlate2d run the tiled direct kernel (every mode and boundary);
convolve / correlate pick 'direct' (1-d and 2-d) or 'fft' (cuFFT, any ndim) with
method='auto' by the size of the smaller operand (the device's routing threshold,
docs/routing.md); fftconvolve uses rfftn/irfftn (fftn/ifftn for complex input);
oaconvolve is fftconvolve (same result; no separate overlap-add path yet).
Inputs must be gpuarr arrays: NumPy arrays raise TypeError (move them with gpuarr.asarray).
"""

from __future__ import annotations

import warnings as _warnings
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _ufuncs
from gpuarr._convolve import (_direct, _inputs_swap_needed, _require_device, _reversed,
                              fftconvolve)

if TYPE_CHECKING:
    from gpuarr._typing import ndarray

__all__ = ["convolve2d", "correlate2d", "convolve", "correlate", "fftconvolve", "oaconvolve",
           "choose_conv_method"]

def _result_type(in1, in2, name):
    rt = _np.result_type(in1.dtype, in2.dtype)
    if rt in (_np.float16, _np.bool_):
        raise ValueError(f"{name} not available for this type.")
    return rt


def _direct2d(in1, in2, mode, boundary, fillvalue, flip, name):
    _core._conv_check_mode(mode, False)
    b = _core._conv_boundary(boundary)
    rt = _np.result_type(in1.dtype, in2.dtype)
    # SciPy converts the fill value (for boundary 'fill') before it checks the dtype.
    if b == 0 and isinstance(fillvalue, complex) and rt.kind != "c":
        raise ValueError("could not cast `fillvalue` directly to the output type (it was "
                         "first converted to complex).")
    rt = _result_type(in1, in2, name)
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore", _np.exceptions.ComplexWarning)
        fillvalue = _np.asarray(fillvalue).astype(rt)
    if flip:
        w = _reversed(in2)
    else:
        w = _ufuncs.conjugate(in2) if in2.dtype.kind == "c" else in2
    plans = [_core._conv_axis_plan(n, k, mode, not flip, False)
             for n, k in zip(in1.shape, in2.shape)]
    return _direct(in1, w, plans, b, fillvalue, rt)


def _fill_scalar(fillvalue):
    if isinstance(fillvalue, (complex, float, int)):
        return fillvalue
    if isinstance(fillvalue, _core.ndarray):
        fillvalue = fillvalue.get()
    f = _np.asarray(fillvalue)
    if f.size != 1:
        raise ValueError("fillvalue must be scalar or an array with one element.")
    return f.reshape(())[()]


def convolve2d(in1: ndarray, in2: ndarray, mode="full", boundary="fill", fillvalue=0) -> ndarray:
    """2-d convolution (scipy.signal.convolve2d) with mode and boundary handling."""
    _require_device(in1, in2, where="gpuarr.signal.convolve2d")
    if not in1.ndim == in2.ndim == 2:
        raise ValueError("convolve2d inputs must both be 2-D arrays")
    if _inputs_swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1
    return _direct2d(in1, in2, mode, boundary, _fill_scalar(fillvalue), True, "convolve2d")


def correlate2d(in1: ndarray, in2: ndarray, mode="full", boundary="fill", fillvalue=0) -> ndarray:
    """2-d cross-correlation (scipy.signal.correlate2d); in2 is conjugated."""
    _require_device(in1, in2, where="gpuarr.signal.correlate2d")
    if not in1.ndim == in2.ndim == 2:
        raise ValueError("correlate2d inputs must both be 2-D arrays")
    swapped = _inputs_swap_needed(mode, in1.shape, in2.shape)
    if swapped:
        in1, in2 = in2, in1
    # (SciPy's message names convolve2d for both functions: one C routine)
    out = _direct2d(in1, in2, mode, boundary, _fill_scalar(fillvalue), False, "convolve2d")
    return out[::-1, ::-1] if swapped else out


def choose_conv_method(in1: ndarray, in2: ndarray, mode="full", measure=False):
    """'direct' or 'fft' for convolve/correlate (scipy.signal.choose_conv_method)."""
    _require_device(in1, in2, where="gpuarr.signal.choose_conv_method")
    if measure:
        raise NotImplementedError("gpuarr.signal.choose_conv_method: measure=True is not "
                                  "supported")
    if mode not in ("full", "same", "valid"):
        raise ValueError("Acceptable mode flags are 'valid',"
                         f" 'same', or 'full', not mode={mode}")
    if in1.ndim > 2 or in2.ndim > 2:
        return "fft"
    small = in2 if in2.size <= in1.size else in1
    if small.size > _core._conv_direct_max_taps():
        return "fft"
    return "direct"


def convolve(in1: ndarray, in2: ndarray, mode="full", method="auto") -> ndarray:
    """N-d convolution (scipy.signal.convolve), method 'auto', 'direct' or 'fft'."""
    _require_device(in1, in2, where="gpuarr.signal.convolve")
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    elif in1.ndim != in2.ndim:
        raise ValueError("volume and kernel should have the same dimensionality")
    if _inputs_swap_needed(mode, in1.shape, in2.shape):
        in1, in2 = in2, in1
    if method == "auto":
        method = choose_conv_method(in1, in2, mode=mode)
    if method == "fft":
        out = fftconvolve(in1, in2, mode=mode)
        rt = _np.result_type(in1.dtype, in2.dtype)
        if rt.kind in "ui":
            out = _ufuncs.around(out)
        return out.astype(rt)
    elif method == "direct":
        _core._conv_check_mode(mode, False)
        if in1.ndim > 2:
            raise NotImplementedError(
                "gpuarr.signal.convolve: method='direct' supports 1-d and 2-d arrays; use "
                "method='fft' for more dimensions")
        rt = _np.result_type(in1.dtype, in2.dtype)
        if mode == "full" and in2.size > in1.size:
            in1, in2 = in2, in1  # commutative; the kernel is fastest with the small filter
        plans = [_core._conv_axis_plan(n, k, mode, False, False)
                 for n, k in zip(in1.shape, in2.shape)]
        return _direct(in1, _reversed(in2), plans, 0, 0, rt)
    else:
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")


def correlate(in1: ndarray, in2: ndarray, mode="full", method="auto") -> ndarray:
    """N-d cross-correlation (scipy.signal.correlate); in2 is conjugated."""
    _require_device(in1, in2, where="gpuarr.signal.correlate")
    if in1.ndim == in2.ndim == 0:
        return in1 * (_ufuncs.conjugate(in2) if in2.dtype.kind == "c" else in2)
    elif in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if not isinstance(mode, str) or mode not in ("valid", "same", "full"):
        raise ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.")
    if method in ("fft", "auto"):
        k = _reversed(in2)
        if k.dtype.kind == "c":
            k = _ufuncs.conjugate(k)
        return convolve(in1, k, mode, method)
    elif method == "direct":
        if in1.ndim > 2:
            raise NotImplementedError(
                "gpuarr.signal.correlate: method='direct' supports 1-d and 2-d arrays; use "
                "method='fft' for more dimensions")
        _inputs_swap_needed(mode, in1.shape, in2.shape)  # SciPy's shape check for 'valid'
        rt = _np.result_type(in1.dtype, in2.dtype)
        w = _ufuncs.conjugate(in2) if in2.dtype.kind == "c" else in2
        plans = [_core._conv_axis_plan(n, k, mode, False, False)
                 for n, k in zip(in1.shape, in2.shape)]
        return _direct(in1, w, plans, 0, 0, rt)
    else:
        raise ValueError("Acceptable method flags are 'auto', 'direct', or 'fft'.")


def oaconvolve(in1: ndarray, in2: ndarray, mode="full", axes=None) -> ndarray:
    """scipy.signal.oaconvolve's result, computed by fftconvolve (one FFT of the full size;
    a true overlap-add path for very unequal sizes is not implemented yet)."""
    _require_device(in1, in2, where="gpuarr.signal.oaconvolve")
    return fftconvolve(in1, in2, mode=mode, axes=axes)
