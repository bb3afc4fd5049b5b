// Cumulative sum/product along the last axis of a C-contiguous (rows x len) array; the
// output dtype is NumPy's (int64/uint64 for small integers and bool, the input's otherwise).
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/dtype.hpp"

namespace gpuarr {

void launch_scan_rows(bool product, bool skip_nan, DType in_type, DType out_type, const char* in,
                      char* out, int64_t rows, int64_t len, cudaStream_t stream);

}  // namespace gpuarr
