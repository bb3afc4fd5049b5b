// .npy I/O seen from Python: header parsing/writing (core/npy_header) and the data path.
// Data moves between a Python file object and device memory through pinned staging
// buffers kept for I/O: reading fills one buffer (file.readinto) while the copy engine
// moves the previous one to the device; writing copies chunks device -> pinned ahead
// while earlier chunks are written out (file.write). Small arrays use one pageable copy.
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "core/file_io.hpp"
#include "core/npy_header.hpp"
#include "ops/array_ops.hpp"
#include "runtime/cuda_check.hpp"
#include "runtime/device.hpp"
#include "runtime/pinned_memory.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime/transfer.hpp"

namespace gpuarr::bind {
namespace {

// Arrays below this size go through one pageable buffer (no staging events).
constexpr int64_t kSmallBytes = 1 << 20;

struct IoStaging {
  std::mutex mutex;
  size_t chunk = 0;
  std::vector<std::unique_ptr<PinnedMemory>> buffers;
  std::vector<cudaEvent_t> released;  // recorded after the last copy using the buffer

  IoStaging() {
    chunk = staging_chunk_bytes();
    chunk -= chunk % 64;  // whole elements of every dtype (byteswap works per chunk)
    for (int i = 0; i < staging_buffers(); ++i) {
      buffers.emplace_back(new PinnedMemory(chunk));
      cudaEvent_t e;
      GPUARR_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      released.push_back(e);
    }
  }
};

IoStaging& io_staging(int device) {
  static std::array<IoStaging*, kMaxDevices> areas{};  // leaked: used until exit
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  auto& a = areas[static_cast<size_t>(device)];
  if (!a) a = new IoStaging();
  return *a;
}

// Locks the staging area without holding the GIL (another thread holding the area may
// need the GIL to call its file object).
std::unique_lock<std::mutex> lock_staging(IoStaging& area) {
  std::unique_lock<std::mutex> lock(area.mutex, std::defer_lock);
  py::gil_scoped_release release;
  lock.lock();
  return lock;
}

void wait_event(cudaEvent_t e) {
  py::gil_scoped_release release;
  GPUARR_CUDA_CHECK(cudaEventSynchronize(e));
}

std::string truncated_message(const Dims& shape, int64_t count, int64_t got_items) {
  std::string s = "(";
  for (size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  if (shape.size() == 1) s += ",";
  s += ")";
  return "Failed to read all data for array. Expected " + s + " = " + std::to_string(count) +
         " elements, could only read " + std::to_string(got_items) +
         " elements. (file seems not fully written?)";
}

// Fills [ptr, ptr+len) by calling readinto until full or end of file; returns bytes read.
int64_t fill_from(const py::object& readinto, char* ptr, int64_t len) {
  int64_t got = 0;
  while (got < len) {
    py::object r = readinto(py::memoryview::from_memory(ptr + got, len - got, false));
    if (r.is_none()) throw ValueError("the file returned no data (non-blocking file objects cannot be read)");
    const int64_t n = r.cast<int64_t>();
    if (n <= 0) break;
    got += n;
  }
  return got;
}

const ParallelFor& transfer_pool() {
  static const ParallelFor run = [](int n, const std::function<void(int)>& task) {
    parallel_for(n, task);
  };
  return run;
}

// The file_io helpers on the transfer thread pool. Call without the GIL.
void byteswap_parallel(char* buf, int64_t len, int unit) {
  byteswap_split(buf, len, unit, transfer_threads(), transfer_pool());
}

int64_t pread_parallel(int fd, int64_t file_off, char* buf, int64_t len) {
  return positional_io(fd, file_off, buf, len, false, transfer_threads(), transfer_pool());
}

void pwrite_parallel(int fd, int64_t file_off, const char* buf, int64_t len) {
  positional_io(fd, file_off, const_cast<char*>(buf), len, true, transfer_threads(),
                transfer_pool());
}

// Writes [ptr, ptr+len) with write(), retrying partial writes of raw files.
void drain_to(const py::object& write, const char* ptr, int64_t len) {
  int64_t done = 0;
  while (done < len) {
    py::object r =
        write(py::memoryview::from_memory(const_cast<char*>(ptr) + done, len - done, true));
    if (r.is_none()) return;  // file objects that do not report a count wrote it all
    const int64_t n = r.cast<int64_t>();
    if (n <= 0) throw ValueError("the file accepted no data (write returned 0)");
    done += n;
  }
}

// A new device array of `shape` filled with the file's next bytes.
// With fd >= 0 the bytes come from that file at file_offset (pread, in parallel) instead
// of readinto (the caller moves the file position past them).
py::object read_array(py::object readinto, py::handle shape_obj, py::handle dtype_obj,
                      bool fortran_order, bool byteswap, int fd, int64_t file_offset) {
  const Dims shape = shape_from_py(shape_obj);
  const DType t = dtype_from_py(dtype_obj);
  NDArray a = empty_array(shape, t, fortran_order ? 'F' : 'C');
  const int64_t nbytes = a.nbytes();
  const int64_t isz = a.itemsize();
  const int unit = static_cast<int>(is_complex(t) ? isz / 2 : isz);
  const bool swap = byteswap && unit > 1;
  if (nbytes == 0) return make_owner(std::move(a));
  if (nbytes <= kSmallBytes) {
    std::vector<char> buf(static_cast<size_t>(nbytes));
    int64_t got;
    if (fd >= 0) {
      py::gil_scoped_release release;
      got = pread_parallel(fd, file_offset, buf.data(), nbytes);
    } else {
      got = fill_from(readinto, buf.data(), nbytes);
    }
    if (got < nbytes) throw ValueError(truncated_message(shape, a.size(), got / isz));
    if (swap) npy::byteswap_inplace(buf.data(), nbytes, unit);
    upload_contiguous(a, buf.data(), false);
    return make_owner(std::move(a));
  }
  IoStaging& area = io_staging(current_device());
  auto lock = lock_staging(area);
  const cudaStream_t stream = stream_for(a);
  const int64_t chunk = static_cast<int64_t>(area.chunk);
  const size_t nbuf = area.buffers.size();
  char* dst = a.data();
  size_t i = 0;
  for (int64_t off = 0; off < nbytes; off += chunk, ++i) {
    const size_t b = i % nbuf;
    const int64_t len = std::min(chunk, nbytes - off);
    char* buf = static_cast<char*>(area.buffers[b]->ptr());
    wait_event(area.released[b]);  // the copy engine is done with this buffer
    int64_t got;
    if (fd >= 0) {
      py::gil_scoped_release release;
      got = pread_parallel(fd, file_offset + off, buf, len);
    } else {
      got = fill_from(readinto, buf, len);
    }
    if (got == len && swap) {
      py::gil_scoped_release release;
      byteswap_parallel(buf, len, unit);
    }
    if (got < len) throw ValueError(truncated_message(shape, a.size(), (off + got) / isz));
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(dst + off, buf, static_cast<size_t>(len),
                                      cudaMemcpyHostToDevice, stream));
    GPUARR_CUDA_CHECK(cudaEventRecord(area.released[b], stream));
  }
  // No wait: the array's data is ordered on its stream; the events keep the buffers.
  return make_owner(std::move(a));
}

// Writes the array's elements in `order` ('C' or 'F') through write(), or with fd >= 0
// into that file at file_offset (pwrite, in parallel; the caller moves the file position);
// returns the bytes.
int64_t write_array(py::object write, py::handle arr, char order, int fd, int64_t file_offset) {
  NDArray a = as_array(arr).a;
  DeviceGuard guard(a.device());
  const bool ok = order == 'F' ? a.f_contiguous() : a.c_contiguous();
  if (!ok) a = copy_array(a, a.dtype, order);
  const int64_t nbytes = a.nbytes();
  if (nbytes == 0) return 0;
  if (nbytes <= kSmallBytes) {
    std::vector<char> buf(static_cast<size_t>(nbytes));
    {
      py::gil_scoped_release release;
      download_contiguous(buf.data(), a, false);
      if (fd >= 0) pwrite_parallel(fd, file_offset, buf.data(), nbytes);
    }
    if (fd < 0) drain_to(write, buf.data(), nbytes);
    return nbytes;
  }
  IoStaging& area = io_staging(a.device());
  auto lock = lock_staging(area);
  const cudaStream_t stream = stream_for(a);
  const size_t chunk = area.chunk;
  const size_t nbuf = area.buffers.size();
  const size_t total = static_cast<size_t>(nbytes);
  const size_t nchunks = (total + chunk - 1) / chunk;
  const char* src = a.data();
  auto enqueue = [&](size_t i) {
    const size_t b = i % nbuf, off = i * chunk, len = std::min(chunk, total - off);
    GPUARR_CUDA_CHECK(cudaMemcpyAsync(area.buffers[b]->ptr(), src + off, len,
                                      cudaMemcpyDeviceToHost, stream));
    GPUARR_CUDA_CHECK(cudaEventRecord(area.released[b], stream));
  };
  // Before enqueueing, make sure no earlier read still uses a buffer (events of another
  // stream): the copies below overwrite them.
  for (size_t b = 0; b < nbuf; ++b) wait_event(area.released[b]);
  for (size_t i = 0; i < std::min(nbuf, nchunks); ++i) enqueue(i);
  for (size_t i = 0; i < nchunks; ++i) {
    const size_t b = i % nbuf, off = i * chunk, len = std::min(chunk, total - off);
    const char* buf = static_cast<const char*>(area.buffers[b]->ptr());
    if (fd >= 0) {
      py::gil_scoped_release release;
      GPUARR_CUDA_CHECK(cudaEventSynchronize(area.released[b]));
      pwrite_parallel(fd, file_offset + static_cast<int64_t>(off), buf, static_cast<int64_t>(len));
    } else {
      wait_event(area.released[b]);
      drain_to(write, buf, static_cast<int64_t>(len));
    }
    if (i + nbuf < nchunks) enqueue(i + nbuf);
  }
  return nbytes;
}

py::dict parse_header_py(py::bytes text, int major, int64_t max_header_size) {
  npy::Version v;
  v.major = major;
  const npy::Header h = npy::parse_header(std::string(text), v, max_header_size);
  py::dict d;
  d["descr_repr"] = h.descr_repr;
  if (h.dtype) {
    d["dtype"] = numpy_dtype(*h.dtype);
  } else {
    d["dtype"] = py::none();
  }
  d["byteswap"] = h.byteswap;
  d["is_object"] = h.is_object;
  d["fortran_order"] = h.fortran_order;
  d["shape"] = dims_to_tuple(h.shape);
  return d;
}

}  // namespace

GPUARR_BINDINGS(150) {
  m.def(
      "_npy_format_header",
      [](py::handle dtype, bool fortran_order, py::handle shape) {
        return py::bytes(npy::format_header(dtype_from_py(dtype), fortran_order, shape_from_py(shape)));
      },
      py::arg("dtype"), py::arg("fortran_order"), py::arg("shape"));
  m.def(
      "_npy_parse_magic",
      [](py::bytes b) {
        const npy::Version v = npy::parse_magic(std::string(b));
        return py::make_tuple(v.major, v.minor);
      },
      py::arg("magic"));
  m.def(
      "_npy_header_length",
      [](py::bytes b, int major) {
        npy::Version v;
        v.major = major;
        return npy::parse_header_length(std::string(b), v);
      },
      py::arg("field"), py::arg("major"));
  m.def("_npy_length_field_size", [](int major) {
    npy::Version v;
    v.major = major;
    return npy::length_field_size(v);
  });
  m.def("_npy_parse_header", &parse_header_py, py::arg("text"), py::arg("major") = 1,
        py::arg("max_header_size") = npy::kMaxHeaderSize);
  m.def("_npy_read_array", &read_array, py::arg("readinto"), py::arg("shape"), py::arg("dtype"),
        py::arg("fortran_order") = false, py::arg("byteswap") = false, py::arg("fd") = -1,
        py::arg("file_offset") = 0);
  m.def(
      "_npy_write_array",
      [](py::object write, py::handle arr, const std::string& order, int fd,
         int64_t file_offset) {
        if (!is_gpuarr_array(arr)) throw TypeError("expected a gpuarr.ndarray");
        if (order != "C" && order != "F") throw ValueError("order must be 'C' or 'F'");
        return write_array(std::move(write), arr, order[0], fd, file_offset);
      },
      py::arg("write"), py::arg("array"), py::arg("order") = "C", py::arg("fd") = -1,
      py::arg("file_offset") = 0);
}

}  // namespace gpuarr::bind
