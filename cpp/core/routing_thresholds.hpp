// The sizes at which gpuarr switches from one algorithm or library to another (eigh's method,
// det's and inv/solve's LU routine, the own LU's block, convolve's direct kernel or cuFFT).
// They are measurements of one GPU, so they are data per architecture: one row per compute
// capability they were measured on, and a fallback row for every other GPU. docs/routing.md
// says how each was measured and how to add the row of another GPU. Plain C++ (no CUDA):
// cpp/tests/test_routing_thresholds.cpp.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/eigen_plan.hpp"

namespace gpuarr {

// det of a batch of n x n matrices: cuBLAS getrfBatched for the whole batch from min_batch
// matrices on, for n up to max_n (the first step with n <= max_n applies).
struct DetBatchStep {
  int64_t max_n;
  int64_t min_batch;
};

struct RoutingThresholds {
  int compute_capability;  // 10 * major + minor of the GPU measured; 0: the fallback row
  const char* measured_on;
  // eigh/eigvalsh "auto": the crossover table (first matching row wins).
  const EighRule* eigh_rules;
  size_t eigh_rule_count;
  // det: one matrix takes cuBLAS getrfBatched up to this n, cuSOLVER Xgetrf above; ...
  int64_t det_cublas_single_max_n;
  // ... batches take it from the batch size of the first step whose max_n >= n.
  const DetBatchStep* det_cublas_batch_steps;
  size_t det_cublas_batch_step_count;
  // inv/solve: batches (> 1 matrix) of n up to this take cuBLAS's batched LU.
  int64_t lu_batched_max_n;
  // The own blocked LU's outer block widens to 256 columns from this n.
  int64_t own_lu_wide_block_min_n;
  // convolve/correlate (method 'auto', and numpy.convolve of floats): the direct kernel up
  // to this many filter taps, cuFFT above.
  int64_t conv_direct_max_taps;
};

// The thresholds of a device of compute capability `cc` (10 * major + minor): the row
// measured on that architecture, else the fallback row (the H100's figures).
const RoutingThresholds& routing_thresholds_for(int cc);
// Whether `cc` has a measured row of its own.
bool routing_thresholds_measured(int cc);

}  // namespace gpuarr
