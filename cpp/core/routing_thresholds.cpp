#include "core/routing_thresholds.hpp"

#include <iterator>
#include <limits>

namespace gpuarr {

namespace {

constexpr int64_t kAnyN = std::numeric_limits<int64_t>::max();

// eigh/eigvalsh "auto" on the H100 (2026-11-21, `python -m benchmarks.eigen [--vectors|
// --probe]`, us per call, float32 with vectors). The library: Jacobi (own_jacobi) wins at
// n <= 16 (42-152 us), syevjBatched at n <= 32, then XsyevBatched for batches (449 us at
// 45x100, 1035 at 100x100) and syevd for one matrix of n >= 100. The tridiagonal + QL kernel
// ("own" with vectors) takes about the same time for any batch that fits one wave (it is
// bound by each matrix's serial QL chain: ~0.32 ms at n = 32, 0.42 at 45, 0.70 at 64,
// 1.5-2.0 at 100, 2.5 at 128), while the library's time grows with the batch: so own wins
// from a batch size that grows with n (it also beats the Jacobi kernel at n <= 16: 37-130 us
// against 39-149; 1000x32: 323 vs syevj 562; 256x45: 415 vs XsyevBatched 582; 100x64: 704
// vs 498; 500x100: 1985 vs 2924; 10x100: 1556 vs 728; 100x128: 2492 vs 1231). The own
// kernel rows apply only where it fits in shared memory and to real dtypes.
constexpr EighRule kH100EighRules[] = {
    {336, 2, true, true, EigMethod::Own},          // eigenvalues only: tridiagonal kernel
    {128, 1, true, true, EigMethod::Own},          // one real matrix, values only (100: 0.40 vs syevd 0.54 ms)
    {16, 1, true, false, EigMethod::Own, true},    // vectors: tridiagonal + QL ...
    {32, 400, true, false, EigMethod::Own, true},  // ... from the batch where it wins
    {kSyevjBatchedMaxN, 1, false, false, EigMethod::Syevj},  // small matrices
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
