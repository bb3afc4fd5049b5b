#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/errors.hpp"
#include "core/sorting.hpp"

using namespace gpuarr;

namespace {
uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t dbits(double f) {
  uint64_t u;
  std::memcpy(&u, &f, 8);
  return u;
}
}  // namespace

TEST(SortKey, FloatOrderMatchesNumPy) {
  const float inf = std::numeric_limits<float>::infinity();
  // Increasing in NumPy's order (NaN last).
  std::vector<float> v = {-inf, -3.5f, -1e-45f, 0.0f, 1e-45f, 2.0f, inf};
  for (bool canon : {true, false})
    for (size_t i = 0; i + 1 < v.size(); ++i)
      EXPECT_LT(sortkey::float_key<uint32_t>(fbits(v[i]), canon),
                sortkey::float_key<uint32_t>(fbits(v[i + 1]), canon));
  const uint32_t nan_pos = 0x7FC00001u, nan_neg = 0xFFC00003u, snan = 0x7F800001u;
  for (uint32_t n : {nan_pos, nan_neg, snan}) {
    EXPECT_GT(sortkey::float_key<uint32_t>(n, true), sortkey::float_key<uint32_t>(fbits(inf), true));
    EXPECT_GT(sortkey::float_key<uint32_t>(n, false), sortkey::float_key<uint32_t>(fbits(inf), false));
    EXPECT_EQ(sortkey::float_key<uint32_t>(n, true), 0xFFFFFFFFu);
  }
  // -0.0 and +0.0 equal when canonical, -0.0 first otherwise.
  EXPECT_EQ(sortkey::float_key<uint32_t>(fbits(-0.0f), true), sortkey::float_key<uint32_t>(fbits(0.0f), true));
  EXPECT_LT(sortkey::float_key<uint32_t>(fbits(-0.0f), false), sortkey::float_key<uint32_t>(fbits(0.0f), false));
  EXPECT_LT(sortkey::float_key<uint32_t>(fbits(-1e-45f), true), sortkey::float_key<uint32_t>(fbits(-0.0f), true));
}

TEST(SortKey, InvertibleWhenNotCanonical) {
  for (double d : {-1.5, -0.0, 0.0, 3.25, -1e300, 5e-324}) {
    const uint64_t b = dbits(d);
    EXPECT_EQ(sortkey::float_from_key<uint64_t>(sortkey::float_key<uint64_t>(b, false)), b);
  }
  const uint16_t h = 0x3C00;  // 1.0 in float16
  EXPECT_EQ(sortkey::float_from_key<uint16_t>(sortkey::float_key<uint16_t>(h, false)), h);
  // A NaN keeps its payload, loses its sign.
  const uint32_t nan_neg = 0xFFC00003u;
  EXPECT_EQ(sortkey::float_from_key<uint32_t>(sortkey::float_key<uint32_t>(nan_neg, false)), 0x7FC00003u);
}

TEST(SortKey, HalfOrder) {
  // -inf, -2, -0, +0, 1, +inf, NaN as float16 bits.
  std::vector<uint16_t> v = {0xFC00, 0xC000, 0x8000, 0x0000, 0x3C00, 0x7C00, 0x7E00};
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    if (i == 2) {
      EXPECT_EQ(sortkey::float_key<uint16_t>(v[i], true), sortkey::float_key<uint16_t>(v[i + 1], true));
      continue;
    }
    EXPECT_LT(sortkey::float_key<uint16_t>(v[i], true), sortkey::float_key<uint16_t>(v[i + 1], true));
  }
}

TEST(SortKey, SignedKeys) {
  std::vector<int32_t> v = {std::numeric_limits<int32_t>::min(), -5, -1, 0, 1, 7,
                            std::numeric_limits<int32_t>::max()};
  for (size_t i = 0; i + 1 < v.size(); ++i)
    EXPECT_LT(sortkey::signed_key<uint32_t>(uint32_t(v[i])), sortkey::signed_key<uint32_t>(uint32_t(v[i + 1])));
  EXPECT_EQ(sortkey::signed_key<uint32_t>(sortkey::signed_key<uint32_t>(12345u)), 12345u);
}

TEST(Histogram, EdgesBin) {
  const double e[] = {0.0, 1.0, 2.0, 2.0, 4.0};
  EXPECT_EQ(histogram_edges_bin(-0.1, e, 4), -1);
  EXPECT_EQ(histogram_edges_bin(0.0, e, 4), 0);
  EXPECT_EQ(histogram_edges_bin(0.999, e, 4), 0);
  EXPECT_EQ(histogram_edges_bin(1.0, e, 4), 1);
  EXPECT_EQ(histogram_edges_bin(2.0, e, 4), 3);  // the empty bin [2, 2) is skipped
  EXPECT_EQ(histogram_edges_bin(4.0, e, 4), 3);  // right-closed last bin
  EXPECT_EQ(histogram_edges_bin(4.1, e, 4), -1);
  EXPECT_EQ(histogram_edges_bin(std::nan(""), e, 4), -1);
}

TEST(Histogram, UniformBinMatchesEdges) {
  // 10 bins over [0, 1]: edges as linspace; compare the fast path with the edges path.
  std::vector<double> e(11);
  for (int i = 0; i <= 10; ++i) e[i] = i * 0.1;
  e[10] = 1.0;
  const double norm = 10 / (1.0 - 0.0);
  for (int k = -5; k <= 1005; ++k) {
    const double x = k / 1000.0;
    EXPECT_EQ(histogram_uniform_bin(x, 0.0, 1.0, norm, e.data(), 10),
              histogram_edges_bin(x, e.data(), 10))
        << x;
  }
  for (int i = 0; i <= 10; ++i)
    EXPECT_EQ(histogram_uniform_bin(e[i], 0.0, 1.0, norm, e.data(), 10), i == 10 ? 9 : i);
}

TEST(SortingHost, Permutations) {
  EXPECT_EQ(axis_last_permutation(3, 0), (Dims{1, 2, 0}));
  EXPECT_EQ(axis_last_permutation(3, 2), (Dims{0, 1, 2}));
  EXPECT_EQ(inverse_permutation(Dims{1, 2, 0}), (Dims{2, 0, 1}));
}

TEST(SortingHost, Kth) {
  EXPECT_EQ(normalize_kth(2, 5), 2);
  EXPECT_EQ(normalize_kth(-1, 5), 4);
  try {
    normalize_kth(5, 5);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "kth(=5) out of bounds (5)");
  }
  try {
    normalize_kth(-6, 5);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "kth(=-1) out of bounds (5)");
  }
}
