"""gpuarr.fuse: fused results equal the eager ones (dtype and values) over dtypes,
broadcast shapes, views and Python scalars; a final reduction; eager fallback with one
warning; the kernel cache across processes. Host tests check the generated source with
NVRTC (no device needed)."""

import hashlib
import os
import pathlib
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import gpuarr
from gpuarr import _core, _fusion
from conftest import gpu_test, random_array

REAL_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float16", "float32", "float64"]
ARCH = ["-arch=sm_90"] + list(_fusion.FUSE_OPTIONS)


@gpuarr.fuse
def squared_diff(x, y):
    return (x - y) * (x - y)


@gpuarr.fuse
def affine(x, s):
    return x * s + 1


@gpuarr.fuse
def select(x, y):
    return gpuarr.where(x > y, gpuarr.maximum(x, y), gpuarr.minimum(x, y) + y)


@gpuarr.fuse
def transcend(x, y):
    return gpuarr.sqrt(gpuarr.absolute(x)) + gpuarr.exp(-abs(y) / 100) * gpuarr.tanh(x)


@gpuarr.fuse
def bits(x, y):
    return (x & y) | (x ^ ~y)


@gpuarr.fuse
def intdiv(x, y):
    return x // y, x % y


@gpuarr.fuse
def more_float(x, y):
    return (gpuarr.logaddexp(x / 50, y / 50) + gpuarr.logaddexp2(x / 50, y / 50)
            + gpuarr.deg2rad(x) - gpuarr.rad2deg(y) / 1000
            + gpuarr.float_power(gpuarr.absolute(x), 0.5) + gpuarr.conjugate(y))


@gpuarr.fuse
def casts(x):
    return (x + 1).astype(np.float16) * 2 + x.astype(np.float32)


@gpuarr.fuse
def sum_sq(x, y):
    return gpuarr.sum((x - y) * (x - y))


@gpuarr.fuse
def max_of(x):
    return (x + x).max()


@gpuarr.fuse
def data_dependent(x):
    if x > 0:
        return x
    return -x


# ---------------------------------------------------------------- host: generated source

@pytest.mark.parametrize("dt", REAL_DTYPES)
def test_generated_source_compiles(dt):
    for f, specs in [(squared_diff, [(dt, 2), (dt, 1)]), (affine, [(dt, 1), int]),
                     (affine, [(dt, 1), float]), (select, [(dt, 1), ("s", dt)]),
                     (max_of, [(dt, 3)]), (intdiv, [(dt, 1), (dt, 1)]),
                     (more_float, [(dt, 1), (dt, 1)]), (casts, [(dt, 2)])]:
        try:
            kname, src, kinds, outs, single = f.trace(specs)
        except _fusion._Unfusable as e:  # bool - bool, bool // bool: eager raises too
            assert dt == "bool" or f is more_float, e
            continue
        assert kname.startswith("gafused_")
        cubin, log = _core._jit_check_compile(src, ARCH)
        assert cubin, log


def _calling(name):
    return gpuarr.fuse(lambda *a: getattr(gpuarr, name)(*a))


def _fusable_ufuncs(dt):
    """The names of the ufuncs that fuse traces for arrays of dtype ``dt``."""
    found = []
    for name, u in sorted(_core._ufuncs.items()):
        if not isinstance(getattr(gpuarr, name, None), _core.ufunc):
            continue  # where and clip are functions over the ufunc
        f = _calling(name)
        try:
            f.trace([(dt, 1)] * u.nin)
        except _fusion._Unfusable:
            continue
        found.append(name)
    return found


@pytest.mark.parametrize("dt", REAL_DTYPES)
def test_every_ufunc_fuses_and_compiles(dt):
    # Each ufunc with an eager loop for dt becomes a call of the loop's functor; all of
    # them in one kernel (results cast to float64 and summed) compile under NVRTC.
    found = _fusable_ufuncs(dt)
    eager_loops = {n for n, u in _core._ufuncs.items()
                   if isinstance(getattr(gpuarr, n, None), _core.ufunc)
                   and any(t.split("->")[0] == np.dtype(dt).char * u.nin for t in u.types)}
    if np.dtype(dt) == np.float16:
        eager_loops -= _fusion.HALF_LOOPS_NOT_FUSED
    assert eager_loops <= set(found), eager_loops - set(found)
    for name in found:
        nin = _core._ufuncs[name].nin
        src = _calling(name).trace([(dt, 1)] * nin)[1]
        assert "gpuarr::ufn::%s{}(" % _core._ufunc_jit_info(name)[0] in src

    @gpuarr.fuse
    def all_of_them(x, y):
        total = x.astype(np.float64) * 0
        for name in found:
            args = (x, y)[:_core._ufuncs[name].nin]
            total = total + getattr(gpuarr, name)(*args).astype(np.float64)
        return total

    src = all_of_them.trace([(dt, 1)] * 2)[1]
    cubin, log = _core._jit_check_compile(src, ARCH)
    assert cubin, log


def test_shipped_headers_are_on_the_include_path_and_in_the_cache_key():
    inc = pathlib.Path(_core._jit_include_dir()) / "gpuarr"
    names = sorted(p.name for p in inc.iterdir() if not p.name.startswith("."))
    assert {"ufunc_math.cuh", "ufunc_complex.cuh", "rounded_arith.cuh"} <= set(names)
    text = b"".join(n.encode() + b"\0" + (inc / n).read_bytes() + b"\0" for n in names)
    assert _core._jit_headers_digest() == hashlib.sha256(text).hexdigest()


def test_integer_power_by_an_array_fuses():
    f = gpuarr.fuse(lambda x, y: x ** y + x ** 3)
    src = f.trace([("int16", 1), ("int16", 1)])[1]
    assert src.count("gpuarr::ufn::Power{}(") == 4  # twice in each of the two kernels
    assert _core._jit_check_compile(src, ARCH)[0]


def test_generated_source_calls_the_functors():
    src = more_float.trace([("float32", 1), ("float32", 1)])[1]
    for functor in ("Logaddexp", "Deg2rad", "Rad2deg", "Power", "Conjugate", "TrueDivide"):
        assert "gpuarr::ufn::%s{}(" % functor in src
    assert "#include <gpuarr/ufunc_math.cuh>" in src
    # Parsing cuda_fp16.h is a tenth of a cold compile; generated code needs only the
    # prelude's stand-in __half.
    assert "#include <cuda_fp16.h>" not in src
    # float16 computes in float32 through the eager loops' conversion.
    src = squared_diff.trace([("float16", 1), ("float16", 1)])[1]
    assert "gpuarr::ufn::half_to_float(in0)" in src
    src = max_of.trace([("float64", 1)])[1]
    assert "gpuarr::ufn::Maximum{}(x, y)" in src


def test_trace_dtypes_follow_eager_resolution():
    _, _, kinds, outs, _ = squared_diff.trace([("int8", 1), ("int16", 1)])
    assert kinds == "aao" and outs == [np.dtype("int16")]
    _, _, kinds, outs, _ = affine.trace([("uint8", 1), int])      # weak int keeps uint8
    assert kinds == "aso" and outs == [np.dtype("uint8")]
    _, _, _, outs, _ = affine.trace([("float32", 1), float])       # weak float keeps float32
    assert outs == [np.dtype("float32")]
    _, _, _, outs, _ = affine.trace([("int32", 1), ("s", "float64")])  # strong scalar
    assert outs == [np.dtype("float64")]
    _, _, kinds, outs, single = intdiv.trace([("int32", 1), ("int32", 1)])
    assert kinds == "aaoo" and not single and outs == [np.dtype("int32")] * 2
    _, _, kinds, outs, _ = sum_sq.trace([("int8", 1), ("int8", 1)])
    assert kinds == "aaR" and outs == [np.dtype("int64")]
    _, _, kinds, outs, _ = max_of.trace([("float16", 2)])
    assert kinds == "aR" and outs == [np.dtype("float16")]


@pytest.mark.parametrize("f,specs,reason", [
    (data_dependent, [("float64", 1)], "data-dependent control flow"),
    (squared_diff, [("complex64", 1), ("complex64", 1)], "complex"),
    (gpuarr.fuse(lambda x, n: x ** n), [("int32", 1), int], "integers with a scalar exponent"),
    (gpuarr.fuse(lambda x: x ** -2), [("int64", 1)], "integers with a negative exponent"),
    (squared_diff, [int, int], "no array arguments"),
    (gpuarr.fuse(lambda x: x.sum() + 1), [("int32", 1)], "operations after a reduction"),
    (gpuarr.fuse(lambda x: gpuarr.sort(x)), [("int32", 1)], "gpuarr.sort is not supported"),
])
def test_unfusable_reasons(f, specs, reason):
    with pytest.raises(_fusion._Unfusable, match=reason):
        f.trace(specs)


def test_compile_error_shows_line_numbers():
    src = 'extern "C" __global__ void k(float* x) {\n  x[0] = 1;\n  x[1] = undefined_name;\n}\n'
    with pytest.raises(gpuarr.cuda.CompileError) as ei:
        _core._jit_check_compile(src, ["-arch=sm_90"])
    msg = str(ei.value)
    assert "undefined_name" in msg and "(3)" in msg
    assert "   3   x[1] = undefined_name;" in msg


def test_fuse_decorator_forms():
    f = gpuarr.fuse(kernel_name="my_kernel")(lambda x: x + 1)
    assert f.name == "my_kernel"
    assert squared_diff.__name__ == "squared_diff"
    with pytest.raises(TypeError):
        gpuarr.fuse(1, 2)


# ---------------------------------------------------------------- device: fused == eager

def _check(fused, args, exact=True):
    got = fused(*args)
    want = fused.func(*args)
    if not isinstance(got, tuple):
        got, want = (got,), (want,)
    for g, w in zip(got, want):
        assert isinstance(g, gpuarr.ndarray)
        assert g.dtype == w.dtype and g.shape == w.shape
        gh, wh = gpuarr.asnumpy(g), gpuarr.asnumpy(w)
        if exact or g.dtype.kind in "biu":
            np.testing.assert_array_equal(gh, wh)
        else:
            rtol = {2: 1e-3, 4: 1e-5, 8: 1e-12}[g.dtype.itemsize]
            np.testing.assert_allclose(gh, wh, rtol=rtol, atol=0)


def _pair(rng, dt, shape_x, shape_y):
    return (gpuarr.asarray(random_array(rng, shape_x, dt)),
            gpuarr.asarray(random_array(rng, shape_y, dt)))


@gpu_test
@pytest.mark.parametrize("dt", REAL_DTYPES)
@pytest.mark.parametrize("shapes", [((7,), (7,)), ((3, 1), (5,)), ((), (4, 3)), ((0,), (1,)),
                                    ((2, 3, 4), (2, 3, 4))])
def test_fused_equals_eager(rng, dt, shapes):
    x, y = _pair(rng, dt, *shapes)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # every case here is fusable
        if dt != "bool":
            _check(squared_diff, (x, y))
            _check(affine, (x, 3))
        _check(affine, (x, 2.5))
        _check(select, (x, y))
        if dt != "bool":
            _check(casts, (x,))
        if dt[0] in "iub":
            _check(bits, (x, y))
        if dt[0] in "iu":
            _check(intdiv, (x, y))
        if dt[0] == "f":
            _check(intdiv, (x, y), exact=False)
            _check(transcend, (x, y), exact=False)
            _check(more_float, (x, y), exact=False)


@gpu_test
@pytest.mark.parametrize("dt", ["int64", "float32", "uint8", "float16"])
def test_fused_views(rng, dt):
    base = gpuarr.asarray(random_array(rng, (6, 8), dt))
    other = gpuarr.asarray(random_array(rng, (8, 6), dt))
    for x, y in [(base[::2, 1::3], base[1::2, ::-3]), (base.T, other), (base[::-1], other.T),
                 (base[:, ::-1], base[2])]:
        _check(squared_diff, (x, y))
        _check(select, (x, y))


@gpu_test
@pytest.mark.parametrize("dt", REAL_DTYPES)
def test_fused_reduction(rng, dt):
    x, y = _pair(rng, dt, (1000,), (1000,))
    if dt != "bool":
        _check(sum_sq, (x, y), exact=dt[0] != "f")
    _check(max_of, (x,))
    _check(max_of, (x[::-7],))
    empty = gpuarr.asarray(np.zeros((0,), dt))
    if dt != "bool":
        _check(sum_sq, (empty, empty))   # runs eagerly: NumPy's identity
    with pytest.raises(ValueError):
        max_of(empty)


@gpu_test
def test_fused_large_strided(rng):
    x = gpuarr.asarray(random_array(rng, (300, 1001), "float64"))
    y = gpuarr.asarray(random_array(rng, (1001,), "float64"))
    _check(squared_diff, (x[:, ::2], y[::2]))
    _check(sum_sq, (x, y), exact=False)


@gpu_test
def test_unfusable_runs_eagerly_with_one_warning():
    f = gpuarr.fuse(data_dependent.func)
    x = gpuarr.asarray(np.array([-2.0]))
    with pytest.warns(RuntimeWarning, match="data-dependent control flow"):
        r1 = f(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r2 = f(x)
    np.testing.assert_array_equal(gpuarr.asnumpy(r1), gpuarr.asnumpy(r2))
    np.testing.assert_array_equal(gpuarr.asnumpy(r1), gpuarr.asnumpy(data_dependent.func(x)))


@gpu_test
def test_numpy_scalar_arguments(rng):
    x = gpuarr.asarray(random_array(rng, (10,), "float32"))
    _check(affine, (x, np.float64(1.25)))
    _check(affine, (x, np.int8(3)))


_CACHE_SCRIPT = textwrap.dedent("""
    import numpy as np, gpuarr
    @gpuarr.fuse
    def sqd(x, y):
        return (x - y) * (x - y)
    k = gpuarr.RawKernel('extern "C" __global__ void one(float* x) { x[threadIdx.x] = 1; }', 'one')
    x = gpuarr.arange(10, dtype=np.int64)
    r = sqd(x, x[::-1])
    a = gpuarr.zeros(4, dtype=np.float32)
    k((1,), (4,), (a,))
    assert (gpuarr.asnumpy(r) == (np.arange(10) - np.arange(10)[::-1]) ** 2).all()
    assert (gpuarr.asnumpy(a) == 1).all()
    print("COUNT", gpuarr._core._jit_compile_count())
""")


@gpu_test
def test_disk_cache_hit_in_fresh_process(tmp_path):
    env = dict(os.environ, GPUARR_CACHE_DIR=str(tmp_path / "cache"))
    counts = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", _CACHE_SCRIPT], env=env, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        counts.append(int(out.stdout.split("COUNT")[1]))
    assert counts[0] >= 2 and counts[1] == 0
    assert any(p.suffix == ".bin" for p in (tmp_path / "cache").iterdir())


@pytest.mark.parametrize("dt", ["float16", "int32"])
def test_generated_source_is_self_contained(dt):
    # No toolkit include directory: NVRTC alone must compile fused kernels (they use the
    # prelude's stand-in __half, never cuda_fp16.h).
    for f, specs in [(squared_diff, [(dt, 1), (dt, 1)]), (sum_sq, [(dt, 2), (dt, 1)]),
                     (select, [(dt, 1), float])]:
        src = f.trace(specs)[1]
        cubin, log = _core._jit_check_compile(src, ARCH, toolkit_include=False)
        assert cubin, log


def test_python_int_ranges_recorded():
    ranges = []
    affine.trace([("uint8", 1), int], ranges)
    assert ranges == [[], [(0, 255, "uint8")]]
    ranges = []
    affine.trace([("float32", 1), int], ranges)   # converted to float: no integer range
    assert ranges == [[], []]


@gpu_test
def test_python_int_out_of_bounds_raises_as_eager(rng):
    x = gpuarr.asarray(random_array(rng, (5,), "uint8"))
    for _ in range(2):   # the tracing call and the C++ fast path
        with pytest.raises(OverflowError, match="out of bounds for uint8"):
            affine(x, 300)
        with pytest.raises(OverflowError):
            affine.func(x, 300)
        _check(affine, (x, 255))


@gpuarr.fuse
def outer_calls_fused(x, y):
    return squared_diff(x, y) + gpuarr.sqrt(abs(x))


def test_nested_fused_functions_trace_inline():
    kname, src, kinds, outs, single = outer_calls_fused.trace([("float32", 1), ("float32", 1)])
    assert kinds == "aao" and outs == [np.dtype("float32")]
    assert _core._jit_check_compile(src, ARCH)[0]


def test_float16_loops_round_python_floats_to_half_once():
    src = affine.trace([("float16", 1), float])[1]
    assert "__double2half((double)in1)" in src
    assert _core._jit_check_compile(src, ARCH, toolkit_include=False)[0]


@gpu_test
def test_float16_with_python_float(rng):
    x = gpuarr.asarray(random_array(rng, (257,), "float16"))
    for s in (0.1, 1 / 3, 1e-5, 70000.0):
        _check(affine, (x, s))
