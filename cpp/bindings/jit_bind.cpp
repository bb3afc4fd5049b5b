// gpuarr._core's JIT: NVRTC modules (cached), raw launches (RawKernel) and the elementwise
// launcher of ElementwiseKernel / fuse. Python scalars passed to raw kernels take the size
// of the kernel's parameter (int -> int8..int64, float -> float16/32/64, complex ->
// complex64/128) when the runtime reports parameter sizes; NumPy scalars keep their exact
// dtype and must match the parameter's size.
#include <cuda_profiler_api.h>
#include <pybind11/stl.h>
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define GPUARR_HAVE_NVTX 1
#else
#define GPUARR_HAVE_NVTX 0
#endif

#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "bindings/fast_slots.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "ops/jit_launch.hpp"
#include "ops/ufunc.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/jit_cache.hpp"
#include "runtime/nvrtc_compiler.hpp"
#include "runtime/stream.hpp"

namespace gpuarr::bind {
namespace {

struct JitKernelHandle {
  std::shared_ptr<JitModule> mod;
  const JitFunction* f;
};

dim3 dim3_from_py(py::handle h, const char* what) {
  if (py::isinstance<py::int_>(h)) return dim3(h.cast<unsigned>());
  if (!py::isinstance<py::tuple>(h) && !py::isinstance<py::list>(h))
    throw TypeError(std::string(what) + " must be an int or a tuple of up to 3 ints");
  auto seq = py::reinterpret_borrow<py::sequence>(h);
  if (seq.size() < 1 || seq.size() > 3)
    throw ValueError(std::string(what) + " must have 1 to 3 elements");
  unsigned v[3] = {1, 1, 1};
  for (size_t i = 0; i < seq.size(); ++i) v[i] = seq[i].cast<unsigned>();
  return dim3(v[0], v[1], v[2]);
}

std::string type_name(py::handle h) {
  return py::str(py::type::handle_of(h).attr("__name__")).cast<std::string>();
}

DType python_scalar_dtype(py::handle v, size_t param_size, bool known) {
  if (py::isinstance<py::bool_>(v)) return DType::Bool;
  if (py::isinstance<py::int_>(v)) {
    if (!known) return DType::Int64;
    switch (param_size) {
      case 1: return DType::Int8;
      case 2: return DType::Int16;
      case 4: return DType::Int32;
      case 8: return DType::Int64;
    }
  } else if (py::isinstance<py::float_>(v)) {
    if (!known) return DType::Float64;
    switch (param_size) {
      case 2: return DType::Float16;
      case 4: return DType::Float32;
      case 8: return DType::Float64;
    }
  } else if (PyComplex_Check(v.ptr())) {
    if (!known) return DType::Complex128;
    switch (param_size) {
      case 8: return DType::Complex64;
      case 16: return DType::Complex128;
    }
  }
  throw TypeError("a Python " + type_name(v) + " cannot be passed for a kernel parameter of " +
                  std::to_string(param_size) + " bytes");
}

void raw_launch(const JitKernelHandle& k, py::handle grid, py::handle block, py::handle args_obj,
                size_t shared_mem) {
  if (!py::isinstance<py::tuple>(args_obj) && !py::isinstance<py::list>(args_obj))
    throw TypeError("kernel arguments must be a tuple or a list, not " + type_name(args_obj));
  auto args = py::reinterpret_borrow<py::sequence>(args_obj);
  const JitFunction& f = *k.f;
  const size_t n = args.size();
  if (f.params_known && n != f.param_sizes.size())
    throw TypeError("kernel " + f.name + "() takes " + std::to_string(f.param_sizes.size()) +
                    " arguments (" + std::to_string(n) + " given)");
  std::vector<std::string> storage(n);
  std::vector<void*> argp(n);
  static auto* generic_ptr = new py::object(py::module_::import("numpy").attr("generic"));
  const py::object& generic = *generic_ptr;
  for (size_t i = 0; i < n; ++i) {
    py::handle v = args[i];
    const size_t want = f.params_known ? f.param_sizes[i] : 0;
    if (is_gpuarr_array(v)) {
      const NDArray& a = as_array(v).a;
      if (f.params_known && want != sizeof(void*))
        throw TypeError("argument " + std::to_string(i) + " of " + f.name +
                        "(): an array (a pointer) is passed for a parameter of " +
                        std::to_string(want) + " bytes");
      void* p = a.data();
      storage[i].assign(reinterpret_cast<const char*>(&p), sizeof p);
    } else if (py::isinstance(v, generic)) {
      DType t = dtype_from_py(v.attr("dtype"));
      storage[i] = scalar_bytes(v, t, ScalarCast::Unsafe);
      if (f.params_known && want != storage[i].size())
        throw TypeError("argument " + std::to_string(i) + " of " + f.name + "(): a " +
                        py::str(v.attr("dtype")).cast<std::string>() + " scalar (" +
                        std::to_string(storage[i].size()) +
                        " bytes) is passed for a parameter of " + std::to_string(want) +
                        " bytes");
    } else if (py::isinstance<py::bool_>(v) || py::isinstance<py::int_>(v) ||
               py::isinstance<py::float_>(v) || PyComplex_Check(v.ptr())) {
      DType t = python_scalar_dtype(v, want, f.params_known);
      storage[i] = scalar_bytes(v, t, ScalarCast::Assign);
      if (f.params_known && want != storage[i].size())
        throw TypeError("argument " + std::to_string(i) + " of " + f.name + "(): a Python " +
                        type_name(v) + " cannot be passed for a parameter of " +
                        std::to_string(want) + " bytes");
    } else {
      throw TypeError("Unsupported type " + type_name(v) + " for argument " + std::to_string(i) +
                      " of kernel " + f.name + "()");
    }
    argp[i] = storage[i].data();
  }
  const dim3 g = dim3_from_py(grid, "grid");
  const dim3 b = dim3_from_py(block, "block");
  const int dev = current_device();
  if (shared_mem > 48 * 1024) f.set_max_dynamic_shared(static_cast<int>(shared_mem));
  f.launch(g, b, argp.data(), shared_mem, current_stream_handle(dev));
}

py::object elementwise(const std::shared_ptr<JitModule>& mod, const std::string& name,
                       py::list args, const std::string& kinds, int64_t size,
                       int block_per_element) {
  if (args.size() != kinds.size()) throw ValueError("args and kinds differ in length");
  std::vector<JitArg> jargs(kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    auto& j = jargs[i];
    j.kind = kinds[i];
    py::handle v = args[i];
    switch (j.kind) {
      case 'a':
      case 'r':
      case 'O':
        if (!is_gpuarr_array(v)) throw TypeError("JIT argument " + std::to_string(i) + " must be a gpuarr array");
        j.array = as_array(v).a;
        break;
      case 'o':
      case 'R':
        j.dtype = dtype_from_py(v);
        break;
      case 's':
        j.bytes = v.cast<std::string>();
        break;
      default:
        throw ValueError("bad JIT argument kind");
    }
  }
  std::vector<NDArray> outs = launch_jit_elementwise(*mod, name, jargs, size, block_per_element);
  size_t oi = 0;
  py::tuple res(outs.size());
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == 'o' || kinds[i] == 'R') {
      res[oi] = make_owner(outs[oi]);
      ++oi;
    } else if (kinds[i] == 'O') {
      res[oi] = py::reinterpret_borrow<py::object>(args[i]);
      ++oi;
    }
  }
  return res;
}

// The hot path of gpuarr.fuse: after the first call for a kind of arguments, one C++ call
// builds the key (dtype and ndim of each array, Python scalar type, NumPy scalar dtype),
// finds the compiled kernel and launches it. A miss (or keyword arguments, or an empty
// array under a fused reduction) calls the Python method _slow_call, which traces,
// compiles and registers the kernel with _register.
struct FusedEntry {
  std::shared_ptr<JitModule> mod;
  std::string name;
  std::string kinds;               // per argument, then 'o' per output or one 'R'
  std::vector<DType> out_dtypes;
  std::vector<DType> scalar_dtypes;  // per argument (used for 's')
  bool single = true;
  bool reduction = false;
  // Per argument: (min, max, dtype name) of the integer dtypes a Python int is converted
  // to in the kernel; out of range is NumPy's OverflowError.
  std::vector<std::vector<std::tuple<long long, unsigned long long, std::string>>> int_ranges;
  // The contiguous and strided kernels, looked up on first use (the module owns them).
  mutable const JitFunction* fns[2] = {nullptr, nullptr};
};

class FusedDispatcher {
 public:
  static void check_int_ranges(
      PyObject* o, const std::vector<std::tuple<long long, unsigned long long, std::string>>& rs) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    for (const auto& [lo, hi, name] : rs) {
      bool ok;
      if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
          PyErr_Clear();
          ok = false;
        } else {
          ok = u <= hi;
        }
      } else if (overflow < 0) {
        ok = false;
      } else {
        ok = v >= lo && (v < 0 || static_cast<unsigned long long>(v) <= hi);
      }
      if (!ok) {
        PyErr_Format(PyExc_OverflowError, "Python integer %S out of bounds for %s", o,
                     name.c_str());
        throw py::error_already_set();
      }
    }
  }

  // Appends the key of `args` to `key`; false when an argument is of no fusable kind.
  static bool make_key(const py::tuple& args, std::string& key) {
    key.clear();
    static auto* generic_ptr = new py::object(py::module_::import("numpy").attr("generic"));
    const py::object& generic = *generic_ptr;
    for (py::handle h : args) {
      PyObject* o = h.ptr();
      if (is_gpuarr_array(h)) {
        const NDArray& a = as_array(h).a;
        key.push_back('A');
        key.push_back(static_cast<char>(a.dtype));
        key.push_back(static_cast<char>(a.ndim()));
      } else if (PyBool_Check(o)) {
        key.push_back('b');
      } else if (PyLong_CheckExact(o)) {
        key.push_back('i');
      } else if (PyFloat_CheckExact(o)) {
        key.push_back('f');
      } else if (PyComplex_CheckExact(o)) {
        key.push_back('c');
      } else if (py::isinstance(h, generic)) {
        key.push_back('S');
        key.push_back(static_cast<char>(dtype_from_py(h.attr("dtype"))));
      } else {
        return false;
      }
    }
    return true;
  }

  void add(py::tuple args, std::shared_ptr<JitModule> mod, std::string name, std::string kinds,
           py::list out_dtypes, bool single, py::list ranges) {
    std::string key;
    if (!make_key(args, key)) return;
    FusedEntry e;
    e.mod = std::move(mod);
    e.name = std::move(name);
    e.kinds = std::move(kinds);
    for (py::handle d : out_dtypes) e.out_dtypes.push_back(dtype_from_py(d));
    for (py::handle h : args) {
      PyObject* o = h.ptr();
      DType t = DType::Float64;
      if (is_gpuarr_array(h)) t = as_array(h).a.dtype;
      else if (PyBool_Check(o)) t = DType::Bool;
      else if (PyLong_CheckExact(o)) t = DType::Int64;
      else if (PyFloat_CheckExact(o)) t = DType::Float64;
      else if (!PyComplex_CheckExact(o)) t = dtype_from_py(h.attr("dtype"));
      e.scalar_dtypes.push_back(t);
    }
    e.single = single;
    e.reduction = e.kinds.find('R') != std::string::npos;
    for (py::handle per_arg : ranges) {
      e.int_ranges.emplace_back();
      for (py::handle r : per_arg) {
        auto t = r.cast<py::tuple>();
        e.int_ranges.back().emplace_back(t[0].cast<long long>(), t[1].cast<unsigned long long>(),
                                         t[2].cast<std::string>());
      }
    }
    entries_[key] = std::move(e);
  }

  static py::object call(py::object self, py::args args, py::kwargs kwargs) {
    auto& d = self.cast<FusedDispatcher&>();
    std::string key;
    if (kwargs.empty() && make_key(args, key)) {
      auto it = d.entries_.find(key);
      if (it != d.entries_.end()) {
        const FusedEntry& e = it->second;
        const size_t nargs = args.size();
        std::vector<JitArg> jargs(e.kinds.size());
        bool empty = false;
        for (size_t i = 0; i < nargs; ++i) {
          JitArg& j = jargs[i];
          j.kind = e.kinds[i];
          if (j.kind == 'a') {
            j.array = as_array(args[i]).a;
            empty |= j.array.size() == 0;
          } else {
            PyObject* o = args[i].ptr();
            if (i < e.int_ranges.size() && !e.int_ranges[i].empty()) check_int_ranges(o, e.int_ranges[i]);
            if (PyBool_Check(o)) {
              j.bytes.assign(1, o == Py_True ? 1 : 0);
            } else if (PyFloat_CheckExact(o)) {
              const double v = PyFloat_AS_DOUBLE(o);
              j.bytes.assign(reinterpret_cast<const char*>(&v), sizeof v);
            } else {
              j.bytes = scalar_bytes(args[i], e.scalar_dtypes[i], ScalarCast::Unsafe);
            }
          }
        }
        if (!(e.reduction && empty)) {
          for (size_t k = nargs; k < e.kinds.size(); ++k) {
            jargs[k].kind = e.kinds[k];
            jargs[k].dtype = e.out_dtypes[k - nargs];
          }
          std::vector<NDArray> outs = launch_jit_elementwise(*e.mod, e.name, jargs, -1, 0, e.fns);
          if (e.single) return make_owner(std::move(outs[0]));
          py::tuple res(outs.size());
          for (size_t k = 0; k < outs.size(); ++k) res[k] = make_owner(std::move(outs[k]));
          return std::move(res);
        }
      }
    }
    return self.attr("_slow_call")(*args, **kwargs);
  }

  void clear() { entries_.clear(); }

 private:
  // Node-based: references to entries stay valid when another key is added.
  std::unordered_map<std::string, FusedEntry> entries_;
};

// `fused(x, y)` straight to FusedDispatcher::call through the type's tp_call (installed on
// gpuarr.fuse's Python class by _install_fused_call): CPython's generic slot_tp_call looks up
// __call__ and calls pybind11's dispatcher, which converts the arguments again.
PyObject* fused_tp_call(PyObject* self, PyObject* args, PyObject* kwargs) {
  try {
    py::object s = py::reinterpret_borrow<py::object>(self);
    py::args a = py::reinterpret_borrow<py::args>(args);
    py::kwargs k = kwargs ? py::reinterpret_borrow<py::kwargs>(kwargs) : py::kwargs();
    return FusedDispatcher::call(std::move(s), std::move(a), std::move(k)).release().ptr();
  } catch (...) {
    return translate_active_exception();
  }
}

}  // namespace

GPUARR_BINDINGS(200) {
  static auto* compile_error = new py::exception<CompileError>(m, "CompileError", PyExc_Exception);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const CompileError& e) {
      PyErr_SetString(compile_error->ptr(), e.what());
    }
  });

  py::class_<JitModule, std::shared_ptr<JitModule>>(m, "_JitModule")
      .def("get_function", [](std::shared_ptr<JitModule> mod, const std::string& name) {
        return JitKernelHandle{mod, &mod->function(name)};
      })
      .def_property_readonly("cubin", &JitModule::cubin);
  py::class_<JitKernelHandle>(m, "_JitKernel")
      .def_property_readonly("name", [](const JitKernelHandle& k) { return k.f->name; })
      .def_property_readonly("param_sizes", [](const JitKernelHandle& k) -> py::object {
        if (!k.f->params_known) return py::none();
        return py::cast(k.f->param_sizes);
      })
      .def_property_readonly("ptr", [](const JitKernelHandle& k) {
        return reinterpret_cast<uintptr_t>(k.f->function);
      })
      .def("launch", &raw_launch, py::arg("grid"), py::arg("block"), py::arg("args"),
           py::arg("shared_mem") = 0);

  py::class_<FusedDispatcher>(m, "_FusedDispatcher", py::dynamic_attr())
      .def(py::init<>())
      .def("__call__", &FusedDispatcher::call)
      .def("_register", &FusedDispatcher::add)
      .def("_clear", &FusedDispatcher::clear);
  // The direct call slot for gpuarr.fuse's class, or back to the generic one (which calls
  // __call__); `on` None follows GPUARR_FAST_OPERATOR_SLOTS. Returns whether installed.
  m.def("_install_fused_call", [](py::handle cls, py::object on) {
    auto* t = reinterpret_cast<PyTypeObject*>(cls.ptr());
    if (!PyType_Check(cls.ptr()) || !(t->tp_flags & Py_TPFLAGS_HEAPTYPE)) return false;
    static ternaryfunc generic = nullptr;
    if (!generic && t->tp_call != &fused_tp_call) generic = t->tp_call;
    const bool install = on.is_none() ? fast_slots_enabled() : on.cast<bool>();
    if (!install && !generic) return false;
    t->tp_call = install ? &fused_tp_call : generic;
    PyType_Modified(t);
    return install;
  }, py::arg("cls"), py::arg("on") = py::none());

  m.def("_jit_module", [](const std::string& source, const std::vector<std::string>& options,
                          const std::vector<std::string>& name_expressions) {
    return get_jit_module(source, options, name_expressions);
  }, py::arg("source"), py::arg("options") = std::vector<std::string>{},
     py::arg("name_expressions") = std::vector<std::string>{});
  // Compiles without loading (no device needed): for host tests of generated sources.
  // The package's headers are always on the include path; the toolkit's only on request.
  m.def("_jit_check_compile", [](const std::string& source, const std::vector<std::string>& options,
                                  bool toolkit_include) {
    std::vector<std::string> opts = options;
    opts.push_back("-std=c++17");
    for (std::string& inc : include_options(toolkit_include)) opts.push_back(std::move(inc));
    CompiledProgram p = nvrtc_compile(source, "gpuarr_kernel.cu", opts, {});
    return py::make_tuple(p.cubin, p.log);
  }, py::arg("source"), py::arg("options") = std::vector<std::string>{},
     py::arg("toolkit_include") = true);
  m.def("_jit_elementwise", &elementwise, py::arg("module"), py::arg("name"), py::arg("args"),
        py::arg("kinds"), py::arg("size") = -1, py::arg("block_per_element") = 0);
  m.def("_jit_include_dir", &package_include_dir);
  m.def("_jit_headers_digest", &package_headers_digest);
  // What generated kernels need to know of a ufunc: the gpuarr::ufn functor its loops apply
  // (None when they are not one functor's), and whether an integer loop's exponent must be
  // checked for a negative scalar on the host (kUfuncNonnegativeIntExponent).
  m.def("_ufunc_jit_info", [](const std::string& name) {
    const UfuncDef* d = find_ufunc(name);
    if (!d) throw py::value_error("no ufunc named '" + name + "'");
    return py::make_tuple(d->functor ? py::object(py::str(d->functor)) : py::object(py::none()),
                          d->has(kUfuncNonnegativeIntExponent));
  }, py::arg("name"));
  m.def("_jit_compile_count", &jit_compile_count);
  m.def("_jit_cache_dir", &jit_cache_dir);
  m.def("_jit_clear_memory_cache", &clear_jit_memory_cache);
  m.def("_nvrtc_version", &nvrtc_version);
  m.def("_nvtx_push", [](const std::string& msg) {
#if GPUARR_HAVE_NVTX
    nvtxRangePushA(msg.c_str());
#endif
  });
  m.def("_nvtx_pop", [] {
#if GPUARR_HAVE_NVTX
    nvtxRangePop();
#endif
  });
  m.def("_profiler_start", [] {
    require_device();
    GPUARR_CUDA_CHECK(cudaProfilerStart());
  });
  m.def("_profiler_stop", [] {
    require_device();
    GPUARR_CUDA_CHECK(cudaProfilerStop());
  });
  m.def("_jit_max_dims", [] { return kJitMaxDims; });
}

}  // namespace gpuarr::bind
