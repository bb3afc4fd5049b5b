// Private controls of the pool's small-block cache (tests and the latency probe).
#include <pybind11/pybind11.h>

#include "bindings/registry.hpp"
#include "runtime/device.hpp"
#include "runtime/memory_pool.hpp"

namespace py = pybind11;

namespace gpuarr {

GPUARR_BINDINGS(100) {
  // (enabled, cached bytes, cached blocks) of the current device's pool.
  m.def("_small_block_cache_info", [] {
    MemoryPool& p = MemoryPool::for_device(current_device());
    return py::make_tuple(p.small_cache_enabled(), p.small_cache_bytes(), p.small_cache_blocks());
  });
  m.def("_set_small_block_cache", [](bool on) {
    MemoryPool& p = MemoryPool::for_device(current_device());
    const bool was = p.small_cache_enabled();
    py::gil_scoped_release release;
    p.set_small_cache_enabled(on);
    return was;
  });
  m.def("_flush_small_block_cache", [] {
    MemoryPool& p = MemoryPool::for_device(current_device());
    py::gil_scoped_release release;
    p.flush_small_cache();
  });
}

}  // namespace gpuarr
