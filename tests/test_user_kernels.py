"""RawKernel, RawModule and ElementwiseKernel against NumPy; parameter-list parsing and
generated sources on the host."""

import numpy as np
import pytest

import gpuarr
from gpuarr import _core, _kernels
from conftest import gpu_test, random_array

ARCH = ["-arch=sm_90"]

VECTOR_ADD = r'''
extern "C" __global__ void vadd(const float* x, const float* y, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i];
}
'''

BLOCK_SUM = r'''
extern "C" __global__ void block_sum(const double* x, double* out, long long n) {
  extern __shared__ double buf[];
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? x[i] : 0.0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}
'''

TEMPLATED = r'''
template <class T> __global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
'''


# ---------------------------------------------------------------- host

def test_parse_params():
    ps = _kernels.parse_params("T x, raw T y, int32 n,float64   z")
    assert [(p.raw, p.type, p.name) for p in ps] == [
        (False, "T", "x"), (True, "T", "y"), (False, "int32", "n"), (False, "float64", "z")]
    assert ps[0].dtype is None and ps[2].dtype == np.int32
    assert _kernels.parse_params("  ") == []


@pytest.mark.parametrize("text", ["T", "T x y", "raw x", "T 1x", "T x, T x", "notatype x"])
def test_parse_params_errors(text):
    with pytest.raises(ValueError):
        _kernels.parse_params(text)


def test_elementwise_kernel_constructor_errors():
    with pytest.raises(ValueError):
        gpuarr.ElementwiseKernel("T x", "T x", "x = x", "dup")
    with pytest.raises(ValueError):
        gpuarr.ElementwiseKernel("T x", "T y", "y = x", "bad name")


@pytest.mark.parametrize("dt", ["bool", "int8", "uint16", "int64", "float16", "float32",
                                "float64", "complex64", "complex128"])
def test_elementwise_source_compiles(dt):
    params = _kernels.parse_params("T x, raw T y, int32 n, T z")
    src = _kernels.elementwise_source("k", params, "arso", [np.dtype(dt), np.dtype(dt),
                                      np.dtype("int32"), np.dtype(dt)],
                                      "z = y[_ind.size() - i - 1]; (void)x; (void)n;")
    cubin, log = _core._jit_check_compile(src, ARCH)
    assert cubin, log


@pytest.mark.parametrize("dt", ["int8", "uint64", "float16", "float32", "float64"])
def test_elementwise_kernel_can_call_the_ufunc_functors(dt):
    # The eager loops' functors (with NumPy's semantics) are on NVRTC's include path, with
    # no toolkit headers needed; float16 computes in float32 as the eager loops do.
    params = _kernels.parse_params("T x, T y, T z")
    conv = "gpuarr::ufn::half_to_float" if dt == "float16" else ""
    op = "z = gpuarr::ufn::Maximum{}(gpuarr::ufn::FloorDivide{}(%s(x), %s(y)), %s(x))" % (
        conv, conv, conv)
    src = _kernels.elementwise_source("k", params, "aao", [np.dtype(dt)] * 3, op,
                                      preamble="#include <gpuarr/ufunc_math.cuh>")
    cubin, log = _core._jit_check_compile(src, ARCH, toolkit_include=False)
    assert cubin, log


def test_complex_functors_compile_with_the_toolkit_headers():
    src = """#include <gpuarr/ufunc_complex.cuh>
    extern "C" __global__ void k(float* re, float* im) {
      const cuda::std::complex<float> z(re[0], im[0]);
      const cuda::std::complex<float> r = gpuarr::ufn::Arcsinh{}(gpuarr::ufn::Power{}(z, z));
      re[0] = r.real(); im[0] = gpuarr::ufn::Absolute{}(r);
    }"""
    try:
        cubin, log = _core._jit_check_compile(src, ARCH)
    except gpuarr.cuda.CompileError as e:
        if "cuda/std/complex" in str(e):
            pytest.skip("the CUDA toolkit's libcu++ headers are not installed")
        raise
    assert cubin, log


def test_raw_sources_compile_on_host():
    for src in (VECTOR_ADD, BLOCK_SUM):
        assert _core._jit_check_compile(src, ARCH)[0]


# ---------------------------------------------------------------- device: RawKernel

@gpu_test
def test_raw_kernel_vector_add(rng):
    k = gpuarr.RawKernel(VECTOR_ADD, "vadd")
    n = 1000
    x = random_array(rng, (n,), "float32")
    y = random_array(rng, (n,), "float32")
    dx, dy = gpuarr.asarray(x), gpuarr.asarray(y)
    dz = gpuarr.empty(n, dtype=np.float32)
    k(((n + 127) // 128,), (128,), (dx, dy, dz, n))           # Python int -> int (4 bytes)
    np.testing.assert_array_equal(gpuarr.asnumpy(dz), x + y)
    dz2 = gpuarr.zeros(n, dtype=np.float32)
    k((n + 255) // 256, 256, [dx, dy, dz2, np.int32(n)])      # ints for grid/block; list args
    np.testing.assert_array_equal(gpuarr.asnumpy(dz2), x + y)
    assert k.num_params == 4


@gpu_test
def test_raw_kernel_shared_memory(rng):
    k = gpuarr.RawKernel(BLOCK_SUM, "block_sum")
    n, block = 5000, 256
    x = random_array(rng, (n,), "float64")
    blocks = (n + block - 1) // block
    out = gpuarr.empty(blocks, dtype=np.float64)
    k((blocks,), (block,), (gpuarr.asarray(x), out, n), shared_mem=block * 8)
    want = np.add.reduceat(x, np.arange(0, n, block))
    np.testing.assert_allclose(gpuarr.asnumpy(out), want, rtol=1e-12)


@gpu_test
def test_raw_module_name_expressions(rng):
    mod = gpuarr.RawModule(code=TEMPLATED, name_expressions=["scale<float>", "scale<double>"])
    x = random_array(rng, (100,), "float64")
    d = gpuarr.asarray(x)
    mod.get_function("scale<double>")((1,), (128,), (d, 2.5, 100))   # float -> double
    np.testing.assert_array_equal(gpuarr.asnumpy(d), x * 2.5)
    f = gpuarr.asarray(x.astype(np.float32))
    mod.get_function("scale<float>")((1,), (128,), (f, np.float32(0.5), np.int32(100)))
    np.testing.assert_array_equal(gpuarr.asnumpy(f), x.astype(np.float32) * np.float32(0.5))


@gpu_test
def test_raw_kernel_argument_errors():
    k = gpuarr.RawKernel(VECTOR_ADD, "vadd")
    a = gpuarr.zeros(4, dtype=np.float32)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        k((1,), (4,), (a, a, a))
    with pytest.raises(TypeError):
        k((1,), (4,), (a, a, a, a))                 # array for the int parameter
    with pytest.raises(TypeError):
        k((1,), (4,), (a, a, a, np.int64(4)))       # 8-byte scalar for a 4-byte int
    with pytest.raises(TypeError):
        k((1,), (4,), (a, a, a, "4"))
    with pytest.raises(TypeError):
        k((1,), (4,), a)                            # args must be a tuple or a list


@gpu_test
def test_raw_kernel_compile_error():
    k = gpuarr.RawKernel('extern "C" __global__ void f(int* x) {\n  x[0] = y;\n}\n', "f")
    with pytest.raises(gpuarr.cuda.CompileError) as ei:
        k((1,), (1,), (gpuarr.zeros(1, dtype=np.int32),))
    assert "(2)" in str(ei.value) and 'identifier "y" is undefined' in str(ei.value)


@gpu_test
def test_raw_kernel_unknown_name():
    k = gpuarr.RawKernel(VECTOR_ADD, "no_such_kernel")
    with pytest.raises(gpuarr.cuda.CUDARuntimeError):
        k((1,), (1,), ())


# ---------------------------------------------------------------- device: ElementwiseKernel

@gpu_test
@pytest.mark.parametrize("dt", ["int8", "int32", "uint64", "float16", "float32", "float64"])
def test_elementwise_kernel_placeholders(rng, dt):
    k = gpuarr.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "sqdiff")
    x = random_array(rng, (3, 4), dt)
    y = random_array(rng, (4,), dt)
    got = k(gpuarr.asarray(x), gpuarr.asarray(y))
    assert got.dtype == np.dtype(dt) and got.shape == (3, 4)
    with np.errstate(all="ignore"):  # float16: each operation rounds, as NumPy and CuPy
        want = (x - y) * (x - y)
    np.testing.assert_array_equal(gpuarr.asnumpy(got), want)


@gpu_test
def test_elementwise_kernel_scalars_outputs_views(rng):
    k = gpuarr.ElementwiseKernel("T x, float32 a", "T y", "y = x * a", "scale_by")
    x = random_array(rng, (6, 5), "float32")
    dx = gpuarr.asarray(x)
    np.testing.assert_array_equal(gpuarr.asnumpy(k(dx, 2.0)), x * np.float32(2.0))
    np.testing.assert_array_equal(gpuarr.asnumpy(k(dx[::-2, 1::2], 3)), x[::-2, 1::2] * np.float32(3))
    out = gpuarr.zeros((6, 5), dtype=np.float32).T            # non-contiguous output
    r = k(dx.T, np.float32(0.5), out)
    assert r is out
    np.testing.assert_array_equal(gpuarr.asnumpy(out), (x * np.float32(0.5)).T)
    with pytest.raises(TypeError):
        k(dx, 2.0, gpuarr.zeros((6, 5), dtype=np.float64))   # output type mismatch
    with pytest.raises(TypeError):
        k(dx)                                                 # wrong argument count


@gpu_test
def test_elementwise_kernel_raw_and_size(rng):
    rev = gpuarr.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - i - 1]", "reverse")
    x = random_array(rng, (10,), "int64")
    dx = gpuarr.asarray(x)
    out = gpuarr.empty(10, dtype=np.int64)
    rev(dx, out)
    np.testing.assert_array_equal(gpuarr.asnumpy(out), x[::-1])
    out2 = gpuarr.empty(5, dtype=np.int64)
    rev(dx[::2], out2)          # raw strided view, flat C-order index
    np.testing.assert_array_equal(gpuarr.asnumpy(out2), x[::2][::-1])
    fill = gpuarr.ElementwiseKernel("raw T x", "raw T y", "y[i] = x[i] + 1", "inc")
    out3 = gpuarr.zeros(10, dtype=np.int64)
    assert fill(dx, out3, size=10) is out3
    np.testing.assert_array_equal(gpuarr.asnumpy(out3), x + 1)
    with pytest.raises(ValueError):
        fill(dx, out3)          # no indexed operand and no size


def test_count_params_from_source():
    assert _kernels._count_params(VECTOR_ADD, "vadd") == 4
    assert _kernels._count_params(BLOCK_SUM, "block_sum") == 3
    assert _kernels._count_params('extern "C" __global__ void f() {}', "f") == 0
    assert _kernels._count_params('__global__ void g(Pair<int, float> p, int n) {}', "g") == 2
    assert _kernels._count_params(VECTOR_ADD, "other") is None


# ---------------------------------------------------------------- ReductionKernel

L2NORM = dict(in_params="T x", out_params="T y", map_expr="x * x", reduce_expr="a + b",
              post_map_expr="y = sqrt(a)", identity="0", name="l2norm")


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("kinds", ["r", "s"])
def test_reduction_source_compiles(dt, kinds):
    k = gpuarr.ReductionKernel(**L2NORM)
    src = _kernels.reduction_source("l2norm", k.in_params, k.out_params[0], kinds,
                                    [np.dtype(dt)], np.dtype(dt), k.map_expr, k.reduce_expr,
                                    k.post_map_expr, k.identity, _kernels.ctype(dt))
    cubin, log = _core._jit_check_compile(src, ARCH)
    assert cubin, log
    src = _kernels.reduction_source("mx", k.in_params, k.out_params[0], kinds,
                                    [np.dtype(dt)], np.dtype(dt), "x", "a > b ? a : b",
                                    "y = a", None, _kernels.ctype(dt))
    assert _core._jit_check_compile(src, ARCH)[0]


@gpu_test
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, True), ((0, 2), False),
                                           (-1, False), ((), False)])
def test_reduction_kernel_axes(rng, axis, keepdims):
    k = gpuarr.ReductionKernel(**L2NORM)
    x = random_array(rng, (5, 300, 7), "float64")
    got = k(gpuarr.asarray(x), axis=axis, keepdims=keepdims)
    want = np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdims))
    assert got.shape == want.shape and got.dtype == np.float64
    np.testing.assert_allclose(gpuarr.asnumpy(got), want, rtol=1e-12)


@gpu_test
def test_reduction_kernel_views_broadcast_empty(rng):
    dot = gpuarr.ReductionKernel("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "dotk")
    x = random_array(rng, (40, 30), "float32")
    y = random_array(rng, (30,), "float32")
    got = dot(gpuarr.asarray(x)[::-1, ::2], gpuarr.asarray(y)[::2], axis=1)
    np.testing.assert_allclose(gpuarr.asnumpy(got), (x[::-1, ::2] * y[::2]).sum(axis=1), rtol=1e-4)
    empty = gpuarr.asarray(np.zeros((0, 3), np.float32))
    np.testing.assert_array_equal(gpuarr.asnumpy(dot(empty, empty, axis=0)), np.zeros(3, np.float32))
    mx = gpuarr.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", None, "mx")
    with pytest.raises(ValueError):
        mx(empty, axis=0)
    xi = random_array(rng, (1000,), "int32")
    np.testing.assert_array_equal(gpuarr.asnumpy(mx(gpuarr.asarray(xi))), xi.max())
    out = gpuarr.empty((40,), dtype=np.float32)
    assert dot(gpuarr.asarray(x), gpuarr.asarray(y), out, axis=1) is out


@gpu_test
def test_kernels_on_a_stream(rng):
    s = gpuarr.cuda.Stream(non_blocking=True)
    x = random_array(rng, (1000,), "float32")
    dx = gpuarr.asarray(x)
    s.synchronize()
    k = gpuarr.ElementwiseKernel("T x", "T y", "y = x + 1", "inc1")
    r = k(dx, stream=s)
    out = gpuarr.empty(1000, dtype=np.float32)
    gpuarr.RawKernel(VECTOR_ADD, "vadd")((8,), (128,), (dx, dx, out, 1000), stream=s)
    s.synchronize()
    np.testing.assert_array_equal(gpuarr.asnumpy(r), x + 1)
    np.testing.assert_array_equal(gpuarr.asnumpy(out), x + x)
