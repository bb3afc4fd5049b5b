"""Runs gpuarr's composed NumPy functions (set operations, function_base, padding, ...) with
NumPy standing in for the device, so that their Python logic (argument handling, index
arithmetic, formulas) is checked against NumPy on a machine without a GPU.

The composed modules reach the device only through the gpuarr modules they import
(``_core``, ``_sorting``, ``_ufuncs``, ...), calling names NumPy also has (``sort``,
``searchsorted``, ``concatenate``, ``where``, ...); ``standin`` swaps those module references
for NumPy in the composed modules, for one test (pytest's monkeypatch undoes it)."""

import types

import numpy as np

from gpuarr import (
    _array_edit, _array_utils, _assignment, _bit_packing, _function_base, _histogram_bins,
    _padding, _polynomial, _printing, _set_ops, _statistics, _value_checks, emath,
)

COMPOSED_MODULES = (_array_edit, _assignment, _bit_packing, _function_base, _padding,
                    _set_ops, _statistics, _value_checks, _array_utils, _histogram_bins,
                    _polynomial, _printing, emath)
DEVICE_MODULES = ("_core", "_creation", "_indexing", "_products", "_reductions", "_shape_ops",
                  "_sorting", "_ufuncs", "_convolve", "_grid_creation", "_array_edit",
                  "_eigen", "_solvers")


def _where3(condition, x, y, out=None):
    """gpuarr's where ufunc, whose out= NumPy's where lacks."""
    r = np.where(condition, x, y)
    if out is None:
        return r
    np.copyto(out, r, casting="unsafe")
    return out


class _NumpyCore(types.ModuleType):
    """NumPy, plus the names of gpuarr's extension that NumPy spells differently."""

    def __init__(self):
        super().__init__("numpy_core_standin")
        self.asnumpy = np.asarray
        self.ndarray = np.ndarray
        # gpuarr.linalg's modules (_eigen, _solvers) spell these without the submodule
        self.eigvals = np.linalg.eigvals
        self.lstsq = np.linalg.lstsq
        self.inv = np.linalg.inv
        # gpuarr's bin-count estimator ('auto', 'fd', ...): the count NumPy's edges have
        self._estimated_bin_count = lambda a, bins, range, weights: len(
            np.histogram_bin_edges(a, bins, range, weights)) - 1
        self._where3 = _where3
        self._minmax = lambda a: (float(np.min(a)), float(np.max(a)))
        # the one-pass pad declines: the axis-by-axis path runs
        self._pad = lambda a, pad_width, mode, value=None: None

    def __getattr__(self, name):
        return getattr(np, name)


NUMPY_CORE = _NumpyCore()


def standin(monkeypatch):
    for m in COMPOSED_MODULES:
        for name in DEVICE_MODULES:
            if name in vars(m):
                monkeypatch.setattr(m, name, NUMPY_CORE)
        if "_ndarray" in vars(m):
            monkeypatch.setattr(m, "_ndarray", np.ndarray)


# --- the backend fixture ------------------------------------------------------------------

import pytest  # noqa: E402

import gpuarr  # noqa: E402
from conftest import GPU_MODULE, outcome, public_exception_type  # noqa: E402


class Backend:
    """Where a test's inputs live: ``gpu`` (gpuarr arrays on the device) or ``numpy`` (NumPy
    arrays, with NumPy standing in for the device in the composed modules)."""

    def __init__(self, name, monkeypatch):
        self.name = name
        self.gpu = name == "gpu"
        if not self.gpu:
            standin(monkeypatch)

    def dev(self, h):
        """A device copy of the host array ``h`` (a NumPy copy under the stand-in)."""
        return gpuarr.asarray(h) if self.gpu else np.array(h, copy=True)

    def host(self, r):
        """The host value of a result (arrays, tuples of arrays, scalars)."""
        if isinstance(r, (tuple, list)):
            return type(r)(self.host(x) for x in r)
        if isinstance(r, gpuarr.ndarray):
            return gpuarr.asnumpy(r)
        return r

    def is_array(self, r):
        # NumPy's reductions give scalars where gpuarr's give 0-d arrays
        return isinstance(r, gpuarr.ndarray if self.gpu else (np.ndarray, np.generic))


@pytest.fixture(params=[pytest.param("numpy", id="standin"),
                        pytest.param("gpu", id="gpu", marks=GPU_MODULE)])
def xp(request, monkeypatch):
    return Backend(request.param, monkeypatch)


def check(xp, got, expected, *, rtol=0.0, atol=0.0, dtype=True):
    """``got`` (a result of the backend) equals NumPy's ``expected``: type structure, shape,
    dtype and values (exactly, NaN == NaN, unless a tolerance is given)."""
    if expected is None:  # the in-place functions
        assert got is None, type(got)
        return
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)), type(got)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            check(xp, g, e, rtol=rtol, atol=atol, dtype=dtype)
        return
    assert xp.is_array(got), type(got)
    g = xp.host(got)
    e = np.asarray(expected)
    assert g.shape == e.shape, (g.shape, e.shape)
    if dtype:
        assert g.dtype == e.dtype, (g.dtype, e.dtype)
    if rtol or atol:
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, e)


def same_outcome(xp, np_call, ga_call, *, rtol=0.0, atol=0.0):
    """Runs NumPy and gpuarr; both raise an exception of the same public type, or both
    return equal results."""
    with np.errstate(all="ignore"):
        kind_e, exp, _ = outcome(np_call)
        kind_g, got, _ = outcome(ga_call)
    if kind_e == "raise":
        assert kind_g == "raise", f"NumPy raised {exp!r}, gpuarr returned {got!r}"
        assert isinstance(got, public_exception_type(exp)), (got, exp)
        return
    if kind_g == "raise":
        raise got
    check(xp, got, exp, rtol=rtol, atol=atol)
