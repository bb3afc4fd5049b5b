"""The Array API standard's namespace surface (host checks) and, on a GPU, the array-level
protocol (__array_namespace__, device, to_device, mT)."""

import numpy as np
import pytest

import gpuarr as ga
from conftest import gpu_test


def test_version_and_info():
    assert ga.__array_api_version__ == "2024.12"
    info = ga.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == np.float64
    assert info.default_dtypes()["indexing"] == np.int64
    assert set(info.dtypes(kind="signed integer")) == {"int8", "int16", "int32", "int64"}
    assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
    assert "float64" in info.dtypes()
    assert info.capabilities()["boolean indexing"] is True
    with pytest.raises(ValueError):
        info.dtypes(kind="strings")


def test_standard_names_exist():
    for name in ["bool", "acos", "asin", "atan", "atan2", "acosh", "asinh", "atanh", "pow",
                 "bitwise_left_shift", "bitwise_right_shift", "bitwise_invert", "isdtype",
                 "astype", "result_type", "can_cast", "finfo", "iinfo"]:
        assert hasattr(ga, name), name
    assert ga.isdtype(np.float32, "real floating")
    assert not ga.isdtype(np.int8, "real floating")


@gpu_test
def test_array_namespace_and_device():
    x = ga.asarray(np.arange(6.0).reshape(2, 3))
    assert x.__array_namespace__() is ga
    assert x.__array_namespace__(api_version="2023.12") is ga
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")
    assert x.to_device(x.device) is x
    y = ga.astype(x, np.float32)
    assert y.dtype == np.float32 and np.array_equal(ga.asnumpy(y), np.arange(6.0, dtype=np.float32).reshape(2, 3))
