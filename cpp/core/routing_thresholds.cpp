#include "core/routing_thresholds.hpp"

#include <iterator>
#include <limits>

namespace gpuarr {

namespace {

constexpr int64_t kAnyN = std::numeric_limits<int64_t>::max();

// eigh/eigvalsh "auto" on the H100 and the H200 (compute capability 9.0). Values only
// (H100, 2026-11-21, `python -m benchmarks.eigen [--probe]`): the tridiagonal + bisection
// kernel for batches up to n = 336 and one matrix up to 128, then XsyevBatched for batches
// and syevd for one matrix. With vectors (H200, 2026-11-28, `python -m
// tools.probes.probe_small_eigh --n 2,4,8,12,16,20,24,32 --batch 1,10,100,1000,4096` in
// float32 and float64, us per call, own kernel vs syevjBatched): the tridiagonal + QL kernel
// ("own") is bound by each matrix's serial QL chain and takes about the same time for any
// batch that fits one wave, while syevjBatched grows with the batch. n <= 4: own at any
// batch (4096x4: 58 vs 79); n = 8: own up to 1000 matrices (1000x8: 50 vs 62), syevj at 4096
// (141 vs 156; float64 202 vs 295); n = 12-16: syevj at every batch (1x16: 62 vs 99; 4096x16:
// 273 vs 425; float64 4096x16: 309 vs 887); n = 17-24: syevj for small batches, own from a
// few hundred (100x24: 112 vs 188; 1000x24: 255 vs 355; float64 1000x24: 457 vs 535); n = 32:
// own from a few hundred in float32 (1000x32: 330 vs 500) but syevj at every batch in
// float64 (1000x32: 650 vs 1029; 4096x32: 2395 vs 4030). Beyond syevjBatched's n <= 32, the
// own kernel against XsyevBatched/syevd (H100, 2026-11-21: 256x45: 415 vs XsyevBatched 582;
// 100x64: 704 vs 498; 500x100: 1985 vs 2924; 10x100: 1556 vs 728; 100x128: 2492 vs 1231).
// The own kernel rows apply only where it fits in shared memory and to real dtypes.
constexpr EighRule kH100EighRules[] = {
    {336, 2, true, true, EigMethod::Own},          // eigenvalues only: tridiagonal kernel
    {128, 1, true, true, EigMethod::Own},          // one real matrix, values only (100: 0.40 vs syevd 0.54 ms)
    {4, 1, true, false, EigMethod::Own, true},     // vectors: tridiagonal + QL for n <= 4,
    {8, 1, true, false, EigMethod::Own, true, 0, 2047},  // n <= 8 below 2048 matrices,
    {24, 400, true, false, EigMethod::Own, true, 17},    // n = 17-24 from 400 matrices,
    {32, 400, true, false, EigMethod::Own, true, 25, kAnyN, true},  // n = 25-32 in float32
    {kSyevjBatchedMaxN, 1, false, false, EigMethod::Syevj},  // other matrices up to 32
    {48, 1, true, false, EigMethod::Own, true},
    {64, 150, true, false, EigMethod::Own, true},
    {100, 200, true, false, EigMethod::Own, true},
    // one large float64 matrix with vectors from n = 3072: divide and conquer (the plan
    // checks the dtype)
    {kTridiagDcMaxN, 1, true, false, EigMethod::TridiagDC, true, 3072, 1},
    {kAnyN, 2, false, false, EigMethod::XsyevBatched},
    {kAnyN, 1, false, false, EigMethod::Syevd},    // single large matrix (and fallback)
};

// det on the H100 (`python -m benchmarks.linalg --det-sweep`, ms per call, cuBLAS for the
// whole batch vs cuSOLVER per matrix): n = 128: 0.24 vs 0.21 each; n = 256: 1.0-1.1 vs 0.43
// each; n = 512: 6.1-9.7 vs 0.95 each.
constexpr DetBatchStep kH100DetBatchSteps[] = {{128, 2}, {256, 3}, {512, 8}};

// The eigh dc crossover (n = 3072) is `python -m tools.probes.probe_eigh_dc`; the own LU's
// wide block (n >= 4096: a rank-256 update runs nearer GEMM peak) is
// tools/probes/lu_blocked_probe.cu; inv/solve's batched LU bound (n <= 64) has no recorded
// sweep (docs/routing.md says how to take one); the convolution crossover is
// `python -m benchmarks.fftsignal --sweep` (docs/routing.md has the figures).
constexpr RoutingThresholds kH100{
    90,
    "NVIDIA H100 80GB HBM3 (sm_90)",
    kH100EighRules,
    std::size(kH100EighRules),
    127,
    kH100DetBatchSteps,
    std::size(kH100DetBatchSteps),
    64,
    4096,
    1024,
};

// Every other GPU: the H100's figures until its own row is measured (docs/routing.md).
constexpr RoutingThresholds kFallback = [] {
  RoutingThresholds t = kH100;
  t.compute_capability = 0;
  return t;
}();

constexpr const RoutingThresholds* kMeasured[] = {&kH100};

}  // namespace

const RoutingThresholds& routing_thresholds_for(int cc) {
  for (const RoutingThresholds* t : kMeasured)
    if (t->compute_capability == cc) return *t;
  return kFallback;
}

bool routing_thresholds_measured(int cc) {
  return routing_thresholds_for(cc).compute_capability != 0;
}

}  // namespace gpuarr
