// Host logic of the interop protocols (DLPack, __cuda_array_interface__): dtype codes,
// element <-> byte strides, the memory span a foreign view covers, and the meaning of a
// consumer's `stream` argument. Plain C++ (no CUDA, no Python), unit-tested on the CPU.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/dlpack.h"
#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace gpuarr {

// Python's BufferError (the DLPack protocol's error for "cannot export/import this").
struct BufferError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

DLDataType to_dl_dtype(DType t);
// TypeError naming the type when gpuarr has no equivalent (bfloat16, float8, lanes > 1, ...).
DType from_dl_dtype(DLDataType t);
std::string dl_dtype_name(DLDataType t);

// DLPack strides are in elements: BufferError when a byte stride is not a multiple of the
// itemsize (such a view cannot be described).
Dims dl_strides_from_bytes(const Dims& byte_strides, int64_t itemsize);
// Byte strides from DLPack's element strides (nullptr: compact row-major).
Dims byte_strides_from_dl(const Dims& shape, const int64_t* strides, int64_t itemsize);

// The bytes a view touches, relative to its first element: [lo, hi). {0, 0} when empty.
struct ByteSpan {
  int64_t lo = 0;
  int64_t hi = 0;
};
ByteSpan byte_span(const Dims& shape, const Dims& byte_strides, int64_t itemsize);

// A consumer's `stream` argument (DLPack __dlpack__ and __cuda_array_interface__ v3) on a
// CUDA device. nullopt is Python's None.
struct StreamRequest {
  bool synchronize = true;  // false for -1 ("no synchronization")
  uintptr_t handle = 1;     // cudaStream_t value: 1 legacy default, 2 per-thread default
};
// DLPack (__dlpack__): None -> legacy default (1); -1 -> no sync; 1, 2 and other handles as
// given; 0 and values below -1 -> ValueError.
StreamRequest dlpack_stream_request(std::optional<int64_t> stream);
// __cuda_array_interface__ v3 'stream' entry: None/absent -> no sync; 0 -> ValueError.
StreamRequest cai_stream_request(std::optional<int64_t> stream);

// '<f8', '|b1', '=i4', ... -> DType; TypeError for big-endian data and unsupported types.
DType dtype_from_typestr(const std::string& typestr);

}  // namespace gpuarr
