#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/linalg_plan.hpp"
#include "core/qdwh_schedule.hpp"

using namespace gpuarr;

namespace {
const RoutingThresholds& h100() { return routing_thresholds_for(90); }
LuRoute choose_lu_route_h100(int64_t n, int64_t batch, LuPurpose purpose, int64_t max_n) {
  return choose_lu_route(n, batch, purpose, max_n, h100());
}
int64_t own_lu_outer_block_h100(int64_t n, int64_t panel_width) {
  return own_lu_outer_block(n, panel_width, h100());
}
Dims swap_last2(Dims d) {
  std::swap(d[d.size() - 1], d[d.size() - 2]);
  return d;
}
// A width rule (the power of two >= n, at least some width) at each (n, width).
void expect_widths(int (*width)(int64_t),
                   std::initializer_list<std::pair<int64_t, int>> cases) {
  for (const auto& [n, w] : cases) EXPECT_EQ(width(n), w) << "n = " << n;
}
}  // namespace

TEST(LinalgPlan, OwnLuRoute) {
  EXPECT_TRUE(use_own_lu(1, true, 8192, OwnLuMode::Rule));
  EXPECT_TRUE(use_own_lu(512, true, 8192, OwnLuMode::Rule));
  EXPECT_TRUE(use_own_lu(8192, true, 8192, OwnLuMode::Rule));
  EXPECT_FALSE(use_own_lu(8193, true, 8192, OwnLuMode::Rule));
  EXPECT_FALSE(use_own_lu(0, true, 8192, OwnLuMode::Rule));
  EXPECT_FALSE(use_own_lu(512, false, 8192, OwnLuMode::Rule));   // complex: cuSOLVER
  EXPECT_FALSE(use_own_lu(512, true, 0, OwnLuMode::Rule));       // no sm_90 clusters
  EXPECT_FALSE(use_own_lu(512, true, 8192, OwnLuMode::Never));   // GPUARR_LU_ROUTE=cusolver
  EXPECT_EQ(own_lu_outer_block_h100(512, 64), 64);
  EXPECT_EQ(own_lu_outer_block_h100(4095, 32), 32);
  EXPECT_EQ(own_lu_outer_block_h100(4096, 64), 256);
  EXPECT_EQ(own_lu_outer_block_h100(6000, 32), 256);
}

TEST(LinalgPlan, DetRouteMeasuredRule) {
  const auto det = [](int64_t n, int64_t batch) {
    return choose_lu_route_h100(n, batch, LuPurpose::Det, -1);
  };
  // One matrix: cuBLAS below 128, cuSOLVER from 128 on.
  EXPECT_EQ(det(1, 1), LuRoute::CublasBatched);
  EXPECT_EQ(det(16, 1), LuRoute::CublasBatched);
  EXPECT_EQ(det(127, 1), LuRoute::CublasBatched);
  EXPECT_EQ(det(128, 1), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(det(512, 1), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(det(2048, 1), LuRoute::CusolverPerMatrix);
  // Batches: cuBLAS up to 512 once the batch is large enough.
  EXPECT_EQ(det(16, 100), LuRoute::CublasBatched);
  EXPECT_EQ(det(64, 100), LuRoute::CublasBatched);
  EXPECT_EQ(det(128, 2), LuRoute::CublasBatched);
  EXPECT_EQ(det(128, 100), LuRoute::CublasBatched);
  EXPECT_EQ(det(256, 2), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(det(256, 3), LuRoute::CublasBatched);
  EXPECT_EQ(det(256, 100), LuRoute::CublasBatched);
  EXPECT_EQ(det(512, 7), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(det(512, 8), LuRoute::CublasBatched);
  EXPECT_EQ(det(512, 100), LuRoute::CublasBatched);
  EXPECT_EQ(det(513, 100), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(det(1024, 100), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(det(8, int64_t(1) << 32), LuRoute::CusolverPerMatrix);
  // The override (>= 0): cuBLAS iff n <= it.
  EXPECT_EQ(choose_lu_route_h100(512, 1, LuPurpose::Det, 512), LuRoute::CublasBatched);
  EXPECT_EQ(choose_lu_route_h100(16, 100, LuPurpose::Det, 0), LuRoute::CusolverPerMatrix);
}

TEST(LinalgPlan, QrSmallRoute) {
  const int64_t d = kQrOwnDefaultMaxN;
  EXPECT_TRUE(use_qr_small(64, 64, 64, 1, false, d));
  EXPECT_TRUE(use_qr_small(1, 64, 1, 1000, false, d));
  EXPECT_TRUE(use_qr_small(64, 1, 64, 3, false, d));  // complete Q of a column
  EXPECT_TRUE(use_qr_small(5, 3, 0, 2, false, d));    // mode 'r'
  EXPECT_FALSE(use_qr_small(65, 64, 64, 1, false, d));
  EXPECT_FALSE(use_qr_small(64, 65, 64, 1, false, d));
  EXPECT_FALSE(use_qr_small(8, 8, 8, 1, true, d));    // complex: cuSOLVER
  EXPECT_FALSE(use_qr_small(8, 8, 8, 1, false, 0));   // env 0: off
  EXPECT_FALSE(use_qr_small(0, 3, 0, 1, false, d));   // empty: the generic path
  EXPECT_FALSE(use_qr_small(3, 0, 0, 1, false, d));
  EXPECT_FALSE(use_qr_small(3, 3, 3, 0, false, d));
  EXPECT_FALSE(use_qr_small(3, 3, 4, 1, false, d));   // Q has at most m columns
  EXPECT_FALSE(use_qr_small(3, 3, 3, int64_t(1) << 32, false, d));
  // A lower env limit applies; a higher one stops at the register kernel's 64 rows.
  EXPECT_TRUE(use_qr_small(32, 32, 32, 1, false, 32));
  EXPECT_FALSE(use_qr_small(33, 8, 8, 1, false, 32));
  EXPECT_FALSE(use_qr_small(128, 128, 128, 1, false, 128));
  EXPECT_FALSE(use_qr_small(65, 8, 0, 1, false, 128));
  expect_widths(qr_small_rows_tile, {{1, 16}, {16, 16}, {17, 32}, {32, 32}, {33, 64}, {64, 64}});
}

TEST(LinalgPlan, LuRoute) {
  EXPECT_EQ(choose_lu_route_h100(512, 1, LuPurpose::Det, 512), LuRoute::CublasBatched);
  EXPECT_EQ(choose_lu_route_h100(513, 1, LuPurpose::Det, 512), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(choose_lu_route_h100(3, 1000, LuPurpose::Det, 0), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(choose_lu_route_h100(32, 1, LuPurpose::InvSolve, 512), LuRoute::CusolverPerMatrix);
  EXPECT_EQ(choose_lu_route_h100(32, 2, LuPurpose::InvSolve, 512), LuRoute::CublasBatched);
  EXPECT_EQ(choose_lu_route_h100(h100().lu_batched_max_n + 1, 100, LuPurpose::InvSolve, 512),
            LuRoute::CusolverPerMatrix);
  EXPECT_EQ(choose_lu_route_h100(8, int64_t(1) << 32, LuPurpose::InvSolve, 512),
            LuRoute::CusolverPerMatrix);
}

// NumPy's svd shapes: u (m, m|k), s (k,), vh (n|k, n); the buffers map onto them as the
// plan says (transposed: u = vtbuf, vh = ubuf; else their transposed views).
TEST(LinalgPlan, SvdShapesMatchNumPy) {
  struct Case { Dims shape; bool full; Dims u, s, vh; };
  const Case cases[] = {
      {{5, 3}, true, {5, 5}, {3}, {3, 3}},
      {{5, 3}, false, {5, 3}, {3}, {3, 3}},
      {{3, 5}, true, {3, 3}, {3}, {5, 5}},
      {{3, 5}, false, {3, 3}, {3}, {3, 5}},
      {{2, 4, 4}, true, {2, 4, 4}, {2, 4}, {2, 4, 4}},
      {{7, 1, 6}, false, {7, 1, 1}, {7, 1}, {7, 1, 6}},
      {{0, 6, 2}, true, {0, 6, 6}, {0, 2}, {0, 2, 2}},
  };
  for (const auto& c : cases) {
    const SvdPlan p = plan_svd(c.shape, c.full);
    EXPECT_EQ(p.u_shape, c.u);
    EXPECT_EQ(p.s_shape, c.s);
    EXPECT_EQ(p.vh_shape, c.vh);
    EXPECT_GE(p.mm, p.nn);  // gesvd's requirement
    if (p.transposed) {
      EXPECT_EQ(p.vtbuf_shape, p.u_shape);
      EXPECT_EQ(p.ubuf_shape, p.vh_shape);
    } else {
      EXPECT_EQ(swap_last2(p.ubuf_shape), p.u_shape);
      EXPECT_EQ(swap_last2(p.vtbuf_shape), p.vh_shape);
    }
  }
}

TEST(LinalgPlan, QrShapesMatchNumPy) {
  // NumPy: reduced q (m, k), r (k, n); complete q (m, m), r (m, n); raw h (n, m), tau (k,).
  auto p = plan_qr({5, 3}, false);
  EXPECT_EQ(p.q_shape, (Dims{5, 3}));
  EXPECT_EQ(p.r_shape, (Dims{3, 3}));
  EXPECT_EQ(p.h_shape, (Dims{3, 5}));
  EXPECT_EQ(p.tau_shape, (Dims{3}));
  p = plan_qr({5, 3}, true);
  EXPECT_EQ(p.q_shape, (Dims{5, 5}));
  EXPECT_EQ(p.r_shape, (Dims{5, 3}));
  p = plan_qr({2, 3, 5}, true);
  EXPECT_EQ(p.q_shape, (Dims{2, 3, 3}));
  EXPECT_EQ(p.r_shape, (Dims{2, 3, 5}));
  EXPECT_EQ(p.qbuf_shape, (Dims{2, 3, 3}));
  p = plan_qr({4, 0}, true);
  EXPECT_EQ(p.q_shape, (Dims{4, 4}));
  EXPECT_EQ(p.k, 0);
  EXPECT_THROW(plan_qr({3}, false), ValueError);
}

TEST(LinalgPlan, SvdJacobiRoute) {
  EXPECT_TRUE(use_svd_jacobi_batched(32, 32, 2));
  EXPECT_TRUE(use_svd_jacobi_batched(3, 17, 1000));
  EXPECT_FALSE(use_svd_jacobi_batched(32, 32, 1));
  EXPECT_FALSE(use_svd_jacobi_batched(33, 4, 100));
  EXPECT_FALSE(use_svd_jacobi_batched(4, 0, 100));
}

TEST(LinalgPlan, SmallGaussJordanRoute) {
  constexpr OwnLuMode R = OwnLuMode::Rule;
  EXPECT_TRUE(use_small_inverse(1, DType::Float32, R));
  EXPECT_TRUE(use_small_inverse(kSmallInverseMaxN, DType::Float64, R));
  EXPECT_FALSE(use_small_inverse(kSmallInverseMaxN + 1, DType::Float32, R));
  EXPECT_FALSE(use_small_inverse(8, DType::Complex64, R));
  EXPECT_FALSE(use_small_inverse(0, DType::Float32, R));
  EXPECT_FALSE(use_small_inverse(8, DType::Float16, R));
  EXPECT_TRUE(use_small_solve(64, 1, DType::Float64, R));
  EXPECT_TRUE(use_small_solve(64, kSmallSolveMaxColumns, DType::Float32, R));
  EXPECT_TRUE(use_small_solve(32, kSmallSolveMaxColumns, DType::Float64, R));
  EXPECT_FALSE(use_small_solve(33, 2, DType::Float64, R));
  EXPECT_FALSE(use_small_solve(3, kSmallSolveMaxColumns + 1, DType::Float32, R));
  EXPECT_FALSE(use_small_solve(3, 0, DType::Float32, R));
  EXPECT_FALSE(use_small_solve(65, 1, DType::Float32, R));
  EXPECT_FALSE(use_small_solve(3, 1, DType::Complex128, R));
  // GPUARR_LU_ROUTE=cusolver: the libraries' LU at every size.
  EXPECT_FALSE(use_small_inverse(8, DType::Float32, OwnLuMode::Never));
  EXPECT_FALSE(use_small_solve(8, 1, DType::Float64, OwnLuMode::Never));
  expect_widths(small_matrix_group_width,
                {{1, 4}, {4, 4}, {5, 8}, {16, 16}, {17, 32}, {32, 32}, {33, 64}, {64, 64}});
}

TEST(LinalgPlan, CholeskyRoute) {
  EXPECT_TRUE(use_cholesky_batched(4, 2));
  EXPECT_TRUE(use_cholesky_batched(kCholeskyBatchedMaxN, 1000));
  EXPECT_FALSE(use_cholesky_batched(4, 1));
  EXPECT_FALSE(use_cholesky_batched(kCholeskyBatchedMaxN + 1, 1000));
}

TEST(LinalgPlan, QdwhSchedule) {
  // float32 and float64: the step counts the NumPy prototype reached LAPACK's accuracy with.
  const auto f32 = qdwh_schedule(1.1920928955078125e-07);
  const auto f64 = qdwh_schedule(2.220446049250313e-16);
  ASSERT_EQ(f32.size(), 4u);
  ASSERT_EQ(f64.size(), 6u);
  for (const auto* s : {&f32, &f64}) {
    // QR-based steps first (c falls monotonically), Cholesky-based after.
    EXPECT_TRUE((*s)[0].qr && (*s)[1].qr);
    for (size_t i = 2; i < s->size(); ++i) EXPECT_FALSE((*s)[i].qr);
    for (size_t i = 1; i < s->size(); ++i) EXPECT_LT((*s)[i].c, (*s)[i - 1].c);
    for (const QdwhStep& st : *s) {
      EXPECT_NEAR(st.b, (st.a - 1) * (st.a - 1) / 4, 1e-12 * st.b);
      EXPECT_NEAR(st.c, st.a + st.b - 1, 1e-12 * st.c);
    }
    // Converged steps are Halley's: a = 3, b = 1, c = 3.
    EXPECT_NEAR(s->back().a, 3.0, 0.02);
    EXPECT_NEAR(s->back().c, 3.0, 0.02);
  }
  EXPECT_NEAR(f32[0].c, 2.71e9, 0.01e9);
  EXPECT_NEAR(f32[1].c, 577, 1);
  // A bound of 0.05 needs one step (to 0.76), Cholesky-based (c = 95.7).
  const auto near = qdwh_schedule(0.05);
  ASSERT_EQ(near.size(), 1u);
  EXPECT_FALSE(near[0].qr);
  EXPECT_NEAR(near[0].c, 95.69, 0.01);
}

TEST(LinalgPlan, UseSvdPolar) {
  EXPECT_TRUE(use_svd_polar(512, 512, 1, true, true, true, 64));
  EXPECT_TRUE(use_svd_polar(512, 256, 1, true, false, true, 64));
  EXPECT_TRUE(use_svd_polar(256, 512, 1, true, true, false, 64));   // no U: any shape
  EXPECT_FALSE(use_svd_polar(512, 256, 1, true, true, true, 64));   // full U of a non-square
  EXPECT_FALSE(use_svd_polar(512, 512, 2, true, false, true, 64));  // batches: gesvd
  EXPECT_FALSE(use_svd_polar(512, 512, 1, false, false, true, 64)); // complex
  EXPECT_FALSE(use_svd_polar(63, 512, 1, true, false, true, 64));
  EXPECT_TRUE(use_svd_polar(64, 512, 1, true, false, true, 64));
  EXPECT_FALSE(use_svd_polar(512, 512, 1, true, false, true, 0));   // 0: never
}
