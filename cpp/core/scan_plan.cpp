#include "core/scan_plan.hpp"

#include <cstdint>

namespace gpuarr {

ScanPath choose_scan_path(int64_t rows, int64_t len) {
  if (rows <= 0 || len < kScanElemsPerLaunch) return ScanPath::BlockPerRow;
  // len / rows instead of rows * kScanElemsPerLaunch: no overflow for any rows.
  return len / rows >= kScanElemsPerLaunch ? ScanPath::DeviceWidePerRow : ScanPath::BlockPerRow;
}

int64_t scan_piece_count(int64_t len, int64_t max_piece) {
  if (len <= 0) return 0;
  return (len + max_piece - 1) / max_piece;
}

bool bool_scan_fits_int32(int64_t len) { return len <= int64_t(INT32_MAX); }

}  // namespace gpuarr
