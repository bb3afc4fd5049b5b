// The .npy file format (NumPy's numpy/lib/format.py), host side: the magic string and
// version, the header length field, the header dictionary (a Python literal: descr,
// fortran_order, shape) and the writing of headers exactly as NumPy writes them (keys
// sorted, growth padding, the whole preamble padded to 64 bytes). Errors are ValueErrors
// with NumPy's messages; the bindings add the file name.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace gpuarr::npy {

constexpr int64_t kMagicLen = 8;     // "\x93NUMPY" + major + minor
constexpr int64_t kArrayAlign = 64;  // NumPy pads the preamble to this
constexpr int64_t kGrowthAxisMaxDigits = 21;
constexpr int64_t kMaxHeaderSize = 10000;  // NumPy's default max_header_size

struct Version {
  int major = 1;
  int minor = 0;
};

// Checks the 8 bytes of magic string and version (fewer bytes: NumPy's EOF message).
Version parse_magic(const std::string& first_bytes);
// Bytes of the little-endian header length field after the magic: 2 (1.0) or 4 (2.0, 3.0).
int length_field_size(const Version& v);
// Decodes the header length field (exactly length_field_size(v) bytes, else EOF error).
int64_t parse_header_length(const std::string& field, const Version& v);

struct Header {
  std::string descr_repr;        // Python repr of the descr value, for messages
  std::optional<DType> dtype;    // the gpuarr dtype when descr is one gpuarr supports
  bool byteswap = false;         // data stored big-endian (multi-byte types)
  bool is_object = false;        // descr is an object ('O') dtype: pickled data
  bool fortran_order = false;
  Dims shape;
  int64_t count() const { return shape_size(shape); }
};

// Parses the header dictionary text (after the length field, padding included).
// `max_header_size` < 0 disables the size check (NumPy with allow_pickle=True).
Header parse_header(const std::string& text, const Version& v = {},
                    int64_t max_header_size = kMaxHeaderSize);

// Resolves a descr string ('<f8', '|b1', '>c16', 'float32', ...) to a gpuarr dtype and
// whether its bytes need swapping; nullopt when gpuarr has no such dtype.
std::optional<DType> descr_to_dtype(const std::string& descr, bool* byteswap, bool* is_object);

// NumPy's dtype.str for a gpuarr dtype ('<f8', '|b1').
std::string dtype_descr(DType t);

// The whole preamble NumPy writes before the data: magic, version, length, the header
// dictionary and padding to a multiple of 64 bytes ending in '\n'. Version 1.0 unless the
// header does not fit, then 2.0.
std::string format_header(DType t, bool fortran_order, const Dims& shape);

// Reverses the byte order of each `unit`-byte value in place (nbytes a multiple of unit).
void byteswap_inplace(void* data, int64_t nbytes, int unit);

// NumPy's message when a file ends before the array's data does: count elements of
// `shape` expected, got_items read.
std::string truncated_data_message(const Dims& shape, int64_t count, int64_t got_items);

// Python's repr of a bytes / str value (for NumPy's messages).
std::string py_bytes_repr(const std::string& s);
std::string py_str_repr(const std::string& s);

}  // namespace gpuarr::npy
