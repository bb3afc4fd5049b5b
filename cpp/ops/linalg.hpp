// Dense linear algebra on cuSOLVER/cuBLAS: LU (det, slogdet, inv, solve), Cholesky, QR and
// SVD, each batched over the leading dims in C++ (batched cuBLAS calls for many small
// matrices, one cuSOLVER call per matrix otherwise). Inputs are already of the compute
// dtype (float32/64, complex64/128: python/gpuarr/linalg/_solvers.py promotes as NumPy) and
// have their shapes checked. Everything runs on the current stream of the operand's device;
// only the functions that must report a LinAlgError read cuSOLVER's info back (one small
// read per call).
//
// cuSOLVER is column-major: a C-contiguous (.., r, c) buffer is, per matrix, the
// column-major c x r transpose. The functions below say which buffer they hand back.
#pragma once
#include <utility>

#include "ops/ndarray.hpp"

namespace gpuarr {

// det of each matrix of a (.., n, n): shape (..), dtype of a. Singular -> 0.
NDArray linalg_det(const NDArray& a);
// (sign, log|det|) of each matrix: sign of a's dtype, logabsdet of its real dtype.
// Singular -> (0, -inf) as NumPy.
std::pair<NDArray, NDArray> linalg_slogdet(const NDArray& a);
// Inverse of each matrix, C-contiguous. check: LinAlgError("Singular matrix") when a
// matrix is singular (one small read); else the result of a singular matrix is inf/nan.
// nan_fill: the inverses of the matrices of a with a NaN are all NaN (LAPACK's result;
// cuSOLVER's pivoting can step over a NaN), on the device.
NDArray linalg_inv(const NDArray& a, bool check, bool nan_fill = false);
// x with a[i] @ x[i] = b[i]: a (.., n, n), b (.., n, k) with the same leading dims and
// dtype. LinAlgError("Singular matrix"). nan_fill: as linalg_inv's, for the solutions.
NDArray linalg_solve(const NDArray& a, const NDArray& b, bool nan_fill = false);
// Cholesky factor (lower L with a = L L^H, or upper U with a = U^H U), reading only the
// lower (upper) triangle of a as NumPy. LinAlgError("Matrix is not positive definite").
NDArray linalg_cholesky(const NDArray& a, bool upper);
// geqrf of a (.., m, n): h C-contiguous (.., n, m) (NumPy's 'raw' h: the column-major
// Householder matrix) and tau (.., min(m, n)). No info read (it only reports bad arguments).
std::pair<NDArray, NDArray> linalg_qr_raw(const NDArray& a);
// Q (.., m, mc) from qr_raw's (h, tau) (orgqr/ungqr); mc = min(m, n) or m (complete).
NDArray linalg_qr_q(const NDArray& h, const NDArray& tau, int64_t mc);
// Own one-block-per-matrix Householder QR of small real matrices (core/linalg_plan:
// use_qr_small; env GPUARR_QR_OWN_MAX_N). want_q: Q (.., m, mc) into *q and R (.., mc, n)
// into *r, mc = m if complete and m > n else min(m, n); else R (.., min(m, n), n) alone.
// Returns false (nothing written) where the route does not apply: the caller takes cuSOLVER.
bool linalg_qr_small(const NDArray& a, bool complete, bool want_q, NDArray* q, NDArray* r);
// SVD of a (.., m, n) with m, n > 0: u (.., m, m|k), s (.., k) real, descending, vh
// (.., n|k, n); u and vh empty (default NDArray) when !compute_uv.
// LinAlgError("SVD did not converge").
struct SvdParts {
  NDArray u, s, vh;
};
SvdParts linalg_svd(const NDArray& a, bool full_matrices, bool compute_uv);
// linalg_svd's polar route (cpp/ops/linalg_svd_polar.cu; use_svd_polar in
// core/linalg_plan.hpp says when) for one float32/float64 matrix: x is the tall column-major
// copy (mm x nn, mm >= nn) that the gesvd route factors; s, ubuf and vtbuf are that route's
// buffers (SvdPlan's shapes; ubuf and vtbuf unused without compute_uv), filled as it fills
// them. Queued on `stream`; reads the singular values back once (LinAlgError("SVD did not
// converge") for non-finite ones).
void linalg_svd_polar(const NDArray& x, int64_t mm, int64_t nn, bool compute_uv, NDArray& s,
                      NDArray& ubuf, NDArray& vtbuf, cudaStream_t stream);

}  // namespace gpuarr
