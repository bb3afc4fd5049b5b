// The rules that send a ufunc launch (eager or a pending single operation) to its loop's
// contiguous kernel (contiguous_aligned_launch) and a pending single operation to its loop's
// rows in 16-byte vectors (vector_rows_launch), ops/ufunc.hpp.
#include <gtest/gtest.h>

#include "ops/ufunc.hpp"

using namespace gpuarr;

namespace {

// An operand at `address` with byte strides `strides`.
UfuncOperandView view(uintptr_t address, const Dims* strides) {
  UfuncOperandView v;
  v.data = reinterpret_cast<char*>(address);
  v.strides = strides;
  return v;
}

}  // namespace

TEST(ContiguousAlignedLaunch, OneContiguousAlignedDimension) {
  const Dims shape{1000}, s4{4}, s8{8};
  const int sizes[] = {8, 4, 4};  // a float64 result of two float32 operands
  const UfuncOperandView ops[] = {view(0x1000, &s8), view(0x2000, &s4), view(0x3010, &s4)};
  EXPECT_TRUE(contiguous_aligned_launch(shape, ops, 3, sizes));
}

TEST(ContiguousAlignedLaunch, StridedUnalignedOrSeveralDimensionsAreNot) {
  const Dims shape{1000}, s4{4}, s8{8}, reversed{-4};
  const int sizes[] = {4, 4};
  const UfuncOperandView strided[] = {view(0x1000, &s4), view(0x2000, &s8)};
  EXPECT_FALSE(contiguous_aligned_launch(shape, strided, 2, sizes));
  const UfuncOperandView backwards[] = {view(0x1000, &s4), view(0x2000, &reversed)};
  EXPECT_FALSE(contiguous_aligned_launch(shape, backwards, 2, sizes));
  const UfuncOperandView unaligned[] = {view(0x1000, &s4), view(0x2004, &s4)};
  EXPECT_FALSE(contiguous_aligned_launch(shape, unaligned, 2, sizes));
  const UfuncOperandView unaligned_out[] = {view(0x1008, &s4), view(0x2000, &s4)};
  EXPECT_FALSE(contiguous_aligned_launch(shape, unaligned_out, 2, sizes));
  const Dims shape2{10, 100}, c2{400, 4};
  const UfuncOperandView rows[] = {view(0x1000, &c2), view(0x2000, &c2)};
  EXPECT_FALSE(contiguous_aligned_launch(shape2, rows, 2, sizes));
}

TEST(ContiguousAlignedLaunch, ScalarsDoNotCountZeroDimsNeedOnlyAlignment) {
  const Dims shape{1000}, s4{4}, none{};
  const int sizes[] = {4, 4, 4};
  UfuncOperandView ops[] = {view(0x1000, &s4), view(0x2000, &s4), UfuncOperandView{}};
  ops[2].is_scalar = true;  // no data, no strides
  EXPECT_TRUE(contiguous_aligned_launch(shape, ops, 3, sizes));
  const UfuncOperandView zero_d[] = {view(0x1000, &none), view(0x2000, &none)};
  EXPECT_TRUE(contiguous_aligned_launch(Dims{}, zero_d, 2, sizes));
  const UfuncOperandView zero_d_unaligned[] = {view(0x1000, &none), view(0x2002, &none)};
  EXPECT_FALSE(contiguous_aligned_launch(Dims{}, zero_d_unaligned, 2, sizes));
}

TEST(VectorRowsLaunch, AlignedRowsAndBroadcastOperands) {
  const Dims shape{4096, 4096}, c8{32768, 8}, row{0, 8}, column{8, 0};
  const int sizes[] = {8, 8, 8};
  const UfuncOperandView plus_row[] = {view(0x1000, &c8), view(0x2000, &c8), view(0x3000, &row)};
  EXPECT_TRUE(vector_rows_launch(shape, plus_row, 3, sizes));
  const UfuncOperandView plus_column[] = {view(0x1000, &c8), view(0x2000, &c8),
                                          view(0x3008, &column)};
  EXPECT_TRUE(vector_rows_launch(shape, plus_column, 3, sizes));  // read once a row
  UfuncOperandView plus_scalar[] = {view(0x1000, &c8), view(0x2000, &c8), UfuncOperandView{}};
  plus_scalar[2].is_scalar = true;
  EXPECT_TRUE(vector_rows_launch(shape, plus_scalar, 3, sizes));
}

TEST(VectorRowsLaunch, ShortUnalignedOrStridedRowsAreNot) {
  const int sizes[] = {4, 4};
  const Dims shape{4096, 4096}, c4{16384, 4}, odd_rows{16388, 4}, every_other{32768, 8};
  const UfuncOperandView aligned[] = {view(0x1000, &c4), view(0x2000, &c4)};
  EXPECT_TRUE(vector_rows_launch(shape, aligned, 2, sizes));
  const UfuncOperandView unaligned_start[] = {view(0x1000, &c4), view(0x2004, &c4)};
  EXPECT_FALSE(vector_rows_launch(shape, unaligned_start, 2, sizes));
  const UfuncOperandView unaligned_rows[] = {view(0x1000, &c4), view(0x2000, &odd_rows)};
  EXPECT_FALSE(vector_rows_launch(shape, unaligned_rows, 2, sizes));
  const UfuncOperandView strided[] = {view(0x1000, &c4), view(0x2000, &every_other)};
  EXPECT_FALSE(vector_rows_launch(shape, strided, 2, sizes));
  const Dims short_rows{100000, 100}, s100{400, 4};
  const UfuncOperandView short_ones[] = {view(0x1000, &s100), view(0x2000, &s100)};
  EXPECT_FALSE(vector_rows_launch(short_rows, short_ones, 2, sizes));  // under kRowsMinInner
  const Dims flat{1 << 24}, s4{4};
  const UfuncOperandView one_dim[] = {view(0x1000, &s4), view(0x2000, &s4)};
  EXPECT_FALSE(vector_rows_launch(flat, one_dim, 2, sizes));  // the contiguous kernel's
}
