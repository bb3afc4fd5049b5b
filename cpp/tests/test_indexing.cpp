#include <gtest/gtest.h>

#include <climits>

#include "core/errors.hpp"
#include "core/indexing.hpp"

using namespace gpuarr;

namespace {
// PySlice_Unpack's sentinels for None.
constexpr int64_t kNoneLo = LLONG_MIN, kNoneHi = LLONG_MAX;
}

TEST(Indexing, AdjustSliceMatchesPython) {
  int64_t b = 1, e = 10, n;
  n = adjust_slice(5, b, e, 1);  // [1:10] of 5
  EXPECT_EQ(n, 4);
  EXPECT_EQ(b, 1);
  b = kNoneHi, e = kNoneLo;  // [::-1]
  n = adjust_slice(5, b, e, -1);
  EXPECT_EQ(n, 5);
  EXPECT_EQ(b, 4);
  b = -2, e = kNoneHi;  // [-2:]
  n = adjust_slice(5, b, e, 1);
  EXPECT_EQ(n, 2);
  EXPECT_EQ(b, 3);
  b = 0, e = kNoneHi;  // [::2] of 5 -> 0, 2, 4
  EXPECT_EQ(adjust_slice(5, b, e, 2), 3);
  b = 3, e = 1;
  EXPECT_EQ(adjust_slice(5, b, e, 1), 0);
  b = 0, e = kNoneHi;
  EXPECT_EQ(adjust_slice(0, b, e, 1), 0);
}

TEST(Indexing, BasicIndexOfMatrix) {
  // x[1:10, ::2] on a (20, 8) float64 C array
  Dims shape{20, 8}, strides{64, 8};
  int64_t offset = 0;
  apply_basic_index(shape, strides, offset,
                    {IndexItem::slice(1, 10, 1), IndexItem::slice(0, kNoneHi, 2)});
  EXPECT_EQ(shape, (Dims{9, 4}));
  EXPECT_EQ(strides, (Dims{64, 16}));
  EXPECT_EQ(offset, 64);
}

TEST(Indexing, IntegersNewaxisEllipsis) {
  Dims shape{2, 3, 4}, strides{96, 32, 8};
  int64_t offset = 0;
  apply_basic_index(shape, strides, offset,
                    {IndexItem::integer(-1), IndexItem::ellipsis(), IndexItem::newaxis(),
                     IndexItem::integer(2)});
  EXPECT_EQ(shape, (Dims{3, 1}));
  EXPECT_EQ(strides, (Dims{32, 0}));
  EXPECT_EQ(offset, 96 + 16);
}

TEST(Indexing, NegativeStepOffsetsToLastElement) {
  Dims shape{5}, strides{8};
  int64_t offset = 0;
  apply_basic_index(shape, strides, offset, {IndexItem::slice(kNoneHi, kNoneLo, -1)});
  EXPECT_EQ(shape, (Dims{5}));
  EXPECT_EQ(strides, (Dims{-8}));
  EXPECT_EQ(offset, 32);
}

TEST(Indexing, Errors) {
  Dims shape{3}, strides{8};
  int64_t offset = 0;
  EXPECT_THROW(apply_basic_index(shape, strides, offset, {IndexItem::integer(3)}), IndexError);
  EXPECT_THROW(apply_basic_index(shape, strides, offset, {IndexItem::integer(-4)}), IndexError);
  EXPECT_THROW(apply_basic_index(shape, strides, offset,
                                 {IndexItem::integer(0), IndexItem::integer(0)}),
               IndexError);
  EXPECT_THROW(apply_basic_index(shape, strides, offset,
                                 {IndexItem::ellipsis(), IndexItem::ellipsis()}),
               IndexError);
}

TEST(Indexing, EmptySliceKeepsOffset) {
  Dims shape{3}, strides{8};
  int64_t offset = 0;
  apply_basic_index(shape, strides, offset, {IndexItem::slice(5, kNoneHi, 1)});
  EXPECT_EQ(shape, (Dims{0}));
  EXPECT_EQ(offset, 0);
  // NumPy gives an empty slice the axis's own stride (step 1), whatever the step.
  shape = {2};
  strides = {480};
  apply_basic_index(shape, strides, offset, {IndexItem::slice(5, 1, -2)});
  EXPECT_EQ(shape, (Dims{0}));
  EXPECT_EQ(strides, (Dims{480}));
}
