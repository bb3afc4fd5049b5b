// gpuarr._core's runtime API: devices, streams, events, memory pool, pinned memory.
#include <cuda_runtime_api.h>
#include <pybind11/stl.h>

#include <vector>

#include "bindings/py_array.hpp"
#include "core/errors.hpp"
#include "runtime/deferred_work.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/memory_pool.hpp"
#include "runtime/pinned_memory.hpp"
#include "runtime/stream.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime/transfer.hpp"

namespace gpuarr::bind {
namespace {

// Streams made current by `with stream:`, so that exit restores the previous one.
thread_local std::vector<std::pair<int, std::shared_ptr<Stream>>> tls_stream_stack;

int stream_device(const Stream& s) { return s.device() >= 0 ? s.device() : current_device(); }

void enter_stream(const std::shared_ptr<Stream>& s) {
  const int dev = stream_device(*s);
  auto slot_value = s->handle() == nullptr ? nullptr : s;
  tls_stream_stack.emplace_back(dev, exchange_current_stream(dev, slot_value));
}

void exit_stream() {
  if (tls_stream_stack.empty()) return;
  auto [dev, prev] = std::move(tls_stream_stack.back());
  tls_stream_stack.pop_back();
  exchange_current_stream(dev, std::move(prev));
}

std::shared_ptr<Stream>& null_stream() {
  static auto* s = new std::shared_ptr<Stream>(Stream::borrow(nullptr, -1));
  return *s;
}

cudaStream_t handle_of(py::handle stream) {
  if (stream.is_none()) return current_stream_handle(current_device());
  return stream.cast<std::shared_ptr<Stream>>()->handle();
}

MemoryPool& current_pool() { return MemoryPool::for_device(current_device()); }

// Stand-in for CuPy's MemoryPool object: it acts on the current device's pool.
struct MemoryPoolHandle {};

}  // namespace

void bind_cuda(py::module_& m) {
  m.def("device_count", &device_count);
  m.def("no_device_reason", &no_device_reason);
  m.def("get_device", &current_device);
  m.def("set_device", &set_device);
  m.def("device_synchronize", [] {
    require_device();
    launch_all_deferred_work();
    py::gil_scoped_release release;
    GPUARR_CUDA_CHECK(cudaDeviceSynchronize());
  });
  m.def("mem_get_info", [](int device) {
    DeviceGuard guard(device);
    size_t free_b = 0, total_b = 0;
    GPUARR_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return py::make_tuple(free_b, total_b);
  });
  m.def("compute_capability", [](int device) {
    require_device();
    int major = 0, minor = 0;
    GPUARR_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    GPUARR_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    return py::make_tuple(major, minor);
  });
  m.def("device_properties", [](int device) {
    require_device();
    cudaDeviceProp p{};
    GPUARR_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    py::dict d;
    d["name"] = py::bytes(p.name);
    d["totalGlobalMem"] = p.totalGlobalMem;
    d["major"] = p.major;
    d["minor"] = p.minor;
    d["multiProcessorCount"] = p.multiProcessorCount;
    d["l2CacheSize"] = p.l2CacheSize;
    d["sharedMemPerBlock"] = p.sharedMemPerBlock;
    d["warpSize"] = p.warpSize;
    d["maxThreadsPerBlock"] = p.maxThreadsPerBlock;
    // Which physical GPU this is (CUDA_VISIBLE_DEVICES renumbers them), as CuPy reports it.
    d["pciBusID"] = p.pciBusID;
    d["pciDeviceID"] = p.pciDeviceID;
    d["pciDomainID"] = p.pciDomainID;
    d["uuid"] = py::bytes(p.uuid.bytes, sizeof(p.uuid.bytes));
    return d;
  });
  m.def("runtime_version", [] {
    int v = 0;
    GPUARR_CUDA_CHECK(cudaRuntimeGetVersion(&v));
    return v;
  });
  m.def("driver_version", [] {
    int v = 0;
    if (cudaDriverGetVersion(&v) != cudaSuccess) {
      cudaGetLastError();
      return 0;
    }
    return v;
  });

  py::class_<Stream, std::shared_ptr<Stream>>(m, "Stream",
                                              "A CUDA stream; ``with stream:`` makes it current.")
      .def(py::init([](bool non_blocking, int priority) {
             return Stream::create(non_blocking, priority);
           }),
           py::arg("non_blocking") = false, py::arg("priority") = 0)
      .def_property_readonly("ptr",
                             [](const Stream& s) { return reinterpret_cast<uintptr_t>(s.handle()); })
      .def_property_readonly("device_id", &Stream::device)
      .def_property_readonly("done", &Stream::done)
      .def("synchronize", &Stream::synchronize, py::call_guard<py::gil_scoped_release>())
      .def(
          "record",
          [](const Stream& s, std::shared_ptr<Event> e) {
            if (!e) e = std::make_shared<Event>(true, false);
            e->record(s.handle());
            return e;
          },
          py::arg("event") = nullptr)
      .def("wait_event",
           [](const Stream& s, const Event& e) {
             launch_all_deferred_work();
             GPUARR_CUDA_CHECK(cudaStreamWaitEvent(s.handle(), e.handle(), 0));
           })
      .def("use", [](std::shared_ptr<Stream> s) {
        const int dev = stream_device(*s);
        exchange_current_stream(dev, s->handle() == nullptr ? nullptr : s);
        return s;
      })
      .def("__enter__", [](std::shared_ptr<Stream> s) {
        enter_stream(s);
        return s;
      })
      .def("__exit__", [](const Stream&, py::args) { exit_stream(); })
      .def("__eq__", [](const Stream& a, py::handle b) {
        if (!py::isinstance<Stream>(b)) return false;
        const Stream& o = b.cast<const Stream&>();
        return a.handle() == o.handle();
      })
      .def("__hash__", [](const Stream& s) { return std::hash<void*>()(s.handle()); })
      .def("__repr__", [](const Stream& s) {
        return "<gpuarr.cuda.Stream " +
               py::str(py::int_(reinterpret_cast<uintptr_t>(s.handle()))).cast<std::string>() +
               " (device " + std::to_string(s.device()) + ")>";
      });
  m.attr("Stream").attr("null") = null_stream();
  m.def(
      "get_current_stream",
      []() -> std::shared_ptr<Stream> {
        const auto& s = current_stream_ptr(current_device());
        return s ? s : null_stream();
      },
      "The current device's current stream (Stream.null when none was made current).");

  py::class_<Event, std::shared_ptr<Event>>(m, "Event",
                                            "A CUDA event, to record on a stream and time.")
      .def(py::init([](bool timing, bool blocking, py::handle disable_timing) {
             if (!disable_timing.is_none()) timing = !disable_timing.cast<bool>();
             return std::make_shared<Event>(timing, blocking);
           }),
           py::arg("timing") = true, py::arg("blocking") = false,
           py::arg("disable_timing") = py::none())
      .def_property_readonly("ptr",
                             [](const Event& e) { return reinterpret_cast<uintptr_t>(e.handle()); })
      .def_property_readonly("done", &Event::done)
      .def_property_readonly("device_id", &Event::device)
      .def(
          "record",
          [](Event& e, py::handle stream) { e.record(handle_of(stream)); },
          py::arg("stream") = py::none())
      .def("synchronize", &Event::synchronize, py::call_guard<py::gil_scoped_release>());
  m.def("get_elapsed_time", &elapsed_ms, py::call_guard<py::gil_scoped_release>(),
        "Milliseconds between two recorded events (cupy.cuda.get_elapsed_time).");

  py::class_<MemoryPoolHandle>(m, "MemoryPool", "The current device's device-memory pool.")
      .def("used_bytes", [](const MemoryPoolHandle&) { return current_pool().used_bytes(); })
      .def("total_bytes", [](const MemoryPoolHandle&) { return current_pool().total_bytes(); })
      .def("free_bytes", [](const MemoryPoolHandle&) {
        MemoryPool& p = current_pool();
        const size_t total = p.total_bytes(), used = p.used_bytes();
        return total > used ? total - used : size_t(0);
      })
      .def("free_all_blocks", [](const MemoryPoolHandle&) {
        py::gil_scoped_release release;
        current_pool().free_all_blocks();
      })
      .def(
          "set_limit",
          [](const MemoryPoolHandle&, py::handle size, py::handle fraction) {
            MemoryPool& p = current_pool();
            if (!size.is_none() && !fraction.is_none()) {
              throw ValueError("size and fraction cannot be specified at one time");
            }
            if (!fraction.is_none()) {
              const double f = fraction.cast<double>();
              if (f < 0 || f > 1) throw ValueError("memory limit fraction out of range: " + std::to_string(f));
              size_t free_b = 0, total_b = 0;
              GPUARR_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
              p.set_limit(static_cast<size_t>(f * static_cast<double>(total_b)));
            } else if (!size.is_none()) {
              const long long n = size.cast<long long>();
              if (n < 0) throw ValueError("memory limit size must be non-negative");
              p.set_limit(static_cast<size_t>(n));
            } else {
              p.set_limit(0);
            }
          },
          py::arg("size") = py::none(), py::arg("fraction") = py::none())
      .def("get_limit", [](const MemoryPoolHandle&) { return current_pool().limit(); });
  m.def(
      "get_default_memory_pool",
      [] {
        static auto* pool = new py::object(py::cast(MemoryPoolHandle{}));  // outlives finalization
        return *pool;
      },
      "The MemoryPool of gpuarr's device allocations (acts on the current device).");

  py::class_<PinnedMemory, std::shared_ptr<PinnedMemory>>(m, "PinnedMemory", py::buffer_protocol(),
                                                        "Page-locked host memory (a buffer).")
      .def(py::init([](size_t n) { return std::make_shared<PinnedMemory>(n); }), py::arg("size"))
      .def_property_readonly("ptr",
                             [](const PinnedMemory& p) { return reinterpret_cast<uintptr_t>(p.ptr()); })
      .def_property_readonly("size", &PinnedMemory::nbytes)
      .def("__len__", &PinnedMemory::nbytes)
      .def_buffer([](PinnedMemory& p) {
        return py::buffer_info(p.ptr(), 1, py::format_descriptor<uint8_t>::format(), 1,
                               {static_cast<py::ssize_t>(p.nbytes())}, {1});
      });
  m.def("is_pinned", [](py::buffer b) {
    py::buffer_info info = b.request();
    return is_pinned_host_pointer(info.ptr);
  });

  m.def("transfer_settings", [] {
    py::dict d;
    d["threads"] = transfer_threads();
    d["chunk_bytes"] = staging_chunk_bytes();
    d["buffers"] = staging_buffers();
    d["threshold_bytes"] = staging_threshold();
    return d;
  });
}

}  // namespace gpuarr::bind
