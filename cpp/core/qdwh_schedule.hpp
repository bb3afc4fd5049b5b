// The polar decomposition A = U_p H by QDWH, the first half of svd's polar route (then
// eigh of H; cpp/ops/linalg_svd_polar.cu): the dynamically weighted Halley steps
// (Nakatsukasa, Bai and Gygi, SIAM J. Matrix Anal. Appl. 31, 2010) from a lower bound of
// sigma_min(A / ||A||_F).
#pragma once
#include <vector>

namespace gpuarr {

struct QdwhStep {
  double a = 0, b = 0, c = 0;
  // QR-based, U <- (b/c) U + (a - b/c)/sqrt(c) Q1 Q2^H with [sqrt(c) U; I] = [Q1; Q2] R,
  // while c > 100 (the Cholesky form's I + c U^H U is too ill-conditioned there); else
  // Cholesky-based, U <- (b/c) U + (a - b/c) U (I + c U^H U)^-1.
  bool qr = false;
};

// The steps from the lower bound eps (the bound that holds for any matrix of singular
// values above eps * s_max; smaller ones only take longer to converge) until the bound is
// within 10 eps of 1: a fixed count, so that the iterations are queued with nothing read
// back (float32 4 steps, float64 6; 2 QR-based in both). On NumPy, 512x256 matrices
// (Gaussian, rows graded over six decades, rank 128) reach LAPACK's errors with exactly
// these steps (tools/probes/probe_qdwh_svd.py, docs/decisions.md).
std::vector<QdwhStep> qdwh_schedule(double eps);

}  // namespace gpuarr
