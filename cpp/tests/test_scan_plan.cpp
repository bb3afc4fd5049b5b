#include <gtest/gtest.h>

#include "core/scan_plan.hpp"

using namespace gpuarr;

TEST(ScanPlan, OneLongRowIsDeviceWide) {
  EXPECT_EQ(choose_scan_path(1, int64_t(1) << 24), ScanPath::DeviceWidePerRow);
  EXPECT_EQ(choose_scan_path(2, 3'000'000), ScanPath::DeviceWidePerRow);
  EXPECT_EQ(choose_scan_path(1, kScanElemsPerLaunch), ScanPath::DeviceWidePerRow);
}

TEST(ScanPlan, ShortRowsStayBlockPerRow) {
  EXPECT_EQ(choose_scan_path(1, 1), ScanPath::BlockPerRow);
  EXPECT_EQ(choose_scan_path(1, 257), ScanPath::BlockPerRow);
  EXPECT_EQ(choose_scan_path(1, kScanElemsPerLaunch - 1), ScanPath::BlockPerRow);
}

TEST(ScanPlan, ManyRowsStayBlockPerRow) {
  // A square matrix along its rows: every row a block, already bandwidth-bound.
  EXPECT_EQ(choose_scan_path(4096, 4096), ScanPath::BlockPerRow);
  EXPECT_EQ(choose_scan_path(1'000'000, 100), ScanPath::BlockPerRow);
  EXPECT_EQ(choose_scan_path(1000, 100'000), ScanPath::BlockPerRow);
}

TEST(ScanPlan, CrossoverScalesWithRows) {
  EXPECT_EQ(choose_scan_path(16, 16 * kScanElemsPerLaunch), ScanPath::DeviceWidePerRow);
  EXPECT_EQ(choose_scan_path(16, 16 * kScanElemsPerLaunch - 1), ScanPath::BlockPerRow);
}

TEST(ScanPlan, EmptyIsBlockPerRow) {
  EXPECT_EQ(choose_scan_path(0, 1 << 20), ScanPath::BlockPerRow);
  EXPECT_EQ(choose_scan_path(3, 0), ScanPath::BlockPerRow);
}

TEST(ScanPlan, HugeRowsDoNotOverflow) {
  const int64_t big = int64_t(1) << 62;
  EXPECT_EQ(choose_scan_path(big, big), ScanPath::BlockPerRow);
  EXPECT_EQ(choose_scan_path(1, big), ScanPath::DeviceWidePerRow);
}

TEST(ScanPlan, PieceCount) {
  EXPECT_EQ(scan_piece_count(0), 0);
  EXPECT_EQ(scan_piece_count(1), 1);
  EXPECT_EQ(scan_piece_count(kScanMaxPiece), 1);
  EXPECT_EQ(scan_piece_count(kScanMaxPiece + 1), 2);
  EXPECT_EQ(scan_piece_count(10, 4), 3);
  EXPECT_EQ(scan_piece_count(8, 4), 2);
}

TEST(ScanPlan, BoolRowsFitInt32UpToItsMaximum) {
  EXPECT_TRUE(bool_scan_fits_int32(0));
  EXPECT_TRUE(bool_scan_fits_int32(int64_t(1) << 24));
  EXPECT_TRUE(bool_scan_fits_int32(INT32_MAX));
  EXPECT_FALSE(bool_scan_fits_int32(int64_t(INT32_MAX) + 1));
  EXPECT_FALSE(bool_scan_fits_int32(int64_t(1) << 40));
}
