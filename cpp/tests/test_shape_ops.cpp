#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/shape_ops.hpp"

using namespace gpuarr;

template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "<no exception>";
}

TEST(ShapeOps, BroadcastShapes) {
  EXPECT_EQ(broadcast_shapes({}), Dims{});
  EXPECT_EQ(broadcast_shapes({{2, 1}, {3}}), (Dims{2, 3}));
  EXPECT_EQ(broadcast_shapes({{}, {4, 1, 3}, {5, 1}}), (Dims{4, 5, 3}));
  EXPECT_EQ(broadcast_shapes({{0}, {1}}), (Dims{0}));
  EXPECT_EQ(message_of<ValueError>([] { broadcast_shapes({{2}, {3}}); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between arg 0 with shape (2,) and arg 1 with shape (3,).");
  EXPECT_EQ(message_of<ValueError>([] { broadcast_shapes({{2, 3}, {4, 1, 3}, {5}}); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between arg 0 with shape (2, 3) and arg 2 with shape (5,).");
  // The argument that set the dimension is named, not argument 0.
  EXPECT_EQ(message_of<ValueError>([] { broadcast_shapes({{1}, {3}, {4}}); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between arg 1 with shape (3,) and arg 2 with shape (4,).");
}

TEST(ShapeOps, NormalizeAxisTuple) {
  EXPECT_EQ(normalize_axis_tuple({-1, 0}, 3), (Dims{2, 0}));
  EXPECT_EQ(message_of<ValueError>([] { normalize_axis_tuple({0, -3}, 3); }), "repeated axis");
  EXPECT_EQ(message_of<ValueError>([] { normalize_axis_tuple({0, 0}, 3, "source"); }),
            "repeated axis in `source` argument");
  EXPECT_EQ(message_of<AxisError>([] { normalize_axis_tuple({3}, 2, "source"); }),
            "source: axis 3 is out of bounds for array of dimension 2");
}

TEST(ShapeOps, MoveaxisPermutation) {
  EXPECT_EQ(moveaxis_permutation(3, {0}, {-1}), (Dims{1, 2, 0}));
  EXPECT_EQ(moveaxis_permutation(3, {-1}, {0}), (Dims{2, 0, 1}));
  EXPECT_EQ(moveaxis_permutation(4, {0, 1}, {-1, -2}), (Dims{2, 3, 1, 0}));
  EXPECT_EQ(moveaxis_permutation(4, {3, 0}, {0, 3}), (Dims{3, 1, 2, 0}));
  EXPECT_THROW(moveaxis_permutation(2, {0, 1}, {1}), ValueError);
  EXPECT_THROW(moveaxis_permutation(2, {0}, {2}), AxisError);
}

TEST(ShapeOps, ExpandDims) {
  Dims shape{2, 3}, strides{24, 8};
  expand_dims_layout(shape, strides, {0, -1}, 8);
  EXPECT_EQ(shape, (Dims{1, 2, 3, 1}));
  EXPECT_EQ(strides[1], 24);
  EXPECT_EQ(strides[2], 8);
  // NumPy: np.expand_dims(np.zeros((2,3))[:, ::2], (0,2,4)).strides == (48,24,32,16,16)
  shape = {2, 2};
  strides = {24, 16};
  expand_dims_layout(shape, strides, {0, 2, 4}, 8);
  EXPECT_EQ(shape, (Dims{1, 2, 1, 2, 1}));
  EXPECT_EQ(strides, (Dims{48, 24, 32, 16, 16}));
  EXPECT_THROW(expand_dims_layout(shape, strides, {0, 0}, 8), ValueError);
  EXPECT_THROW(expand_dims_layout(shape, strides, {9}, 8), AxisError);
}

TEST(ShapeOps, Squeeze) {
  Dims shape{1, 3, 1}, strides{24, 8, 8};
  squeeze_layout(shape, strides, {}, true);
  EXPECT_EQ(shape, Dims{3});
  EXPECT_EQ(strides, Dims{8});
  shape = {1, 3, 1};
  strides = {24, 8, 8};
  squeeze_layout(shape, strides, {-1}, false);
  EXPECT_EQ(shape, (Dims{1, 3}));
  EXPECT_EQ(message_of<ValueError>([&] { squeeze_layout(shape, strides, {1}, false); }),
            "cannot select an axis to squeeze out which has size not equal to one");
  EXPECT_EQ(message_of<ValueError>([&] { squeeze_layout(shape, strides, {0, -2}, false); }),
            "duplicate value in 'axis'");
  EXPECT_THROW(squeeze_layout(shape, strides, {2}, false), AxisError);
}

TEST(ShapeOps, ConcatenateShape) {
  EXPECT_EQ(concatenate_shape({{2, 3}, {4, 3}}, 0), (Dims{6, 3}));
  EXPECT_EQ(concatenate_shape({{2, 3}, {2, 0}, {2, 1}}, -1), (Dims{2, 4}));
  EXPECT_EQ(message_of<ValueError>([] { concatenate_shape({}, 0); }),
            "need at least one array to concatenate");
  EXPECT_EQ(message_of<ValueError>([] { concatenate_shape({{}, {}}, 0); }),
            "zero-dimensional arrays cannot be concatenated");
  EXPECT_EQ(message_of<ValueError>([] { concatenate_shape({{2, 2}, {2, 3}}, 0); }),
            "all the input array dimensions except for the concatenation axis must match "
            "exactly, but along dimension 1, the array at index 0 has size 2 and the array at "
            "index 1 has size 3");
  EXPECT_EQ(message_of<ValueError>([] { concatenate_shape({{2, 2}, {3}}, 0); }),
            "all the input arrays must have same number of dimensions, but the array at index 0 "
            "has 2 dimension(s) and the array at index 1 has 1 dimension(s)");
  EXPECT_THROW(concatenate_shape({{2, 2}, {2, 2}}, 2), AxisError);
}

TEST(ShapeOps, ConcatRowsLayout) {
  int64_t rows = 0;
  std::vector<ConcatRowsPiece> pieces;
  // numpy.stack((a, b), axis=1) of two 1-d float32: (n, 1) pieces, rows of 8 bytes.
  ASSERT_TRUE(concat_rows_layout({1000, 2}, {{1000, 1}, {1000, 1}}, {{4, 4}, {4, 4}}, 1, 4,
                                 rows, pieces));
  EXPECT_EQ(rows, 1000);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].width, 1);
  EXPECT_EQ(pieces[0].row_stride, 4);
  EXPECT_EQ(pieces[0].col_stride, 0);
  // Dims before the axis collapse into rows, the axis and those after it into a width;
  // a reversed, strided piece keeps its strides.
  ASSERT_TRUE(concat_rows_layout({2, 3, 5, 2}, {{2, 3, 2, 2}, {2, 3, 3, 2}},
                                 {{96, 32, 16, 8}, {-144, -48, -16, -8}}, 2, 8, rows, pieces));
  EXPECT_EQ(rows, 6);
  EXPECT_EQ(pieces[0].width, 4);
  EXPECT_EQ(pieces[0].row_stride, 32);
  EXPECT_EQ(pieces[0].col_stride, 8);
  EXPECT_EQ(pieces[1].width, 6);
  EXPECT_EQ(pieces[1].row_stride, -48);
  EXPECT_EQ(pieces[1].col_stride, -8);
  // Rows that do not collapse (a[:, ::2] of a 3-d array), pieces all 128 bytes or wider
  // with a row that is not contiguous, too many pieces: one copy a piece instead.
  EXPECT_FALSE(concat_rows_layout({4, 3, 2}, {{4, 3, 1}, {4, 3, 1}}, {{48, 8, 4}, {12, 4, 4}},
                                  2, 4, rows, pieces));
  EXPECT_FALSE(concat_rows_layout({8, 64}, {{8, 32}, {8, 32}}, {{128, 4}, {256, 8}}, 1, 4,
                                  rows, pieces));
  EXPECT_TRUE(pieces.empty());
  EXPECT_FALSE(concat_rows_layout({8, 64}, {{8, 32}, {8, 32}}, {{128, 4}, {128, -4}}, 1, 4,
                                  rows, pieces));
  // Wide pieces with contiguous rows: one pass too (one launch, not one a piece).
  ASSERT_TRUE(concat_rows_layout({8, 64}, {{8, 32}, {8, 32}}, {{128, 4}, {128, 4}}, 1, 4,
                                 rows, pieces));
  EXPECT_EQ(rows, 8);
  EXPECT_EQ(pieces[1].width, 32);
  EXPECT_EQ(pieces[1].col_stride, 4);
  ASSERT_TRUE(concat_rows_layout({3000}, {{1000}, {2000}}, {{4}, {4}}, 0, 4, rows, pieces));
  EXPECT_EQ(rows, 1);
  EXPECT_EQ(pieces[0].width, 1000);
  // One wide piece is a copy, not a join.
  EXPECT_FALSE(concat_rows_layout({8, 64}, {{8, 64}}, {{256, 4}}, 1, 4, rows, pieces));
  EXPECT_TRUE(concat_rows_layout({8, 63}, {{8, 32}, {8, 31}}, {{128, 4}, {124, 4}}, 1, 4,
                                 rows, pieces));
  // An empty piece among them (width 0).
  ASSERT_TRUE(concat_rows_layout({8, 3}, {{8, 1}, {8, 0}, {8, 2}}, {{4, 4}, {0, 0}, {8, 4}}, 1,
                                 4, rows, pieces));
  EXPECT_EQ(pieces[1].width, 0);
  EXPECT_EQ(pieces[2].width, 2);
  EXPECT_EQ(pieces[2].row_stride, 8);
  // One piece: a copy into short rows, here a broadcast along them (numpy.repeat by 3).
  ASSERT_TRUE(concat_rows_layout({8, 3}, {{8, 3}}, {{4, 0}}, 1, 4, rows, pieces));
  EXPECT_EQ(rows, 8);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].width, 3);
  EXPECT_EQ(pieces[0].row_stride, 4);
  EXPECT_EQ(pieces[0].col_stride, 0);
  EXPECT_FALSE(concat_rows_layout({8, 32}, {{8, 32}}, {{256, 8}}, 1, 4, rows, pieces));
  const std::vector<Dims> nine(9, Dims{8, 1}), nine_strides(9, Dims{4, 4});
  EXPECT_FALSE(concat_rows_layout({8, 9}, nine, nine_strides, 1, 4, rows, pieces));
  // Past INT32_MAX elements.
  const int64_t g = int64_t(1) << 30;
  EXPECT_FALSE(concat_rows_layout({g, 2}, {{g, 1}, {g, 1}}, {{4, 4}, {4, 4}}, 1, 4, rows,
                                  pieces));
}

namespace {

using Pads = std::vector<std::pair<int64_t, int64_t>>;

// pad_layout's layout, which must be taken, against the expected per-dim fields.
void expect_pad_layout(const Dims& shape, const Dims& strides, const Pads& pads, PadMode mode,
                       const PadLayout& want) {
  PadLayout l;
  ASSERT_TRUE(pad_layout(shape, strides, pads, mode, l));
  EXPECT_EQ(l.shape, want.shape);
  EXPECT_EQ(l.before, want.before);
  EXPECT_EQ(l.extent, want.extent);
  EXPECT_EQ(l.strides, want.strides);
}

}  // namespace

TEST(ShapeOps, PadLayout) {
  const PadMode c = PadMode::Constant;
  // A C-contiguous 4096^2 float32 matrix padded by 1 on every side.
  expect_pad_layout({4096, 4096}, {16384, 4}, {{1, 1}, {1, 1}}, c,
                    {{4098, 4098}, {1, 1}, {4096, 4096}, {16384, 4}});
  // Padded along axis 0 only: the unpadded rows merge into it.
  expect_pad_layout({10, 6}, {24, 4}, {{2, 3}, {0, 0}}, c, {{90}, {12}, {60}, {4}});
  // An unpadded dim whose source stride does not continue the dim outside it stays; one
  // of extent 1 goes; the middle one of three merges into the first.
  expect_pad_layout({10, 6}, {48, 4}, {{2, 3}, {0, 0}}, c, {{15, 6}, {2, 0}, {10, 6}, {48, 4}});
  expect_pad_layout({4, 1, 5}, {20, 20, -4}, {{0, 0}, {0, 0}, {1, 0}}, c,
                    {{4, 6}, {0, 1}, {4, 5}, {20, -4}});
  expect_pad_layout({3, 4, 5}, {80, 20, 4}, {{1, 1}, {0, 0}, {2, 0}}, c,
                    {{20, 7}, {4, 2}, {12, 5}, {20, 4}});
  // Nothing padded, extent 1 everywhere: one element.
  expect_pad_layout({1, 1}, {4, 4}, {{0, 0}, {0, 0}}, c, {{1}, {0}, {1}, {0}});
  // An empty source: all of the result is the value.
  expect_pad_layout({0, 3}, {12, 4}, {{1, 1}, {1, 1}}, c, {{2, 5}, {1, 1}, {0, 3}, {12, 4}});
  // Other modes merge an unpadded dim only into an unpadded one.
  expect_pad_layout({10, 6}, {24, 4}, {{2, 3}, {0, 0}}, PadMode::Reflect,
                    {{15, 6}, {2, 0}, {10, 6}, {24, 4}});
  expect_pad_layout({3, 4, 5}, {80, 20, 4}, {{0, 0}, {0, 0}, {2, 1}}, PadMode::Edge,
                    {{12, 8}, {0, 2}, {12, 5}, {20, 4}});
  // Past INT32_MAX elements, or more dims than a launch holds.
  PadLayout l;
  EXPECT_FALSE(pad_layout({65536, 32768}, {131072, 4}, Pads{{0, 0}, {1, 0}}, c, l));
  EXPECT_FALSE(pad_layout(Dims(9, 2), Dims(9, 4), Pads(9, {1, 0}), c, l));
  // A source dim past INT32_MAX / 2 in an index mode (its 32-bit source index); a constant
  // pad reads no index.
  const int64_t half = INT32_MAX / 2 + 1;
  EXPECT_FALSE(pad_layout({half}, {1}, Pads{{1, 1}}, PadMode::Reflect, l));
  EXPECT_TRUE(pad_layout({half - 1}, {1}, Pads{{1, 1}}, PadMode::Reflect, l));
  EXPECT_TRUE(pad_layout({half}, {1}, Pads{{1, 1}}, c, l));
}

TEST(ShapeOps, PadModeFromName) {
  EXPECT_EQ(pad_mode_from_name("constant"), PadMode::Constant);
  EXPECT_EQ(pad_mode_from_name("edge"), PadMode::Edge);
  EXPECT_EQ(pad_mode_from_name("reflect"), PadMode::Reflect);
  EXPECT_EQ(pad_mode_from_name("symmetric"), PadMode::Symmetric);
  EXPECT_EQ(pad_mode_from_name("wrap"), PadMode::Wrap);
  EXPECT_EQ(message_of<ValueError>([] { pad_mode_from_name("mean"); }),
            "mode 'mean' is not supported");
}

TEST(ShapeOps, PadSourceIndex) {
  // numpy.pad(np.arange(n), 7, mode) read as indices, for n = 3 (and 1, 2 where noted).
  auto indices = [](PadMode mode, int64_t n) {
    Dims out;
    for (int64_t i = -7; i < n + 7; ++i)
      out.push_back(i >= 0 && i < n ? i : pad_source_index(mode, i, n));
    return out;
  };
  EXPECT_EQ(indices(PadMode::Reflect, 3),
            (Dims{1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1}));
  EXPECT_EQ(indices(PadMode::Symmetric, 3),
            (Dims{0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2}));
  EXPECT_EQ(indices(PadMode::Wrap, 3),
            (Dims{2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0}));
  EXPECT_EQ(indices(PadMode::Edge, 3),
            (Dims{0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(indices(PadMode::Symmetric, 2),
            (Dims{1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0}));
  EXPECT_EQ(indices(PadMode::Reflect, 1), Dims(15, 0));
  // The 32-bit form (the pad kernel's where 2n fits) agrees, up to its range's ends.
  const int32_t big = INT32_MAX / 2;
  for (PadMode mode : {PadMode::Edge, PadMode::Reflect, PadMode::Symmetric, PadMode::Wrap})
    for (int32_t n : {1, 2, 3, 7, 1000, big})
      for (int64_t i : std::initializer_list<int64_t>{
               -7, -1, n, int64_t(n) + 6, -int64_t(n) - 5, 3 * int64_t(n), -int64_t(INT32_MAX),
               INT32_MAX}) {
        if (i < -int64_t(INT32_MAX) || i > INT32_MAX) continue;  // the kernel's indices fit
        EXPECT_EQ(pad_source_index<int32_t>(mode, int32_t(i), n),
                  pad_source_index<int64_t>(mode, i, n))
            << int(mode) << " " << n << " " << i;
      }
}

TEST(ShapeOps, ArraySplitBounds) {
  EXPECT_EQ(array_split_bounds(5, 3, false), (Dims{0, 2, 4, 5}));
  EXPECT_EQ(array_split_bounds(2, 4, false), (Dims{0, 1, 2, 2, 2}));
  EXPECT_EQ(array_split_bounds(6, 3, true), (Dims{0, 2, 4, 6}));
  EXPECT_EQ(message_of<ValueError>([] { array_split_bounds(5, 2, true); }),
            "array split does not result in an equal division");
  EXPECT_EQ(message_of<ValueError>([] { array_split_bounds(5, 0, false); }),
            "number sections must be larger than 0.");
}

TEST(ShapeOps, Diagonal) {
  Dims shape{3, 4}, strides{32, 8};
  int64_t off = 0;
  diagonal_layout(shape, strides, off, 1, 0, 1);
  EXPECT_EQ(shape, Dims{3});
  EXPECT_EQ(strides, Dims{40});
  EXPECT_EQ(off, 8);
  shape = {2, 3, 4};
  strides = {96, 32, 8};
  off = 0;
  diagonal_layout(shape, strides, off, -1, 2, 1);  // axis1 = 2 (size 4), axis2 = 1 (size 3)
  EXPECT_EQ(shape, (Dims{2, 3}));
  EXPECT_EQ(strides, (Dims{96, 40}));
  EXPECT_EQ(off, 8);
  shape = {2, 2};
  strides = {16, 8};
  off = 0;
  diagonal_layout(shape, strides, off, 5, 0, 1);
  EXPECT_EQ(shape, Dims{0});
  EXPECT_EQ(off, 0);
  EXPECT_EQ(message_of<ValueError>([&] { diagonal_layout(shape, strides, off, 0, 0, 0); }),
            "diag requires an array of at least two dimensions");
  shape = {2, 2};
  strides = {16, 8};
  EXPECT_EQ(message_of<ValueError>([&] { diagonal_layout(shape, strides, off, 0, 1, -1); }),
            "axis1 and axis2 cannot be the same");
  EXPECT_EQ(message_of<AxisError>([&] { diagonal_layout(shape, strides, off, 0, 3, 1); }),
            "axis1: axis 3 is out of bounds for array of dimension 2");
}

TEST(ShapeOps, Tile) {
  Dims in;
  EXPECT_EQ(tile_shape({2, 3}, {2}, in), (Dims{2, 6}));
  EXPECT_EQ(in, (Dims{2, 3}));
  EXPECT_EQ(tile_shape({3}, {2, 1, 2}, in), (Dims{2, 1, 6}));
  EXPECT_EQ(in, (Dims{1, 1, 3}));
  EXPECT_THROW(tile_shape({3}, {-1}, in), ValueError);
}
