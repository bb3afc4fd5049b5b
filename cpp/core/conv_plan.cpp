#include "core/conv_plan.hpp"

#include <algorithm>

#include "core/errors.hpp"

namespace gpuarr {

ConvMode parse_conv_mode(const std::string& mode) {
  if (mode == "valid") return ConvMode::Valid;
  if (mode == "same") return ConvMode::Same;
  if (mode == "full") return ConvMode::Full;
  throw ValueError("Acceptable mode flags are 'valid', 'same', or 'full'.");
}

ConvMode parse_numpy_conv_mode(const std::string& mode) {
  if (mode == "valid") return ConvMode::Valid;
  if (mode == "same") return ConvMode::Same;
  if (mode == "full") return ConvMode::Full;
  throw ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode");
}

ConvBoundary parse_conv_boundary(const std::string& b) {
  if (b == "fill" || b == "pad") return ConvBoundary::Fill;
  if (b == "symm" || b == "symmetric") return ConvBoundary::Symm;
  if (b == "wrap" || b == "circular") return ConvBoundary::Wrap;
  throw ValueError("Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and "
                   "'symmetric' (or 'symm').");
}

ConvAxisPlan conv_axis_plan(int64_t n, int64_t k, ConvMode mode, SamePad same_pad) {
  if (n < 0 || k < 0) throw ValueError("negative axis length");
  switch (mode) {
    case ConvMode::Full:
      return {std::max<int64_t>(n + k - 1, 0), k - 1};
    case ConvMode::Same:
      return {n, same_pad == SamePad::HalfUp ? k / 2 : (k - 1) / 2};
    case ConvMode::Valid:
    default:
      // The outputs where the shorter operand lies wholly inside the longer one (the
      // centre of 'full'): with k > n this is what SciPy computes after swapping.
      if (n == 0 || k == 0) return {0, 0};
      return {(n >= k ? n - k : k - n) + 1, std::max<int64_t>(k - n, 0)};
  }
}

}  // namespace gpuarr
