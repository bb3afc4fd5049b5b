#include <gtest/gtest.h>

#include "core/eigen_plan.hpp"
#include "core/linalg_plan.hpp"
#include "core/routing_thresholds.hpp"

using namespace gpuarr;

TEST(RoutingThresholds, MeasuredRowAndFallback) {
  EXPECT_TRUE(routing_thresholds_measured(90));
  EXPECT_EQ(routing_thresholds_for(90).compute_capability, 90);
  // Any other architecture: the fallback row, which carries the H100's figures.
  for (int cc : {0, 70, 80, 86, 89, 100, 120}) {
    EXPECT_FALSE(routing_thresholds_measured(cc));
    const RoutingThresholds& t = routing_thresholds_for(cc);
    EXPECT_EQ(t.compute_capability, 0);
    EXPECT_STREQ(t.measured_on, routing_thresholds_for(90).measured_on);
    EXPECT_EQ(t.eigh_rules, routing_thresholds_for(90).eigh_rules);
    EXPECT_EQ(t.conv_direct_max_taps, routing_thresholds_for(90).conv_direct_max_taps);
  }
}

TEST(RoutingThresholds, RowsAreWellFormed) {
  for (int cc : {0, 90}) {
    const RoutingThresholds& t = routing_thresholds_for(cc);
    ASSERT_GT(t.eigh_rule_count, 0u);
    // The eigh table ends in a row every input matches (syevd for any n and batch >= 1).
    const EighRule& last = t.eigh_rules[t.eigh_rule_count - 1];
    EXPECT_EQ(last.method, EigMethod::Syevd);
    EXPECT_EQ(last.min_batch, 1);
    EXPECT_EQ(last.min_n, 0);
    EXPECT_FALSE(last.real_only || last.values_only || last.vectors_only);
    // det's batch steps rise in n and in batch and start above the single-matrix bound.
    int64_t prev_n = t.det_cublas_single_max_n, prev_b = 1;
    for (size_t i = 0; i < t.det_cublas_batch_step_count; ++i) {
      EXPECT_GT(t.det_cublas_batch_steps[i].max_n, prev_n);
      EXPECT_GE(t.det_cublas_batch_steps[i].min_batch, prev_b);
      prev_n = t.det_cublas_batch_steps[i].max_n;
      prev_b = t.det_cublas_batch_steps[i].min_batch;
    }
    EXPECT_GT(t.lu_batched_max_n, 0);
    EXPECT_GT(t.own_lu_wide_block_min_n, 0);
    EXPECT_GT(t.conv_direct_max_taps, 0);
  }
}

TEST(RoutingThresholds, PlansFollowTheRow) {
  // A row with other figures changes the plans' choices: the plans read the row, not
  // constants of their own.
  RoutingThresholds t = routing_thresholds_for(90);
  const int64_t n = t.det_cublas_single_max_n + 1;
  EXPECT_EQ(choose_lu_route(n, 1, LuPurpose::Det, -1, t), LuRoute::CusolverPerMatrix);
  t.det_cublas_single_max_n = n;
  EXPECT_EQ(choose_lu_route(n, 1, LuPurpose::Det, -1, t), LuRoute::CublasBatched);
  EXPECT_EQ(choose_lu_route(t.lu_batched_max_n, 4, LuPurpose::InvSolve, 0, t),
            LuRoute::CublasBatched);
  t.lu_batched_max_n = 8;
  EXPECT_EQ(choose_lu_route(9, 4, LuPurpose::InvSolve, 0, t), LuRoute::CusolverPerMatrix);
  t.own_lu_wide_block_min_n = 1024;
  EXPECT_EQ(own_lu_outer_block(1024, 64, t), 256);
  EXPECT_EQ(own_lu_outer_block(1023, 64, t), 64);
}
