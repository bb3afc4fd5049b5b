"""``python -m gpuarr``: the configuration a bug report needs (``gpuarr.show_config()``) and a
self-test of a few seconds on the first device: elementwise, reduction, matmul, FFT, sort,
a linear solve and a JIT-compiled kernel, each compared with NumPy. Exit status 0 when every
check passes (or there is no device to test, which it says), 1 when one fails."""

import sys
import time

import numpy as np

import gpuarr


def _checks():
    rng = np.random.default_rng(0)
    h = rng.standard_normal((256, 256))
    a = gpuarr.asarray(h)
    yield "elementwise", lambda: (gpuarr.asnumpy(gpuarr.sin(a) * 2 + a),
                                  np.sin(h) * 2 + h)
    yield "reduction", lambda: (gpuarr.asnumpy(gpuarr.sum(a, axis=0)), h.sum(axis=0))
    yield "matmul (cuBLAS)", lambda: (gpuarr.asnumpy(a @ a), h @ h)
    yield "fft (cuFFT)", lambda: (gpuarr.asnumpy(gpuarr.fft.fft(a)), np.fft.fft(h))
    yield "sort (CUB)", lambda: (gpuarr.asnumpy(gpuarr.sort(a, axis=None)), np.sort(h, axis=None))
    spd = h @ h.T + 256 * np.eye(256)
    b = h[:, 0]
    yield "solve (cuSOLVER)", lambda: (
        gpuarr.asnumpy(gpuarr.linalg.solve(gpuarr.asarray(spd), gpuarr.asarray(b))),
        np.linalg.solve(spd, b))
    square = gpuarr.ElementwiseKernel("float64 x", "float64 y", "y = x * x + 1.0",
                                      "gpuarr_self_test")
    yield "JIT kernel (NVRTC)", lambda: (gpuarr.asnumpy(square(a)), h * h + 1.0)


def self_test(out=sys.stdout):
    """Runs the checks; returns the number that failed."""
    if not gpuarr.cuda.is_available():
        print(f"Self-test skipped: no CUDA device ({gpuarr._core.no_device_reason()}).",
              file=out)
        return 0
    print(f"Self-test on device {gpuarr.cuda.Device().id}:", file=out)
    failed = 0
    for name, run in _checks():
        t0 = time.perf_counter()
        try:
            got, expected = run()
            ok = np.allclose(got, expected, rtol=1e-9, atol=1e-9)
            detail = "ok" if ok else "WRONG RESULT"
        except Exception as e:  # noqa: BLE001  (reported, and counted as a failure)
            ok, detail = False, f"{type(e).__name__}: {e}"
        failed += not ok
        print(f"  {name:20s} {detail}  ({(time.perf_counter() - t0) * 1e3:.0f} ms)", file=out)
    print("Self-test passed." if not failed else f"Self-test: {failed} check(s) failed.",
          file=out)
    return failed


def main():
    gpuarr.show_config()
    print()
    return 1 if self_test() else 0


if __name__ == "__main__":
    sys.exit(main())
