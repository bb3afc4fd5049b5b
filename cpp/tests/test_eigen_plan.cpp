#include <gtest/gtest.h>

#include "core/eigen_plan.hpp"
#include "core/errors.hpp"

using namespace gpuarr;

namespace {
EighAvailability h100() { return EighAvailability{true, 227 * 1024, 90}; }
}  // namespace

TEST(EigenPlan, SquareStack) {
  auto s = check_square_stack({5, 3, 4, 4});
  EXPECT_EQ(s.batch_shape, (Dims{5, 3}));
  EXPECT_EQ(s.batch, 15);
  EXPECT_EQ(s.n, 4);
  auto e = check_square_stack({0, 0});
  EXPECT_EQ(e.batch, 1);
  EXPECT_EQ(e.n, 0);
  EXPECT_EQ(check_square_stack({2, 0, 3, 3}).batch, 0);
}

TEST(EigenPlan, SquareStackErrorsAsNumPy) {
  try {
    check_square_stack({3});
    FAIL();
  } catch (const LinAlgError& e) {
    EXPECT_STREQ(e.what(), "1-dimensional array given. Array must be at least two-dimensional");
  }
  try {
    check_square_stack({2, 3});
    FAIL();
  } catch (const LinAlgError& e) {
    EXPECT_STREQ(e.what(), "Last 2 dimensions of the array must be square");
  }
  EXPECT_THROW(check_square_stack({}), LinAlgError);
}

TEST(EigenPlan, Dtypes) {
  EXPECT_EQ(eigen_compute_dtype(DType::Float32), DType::Float32);
  EXPECT_EQ(eigen_compute_dtype(DType::Complex128), DType::Complex128);
  EXPECT_EQ(eigen_compute_dtype(DType::Int8), DType::Float64);
  EXPECT_EQ(eigen_compute_dtype(DType::UInt64), DType::Float64);
  EXPECT_EQ(eigen_compute_dtype(DType::Bool), DType::Float64);
  EXPECT_EQ(eigen_compute_dtype(DType::Float16), DType::Float32);
  EXPECT_EQ(eigen_result_dtype(DType::Float16), DType::Float16);
  EXPECT_EQ(eigen_result_dtype(DType::Int32), DType::Float64);
  EXPECT_EQ(eigen_result_dtype(DType::Complex64), DType::Complex64);
}

TEST(EigenPlan, OwnKernelFits) {
  const size_t lim = 227 * 1024;
  EXPECT_TRUE(own_kernel_fits(1, DType::Float32, true, lim));
  EXPECT_TRUE(own_kernel_fits(128, DType::Float32, true, lim));
  EXPECT_TRUE(own_kernel_fits(100, DType::Float64, true, lim));
  EXPECT_FALSE(jacobi_kernel_fits(128, DType::Float64, true, lim));  // 2 * 128 * 129 * 8 > 227K
  // With vectors, own is the tridiagonal + QL kernel: Z (n x (n|1)) in the packed
  // triangle's place, plus O(n).
  EXPECT_TRUE(own_kernel_fits(128, DType::Float64, true, lim));
  EXPECT_TRUE(own_kernel_fits(234, DType::Float32, true, lim));
  EXPECT_FALSE(own_kernel_fits(235, DType::Float32, true, lim));
  EXPECT_TRUE(own_kernel_fits(165, DType::Float64, true, lim));
  EXPECT_FALSE(own_kernel_fits(166, DType::Float64, true, lim));
  EXPECT_GE(own_vectors_smem_bytes(100, DType::Float32), size_t(100 * 101 * 4));
  EXPECT_LE(own_vectors_smem_bytes(100, DType::Float32), size_t(227 * 1024 / 4));  // 4 per SM
  for (int64_t n : {1, 17, 45, 100, 190}) {
    const int t = own_vectors_threads(n);
    EXPECT_EQ(t % 32, 0);
    EXPECT_GE(t, 64);
    EXPECT_LE(t, 512);
  }
  EXPECT_TRUE(own_kernel_fits(128, DType::Float64, false, lim));
  EXPECT_TRUE(jacobi_kernel_fits(128, DType::Float64, false, lim));
  // Eigenvalues only: the tridiagonal kernel keeps the packed lower triangle.
  EXPECT_TRUE(own_kernel_fits(200, DType::Float32, false, lim));
  EXPECT_FALSE(jacobi_kernel_fits(256, DType::Float32, false, lim));
  EXPECT_TRUE(own_kernel_fits(256, DType::Float32, false, lim));
  EXPECT_TRUE(own_kernel_fits(336, DType::Float32, false, lim));
  EXPECT_FALSE(own_kernel_fits(340, DType::Float32, false, lim));
  EXPECT_TRUE(own_kernel_fits(236, DType::Float64, false, lim));
  EXPECT_FALSE(own_kernel_fits(240, DType::Float64, false, lim));
  EXPECT_GE(own_values_smem_bytes(100, DType::Float32), size_t(100 * 101 / 2 * 4 + 4 * 100 * 4));
  // The k-th eigenpair kernel: the packed triangle, 13 vectors, 512 points; seed 004's 45x45
  // fits many blocks per SM, and float32 reaches n = 320 in the H100's 227 KB.
  EXPECT_EQ(kth_eigenpair_smem_bytes(45, DType::Float32),
            size_t((45 * 46 / 2 + 13 * 45 + 512) * 4 + 8 + 34 * 8 + 8));
  EXPECT_TRUE(kth_eigenpair_fits(325, DType::Float32, lim));
  EXPECT_FALSE(kth_eigenpair_fits(326, DType::Float32, lim));
  EXPECT_TRUE(kth_eigenpair_fits(225, DType::Float64, lim));
  EXPECT_FALSE(kth_eigenpair_fits(226, DType::Float64, lim));
  EXPECT_TRUE(kth_eigenpair_fits(1, DType::Float32, lim));
  EXPECT_FALSE(kth_eigenpair_fits(0, DType::Float32, lim));
  EXPECT_FALSE(kth_eigenpair_fits(8, DType::Complex64, lim));
  EXPECT_FALSE(own_kernel_fits(16, DType::Complex64, false, lim));  // complex: cuSOLVER
  EXPECT_FALSE(own_kernel_fits(0, DType::Float32, false, lim));
  EXPECT_FALSE(own_kernel_fits(120, DType::Float32, true, 48 * 1024));
  EXPECT_TRUE(own_kernel_fits(100, DType::Float32, true, 48 * 1024));
  // Odd n is padded to even: same footprint as n + 1.
  EXPECT_EQ(own_kernel_smem_bytes(45, DType::Float32, true),
            own_kernel_smem_bytes(46, DType::Float32, true));
  EXPECT_GE(own_kernel_smem_bytes(100, DType::Float32, true), size_t(2 * 100 * 101 * 4));
  for (int64_t n : {1, 8, 16, 17, 45, 64, 100, 128, 256}) {
    const int t = own_kernel_threads(n);
    EXPECT_EQ(t % 32, 0);
    EXPECT_GE(t, 64);
    EXPECT_LE(t, 1024);
  }
}

TEST(EigenPlan, AutoChoice) {
  const auto a = h100();
  const auto auto_pick = [&a](int64_t n, int64_t batch, DType dtype, bool vectors) {
    return choose_eigh_method(EigMethod::Auto, n, batch, dtype, vectors, a);
  };
  EXPECT_EQ(auto_pick(100, 500, DType::Float32, false), EigMethod::Own);
  EXPECT_EQ(auto_pick(256, 200, DType::Float32, false), EigMethod::Own);
  EXPECT_EQ(auto_pick(256, 200, DType::Float64, false), EigMethod::XsyevBatched);
  EXPECT_EQ(auto_pick(256, 200, DType::Float32, true), EigMethod::XsyevBatched);
  EXPECT_EQ(auto_pick(180, 200, DType::Float32, false), EigMethod::Own);
  EXPECT_EQ(auto_pick(180, 200, DType::Float32, true), EigMethod::XsyevBatched);
  // One large float64 matrix with vectors: divide and conquer; without vectors, float32,
  // complex or a batch: cuSOLVER.
  EXPECT_EQ(auto_pick(4096, 1, DType::Float64, true), EigMethod::TridiagDC);
  EXPECT_EQ(auto_pick(3072, 1, DType::Float64, true), EigMethod::TridiagDC);  // H100's row
  EXPECT_EQ(auto_pick(3071, 1, DType::Float64, true), EigMethod::Syevd);
  EXPECT_EQ(auto_pick(4096, 1, DType::Float64, false), EigMethod::Syevd);
  EXPECT_EQ(auto_pick(4096, 1, DType::Float32, true), EigMethod::Syevd);
  EXPECT_EQ(auto_pick(4096, 1, DType::Complex128, true), EigMethod::Syevd);
  EXPECT_EQ(auto_pick(4096, 2, DType::Float64, true), EigMethod::XsyevBatched);
  // Forced "dc": float64 only.
  EXPECT_EQ(choose_eigh_method(EigMethod::TridiagDC, 5, 3, DType::Float64, false, a),
            EigMethod::TridiagDC);
  EXPECT_THROW(choose_eigh_method(EigMethod::TridiagDC, 5, 1, DType::Float32, true, a), ValueError);
  EXPECT_THROW(choose_eigh_method(EigMethod::TridiagDC, 5, 1, DType::Complex128, true, a), ValueError);
  EXPECT_EQ(parse_eig_method("dc"), EigMethod::TridiagDC);
  EXPECT_STREQ(eig_method_name(EigMethod::TridiagDC), "dc");
  EXPECT_EQ(auto_pick(16, 100, DType::Complex64, true), EigMethod::Syevj);
  EXPECT_EQ(auto_pick(100, 100, DType::Complex64, true), EigMethod::XsyevBatched);
  EXPECT_EQ(auto_pick(100, 1, DType::Complex64, true), EigMethod::Syevd);
  // With vectors (sweep of 2026-11-28): the tridiagonal + QL kernel for n <= 4, for n <= 8
  // below 2048 matrices, and for n = 17-32 from 400 matrices (n = 25-32 in float32 only);
  // syevjBatched for the other matrices up to n = 32.
  for (int64_t b : {1, 1000}) {
    EXPECT_EQ(auto_pick(8, b, DType::Float32, true), EigMethod::Own);
    EXPECT_EQ(auto_pick(8, b, DType::Float64, true), EigMethod::Own);
    EXPECT_EQ(auto_pick(12, b, DType::Float32, true), EigMethod::Syevj);
    EXPECT_EQ(auto_pick(16, b, DType::Float64, true), EigMethod::Syevj);
  }
  for (DType t : {DType::Float32, DType::Float64}) {
    EXPECT_EQ(auto_pick(4, 4096, t, true), EigMethod::Own);
    EXPECT_EQ(auto_pick(8, 2047, t, true), EigMethod::Own);
    EXPECT_EQ(auto_pick(8, 2048, t, true), EigMethod::Syevj);
    EXPECT_EQ(auto_pick(16, 4096, t, true), EigMethod::Syevj);
    EXPECT_EQ(auto_pick(17, 399, t, true), EigMethod::Syevj);
    EXPECT_EQ(auto_pick(17, 400, t, true), EigMethod::Own);
    EXPECT_EQ(auto_pick(24, 1000, t, true), EigMethod::Own);
  }
  EXPECT_EQ(auto_pick(45, 256, DType::Float32, true), EigMethod::Own);
  EXPECT_EQ(auto_pick(100, 500, DType::Float32, true), EigMethod::Own);
  EXPECT_EQ(auto_pick(32, 1000, DType::Float32, true), EigMethod::Own);
  EXPECT_EQ(auto_pick(25, 400, DType::Float32, true), EigMethod::Own);
  EXPECT_EQ(auto_pick(40, 1, DType::Float64, true), EigMethod::Own);
  // Where the library wins even with the own kernel in "auto".
  EXPECT_EQ(auto_pick(17, 1, DType::Float32, true), EigMethod::Syevj);
  EXPECT_EQ(auto_pick(32, 100, DType::Float32, true), EigMethod::Syevj);
  EXPECT_EQ(auto_pick(25, 400, DType::Float64, true), EigMethod::Syevj);
  EXPECT_EQ(auto_pick(32, 4096, DType::Float64, true), EigMethod::Syevj);
  EXPECT_EQ(auto_pick(64, 100, DType::Float32, true), EigMethod::XsyevBatched);
  EXPECT_EQ(auto_pick(100, 10, DType::Float32, true), EigMethod::XsyevBatched);
  EXPECT_EQ(auto_pick(100, 1, DType::Float32, true), EigMethod::Syevd);
  EXPECT_EQ(auto_pick(128, 1000, DType::Float32, true), EigMethod::XsyevBatched);
  EXPECT_EQ(auto_pick(129, 500, DType::Float32, true), EigMethod::XsyevBatched);
  EXPECT_EQ(auto_pick(129, 1, DType::Float32, true), EigMethod::Syevd);
  // Values only: unchanged (the tridiagonal + bisection kernel; syevd for one large matrix).
  EXPECT_EQ(auto_pick(8, 1, DType::Float32, false), EigMethod::Own);
  // One matrix, values only: the own kernel up to n = 128 (H100 sweep: 0.40 vs syevd 0.54 ms
  // at 100, 0.59 vs 0.62 at 128), syevd above.
  EXPECT_EQ(auto_pick(100, 1, DType::Float32, false), EigMethod::Own);
  EXPECT_EQ(auto_pick(128, 1, DType::Float64, false), EigMethod::Own);
  EXPECT_EQ(auto_pick(129, 1, DType::Float32, false), EigMethod::Syevd);
  // Without XsyevBatched: f64 with vectors beyond the own kernel -> syevd loop.
  EighAvailability old{false, 227 * 1024};
  EXPECT_EQ(choose_eigh_method(EigMethod::Auto, 160, 50, DType::Float64, true, old), EigMethod::Syevd);
  EXPECT_EQ(choose_eigh_method(EigMethod::Auto, 100, 500, DType::Float32, false, old), EigMethod::Own);
  // Never an unavailable method.
  for (int64_t n : {1, 2, 31, 32, 33, 64, 65, 128, 129, 512})
    for (int64_t b : {0, 1, 2, 1000})
      for (DType t : {DType::Float32, DType::Float64, DType::Complex64, DType::Complex128})
        for (bool v : {false, true}) {
          const EigMethod m = choose_eigh_method(EigMethod::Auto, n, b, t, v, old);
          EXPECT_NE(m, EigMethod::XsyevBatched);
          if (m == EigMethod::Own) EXPECT_TRUE(own_kernel_fits(n, t, v, old.smem_limit));
          if (m == EigMethod::OwnJacobi) {  // with vectors, tiny real matrices only
            EXPECT_TRUE(v);
            EXPECT_LE(n, 16);
            EXPECT_TRUE(jacobi_kernel_fits(n, t, v, old.smem_limit));
          }
          if (m == EigMethod::Syevj) EXPECT_LE(n, kSyevjBatchedMaxN);
        }
}

TEST(EigenPlan, ForcedMethods) {
  const auto a = h100();
  EXPECT_EQ(choose_eigh_method(EigMethod::Syevj, 32, 5, DType::Float32, true, a), EigMethod::Syevj);
  EXPECT_THROW(choose_eigh_method(EigMethod::Syevj, 33, 5, DType::Float32, true, a), ValueError);
  EXPECT_THROW(choose_eigh_method(EigMethod::Own, 8, 5, DType::Complex128, true, a), ValueError);
  EXPECT_THROW(choose_eigh_method(EigMethod::XsyevBatched, 8, 5, DType::Float32, true,
                                  EighAvailability{false, 227 * 1024}),
               ValueError);
  EXPECT_EQ(choose_eigh_method(EigMethod::Syevd, 8, 5, DType::Float32, true, a), EigMethod::Syevd);
  EXPECT_EQ(parse_eig_method("xsyev_batched"), EigMethod::XsyevBatched);
  EXPECT_STREQ(eig_method_name(parse_eig_method("own")), "own");
  EXPECT_STREQ(eig_method_name(parse_eig_method("own_jacobi")), "own_jacobi");
  EXPECT_EQ(choose_eigh_method(EigMethod::OwnJacobi, 100, 5, DType::Float32, false, a),
            EigMethod::OwnJacobi);
  EXPECT_THROW(choose_eigh_method(EigMethod::OwnJacobi, 256, 5, DType::Float32, false, a),
               ValueError);
  EXPECT_THROW(parse_eig_method("lapack"), ValueError);
}

