// The tiles cub::DeviceScan runs the library's device-wide scans with (ops/scan.cu), in a
// header of its own so that tools/probes/scan_forms.cu times the same dispatch with other
// tiles.
//
// CUB picks its tuned sm_90 policies only for `plus` and the other operators it knows; the
// library's operator (CombineOp of a sum or product op, which also rounds float16 partials)
// gets CUB's untuned default, 128 threads x 15 items. 128 x 32 items with CUB's float
// look-back delay measured fastest or within 3% of it among 128 x 15/24/32/40/48/64,
// 192 x 32, 224 x 24 and 256 x 16/32 on the H200 (docs/decisions.md): cumsum of 16M
// float32 back to back 57 -> 49 us, float64 97 -> 85, int32 -> int64 92 -> 74, int64
// 97 -> 81.
#pragma once
#include <cstdint>
#include <iterator>

#include <cub/device/dispatch/dispatch_scan.cuh>

namespace gpuarr {

// One policy on every architecture: `Threads` x `Items` (nominal for 4-byte accumulators;
// CUB scales the items down for wider ones), warp-transposed loads and stores, and the
// look-back's fixed delay (`DelayBase` ns, `DelayWindow`).
template <class Acc, int Threads = 128, int Items = 32, int DelayBase = 688, int DelayWindow = 1140>
struct ScanTilePolicy {
  struct Policy : cub::ChainedPolicy<500, Policy, Policy> {
    using ScanPolicyT = cub::AgentScanPolicy<
        Threads, Items, Acc, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
        cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS,
        cub::detail::MemBoundScaling<Threads, Items, Acc>,
        cub::detail::fixed_delay_constructor_t<DelayBase, DelayWindow>>;
  };
  using MaxPolicy = Policy;
};

// cub::DeviceScan::InclusiveScan of `n` elements with the tiles of the policy hub `Policy`
// (a ScanTilePolicy): the first call with a null `tmp` sets `bytes`.
template <class Policy, class InIt, class OutIt, class ScanOp>
cudaError_t inclusive_scan_with(void* tmp, size_t& bytes, InIt in, OutIt out, ScanOp op, uint32_t n,
                                cudaStream_t stream) {
  using Acc = typename std::iterator_traits<InIt>::value_type;
  using Dispatch = cub::DispatchScan<InIt, OutIt, ScanOp, cub::NullType, uint32_t, Acc,
                                     cub::ForceInclusive::No, Policy>;
  return Dispatch::Dispatch(tmp, bytes, in, out, op, cub::NullType{}, n, stream);
}

}  // namespace gpuarr
