// Host rules of the eigen-solvers (eigh/eigvalsh/eig/eigvals): shape checks with NumPy's
// messages, the compute/result dtypes, and which method runs a batch of n x n matrices.
// Plain C++ (no CUDA): unit-tested in cpp/tests/test_eigen_plan.cpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/dtype.hpp"
#include "core/layout.hpp"

namespace gpuarr {

// Own: the one-block-per-matrix kernels of cpp/ops (eigenvalues only: Householder
// tridiagonalisation + bisection, eigen_tridiag.cu; with vectors: Householder
// tridiagonalisation + implicit QL + back-transform, eigen_tridiag_vectors.cu). OwnJacobi:
// the parallel cyclic Jacobi kernel (eigen_jacobi.cu), with or without vectors. TridiagDC
// ("dc"): float64 only, one matrix at a time: own tridiagonal reduction + GPU divide and
// conquer + cusolverDnDormtr (eigen_dc.cu).
enum class EigMethod { Auto, Syevj, XsyevBatched, Own, Syevd, OwnJacobi, TridiagDC };

EigMethod parse_eig_method(const std::string& name);  // ValueError for an unknown name
const char* eig_method_name(EigMethod m);

// A stack of square matrices (..., n, n): LinAlgError with NumPy's messages otherwise.
struct SquareStack {
  Dims batch_shape;  // the leading dims
  int64_t batch = 0;
  int64_t n = 0;
};
SquareStack check_square_stack(const Dims& shape);

// The dtype the solver computes in: float32/float64/complex64/complex128 as given, float16
// -> float32 (as CuPy), bool and integers -> float64 (as NumPy). TypeError otherwise.
DType eigen_compute_dtype(DType input);
// The dtype of the results (eigenvalues: its real counterpart): float16 stays float16
// (computed in float32, as CuPy), otherwise the compute dtype.
DType eigen_result_dtype(DType input);

// Shared memory (bytes) of the one-block-per-matrix Jacobi kernel (eigen_jacobi.cu) and
// of the tridiagonalisation + bisection kernel (eigen_tridiag.cu, eigenvalues only), and
// threads per block of both.
size_t own_kernel_smem_bytes(int64_t n, DType compute, bool compute_v);
size_t own_values_smem_bytes(int64_t n, DType compute);
int own_kernel_threads(int64_t n);
// Shared memory and threads of the tridiagonal + QL kernel with eigenvectors
// (eigen_tridiag_vectors.cu).
size_t own_vectors_smem_bytes(int64_t n, DType compute);
int own_vectors_threads(int64_t n);
// Elements of the shared-memory front the packed-triangle kernels share
// (eigen_tridiag_common.cuh: the packed triangle and 4 vectors of n).
int64_t packed_tridiag_scratch_elements(int64_t n);
// Shared memory of the k-th eigenpair kernel (eigen_kth.cu; threads as own_kernel_threads),
// and whether it takes real n x n matrices of `compute` within `smem_limit`.
size_t kth_eigenpair_smem_bytes(int64_t n, DType compute);
bool kth_eigenpair_fits(int64_t n, DType compute, size_t smem_limit);
// Whether the Jacobi kernel handles (n, dtype, vectors) within `smem_limit` bytes per block
// (real dtypes only; complex Hermitian goes to cuSOLVER).
bool jacobi_kernel_fits(int64_t n, DType compute, bool compute_v, size_t smem_limit);
// Whether method Own runs: with vectors the tridiagonal + QL kernel, without it the
// tridiagonal + bisection one.
bool own_kernel_fits(int64_t n, DType compute, bool compute_v, size_t smem_limit);

struct EighAvailability {
  bool xsyev_batched = false;  // cusolverDnXsyevBatched found at run time
  size_t smem_limit = 0;       // max dynamic shared memory per block (opt-in)
  int compute_capability = 0;  // picks the crossover table (core/routing_thresholds)
};

// One row of a crossover table (core/routing_thresholds.cpp): the first row matching
// min_n <= n <= max_n, min_batch <= batch <= max_batch, (real dtype or !real_only), method
// available wins.
struct EighRule {
  int64_t max_n;
  int64_t min_batch;
  bool real_only;
  bool values_only;  // the row applies only when eigenvectors are not wanted
  EigMethod method;
  bool vectors_only = false;  // the row applies only when eigenvectors are wanted
  int64_t min_n = 0;
  int64_t max_batch = INT64_MAX;
  bool single_precision_only = false;  // the row applies only to float32 compute
};

// The method "auto" picks; a forced method that cannot run (e.g. syevj with n > 32,
// own kernel too large, XsyevBatched missing) is a ValueError naming why.
EigMethod choose_eigh_method(EigMethod requested, int64_t n, int64_t batch, DType compute,
                             bool compute_v, const EighAvailability& avail);

// "dc" takes n up to this (its grids' y extent).
constexpr int64_t kTridiagDcMaxN = 65535;

// syevjBatched's limit on n.
constexpr int64_t kSyevjBatchedMaxN = 32;

}  // namespace gpuarr
