// Interop protocols: DLPack (versioned >= 1.0 and legacy capsules, both directions) and
// __cuda_array_interface__ v3 (both directions). Imports are zero-copy: the gpuarr array's
// Memory does not own the pointer; it keeps the producer alive and releases it (DLPack
// deleter or a reference to the exporting object) when the last view dies. Stream
// ordering is by events (cudaStreamWaitEvent), never a host synchronization.
#include <cuda_runtime_api.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <optional>
#include <string>

#include "bindings/interop.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/dlpack.h"
#include "core/errors.hpp"
#include "core/interop.hpp"
#include "ops/array_ops.hpp"
#include "runtime/deferred_work.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/stream.hpp"

namespace gpuarr::bind {

namespace {

constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kLegacyName = "dltensor";
constexpr const char* kUsedVersionedName = "used_dltensor_versioned";
constexpr const char* kUsedLegacyName = "used_dltensor";

// Device memory owned by someone else; `release` runs when the last gpuarr view dies.
class ForeignMemory final : public Memory {
 public:
  ForeignMemory(void* ptr, size_t nbytes, int device, std::function<void()> release)
      : Memory(ptr, nbytes, device), release_(std::move(release)) {
    mark_shared_outside();  // the producer may write it at any time
  }
  ~ForeignMemory() override {
    forget_deferred_work();
    if (release_) {
      try {
        release_();
      } catch (...) {
      }
    }
  }

 private:
  std::function<void()> release_;
};

// Runs `f` holding the GIL (from any thread); skipped once the interpreter is gone (the
// producer's memory is then reclaimed with the process).
template <class F>
void with_gil(F&& f) {
  if (!Py_IsInitialized()) return;
  PyGILState_STATE g = PyGILState_Ensure();
  f();
  PyGILState_Release(g);
}

// A reference to a Python object that may be dropped from any thread.
std::function<void()> keep_alive(py::handle obj) {
  PyObject* o = obj.ptr();
  Py_INCREF(o);
  return [o]() { with_gil([o]() { Py_DECREF(o); }); };
}

// Wraps foreign device memory: `first` is element 0, strides in bytes.
py::object wrap_foreign(char* first, DType dtype, Dims shape, Dims strides, int device,
                        std::function<void()> release) {
  const int64_t isz = itemsize(dtype);
  const ByteSpan span = byte_span(shape, strides, isz);
  NDArray a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.strides = std::move(strides);
  if (span.hi > span.lo) {
    a.memory = std::make_shared<ForeignMemory>(first + span.lo,
                                               static_cast<size_t>(span.hi - span.lo), device,
                                               std::move(release));
    a.offset = -span.lo;
  } else {
    a.memory = std::make_shared<ForeignMemory>(first, 0, device, std::move(release));
    a.offset = 0;
  }
  return make_owner(std::move(a));
}

// Makes `consumer` wait for the work enqueued so far on `producer` (same device), without
// blocking the host. `producer`/`consumer` are raw handles (nullptr = legacy default).
void order_streams(cudaStream_t producer, cudaStream_t consumer, int device) {
  launch_all_deferred_work();  // "the work enqueued so far" includes deferred work
  auto norm = [](cudaStream_t s) { return s == nullptr ? cudaStreamLegacy : s; };
  if (norm(producer) == norm(consumer)) return;
  DeviceGuard guard(device);
  cudaEvent_t ev = nullptr;
  GPUARR_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  cudaError_t st = cudaEventRecord(ev, producer);
  if (st == cudaSuccess) st = cudaStreamWaitEvent(consumer, ev, 0);
  // Destroying a recorded event is safe: its resources are released once it completes.
  cudaEventDestroy(ev);
  GPUARR_CUDA_CHECK(st);
}

std::optional<int64_t> optional_int(py::handle h, const char* what) {
  if (h.is_none()) return std::nullopt;
  if (!PyLong_Check(h.ptr())) {
    throw TypeError(std::string(what) + " must be an integer or None, not " +
                    py::str(py::type::of(h).attr("__name__")).cast<std::string>());
  }
  return h.cast<int64_t>();
}

// --- DLPack export ---------------------------------------------------------------------

struct ExportContext {
  NDArray array;  // keeps the memory alive
  Dims shape;
  Dims strides;  // elements
};

void delete_versioned(DLManagedTensorVersioned* m) {
  delete static_cast<ExportContext*>(m->manager_ctx);
  delete m;
}

void delete_legacy(DLManagedTensor* m) {
  delete static_cast<ExportContext*>(m->manager_ctx);
  delete m;
}

// Capsule destructors: free the tensor only if no consumer took it (name unchanged).
void versioned_capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, kUsedVersionedName)) return;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, kVersionedName));
  if (m) {
    if (m->deleter) m->deleter(m);
  } else {
    PyErr_WriteUnraisable(capsule);
  }
  PyErr_Restore(type, value, tb);
}

void legacy_capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, kUsedLegacyName)) return;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, kLegacyName));
  if (m) {
    if (m->deleter) m->deleter(m);
  } else {
    PyErr_WriteUnraisable(capsule);
  }
  PyErr_Restore(type, value, tb);
}

void fill_tensor(DLTensor& t, ExportContext& ctx) {
  const NDArray& a = ctx.array;
  a.memory->mark_shared_outside();
  t.data = a.size() == 0 && a.memory->ptr() == nullptr ? nullptr : a.data();
  t.device = DLDevice{kDLCUDA, static_cast<int32_t>(a.device())};
  t.ndim = static_cast<int32_t>(a.ndim());
  t.dtype = to_dl_dtype(a.dtype);
  t.shape = ctx.shape.empty() ? nullptr : ctx.shape.data();
  t.strides = ctx.strides.empty() ? nullptr : ctx.strides.data();
  t.byte_offset = 0;
}

py::object dlpack_export(py::handle self, py::handle stream, py::handle max_version,
                         py::handle dl_device, py::handle copy) {
  const NDArray& a = as_array(self).a;
  uint32_t req_major = 0, req_minor = 0;
  if (!max_version.is_none()) {
    py::tuple t = py::reinterpret_borrow<py::object>(max_version).cast<py::tuple>();
    if (t.size() != 2) throw TypeError("max_version must be a tuple (major, minor)");
    req_major = t[0].cast<uint32_t>();
    req_minor = t[1].cast<uint32_t>();
  }
  const bool versioned = req_major >= 1;
  std::optional<bool> copy_req;
  if (!copy.is_none()) copy_req = copy.cast<bool>();

  if (!dl_device.is_none()) {
    py::tuple d = py::reinterpret_borrow<py::object>(dl_device).cast<py::tuple>();
    if (d.size() != 2) throw TypeError("dl_device must be a tuple (device_type, device_id)");
    const int type = d[0].cast<int>();
    const int id = d[1].cast<int>();
    if (type == kDLCPU) {
      if (copy_req && !*copy_req) {
        throw BufferError(
            "cannot export a gpuarr (device) array to dl_device=(kDLCPU, 0) with copy=False");
      }
      // A host copy (waits for the device), exported by NumPy.
      py::object host = download_new(a);
      py::dict kw;
      if (!max_version.is_none()) kw["max_version"] = max_version;
      return host.attr("__dlpack__")(**kw);
    }
    if (type != kDLCUDA || id != a.device()) {
      throw BufferError("gpuarr can export only to its own device (" +
                        std::to_string(static_cast<int>(kDLCUDA)) + ", " +
                        std::to_string(a.device()) + ") or to the CPU (" +
                        std::to_string(static_cast<int>(kDLCPU)) + ", 0) as a copy; got (" +
                        std::to_string(type) + ", " + std::to_string(id) + ")");
    }
  }

  const StreamRequest req = dlpack_stream_request(optional_int(stream, "stream"));
  auto ctx = std::make_unique<ExportContext>();
  bool copied = false;
  if (copy_req && *copy_req) {
    DeviceGuard guard(a.device());
    ctx->array = copy_array(a, a.dtype, 'K');
    copied = true;
  } else {
    ctx->array = a;
  }
  ctx->shape = ctx->array.shape;
  ctx->strides = dl_strides_from_bytes(ctx->array.strides, ctx->array.itemsize());
  if (req.synchronize) {
    order_streams(stream_for(ctx->array), reinterpret_cast<cudaStream_t>(req.handle),
                  ctx->array.device());
  }

  PyObject* capsule = nullptr;
  if (versioned) {
    auto* m = new DLManagedTensorVersioned{};
    m->version.major = DLPACK_MAJOR_VERSION;
    m->version.minor = req_major > 1 ? DLPACK_MINOR_VERSION
                                     : std::min<uint32_t>(req_minor, DLPACK_MINOR_VERSION);
    m->flags = copied ? DLPACK_FLAG_BITMASK_IS_COPIED : 0;
    fill_tensor(m->dl_tensor, *ctx);
    m->manager_ctx = ctx.release();
    m->deleter = &delete_versioned;
    capsule = PyCapsule_New(m, kVersionedName, &versioned_capsule_destructor);
    if (!capsule) {
      delete_versioned(m);
      throw py::error_already_set();
    }
  } else {
    auto* m = new DLManagedTensor{};
    fill_tensor(m->dl_tensor, *ctx);
    m->manager_ctx = ctx.release();
    m->deleter = &delete_legacy;
    capsule = PyCapsule_New(m, kLegacyName, &legacy_capsule_destructor);
    if (!capsule) {
      delete_legacy(m);
      throw py::error_already_set();
    }
  }
  return py::reinterpret_steal<py::object>(capsule);
}

// --- DLPack import ---------------------------------------------------------------------

py::object dlpack_import_capsule(py::handle capsule) {
  PyObject* c = capsule.ptr();
  if (!PyCapsule_CheckExact(c)) {
    throw TypeError("expected a DLPack capsule or an object with __dlpack__, got " +
                    py::str(py::type::of(capsule).attr("__name__")).cast<std::string>());
  }
  const char* raw_name = PyCapsule_GetName(c);
  const std::string name = raw_name ? raw_name : "";
  if (name == kUsedLegacyName || name == kUsedVersionedName) {
    throw ValueError("this DLPack capsule ('" + name +
                     "') was already consumed; a capsule can be imported only once");
  }
  const bool versioned = name == kVersionedName;
  if (!versioned && name != kLegacyName) {
    throw TypeError("not a DLPack capsule (capsule name '" + name + "')");
  }
  void* p = PyCapsule_GetPointer(c, raw_name);
  if (!p) throw py::error_already_set();
  DLTensor* t = nullptr;
  std::function<void()> release;
  if (versioned) {
    auto* m = static_cast<DLManagedTensorVersioned*>(p);
    if (m->version.major != 1) {
      throw BufferError("unsupported DLPack version " + std::to_string(m->version.major) + "." +
                        std::to_string(m->version.minor) + " (gpuarr reads 1.x)");
    }
    t = &m->dl_tensor;
    release = [m]() {
      if (m->deleter) with_gil([m]() { m->deleter(m); });
    };
  } else {
    auto* m = static_cast<DLManagedTensor*>(p);
    t = &m->dl_tensor;
    release = [m]() {
      if (m->deleter) with_gil([m]() { m->deleter(m); });
    };
  }
  const int dev_type = static_cast<int>(t->device.device_type);
  if (dev_type == kDLCPU || dev_type == kDLCUDAHost) {
    throw BufferError(
        "the DLPack tensor is in host memory (device type " + std::to_string(dev_type) +
        "); gpuarr arrays live in GPU memory: use gpuarr.from_dlpack(x, copy=True) or "
        "gpuarr.asarray(numpy.from_dlpack(x)) to copy it");
  }
  if (dev_type != kDLCUDA && dev_type != kDLCUDAManaged) {
    throw BufferError("gpuarr cannot import DLPack tensors of device type " +
                      std::to_string(dev_type) + " (only kDLCUDA and kDLCUDAManaged)");
  }
  if (t->ndim < 0 || t->ndim > kMaxDims) {
    throw BufferError("DLPack tensor has an invalid ndim " + std::to_string(t->ndim));
  }
  const DType dtype = from_dl_dtype(t->dtype);
  if (t->ndim > 0 && t->shape == nullptr) throw BufferError("DLPack tensor has no shape");
  Dims shape(t->shape, t->shape + t->ndim);
  for (int64_t n : shape) {
    if (n < 0) throw BufferError("DLPack tensor has a negative dimension");
  }
  Dims strides = byte_strides_from_dl(shape, t->strides, itemsize(dtype));
  char* first = static_cast<char*>(t->data);
  if (first) {
    first += t->byte_offset;
  } else if (shape_size(shape) != 0) {
    throw BufferError("DLPack tensor has a null data pointer");
  }
  (void)byte_span(shape, strides, itemsize(dtype));  // BufferError on overflow, before renaming
  const int device = t->device.device_id;
  // Everything that can fail has run: take ownership.
  if (PyCapsule_SetName(c, versioned ? kUsedVersionedName : kUsedLegacyName) != 0) {
    throw py::error_already_set();
  }
  return wrap_foreign(first, dtype, std::move(shape), std::move(strides), device,
                      std::move(release));
}

// The stream value a consumer on `device` passes to __dlpack__(stream=...).
py::int_ consumer_stream_value(int device) {
  cudaStream_t s = current_stream_handle(device);
  if (s == nullptr) return py::int_(1);
  return py::int_(reinterpret_cast<uintptr_t>(s));
}

// x.__dlpack__ asked for a versioned capsule, falling back to the legacy call for
// producers that predate max_version (they raise TypeError on the keyword).
py::object dlpack_import_object(py::handle obj, int device) {
  py::object fn = obj.attr("__dlpack__");
  const py::int_ stream = consumer_stream_value(device);
  py::object capsule;
  try {
    capsule = fn(py::arg("stream") = stream, py::arg("max_version") = py::make_tuple(1, 0));
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    capsule = fn(py::arg("stream") = stream);
  }
  return dlpack_import_capsule(capsule);
}

// (device_type, device_id) of a DLPack producer, or nullopt when it has no
// __dlpack_device__.
std::optional<std::pair<int, int>> dlpack_device_of(py::handle obj) {
  if (!py::hasattr(obj, "__dlpack_device__") || !py::hasattr(obj, "__dlpack__")) {
    return std::nullopt;
  }
  py::tuple d = obj.attr("__dlpack_device__")();
  return std::make_pair(py::int_(d[0]).cast<int>(), py::int_(d[1]).cast<int>());
}

// --- __cuda_array_interface__ ----------------------------------------------------------

py::dict cai_export(const PyArray& self) {
  const NDArray& a = self.a;
  py::dict d;
  py::tuple shape(a.ndim());
  for (int64_t i = 0; i < a.ndim(); ++i) shape[i] = py::int_(a.shape[i]);
  d["shape"] = shape;
  d["typestr"] = typestr(a.dtype);
  a.memory->mark_shared_outside();
  const uintptr_t ptr = a.size() == 0 ? 0 : reinterpret_cast<uintptr_t>(a.data());
  d["data"] = py::make_tuple(py::int_(ptr), false);
  if (a.c_contiguous()) {
    d["strides"] = py::none();
  } else {
    py::tuple st(a.ndim());
    for (int64_t i = 0; i < a.ndim(); ++i) st[i] = py::int_(a.strides[i]);
    d["strides"] = st;
  }
  py::list descr;
  descr.append(py::make_tuple("", typestr(a.dtype)));
  d["descr"] = descr;
  d["version"] = 3;
  // The stream the data is (or will be) written on: gpuarr's current stream of the
  // array's device; 1 is the legacy default stream.
  cudaStream_t s = current_stream_handle(a.device());
  d["stream"] = s == nullptr ? py::int_(1) : py::int_(reinterpret_cast<uintptr_t>(s));
  return d;
}

int device_of_pointer(const void* ptr) {
  cudaPointerAttributes attr{};
  GPUARR_CUDA_CHECK(cudaPointerGetAttributes(&attr, ptr));
  if (attr.type == cudaMemoryTypeUnregistered) {
    throw BufferError(
        "__cuda_array_interface__ data pointer is not CUDA memory (unregistered host memory)");
  }
  return attr.device;
}

py::object cai_import(py::handle obj) {
  py::object iface = obj.attr("__cuda_array_interface__");
  if (!py::isinstance<py::dict>(iface)) {
    throw TypeError("__cuda_array_interface__ must be a dict");
  }
  py::dict d = iface;
  const int version = d.contains("version") ? d["version"].cast<int>() : 0;
  if (d.contains("mask") && !py::object(d["mask"]).is_none()) {
    throw ValueError("gpuarr does not support masked __cuda_array_interface__ arrays");
  }
  py::tuple shape_t = py::object(d["shape"]).cast<py::tuple>();
  Dims shape;
  for (auto n : shape_t) shape.push_back(n.cast<int64_t>());
  const DType dtype = dtype_from_typestr(py::object(d["typestr"]).cast<std::string>());
  py::tuple data = py::object(d["data"]).cast<py::tuple>();
  const uintptr_t ptr = data[0].cast<uintptr_t>();
  Dims strides;
  py::object st = d.contains("strides") ? py::object(d["strides"]) : py::none();
  if (st.is_none()) {
    strides = dense_strides(shape, itemsize(dtype), 'C');  // a view: NumPy keeps its strides
  } else {
    for (auto s : st.cast<py::tuple>()) strides.push_back(s.cast<int64_t>());
    if (strides.size() != shape.size()) {
      throw ValueError("__cuda_array_interface__ strides and shape differ in length");
    }
  }
  const int device = ptr == 0 ? current_device() : device_of_pointer(reinterpret_cast<void*>(ptr));
  if (version >= 3 && d.contains("stream")) {
    const StreamRequest req =
        cai_stream_request(optional_int(d["stream"], "__cuda_array_interface__ stream"));
    if (req.synchronize) {
      order_streams(reinterpret_cast<cudaStream_t>(req.handle), current_stream_handle(device),
                    device);
    }
  }
  return wrap_foreign(reinterpret_cast<char*>(ptr), dtype, std::move(shape), std::move(strides),
                      device, keep_alive(obj));
}

void register_buffer_error() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const BufferError& e) {
      PyErr_SetString(PyExc_BufferError, e.what());
    }
  });
}

}  // namespace

py::object import_device_object(py::handle obj) {
  // Host data (the common case of asarray) goes straight to the upload path.
  if (py::isinstance<py::array>(obj) || PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()) ||
      PyFloat_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyComplex_Check(obj.ptr())) {
    return py::object();
  }
  if (auto dev = dlpack_device_of(obj)) {
    if (dev->first == kDLCUDA || dev->first == kDLCUDAManaged) {
      return dlpack_import_object(obj, dev->second);
    }
  }
  if (py::hasattr(obj, "__cuda_array_interface__")) return cai_import(obj);
  return py::object();
}

GPUARR_BINDINGS(200) {
  register_buffer_error();
  py::object cls = m.attr("ndarray");
  auto add = [&](const char* name, py::cpp_function f) { cls.attr(name) = f; };
  add("__dlpack__",
      py::cpp_function(
          [](py::handle self, py::handle stream, py::handle max_version, py::handle dl_device,
             py::handle copy) { return dlpack_export(self, stream, max_version, dl_device, copy); },
          py::name("__dlpack__"), py::is_method(cls), py::kw_only(),
          py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
          py::arg("dl_device") = py::none(), py::arg("copy") = py::none(),
          "Exports the array as a DLPack capsule (zero-copy; versioned when the consumer "
          "passes max_version >= (1, 0)). stream: None -> the legacy default stream, -1 -> "
          "no synchronization, other ints -> a cudaStream_t that is made to wait for "
          "gpuarr's current stream (0 is invalid for CUDA)."));
  add("__dlpack_device__",
      py::cpp_function(
          [](const PyArray& self) {
            return py::make_tuple(static_cast<int>(kDLCUDA), self.a.device());
          },
          py::name("__dlpack_device__"), py::is_method(cls)));
  cls.attr("__cuda_array_interface__") = py::module_::import("builtins").attr("property")(
      py::cpp_function([](const PyArray& self) { return cai_export(self); }));

  m.def("_dlpack_import_capsule", &dlpack_import_capsule, py::arg("capsule"));
  m.def(
      "_dlpack_import_object",
      [](py::handle obj, int device) { return dlpack_import_object(obj, device); },
      py::arg("obj"), py::arg("device"));
  m.def("_cai_import", &cai_import, py::arg("obj"));
  m.def("_dlpack_consumer_stream", [](int device) { return consumer_stream_value(device); },
        py::arg("device"));
}

}  // namespace gpuarr::bind
