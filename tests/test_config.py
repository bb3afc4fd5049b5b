"""The configuration registry from Python: gpuarr.show_config / get_config with or without a
GPU, the scoped override tests use instead of the process environment, and bad values
(a ValueError naming the variable). Host-side: no test here needs a device."""

import io
import os
import subprocess
import sys
import textwrap

import pytest

import gpuarr
from gpuarr import _config, _core

ENV = dict(os.environ)
ENV["PYTHONPATH"] = os.pathsep.join(
    [os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))]
    + ([ENV["PYTHONPATH"]] if ENV.get("PYTHONPATH") else []))

NAMES = ["GPUARR_TRANSFER_THREADS", "GPUARR_STAGING_CHUNK_MB", "GPUARR_STAGING_BUFFERS",
         "GPUARR_STAGING_THRESHOLD_KB", "GPUARR_READBACK_SPIN_US", "GPUARR_SMALL_BLOCK_CACHE",
         "GPUARR_CACHE_DIR", "GPUARR_LAZY_MIN_SIZE", "GPUARR_FAST_OPERATOR_SLOTS",
         "GPUARR_SEGV_BACKTRACE", "GPUARR_LU_ROUTE", "GPUARR_DET_CUBLAS_MAX_N",
         "GPUARR_INV_EARLY_MIN_N", "GPUARR_QR_OWN_MAX_N", "GPUARR_SVD_POLAR_MIN_N",
         "GPUARR_TRIDIAG_TAIL"]


def run_python(code, **env):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120, env=dict(ENV, **env))


def test_registry_lists_every_setting():
    assert sorted(_core._config_names()) == sorted(NAMES)
    for name in NAMES:
        type_text, default, meaning = _core._config_info(name)
        assert type_text and meaning, name
    assert _core._config_info("GPUARR_LU_ROUTE")[:2] == ("one of auto|cusolver", "auto")
    assert _core._config_info("GPUARR_LAZY_MIN_SIZE")[1] == str(2**20)
    assert _core._config_info("GPUARR_SMALL_BLOCK_CACHE")[:2] == ("bool", "1")


def test_show_config_prints_everything_and_never_raises():
    buf = io.StringIO()
    gpuarr.show_config(file=buf)
    out = buf.getvalue()
    for name in NAMES:
        assert name in out
    assert f"gpuarr {gpuarr.__version__}" in out
    assert "NumPy" in out and "Python" in out
    assert "CUDA toolkit" in out and "architectures" in out
    assert "cuBLAS" in out and "cuSOLVER" in out and "cuFFT" in out and "NVRTC" in out
    if _core.device_count() == 0:
        assert "no CUDA device" in out
    else:
        assert "compute capability" in out


def test_get_config_dict():
    c = gpuarr.get_config()
    assert c["gpuarr"]["version"] == gpuarr.__version__
    assert set(c["settings"]) == set(NAMES)
    s = c["settings"]["GPUARR_TRIDIAG_TAIL"]
    assert s["default"] == "512" and s["type"].startswith("int")
    assert s["source"] in ("default", "environment", "override")
    assert c["build"]["cuda_toolkit"]  # set by CMake
    # Library versions need no device.
    assert c["libraries"]["nvrtc"] and c["libraries"]["cuda_runtime"]
    if _core.device_count() == 0:
        assert c["devices"] == [] and c["no_device_reason"]
    else:
        assert c["devices"][0]["compute_capability"]


def test_scoped_override_sets_and_restores():
    before = _core._config_value("GPUARR_TRIDIAG_TAIL")
    with _config.override(GPUARR_TRIDIAG_TAIL=32, GPUARR_LU_ROUTE="cusolver"):
        assert _core._config_value("GPUARR_TRIDIAG_TAIL") == ("32", "override")
        assert _core._config_value("GPUARR_LU_ROUTE") == ("cusolver", "override")
        with _config.override(GPUARR_TRIDIAG_TAIL=64):
            assert _core._config_value("GPUARR_TRIDIAG_TAIL")[0] == "64"
        assert _core._config_value("GPUARR_TRIDIAG_TAIL")[0] == "32"
    assert _core._config_value("GPUARR_TRIDIAG_TAIL") == before
    with _config.override(GPUARR_FAST_OPERATOR_SLOTS=False):  # bools as 1/0
        assert _core._config_value("GPUARR_FAST_OPERATOR_SLOTS") == ("0", "override")


def test_override_restores_after_an_exception():
    before = _core._config_value("GPUARR_QR_OWN_MAX_N")
    with pytest.raises(KeyError):
        with _config.override(GPUARR_QR_OWN_MAX_N=0):
            raise KeyError("inside")
    assert _core._config_value("GPUARR_QR_OWN_MAX_N") == before


@pytest.mark.parametrize("name,value,match", [
    ("GPUARR_TRIDIAG_TAIL", "abc", r"GPUARR_TRIDIAG_TAIL='abc' is not an integer"),
    ("GPUARR_TRIDIAG_TAIL", 0, r"GPUARR_TRIDIAG_TAIL=0 is outside \[1, inf\]"),
    ("GPUARR_LU_ROUTE", "cublas", r"GPUARR_LU_ROUTE='cublas' is not one of auto, cusolver"),
    ("GPUARR_SMALL_BLOCK_CACHE", "maybe", r"GPUARR_SMALL_BLOCK_CACHE='maybe' is not a boolean"),
    ("GPUARR_STAGING_BUFFERS", 1, r"GPUARR_STAGING_BUFFERS=1 is outside \[2, 64\]"),
])
def test_bad_override_values_name_the_variable(name, value, match):
    before = _core._config_value(name)
    other = _core._config_value("GPUARR_READBACK_SPIN_US")
    with pytest.raises(ValueError, match=match):
        with _config.override(GPUARR_READBACK_SPIN_US=7, **{name: value}):
            pass
    assert _core._config_value(name) == before
    assert _core._config_value("GPUARR_READBACK_SPIN_US") == other  # the first one undone


def test_unknown_setting():
    with pytest.raises(ValueError, match="no gpuarr setting named 'GPUARR_NO_SUCH'"):
        with _config.override(GPUARR_NO_SUCH=1):
            pass


def test_environment_read_at_first_use_and_reported():
    # A fresh process: the environment's values, their source, and a bad value reported by
    # show_config (not raised) and raised by the setting's first use.
    r = run_python("""
        import io, gpuarr
        from gpuarr import _core
        print(_core._config_value("GPUARR_LU_ROUTE"))
        print(_core._config_value("GPUARR_INV_EARLY_MIN_N"))
        buf = io.StringIO()
        gpuarr.show_config(file=buf)
        print([l for l in buf.getvalue().splitlines() if "GPUARR_TRIDIAG_TAIL" in l][0])
        try:
            _core._config_value("GPUARR_TRIDIAG_TAIL")
        except ValueError as e:
            print("ValueError:", e)
    """, GPUARR_LU_ROUTE="CUSOLVER", GPUARR_INV_EARLY_MIN_N="", GPUARR_TRIDIAG_TAIL="many")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "('cusolver', 'environment')"
    assert lines[1] == "('512', 'default')"  # empty counts as unset
    assert "invalid environment value" in lines[2] and "GPUARR_TRIDIAG_TAIL='many'" in lines[2]
    assert lines[3] == "ValueError: GPUARR_TRIDIAG_TAIL='many' is not an integer"


def test_lazy_min_size_setter_is_the_setting():
    old = _core._set_lazy_min_size(12345)
    try:
        assert _core._config_value("GPUARR_LAZY_MIN_SIZE") == ("12345", "override")
    finally:
        _core._set_lazy_min_size(old)
    with _config.override(GPUARR_LAZY_MIN_SIZE=77):
        assert _core._set_lazy_min_size(77) == 77
