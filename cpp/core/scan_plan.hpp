// Planning a cumulative sum/product along the rows of a C-contiguous (rows x len) array:
// which kernel scans it, and how a long row splits into pieces of 32-bit length for a
// device-wide scan. Plain C++, unit-tested.
#pragma once
#include <cstdint>

namespace gpuarr {

enum class ScanPath {
  BlockPerRow,       // one thread block sweeps each row tile by tile (one launch in all)
  DeviceWidePerRow,  // one device-wide scan (cub::DeviceScan) per row, launched in turn
};

// A block sweeps a row at about 4e8 elements/s (16M float32 in 41 ms on an H100); a
// device-wide scan costs about 5 us of launches (an init kernel and the scan) plus its bytes
// over bandwidth. So `rows` device-wide scans beat the one block-per-row launch once
// len > rows * ~2000 (while the rows are fewer than the GPU's resident blocks; with more,
// the block path is bandwidth-bound and len / rows is small anyway). The threshold leans to
// the single launch, which also makes no host calls into CUB and no scratch allocation.
constexpr int64_t kScanElemsPerLaunch = 4096;

ScanPath choose_scan_path(int64_t rows, int64_t len);

// The longest piece of a row given to one device-wide scan: item counts stay 32-bit (one
// CUB instantiation per type); a longer row is scanned piece by piece, each piece starting
// from the last result of the one before.
constexpr int64_t kScanMaxPiece = int64_t(1) << 30;

// Number of pieces of a row of `len` elements (0 for an empty row).
int64_t scan_piece_count(int64_t len, int64_t max_piece = kScanMaxPiece);

// Whether a bool row of `len` elements scans in int32 partials instead of NumPy's int64
// result type (converted on the store): its partial sums are at most `len` and its partial
// products 0 or 1, and a device-wide scan of 4-byte partials is faster than of 8-byte ones.
bool bool_scan_fits_int32(int64_t len);

}  // namespace gpuarr
