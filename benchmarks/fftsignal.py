"""Group ``signal``: the seed's 2-d convolution (2048x2048 and 8192x8192 float64 by a 15x15
Gaussian, mode 'full' as the seed calls it), the 1-d convolution of 4M by 15 (np.convolve's
'full'), and a few FFTs, gpuarr vs CuPy (cupyx.scipy.signal, cupy.fft) vs PyTorch.

``python -m benchmarks.fftsignal --sweep`` prints direct vs FFT times over filter sizes:
the crossover is the routing threshold conv_direct_max_taps (core/routing_thresholds.cpp)."""

import sys

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group


def _gauss(k=15):
    x, y = np.meshgrid(np.linspace(-2, 2, k), np.linspace(-2, 2, k))
    return np.exp(-((np.sqrt(x * x + y * y)) ** 2 / 2.0))


def _deltas(n):
    primary = np.zeros((16, 16))
    primary[8, 8] = 1
    return np.tile(primary, (n // 16, n // 16))


def _check_conv2d(got, img, k, what):
    # the blurred deltas: a delta at (8, 8) gives the kernel around it in 'full' output
    check(got.shape == (img.shape[0] + k.shape[0] - 1, img.shape[1] + k.shape[1] - 1),
          f"{what}: shape {got.shape}")
    check(np.allclose(got[8:8 + k.shape[0], 8:8 + k.shape[1]], k, atol=1e-12),
          f"{what}: wrong values")


def _conv2d_workload(n, goal_us, cupy_note):
    w = Workload(f"convolve2d {n}x{n} float64 by 15x15", key=f"convolve2d_{n}_f64", kind="call",
                 goal=Goal(f"<= {goal_us / 1000:g} ms ({cupy_note})", abs_max=goal_us),
                 note="seed 003's call: mode 'full', boundary 'fill'")

    @w.impl("gpuarr")
    def _(ga):
        img, k = ga.asarray(_deltas(n)), ga.asarray(_gauss())
        _check_conv2d(ga.asnumpy(ga.signal.convolve2d(img, k)), _deltas(n), _gauss(), "gpuarr")
        return lambda: ga.signal.convolve2d(img, k)

    @w.impl("cupy")
    def _(cp):
        from cupyx.scipy.signal import convolve2d
        img, k = cp.asarray(_deltas(n)), cp.asarray(_gauss())
        _check_conv2d(cp.asnumpy(convolve2d(img, k)), _deltas(n), _gauss(), "cupy")
        return lambda: convolve2d(img, k)

    @w.impl("torch")
    def _(torch):
        img = torch.as_tensor(_deltas(n), device="cuda")[None, None]
        k = torch.as_tensor(_gauss()[::-1, ::-1].copy(), device="cuda")[None, None]
        f = lambda: torch.nn.functional.conv2d(img, k, padding=14)  # noqa: E731
        _check_conv2d(f()[0, 0].cpu().numpy(), _deltas(n), _gauss(), "torch")
        return f

    return w


CONV2K = _conv2d_workload(2048, 300.0, "CuPy 1.7 ms")
CONV8K = _conv2d_workload(8192, 3000.0, "CuPy 25 ms")

N1D = 4 * 1024 * 1024
CONV1D = Workload("convolve 1-d 4M float64 by 15", key="convolve1d_4m_f64", kind="call",
                  goal=Goal("<= 0.3 ms (CuPy 0.59 ms)", abs_max=300.0),
                  note="numpy.convolve semantics, mode 'full'")


def _conv1d_inputs():
    d = _deltas(2048).ravel()
    return d, np.ascontiguousarray(_gauss().diagonal())


@CONV1D.impl("gpuarr")
@CONV1D.impl("cupy")
def _conv1d_array_module(xp):
    """gpuarr and CuPy share asarray/convolve/asnumpy, so one setup serves both."""
    a, v = _conv1d_inputs()
    da, dv = xp.asarray(a), xp.asarray(v)
    got = xp.asnumpy(xp.convolve(da[:100_000], dv))
    check(np.allclose(got, np.convolve(a[:100_000], v)), f"{xp.__name__} convolve: wrong values")
    return lambda: xp.convolve(da, dv)


def _fft_workload(name, key, shape, dtype, fn):
    w = Workload(name, key=key, kind="call", goal=Goal("<= 1.1x CuPy", ratio_max=1.1),
                 note="cuFFT; plan cached")

    def host():
        rng = np.random.default_rng(7)
        x = rng.standard_normal(shape)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        return x.astype(dtype)

    def expect(got, h):
        ref = getattr(np.fft, fn)(h)
        check(np.allclose(got, ref, atol=1e-2 * max(1.0, float(np.abs(ref).max()))),
              f"{fn}: wrong values")

    @w.impl("gpuarr")
    @w.impl("cupy")
    def _(xp):  # gpuarr and CuPy share asarray/fft/asnumpy
        h = host()
        d = xp.asarray(h)
        f = getattr(xp.fft, fn)
        expect(xp.asnumpy(f(d)), h)
        return lambda: f(d)

    @w.impl("torch")
    def _(torch):
        h = host()
        d = torch.as_tensor(h, device="cuda")
        f = getattr(torch.fft, fn)
        expect(f(d).cpu().numpy(), h)
        return lambda: f(d)

    return w


FFT1M = _fft_workload("fft 2^20 complex64", "fft_1m_c64", (1 << 20,), np.complex64, "fft")
FFTBATCH = _fft_workload("fft 4096 x 1024 complex128 (rows)", "fft_4096x1024_c128",
                         (4096, 1024), np.complex128, "fft")
RFFT = _fft_workload("rfft 2048 x 4096 float32 (rows)", "rfft_2048x4096_f32", (2048, 4096),
                     np.float32, "rfft")
FFT2 = _fft_workload("fft2 2048x2048 complex64", "fft2_2048_c64", (2048, 2048), np.complex64,
                     "fft2")

register_group("signal", [CONV2K, CONV8K, CONV1D, FFT1M, FFTBATCH, RFFT, FFT2],
               "gpuarr.signal convolutions and gpuarr.fft (cuFFT)")


def sweep():
    """Direct vs FFT convolution over filter sizes (1-d and 2-d, float64): prints the
    crossover that conv_direct_max_taps (core/routing_thresholds.cpp) should follow."""
    import time

    import gpuarr as ga

    def t(f, reps=20):
        f()
        ga.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        ga.cuda.Device().synchronize()
        return (time.perf_counter() - t0) / reps * 1e6

    rng = np.random.default_rng(0)
    print("2-d 2048x2048 float64, mode 'same' (us): k, taps, direct, fft")
    img = ga.asarray(rng.standard_normal((2048, 2048)))
    for k in (3, 5, 7, 9, 11, 15, 16, 21, 31, 45):
        w = ga.asarray(rng.standard_normal((min(k, 16), k)))
        d = t(lambda: ga.signal.convolve(img, w, "same", method="direct"))
        f = t(lambda: ga.signal.convolve(img, w, "same", method="fft"))
        print(f"  {min(k, 16)}x{k:<4d} {w.size:6d} {d:10.1f} {f:10.1f}")
    print("1-d 4M float64, mode 'same' (us): taps, direct, fft")
    x = ga.asarray(rng.standard_normal(4 * 1024 * 1024))
    for k in (15, 63, 255, 1023, 2047, 4095, 16383):
        w = ga.asarray(rng.standard_normal(k))
        d = t(lambda: ga.signal.convolve(x, w, "same", method="direct"), 5)
        f = t(lambda: ga.signal.convolve(x, w, "same", method="fft"), 5)
        print(f"  {k:6d} {d:10.1f} {f:10.1f}")


if __name__ == "__main__":
    if "--sweep" in sys.argv:
        sweep()
