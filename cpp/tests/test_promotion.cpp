#include <gtest/gtest.h>

#include "core/promotion.hpp"

using namespace gpuarr;

TEST(Promotion, IntegerPairs) {
  EXPECT_EQ(promote_types(DType::Int8, DType::UInt8), DType::Int16);
  EXPECT_EQ(promote_types(DType::Int64, DType::UInt64), DType::Float64);
  EXPECT_EQ(promote_types(DType::Int32, DType::UInt16), DType::Int32);
  EXPECT_EQ(promote_types(DType::UInt32, DType::Int32), DType::Int64);
  EXPECT_EQ(promote_types(DType::Bool, DType::UInt8), DType::UInt8);
}

TEST(Promotion, IntegerWithInexact) {
  EXPECT_EQ(promote_types(DType::Int8, DType::Float16), DType::Float16);
  EXPECT_EQ(promote_types(DType::Int16, DType::Float16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Int32, DType::Float32), DType::Float64);
  EXPECT_EQ(promote_types(DType::UInt64, DType::Float16), DType::Float64);
  EXPECT_EQ(promote_types(DType::Int16, DType::Complex64), DType::Complex64);
  EXPECT_EQ(promote_types(DType::Int32, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Float64, DType::Complex64), DType::Complex128);
  EXPECT_EQ(promote_types(DType::Float16, DType::Complex64), DType::Complex64);
}

TEST(Promotion, CanCast) {
  EXPECT_TRUE(can_cast(DType::Int8, DType::Float16, Casting::Safe));
  EXPECT_FALSE(can_cast(DType::Int64, DType::Float32, Casting::Safe));
  EXPECT_TRUE(can_cast(DType::Int64, DType::Float32, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Float32, DType::Int64, Casting::SameKind));
  EXPECT_TRUE(can_cast(DType::UInt64, DType::Int8, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Int8, DType::UInt64, Casting::SameKind));
  EXPECT_TRUE(can_cast(DType::Float64, DType::Float16, Casting::SameKind));
  EXPECT_FALSE(can_cast(DType::Int8, DType::Int16, Casting::No));
}

TEST(Promotion, WeakScalars) {
  using W = WeakKind;
  EXPECT_EQ(result_type({{DType::Float32}, {DType::Float64, W::Float}}), DType::Float32);
  EXPECT_EQ(result_type({{DType::Int8}, {DType::Int64, W::Int}}), DType::Int8);
  EXPECT_EQ(result_type({{DType::Bool}, {DType::Int64, W::Int}}), DType::Int64);
  EXPECT_EQ(result_type({{DType::Int16}, {DType::Float64, W::Float}}), DType::Float64);
  EXPECT_EQ(result_type({{DType::Float16}, {DType::Complex128, W::Complex}}), DType::Complex64);
  EXPECT_EQ(result_type({{DType::Int64, W::Int}, {DType::Float64, W::Float}}), DType::Float64);
  EXPECT_EQ(result_type({{DType::UInt8}, {DType::Bool, W::Bool}}), DType::UInt8);
}
