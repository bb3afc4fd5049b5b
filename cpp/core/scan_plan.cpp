#include "core/scan_plan.hpp"

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

}  // namespace gpuarr
