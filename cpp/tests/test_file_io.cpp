#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "core/file_io.hpp"

using namespace gpuarr;

namespace {

// Runs the tasks on their own threads, as the transfer pool does.
const ParallelFor kThreads = [](int n, const std::function<void(int)>& task) {
  std::vector<std::thread> ts;
  for (int i = 0; i < n; ++i) ts.emplace_back(task, i);
  for (auto& t : ts) t.join();
};

struct TempFile {
  std::string path;
  int fd = -1;
  TempFile() {
    char name[] = "/tmp/gpuarr_file_io_XXXXXX";
    fd = mkstemp(name);
    path = name;
  }
  ~TempFile() {
    close(fd);
    unlink(path.c_str());
  }
};

std::vector<char> pattern(int64_t n) {
  std::vector<char> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<char>((i * 7 + i / 4099) & 0xFF);
  return v;
}

}  // namespace

TEST(FileIO, WriteThenReadInPiecesAtOffsets) {
  TempFile f;
  ASSERT_GE(f.fd, 0);
  const int64_t n = (9 << 20) + 12345;  // several 2 MiB pieces and a ragged end
  const auto data = pattern(n);
  const int64_t off = 128;
  EXPECT_EQ(positional_io(f.fd, off, const_cast<char*>(data.data()), n, true, 8, kThreads), n);
  std::vector<char> back(static_cast<size_t>(n), 0);
  EXPECT_EQ(positional_io(f.fd, off, back.data(), n, false, 8, kThreads), n);
  EXPECT_EQ(back, data);
  // One thread, an offset inside the data.
  std::vector<char> part(1000);
  EXPECT_EQ(positional_io(f.fd, off + 5000, part.data(), 1000, false, 1, kThreads), 1000);
  EXPECT_TRUE(std::equal(part.begin(), part.end(), data.begin() + 5000));
}

TEST(FileIO, ShortReadAtEndOfFile) {
  TempFile f;
  const int64_t n = 5 << 20;
  const auto data = pattern(n);
  ASSERT_EQ(positional_io(f.fd, 0, const_cast<char*>(data.data()), n, true, 4, kThreads), n);
  std::vector<char> back(static_cast<size_t>(8 << 20));
  // Reading 8 MiB from a 5 MiB file: the pieces up to the end, then nothing.
  EXPECT_EQ(positional_io(f.fd, 0, back.data(), 8 << 20, false, 4, kThreads), n);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), back.begin()));
  EXPECT_EQ(positional_io(f.fd, n + 10, back.data(), 100, false, 4, kThreads), 0);
}

TEST(FileIO, ErrorsAreValueErrors) {
  std::vector<char> buf(16);
  EXPECT_THROW(positional_io(-1, 0, buf.data(), 16, false, 1, kThreads), ValueError);
  TempFile f;
  EXPECT_EQ(positional_io(f.fd, 0, buf.data(), 0, false, 1, kThreads), 0);
}

TEST(FileIO, ByteswapSplitMatchesSerial) {
  for (int unit : {2, 4, 8}) {
    const int64_t n = (3 << 20) + 8 * 17;
    auto a = pattern(n);
    auto b = a;
    byteswap_split(a.data(), n, unit, 8, kThreads);
    for (int64_t i = 0; i < n; i += unit) {
      for (int k = 0; k < unit; ++k) {
        ASSERT_EQ(a[static_cast<size_t>(i + k)], b[static_cast<size_t>(i + unit - 1 - k)]);
      }
    }
  }
}

TEST(FileIO, AppendFileContents) {
  TempFile f;
  const int64_t n = (1 << 17) + 3;  // more than one read buffer
  const auto data = pattern(n);
  ASSERT_EQ(positional_io(f.fd, 0, const_cast<char*>(data.data()), n, true, 1, kThreads), n);
  std::string out = "head";
  EXPECT_TRUE(append_file_contents(f.path, out));
  ASSERT_EQ(out.size(), static_cast<size_t>(n) + 4);
  EXPECT_EQ(out.compare(0, 4, "head"), 0);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), out.begin() + 4));
  std::string none = "x";
  EXPECT_FALSE(append_file_contents(f.path + ".missing", none));
  EXPECT_EQ(none, "x");
}
