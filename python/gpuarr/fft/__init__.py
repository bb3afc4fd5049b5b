"""gpuarr.fft: discrete Fourier transforms on the GPU (cuFFT), with numpy.fft's API.

Result dtypes follow NumPy 2: float16/float32/complex64 inputs compute in single precision
(complex64 results), everything else in double precision (complex128); the real outputs of
irfft/hfft keep the input's real precision (float16 -> float16 as NumPy). Each 1-d transform
moves its axis last, pads with zeros or truncates to ``n``, and runs one batched cuFFT plan
(plans are cached per device, type, length and batch) on the current stream.
Inputs must be gpuarr arrays (TypeError otherwise, as CuPy): move host data with
``gpuarr.asarray``.
"""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _shape_ops, _ufuncs

if TYPE_CHECKING:
    from gpuarr._typing import ndarray

__all__ = [
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
    "fftn", "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]

_SWAP_DIRECTION_MAP = {"backward": "forward", None: "forward",
                       "ortho": "ortho", "forward": "backward"}


def _invalid_norm(norm):
    return ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or '
                      '"forward".')


def _swap_direction(norm):
    try:
        return _SWAP_DIRECTION_MAP[norm]
    except KeyError:
        raise _invalid_norm(norm) from None


def _check_array(a):
    if not isinstance(a, _core.ndarray):
        raise TypeError(
            f"Unsupported type {type(a)}: gpuarr.fft needs a gpuarr.ndarray; "
            "move host data to the device with gpuarr.asarray")
    return a


def _single(dt):
    return dt in (_np.float16, _np.float32, _np.complex64)


def _complex_dtype(dt):
    """result_type(dt, 1j): the complex dtype a transform of ``dt`` computes in."""
    return _np.dtype(_np.complex64) if _single(dt) else _np.dtype(_np.complex128)


def _real_out_dtype(dt):
    """result_type(dt.real, 1.0): NumPy's real output dtype (float16 stays float16)."""
    if dt == _np.float16:
        return _np.dtype(_np.float16)
    return _np.dtype(_np.float32) if _single(dt) else _np.dtype(_np.float64)


def _norm_factor(norm, n, is_forward, dtype=_np.float64):
    """NumPy's factor, computed as NumPy does in result_type(dtype.real, 1.0) (float16
    inputs get a float16 factor)."""
    if not is_forward:
        norm = _swap_direction(norm)
    real_dtype = _real_out_dtype(_np.dtype(dtype))
    if norm is None or norm == "backward":
        return 1.0
    if norm == "ortho":
        return float(_np.reciprocal(_np.sqrt(n, dtype=real_dtype)))
    if norm == "forward":
        return float(_np.reciprocal(n, dtype=real_dtype))
    raise _invalid_norm(norm)


def _fit_last(x, m, dtype):
    """x (axis last) cut or zero-padded to m along the last axis, as a C-contiguous array of
    ``dtype``; also says whether the result is a fresh buffer (safe to transform in place)."""
    length = x.shape[-1]
    if length < m:
        z = _core.zeros(x.shape[:-1] + (m,), dtype=dtype)
        z[..., :length] = x
        return z, True
    if length > m:
        x = x[..., :m]
    if x.dtype != dtype or not x.flags.c_contiguous:
        return _core.array(x, dtype=dtype, order="C", copy=True), True
    return x, False


def _scale(y, fct):
    if fct != 1.0:
        rdt = _np.float32 if y.dtype in (_np.complex64, _np.float32) else _np.float64
        _ufuncs.multiply(y, rdt(fct), out=y)
    return y


# Length-1 transforms are identities (copies); they skip cuFFT, whose size-1 plans we do not
# rely on.
def _exec_r2c(x, n):
    if n == 1:
        cdt = _np.complex64 if x.dtype == _np.float32 else _np.complex128
        return _core.array(x, dtype=cdt, order="C", copy=True)
    return _core._fft_r2c(x, 1)


def _exec_c2r(x, n):
    if n == 1:
        rdt = _np.float32 if x.dtype == _np.complex64 else _np.float64
        return _core.array(_ufuncs.real(x), dtype=rdt, order="C", copy=True)
    return _core._fft_c2r(x, n)


def _exec_c2c(x, forward, fresh):
    if x.shape[-1] == 1:
        return x if fresh else _core.array(x, order="C", copy=True)
    return _core._fft_c2c(x, forward, fresh, 1)


def _raw_fft(a, n, axis, is_real, is_forward, norm, out=None):
    """One 1-d transform, checked in NumPy's order: n, norm, axis, then out=."""
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    fct = _norm_factor(norm, n, is_forward, a.dtype)
    axis = _np_normalize_axis(axis, a.ndim)
    if is_real and is_forward:
        n_out, name = n // 2 + 1, "rfft_n_even" if n % 2 == 0 else "rfft_n_odd"
    else:
        n_out, name = n, ("irfft" if is_real else "fft" if is_forward else "ifft")
    res_dt = _real_out_dtype(a.dtype) if is_real and not is_forward else _complex_dtype(a.dtype)
    _check_out(out, a.shape[:axis] + (n_out,) + a.shape[axis + 1:], res_dt, axis, name)
    # NumPy sizes its result with n (a TypeError for a float); out= does not make a float
    # n acceptable here.
    n = operator.index(n)
    x = _shape_ops.moveaxis(a, axis, -1) if axis != a.ndim - 1 else a
    if is_real and is_forward:
        if a.dtype.kind == "c":
            raise TypeError("ufunc 'rfft' not supported for complex input; "
                            "take the real part first")
        rdt = _np.dtype(_np.float32) if _single(a.dtype) else _np.dtype(_np.float64)
        x, _ = _fit_last(x, n, rdt)
        y = _exec_r2c(x, n)
        _scale(y, fct)
    elif is_real:
        cdt = _complex_dtype(a.dtype)
        x, fresh = _fit_last(x, n // 2 + 1, cdt)
        if not fresh:
            x = _core.array(x, copy=True)
        # The imaginary parts of the DC (and, for even n, Nyquist) bins do not enter a real
        # signal: NumPy's pocketfft ignores them; cuFFT's C2R need not, so zero them.
        x[..., 0] = _ufuncs.real(x[..., 0])
        if n % 2 == 0 and x.shape[-1] == n // 2 + 1:
            x[..., n // 2] = _ufuncs.real(x[..., n // 2])
        y = _exec_c2r(x, n)
        _scale(y, fct)
        if y.dtype != res_dt:
            y = y.astype(res_dt)
    else:
        cdt = _complex_dtype(a.dtype)
        x, fresh = _fit_last(x, n, cdt)
        y = _exec_c2c(x, is_forward, fresh)
        _scale(y, fct)
    return _put_out(_shape_ops.moveaxis(y, -1, axis) if axis != a.ndim - 1 else y, out)


def _check_out(out, shape, dtype, axis, name):
    """NumPy's out= rules for a transform whose result has ``shape`` and ``dtype``, checked
    before any device work and in NumPy's order: an array of gpuarr's, of the result's
    number of dimensions and length along the (first) transformed ``axis`` ("wrong
    shape"), that the result casts to under 'same_kind' (named after NumPy's ufunc
    ``name``), and whose shape the result broadcasts to."""
    if out is None:
        return
    if not isinstance(out, _core.ndarray):
        raise TypeError("return arrays must be of ArrayType")
    if out.ndim != len(shape) or out.shape[axis] != shape[axis]:
        raise ValueError("output array has wrong shape.")
    if not _np.can_cast(dtype, out.dtype, "same_kind"):
        raise TypeError(f"Cannot cast ufunc '{name}' output from {dtype!r} to {out.dtype!r} "
                        "with casting rule 'same_kind'")
    if any(d != o and d != 1 for d, o in zip(shape, out.shape)):
        raise ValueError(f"non-broadcastable output operand with shape {out.shape} doesn't "
                         f"match the broadcast shape {tuple(shape)}")


def _put_out(result, out):
    """``result`` written into ``out`` (checked by _check_out: broadcast and cast as NumPy's
    ufunc does), or ``result`` itself without out=. The result is always a fresh buffer, so
    an ``out`` that is the input itself is fine."""
    if out is None:
        return result
    out[...] = result
    return out


def _np_normalize_axis(axis, ndim):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer") from None
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _fft_1d(a, n, axis, norm, out, real, forward):
    """The 1-d transforms' shared front: argument checks and NumPy's default length (the
    axis length, or 2*(m-1) points for the inverse of a real transform)."""
    _check_array(a)
    if n is None:
        n = a.shape[_np_normalize_axis(axis, a.ndim)]
        if real and not forward:
            n = (n - 1) * 2
    return _raw_fft(a, n, axis, real, forward, norm, out)


def fft(a: ndarray, n=None, axis: int = -1, norm=None, out: ndarray | None = None) -> ndarray:
    """1-d discrete Fourier transform (numpy.fft.fft)."""
    return _fft_1d(a, n, axis, norm, out, False, True)


def ifft(a: ndarray, n=None, axis: int = -1, norm=None,
         out: ndarray | None = None) -> ndarray:
    """1-d inverse discrete Fourier transform (numpy.fft.ifft)."""
    return _fft_1d(a, n, axis, norm, out, False, False)


def rfft(a: ndarray, n=None, axis: int = -1, norm=None,
         out: ndarray | None = None) -> ndarray:
    """1-d transform of real input, the n//2+1 non-negative frequencies (numpy.fft.rfft)."""
    return _fft_1d(a, n, axis, norm, out, True, True)


def irfft(a: ndarray, n=None, axis: int = -1, norm=None,
          out: ndarray | None = None) -> ndarray:
    """Inverse of rfft (numpy.fft.irfft): n real points, default 2*(m-1)."""
    return _fft_1d(a, n, axis, norm, out, True, False)


def hfft(a: ndarray, n=None, axis: int = -1, norm=None,
         out: ndarray | None = None) -> ndarray:
    """Transform of a Hermitian-symmetric signal (numpy.fft.hfft)."""
    _check_array(a)
    if n is None:
        n = (a.shape[_np_normalize_axis(axis, a.ndim)] - 1) * 2
    new_norm = _swap_direction(norm)
    return irfft(_ufuncs.conjugate(a), n, axis, norm=new_norm, out=out)


def ihfft(a: ndarray, n=None, axis: int = -1, norm=None,
          out: ndarray | None = None) -> ndarray:
    """Inverse of hfft (numpy.fft.ihfft)."""
    _check_array(a)
    new_norm = _swap_direction(norm)
    r = rfft(a, n, axis, norm=new_norm, out=out)
    return _ufuncs.conjugate(r, out=r)


def _cook_nd_args(a, s=None, axes=None, invreal=0):
    if s is None:
        shapeless = True
        if axes is None:
            s = list(a.shape)
        else:
            s = [a.shape[_np_normalize_axis(ax, a.ndim)] for ax in axes]
    else:
        shapeless = False
    s = list(s)
    if axes is None:
        if not shapeless:
            msg = ("`axes` should not be `None` if `s` is not `None` "
                   "(Deprecated in NumPy 2.0). In a future version of NumPy, "
                   "this will raise an error and `s[i]` will correspond to "
                   "the size along the transformed axis specified by "
                   "`axes[i]`. To retain current behaviour, pass a sequence "
                   "[0, ..., k-1] to `axes` for an array of dimension k.")
            warnings.warn(msg, DeprecationWarning, stacklevel=3)
        axes = list(range(-len(s), 0))
    axes = list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[_np_normalize_axis(axes[-1], a.ndim)] - 1) * 2
    if None in s:
        msg = ("Passing an array containing `None` values to `s` is "
               "deprecated in NumPy 2.0 and will raise an error in "
               "a future version of NumPy. To use the default behaviour "
               "of the corresponding 1-D transform, pass the value matching "
               "the default for its `n` parameter. To use the default "
               "behaviour for every axis, the `s` argument can be omitted.")
        warnings.warn(msg, DeprecationWarning, stacklevel=3)
    s = [a.shape[_np_normalize_axis(_a, a.ndim)] if _s == -1 else _s for _s, _a in zip(s, axes)]
    return s, axes


def _trailing_plan(a, s, axes, real_last):
    """{dim: n} when ``axes`` are the last k (1 to 3) distinct dims, every n >= 2 (and, for
    a real transform, axes[-1] is the last dim): one rank-k cuFFT plan does the whole
    transform. None otherwise (the per-axis loop, with NumPy's errors)."""
    k = len(axes)
    if not 1 <= k <= 3 or a.ndim < k:
        return None
    try:
        dims = [_np_normalize_axis(ax, a.ndim) for ax in axes]
        sizes = [operator.index(n) for n in s]
    except (TypeError, IndexError, ValueError):
        return None
    if sorted(dims) != list(range(a.ndim - k, a.ndim)) or min(sizes) < 2:
        return None
    if real_last and dims[-1] != a.ndim - 1:
        return None
    return dict(zip(dims, sizes))


def _fit_dims(x, sizes, dtype):
    """x cut or zero-padded to ``sizes`` ({dim: n}) as a C-contiguous array of ``dtype``, and
    whether it is a fresh buffer."""
    cut = tuple(slice(0, min(x.shape[d], sizes.get(d, x.shape[d]))) for d in range(x.ndim))
    x = x[cut]
    shape = tuple(sizes.get(d, x.shape[d]) for d in range(x.ndim))
    if shape != x.shape:
        z = _core.zeros(shape, dtype=dtype)
        z[tuple(slice(0, n) for n in x.shape)] = x
        return z, True
    if x.dtype != dtype or not x.flags.c_contiguous:
        return _core.array(x, dtype=dtype, order="C", copy=True), True
    return x, False


def _nd_factor(norm, sizes, is_forward, dtype):
    """The product of NumPy's per-axis factors: its loop transforms axes[-1] first (factor in
    the input's precision), the others on the complex result."""
    ns = list(sizes.values())
    fct = _norm_factor(norm, ns[-1], is_forward, dtype)
    for n in ns[:-1]:
        fct *= _norm_factor(norm, n, is_forward, _complex_dtype(_np.dtype(dtype)))
    return fct


def _check_nd_out(a, s, axes, norm, out, kind):
    """out= of an n-d transform (``kind`` "fft", "ifft", "rfft" or "irfft"), checked before
    device work: first what NumPy's 1-d steps check before it (each length >= 1, norm,
    each axis), then _check_out against the whole transform's result (NumPy checks it
    step by step, and so refuses an out= of the right final shape when s= resizes an axis
    before the last; gpuarr checks the shape the transform produces)."""
    if out is None or not axes:
        return
    k = len(axes)
    # NumPy's order of the 1-d steps: axes[-1] first, except irfftn (axes[-1] last).
    order = range(k) if kind == "irfft" else range(k - 1, -1, -1)
    shape = list(a.shape)
    for step, i in enumerate(order):
        axis = _np_normalize_axis(axes[i], a.ndim)
        n = s[i]
        if n is None:  # (deprecated) the 1-d transform's default length
            n = (a.shape[axis] - 1) * 2 if kind == "irfft" and i == k - 1 else a.shape[axis]
        if n < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
        _swap_direction(norm)
        shape[axis] = n // 2 + 1 if kind == "rfft" and step == 0 else n
        if step == 0:
            first_n = n
    if kind == "irfft":
        name = "irfft"
        dtype = _real_out_dtype(a.dtype if k == 1 else _complex_dtype(a.dtype))
    else:
        name = ("rfft_n_even" if first_n % 2 == 0 else "rfft_n_odd") if kind == "rfft" else kind
        dtype = _complex_dtype(a.dtype)
    _check_out(out, tuple(shape), dtype, _np_normalize_axis(axes[-1], a.ndim), name)


def _raw_fftnd(a, s, axes, function, norm, out):
    s, axes = _cook_nd_args(a, s, axes)
    if not axes:
        return a  # no transform (NumPy returns the input itself, and leaves out= alone)
    _check_nd_out(a, s, axes, norm, out, function.__name__)
    plan = _trailing_plan(a, s, axes, False)
    if plan is not None:
        forward = function is fft
        fct = _nd_factor(norm, plan, forward, a.dtype)
        x, fresh = _fit_dims(a, plan, _complex_dtype(a.dtype))
        return _put_out(_scale(_core._fft_c2c(x, forward, fresh, len(plan)), fct), out)
    for ii in reversed(range(len(axes))):
        a = function(a, n=s[ii], axis=axes[ii], norm=norm)
    return _put_out(a, out)


def fftn(a: ndarray, s=None, axes=None, norm=None, out: ndarray | None = None) -> ndarray:
    """N-d discrete Fourier transform (numpy.fft.fftn)."""
    _check_array(a)
    return _raw_fftnd(a, s, axes, fft, norm, out)


def ifftn(a: ndarray, s=None, axes=None, norm=None, out: ndarray | None = None) -> ndarray:
    """N-d inverse discrete Fourier transform (numpy.fft.ifftn)."""
    _check_array(a)
    return _raw_fftnd(a, s, axes, ifft, norm, out)


def fft2(a: ndarray, s=None, axes=(-2, -1), norm=None, out: ndarray | None = None) -> ndarray:
    """2-d discrete Fourier transform (numpy.fft.fft2)."""
    return fftn(a, s, axes, norm, out)


def ifft2(a: ndarray, s=None, axes=(-2, -1), norm=None, out: ndarray | None = None) -> ndarray:
    """2-d inverse discrete Fourier transform (numpy.fft.ifft2)."""
    return ifftn(a, s, axes, norm, out)


def rfftn(a: ndarray, s=None, axes=None, norm=None, out: ndarray | None = None) -> ndarray:
    """N-d transform of real input (numpy.fft.rfftn)."""
    _check_array(a)
    s, axes = _cook_nd_args(a, s, axes)
    _check_nd_out(a, s, axes, norm, out, "rfft")
    plan = _trailing_plan(a, s, axes, True) if a.dtype.kind != "c" else None
    if plan is not None:
        fct = _nd_factor(norm, plan, True, a.dtype)
        rdt = _np.dtype(_np.float32) if _single(a.dtype) else _np.dtype(_np.float64)
        x, _ = _fit_dims(a, plan, rdt)
        return _put_out(_scale(_core._fft_r2c(x, len(plan)), fct), out)
    a = rfft(a, s[-1], axes[-1], norm)
    for ii in range(len(axes) - 2, -1, -1):
        a = fft(a, s[ii], axes[ii], norm)
    return _put_out(a, out)


def rfft2(a: ndarray, s=None, axes=(-2, -1), norm=None, out: ndarray | None = None) -> ndarray:
    """2-d transform of real input (numpy.fft.rfft2)."""
    return rfftn(a, s, axes, norm, out)


def irfftn(a: ndarray, s=None, axes=None, norm=None, out: ndarray | None = None) -> ndarray:
    """Inverse of rfftn (numpy.fft.irfftn)."""
    _check_array(a)
    s, axes = _cook_nd_args(a, s, axes, invreal=1)
    _check_nd_out(a, s, axes, norm, out, "irfft")
    for ii in range(len(axes) - 1):
        a = ifft(a, s[ii], axes[ii], norm)
    return irfft(a, s[-1], axes[-1], norm, out=out)


def irfft2(a: ndarray, s=None, axes=(-2, -1), norm=None, out: ndarray | None = None) -> ndarray:
    """Inverse of rfft2 (numpy.fft.irfft2)."""
    return irfftn(a, s, axes, norm, out)


def _frequencies(host_fn, n, d, dtype, device):
    if not isinstance(n, (int, _np.integer)):
        raise ValueError("n should be an integer")
    if dtype is not None and _np.dtype(dtype).kind != "f":
        raise ValueError(f"dtype must be a real floating-point dtype, got {_np.dtype(dtype)}")
    # A closed form of n and d (no input array): NumPy's values, uploaded once.
    freqs = host_fn(n, d)
    return _core.asarray(freqs if dtype is None else freqs.astype(dtype), device=device)


def fftfreq(n, d=1.0, *, dtype=None, device=None) -> ndarray:
    """Sample frequencies of fft (numpy.fft.fftfreq), float64 (or ``dtype``, a real floating
    dtype) on ``device`` (the current one by default)."""
    return _frequencies(_np.fft.fftfreq, n, d, dtype, device)


def rfftfreq(n, d=1.0, *, dtype=None, device=None) -> ndarray:
    """Sample frequencies of rfft (numpy.fft.rfftfreq), float64 (or ``dtype``, a real
    floating dtype) on ``device`` (the current one by default)."""
    return _frequencies(_np.fft.rfftfreq, n, d, dtype, device)


def fftshift(x: ndarray, axes=None) -> ndarray:
    """Moves the zero frequency to the centre (numpy.fft.fftshift)."""
    x = _check_array(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [dim // 2 for dim in x.shape]
    elif isinstance(axes, (int, _np.integer)):
        shift = x.shape[axes] // 2
    else:
        shift = [x.shape[ax] // 2 for ax in axes]
    return _shape_ops.roll(x, shift, axes)


def ifftshift(x: ndarray, axes=None) -> ndarray:
    """Inverse of fftshift (numpy.fft.ifftshift)."""
    x = _check_array(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [-(dim // 2) for dim in x.shape]
    elif isinstance(axes, (int, _np.integer)):
        shift = -(x.shape[axes] // 2)
    else:
        shift = [-(x.shape[ax] // 2) for ax in axes]
    return _shape_ops.roll(x, shift, axes)


# gpuarr.fft.fft(dask_array) and the like hand the call to the foreign array, as NumPy does.
from gpuarr import _numpy_dispatch  # noqa: E402

_numpy_dispatch.defer_to_foreign_arrays(globals(), __all__, _np.fft)
