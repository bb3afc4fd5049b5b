#include <gtest/gtest.h>

#include "core/dtype.hpp"
#include "core/errors.hpp"

using namespace gpuarr;

TEST(DType, ItemsizesAndKindsMatchNumPy) {
  EXPECT_EQ(itemsize(DType::Bool), 1);
  EXPECT_EQ(itemsize(DType::Int16), 2);
  EXPECT_EQ(itemsize(DType::UInt32), 4);
  EXPECT_EQ(itemsize(DType::Float16), 2);
  EXPECT_EQ(itemsize(DType::Float64), 8);
  EXPECT_EQ(itemsize(DType::Complex64), 8);
  EXPECT_EQ(itemsize(DType::Complex128), 16);
  EXPECT_EQ(kind_char(DType::Bool), 'b');
  EXPECT_EQ(kind_char(DType::Int8), 'i');
  EXPECT_EQ(kind_char(DType::UInt64), 'u');
  EXPECT_EQ(kind_char(DType::Float32), 'f');
  EXPECT_EQ(kind_char(DType::Complex128), 'c');
}

TEST(DType, RoundTripsThroughNameAndKind) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const auto t = static_cast<DType>(i);
    EXPECT_EQ(dtype_from_name(name(t)), t);
    EXPECT_EQ(dtype_from_kind_and_size(kind_char(t), itemsize(t)), t);
  }
}

TEST(DType, Typestr) {
  EXPECT_EQ(typestr(DType::Float32), "<f4");
  EXPECT_EQ(typestr(DType::Bool), "|b1");
  EXPECT_EQ(typestr(DType::UInt8), "|u1");
  EXPECT_EQ(typestr(DType::Complex128), "<c16");
}

TEST(DType, UnsupportedTypesThrowTypeError) {
  EXPECT_THROW(dtype_from_kind_and_size('f', 16), TypeError);  // long double
  EXPECT_THROW(dtype_from_kind_and_size('U', 4), TypeError);
  EXPECT_THROW(dtype_from_name("object"), TypeError);
}

TEST(DType, KindPredicates) {
  EXPECT_TRUE(is_complex(DType::Complex64));
  EXPECT_FALSE(is_complex(DType::Float64));
  EXPECT_TRUE(is_integer(DType::UInt16));
  EXPECT_FALSE(is_integer(DType::Bool));
  EXPECT_TRUE(is_float(DType::Float16));
}
