// The two halves of eigh's divide-and-conquer path for large float64 matrices
// (eigen_cusolver.cu composes them with cusolverDnDormtr): the reduction to tridiagonal
// form and the tridiagonal eigensolver. Both enqueue on `stream` and take their workspace
// from gpuarr's pool.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuarr {

// A: n x n column-major (ld n), lower triangle read. As LAPACK dsytrd('L'): writes d (n),
// e (n - 1), tau (n - 1) and the reflectors below A's subdiagonal; info (device) as
// cusolverDnDsytrd's. No host synchronisation.
void tridiag_reduce_lower(double* A, int64_t n, double* d, double* e, double* tau, int* info,
                          cudaStream_t stream);

// All eigenpairs of the symmetric tridiagonal T = tridiag(e, d, e) (device d[n], e[n-1],
// finite): w[n] ascending and Q (n x n column-major, ld n) with Q[:, j] the unit
// eigenvector of w[j]. Reads back 16 bytes per merge once per tree level (waits for them).
void tridiag_dc_eigh(const double* d, const double* e, int64_t n, double* w, double* Q,
                     cudaStream_t stream);

}  // namespace gpuarr
