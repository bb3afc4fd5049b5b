"""gpuarr.linalg eigen-solvers: eigh, eigvalsh, eig, eigvals (NumPy 2 semantics, batched
over leading dimensions in C++; see cpp/ops/eigen_cusolver.cu and eigen_jacobi.cu)."""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _ufuncs
from gpuarr._core import LinAlgError, ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

# NumPy 2's result types (named tuples with the same names and fields, so that results
# compare equal to NumPy's).
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"], module="gpuarr.linalg")
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"], module="gpuarr.linalg")
EigResult.__doc__ = "The result of eig: eigenvalues and eigenvectors (numpy.linalg.EigResult)."
EighResult.__doc__ = "The result of eigh: eigenvalues and eigenvectors (numpy.linalg.EighResult)."

__all__ = ["eigh", "eigvalsh", "eig", "eigvals", "EighResult", "EigResult"]

_METHODS = ("auto", "syevj", "xsyev_batched", "own", "syevd")


def _as_array(a):
    return a if isinstance(a, ndarray) else _core.asarray(a)


def _uplo(UPLO):
    u = UPLO.upper() if isinstance(UPLO, str) else UPLO
    if u not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return u == "L"


def _all_finite(a):
    return bool(_ufuncs.isfinite(a).all())


def _eigh(a, UPLO, compute_v, method):
    lower = _uplo(UPLO)  # checked first, as NumPy does
    a = _as_array(a)
    w, v, failed, _ = _core._eigh(a, lower, compute_v, method)
    if failed:
        # cuSOLVER reported non-convergence (syevd, XsyevBatched; batched Jacobi returns
        # its last iterate unreported). NumPy (LAPACK) returns NaN for NaN/inf input and
        # raises only for finite input that does not converge.
        if _all_finite(a):
            raise LinAlgError("Eigenvalues did not converge")
        w[...] = _np.nan
        if v is not None:
            v[...] = _np.nan
    return w, v


def eigh(a: ArrayLike, UPLO="L", *, _method="auto"):
    """numpy.linalg.eigh: eigenvalues (ascending) and eigenvectors (columns) of a stack of
    symmetric/Hermitian matrices; only the UPLO triangle is read. `_method` (private) forces
    "syevj", "xsyev_batched", "syevd", "own" (one block per matrix: Householder
    tridiagonalisation, then bisection for eigenvalues or implicit QL for vectors),
    "own_jacobi" (one-block Jacobi kernel) or "dc" (float64: own tridiagonal reduction and
    GPU divide and conquer, for large matrices)."""
    w, v = _eigh(a, UPLO, True, _method)
    return EighResult(w, v)


def eigvalsh(a: ArrayLike, UPLO="L", *, _method="auto") -> ndarray:
    """numpy.linalg.eigvalsh: the eigenvalues (ascending) of symmetric/Hermitian matrices."""
    w, _ = _eigh(a, UPLO, False, _method)
    return w


def _eig(a, compute_v):
    a = _as_array(a)
    if a.ndim < 2:
        raise LinAlgError(
            f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    if a.size and not _all_finite(a):
        raise LinAlgError("Array must not contain infs or NaNs")
    w, v, failed = _core._eig(a, compute_v)
    if failed:
        raise LinAlgError("Eigenvalues did not converge")
    if _EIG_ALWAYS_COMPLEX and w.dtype.kind == "f":
        ct = _np.result_type(w.dtype, _np.complex64)
        w = w.astype(ct)
        v = v.astype(ct) if v is not None else None
    return w, v


# NumPy 2.5 returns complex eigenvalues/vectors for real input even when all are real
# (earlier versions gave a real dtype then): follow the installed NumPy.
_EIG_ALWAYS_COMPLEX = _np.lib.NumpyVersion(_np.__version__) >= "2.5.0.dev0"


def eig(a: ArrayLike):
    """numpy.linalg.eig: eigenvalues and right eigenvectors of general square matrices
    (cusolverDnXgeev). Real input gives complex results, or with NumPy < 2.5 real ones when
    every eigenvalue is real, as the installed NumPy does."""
    w, v = _eig(a, True)
    return EigResult(w, v)


def eigvals(a: ArrayLike) -> ndarray:
    """numpy.linalg.eigvals: the eigenvalues of general square matrices (unordered)."""
    w, _ = _eig(a, False)
    return w
