#include "core/sorting.hpp"

#include <string>

#include "core/errors.hpp"

namespace gpuarr {

Dims axis_last_permutation(int64_t ndim, int64_t axis) {
  Dims perm;
  perm.reserve(static_cast<size_t>(ndim));
  for (int64_t d = 0; d < ndim; ++d)
    if (d != axis) perm.push_back(d);
  perm.push_back(axis);
  return perm;
}

Dims inverse_permutation(const Dims& perm) {
  Dims inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}

int64_t normalize_kth(int64_t kth, int64_t n) {
  const int64_t k = kth < 0 ? kth + n : kth;
  if (k < 0 || k >= n)
    throw ValueError("kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(n) + ")");
  return k;
}

}  // namespace gpuarr
