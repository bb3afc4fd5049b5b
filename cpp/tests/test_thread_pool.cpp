#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "runtime/thread_pool.hpp"

using namespace gpuarr;

TEST(ThreadPool, ParallelForRunsEveryTaskOnce) {
  std::vector<int> hits(1000, 0);
  parallel_for(1000, [&](int i) { hits[i] += 1; });
  for (int h : hits) EXPECT_EQ(h, 1);
}

TEST(ThreadPool, ParallelMemcpyCopiesEveryByteAtAnyAlignment) {
  // Sizes around the split points (1 MiB per part, 2 MiB / 4 KiB alignment of the
  // destination) and destinations at odd offsets.
  for (size_t n : {size_t(1) << 20, (size_t(4) << 20) + 1, (size_t(33) << 20) + 7,
                   (size_t(32) << 20) - 3}) {
    for (size_t dst_offset : {0, 16, 4095}) {
      std::vector<uint8_t> src(n), dst(n + dst_offset + 1, 0xAB);
      for (size_t i = 0; i < n; ++i) src[i] = static_cast<uint8_t>((i * 2654435761u) >> 24);
      parallel_memcpy(dst.data() + dst_offset, src.data(), n);
      ASSERT_TRUE(std::equal(src.begin(), src.end(), dst.begin() + dst_offset))
          << "n=" << n << " offset=" << dst_offset;
      EXPECT_EQ(dst[n + dst_offset], 0xAB) << "wrote past the end";
      if (dst_offset) EXPECT_EQ(dst[dst_offset - 1], 0xAB) << "wrote before the start";
    }
  }
}
