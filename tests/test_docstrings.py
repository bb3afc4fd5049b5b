"""Every public callable of gpuarr's namespaces has a docstring (host-only): a summary line
beyond the signature that pybind11 writes for a binding without documentation."""

import inspect
import re
import types

import pytest

import gpuarr
import gpuarr.cuda
import gpuarr.fft
import gpuarr.linalg
import gpuarr.profiler
import gpuarr.random
import gpuarr.signal

NAMESPACES = [gpuarr, gpuarr.linalg, gpuarr.fft, gpuarr.random, gpuarr.signal, gpuarr.cuda,
              gpuarr.profiler]

# What pybind11 puts in __doc__ by itself: "name(arg: type, ...) -> type" lines and, for
# overloads, "Overloaded function." with numbered signatures.
_SIGNATURE = re.compile(r"^(\d+\. )?[A-Za-z_]\w*\(.*\)( -> .+)?$")


def _text(doc):
    lines = inspect.cleandoc(doc or "").splitlines()
    return "\n".join(line for line in lines
                     if not _SIGNATURE.match(line.strip()) and
                     line.strip() != "Overloaded function.").strip()


def _own_doc(obj):
    # A class's own docstring, not one inherited from a base class.
    if isinstance(obj, type):
        return obj.__dict__.get("__doc__")
    return obj.__doc__


def _public_callables():
    for mod in NAMESPACES:
        names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
        for name in names:
            obj = getattr(mod, name)
            if isinstance(obj, types.ModuleType) or not callable(obj):
                continue
            if isinstance(obj, type) and issubclass(obj, BaseException):
                continue  # exceptions: their name and NumPy's or CUDA's base class say it
            origin = getattr(obj, "__module__", None) or type(obj).__module__
            if origin.split(".")[0] == "numpy":
                continue  # NumPy's own objects (gpuarr.float32, gpuarr.dtype) carry its docs
            yield f"{mod.__name__}.{name}", obj


PUBLIC = dict(_public_callables())


def test_the_walk_finds_the_api():
    for name in ("gpuarr.zeros", "gpuarr.sum", "gpuarr.add", "gpuarr.linalg.svd",
                 "gpuarr.fft.fft", "gpuarr.random.normal", "gpuarr.signal.convolve2d",
                 "gpuarr.cuda.Device", "gpuarr.ndarray"):
        assert name in PUBLIC, name
    assert len(PUBLIC) > 300


def test_signature_lines_are_not_documentation():
    assert _text("zeros(shape: object, dtype: object = None) -> gpuarr._core.ndarray\n") == ""
    assert _text("f(*args, **kwargs)\nOverloaded function.\n\n1. f(a: int) -> None\n") == ""
    assert _text("f(a: int) -> None\n\nReturn a new array.\n") == "Return a new array."


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_callable_has_a_docstring(name):
    assert _text(_own_doc(PUBLIC[name])), f"{name} has no docstring"
