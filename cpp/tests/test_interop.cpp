#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/interop.hpp"

using namespace gpuarr;

TEST(Interop, DLDtypeRoundTrip) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    const DLDataType d = to_dl_dtype(t);
    EXPECT_EQ(d.lanes, 1);
    EXPECT_EQ(d.bits, itemsize(t) * 8);
    EXPECT_EQ(from_dl_dtype(d), t);
  }
  EXPECT_EQ(to_dl_dtype(DType::Bool).code, kDLBool);
  EXPECT_EQ(to_dl_dtype(DType::Complex64).code, kDLComplex);
  EXPECT_EQ(to_dl_dtype(DType::Complex64).bits, 64);
  EXPECT_EQ(to_dl_dtype(DType::UInt16).code, kDLUInt);
}

TEST(Interop, DLDtypeUnsupported) {
  EXPECT_THROW(from_dl_dtype(DLDataType{kDLBfloat, 16, 1}), TypeError);
  EXPECT_THROW(from_dl_dtype(DLDataType{kDLFloat, 32, 4}), TypeError);
  EXPECT_THROW(from_dl_dtype(DLDataType{kDLFloat, 8, 1}), TypeError);
  EXPECT_THROW(from_dl_dtype(DLDataType{kDLInt, 4, 1}), TypeError);
  EXPECT_THROW(from_dl_dtype(DLDataType{kDLFloat8_e4m3fn, 8, 1}), TypeError);
  EXPECT_THROW(from_dl_dtype(DLDataType{kDLBool, 1, 1}), TypeError);
  EXPECT_THROW(from_dl_dtype(DLDataType{kDLComplex, 32, 1}), TypeError);
  try {
    from_dl_dtype(DLDataType{kDLBfloat, 16, 1});
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("bfloat16"), std::string::npos) << e.what();
  }
}

TEST(Interop, Strides) {
  EXPECT_EQ(dl_strides_from_bytes({24, 8}, 8), (Dims{3, 1}));
  EXPECT_EQ(dl_strides_from_bytes({-8, 0}, 8), (Dims{-1, 0}));
  EXPECT_THROW(dl_strides_from_bytes({12, 4}, 8), BufferError);
  const int64_t el[] = {-1, 0, 5};
  EXPECT_EQ(byte_strides_from_dl({2, 3, 4}, el, 4), (Dims{-4, 0, 20}));
  EXPECT_EQ(byte_strides_from_dl({2, 3, 4}, nullptr, 4), (Dims{48, 16, 4}));
  EXPECT_EQ(byte_strides_from_dl({}, nullptr, 4), (Dims{}));
  const int64_t huge[] = {int64_t(1) << 62};
  EXPECT_THROW(byte_strides_from_dl({2}, huge, 8), BufferError);
}

TEST(Interop, ByteSpan) {
  ByteSpan s = byte_span({2, 3}, {24, 8}, 8);
  EXPECT_EQ(s.lo, 0);
  EXPECT_EQ(s.hi, 48);
  s = byte_span({4}, {-8}, 8);
  EXPECT_EQ(s.lo, -24);
  EXPECT_EQ(s.hi, 8);
  s = byte_span({5, 3}, {0, 4}, 4);  // zero stride (broadcast)
  EXPECT_EQ(s.lo, 0);
  EXPECT_EQ(s.hi, 12);
  s = byte_span({3, 0}, {8, 8}, 8);
  EXPECT_EQ(s.lo, 0);
  EXPECT_EQ(s.hi, 0);
  s = byte_span({}, {}, 2);
  EXPECT_EQ(s.lo, 0);
  EXPECT_EQ(s.hi, 2);
}

TEST(Interop, DLPackStream) {
  StreamRequest r = dlpack_stream_request(std::nullopt);
  EXPECT_TRUE(r.synchronize);
  EXPECT_EQ(r.handle, 1u);
  r = dlpack_stream_request(-1);
  EXPECT_FALSE(r.synchronize);
  r = dlpack_stream_request(2);
  EXPECT_TRUE(r.synchronize);
  EXPECT_EQ(r.handle, 2u);
  r = dlpack_stream_request(0x7f0012345678);
  EXPECT_EQ(r.handle, uintptr_t(0x7f0012345678));
  EXPECT_THROW(dlpack_stream_request(0), ValueError);
  EXPECT_THROW(dlpack_stream_request(-2), ValueError);
}

TEST(Interop, CaiStream) {
  EXPECT_FALSE(cai_stream_request(std::nullopt).synchronize);
  EXPECT_EQ(cai_stream_request(1).handle, 1u);
  EXPECT_TRUE(cai_stream_request(1).synchronize);
  EXPECT_THROW(cai_stream_request(0), ValueError);
  EXPECT_THROW(cai_stream_request(-1), ValueError);
}

TEST(Interop, Typestr) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    EXPECT_EQ(dtype_from_typestr(typestr(t)), t) << typestr(t);
  }
  EXPECT_EQ(dtype_from_typestr("=f4"), DType::Float32);
  EXPECT_EQ(dtype_from_typestr("|u1"), DType::UInt8);
  EXPECT_EQ(dtype_from_typestr(">u1"), DType::UInt8);
  EXPECT_THROW(dtype_from_typestr(">f8"), TypeError);
  EXPECT_THROW(dtype_from_typestr("<f2x"), TypeError);
  EXPECT_THROW(dtype_from_typestr("<V8"), TypeError);
  EXPECT_THROW(dtype_from_typestr("<M8"), TypeError);
  EXPECT_THROW(dtype_from_typestr("<f"), TypeError);
  EXPECT_THROW(dtype_from_typestr("<f16"), TypeError);
}
