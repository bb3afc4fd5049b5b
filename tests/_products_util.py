"""Helpers shared by the products tests: data per dtype and a NumPy comparison with
tolerances that follow the dtype (exact for integers and bool)."""

import numpy as np

import gpuarr


def data(rng, shape, dtype):
    """Small values: integers in [-3, 3] (exact products everywhere), floats in [-1, 1]."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind == "u":
        return rng.integers(0, 4, size=shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(-3, 4, size=shape).astype(dtype)
    x = rng.uniform(-1, 1, size=shape)
    if dtype.kind == "c":
        x = x + 1j * rng.uniform(-1, 1, size=shape)
    return x.astype(dtype)


def check(d, h, rtol=None):
    """d (gpuarr) equals h (NumPy) in dtype and shape, and in values to the dtype's tolerance."""
    assert isinstance(d, gpuarr.ndarray), type(d)
    h = np.asarray(h)
    assert d.dtype == h.dtype, (d.dtype, h.dtype)
    assert d.shape == h.shape, (d.shape, h.shape)
    got = gpuarr.asnumpy(d)
    if h.dtype.kind in "biu":
        np.testing.assert_array_equal(got, h)
        return
    if rtol is None:
        rtol = {2: 2e-2, 4: 2e-4, 8: 1e-10, 16: 1e-10}[h.dtype.itemsize]
        if h.dtype.kind == "c":
            rtol = {8: 2e-4, 16: 1e-10}[h.dtype.itemsize]
    scale = max(1.0, float(np.max(np.abs(h.astype(np.complex128))))) if h.size else 1.0
    np.testing.assert_allclose(got.astype(np.complex128), h.astype(np.complex128),
                               rtol=rtol, atol=rtol * scale)
