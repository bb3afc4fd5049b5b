"""gpuarr.fft against numpy.fft: sizes incl. primes and odd lengths, n smaller/larger than
the axis, axes, each norm, each dtype (result dtypes as NumPy 2), views, errors."""

import numpy as np
import pytest

import gpuarr
from conftest import gpu_test

NORMS = [None, "backward", "ortho", "forward"]
DTYPES = [np.float16, np.float32, np.float64, np.int32, np.bool_, np.complex64, np.complex128]


def _data(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dtype)
    if dtype.kind in "iu":
        return rng.integers(-50, 50, size=shape).astype(dtype)
    x = rng.standard_normal(size=shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(size=shape)
    return x.astype(dtype)


def _check(d, h):
    assert isinstance(d, gpuarr.ndarray)
    assert d.dtype == h.dtype, (d.dtype, h.dtype)
    assert d.shape == h.shape, (d.shape, h.shape)
    single = h.dtype in (np.complex64, np.float32, np.float16)
    scale = max(1.0, float(np.max(np.abs(h.astype(np.complex128)))) if h.size else 1.0)
    tol = (3e-3 if h.dtype == np.float16 else 2e-5 if single else 1e-11) * scale
    np.testing.assert_allclose(d.get().astype(np.complex128), h.astype(np.complex128),
                               rtol=0, atol=tol)


# --- host-side (no device needed) ---------------------------------------------------------


def test_numpy_input_is_type_error():
    with pytest.raises(TypeError, match="gpuarr.asarray"):
        gpuarr.fft.fft(np.ones(4))
    with pytest.raises(TypeError, match="gpuarr.asarray"):
        gpuarr.fft.fftshift([1, 2, 3])


def test_dtype_rules_match_numpy():
    from gpuarr.fft import _complex_dtype, _real_out_dtype
    for dt in DTYPES + [np.int8, np.uint64, np.int64]:
        a = np.ones(4, dt)
        assert _complex_dtype(a.dtype) == np.fft.fft(a).dtype, dt
        assert _real_out_dtype(a.dtype) == np.fft.irfft(a).dtype, dt


def test_norm_factors_match_numpy():
    from gpuarr.fft import _norm_factor
    for n in (1, 7, 16):
        x = np.zeros(n); x[0] = 1.0
        for norm in NORMS:
            assert np.isclose(_norm_factor(norm, n, True), np.fft.fft(x, norm=norm)[0].real)
            assert np.isclose(_norm_factor(norm, n, False), np.fft.ifft(x, norm=norm)[0].real)
    with pytest.raises(ValueError, match="Invalid norm value"):
        _norm_factor("bad", 4, True)


# --- device ------------------------------------------------------------------------------


@gpu_test
@pytest.mark.parametrize("n", [1, 2, 7, 16, 97, 128, 1009, 4096])
@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_1d_sizes(rng, func, n):
    dt = np.float64 if func in ("rfft", "ihfft") else np.complex128
    if func in ("irfft", "hfft") and n == 1:
        pytest.skip("irfft default n of a length-1 axis is 0 (error case tested below)")
    h = _data(rng, (3, n), dt)
    _check(getattr(gpuarr.fft, func)(gpuarr.asarray(h)), getattr(np.fft, func)(h))


@gpu_test
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_1d_dtypes(rng, func, dtype):
    if func in ("rfft", "ihfft") and np.dtype(dtype).kind == "c":
        pytest.skip("real transforms of complex input raise (tested below)")
    h = _data(rng, (4, 30), dtype)
    _check(getattr(gpuarr.fft, func)(gpuarr.asarray(h)), getattr(np.fft, func)(h))


@gpu_test
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [5, 12, 30, 45])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_1d_n_axis_norm(rng, func, axis, n, norm):
    dt = np.float32 if func in ("rfft", "ihfft") else np.complex64
    h = _data(rng, (30, 31, 2)[:2] if axis != 1 else (6, 30), dt)
    d = gpuarr.asarray(h)
    _check(getattr(gpuarr.fft, func)(d, n=n, axis=axis, norm=norm),
           getattr(np.fft, func)(h, n=n, axis=axis, norm=norm))


@gpu_test
@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft"])
def test_views(rng, func):
    dt = np.float64 if func == "rfft" else np.complex128
    h = _data(rng, (9, 20, 6), dt)
    d = gpuarr.asarray(h)
    for key in [(slice(None, None, -1),), (slice(None), slice(None, None, 3)),
                (Ellipsis, slice(1, 5))]:
        for axis in (0, 1, 2):
            _check(getattr(gpuarr.fft, func)(d[key], axis=axis),
                   getattr(np.fft, func)(h[key], axis=axis))
    # the input is left unchanged
    np.testing.assert_array_equal(d.get(), h)


@gpu_test
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
@pytest.mark.parametrize("func", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2",
                                  "rfft2", "irfft2"])
@pytest.mark.parametrize("s_axes", [(None, None), (None, (0,)), (None, (2, 0)),
                                    ((4, 9), (0, 2)), ((7, 5, 6), (0, 1, 2)), (None, (-1, -2))])
def test_nd(rng, func, s_axes, norm):
    s, axes = s_axes
    if func.endswith("2") and (axes is None or len(axes) != 2):
        axes = (-2, -1)
        s = None
    dt = np.float64 if func.startswith("rfft") else np.complex128
    h = _data(rng, (6, 5, 8), dt)
    d = gpuarr.asarray(h)
    _check(getattr(gpuarr.fft, func)(d, s=s, axes=axes, norm=norm),
           getattr(np.fft, func)(h, s=s, axes=axes, norm=norm))


@gpu_test
def test_empty_batch_and_roundtrip(rng):
    h = np.zeros((0, 8), np.complex64)
    _check(gpuarr.fft.fft(gpuarr.asarray(h)), np.fft.fft(h))
    x = _data(rng, (5, 1000), np.float64)
    d = gpuarr.asarray(x)
    np.testing.assert_allclose(gpuarr.fft.irfft(gpuarr.fft.rfft(d), n=1000).get(), x, atol=1e-12)
    np.testing.assert_allclose(gpuarr.fft.ifft(gpuarr.fft.fft(d)).get().real, x, atol=1e-12)


@gpu_test
def test_irfft_ignores_imag_of_dc_and_nyquist(rng):
    h = _data(rng, (3, 9), np.complex128)  # n = 16: bins 0 and 8 have imaginary parts
    _check(gpuarr.fft.irfft(gpuarr.asarray(h)), np.fft.irfft(h))
    _check(gpuarr.fft.irfft(gpuarr.asarray(h), n=17), np.fft.irfft(h, n=17))


@gpu_test
def test_errors():
    d = gpuarr.ones(4)
    for fn, kw in [(gpuarr.fft.fft, {"n": 0}), (gpuarr.fft.irfft, {"n": -1}),
                   (gpuarr.fft.fft, {"norm": "bad"}), (gpuarr.fft.ifft, {"norm": "bad"})]:
        with pytest.raises(ValueError) as e:
            fn(d, **kw)
        with pytest.raises(ValueError) as e_np:
            getattr(np.fft, fn.__name__)(np.ones(4), **kw)
        # NumPy before 2.5.5 wrote '"backward","ortho"' in the forward transforms' message.
        assert str(e.value) == str(e_np.value).replace('","', '", "')
    with pytest.raises(np.exceptions.AxisError):
        gpuarr.fft.fft(d, axis=1)
    with pytest.raises(TypeError):
        gpuarr.fft.fft(d, n=2.0)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        gpuarr.fft.irfft(gpuarr.ones(1))
    with pytest.raises(ValueError, match="Shape and axes"):
        gpuarr.fft.fftn(gpuarr.ones((2, 2)), s=(2,), axes=(0, 1))


@gpu_test
def test_plan_cache_and_streams(rng):
    h = _data(rng, (4, 64), np.complex64)
    d = gpuarr.asarray(h)
    gpuarr._core._fft_plan_cache_clear()
    gpuarr.fft.fft(d)
    gpuarr.fft.fft(d)
    assert gpuarr._core._fft_plan_cache_size() == 1
    s = gpuarr.cuda.Stream()
    with s:
        r = gpuarr.fft.fft(d)
    s.synchronize()
    _check(r, np.fft.fft(h))


@gpu_test
@pytest.mark.parametrize("shape", [(8,), (5, 6), (3, 4, 7)])
def test_freq_and_shift(rng, shape):
    for n, d in [(1, 1.0), (8, 0.1), (9, 2)]:
        np.testing.assert_array_equal(gpuarr.fft.fftfreq(n, d).get(), np.fft.fftfreq(n, d))
        np.testing.assert_array_equal(gpuarr.fft.rfftfreq(n, d).get(), np.fft.rfftfreq(n, d))
    h = _data(rng, shape, np.float32)
    d = gpuarr.asarray(h)
    for axes in [None, 0, (-1,), tuple(range(len(shape)))]:
        np.testing.assert_array_equal(gpuarr.fft.fftshift(d, axes).get(), np.fft.fftshift(h, axes))
        np.testing.assert_array_equal(gpuarr.fft.ifftshift(d, axes).get(), np.fft.ifftshift(h, axes))


def test_trailing_plan_selection():
    from gpuarr.fft import _trailing_plan
    a = np.zeros((2, 3, 4, 5))
    assert _trailing_plan(a, [4, 5], [-2, -1], False) == {2: 4, 3: 5}
    assert _trailing_plan(a, [5, 4], [3, 2], False) == {3: 5, 2: 4}
    assert _trailing_plan(a, [5, 4], [3, 2], True) is None      # real axis must be last
    assert _trailing_plan(a, [3, 4, 5], [1, 2, 3], True) == {1: 3, 2: 4, 3: 5}
    assert _trailing_plan(a, [2, 3, 4, 5], [0, 1, 2, 3], False) is None  # rank 4
    assert _trailing_plan(a, [3, 5], [1, 3], False) is None      # not trailing
    assert _trailing_plan(a, [5, 5], [3, 3], False) is None      # repeated axis
    assert _trailing_plan(a, [0, 5], [2, 3], False) is None      # n < 1: NumPy's error path
    assert _trailing_plan(a, [1, 5], [2, 3], False) is None      # size-1 axes: the loop
    assert _trailing_plan(a, [4], [7], False) is None            # bad axis: NumPy's error path


@gpu_test
@pytest.mark.parametrize("func", ["fftn", "ifftn", "rfftn", "fft2", "rfft2"])
def test_nd_trailing_plans(rng, func):
    dt = np.float32 if func.startswith("r") else np.complex64
    h = _data(rng, (3, 6, 10, 7), dt)
    d = gpuarr.asarray(h)
    for s, axes in [(None, (-1,)), (None, (2, 3)), ((5, 12), (2, 3)), ((4, 8, 9), (1, 2, 3)),
                    ((12, 5), (3, 2))]:
        if func.endswith("2") and len(axes) != 2:
            continue
        for norm in NORMS:
            _check(getattr(gpuarr.fft, func)(d, s=s, axes=axes, norm=norm),
                   getattr(np.fft, func)(h, s=s, axes=axes, norm=norm))
        _check(getattr(gpuarr.fft, func)(d[:, ::-1], s=s, axes=axes),
               getattr(np.fft, func)(h[:, ::-1], s=s, axes=axes))


# --- host: the Python layer on a NumPy stand-in for the device -------------------------------


@pytest.mark.parametrize("func", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_host_1d_python_layer(monkeypatch, rng, func):
    import _fftsignal_standin
    gfft = _fftsignal_standin.install(monkeypatch)[0]
    for dt in DTYPES:
        for shape, n, axis, norm in [((4, 9), None, -1, None), ((4, 9), 5, 0, "ortho"),
                                     ((6, 8), 13, 1, "forward"), ((3, 1), None, -1, None),
                                     ((2, 3, 4), 6, 1, None), ((0, 4), None, -1, None),
                                     ((4,), 0, 0, None), ((4,), None, 0, "bad")]:
            h = _data(rng, shape, dt)
            for x in (h, h[::-1]):
                ref = _host_outcome(lambda: getattr(np.fft, func)(x, n, axis, norm))
                got = _host_outcome(lambda: getattr(gfft, func)(x, n, axis, norm))
                _host_same(got, ref)


@pytest.mark.parametrize("func", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2",
                                  "irfft2"])
def test_host_nd_python_layer(monkeypatch, rng, func):
    import _fftsignal_standin
    gfft = _fftsignal_standin.install(monkeypatch)[0]
    for dt in [np.float32, np.float64, np.complex64, np.int64]:
        h = _data(rng, (6, 5, 8), dt)
        for s, axes in [(None, None), (None, (0,)), (None, (2, 0)), ((4, 9), (0, 2)),
                        ((7, 5, 6), (0, 1, 2)), ((3, 4), (1, 2)), ((3, 4), (2, 1)),
                        ((2, 3), (1, 1)), ((0, 3), (1, 2))]:
            for x in (h, h[:, ::2]):
                ref = _host_outcome(lambda: getattr(np.fft, func)(x, s, axes, "ortho"))
                got = _host_outcome(lambda: getattr(gfft, func)(x, s, axes, "ortho"))
                _host_same(got, ref)


def _host_outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001
        return "raise", e


def _host_same(got, ref):
    if ref[0] == "raise":
        assert got[0] == "raise" and isinstance(got[1], type(ref[1]).__mro__[0] if type(
            ref[1]).__module__ == "builtins" else Exception), (got, ref)
        return
    assert got[0] == "ok", got[1]
    g, r = np.asarray(got[1]), np.asarray(ref[1])
    assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, r.dtype, g.shape, r.shape)
    if r.size:
        tol = {np.dtype(np.float16): 3e-3}.get(r.dtype, 2e-5 if r.dtype in (np.float32, np.complex64) else 1e-12)
        sc = max(1.0, float(np.max(np.abs(r.astype(complex)))))
        np.testing.assert_allclose(g.astype(complex), r.astype(complex), atol=tol * sc, rtol=0)
