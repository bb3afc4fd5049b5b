"""Arithmetic operators of gpuarr.ndarray run through number slots that call C++ directly
(unless GPUARR_FAST_OPERATOR_SLOTS=0, where CPython's generic slots call __add__/__radd__).
Both ways must give the same answers, errors and NotImplemented fallbacks."""

import operator
import os
import subprocess
import sys

import numpy as np
import pytest

import gpuarr as ga
from conftest import GPU_MODULE, assert_bits_equal

pytestmark = GPU_MODULE

OPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
       operator.mod, operator.and_, operator.or_, operator.xor, operator.lshift,
       operator.rshift]
IOPS = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv,
        operator.imod, operator.iand, operator.ior, operator.ixor, operator.ilshift,
        operator.irshift]


def test_slots_installed_unless_turned_off():
    value, _source = ga._core._config_value("GPUARR_FAST_OPERATOR_SLOTS")
    assert ga._core._fast_operator_slots is (value == "1")


def test_switching_slots_in_process():
    """tools/probes/probe_dispatch.py switches between both paths in one process."""
    h = np.arange(1, 7, dtype=np.int64)
    a = ga.asarray(h)
    try:
        for on in (False, True, False):
            assert ga._core._set_fast_operator_slots(on) is on
            assert_bits_equal((a + 2).get(), h + 2)
            assert_bits_equal((3 - a).get(), 3 - h)
            b = a.copy()
            b *= 2
            assert_bits_equal(b.get(), h * 2)
            assert (a.__add__("x")) is NotImplemented
            with pytest.raises(TypeError):
                a + "x"
    finally:
        ga._core._set_fast_operator_slots(ga._core._fast_operator_slots)


@pytest.mark.parametrize("op", OPS, ids=lambda f: f.__name__)
def test_forward_reflected_and_scalars(op):
    h = np.arange(1, 7, dtype=np.int64).reshape(2, 3)
    g = np.array([3, 1, 2], dtype=np.int64)
    a, b = ga.asarray(h), ga.asarray(g)
    assert_bits_equal(op(a, b).get(), op(h, g))
    assert_bits_equal(op(b, a).get(), op(g, h))
    assert_bits_equal(op(a, 2).get(), op(h, 2))
    assert_bits_equal(op(5, a).get(), op(5, h))
    assert_bits_equal(op(a[:, ::-1], b).get(), op(h[:, ::-1], g))


@pytest.mark.parametrize("op, iop", list(zip(OPS, IOPS)), ids=lambda f: f.__name__)
def test_inplace_keeps_identity(op, iop):
    h = np.arange(1, 7, dtype=np.int64)
    a = ga.asarray(h)
    v = a[1:]
    if op is operator.truediv:
        # NumPy refuses to store true division's float64 result into int64 in place.
        with pytest.raises(TypeError):
            iop(h[1:].copy(), 3)
        with pytest.raises(TypeError):
            iop(v, 3)
        assert_bits_equal(a.get(), h)
        return
    r = iop(v, 3)
    assert r is v
    assert_bits_equal(a.get(), np.concatenate([h[:1], op(h[1:], 3)]).astype(np.int64))


def test_errors_translate():
    with pytest.raises(ValueError, match="could not be broadcast"):
        ga.ones(2) + ga.ones(3)
    with pytest.raises(TypeError):
        ga.ones(2, dtype=np.float32) & ga.ones(2, dtype=np.float32)
    with pytest.raises(TypeError):
        ga.ones(2) + "x"
    with pytest.raises(TypeError):
        [1] + ga.ones(2)
    a = ga.ones(2, dtype=np.int64)
    with pytest.raises(TypeError):
        a += 1.5  # same_kind cast of the float result into int64: NumPy's UFuncTypeError


def test_same_results_with_generic_slots():
    code = r"""
import hashlib, operator, numpy as np, gpuarr as ga
h = np.arange(-6, 6, dtype=np.int32).reshape(3, 4); h[h == 0] = 7
a = ga.asarray(h)
out = []
for name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "and_", "or_", "xor"):
    f = getattr(operator, name)
    for x, y in ((a, a), (a, 3), (5, a), (a, 2.5), (True, a), (h, a), (a, h), (a, h[0]),
                 (np.int16(3), a), (a, np.float32(2)), (a, "s"), (None, a)):
        try:
            r = f(x, y)
            out.append(repr(ga.asnumpy(r).tolist()) if isinstance(r, ga.ndarray) else repr(r))
        except Exception as e:
            out.append(type(e).__name__)
print(ga._core._fast_operator_slots, hashlib.sha256(repr(out).encode()).hexdigest())
"""
    res = {}
    for v in ("1", "0"):
        env = dict(os.environ, GPUARR_FAST_OPERATOR_SLOTS=v)
        line = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True).stdout.split()
        res[v] = line
    assert res["1"][0] == "True" and res["0"][0] == "False"
    assert res["1"][1] == res["0"][1]


def test_fused_call_same_with_generic_slot():
    code = r"""
import hashlib, numpy as np, gpuarr as ga, warnings
warnings.simplefilter("ignore")
from gpuarr import _fusion
@ga.fuse
def sqd(x, y):
    return (x - y) * (x - y)
x = ga.asarray(np.arange(10, dtype=np.int64)); y = ga.asarray(np.arange(10, 0, -1))
out = [repr(ga.asnumpy(sqd(x, y)).tolist()), repr(ga.asnumpy(sqd(x, 3)).tolist()),
       repr(ga.asnumpy(sqd(x=x, y=2.5)).tolist()), repr(sqd(2, 3))]
for bad in ((x,), (x, y, y), (x, "s")):
    try:
        sqd(*bad)
        out.append("no error")
    except Exception as e:
        out.append(type(e).__name__)
print(_fusion._FAST_CALL, hashlib.sha256(repr(out).encode()).hexdigest())
"""
    res = {}
    for v in ("1", "0"):
        env = dict(os.environ, GPUARR_FAST_OPERATOR_SLOTS=v)
        res[v] = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                text=True, check=True).stdout.split()
    assert res["1"][0] == "True" and res["0"][0] == "False"
    assert res["1"][1] == res["0"][1]
