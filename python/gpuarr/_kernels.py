"""User-defined kernels compiled at run time with NVRTC (CuPy's ``RawKernel``,
``RawModule``, ``ElementwiseKernel`` and ``ReductionKernel``).

Compiled modules are cached in memory and on disk by the C++ core
(``GPUARR_CACHE_DIR`` or ``~/.cache/gpuarr/kernels``). The elementwise launcher (broadcast,
output allocation, dimension coalescing, contiguous or strided kernel) is C++
(``_core._jit_elementwise``); this module parses parameter lists and generates source.
"""

import re

import numpy as _np

from gpuarr import _core, _shape_ops

__all__ = ["RawKernel", "RawModule", "ElementwiseKernel", "ReductionKernel"]

MAX_DIMS = 16  # kJitMaxDims in cpp/ops/jit_launch.hpp

# C spelling of each dtype inside generated kernels.
CTYPES = {
    "bool": "bool", "int8": "signed char", "int16": "short", "int32": "int",
    "int64": "long long", "uint8": "unsigned char", "uint16": "unsigned short",
    "uint32": "unsigned int", "uint64": "unsigned long long", "float16": "__half",
    "float32": "float", "float64": "double", "complex64": "ga_complex<float>",
    "complex128": "ga_complex<double>",
}

# A minimal __half: the conversions and operators that generated code uses.
_HALF_STANDIN = r"""
struct __half {
  unsigned short __x;
  __half() = default;
  __device__ __half(float f) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(__x) : "f"(f)); }
  __device__ __half(double d) : __half(static_cast<float>(d)) {}
  __device__ operator float() const { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(__x)); return f; }
};
__device__ inline __half __float2half(float f) { return __half(f); }
__device__ inline __half __double2half(double d) { __half h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h.__x) : "d"(d)); return h; }
__device__ inline float __half2float(__half h) { return static_cast<float>(h); }
__device__ inline unsigned short __half_as_ushort(__half h) { return h.__x; }
__device__ inline __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }
// Each operation rounds to half, as cuda_fp16.h's operators and NumPy's float16 loops do.
__device__ inline __half operator+(__half a, __half b) { return __half(float(a) + float(b)); }
__device__ inline __half operator-(__half a, __half b) { return __half(float(a) - float(b)); }
__device__ inline __half operator*(__half a, __half b) { return __half(float(a) * float(b)); }
__device__ inline __half operator/(__half a, __half b) { return __half(float(a) / float(b)); }
__device__ inline __half operator-(__half a) { return __half(-float(a)); }
"""

# Declarations every kernel starts with, after its __half.
_COMMON_DECLARATIONS = r"""
typedef signed char int8; typedef short int16; typedef int int32; typedef long long int64;
typedef unsigned char uint8; typedef unsigned short uint16; typedef unsigned int uint32;
typedef unsigned long long uint64; typedef __half float16; typedef float float32;
typedef double float64;
#define GA_MAXD %(maxd)d
struct ga_shape { int ndim; long long d[GA_MAXD]; };
struct ga_strides { long long s[GA_MAXD]; };
struct ga_raw_info { long long size; int ndim; long long shape[GA_MAXD]; long long strides[GA_MAXD]; };
template <class T> struct ga_complex {
  T re, im;
  __host__ __device__ ga_complex() : re(0), im(0) {}
  __host__ __device__ ga_complex(T r, T i = 0) : re(r), im(i) {}
  __host__ __device__ T real() const { return re; }
  __host__ __device__ T imag() const { return im; }
};
template <class T> __device__ ga_complex<T> operator+(ga_complex<T> a, ga_complex<T> b) { return ga_complex<T>(a.re + b.re, a.im + b.im); }
template <class T> __device__ ga_complex<T> operator-(ga_complex<T> a, ga_complex<T> b) { return ga_complex<T>(a.re - b.re, a.im - b.im); }
template <class T> __device__ ga_complex<T> operator*(ga_complex<T> a, ga_complex<T> b) { return ga_complex<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }
// A raw array argument: flat C-order index over any strides.
template <class T> struct ga_raw {
  T* p; const ga_raw_info& info;
  __device__ ga_raw(T* p_, const ga_raw_info& i_) : p(p_), info(i_) {}
  __device__ long long size() const { return info.size; }
  __device__ T& operator[](long long i) const {
    long long off = 0;
    for (int d = info.ndim - 1; d >= 0; --d) {
      long long n = info.shape[d];
      off += (i %% n) * info.strides[d];
      i /= n;
    }
    return *reinterpret_cast<T*>(reinterpret_cast<char*>(p) + off);
  }
};
struct ga_index { long long n; __device__ long long size() const { return n; } };
""" % {"maxd": MAX_DIMS}

# User kernels (ElementwiseKernel, ReductionKernel, RawKernel sources) get cuda_fp16.h, whose
# functions their code may call; the stand-in only where NVRTC cannot find it.
PRELUDE = ("#if __has_include(<cuda_fp16.h>)\n#include <cuda_fp16.h>\n#else"
           + _HALF_STANDIN + "#endif" + _COMMON_DECLARATIONS)

# Kernels that gpuarr.fuse writes call only the stand-in's conversions, and parsing
# cuda_fp16.h is about a tenth of a fused kernel's cold compile (NVRTC instructions).
GENERATED_PRELUDE = _HALF_STANDIN + _COMMON_DECLARATIONS


def ctype(dtype):
    return CTYPES[_np.dtype(dtype).name]


# --------------------------------------------------------------------------------------
# RawKernel / RawModule


class RawModule:
    """A CUDA module compiled from ``code`` (CuPy's ``cupy.RawModule``)."""

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc", translate_cucomplex=False,
                 enable_cooperative_groups=False, name_expressions=None, jitify=False):
        if (code is None) == (path is None):
            raise TypeError("One of `code` and `path` should be provided.")
        if path is not None:
            with open(path) as f:
                code = f.read()
        if backend != "nvrtc":
            raise ValueError("gpuarr compiles with NVRTC only (backend='nvrtc')")
        if jitify:
            raise NotImplementedError("jitify is not supported by gpuarr")
        self.code = code
        self.options = tuple(options)
        self.name_expressions = tuple(name_expressions or ())
        self._modules = {}

    def _module(self):
        dev = _core.get_device()
        mod = self._modules.get(dev)
        if mod is None:
            mod = _core._jit_module(self.code, list(self.options), list(self.name_expressions))
            self._modules[dev] = mod
        return mod

    def compile(self, log_stream=None):
        self._module()

    def get_function(self, name):
        return RawKernel(self.code, name, self.options, _module=self)


def _count_params(code, name):
    """The parameter count of ``__global__ void name(...)`` in ``code``, or None."""
    m = re.search(r"__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?"
                  + re.escape(name) + r"\s*\(([^)]*)\)", code)
    if m is None:
        return None
    inner = m.group(1).strip()
    if not inner or inner == "void":
        return 0
    depth, count = 0, 1
    for ch in inner:
        depth += ch == "<"
        depth -= ch == ">"
        count += ch == "," and depth == 0
    return count


class RawKernel:
    """A kernel ``name`` from CUDA source ``code`` (CuPy's ``cupy.RawKernel``).

    ``kernel(grid, block, args, shared_mem=0)``: gpuarr arrays are passed as pointers,
    NumPy scalars by value in their exact dtype, Python scalars by value in the size of
    the kernel's parameter. A wrong argument count or a size mismatch raises TypeError.
    """

    def __init__(self, code, name, options=(), backend="nvrtc", *, translate_cucomplex=False,
                 enable_cooperative_groups=False, jitify=False, _module=None):
        self.code = code
        self.name = name
        self.options = tuple(options)
        self._raw_module = _module if _module is not None else RawModule(
            code=code, options=options, backend=backend, jitify=jitify)
        self._kernels = {}

    def _kernel(self):
        dev = _core.get_device()
        k = self._kernels.get(dev)
        if k is None:
            k = self._raw_module._module().get_function(self.name)
            self._kernels[dev] = k
            # Where the runtime cannot report parameter sizes, count the parameters in
            # the source so that a wrong argument count is still a TypeError.
            self._nparams = None if k.param_sizes is not None else _count_params(
                self.code, self.name)
        return k

    _nparams = None

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        if stream is not None:
            with stream:
                return self(grid, block, args, shared_mem=shared_mem)
        k = self._kernel()
        if self._nparams is not None and isinstance(args, (tuple, list)) and \
                len(args) != self._nparams:
            raise TypeError("kernel %s() takes %d arguments (%d given)"
                            % (self.name, self._nparams, len(args)))
        k.launch(grid, block, args, shared_mem)

    def compile(self, log_stream=None):
        self._kernel()

    @property
    def num_params(self):
        sizes = self._kernel().param_sizes
        return None if sizes is None else len(sizes)


# --------------------------------------------------------------------------------------
# Parameter lists: "T x, raw T y, int32 n"


class Param:
    __slots__ = ("raw", "type", "name", "dtype")

    def __init__(self, raw, typ, name):
        self.raw = raw
        self.type = typ
        self.name = name
        # One-letter types are placeholders (CuPy's rule); others name a NumPy dtype.
        self.dtype = None if len(typ) == 1 else _np.dtype(typ)

    def __repr__(self):
        return "Param(%s%s %s)" % ("raw " if self.raw else "", self.type, self.name)


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_params(text):
    """The parameters of a CuPy-style parameter list; ValueError on a syntax error."""
    params = []
    text = text.strip()
    if not text:
        return params
    for item in text.split(","):
        words = item.split()
        raw = bool(words) and words[0] == "raw"
        if raw:
            words = words[1:]
        if len(words) != 2 or not _IDENT.match(words[1]) or not _IDENT.match(words[0]):
            raise ValueError("Syntax error: %s" % item.strip())
        try:
            params.append(Param(raw, words[0], words[1]))
        except TypeError:
            raise ValueError("Syntax error: %s (unknown type %r)" % (item.strip(), words[0])) from None
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError("Parameter names must be unique: %s" % text)
    return params


def _scalar_dtype(v):
    if isinstance(v, _np.generic):
        return v.dtype
    if isinstance(v, bool):
        return _np.dtype(bool)
    if isinstance(v, int):
        return _np.dtype(_np.int64)
    if isinstance(v, float):
        return _np.dtype(_np.float64)
    if isinstance(v, complex):
        return _np.dtype(_np.complex128)
    raise TypeError("Unsupported type %s" % type(v).__name__)


def elementwise_source(name, params, kinds, types, operation, preamble="", loop_prep="",
                       after_loop=""):
    """The source of the kernel pair ``name``_c (contiguous) and ``name``_s (strided).

    ``kinds`` per parameter: 'a' indexed input, 'o'/'O' indexed output, 'r' raw, 's'
    scalar; ``types`` the dtype per parameter. Inputs are read into const locals named
    after the parameter, outputs are references, raw arrays are ``ga_raw``.
    """
    out = [PRELUDE, preamble, ""]
    for variant in ("c", "s"):
        sig = ["const long long _n"]
        if variant == "s":
            sig.append("const __grid_constant__ ga_shape _sh")
        decl_outer, offsets, decl_inner = [], [], []
        for k, (p, kind, t) in enumerate(zip(params, kinds, types)):
            ct = ctype(t)
            if kind in "aoO":
                const = "const " if kind == "a" else ""
                sig.append("%s%s* __restrict__ _p%d" % (const, ct, k))
                if variant == "s":
                    sig.append("const __grid_constant__ ga_strides _s%d" % k)
                    offsets.append(k)
                    ref = "*reinterpret_cast<%s%s*>(reinterpret_cast<%schar*>(_p%d) + _o%d)" % (
                        const, ct, const, k, k)
                else:
                    ref = "_p%d[i]" % k
                if kind == "a":
                    decl_inner.append("const %s %s = %s;" % (ct, p.name, ref))
                else:
                    decl_inner.append("%s& %s = %s;" % (ct, p.name, ref))
            elif kind == "r":
                sig.append("%s* _p%d" % (ct, k))
                sig.append("const __grid_constant__ ga_raw_info _r%d" % k)
                decl_outer.append("ga_raw<%s> %s(_p%d, _r%d);" % (ct, p.name, k, k))
            else:
                sig.append("const %s %s" % (ct, p.name))
        lines = ['extern "C" __global__ void %s_%s(%s) {' % (name, variant, ", ".join(sig))]
        lines.append("  const ga_index _ind{_n}; (void)_ind;")
        lines += ["  " + d for d in decl_outer]
        lines.append("  " + loop_prep)
        lines.append("  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < _n;"
                     " i += (long long)blockDim.x * gridDim.x) {")
        if offsets:
            lines.append("    long long " + ", ".join("_o%d = 0" % k for k in offsets) + ";")
            lines.append("    { long long _r = i;")
            lines.append("      for (int _d = _sh.ndim - 1; _d >= 0; --_d) {")
            lines.append("        const long long _c = _r % _sh.d[_d]; _r /= _sh.d[_d];")
            lines.append("        " + " ".join("_o%d += _c * _s%d.s[_d];" % (k, k) for k in offsets))
            lines.append("      } }")
        lines += ["    " + d for d in decl_inner]
        lines.append("    { " + operation + " ; }")
        lines.append("  }")
        lines.append("  " + after_loop)
        lines.append("}")
        out += lines
    return "\n".join(out) + "\n"


class ElementwiseKernel:
    """CuPy's ``cupy.ElementwiseKernel``: ``operation`` runs once per element of the
    broadcast inputs, ``i`` is the flat index, ``_ind.size()`` the element count.

    With ``#include <gpuarr/ufunc_math.cuh>`` in ``preamble`` (or in a ReductionKernel's),
    the code can call the functors of gpuarr's ufuncs, which have NumPy's semantics:
    ``gpuarr::ufn::Hypot{}(x, y)``, ``gpuarr::ufn::FloorDivide{}(a, b)``. They compute in
    float for float16 (``gpuarr::ufn::half_to_float(x)``); complex types need
    ``<gpuarr/ufunc_complex.cuh>`` and ``cuda::std::complex`` (slow to compile)."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, loop_prep="",
                 after_loop="", options=()):
        if not _IDENT.match(name):
            raise ValueError("Invalid kernel name: %r" % name)
        self.in_params = parse_params(in_params)
        self.out_params = parse_params(out_params)
        names = [p.name for p in self.in_params + self.out_params]
        if len(set(names)) != len(names):
            raise ValueError("Parameter names must be unique")
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.operation = operation
        self.name = name
        self.preamble = preamble
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.options = tuple(options)
        self._cache = {}

    def _bind(self, args):
        """Per parameter: kind, dtype, and the argument to pass."""
        params = self.in_params + self.out_params
        types = {}
        # Arrays bind placeholders first, then scalars (CuPy's order).
        for p, a in zip(params, args):
            if a is None or p.dtype is not None:
                continue
            if isinstance(a, _core.ndarray):
                if p.type in types and types[p.type] != a.dtype:
                    raise TypeError("Type is mismatched. %s %s %s" % (p.name, a.dtype, types[p.type]))
                types[p.type] = a.dtype
        for p, a in zip(params, args):
            if a is None or p.dtype is not None or p.type in types:
                continue
            if not isinstance(a, _core.ndarray):
                types[p.type] = _scalar_dtype(a)
        kinds, dtypes, vals = [], [], []
        for idx, (p, a) in enumerate(zip(params, args)):
            is_out = idx >= self.nin
            dt = p.dtype if p.dtype is not None else types.get(p.type)
            if dt is None:
                raise TypeError("Cannot determine the type of %s (placeholder %s)" % (p.name, p.type))
            if a is None:
                if p.raw:
                    raise TypeError("raw output %s must be given" % p.name)
                kinds.append("o")
                vals.append(dt)
            elif isinstance(a, _core.ndarray):
                if p.raw:
                    if a.dtype != dt:
                        raise TypeError("Type is mismatched. %s %s %s" % (p.name, a.dtype, dt))
                    kinds.append("r")
                elif is_out:
                    if a.dtype != dt:
                        raise TypeError("Type is mismatched. %s %s %s" % (p.name, a.dtype, dt))
                    kinds.append("O")
                else:
                    if a.dtype != dt:
                        a = a.astype(dt)
                    kinds.append("a")
                vals.append(a)
            else:
                if is_out:
                    raise TypeError("Output %s must be a gpuarr array, not %s" % (p.name, type(a).__name__))
                _scalar_dtype(a)  # TypeError for unsupported objects
                kinds.append("s")
                vals.append(_np.array(a, dtype=dt).tobytes())
            dtypes.append(dt)
        return kinds, dtypes, vals

    def __call__(self, *args, size=None, block_size=None, stream=None):
        if stream is not None:
            with stream:
                return self._call(args, size)
        return self._call(args, size)

    def _call(self, args, size):
        n = len(args)
        if n != self.nin and n != self.nargs:
            raise TypeError("Wrong number of arguments for %s" % self.name)
        args = list(args) + [None] * (self.nargs - n)
        kinds, dtypes, vals = self._bind(args)
        if size is not None and any(k in "aO" for k in kinds):
            raise ValueError("Specified 'size' can be used only if all of the ndarray are 'raw'.")
        if size is None and not any(k in "aO" for k in kinds):
            raise ValueError("Loop size is undecided.")
        key = (_core.get_device(), "".join(kinds), tuple(d.char for d in dtypes))
        mod = self._cache.get(key)
        if mod is None:
            src = elementwise_source(self.name, self.in_params + self.out_params, kinds, dtypes,
                                     self.operation, self.preamble, self.loop_prep,
                                     self.after_loop)
            mod = _core._jit_module(src, list(self.options), [])
            self._cache[key] = mod
        new = iter(_core._jit_elementwise(mod, self.name, vals, "".join(kinds),
                                          -1 if size is None else int(size)))
        # The C++ launcher returns the indexed outputs; raw outputs are the arrays given.
        outs = [next(new) if kinds[j] in "oO" else vals[j] for j in range(self.nin, self.nargs)]
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)


REDUCE_BLOCK = 256


def reduction_source(name, in_params, out_param, in_kinds, types, out_dtype, map_expr,
                     reduce_expr, post_map_expr, identity, reduce_type, preamble=""):
    """The kernel pair ``name``_c/_s of a ReductionKernel: one block per output element
    (the launch shape is the output's), inputs as raw views whose flat C-order index is
    ``output index * _nred + j`` (reduced axes last)."""
    rt = reduce_type
    out_ct = ctype(out_dtype)
    src = [PRELUDE, preamble, ""]
    for variant in ("c", "s"):
        sig = ["const long long _n"]
        if variant == "s":
            sig.append("const __grid_constant__ ga_shape _sh")
        sig.append("%s* __restrict__ _pout" % out_ct)
        if variant == "s":
            sig.append("const __grid_constant__ ga_strides _sout")
        outer, loads = [], []
        for k, (p, kind, t) in enumerate(zip(in_params, in_kinds, types)):
            ct = ctype(t)
            if kind == "r":
                sig.append("%s* _p%d" % (ct, k))
                sig.append("const __grid_constant__ ga_raw_info _r%d" % k)
                if p.raw:
                    outer.append("ga_raw<%s> %s(_p%d, _r%d);" % (ct, p.name, k, k))
                else:
                    outer.append("ga_raw<%s> _raw_%s(_p%d, _r%d);" % (ct, p.name, k, k))
                    loads.append("const %s %s = _raw_%s[_in_ind];" % (ct, p.name, p.name))
            else:
                sig.append("const %s %s" % (ct, p.name))
        sig.append("const long long _nred")
        if variant == "s":
            out_ref = ("*reinterpret_cast<%s*>(reinterpret_cast<char*>(_pout) + _oo)" % out_ct)
            offset = ("long long _oo = 0; { long long _r = _oi; for (int _d = _sh.ndim - 1; _d >= 0; --_d) {"
                      " const long long _c = _r % _sh.d[_d]; _r /= _sh.d[_d]; _oo += _c * _sout.s[_d]; } }")
        else:
            out_ref, offset = "_pout[_oi]", ""
        has_identity = identity is not None
        lines = ['extern "C" __global__ void %s_%s(%s) {' % (name, variant, ", ".join(sig))]
        lines += ["  " + o for o in outer]
        lines += [
            "  __shared__ __align__(16) unsigned char _sraw[%d * sizeof(%s)];" % (REDUCE_BLOCK, rt),
            "  __shared__ bool _shas[%d];" % REDUCE_BLOCK,
            "  %s* _sdata = reinterpret_cast<%s*>(_sraw);" % (rt, rt),
            "  for (long long _oi = blockIdx.x; _oi < _n; _oi += gridDim.x) {",
            "    %s _acc%s; bool _has = %s;" % (rt, (" = (%s)(%s)" % (rt, identity)) if has_identity else "",
                                             "true" if has_identity else "false"),
            "    for (long long _j = threadIdx.x; _j < _nred; _j += blockDim.x) {",
            "      const long long _in_ind = _oi * _nred + _j; (void)_in_ind;",
        ]
        lines += ["      " + ld for ld in loads]
        lines += [
            "      const %s _m = (%s)(%s);" % (rt, rt, map_expr),
            "      if (_has) { const %s a = _acc, b = _m; _acc = (%s)(%s); } else { _acc = _m; _has = true; }"
            % (rt, rt, reduce_expr),
            "    }",
            "    _sdata[threadIdx.x] = _acc; _shas[threadIdx.x] = _has; __syncthreads();",
            "    for (unsigned _s = blockDim.x / 2; _s > 0; _s >>= 1) {",
            "      if (threadIdx.x < _s && _shas[threadIdx.x + _s]) {",
            "        if (_shas[threadIdx.x]) { const %s a = _sdata[threadIdx.x], b = _sdata[threadIdx.x + _s];"
            " _sdata[threadIdx.x] = (%s)(%s); }" % (rt, rt, reduce_expr),
            "        else { _sdata[threadIdx.x] = _sdata[threadIdx.x + _s]; _shas[threadIdx.x] = true; }",
            "      }",
            "      __syncthreads();",
            "    }",
            "    if (threadIdx.x == 0) {",
            "      " + offset,
            "      const %s a = _sdata[0]; %s& %s = %s;" % (rt, out_ct, out_param.name, out_ref),
            "      { %s ; }" % post_map_expr,
            "    }",
            "    __syncthreads();",
            "  }",
            "}",
        ]
        src += lines
    return "\n".join(src) + "\n"


class ReductionKernel:
    """CuPy's ``cupy.ReductionKernel``: ``map_expr`` per input element, combined with
    ``reduce_expr`` (of ``a`` and ``b``) from ``identity``, then ``post_map_expr`` (of
    ``a``) writes the output; ``axis``/``keepdims`` as NumPy. One block per output element;
    without an identity an empty reduction raises ValueError."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        if not _IDENT.match(name):
            raise ValueError("Invalid kernel name: %r" % name)
        self.in_params = parse_params(in_params)
        self.out_params = parse_params(out_params)
        if len(self.out_params) != 1:
            raise NotImplementedError("gpuarr.ReductionKernel supports exactly one output")
        if any(p.raw for p in self.out_params):
            raise ValueError("the output of a ReductionKernel cannot be raw")
        self.nin = len(self.in_params)
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = None if identity is None else str(identity)
        self.name = name
        self.reduce_type = reduce_type
        self.preamble = preamble
        self.options = tuple(options)
        self._cache = {}
        self._ew = ElementwiseKernel(in_params, out_params, "", name)  # type binding rules

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None, reduce_dims=True):
        if stream is not None:
            with stream:
                return self._call(args, out, axis, keepdims)
        return self._call(args, out, axis, keepdims)

    def _call(self, args, out, axis, keepdims):
        if len(args) not in (self.nin, self.nin + 1):
            raise TypeError("Wrong number of arguments for %s" % self.name)
        if len(args) == self.nin + 1:
            if out is not None:
                raise ValueError("output array is given twice")
            out = args[-1]
            args = args[:-1]
        kinds, dtypes, vals = self._ew._bind(list(args) + [out])
        in_kinds, out_dtype = kinds[:-1], dtypes[-1]
        arrays = [v for v, k in zip(vals, in_kinds) if k == "a"]
        if not arrays:
            raise ValueError("ReductionKernel needs at least one non-raw array input")
        shape = _shape_ops.broadcast_shapes(*[a.shape for a in arrays])
        ndim = len(shape)
        if axis is None:
            axes = tuple(range(ndim))
        else:
            axes = tuple(sorted(_core._normalize_axis_tuple(axis, ndim, "axis")))
        kept = tuple(d for d in range(ndim) if d not in axes)
        out_shape = tuple(shape[d] for d in kept)
        nred = 1
        for d in axes:
            nred *= shape[d]
        if nred == 0 and self.identity is None:
            raise ValueError("zero-size array to reduction operation %s which has no identity"
                             % self.name)
        perm = kept + axes
        launch_vals, launch_kinds = [], []
        for v, k in zip(vals, in_kinds):
            if k == "a":
                v = _shape_ops.broadcast_to(v, shape).transpose(perm)
                launch_kinds.append("r")
            else:
                launch_kinds.append(k)
            launch_vals.append(v)
        if out is None:
            res = _core.empty(out_shape, dtype=out_dtype)
        else:
            want = tuple(1 if d in axes else shape[d] for d in range(ndim)) if keepdims else out_shape
            if tuple(out.shape) != want:
                raise ValueError("Shape of output array is %s, expected %s" % (out.shape, want))
            res = out.reshape(out_shape) if keepdims else out
        key = (_core.get_device(), "".join(launch_kinds), tuple(d.char for d in dtypes))
        mod = self._cache.get(key)
        if mod is None:
            rt = self.reduce_type or ctype(out_dtype)
            src = reduction_source(self.name, self.in_params, self.out_params[0], launch_kinds,
                                   dtypes[:-1], out_dtype, self.map_expr, self.reduce_expr,
                                   self.post_map_expr, self.identity, rt, self.preamble)
            mod = _core._jit_module(src, list(self.options), [])
            self._cache[key] = mod
        _core._jit_elementwise(mod, self.name, [res] + launch_vals + [_np.int64(nred).tobytes()],
                               "O" + "".join(launch_kinds) + "s", -1, REDUCE_BLOCK)
        if out is not None:
            return out
        if keepdims:
            return res.reshape(tuple(1 if d in axes else shape[d] for d in range(ndim)))
        return res
