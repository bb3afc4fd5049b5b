// What cub::DeviceScan reads and writes for a cumulative sum or product of one piece of a
// row (cpp/ops/scan.cu), in a header of its own so that tools/probes/scan_forms.cu times
// the library's form itself.
#pragma once
#include <cstdint>

#include "ops/elementwise.cuh"
#include "ops/reduce.cuh"

namespace gpuarr {

// Element j of one piece of a row, mapped to the accumulator; the first element of a piece
// after the first is combined with the last result of the piece before (`carry`, already
// an output: exact in the accumulator, as float16 scans round every partial to float16).
template <class Op, class In, class Out> struct ScanPieceLoad {
  Op op;
  const In* in;
  const Out* carry;  // null for a row's first piece
  __device__ typename Op::Acc operator()(uint32_t j) const {
    typename Op::Acc x = op.map(to_compute(in[j]), j);
    if (carry != nullptr && j == 0)
      x = op.combine(acc_convert<typename Op::Acc>(to_compute(*carry)), x);
    return x;
  }
};

// A scan result stored in the output dtype.
template <class Out> struct ScanStore {
  template <class Acc> __device__ Out operator()(const Acc& a) const { return from_compute<Out>(a); }
};

}  // namespace gpuarr
