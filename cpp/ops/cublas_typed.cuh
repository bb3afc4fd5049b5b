// cuBLAS routines through one overloaded name per routine, for the element types their
// callers use: the triangular solve with alpha = 1 for the four LAPACK types, B = op(A)^-1 B
// (left side) or B op(A)^-1 (right side), shared by the blocked LU's panel steps, inv's
// solve (trsm_left) and the polar SVD's Cholesky steps; gemm, syrk and geam for float and
// double (the blocked LU's trailing update and the polar SVD).
#pragma once
#include <cuComplex.h>
#include <cublas_v2.h>

namespace gpuarr {

inline cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t op, cublasDiagType_t diag, int m, int n,
                           const float* a, int lda, float* b, int ldb) {
  const float one = 1.0f;
  return cublasStrsm(h, side, uplo, op, diag, m, n, &one, a, lda, b, ldb);
}
inline cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t op, cublasDiagType_t diag, int m, int n,
                           const double* a, int lda, double* b, int ldb) {
  const double one = 1.0;
  return cublasDtrsm(h, side, uplo, op, diag, m, n, &one, a, lda, b, ldb);
}
inline cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t op, cublasDiagType_t diag, int m, int n,
                           const cuComplex* a, int lda, cuComplex* b, int ldb) {
  const cuComplex one{1.0f, 0.0f};
  return cublasCtrsm(h, side, uplo, op, diag, m, n, &one, a, lda, b, ldb);
}
inline cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t op, cublasDiagType_t diag, int m, int n,
                           const cuDoubleComplex* a, int lda, cuDoubleComplex* b, int ldb) {
  const cuDoubleComplex one{1.0, 0.0};
  return cublasZtrsm(h, side, uplo, op, diag, m, n, &one, a, lda, b, ldb);
}

// C <- alpha op(A) op(B) + beta C.
inline cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, int k, float alpha, const float* a, int lda, const float* b,
                           int ldb, float beta, float* c, int ldc) {
  return cublasSgemm(h, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
inline cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, int k, double alpha, const double* a, int lda, const double* b,
                           int ldb, double beta, double* c, int ldc) {
  return cublasDgemm(h, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}

// C's lower triangle <- alpha A^T A + beta C (A k x n).
inline cublasStatus_t syrk_lower_t(cublasHandle_t h, int n, int k, float alpha, const float* a,
                                   int lda, float beta, float* c, int ldc) {
  return cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, n, k, &alpha, a, lda, &beta, c, ldc);
}
inline cublasStatus_t syrk_lower_t(cublasHandle_t h, int n, int k, double alpha, const double* a,
                                   int lda, double beta, double* c, int ldc) {
  return cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, n, k, &alpha, a, lda, &beta, c, ldc);
}

// C <- alpha op(A) + beta op(B).
inline cublasStatus_t geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, float alpha, const float* a, int lda, float beta,
                           const float* b, int ldb, float* c, int ldc) {
  return cublasSgeam(h, ta, tb, m, n, &alpha, a, lda, &beta, b, ldb, c, ldc);
}
inline cublasStatus_t geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                           int n, double alpha, const double* a, int lda, double beta,
                           const double* b, int ldb, double* c, int ldc) {
  return cublasDgeam(h, ta, tb, m, n, &alpha, a, lda, &beta, b, ldb, c, ldc);
}

template <class T>
cublasStatus_t trsm_left(cublasHandle_t h, cublasFillMode_t uplo, cublasDiagType_t diag, int m,
                         int n, const T* a, int lda, T* b, int ldb) {
  return trsm(h, CUBLAS_SIDE_LEFT, uplo, CUBLAS_OP_N, diag, m, n, a, lda, b, ldb);
}

}  // namespace gpuarr
