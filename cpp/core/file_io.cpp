#include "core/file_io.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/npy_header.hpp"

namespace gpuarr {

int64_t positional_io(int fd, int64_t file_off, char* buf, int64_t len, bool write, int threads,
                      const ParallelFor& run) {
  if (len <= 0) return 0;
  constexpr int64_t kMinPiece = 2 << 20;
  const int nt = static_cast<int>(std::max<int64_t>(
      1, std::min<int64_t>(std::max(threads, 1), (len + kMinPiece - 1) / kMinPiece)));
  int64_t piece = (len + nt - 1) / nt;
  piece = (piece + 4095) / 4096 * 4096;
  std::vector<int64_t> moved(static_cast<size_t>(nt), 0);
  std::vector<int> err(static_cast<size_t>(nt), 0);
  auto task = [&](int t) {
    const int64_t start = std::min(len, t * piece);
    const int64_t end = std::min(len, start + piece);
    int64_t done = 0;
    while (start + done < end) {
      char* p = buf + start + done;
      const size_t n = static_cast<size_t>(end - start - done);
      const off_t at = static_cast<off_t>(file_off + start + done);
      const ssize_t r = write ? ::pwrite(fd, p, n, at) : ::pread(fd, p, n, at);
      if (r < 0) {
        if (errno == EINTR) continue;
        err[static_cast<size_t>(t)] = errno;
        break;
      }
      if (r == 0) {
        if (write) err[static_cast<size_t>(t)] = EIO;
        break;
      }
      done += r;
    }
    moved[static_cast<size_t>(t)] = done;
  };
  if (nt == 1) {
    task(0);
  } else {
    run(nt, task);
  }
  for (int e : err) {
    if (e) {
      throw ValueError(std::string(write ? "writing" : "reading") + " the file failed: " +
                       std::strerror(e));
    }
  }
  int64_t total = 0;
  for (int t = 0; t < nt; ++t) {
    const int64_t start = std::min(len, t * piece);
    const int64_t want = std::min(len, start + piece) - start;
    total += moved[static_cast<size_t>(t)];
    if (moved[static_cast<size_t>(t)] < want) break;
  }
  return total;
}

void byteswap_split(char* buf, int64_t len, int unit, int threads, const ParallelFor& run) {
  if (unit <= 1 || len <= 0) return;
  const int64_t n = len / unit;
  const int nt = static_cast<int>(
      std::max<int64_t>(1, std::min<int64_t>(std::max(threads, 1), n >> 18)));
  const int64_t per = (n + nt - 1) / nt;
  auto task = [&](int t) {
    const int64_t s = std::min(n, t * per), e = std::min(n, s + per);
    if (s < e) npy::byteswap_inplace(buf + s * unit, (e - s) * unit, unit);
  };
  if (nt == 1) {
    task(0);
  } else {
    run(nt, task);
  }
}

bool append_file_contents(const std::string& path, std::string& out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, got);
  const bool ok = !std::ferror(f);
  std::fclose(f);
  return ok;
}

}  // namespace gpuarr
