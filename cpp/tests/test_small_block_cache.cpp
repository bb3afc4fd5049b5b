#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "core/small_block_cache.hpp"

using namespace gpuarr;
using C = SmallBlockCache;

TEST(SmallBlockCache, SizeClassesAreMinimalCoveringAndMonotonic) {
  EXPECT_EQ(C::size_class(1), 0);
  EXPECT_EQ(C::size_class(256), 0);
  EXPECT_EQ(C::class_bytes(0), 256u);
  EXPECT_EQ(C::size_class(257), 1);
  EXPECT_EQ(C::class_bytes(1), 320u);
  EXPECT_EQ(C::class_bytes(C::size_class(512)), 512u);
  EXPECT_EQ(C::class_bytes(C::size_class(513)), 640u);
  EXPECT_EQ(C::size_class(C::kMaxBlockBytes), C::kNumClasses - 1);
  EXPECT_EQ(C::class_bytes(C::kNumClasses - 1), C::kMaxBlockBytes);
  int prev = 0;
  for (size_t n = 1; n <= C::kMaxBlockBytes; n += (n < 5000 ? 1 : 997)) {
    const int c = C::size_class(n);
    ASSERT_GE(c, 0);
    ASSERT_LT(c, C::kNumClasses);
    ASSERT_GE(C::class_bytes(c), n) << n;
    if (c > 0) ASSERT_LT(C::class_bytes(c - 1), n) << n;  // the smallest class that fits
    ASSERT_LE(C::class_bytes(c), n < 256 ? 256 : n + n / 4 + 1) << n;  // padding <= 25 %
    ASSERT_GE(c, prev);
    prev = c;
  }
  for (int c = 0; c < C::kNumClasses; ++c) {
    EXPECT_EQ(C::size_class(C::class_bytes(c)), c);
    EXPECT_EQ(C::class_bytes(c) % 64, 0u);
  }
}

TEST(SmallBlockCache, ReusesOnlyOnTheSameStreamAndClass) {
  C cache;
  int a, b, c;
  EXPECT_EQ(cache.pop(1, 3), nullptr);
  EXPECT_TRUE(cache.push(1, 3, &a));
  EXPECT_TRUE(cache.push(2, 3, &b));
  EXPECT_TRUE(cache.push(1, 4, &c));
  EXPECT_EQ(cache.cached_blocks(), 3u);
  EXPECT_EQ(cache.cached_bytes(), 2 * C::class_bytes(3) + C::class_bytes(4));
  EXPECT_EQ(cache.pop(1, 5), nullptr);
  EXPECT_EQ(cache.pop(3, 3), nullptr);
  EXPECT_EQ(cache.pop(1, 3), &a);
  EXPECT_EQ(cache.pop(1, 3), nullptr);  // b was freed on stream 2: never handed to stream 1
  EXPECT_EQ(cache.pop(2, 3), &b);
  EXPECT_EQ(cache.pop(1, 4), &c);
  EXPECT_EQ(cache.cached_blocks(), 0u);
  EXPECT_EQ(cache.cached_bytes(), 0u);
}

TEST(SmallBlockCache, LastFreedIsReusedFirst) {
  C cache;
  int a, b;
  cache.push(0, 0, &a);
  cache.push(0, 0, &b);
  EXPECT_EQ(cache.pop(0, 0), &b);
  EXPECT_EQ(cache.pop(0, 0), &a);
}

TEST(SmallBlockCache, BoundsPerClassAndTotal) {
  C per_class(size_t(1) << 30, 2);
  int x[3];
  EXPECT_TRUE(per_class.push(7, 0, &x[0]));
  EXPECT_TRUE(per_class.push(7, 0, &x[1]));
  EXPECT_FALSE(per_class.push(7, 0, &x[2]));
  EXPECT_TRUE(per_class.push(8, 0, &x[2]));  // the bound is per stream and class
  C total(3 * 256, 100);
  EXPECT_TRUE(total.push(0, 0, &x[0]));
  EXPECT_TRUE(total.push(1, 0, &x[1]));
  EXPECT_FALSE(total.push(0, 1, &x[2]));  // 256 + 256 + 320 > 768
  EXPECT_TRUE(total.push(0, 0, &x[2]));
  EXPECT_EQ(total.cached_bytes(), 768u);
  EXPECT_FALSE(total.push(2, 0, &x[2]));
}

TEST(SmallBlockCache, TakeStreamAndTakeAll) {
  C cache;
  int x[5];
  cache.push(1, 0, &x[0]);
  cache.push(1, 10, &x[1]);
  cache.push(2, 0, &x[2]);
  cache.push(3, 48, &x[3]);
  cache.push(3, 48, &x[4]);
  auto s1 = cache.take_stream(1);
  EXPECT_EQ(std::set<void*>(s1.begin(), s1.end()), (std::set<void*>{&x[0], &x[1]}));
  EXPECT_EQ(cache.pop(1, 0), nullptr);
  EXPECT_TRUE(cache.take_stream(1).empty());
  EXPECT_EQ(cache.cached_blocks(), 3u);
  EXPECT_EQ(cache.cached_bytes(), 256 + 2 * C::kMaxBlockBytes);
  auto all = cache.take_all();
  EXPECT_EQ(all.size(), 3u);
  std::set<std::pair<uintptr_t, void*>> got(all.begin(), all.end());
  EXPECT_TRUE(got.count({2, &x[2]}));
  EXPECT_TRUE(got.count({3, &x[3]}));
  EXPECT_TRUE(got.count({3, &x[4]}));
  EXPECT_EQ(cache.cached_blocks(), 0u);
  EXPECT_EQ(cache.cached_bytes(), 0u);
  EXPECT_TRUE(cache.push(2, 0, &x[0]));  // usable after a flush
  EXPECT_EQ(cache.pop(2, 0), &x[0]);
}
