// .npy I/O seen from Python: header parsing/writing (core/npy_header) and the data path
// (ops/array_file_io over the runtime's staging pipeline). Here Python file objects become
// the data path's file ends: readinto/write called with the GIL, which the data path
// otherwise runs without; regular files are read and written through their descriptor.
#include <pybind11/stl.h>

#include <string>
#include <utility>

#include "bindings/dtype_convert.hpp"
#include "bindings/py_array.hpp"
#include "bindings/registry.hpp"
#include "core/errors.hpp"
#include "core/npy_header.hpp"
#include "ops/array_file_io.hpp"

namespace gpuarr::bind {
namespace {

// Fills [ptr, ptr+len) by calling readinto until full or end of file; returns bytes read.
int64_t fill_from(py::handle readinto, char* ptr, int64_t len) {
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

// Writes [ptr, ptr+len) with write(), retrying partial writes of raw files.
void drain_to(py::handle write, const char* ptr, int64_t len) {
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

// A new device array of `shape` filled with the file's next bytes, read by readinto, or
// with fd >= 0 from that file at file_offset (the caller moves the file position past them).
py::object read_array(py::object readinto, py::handle shape_obj, py::handle dtype_obj,
                      bool fortran_order, bool byteswap, int fd, int64_t file_offset) {
  const Dims shape = shape_from_py(shape_obj);
  const DType t = dtype_from_py(dtype_obj);
  const ReadAt read = fd >= 0 ? descriptor_reader(fd, file_offset)
                              : ReadAt([f = readinto.ptr()](int64_t, char* buf, int64_t len) {
                                  py::gil_scoped_acquire gil;
                                  return fill_from(f, buf, len);
                                });
  NDArray a;
  {
    py::gil_scoped_release release;
    a = read_array_data(shape, t, fortran_order, byteswap, read);
  }
  return make_owner(std::move(a));
}

// Writes the array's elements in `order` ('C' or 'F') through write(), or with fd >= 0
// into that file at file_offset (the caller moves the file position); returns the bytes.
int64_t write_array(py::object write, py::handle arr, char order, int fd, int64_t file_offset) {
  const NDArray a = as_array(arr).a;
  const WriteAt to = fd >= 0 ? descriptor_writer(fd, file_offset)
                             : WriteAt([f = write.ptr()](int64_t, const char* buf, int64_t len) {
                                 py::gil_scoped_acquire gil;
                                 drain_to(f, buf, len);
                               });
  py::gil_scoped_release release;
  return write_array_data(a, order, to);
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
