"""gpuarr.convolve / gpuarr.correlate (numpy.convolve / numpy.correlate on the device) and the
two convolution engines gpuarr.signal builds on: the direct kernel and fftconvolve.

Every direct convolution is one device kernel (cpp/ops/convolve_direct.cu) of the form
``out[i] = sum_u w[u] * in_b(i + u - pad)`` per axis; this module prepares ``w`` (reversed
for a convolution, conjugated for a complex correlation), the compute dtype (float32,
float64, complex64 or complex128) and the per-axis plan (core/conv_plan.cpp).
Integer inputs are computed in float64 and rounded back (exact while sums stay below 2**53).
"""

from __future__ import annotations
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _ufuncs
from gpuarr import fft as _fft

if TYPE_CHECKING:
    from gpuarr._typing import ndarray

__all__ = ["convolve", "correlate"]

def _require_device(*arrays, where):
    for x in arrays:
        if not isinstance(x, _core.ndarray):
            raise TypeError(
                f"Unsupported type {type(x)}: {where} needs gpuarr arrays "
                "(no implicit host-to-device copies); move host data to the device with "
                "gpuarr.asarray")


def _compute_dtype(rt):
    rt = _np.dtype(rt)
    if rt.kind == "c":
        return rt
    if rt in (_np.float16, _np.float32):
        return _np.dtype(_np.float32)
    return _np.dtype(_np.float64)


def _reversed(x):
    return x[(slice(None, None, -1),) * x.ndim]


def _direct(x, w, plans, boundary, fillvalue, rt):
    """The direct kernel over 1-d or 2-d ``x`` with the prepared filter ``w``; ``plans`` is
    one (out_len, pad) per axis; the result has dtype ``rt``."""
    rt = _np.dtype(rt)
    cdt = _compute_dtype(rt)
    out_shape = tuple(int(p[0]) for p in plans)
    pads = tuple(int(p[1]) for p in plans)
    if any(s == 0 for s in out_shape) or x.size == 0 or w.size == 0:
        return _core.zeros(out_shape, dtype=rt)
    if x.dtype != cdt:
        x = x.astype(cdt)
    w = _core.array(w, dtype=cdt, order="C", copy=True)
    fill = _np.asarray(fillvalue).astype(cdt).tobytes()
    out = _core._correlate_direct(x, w, out_shape, pads, boundary, fill)
    if out.dtype != rt:
        if rt.kind in "iu":
            out = _ufuncs.rint(out)
        out = out.astype(rt)
    return out


def _np_correlate(a, v, mode, conj, where):
    """NumPy's multiarray.correlate(2): 1-d, swap when v is longer, 'same' centred k//2.
    The mode is converted first and then each operand must be 1-d, as NumPy's C function
    does (convolve makes 0-d operands 1-d before, as numpy.convolve)."""
    mode = _np_mode(mode)
    for x in (a, v):
        if x.ndim == 0:
            raise ValueError("object of too small depth for desired array")
        if x.ndim != 1:
            raise ValueError("object too deep for desired array")
    if conj:
        if a.shape[0] == 0:
            raise ValueError("first array argument cannot be empty")
        if v.shape[0] == 0:
            raise ValueError("second array argument cannot be empty")
    rt = _np.result_type(a.dtype, v.dtype)
    if conj and v.dtype.kind == "c":
        v = _ufuncs.conjugate(v)
    if v.shape[0] > a.shape[0]:
        # NumPy correlates the swapped pair and reverses the result.
        x, w, rev = v, a, True
    else:
        x, w, rev = a, v, False
    plan = _core._conv_axis_plan(x.shape[0], w.shape[0], mode, False, True)
    if rt.kind in "fc" and w.shape[0] > _core._conv_direct_max_taps():
        # Long filters of floats: through cuFFT as CuPy does (the direct kernel is O(n*k));
        # equal to NumPy's result up to rounding. Integers stay direct: exact. out[i] = full_convolution(x, w[::-1])[i + k-1-pad].
        full = fftconvolve(x, _reversed(w), "full")
        start = w.shape[0] - 1 - int(plan[1])
        out = full[start:start + int(plan[0])]
        if out.dtype != rt:
            out = out.astype(rt)
    else:
        out = _direct(x, w, [plan], 0, 0, rt)
    return _reversed(out) if rev else out


_INT_MODES = {0: "valid", 1: "same", 2: "full"}


def _np_mode(mode):
    """NumPy's convolve/correlate mode converter: the three names or 0/1/2, its messages."""
    if isinstance(mode, str):
        if mode in ("valid", "same", "full"):
            return mode
        if mode[:1].lower() in ("v", "s", "f"):
            raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode")
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    if isinstance(mode, (int, _np.integer)):
        if 0 <= mode <= 2:
            return _INT_MODES[int(mode)]
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    raise TypeError("convolve/correlate mode not understood")


def convolve(a: ndarray, v: ndarray, mode="full") -> ndarray:
    """Discrete linear convolution of two 1-d arrays (numpy.convolve), on the device."""
    _require_device(a, v, where="gpuarr.convolve")
    if a.ndim == 0:
        a = a.reshape(1)
    if v.ndim == 0:
        v = v.reshape(1)
    if a.ndim == 1 and v.ndim == 1:
        if a.shape[0] == 0:
            raise ValueError("a cannot be empty")
        if v.shape[0] == 0:
            raise ValueError("v cannot be empty")
        if v.shape[0] > a.shape[0]:
            a, v = v, a
    return _np_correlate(a, _reversed(v) if v.ndim == 1 else v, mode, False, "convolve")


def correlate(a: ndarray, v: ndarray, mode="valid") -> ndarray:
    """Cross-correlation of two 1-d arrays (numpy.correlate: the second is conjugated)."""
    _require_device(a, v, where="gpuarr.correlate")
    return _np_correlate(a, v, mode, True, "correlate")


# --- FFT convolution (scipy.signal.fftconvolve; gpuarr.signal re-exports it) ---------------


def _inputs_swap_needed(mode, shape1, shape2, axes=None):
    if mode != "valid":
        return False
    if not shape1:
        return False
    if axes is None:
        axes = range(len(shape1))
    ok1 = all(shape1[i] >= shape2[i] for i in axes)
    ok2 = all(shape2[i] >= shape1[i] for i in axes)
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least "
                         "as large as the other in every dimension")
    return not ok1


def _next_fast_len(n):
    """Smallest 2^a 3^b 5^c 7^d >= n (sizes cuFFT runs fastest)."""
    if n <= 8:
        return max(n, 1)
    best = 1 << (n - 1).bit_length()
    p7 = 1
    while p7 < best:
        p5 = p7
        while p5 < best:
            p3 = p5
            while p3 < best:
                m = p3
                while m < n:
                    m *= 2
                best = min(best, m)
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best


def _centered(arr, newshape):
    sl = []
    for cur, new in zip(arr.shape, newshape):
        start = (cur - new) // 2
        sl.append(slice(start, start + new))
    return arr[tuple(sl)]


def _init_freq_conv_axes(in1, in2, mode, axes):
    s1, s2 = in1.shape, in2.shape
    noaxes = axes is None
    if axes is None:
        axes = list(range(in1.ndim))
    else:
        if _np.ndim(axes) == 0:
            axes = [axes]
        axes = [_fft._np_normalize_axis(a, in1.ndim) for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError("all axes must be unique")
    if not noaxes and not len(axes):
        raise ValueError("when provided, axes cannot be empty")
    axes = [a for a in axes if s1[a] != 1 and s2[a] != 1]
    if not all(s1[a] == s2[a] or s1[a] == 1 or s2[a] == 1
               for a in range(in1.ndim) if a not in axes):
        raise ValueError(f"incompatible shapes for in1 and in2: {s1} and {s2}")
    if _inputs_swap_needed(mode, s1, s2, axes=axes):
        in1, in2 = in2, in1
    return in1, in2, axes


def fftconvolve(in1, in2, mode="full", axes=None):
    """Convolution through cuFFT (scipy.signal.fftconvolve): real inputs through rfftn/irfftn,
    complex ones through fftn/ifftn, each axis padded to a size cuFFT runs fast."""
    _require_device(in1, in2, where="gpuarr.signal.fftconvolve")
    if in1.ndim == in2.ndim == 0:
        return in1 * in2
    elif in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    elif in1.size == 0 or in2.size == 0:
        return _core.array(_np.array([]))
    in1, in2, axes = _init_freq_conv_axes(in1, in2, mode, axes)
    if mode not in ("full", "same", "valid"):  # SciPy checks after the axes (and the FFTs)
        raise ValueError("acceptable mode flags are 'valid', 'same', or 'full'")
    s1, s2 = in1.shape, in2.shape
    shape = [max(s1[i], s2[i]) if i not in axes else s1[i] + s2[i] - 1 for i in range(in1.ndim)]
    if not len(axes):
        ret = in1 * in2
    else:
        complex_result = in1.dtype.kind == "c" or in2.dtype.kind == "c"
        fshape = [_next_fast_len(shape[a]) for a in axes]
        if not complex_result:
            sp1 = _fft.rfftn(in1, fshape, axes=axes)
            sp2 = _fft.rfftn(in2, fshape, axes=axes)
            ret = _fft.irfftn(sp1 * sp2, fshape, axes=axes)
        else:
            sp1 = _fft.fftn(in1, fshape, axes=axes)
            sp2 = _fft.fftn(in2, fshape, axes=axes)
            ret = _fft.ifftn(sp1 * sp2, fshape, axes=axes)
        ret = ret[tuple(slice(sz) for sz in shape)]
    if mode == "full":
        return _core.ascontiguousarray(ret)
    if mode == "same":
        return _core.ascontiguousarray(_centered(ret, s1))
    shape_valid = [ret.shape[a] if a not in axes else s1[a] - s2[a] + 1 for a in range(ret.ndim)]
    return _core.ascontiguousarray(_centered(ret, shape_valid))
