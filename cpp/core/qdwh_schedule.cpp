#include "core/qdwh_schedule.hpp"

#include <cmath>

namespace gpuarr {

std::vector<QdwhStep> qdwh_schedule(double eps) {
  std::vector<QdwhStep> steps;
  double l = eps;
  // The bound grows monotonically to 1 (from eps = 2^-52 in 6 steps); the cap only guards
  // against a nonsensical eps.
  while (std::abs(1 - l) >= 10 * eps && steps.size() < 32) {
    const double l2 = l * l;
    const double dd = std::cbrt(4 * (1 / l2 - 1) / l2);
    const double sqd = std::sqrt(1 + dd);
    QdwhStep s;
    s.a = sqd + std::sqrt(8 - 4 * dd + 8 * (2 - l2) / (l2 * sqd)) / 2;
    s.b = (s.a - 1) * (s.a - 1) / 4;
    s.c = s.a + s.b - 1;
    s.qr = s.c > 100;
    l = l * (s.a + s.b * l2) / (1 + s.c * l2);
    steps.push_back(s);
  }
  return steps;
}

}  // namespace gpuarr
