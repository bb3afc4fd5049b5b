"""gpuarr on a machine without a CUDA device: importing works, every call that needs a
device raises ``gpuarr.cuda.NoDeviceError`` (and the process stays healthy), and errors
that need no device (bad dtype, negative dimensions) come out as NumPy's.

Runs only where no device is present."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import gpuarr

pytestmark = pytest.mark.skipif(gpuarr.cuda.is_available(), reason="a CUDA device is present")

NO_DEVICE_MSG = "no CUDA device is available"

# Calls that need a device, as source text (used in-process and in a subprocess).
NEEDS_DEVICE = [
    "gpuarr.zeros(3)",
    "gpuarr.empty((2, 3), dtype='float32')",
    "gpuarr.ones(4, dtype='int8')",
    "gpuarr.full((2,), 1.5)",
    "gpuarr.ndarray((2, 2))",
    "gpuarr.asarray([1])",
    "gpuarr.array(np.arange(5.0))",
    "gpuarr.ascontiguousarray(np.arange(6).reshape(2, 3).T)",
    "gpuarr.copy([1, 2, 3])",
    "gpuarr.eye(3)",
    "gpuarr.identity(2)",
    "gpuarr.arange(10)",
    "gpuarr.linspace(0.0, 1.0, 5)",
    "gpuarr.zeros_like(np.ones((2, 3)))",
    "gpuarr.cuda.Stream()",
    "gpuarr.cuda.Event()",
    "gpuarr.cuda.Device()",
    "gpuarr.cuda.runtime.getDevice()",
    "gpuarr.empty_pinned(4)",
    "gpuarr.cuda.alloc_pinned_memory(16)",
    "gpuarr.get_default_memory_pool().used_bytes()",
]

SUBPROCESS_ENV = dict(os.environ)
SUBPROCESS_ENV["PYTHONPATH"] = os.pathsep.join(
    [os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))]
    + ([SUBPROCESS_ENV["PYTHONPATH"]] if SUBPROCESS_ENV.get("PYTHONPATH") else [])
)


def run_python(code):
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True, text=True, timeout=120, env=SUBPROCESS_ENV,
    )


def test_import_and_availability():
    assert gpuarr.cuda.is_available() is False
    assert gpuarr.cuda.runtime.getDeviceCount() == 0
    assert isinstance(gpuarr.__version__, str)


def _libcuda_loads():
    import ctypes
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


@pytest.mark.skipif(_libcuda_loads(), reason="an NVIDIA driver (libcuda.so.1) is installed")
def test_no_driver_is_named_as_such():
    # Not the runtime's "driver version is insufficient", which reads as "update the driver".
    reason = gpuarr._core.no_device_reason()
    assert reason.startswith("no NVIDIA driver found (libcuda could not be loaded"), reason
    with pytest.raises(gpuarr.cuda.NoDeviceError, match="no NVIDIA driver found"):
        gpuarr.zeros(3)


def test_exception_hierarchy():
    assert issubclass(gpuarr.cuda.NoDeviceError, gpuarr.cuda.CUDARuntimeError)
    assert issubclass(gpuarr.cuda.NoDeviceError, RuntimeError)
    assert issubclass(gpuarr.cuda.CUDARuntimeError, RuntimeError)
    assert issubclass(gpuarr.cuda.OutOfMemoryError, MemoryError)
    assert not issubclass(gpuarr.cuda.OutOfMemoryError, gpuarr.cuda.CUDARuntimeError)


def test_null_stream_needs_no_device():
    assert gpuarr.cuda.Stream.null.ptr == 0


@pytest.mark.parametrize("expr", NEEDS_DEVICE)
def test_needs_device_raises_no_device_error(expr):
    with pytest.raises(gpuarr.cuda.NoDeviceError) as info:
        eval(expr, {"gpuarr": gpuarr, "np": np})
    assert isinstance(info.value, gpuarr.cuda.CUDARuntimeError)
    assert isinstance(info.value, RuntimeError)
    assert NO_DEVICE_MSG in str(info.value)
    # The failure leaves the module usable: the same call fails the same way again.
    with pytest.raises(gpuarr.cuda.NoDeviceError, match=NO_DEVICE_MSG):
        eval(expr, {"gpuarr": gpuarr, "np": np})


@pytest.mark.parametrize("expr", NEEDS_DEVICE)
def test_needs_device_in_subprocess_exits_normally(expr):
    code = f"""
        import numpy as np
        import gpuarr
        try:
            {expr}
        except gpuarr.cuda.NoDeviceError as e:
            assert isinstance(e, gpuarr.cuda.CUDARuntimeError) and isinstance(e, RuntimeError)
            print("CAUGHT:", e)
        else:
            print("NO ERROR")
        # The interpreter keeps working after the error.
        print("AFTER:", np.arange(3).sum(), gpuarr.cuda.is_available())
    """
    r = run_python(code)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    assert "CAUGHT:" in r.stdout and NO_DEVICE_MSG in r.stdout, r.stdout
    assert "AFTER: 3 False" in r.stdout, r.stdout


def test_uncaught_no_device_error_exits_with_status_1():
    r = run_python("import gpuarr\ngpuarr.zeros(3)\n")
    # A Python exception (status 1), not a crash (negative status = killed by a signal).
    assert r.returncode == 1, (r.returncode, r.stderr)
    assert "NoDeviceError" in r.stderr and NO_DEVICE_MSG in r.stderr, r.stderr


# --- errors that need no device -----------------------------------------------------------

BAD_DTYPES = ["U3", object, "S2", "M8[s]", "m8[ns]", "V8", "O"]


@pytest.mark.parametrize("dtype", BAD_DTYPES, ids=str)
@pytest.mark.parametrize("fn", ["zeros", "empty", "ones"])
def test_bad_dtype_is_type_error(fn, dtype):
    # NumPy accepts these dtypes; gpuarr cannot hold them and must say so before it
    # looks for a device.
    np.empty(3, dtype=dtype)  # the dtype itself is valid
    with pytest.raises(TypeError):
        getattr(gpuarr, fn)(3, dtype=dtype)


def test_unknown_dtype_is_type_error():
    with pytest.raises(TypeError) as expected:
        np.zeros(3, dtype="not_a_dtype")
    with pytest.raises(type(expected.value)):
        gpuarr.zeros(3, dtype="not_a_dtype")


@pytest.mark.parametrize("obj", [["a", "b"], [1, "a"], np.array([object()], dtype=object)],
                         ids=["str-list", "mixed-list", "object-array"])
def test_unsupported_host_data_is_type_error(obj):
    with pytest.raises(TypeError):
        gpuarr.asarray(obj)


@pytest.mark.parametrize(
    "expr",
    ["zeros(-1)", "zeros((2, -1))", "empty((-3,))", "ones((0, -1))", "full((-2,), 1.0)",
     "ndarray((4, -4))"],
)
def test_negative_dimensions_value_error(expr):
    with pytest.raises(ValueError) as expected:
        eval("np." + expr, {"np": np})
    with pytest.raises(ValueError, match="negative dimensions are not allowed") as got:
        eval("gpuarr." + expr, {"gpuarr": gpuarr})
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("shape", [(2.0, 3), 2.5, [1.5], (3, None), np.float64(3)], ids=repr)
def test_non_integer_shape_type_error(shape):
    with pytest.raises(TypeError) as expected:
        np.zeros(shape)
    with pytest.raises(TypeError) as got:
        gpuarr.zeros(shape)
    if isinstance(shape, (tuple, list)):
        # For a sequence NumPy names the offending element's type, as gpuarr does.  (For
        # a bare float NumPy's message differs: "expected a sequence of integers ...".)
        assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("order", ["X", "K", "A"])
def test_bad_order_value_error(order):
    with pytest.raises(ValueError):
        np.zeros(3, order=order)
    with pytest.raises(ValueError):
        gpuarr.zeros(3, order=order)


def test_host_errors_in_subprocess_exit_normally():
    code = """
        import numpy as np
        import gpuarr
        results = []
        for fn, exc in [
            (lambda: gpuarr.zeros(3, dtype="U3"), TypeError),
            (lambda: gpuarr.zeros(3, dtype=object), TypeError),
            (lambda: gpuarr.zeros(-1), ValueError),
            (lambda: gpuarr.zeros((2.0, 3)), TypeError),
        ]:
            try:
                fn()
            except exc as e:
                results.append(type(e).__name__)
        assert gpuarr.cuda.Stream.null.ptr == 0
        assert issubclass(gpuarr.cuda.OutOfMemoryError, MemoryError)
        print("RESULTS", results)
    """
    r = run_python(code)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    assert "RESULTS ['TypeError', 'TypeError', 'ValueError', 'TypeError']" in r.stdout, r.stdout
