#include "core/linalg_plan.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "core/errors.hpp"

namespace gpuarr {

namespace {
// The kernels' group and tile widths: the power of two >= n, at least `smallest`.
int power_of_two_at_least(int64_t n, int smallest) {
  int w = smallest;
  while (w < n) w *= 2;
  return w;
}
}  // namespace

LuRoute choose_lu_route(int64_t n, int64_t batch, LuPurpose purpose, int64_t det_cublas_max_n,
                        const RoutingThresholds& t) {
  if (n > INT_MAX || batch > INT_MAX) return LuRoute::CusolverPerMatrix;
  if (purpose == LuPurpose::Det) {
    if (det_cublas_max_n >= 0)
      return n <= det_cublas_max_n ? LuRoute::CublasBatched : LuRoute::CusolverPerMatrix;
    if (n <= t.det_cublas_single_max_n) return LuRoute::CublasBatched;
    return batch >= det_cublas_min_batch(n, t) ? LuRoute::CublasBatched
                                               : LuRoute::CusolverPerMatrix;
  }
  return (batch > 1 && n <= t.lu_batched_max_n) ? LuRoute::CublasBatched
                                                : LuRoute::CusolverPerMatrix;
}

int64_t det_cublas_min_batch(int64_t n, const RoutingThresholds& t) {
  if (n <= t.det_cublas_single_max_n) return 1;
  for (size_t i = 0; i < t.det_cublas_batch_step_count; ++i)
    if (n <= t.det_cublas_batch_steps[i].max_n) return t.det_cublas_batch_steps[i].min_batch;
  return INT64_MAX;
}

bool use_own_lu(int64_t n, bool real_float, int64_t own_max_n, OwnLuMode mode) {
  return mode == OwnLuMode::Rule && real_float && n >= 1 && n <= own_max_n;
}

int64_t own_lu_outer_block(int64_t n, int64_t panel_width, const RoutingThresholds& t) {
  return n >= t.own_lu_wide_block_min_n ? std::max<int64_t>(256, panel_width) : panel_width;
}

bool use_cholesky_batched(int64_t n, int64_t batch) {
  return batch > 1 && batch <= INT_MAX && n >= 1 && n <= kCholeskyBatchedMaxN;
}

bool use_svd_polar(int64_t m, int64_t n, int64_t batch, bool real_float, bool full_matrices,
                   bool compute_uv, int64_t min_n) {
  return min_n > 0 && batch == 1 && real_float && std::min(m, n) >= min_n &&
         !(compute_uv && full_matrices && m != n);
}

bool use_svd_jacobi_batched(int64_t m, int64_t n, int64_t batch) {
  return batch > 1 && batch <= INT_MAX && m >= 1 && n >= 1 && m <= kSvdJacobiMaxDim &&
         n <= kSvdJacobiMaxDim;
}

bool use_small_inverse(int64_t n, DType t, OwnLuMode mode) {
  return mode == OwnLuMode::Rule && (t == DType::Float32 || t == DType::Float64) && n >= 1 &&
         n <= kSmallInverseMaxN;
}

bool use_small_solve(int64_t n, int64_t columns, DType t, OwnLuMode mode) {
  if (!use_small_inverse(n, t, mode) || columns < 1 || columns > kSmallSolveMaxColumns) return false;
  return columns == 1 || n <= 32 || t == DType::Float32;
}

int small_matrix_group_width(int64_t n) { return power_of_two_at_least(n, 4); }

int qr_small_rows_tile(int64_t m) { return power_of_two_at_least(m, 16); }

bool use_qr_small(int64_t m, int64_t n, int64_t mc, int64_t batch, bool is_complex,
                  int64_t own_max_n) {
  if (is_complex || own_max_n <= 0) return false;
  if (m < 1 || n < 1 || mc < 0 || mc > m || batch < 1 || batch > INT_MAX) return false;
  const int64_t limit = std::min(own_max_n, kQrSmallMaxDim);
  return m <= limit && n <= limit;
}

namespace {
Dims with(Dims batch, int64_t a, int64_t b) {
  batch.push_back(a);
  batch.push_back(b);
  return batch;
}
}  // namespace

SvdPlan plan_svd(const Dims& shape, bool full_matrices) {
  if (shape.size() < 2) throw ValueError("plan_svd: a matrix is needed");
  const Dims batch(shape.begin(), shape.end() - 2);
  const int64_t m = shape[shape.size() - 2], n = shape.back();
  SvdPlan p;
  p.k = std::min(m, n);
  p.transposed = m < n;
  p.mm = p.transposed ? n : m;
  p.nn = p.transposed ? m : n;
  p.uc = full_matrices ? p.mm : p.nn;
  p.ubuf_shape = with(batch, p.uc, p.mm);
  p.vtbuf_shape = with(batch, p.nn, p.nn);
  p.s_shape = batch;
  p.s_shape.push_back(p.k);
  p.u_shape = with(batch, m, full_matrices ? m : p.k);
  p.vh_shape = with(batch, full_matrices ? n : p.k, n);
  return p;
}

QrPlan plan_qr(const Dims& shape, bool complete) {
  if (shape.size() < 2) throw ValueError("plan_qr: a matrix is needed");
  const Dims batch(shape.begin(), shape.end() - 2);
  QrPlan p;
  p.m = shape[shape.size() - 2];
  p.n = shape.back();
  p.k = std::min(p.m, p.n);
  p.mc = (complete && p.m > p.n) ? p.m : p.k;
  p.h_shape = with(batch, p.n, p.m);
  p.tau_shape = batch;
  p.tau_shape.push_back(p.k);
  p.qbuf_shape = with(batch, p.mc, p.m);
  p.q_shape = with(batch, p.m, p.mc);
  p.r_shape = with(batch, p.mc, p.n);
  return p;
}

}  // namespace gpuarr
