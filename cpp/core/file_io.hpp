// Positional file reads/writes split over threads (the .npy data path: one thread cannot
// copy between the page cache and memory at the copy engine's speed). Plain POSIX; the
// caller supplies the thread runner (the transfer pool, in ops/array_file_io).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace gpuarr {

// run(n, task) runs task(0) ... task(n - 1) and returns when all are done.
using ParallelFor = std::function<void(int, const std::function<void(int)>&)>;

// Reads (write = false) or writes bytes [file_off, file_off + len) of `fd` from/into `buf`
// with pread/pwrite in up to `threads` page-aligned pieces of at least 2 MiB. Returns the
// bytes moved: all of them, or fewer when a read meets the end of the file (counting the
// leading pieces that were read completely). Throws ValueError naming errno's text.
int64_t positional_io(int fd, int64_t file_off, char* buf, int64_t len, bool write, int threads,
                      const ParallelFor& run);

// Reverses the byte order of each `unit`-byte value, split over up to `threads` tasks.
void byteswap_split(char* buf, int64_t len, int unit, int threads, const ParallelFor& run);

// Appends the whole contents of the file at `path` to `out`; false when it cannot be opened
// or read (what was read before an error stays appended).
bool append_file_contents(const std::string& path, std::string& out);

}  // namespace gpuarr
