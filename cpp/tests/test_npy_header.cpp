#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "core/errors.hpp"
#include "core/npy_header.hpp"

using namespace gpuarr;
using namespace gpuarr::npy;

namespace {

std::string message_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ValueError& e) {
    return e.what();
  }
  return "<no ValueError>";
}

// What NumPy 2 writes for np.save(f, np.zeros((3, 4))).
const std::string kNumpyF8 =
    std::string("\x93NUMPY\x01\x00v\x00", 10) +
    "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }" + std::string(58, ' ') + "\n";

}  // namespace

TEST(NpyHeader, FormatMatchesNumPyBytes) {
  EXPECT_EQ(format_header(DType::Float64, false, {3, 4}), kNumpyF8);
  const std::string b = format_header(DType::Bool, false, {});
  EXPECT_EQ(b.size(), 128u);
  EXPECT_NE(b.find("{'descr': '|b1', 'fortran_order': False, 'shape': (), }"), std::string::npos);
  const std::string f = format_header(DType::Float32, true, {2, 3});
  EXPECT_NE(f.find("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }"), std::string::npos);
  const std::string c = format_header(DType::Complex128, false, {0});
  EXPECT_NE(c.find("'descr': '<c16'"), std::string::npos);
  EXPECT_NE(c.find("'shape': (0,), }"), std::string::npos);
  for (const auto& s : {b, f, c}) {
    EXPECT_EQ(s.size() % 64, 0u);
    EXPECT_EQ(s.back(), '\n');
  }
}

TEST(NpyHeader, RoundTripEveryDType) {
  for (int i = 0; i < kNumDTypes; ++i) {
    const DType t = static_cast<DType>(i);
    for (bool fo : {false, true}) {
      for (const Dims& shape : {Dims{}, Dims{0}, Dims{7}, Dims{2, 3, 4}, Dims{123456789012}}) {
        const std::string s = format_header(t, fo, shape);
        const Version v = parse_magic(s.substr(0, 8));
        EXPECT_EQ(v.major, 1);
        const int64_t len = parse_header_length(s.substr(8, 2), v);
        EXPECT_EQ(10 + len, static_cast<int64_t>(s.size()));
        const Header h = parse_header(s.substr(10), v);
        ASSERT_TRUE(h.dtype.has_value());
        EXPECT_EQ(*h.dtype, t);
        EXPECT_FALSE(h.byteswap);
        EXPECT_FALSE(h.is_object);
        EXPECT_EQ(h.fortran_order, fo);
        EXPECT_EQ(h.shape, shape);
      }
    }
  }
}

TEST(NpyHeader, ParsesNumPyVariants) {
  // Double quotes, other key order, no trailing comma, Python 2 long suffix.
  Header h = parse_header("{\"shape\": (10L, 2), \"descr\": \">i4\", \"fortran_order\": True}\n");
  EXPECT_EQ(h.shape, (Dims{10, 2}));
  EXPECT_EQ(*h.dtype, DType::Int32);
  EXPECT_TRUE(h.byteswap);
  EXPECT_TRUE(h.fortran_order);
  h = parse_header("{'descr': '>f8', 'fortran_order': False, 'shape': (3,), }");
  EXPECT_TRUE(h.byteswap);
  h = parse_header("{'descr': '>u1', 'fortran_order': False, 'shape': (3,), }");
  EXPECT_FALSE(h.byteswap);  // single bytes have no order
  h = parse_header("{'descr': '|O', 'fortran_order': False, 'shape': (3,), }");
  EXPECT_TRUE(h.is_object);
  EXPECT_FALSE(h.dtype.has_value());
  h = parse_header("{'descr': '<U5', 'fortran_order': False, 'shape': (3,), }");
  EXPECT_FALSE(h.dtype.has_value());
  EXPECT_EQ(h.descr_repr, "'<U5'");
  h = parse_header("{'descr': [('a', '<f8'), ('b', '<i4')], 'fortran_order': False, 'shape': (2,), }");
  EXPECT_FALSE(h.dtype.has_value());
  EXPECT_EQ(h.descr_repr, "[('a', '<f8'), ('b', '<i4')]");
  h = parse_header("{'descr': '<f2', 'fortran_order': False, 'shape': (), }");
  EXPECT_EQ(*h.dtype, DType::Float16);
  EXPECT_EQ(h.count(), 1);
  h = parse_header("{'descr': '<c8', 'fortran_order': False, 'shape': (0, 5), }");
  EXPECT_EQ(*h.dtype, DType::Complex64);
  EXPECT_EQ(h.count(), 0);
}

TEST(NpyHeader, VersionTwoLengthField) {
  const std::string magic = std::string("\x93NUMPY\x02\x00", 8);
  const Version v = parse_magic(magic);
  EXPECT_EQ(v.major, 2);
  EXPECT_EQ(length_field_size(v), 4);
  EXPECT_EQ(parse_header_length(std::string("\x00\x01\x01\x00", 4), v), 0x10100);
}

TEST(NpyHeader, CorruptHeadersGiveNumPyMessages) {
  EXPECT_EQ(message_of([] { parse_magic("\x93NUM"); }),
            "EOF: reading magic string, expected 8 bytes got 4");
  EXPECT_EQ(message_of([] { parse_magic("PK\x03\x04" "abcd"); }),
            "the magic string is not correct; expected b'\\x93NUMPY', got b'PK\\x03\\x04ab'");
  EXPECT_EQ(message_of([] { parse_magic(std::string("\x93NUMPY\x04\x00", 8)); }),
            "we only support format version (1,0), (2,0), and (3,0), not (4, 0)");
  EXPECT_EQ(message_of([] { parse_header_length("v", Version{}); }),
            "EOF: reading array header length, expected 2 bytes got 1");
  EXPECT_EQ(message_of([] { parse_header("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4)"); }),
            "Cannot parse header: \"{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4)\"");
  EXPECT_EQ(message_of([] { parse_header("[1, 2]\n"); }), "Header is not a dictionary: [1, 2]");
  EXPECT_EQ(message_of([] { parse_header("{'descr': '<f8', 'shape': (3,)}"); }),
            "Header does not contain the correct keys: ['descr', 'shape']");
  EXPECT_EQ(message_of([] { parse_header("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'x': 1}"); }),
            "Header does not contain the correct keys: ['descr', 'fortran_order', 'shape', 'x']");
  EXPECT_EQ(message_of([] { parse_header("{'descr': '<f8', 'fortran_order': False, 'shape': [3]}"); }),
            "shape is not valid: [3]");
  EXPECT_EQ(message_of([] { parse_header("{'descr': '<f8', 'fortran_order': False, 'shape': (3.0,)}"); }),
            "shape is not valid: (3.0,)");
  EXPECT_EQ(message_of([] { parse_header("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,)}"); }),
            "shape is not valid: (-1,)");
  EXPECT_EQ(message_of([] { parse_header("{'descr': '<f8', 'fortran_order': 0, 'shape': (3,)}"); }),
            "fortran_order is not a valid bool: 0");
  EXPECT_EQ(message_of([] { parse_header("{'descr': 5, 'fortran_order': False, 'shape': (3,)}"); }),
            "descr is not a valid dtype descriptor: 5");
  EXPECT_EQ(message_of([] { parse_header("{'descr': os.system('x'), 'fortran_order': False, 'shape': (3,)}"); }).rfind("Cannot parse header", 0),
            0u);
  EXPECT_EQ(message_of([] { parse_header(std::string(10001, ' ')); })
                .rfind("Header info length (10001) is large", 0),
            0u);
  EXPECT_NO_THROW(parse_header("{'descr': '<f8', 'fortran_order': False, 'shape': (3,)}" +
                                   std::string(20000, ' '),
                               Version{}, -1));
}

TEST(NpyHeader, Byteswap) {
  unsigned char b[16];
  for (int i = 0; i < 16; ++i) b[i] = static_cast<unsigned char>(i);
  byteswap_inplace(b, 16, 8);
  EXPECT_EQ(b[0], 7);
  EXPECT_EQ(b[7], 0);
  EXPECT_EQ(b[8], 15);
  byteswap_inplace(b, 16, 8);
  byteswap_inplace(b, 16, 2);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(b[1], 0);
  byteswap_inplace(b, 16, 2);
  byteswap_inplace(b, 16, 4);
  EXPECT_EQ(b[0], 3);
  EXPECT_EQ(b[3], 0);
  EXPECT_EQ(b[4], 7);
}

TEST(NpyHeader, Reprs) {
  EXPECT_EQ(py_bytes_repr(std::string("\x93NUMPY", 6)), "b'\\x93NUMPY'");
  EXPECT_EQ(py_bytes_repr("it's"), "b\"it's\"");
  EXPECT_EQ(py_str_repr("a\nb"), "'a\\nb'");
}

TEST(NpyHeader, TruncatedDataMessage) {
  // As numpy.lib.format.read_array words it (shapes printed as Python tuples).
  EXPECT_EQ(truncated_data_message({3}, 3, 1),
            "Failed to read all data for array. Expected (3,) = 3 elements, could only read 1 "
            "elements. (file seems not fully written?)");
  EXPECT_EQ(truncated_data_message({2, 5}, 10, 0),
            "Failed to read all data for array. Expected (2, 5) = 10 elements, could only read 0 "
            "elements. (file seems not fully written?)");
  EXPECT_EQ(truncated_data_message({}, 1, 0),
            "Failed to read all data for array. Expected () = 1 elements, could only read 0 "
            "elements. (file seems not fully written?)");
}
