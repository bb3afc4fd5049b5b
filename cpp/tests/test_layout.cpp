#include <gtest/gtest.h>

#include <tuple>

#include "core/errors.hpp"
#include "core/layout.hpp"

using namespace gpuarr;

TEST(Layout, CheckedSize) {
  EXPECT_EQ(checked_size({}, 8), 1);
  EXPECT_EQ(checked_size({2, 3, 4}, 8), 24);
  EXPECT_EQ(checked_size({2, 0, 4}, 8), 0);
  EXPECT_THROW(checked_size({2, -1}, 8), ValueError);
  EXPECT_THROW(checked_size({int64_t(1) << 40, int64_t(1) << 40}, 8), ValueError);
  EXPECT_THROW(checked_size(Dims(65, 1), 8), ValueError);
}

TEST(Layout, ShapeStr) {
  EXPECT_EQ(shape_str({}), "()");
  EXPECT_EQ(shape_str({3}), "(3,)");
  EXPECT_EQ(shape_str({2, 3}), "(2, 3)");
}

TEST(Layout, ContiguousStrides) {
  EXPECT_EQ(contiguous_strides({2, 3, 4}, 8, 'C'), (Dims{96, 32, 8}));
  EXPECT_EQ(contiguous_strides({2, 3, 4}, 8, 'F'), (Dims{8, 16, 48}));
  EXPECT_EQ(contiguous_strides({3, 1, 4}, 8, 'C'), (Dims{32, 32, 8}));
  // NumPy 2 gives empty arrays zero strides.
  EXPECT_EQ(contiguous_strides({2, 0, 3}, 8, 'C'), (Dims{0, 0, 0}));
  EXPECT_EQ(contiguous_strides({}, 4, 'C'), Dims{});
}

TEST(Layout, ContiguityFlagsIgnoreUnitDimensions) {
  EXPECT_TRUE(is_c_contiguous({2, 3}, {24, 8}, 8));
  EXPECT_FALSE(is_f_contiguous({2, 3}, {24, 8}, 8));
  EXPECT_TRUE(is_f_contiguous({2, 3}, {8, 16}, 8));
  EXPECT_TRUE(is_c_contiguous({1, 3}, {999, 8}, 8));
  EXPECT_TRUE(is_f_contiguous({1, 3}, {999, 8}, 8));
  EXPECT_TRUE(is_c_contiguous({3, 0}, {7, 3}, 8));
  EXPECT_FALSE(is_c_contiguous({3}, {-8}, 8));
  EXPECT_FALSE(is_c_contiguous({2, 3}, {48, 16}, 8));
}

TEST(Layout, StridesLikeKeepsOrderAndFlipsNegative) {
  // shape (2,3,4) viewed [:, ::-1] has strides (96, -32, 8): copy keeps C order.
  EXPECT_EQ(strides_like({2, 3, 4}, {96, -32, 8}, 8), (Dims{96, 32, 8}));
  // A transposed C array keeps its memory order.
  EXPECT_EQ(strides_like({4, 3}, {8, 32}, 8), (Dims{8, 32}));
}

TEST(Layout, Transpose) {
  Dims shape{2, 3, 4}, strides{96, 32, 8};
  transpose_layout(shape, strides, {});
  EXPECT_EQ(shape, (Dims{4, 3, 2}));
  EXPECT_EQ(strides, (Dims{8, 32, 96}));
  transpose_layout(shape, strides, {1, -1, 0});
  EXPECT_EQ(shape, (Dims{3, 2, 4}));
  EXPECT_EQ(strides, (Dims{32, 96, 8}));
  EXPECT_THROW(transpose_layout(shape, strides, {0, 1}), ValueError);
  EXPECT_THROW(transpose_layout(shape, strides, {0, 0, 1}), ValueError);
  EXPECT_THROW(transpose_layout(shape, strides, {0, 1, 3}), AxisError);
}

TEST(Layout, ResolveReshape) {
  EXPECT_EQ(resolve_reshape(12, {3, -1}), (Dims{3, 4}));
  EXPECT_EQ(resolve_reshape(12, {2, -3}), (Dims{2, 6}));  // any negative is "unknown"
  EXPECT_THROW(resolve_reshape(0, {0, -1, 3}), ValueError);
  try {
    resolve_reshape(12, {5, -1});
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "cannot reshape array of size 12 into shape (5,newaxis)");
  }
  EXPECT_THROW(resolve_reshape(12, {-1, -1}), ValueError);
  EXPECT_THROW(resolve_reshape(12, {2, 5}), ValueError);
}

TEST(Layout, ReshapeAsViewMatchesNumPy) {
  // np.arange(12).reshape(3, 4).reshape(2, 6): view, strides (48, 8)
  auto s = reshape_strides({3, 4}, {32, 8}, {2, 6}, 8, 'C');
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, (Dims{48, 8}));
  // (12,) -> (3, 1, 4): NumPy gives (32, 32, 8)
  s = reshape_strides({12}, {8}, {3, 1, 4}, 8, 'C');
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, (Dims{32, 32, 8}));
  // A transposed array cannot be flattened in C order without a copy...
  EXPECT_FALSE(reshape_strides({4, 3}, {8, 32}, {12}, 8, 'C').has_value());
  // ...but can in F order.
  s = reshape_strides({4, 3}, {8, 32}, {12}, 8, 'F');
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, (Dims{8}));
  // Splitting a strided axis keeps the stride: a[::2] of 12 -> (2, 3)
  s = reshape_strides({6}, {16}, {2, 3}, 8, 'C');
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, (Dims{48, 16}));
}

TEST(Layout, BroadcastStrides) {
  EXPECT_EQ(broadcast_strides({3}, {8}, {2, 3}), (Dims{0, 8}));
  EXPECT_EQ(broadcast_strides({2, 1}, {8, 8}, {2, 5}), (Dims{8, 0}));
  EXPECT_EQ(broadcast_strides({}, {}, {4, 4}), (Dims{0, 0}));
  EXPECT_THROW(broadcast_strides({3}, {8}, {4}), ValueError);
  EXPECT_THROW(broadcast_strides({2, 3}, {24, 8}, {3}), ValueError);
  // Extra leading length-1 axes are dropped, as in NumPy's assignment.
  EXPECT_EQ(broadcast_strides({1, 1, 4, 5}, {160, 160, 40, 8}, {4, 5}), (Dims{40, 8}));
  try {
    broadcast_strides({3}, {8}, {4, 5});
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(), "could not broadcast input array from shape (3,) into shape (4,5)");
  }
}

TEST(Layout, ExtentsOverlap) {
  // a[1:] and a[:-1] of 10 float64 overlap; a[:5] and a[5:] do not.
  EXPECT_TRUE(extents_overlap(8, {9}, {8}, 0, {9}, {8}, 8));
  EXPECT_FALSE(extents_overlap(0, {5}, {8}, 40, {5}, {8}, 8));
  // A reversed view covers the same bytes.
  EXPECT_TRUE(extents_overlap(0, {10}, {8}, 72, {10}, {-8}, 8));
  EXPECT_FALSE(extents_overlap(0, {0}, {8}, 0, {10}, {8}, 8));
}

TEST(Layout, CoalesceMergesContiguousDimensions) {
  Dims shape{2, 3, 4};
  std::vector<Dims> strides{{96, 32, 8}, {96, 32, 8}};
  coalesce_dims(shape, strides);
  EXPECT_EQ(shape, (Dims{24}));
  EXPECT_EQ(strides[0], (Dims{8}));
  // The second operand is strided in its middle axis: only the first two merge where
  // both allow it.
  shape = {2, 3, 4};
  strides = {{96, 32, 8}, {192, 64, 8}};
  coalesce_dims(shape, strides);
  EXPECT_EQ(shape, (Dims{6, 4}));
  EXPECT_EQ(strides[1], (Dims{64, 8}));
  // Unit dimensions vanish; a single element stays one element.
  shape = {1, 1};
  strides = {{8, 8}};
  coalesce_dims(shape, strides);
  EXPECT_EQ(shape, (Dims{1}));
  // Broadcast (zero) strides merge with each other.
  shape = {5, 7};
  strides = {{56, 8}, {0, 0}};
  coalesce_dims(shape, strides);
  EXPECT_EQ(shape, (Dims{35}));
  EXPECT_EQ(strides[1], (Dims{0}));
  // A unit dim between two that do not merge (a transposed operand): the later dim moves
  // down over the dropped one.
  shape = {2, 1, 3};
  strides = {{4, 100, 8}, {24, 24, 8}};
  coalesce_dims(shape, strides);
  EXPECT_EQ(shape, (Dims{2, 3}));
  EXPECT_EQ(strides[0], (Dims{4, 8}));
  EXPECT_EQ(strides[1], (Dims{24, 8}));
}

TEST(Layout, WidenInnermostToTheWidestWordThatFits) {
  // Rows of 4096 float32 in reverse order (flip along axis 0): 16-byte words.
  Dims shape{4096, 4096};
  std::vector<Dims> strides{{16384, 4}, {-16384, 4}};
  EXPECT_EQ(widen_innermost(shape, strides, {0x1000, 0x2000 + 4095 * 16384}, 4, 16), 16);
  EXPECT_EQ(shape, (Dims{4096, 1024}));
  EXPECT_EQ(strides[0], (Dims{16384, 16}));
  EXPECT_EQ(strides[1], (Dims{-16384, 16}));
  // An address 8-aligned only: 8-byte words.
  shape = {4, 6};
  strides = {{24, 4}, {24, 4}};
  EXPECT_EQ(widen_innermost(shape, strides, {0x1008, 0x2000}, 4, 16), 8);
  EXPECT_EQ(shape, (Dims{4, 3}));
  EXPECT_EQ(strides[1], (Dims{24, 8}));
  // An outer stride of one element (rows that start one element apart), a row of an odd
  // number of bytes for any wider word, a strided or broadcast innermost dim: unchanged.
  for (auto [sh, st, itemsize] :
       {std::tuple<Dims, std::vector<Dims>, int64_t>{{8, 16}, {{64, 4}, {68, 4}}, 4},
        {{8, 7}, {{28, 4}, {28, 4}}, 4},
        {{8, 16}, {{64, 4}, {128, 8}}, 4},
        {{8, 16}, {{64, 4}, {4, 0}}, 4}}) {
    Dims shape2 = sh;
    std::vector<Dims> strides2 = st;
    EXPECT_EQ(widen_innermost(shape2, strides2, {0x1000, 0x2000}, itemsize, 16), itemsize);
    EXPECT_EQ(shape2, sh);
    EXPECT_EQ(strides2, st);
  }
  // Already 16 bytes (complex128), or empty: unchanged.
  shape = {3, 5};
  strides = {{80, 16}, {80, 16}};
  EXPECT_EQ(widen_innermost(shape, strides, {0x1000, 0x2000}, 16, 16), 16);
  EXPECT_EQ(shape, (Dims{3, 5}));
  shape = {0, 5};
  strides = {{20, 4}, {20, 4}};
  EXPECT_EQ(widen_innermost(shape, strides, {0x1000, 0x2000}, 4, 16), 4);
}

TEST(Layout, MemoryExtent) {
  int64_t lo, hi;
  memory_extent({3}, {-8}, 8, lo, hi);
  EXPECT_EQ(lo, -16);
  EXPECT_EQ(hi, 8);
  memory_extent({2, 3}, {24, 8}, 8, lo, hi);
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 48);
  memory_extent({0, 3}, {24, 8}, 8, lo, hi);
  EXPECT_EQ(hi - lo, 0);
}
