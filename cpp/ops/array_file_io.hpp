// Array data between files and device memory (the .npy data path). Small arrays move
// through one host buffer; large ones through the runtime's staging pipeline
// (runtime/transfer): the file is read into one pinned buffer while the copy engine moves
// the previous one to the device, and written from one while the next arrives. The file
// end is a function, so that callers can read and write descriptors (parallel pread and
// pwrite) or other file objects alike.
#pragma once
#include <cstdint>
#include <functional>

#include "ops/ndarray.hpp"

namespace gpuarr {

// Reads len bytes at `offset` from the start of the array's data into buf and returns the
// bytes read, fewer only at the end of the file. Calls come in file order, each one
// continuing the previous (a sequential stream may ignore the offset).
using ReadAt = std::function<int64_t(int64_t offset, char* buf, int64_t len)>;
// Writes len bytes at `offset`, in file order as above.
using WriteAt = std::function<void(int64_t offset, const char* buf, int64_t len)>;

// pread / pwrite on a regular file from byte `base` on, split over the transfer threads
// (core/file_io's positional_io; its ValueError on a failed call).
ReadAt descriptor_reader(int fd, int64_t base);
WriteAt descriptor_writer(int fd, int64_t base);

// A new array of `shape` in C (or Fortran) order filled from `read`, each element's bytes
// reversed when `byteswap`. NumPy's ValueError when the file ends first. Call without the
// GIL (staging waits for the device and may hold the staging pool).
NDArray read_array_data(const Dims& shape, DType dtype, bool fortran_order, bool byteswap,
                        const ReadAt& read);

// Writes a's elements in `order` ('C' or 'F') through `write` and returns the bytes
// written. Call without the GIL.
int64_t write_array_data(const NDArray& a, char order, const WriteAt& write);

}  // namespace gpuarr
