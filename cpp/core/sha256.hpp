// SHA-256 (FIPS 180-4) of a byte string, as lowercase hex: the JIT disk cache's key.
#pragma once
#include <string>
#include <string_view>

namespace gpuarr {

std::string sha256_hex(std::string_view data);

}  // namespace gpuarr
