// cuBLAS's triangular solve with alpha = 1 for the four LAPACK element types through one
// name: B = op(A)^-1 B (left side) or B op(A)^-1 (right side). Shared by the blocked LU's
// panel steps, inv's solve (left, no transpose: trsm_left) and the polar SVD's Cholesky
// steps (right side).
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

template <class T>
cublasStatus_t trsm_left(cublasHandle_t h, cublasFillMode_t uplo, cublasDiagType_t diag, int m,
                         int n, const T* a, int lda, T* b, int ldb) {
  return trsm(h, CUBLAS_SIDE_LEFT, uplo, CUBLAS_OP_N, diag, m, n, a, lda, b, ldb);
}

}  // namespace gpuarr
