// Eigen-solvers: eigh/eigvalsh (symmetric/Hermitian, batched) and eig/eigvals (general),
// on the current stream. Method choice: core/eigen_plan.hpp.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/eigen_plan.hpp"
#include "ops/ndarray.hpp"

namespace gpuarr {

struct EighResult {
  NDArray w;             // (..., n) ascending, real dtype
  NDArray v;             // (..., n, n) eigenvectors as columns (when asked for)
  bool failed = false;   // a cuSOLVER info was nonzero (did not converge / NaN input);
                         // never set by syevjBatched, whose info is not read back
  EigMethod method = EigMethod::Auto;  // the method that ran
};

// The transposed view of a stack of matrices (..., n, n) (no copy), and that view copied in
// C order as dtype t.
NDArray swap_last_two_axes(const NDArray& a);
NDArray transpose_copy(const NDArray& a, DType t);

// a: (..., n, n) of any dtype; only the `lower` (or upper) triangle is read.
EighResult eigh_solve(const NDArray& a, bool lower, bool compute_v, EigMethod method);
// eigh_solve, except that method Own WITH vectors (forced or chosen by "auto") runs the
// tridiagonal + QL kernel (eigen_tridiag_vectors.cu); the binding calls this one.
EighResult eigh_solve_dispatch(const NDArray& a, bool lower, bool compute_v, EigMethod method);

// Method "dc" (eigen_dc.cu): float64 compute dtype only (the caller checks), any batch, one
// matrix at a time: own tridiagonal reduction + GPU divide and conquer + cusolverDnDormtr.
EighResult eigh_dc_solve(const NDArray& a, bool lower, bool compute_v);

struct EigResult {
  NDArray w;            // (..., n): complex, or real when the input is real and all are
  NDArray v;            // (..., n, n) right eigenvectors as columns (when asked for)
  bool failed = false;  // a cuSOLVER info was nonzero
};
EigResult eig_solve(const NDArray& a, bool compute_v);

// Run-time availability of the routines found with dlsym.
bool xsyev_batched_available();
bool xgeev_available();
// The availability the planner sees on the current device.
EighAvailability eigh_availability();

// The one-block-per-matrix Jacobi kernel (eigen_jacobi.cu): `cm` holds `batch` column-major
// n x n matrices of `dtype` (float32/float64); writes w (batch, n) ascending and, when v is
// not null, v (batch, n, n) in C order with eigenvectors as columns.
void launch_jacobi_eigh(const void* cm, void* w, void* v, int64_t batch, int64_t n,
                        DType dtype, bool lower, cudaStream_t stream);

// The one-block-per-matrix tridiagonalisation + implicit QL kernel with eigenvectors
// (eigen_tridiag_vectors.cu), same input and output layout as launch_jacobi_eigh (v not null).
void launch_tridiag_eigh(const void* cm, void* w, void* v, int64_t batch, int64_t n,
                         DType dtype, bool lower, cudaStream_t stream);

// The one-block-per-matrix tridiagonalisation + bisection kernel (eigen_tridiag.cu),
// eigenvalues only, same input layout; w (batch, n) ascending.
void launch_tridiag_eigvals(const void* cm, void* w, int64_t batch, int64_t n, DType dtype,
                            bool lower, cudaStream_t stream);

// One eigenpair per matrix (eigen_kth.cu): a (batch, n, n) in C order, of `dtype`
// (float32/float64), only the UPLO triangle read; writes w[b] = the k-th smallest eigenvalue
// (0 <= k < n) and, when q is not null, q (batch, n) its unit eigenvector. Enqueued on
// `stream`, no host synchronisation. False, with nothing enqueued, where the kernel does
// not take these matrices (kth_eigenpair_fits in core/eigen_plan.hpp, or k out of range).
bool launch_kth_eigenpair(const void* a, void* w, void* q, int64_t batch, int64_t n,
                          int64_t k, DType dtype, bool lower, cudaStream_t stream);

// Its gradient (eigen_kth.cu): ga (batch, n, n) = g[b] * q_b q_b' from q (batch, n) and
// g (batch,), all contiguous, of `dtype`; on `stream`. False, with nothing enqueued, for a
// dtype other than float32/float64.
bool launch_kth_gradient(const void* q, const void* g, void* ga, int64_t batch, int64_t n,
                         DType dtype, cudaStream_t stream);

}  // namespace gpuarr
