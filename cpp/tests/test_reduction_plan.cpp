#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/reduction_plan.hpp"

using namespace gpuarr;

TEST(ReductionPlan, InnerAxisOfCOrder) {
  const Dims shape{8192, 8192}, strides{8192 * 4, 4};
  auto p = plan_reduction(shape, strides, {1}, false, 132);
  EXPECT_EQ(p.strategy, ReduceStrategy::Inner);
  EXPECT_EQ(p.out_shape, (Dims{8192}));
  EXPECT_EQ(p.n_out, 8192);
  EXPECT_EQ(p.n_reduce, 8192);
}

TEST(ReductionPlan, OuterAxisOfCOrderSplits) {
  const Dims shape{8192, 8192}, strides{8192 * 4, 4};
  auto p = plan_reduction(shape, strides, {0}, true, 132);
  EXPECT_EQ(p.strategy, ReduceStrategy::Outer);
  EXPECT_EQ(p.out_shape, (Dims{1, 8192}));
  EXPECT_EQ(p.chunks, 16);  // 132 SMs x 1024 threads over 8192 outputs
}

TEST(ReductionPlan, WholeArrayCoalescesAndSplits) {
  const Dims shape{4, 1024, 1024}, strides{1024 * 1024 * 4, 1024 * 4, 4};
  auto p = plan_reduction(shape, strides, {0, 1, 2}, false, 132);
  EXPECT_EQ(p.reduced_shape, (Dims{4 * 1024 * 1024}));
  EXPECT_EQ(p.out_shape, Dims{});
  EXPECT_EQ(p.n_out, 1);
  EXPECT_EQ(p.chunks, 132 * kReduceInnerBlocksPerSm);  // one wave of Inner blocks
}

TEST(ReductionPlan, FewOutputsShareOneWave) {
  const Dims shape{256, 1 << 16}, strides{(1 << 16) * 4, 4};
  auto p = plan_reduction(shape, strides, {1}, false, 132);
  EXPECT_EQ(p.strategy, ReduceStrategy::Inner);
  EXPECT_EQ(p.chunks, 132 * kReduceInnerBlocksPerSm / 256);
  // Short ranges are not split below 2048 elements a chunk.
  auto q = plan_reduction(Dims{1, 4096}, Dims{4096 * 4, 4}, {1}, false, 132);
  EXPECT_EQ(q.chunks, 2);
}

TEST(ReductionPlan, ManyOutputsTakeAWarpEach) {
  // Half a wave of warps on 132 SMs: 132 * kReduceInnerBlocksPerSm * 8 / 2 outputs.
  const int64_t half_wave = 132 * kReduceInnerBlocksPerSm * kReduceWarps / 2;
  auto rows = [](int64_t n_rows, int64_t n) {
    return plan_reduction(Dims{n_rows, n}, Dims{n * 4, 4}, {1}, false, 132);
  };
  EXPECT_TRUE(rows(half_wave, 1024).lane_group_per_output);
  EXPECT_TRUE(rows(4096, 4096).lane_group_per_output);
  EXPECT_EQ(rows(4096, 4096).chunks, 1);
  EXPECT_FALSE(rows(half_wave - 1, 1024).lane_group_per_output);  // a block an output
  // Along axis 0 (a thread an output) and over two reduced dims: never.
  EXPECT_FALSE(plan_reduction(Dims{4096, 4096}, Dims{4096 * 4, 4}, {0}, false, 132).lane_group_per_output);
  const auto two = plan_reduction(Dims{4096, 3, 5}, Dims{120, 40, 4}, {1, 2}, false, 132);  // [:, ::2]
  EXPECT_EQ(two.strategy, ReduceStrategy::Inner);
  EXPECT_EQ(two.reduced_shape, (Dims{3, 5}));
  EXPECT_FALSE(two.lane_group_per_output);
}

TEST(ReductionPlan, LanesPerOutputFollowTheRowBytes) {
  const ReduceLoads sum = reduce_loads(false, 4);  // four 16-byte vectors in flight
  EXPECT_EQ(sum.bytes(), 64);
  EXPECT_EQ(reduce_lanes_per_output(32, 4, sum), 2);     // 128 bytes: 64 a lane
  EXPECT_EQ(reduce_lanes_per_output(256, 4, sum), 16);   // 1 KB
  EXPECT_EQ(reduce_lanes_per_output(512, 4, sum), 32);   // 2 KB: the whole warp
  EXPECT_EQ(reduce_lanes_per_output(4096, 8, reduce_loads(false, 8)), 32);  // long rows
  EXPECT_EQ(reduce_lanes_per_output(37, 4, sum), 2);     // 148 bytes
  EXPECT_EQ(reduce_lanes_per_output(3, 1, reduce_loads(false, 1)), 1);  // a lane an output
  EXPECT_EQ(reduce_lanes_per_output(1, 16, reduce_loads(false, 16)), 1);
  // argmax/argmin: two vectors of at most 4 elements in flight, so shorter rows fill a lane.
  EXPECT_EQ(reduce_loads(true, 1).vector_bytes, 4);
  EXPECT_EQ(reduce_loads(true, 1).bytes(), 8);
  EXPECT_EQ(reduce_loads(true, 4).bytes(), 32);
  EXPECT_EQ(reduce_loads(true, 16).vector_bytes, 16);
  EXPECT_EQ(reduce_lanes_per_output(256, 1, reduce_loads(true, 1)), 32);  // 32 x 8 bytes
  EXPECT_EQ(reduce_lanes_per_output(256, 4, reduce_loads(true, 4)), 32);
  EXPECT_EQ(reduce_lanes_per_output(64, 4, reduce_loads(true, 4)), 8);
}

TEST(ReductionPlan, ChunksHoldWholeBlockSteps) {
  const int64_t step = kReduceThreads * 4 * 4;  // 16-byte vectors of float32, four a thread
  // 16M float32 over 528 chunks: 31776 each, rounded to eight steps, 512 chunks.
  EXPECT_EQ(reduce_chunk_len(int64_t(1) << 24, 528, step), 8 * step);
  // A chunk of under four steps keeps 64-element rounding (rounding to whole steps could
  // halve the blocks).
  EXPECT_EQ(reduce_chunk_len(int64_t(1) << 22, 528, step), 8000);
  EXPECT_EQ(reduce_chunk_len(4 * step * 528, 528, step), 4 * step);  // exactly four steps
  EXPECT_EQ(reduce_chunk_len(4 * step * 528 + 1, 528, step), 5 * step);
  // Chunks not read a block's step at a time, and short rows: 64-element rounding.
  EXPECT_EQ(reduce_chunk_len(int64_t(1) << 24, 528, 0), 31808);
  EXPECT_EQ(reduce_chunk_len(100, 4, step), 64);
  EXPECT_EQ(reduce_chunk_len(1, 1, step), 64);
  // The chunks never outnumber the planned ones.
  for (const int64_t n : {int64_t(1) << 24, int64_t(9000011), int64_t(123456789)}) {
    for (const int64_t chunks : {int64_t(1), int64_t(264), int64_t(528)}) {
      const int64_t len = reduce_chunk_len(n, chunks, step);
      EXPECT_LE((n + len - 1) / len, chunks) << n << " " << chunks;
      EXPECT_EQ(len % 64, 0);
    }
  }
}

TEST(ReductionPlan, NonContiguousKeepsCOrder) {
  // A transposed view: reduced dims keep their logical order (flat index as NumPy's).
  const Dims shape{3, 5}, strides{8, 24};
  auto p = plan_reduction(shape, strides, {0, 1}, false, 132);
  EXPECT_EQ(p.reduced_shape, (Dims{3, 5}));
  EXPECT_EQ(p.reduced_strides, (Dims{8, 24}));
}

TEST(ReductionPlan, NormalizeAxes) {
  EXPECT_EQ(normalize_axes({-1, 0}, 3), (std::vector<int64_t>{0, 2}));
  EXPECT_THROW(normalize_axes({0, -3}, 3), ValueError);
  EXPECT_THROW(normalize_axes({3}, 3), AxisError);
}
