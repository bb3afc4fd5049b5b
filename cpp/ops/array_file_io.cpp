#include "ops/array_file_io.hpp"

#include <algorithm>
#include <vector>

#include "core/errors.hpp"
#include "core/file_io.hpp"
#include "core/npy_header.hpp"
#include "ops/array_ops.hpp"
#include "runtime/device.hpp"
#include "runtime/thread_pool.hpp"
#include "runtime/transfer.hpp"

namespace gpuarr {
namespace {

// Arrays up to this size move through one pageable buffer (no staging, no events).
constexpr int64_t kSmallBytes = 1 << 20;

const ParallelFor& transfer_pool() {
  static const ParallelFor run = [](int n, const std::function<void(int)>& task) {
    parallel_for(n, task);
  };
  return run;
}

// The byte-swap unit of a dtype: its size, or each half's for complex values.
int swap_unit(DType t) {
  const int64_t isz = itemsize(t);
  return static_cast<int>(is_complex(t) ? isz / 2 : isz);
}

}  // namespace

ReadAt descriptor_reader(int fd, int64_t base) {
  return [fd, base](int64_t offset, char* buf, int64_t len) {
    return positional_io(fd, base + offset, buf, len, false, transfer_threads(), transfer_pool());
  };
}

WriteAt descriptor_writer(int fd, int64_t base) {
  return [fd, base](int64_t offset, const char* buf, int64_t len) {
    positional_io(fd, base + offset, const_cast<char*>(buf), len, true, transfer_threads(),
                  transfer_pool());
  };
}

NDArray read_array_data(const Dims& shape, DType dtype, bool fortran_order, bool byteswap,
                        const ReadAt& read) {
  NDArray a = empty_array(shape, dtype, fortran_order ? 'F' : 'C');
  const int64_t nbytes = a.nbytes();
  const int64_t isz = a.itemsize();
  const int unit = swap_unit(dtype);
  const bool swap = byteswap && unit > 1;
  if (nbytes == 0) return a;
  if (nbytes <= kSmallBytes) {
    std::vector<char> buf(static_cast<size_t>(nbytes));
    const int64_t got = read(0, buf.data(), nbytes);
    if (got < nbytes) throw ValueError(npy::truncated_data_message(shape, a.size(), got / isz));
    if (swap) npy::byteswap_inplace(buf.data(), nbytes, unit);
    upload_contiguous(a, buf.data(), false);
    return a;
  }
  DeviceGuard guard(a.device());
  // Chunks split the data at element boundaries (transfer.hpp), so each swaps on its own.
  staged_upload(a.data(), static_cast<size_t>(nbytes), stream_for(a),
                [&](char* buf, size_t off, size_t len) {
                  const int64_t o = static_cast<int64_t>(off), n = static_cast<int64_t>(len);
                  const int64_t got = read(o, buf, n);
                  if (got < n) {
                    throw ValueError(
                        npy::truncated_data_message(shape, a.size(), (o + got) / isz));
                  }
                  if (swap) byteswap_split(buf, n, unit, transfer_threads(), transfer_pool());
                });
  // No wait: the array's data is ordered on its stream.
  return a;
}

int64_t write_array_data(const NDArray& a_in, char order, const WriteAt& write) {
  DeviceGuard guard(a_in.device());
  NDArray a = a_in;
  const bool ok = order == 'F' ? a.f_contiguous() : a.c_contiguous();
  if (!ok) a = copy_array(a_in, a_in.dtype, order);
  const int64_t nbytes = a.nbytes();
  if (nbytes == 0) return 0;
  if (nbytes <= kSmallBytes) {
    std::vector<char> buf(static_cast<size_t>(nbytes));
    download_contiguous(buf.data(), a, false);
    write(0, buf.data(), nbytes);
    return nbytes;
  }
  staged_download(a.data(), static_cast<size_t>(nbytes), stream_for(a),
                  [&](const char* buf, size_t off, size_t len) {
                    write(static_cast<int64_t>(off), buf, static_cast<int64_t>(len));
                  });
  return nbytes;
}

}  // namespace gpuarr
