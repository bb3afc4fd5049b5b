#include "core/reduction_plan.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/errors.hpp"

namespace gpuarr {

std::vector<int64_t> normalize_axes(const std::vector<int64_t>& axes, int64_t ndim) {
  std::vector<int64_t> out;
  out.reserve(axes.size());
  for (int64_t a : axes) {
    const int64_t n = normalize_axis(a, ndim);
    if (std::find(out.begin(), out.end(), n) != out.end())
      throw ValueError("duplicate value in 'axis'");
    out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

ReductionPlan plan_reduction(const Dims& shape, const Dims& strides,
                             const std::vector<int64_t>& axes, bool keepdims,
                             int64_t sm_count) {
  ReductionPlan p;
  const size_t nd = shape.size();
  std::vector<bool> reduced(nd, false);
  for (int64_t a : axes) reduced[static_cast<size_t>(a)] = true;
  Dims ks, kst, rs, rst;
  for (size_t d = 0; d < nd; ++d) {
    if (reduced[d]) {
      rs.push_back(shape[d]);
      rst.push_back(strides[d]);
      if (keepdims) p.out_shape.push_back(1);
    } else {
      ks.push_back(shape[d]);
      kst.push_back(strides[d]);
      p.out_shape.push_back(shape[d]);
    }
  }
  p.n_out = shape_size(ks);
  p.n_reduce = shape_size(rs);
  // Coalesce each group on its own (C order kept: flat indices stay NumPy's).
  std::vector<Dims> k1{kst};
  if (ks.empty()) { ks = {1}; k1 = {{0}}; }
  if (p.n_out > 0) coalesce_dims(ks, k1);
  std::vector<Dims> r1{rst};
  if (rs.empty()) { rs = {1}; r1 = {{0}}; }
  if (p.n_reduce > 0) coalesce_dims(rs, r1);
  p.kept_shape = ks;
  p.kept_strides = k1[0];
  p.reduced_shape = rs;
  p.reduced_strides = r1[0];

  // Inner when the innermost reduced dim is the densest access; outer when a kept dim is.
  auto min_abs = [](const Dims& s, const Dims& sh) {
    int64_t m = INT64_MAX;
    for (size_t i = 0; i < s.size(); ++i)
      if (sh[i] > 1) m = std::min<int64_t>(m, std::llabs(s[i]));
    return m;
  };
  const int64_t r_inner = p.reduced_shape.back() > 1 ? std::llabs(p.reduced_strides.back()) : INT64_MAX;
  const int64_t k_min = min_abs(p.kept_strides, p.kept_shape);
  p.strategy = (p.n_out > 1 && k_min < r_inner) ? ReduceStrategy::Outer : ReduceStrategy::Inner;

  // Split the reduced range when the outputs alone cannot fill the GPU.
  const int64_t sms = std::max<int64_t>(sm_count, 1);
  int64_t chunks = 1;
  if (p.n_reduce > 1 && p.n_out > 0) {
    if (p.strategy == ReduceStrategy::Inner) {
      // A block per output and chunk, one wave of them.
      const int64_t blocks_wanted = sms * kReduceInnerBlocksPerSm;
      if (p.n_out < blocks_wanted) chunks = std::max<int64_t>(1, blocks_wanted / p.n_out);
      chunks = std::min<int64_t>(chunks, std::max<int64_t>(1, p.n_reduce / 2048));
    } else {
      // Half the GPU's threads: each keeps four loads in flight, which is enough to cover
      // HBM latency (axis 0 of 8192^2 float32 on the H100: 97 us with 16 row chunks, 101
      // with the 32 that a full GPU of threads gave; 2048 and 32768 columns alike).
      const int64_t target_threads = sms * 1024;
      if (p.n_out < target_threads) chunks = std::max<int64_t>(1, target_threads / p.n_out);
      chunks = std::min<int64_t>(chunks, std::max<int64_t>(1, p.n_reduce / 16));
    }
  }
  p.chunks = std::max<int64_t>(1, std::min<int64_t>(chunks, 65535));
  p.lane_group_per_output = p.strategy == ReduceStrategy::Inner &&
                            p.reduced_shape.size() == 1 && p.chunks == 1 &&
                            p.n_out >= sms * kReduceInnerBlocksPerSm * kReduceWarps / 2;
  return p;
}

int64_t reduce_chunk_len(int64_t n_reduce, int64_t chunks, int64_t block_tile) {
  const int64_t even = (n_reduce + chunks - 1) / std::max<int64_t>(1, chunks);
  const int64_t unit = block_tile > 0 && even >= 4 * block_tile ? block_tile : 64;
  return std::max<int64_t>(64, (even + unit - 1) / unit * unit);
}

int reduce_lanes_per_output(int64_t n_reduce, int64_t item_size, ReduceLoads loads) {
  const int64_t lane_loads = std::max<int64_t>(1, n_reduce * item_size / loads.bytes());
  int lanes = 1;
  while (lanes < 32 && lanes * 2 <= lane_loads) lanes *= 2;
  return lanes;
}

}  // namespace gpuarr
