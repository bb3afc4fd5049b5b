"""NumPy 2 / Array API keywords: asarray's copy= and device=, device= on the creation
functions, ndarray.device/to_device, __array_namespace__, astype, finfo's Python floats,
sort/argsort(descending=), fft.fftfreq/rfftfreq(dtype=, device=).

Signatures, argument errors that need no device and finfo run on any machine; sort/argsort
and fftfreq also run with NumPy standing in for the device operations they call; the rest
needs a device."""

import inspect
import math

import numpy as np
import pytest

import _device_standin
import gpuarr
import gpuarr.fft
from gpuarr import _array_api, _core
from conftest import requires_gpu

gpu_only = [pytest.mark.gpu, requires_gpu]


# --- signatures (host) ---------------------------------------------------------------------

# The Array API's creation functions (and asanyarray, NumPy's asarray); NumPy's own
# (identity, logspace, geomspace, tri) keep NumPy's signatures, which have no device=.
PYTHON_CREATION = [gpuarr.arange, gpuarr.linspace, gpuarr.asanyarray, gpuarr.fft.fftfreq,
                   gpuarr.fft.rfftfreq]
EXTENSION_CREATION = ["empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like",
                      "full_like", "eye", "asarray"]


@pytest.mark.parametrize("fn", PYTHON_CREATION, ids=lambda f: f.__name__)
def test_python_creation_functions_take_keyword_only_device(fn):
    p = inspect.signature(fn).parameters["device"]
    assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is None


@pytest.mark.parametrize("name", EXTENSION_CREATION)
def test_extension_creation_functions_take_keyword_only_device(name):
    # pybind11 functions are not inspectable; their signature is the docstring's first line.
    signature = getattr(gpuarr, name).__doc__.splitlines()[0]
    params = signature.split("(", 1)[1].rsplit(")", 1)[0]
    assert "*, device: object = None" in params, signature


def test_asarray_takes_numpy2_keywords():
    signature = gpuarr.asarray.__doc__.splitlines()[0]
    assert "*, device" in signature and "copy" in signature.split("*", 1)[1], signature


@pytest.mark.parametrize("fn", [gpuarr.sort, gpuarr.argsort])
def test_sort_and_argsort_take_descending_and_stable(fn):
    params = inspect.signature(fn).parameters
    for name in ("descending", "stable"):
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["descending"].default is False


@pytest.mark.parametrize("fn", [gpuarr.fft.fftfreq, gpuarr.fft.rfftfreq])
def test_fftfreq_takes_dtype_and_device(fn):
    params = inspect.signature(fn).parameters
    assert params["dtype"].kind is params["device"].kind is inspect.Parameter.KEYWORD_ONLY


def test_astype_signature():
    params = inspect.signature(gpuarr.astype).parameters
    assert [p.kind for p in params.values()][:2] == [inspect.Parameter.POSITIONAL_ONLY] * 2
    assert params["copy"].default is True and params["device"].default is None


# --- versions and namespaces (host) ------------------------------------------------------

def test_array_api_version():
    assert gpuarr.__array_api_version__ == "2024.12"


@pytest.mark.parametrize("version", [None, "2021.12", "2022.12", "2023.12", "2024.12"])
def test_array_namespace_accepts_the_supported_versions(version):
    assert _array_api._array_namespace(None, api_version=version) is gpuarr


@pytest.mark.parametrize("version", ["2020.10", "2025.12", "2024", 2024.12])
def test_array_namespace_rejects_other_versions(version):
    with pytest.raises(ValueError, match="version"):
        _array_api._array_namespace(None, api_version=version)


def test_array_namespace_version_is_keyword_only():
    with pytest.raises(TypeError):
        _array_api._array_namespace(None, "2024.12")


# --- device= errors that need no device (host) ----------------------------------------------

@pytest.mark.parametrize("device", ["cpu", "cuda", "gpu:0", object(), 1.0, True, [0]])
def test_device_index_rejects_non_devices_with_valueerror(device):
    # NumPy raises ValueError ("Device not understood") for any device it does not know.
    with pytest.raises(ValueError, match="Device not understood"):
        _core._device_index(device)


def test_device_index_of_none():
    assert _core._device_index(None) == -1


# --- finfo / iinfo (host) ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_finfo_fields_are_python_floats(dtype):
    info, ref = gpuarr.finfo(np.dtype(dtype)), np.finfo(np.dtype(dtype))
    assert isinstance(info.bits, int) and info.bits == ref.bits
    for name in ("eps", "max", "min", "smallest_normal"):
        value = getattr(info, name)
        assert type(value) is float and value == float(getattr(ref, name)), name
    assert info.dtype == ref.dtype and isinstance(info.dtype, np.dtype)
    # NumPy's other fields are still there.
    assert info.resolution == ref.resolution and info.precision == ref.precision
    assert info.tiny == ref.tiny and repr(info) == repr(ref)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint64"])
def test_iinfo_fields_are_python_ints(dtype):
    info, ref = gpuarr.iinfo(np.dtype(dtype)), np.iinfo(np.dtype(dtype))
    assert type(info.bits) is int and type(info.max) is int and type(info.min) is int
    assert (info.min, info.max, info.dtype) == (ref.min, ref.max, ref.dtype)


def test_finfo_rejects_integers_as_numpy():
    with pytest.raises(ValueError):
        np.finfo(np.int32)
    with pytest.raises(ValueError):
        gpuarr.finfo(np.int32)


# --- sort / argsort(descending=): NumPy standing in, and on the device -------------------------

def _standin_sorts(monkeypatch):
    _device_standin.install(monkeypatch, {
        "_ndarray": np.ndarray,
        "asarray": np.asarray,
        "_sort": lambda a, axis: np.sort(a, axis),
        "_argsort": lambda a, axis: np.argsort(a, axis, kind="stable"),
    })


@pytest.fixture(params=["standin", pytest.param("device", marks=gpu_only)])
def mode(request, monkeypatch):
    if request.param == "standin":
        _standin_sorts(monkeypatch)
    return request.param


def _to_host(mode, x):
    return gpuarr.asnumpy(x) if mode == "device" else np.asarray(x)


def _input(mode, h):
    return gpuarr.asarray(h) if mode == "device" else h


def _descending_argsort(h, axis):
    """The Array API's stable descending argsort, by its definition, row by row: decreasing
    values, equal values in input order; NaNs first (as in flip(sort(x)))."""
    if axis is None:
        h, axis = h.reshape(-1), 0
    moved = np.moveaxis(h, axis, -1)
    out = np.empty(moved.shape, dtype=np.intp)
    for idx in np.ndindex(moved.shape[:-1]):
        row = [v.item() for v in moved[idx]]

        def key(i, row=row):
            return (0, 0) if math.isnan(row[i]) else (1, -row[i])

        out[idx] = sorted(range(len(row)), key=key)
    return np.moveaxis(out, -1, axis)


SORT_CASES = [
    (np.array([3, 1, 2, 1, 3, 0], dtype=np.int32), -1),
    (np.array([[2.0, np.nan, -0.0, 0.0], [1.0, 1.0, -np.inf, np.inf]]), 1),
    (np.array([[2.0, np.nan, -0.0, 0.0], [1.0, 1.0, -np.inf, np.inf]]), 0),
    (np.array([[5, 5, 1], [2, 7, 7]], dtype=np.uint8), None),
    (np.array([True, False, True, True]), 0),
    (np.zeros((2, 0), dtype=np.float32), 1),
    (np.array(4.0), None),
]


@pytest.mark.parametrize("h, axis", SORT_CASES)
def test_sort_descending(mode, h, axis):
    got = _to_host(mode, gpuarr.sort(_input(mode, h), axis=axis, descending=True))
    base = h.reshape(-1) if axis is None or h.ndim == 0 else h
    ax = 0 if axis is None or h.ndim == 0 else axis
    expected = np.flip(np.sort(base, axis=ax), axis=ax)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("h, axis", SORT_CASES)
def test_argsort_descending_is_stable(mode, h, axis):
    got = _to_host(mode, gpuarr.argsort(_input(mode, h), axis=axis, descending=True,
                                        stable=True))
    expected = _descending_argsort(h, axis)
    assert got.dtype == np.intp
    np.testing.assert_array_equal(got, expected)


def test_descending_argsort_oracle_keeps_equal_elements_in_input_order():
    np.testing.assert_array_equal(_descending_argsort(np.array([1, 3, 1, 3]), 0), [1, 3, 0, 2])


@pytest.mark.parametrize("descending", [False, True])
def test_sort_bad_axis_raises_axiserror(mode, descending):
    with pytest.raises(np.exceptions.AxisError):
        gpuarr.sort(_input(mode, np.arange(3)), axis=1, descending=descending)
    with pytest.raises(np.exceptions.AxisError):
        gpuarr.argsort(_input(mode, np.arange(3)), axis=1, descending=descending)


# --- fftfreq / rfftfreq(dtype=, device=) ------------------------------------------------------

@pytest.fixture(params=["standin", pytest.param("device", marks=gpu_only)])
def fft_mode(request, monkeypatch):
    if request.param == "standin":
        def asarray(a, dtype=None, order=None, *, device=None, copy=None):
            assert device is None
            return np.asarray(a, dtype=dtype, order=order, copy=copy)
        _device_standin.install(monkeypatch, {"asarray": asarray})
    return request.param


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("dtype", [None, np.float32, np.float64])
@pytest.mark.parametrize("n, d", [(8, 1.0), (7, 0.25), (1, 2.0), (0, 1.0)])
def test_fftfreq_dtype(fft_mode, name, dtype, n, d):
    if n == 0:
        with pytest.raises(ZeroDivisionError):
            getattr(np.fft, name)(n, d)
        with pytest.raises(ZeroDivisionError):
            getattr(gpuarr.fft, name)(n, d, dtype=dtype)
        return
    got = _to_host(fft_mode, getattr(gpuarr.fft, name)(n, d, dtype=dtype))
    expected = getattr(np.fft, name)(n, d)
    if dtype is not None:
        expected = expected.astype(dtype)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", [np.int64, np.complex128, np.bool_])
def test_fftfreq_rejects_non_real_floating_dtypes(dtype):
    with pytest.raises(ValueError, match="real floating"):
        gpuarr.fft.fftfreq(4, dtype=dtype)


# --- on the device -------------------------------------------------------------------------

@pytest.mark.gpu
@requires_gpu
class TestDevice:
    def test_ndarray_device_and_namespace(self):
        x = gpuarr.zeros(3)
        assert x.device == gpuarr.cuda.Device()
        assert x.device in gpuarr.__array_namespace_info__().devices()
        assert x.__array_namespace__() is gpuarr
        assert x.__array_namespace__(api_version="2023.12") is gpuarr
        with pytest.raises(ValueError):
            x.__array_namespace__(api_version="2025.12")

    @pytest.mark.parametrize("make", [
        lambda dev: gpuarr.empty((2, 3), device=dev),
        lambda dev: gpuarr.zeros((2, 3), device=dev),
        lambda dev: gpuarr.ones(4, dtype=np.int8, device=dev),
        lambda dev: gpuarr.full((2,), 7.5, device=dev),
        lambda dev: gpuarr.empty_like(gpuarr.ones(3), device=dev),
        lambda dev: gpuarr.zeros_like(gpuarr.ones(3), device=dev),
        lambda dev: gpuarr.ones_like(gpuarr.ones(3), device=dev),
        lambda dev: gpuarr.full_like(gpuarr.ones(3), 2, device=dev),
        lambda dev: gpuarr.eye(3, 4, k=1, device=dev),
        lambda dev: gpuarr.arange(10, device=dev),
        lambda dev: gpuarr.arange(1.0, 2.0, 0.25, device=dev),
        lambda dev: gpuarr.linspace(0, 1, 5, device=dev),
        lambda dev: gpuarr.asarray([1, 2], device=dev),
        lambda dev: gpuarr.asanyarray([1, 2], device=dev),
        lambda dev: gpuarr.fft.fftfreq(4, device=dev),
        lambda dev: gpuarr.fft.rfftfreq(4, device=dev),
    ])
    @pytest.mark.parametrize("device", ["none", "array_device", "id", "Device"])
    def test_creation_functions_take_device(self, make, device):
        current = gpuarr.cuda.Device()
        dev = {"none": None, "array_device": gpuarr.zeros(1).device, "id": current.id,
               "Device": gpuarr.cuda.Device(current.id)}[device]
        assert make(dev).device == current

    def test_creation_values_do_not_depend_on_device(self):
        dev = gpuarr.zeros(1).device
        np.testing.assert_array_equal(gpuarr.asnumpy(gpuarr.arange(2, 9, 3, device=dev)),
                                      np.arange(2, 9, 3))
        np.testing.assert_array_equal(gpuarr.asnumpy(gpuarr.full((2, 2), 3, device=dev)),
                                      np.full((2, 2), 3))
        np.testing.assert_array_equal(gpuarr.asnumpy(gpuarr.eye(3, k=-1, device=dev)),
                                      np.eye(3, k=-1))

    @pytest.mark.parametrize("device", ["cpu", "cuda:0", object(), 1.5])
    def test_creation_rejects_other_devices(self, device):
        for fn in (lambda: gpuarr.zeros(3, device=device),
                   lambda: gpuarr.asarray([1], device=device),
                   lambda: gpuarr.arange(3, device=device),
                   lambda: gpuarr.zeros_like(gpuarr.ones(2), device=device)):
            with pytest.raises(ValueError, match="Device not understood"):
                fn()

    def test_creation_rejects_a_device_id_out_of_range(self):
        n = gpuarr.cuda.runtime.getDeviceCount()
        for bad in (n, -1):
            with pytest.raises(ValueError, match="not available"):
                gpuarr.zeros(3, device=bad)

    def test_like_functions_default_to_the_prototype_device(self):
        x = gpuarr.ones((2, 2))
        for fn in (gpuarr.empty_like, gpuarr.zeros_like, gpuarr.ones_like):
            assert fn(x).device == x.device
        assert gpuarr.full_like(x, 3).device == x.device

    # asarray / array copy= (NumPy 2)
    def test_asarray_copy_none_returns_the_array(self):
        x = gpuarr.arange(4)
        assert gpuarr.asarray(x) is x
        assert gpuarr.asarray(x, copy=None) is x
        assert gpuarr.asarray(x, dtype=x.dtype, copy=False) is x

    def test_asarray_copy_true_copies(self):
        x = gpuarr.arange(4)
        y = gpuarr.asarray(x, copy=True)
        assert y is not x and y.data.ptr != x.data.ptr
        y[0] = 9
        assert int(x[0]) == 0

    def test_asarray_copy_false_raises_when_a_copy_is_needed(self):
        x = gpuarr.arange(4)
        message = "Unable to avoid copy while creating an array as requested."
        for fn in (lambda: gpuarr.asarray(x, dtype=np.float32, copy=False),
                   lambda: gpuarr.asarray([1, 2], copy=False),
                   lambda: gpuarr.asarray(np.arange(3), copy=False),
                   lambda: gpuarr.asarray(x[::2], order="C", copy=False),
                   lambda: gpuarr.array(np.arange(3), copy=False),
                   lambda: gpuarr.asanyarray(np.arange(3), copy=False)):
            with pytest.raises(ValueError, match=message):
                fn()
        with pytest.raises(ValueError):
            np.asarray([1, 2], copy=False)  # NumPy's behaviour, for the record

    def test_asarray_copy_false_keeps_views(self):
        x = gpuarr.arange(6)
        v = x[::2]
        assert gpuarr.asarray(v, copy=False) is v
        r = gpuarr.array(x, copy=False, ndmin=2)
        assert r.shape == (1, 6) and r.data.ptr == x.data.ptr

    def test_asarray_copy_none_and_true_on_host_data(self):
        h = np.arange(5.0)
        for copy in (None, True):
            np.testing.assert_array_equal(gpuarr.asnumpy(gpuarr.asarray(h, copy=copy)), h)

    def test_asarray_casts_with_dtype(self):
        x = gpuarr.arange(3)
        y = gpuarr.asarray(x, dtype=np.float32, copy=None)
        assert y.dtype == np.float32
        np.testing.assert_array_equal(gpuarr.asnumpy(y), np.arange(3, dtype=np.float32))

    # to_device / astype
    def test_to_device(self):
        x = gpuarr.arange(3)
        assert x.to_device(x.device) is x
        assert x.to_device(x.device.id) is x
        assert x.to_device(x.device, stream=gpuarr.cuda.Stream()) is x
        with pytest.raises(ValueError):
            x.to_device("cpu")
        with pytest.raises(ValueError):
            x.to_device(object())

    def test_astype_function(self):
        x = gpuarr.arange(3)
        y = gpuarr.astype(x, np.float64)
        assert y.dtype == np.float64 and y is not x
        assert gpuarr.astype(x, x.dtype, copy=False) is x
        z = gpuarr.astype(x, np.int8, device=x.device)
        assert z.dtype == np.int8 and z.device == x.device
        np.testing.assert_array_equal(gpuarr.asnumpy(z), np.arange(3, dtype=np.int8))
        assert gpuarr.astype(x, x.dtype, copy=True, device=x.device) is not x

    def test_meshgrid_and_broadcast_arrays_return_lists(self):
        # The Array API 2024.12 (gpuarr's declared version) returns lists; tuples from 2025.12.
        a, b = gpuarr.arange(2), gpuarr.arange(3)
        for indexing in ("xy", "ij"):
            for sparse in (False, True):
                assert type(gpuarr.meshgrid(a, b, indexing=indexing, sparse=sparse)) is list
        assert type(gpuarr.meshgrid(a)) is list and type(gpuarr.meshgrid()) is list
        assert type(gpuarr.broadcast_arrays(a[:, None], b)) is list
        assert type(gpuarr.broadcast_arrays(a, a)) is list
        assert type(gpuarr.broadcast_arrays()) is list

    def test_finfo_of_an_array(self):
        info = gpuarr.finfo(gpuarr.zeros(2, dtype=np.float32))
        assert type(info.eps) is float and info.dtype == np.float32

    # cumulative_sum / cumulative_prod(out=)
    @pytest.mark.parametrize("include_initial", [False, True])
    @pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
    def test_cumulative_out(self, name, include_initial):
        h = np.arange(1.0, 7.0).reshape(2, 3)
        expected = getattr(np, name)(h, axis=1, include_initial=include_initial)
        out = gpuarr.empty(expected.shape)
        r = getattr(gpuarr, name)(gpuarr.asarray(h), axis=1, out=out,
                                  include_initial=include_initial)
        assert r is out
        np.testing.assert_array_equal(gpuarr.asnumpy(out), expected)

    @pytest.mark.parametrize("include_initial", [False, True])
    def test_cumulative_out_of_the_wrong_shape(self, include_initial):
        n = 4 if include_initial else 5
        with pytest.raises(ValueError):
            np.cumulative_sum(np.arange(4.0), out=np.empty(n), include_initial=include_initial)
        with pytest.raises(ValueError):
            gpuarr.cumulative_sum(gpuarr.arange(4.0), out=gpuarr.empty(n),
                                  include_initial=include_initial)


@pytest.mark.gpu
@requires_gpu
def test_device_keywords_across_two_devices():
    if gpuarr.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two CUDA devices")
    current = gpuarr.cuda.Device()
    other = gpuarr.cuda.Device(1 - current.id if current.id < 2 else 0)
    h = np.arange(6.0)
    for made in (gpuarr.zeros(3, device=other), gpuarr.full(2, 1.5, device=other.id),
                 gpuarr.eye(2, device=other), gpuarr.arange(4, device=other),
                 gpuarr.linspace(0, 1, 3, device=other), gpuarr.asarray(h, device=other),
                 gpuarr.fft.fftfreq(4, device=other)):
        assert made.device == other
    assert gpuarr.cuda.Device() == current  # device= does not change the current device
    x = gpuarr.asarray(h)
    y = gpuarr.asarray(x, device=other)
    assert y.device == other and y is not x
    np.testing.assert_array_equal(gpuarr.asnumpy(y), h)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        gpuarr.asarray(x, device=other, copy=False)
    z = x.to_device(other)
    assert z.device == other
    np.testing.assert_array_equal(gpuarr.asnumpy(z), h)
    # The *_like functions follow the prototype's device unless device= says otherwise.
    assert gpuarr.zeros_like(z).device == other
    assert gpuarr.ones_like(z, device=current).device == current
    w = gpuarr.astype(x, np.float32, device=other)
    assert w.device == other and w.dtype == np.float32
