#include <gtest/gtest.h>

#include <vector>

#include "core/conv_plan.hpp"
#include "core/errors.hpp"

using namespace gpuarr;

TEST(ConvPlan, ParseModesAndBoundaries) {
  EXPECT_EQ(parse_conv_mode("valid"), ConvMode::Valid);
  EXPECT_EQ(parse_conv_mode("same"), ConvMode::Same);
  EXPECT_EQ(parse_conv_mode("full"), ConvMode::Full);
  EXPECT_THROW(parse_conv_mode("Full"), ValueError);
  EXPECT_THROW(parse_numpy_conv_mode("v"), ValueError);
  try {
    parse_conv_mode("x");
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "Acceptable mode flags are 'valid', 'same', or 'full'.");
  }
  EXPECT_EQ(parse_conv_boundary("fill"), ConvBoundary::Fill);
  EXPECT_EQ(parse_conv_boundary("pad"), ConvBoundary::Fill);
  EXPECT_EQ(parse_conv_boundary("symmetric"), ConvBoundary::Symm);
  EXPECT_EQ(parse_conv_boundary("circular"), ConvBoundary::Wrap);
  EXPECT_THROW(parse_conv_boundary("reflect"), ValueError);
}

TEST(ConvPlan, AxisPlans) {
  // full: n + k - 1 outputs, the filter hangs k - 1 before the first input.
  EXPECT_EQ(conv_axis_plan(10, 3, ConvMode::Full, SamePad::HalfUp).out_len, 12);
  EXPECT_EQ(conv_axis_plan(10, 3, ConvMode::Full, SamePad::HalfUp).pad, 2);
  // same: n outputs; k // 2 (convolve) or (k - 1) // 2 (correlate2d) for even k.
  EXPECT_EQ(conv_axis_plan(10, 4, ConvMode::Same, SamePad::HalfUp).pad, 2);
  EXPECT_EQ(conv_axis_plan(10, 4, ConvMode::Same, SamePad::HalfDown).pad, 1);
  EXPECT_EQ(conv_axis_plan(10, 5, ConvMode::Same, SamePad::HalfDown).pad, 2);
  EXPECT_EQ(conv_axis_plan(3, 6, ConvMode::Same, SamePad::HalfUp).out_len, 3);
  // valid: n - k + 1, empty when the filter is longer.
  EXPECT_EQ(conv_axis_plan(10, 4, ConvMode::Valid, SamePad::HalfUp).out_len, 7);
  EXPECT_EQ(conv_axis_plan(10, 4, ConvMode::Valid, SamePad::HalfUp).pad, 0);
  EXPECT_EQ(conv_axis_plan(3, 5, ConvMode::Valid, SamePad::HalfUp).out_len, 3);
  EXPECT_EQ(conv_axis_plan(3, 5, ConvMode::Valid, SamePad::HalfUp).pad, 2);
  EXPECT_EQ(conv_axis_plan(0, 5, ConvMode::Valid, SamePad::HalfUp).out_len, 0);
}

TEST(ConvPlan, BoundaryIndex) {
  const int64_t n = 4;
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(conv_boundary_index(i, n, ConvBoundary::Fill), i);
    EXPECT_EQ(conv_boundary_index(i, n, ConvBoundary::Wrap), i);
    EXPECT_EQ(conv_boundary_index(i, n, ConvBoundary::Symm), i);
  }
  EXPECT_EQ(conv_boundary_index(-1, n, ConvBoundary::Fill), -1);
  EXPECT_EQ(conv_boundary_index(4, n, ConvBoundary::Fill), -1);
  EXPECT_EQ(conv_boundary_index(-1, n, ConvBoundary::Wrap), 3);
  EXPECT_EQ(conv_boundary_index(-9, n, ConvBoundary::Wrap), 3);
  EXPECT_EQ(conv_boundary_index(9, n, ConvBoundary::Wrap), 1);
  // symmetric: ... 1 0 | 0 1 2 3 | 3 2 1 0 | 0 1 ...
  const std::vector<int64_t> left{0, 1, 2, 3, 3, 2, 1, 0, 0};  // i = -1, -2, ...
  for (int64_t j = 0; j < int64_t(left.size()); ++j) {
    EXPECT_EQ(conv_boundary_index(-1 - j, n, ConvBoundary::Symm), left[j]) << j;
  }
  const std::vector<int64_t> right{3, 2, 1, 0, 0, 1};  // i = 4, 5, ...
  for (int64_t j = 0; j < int64_t(right.size()); ++j) {
    EXPECT_EQ(conv_boundary_index(n + j, n, ConvBoundary::Symm), right[j]) << j;
  }
  EXPECT_EQ(conv_boundary_index(-1, 1, ConvBoundary::Symm), 0);
  EXPECT_EQ(conv_boundary_index(5, 1, ConvBoundary::Wrap), 0);
}
