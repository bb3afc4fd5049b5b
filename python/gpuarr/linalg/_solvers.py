"""numpy.linalg's solvers and factorizations on cuSOLVER/cuBLAS: inv det slogdet solve
matrix_power tensorinv tensorsolve qr cholesky lstsq pinv matrix_rank cond svd svdvals.

The heavy lifting (LU, Cholesky, QR, SVD, batched over the leading dims) is in C++
(cpp/ops/linalg_*.cu); this module arranges arguments NumPy-style: dtype promotion
(NumPy's _commonType: bool and integers -> float64, float16 rejected as NumPy and CuPy do),
shape checks with NumPy's messages, broadcasting of solve's operands, and the functions that
NumPy itself builds from the factorizations (pinv, lstsq, matrix_rank, cond, ...).

Unlike NumPy, which computes everything in double precision, float32/complex64 inputs are
computed in single precision (as CuPy): results agree with NumPy to float32 tolerance.
"""

from __future__ import annotations

import operator
import warnings
from collections import namedtuple
from math import inf, nan
from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _indexing, _reductions, _shape_ops, _sorting, _ufuncs
from gpuarr._core import LinAlgError, ndarray
from gpuarr.linalg import _eigen, _norms

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

# NumPy 2's result types (named tuples with the same names and fields, so that results
# compare equal to NumPy's).
QRResult = namedtuple("QRResult", ["Q", "R"], module="gpuarr.linalg")
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"], module="gpuarr.linalg")
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"], module="gpuarr.linalg")
QRResult.__doc__ = "The result of qr: Q and R (numpy.linalg.QRResult)."
SlogdetResult.__doc__ = ("The result of slogdet: the sign and the log of the absolute determinant "
                         "(numpy.linalg.SlogdetResult).")
SVDResult.__doc__ = "The result of svd: U, S and Vh (numpy.linalg.SVDResult)."

__all__ = [
    "inv", "det", "slogdet", "solve", "matrix_power", "tensorinv", "tensorsolve", "qr",
    "cholesky", "lstsq", "pinv", "matrix_rank", "cond", "svd", "svdvals",
    "QRResult", "SlogdetResult", "SVDResult",
]

_F32, _F64 = _np.dtype(_np.float32), _np.dtype(_np.float64)
_C64, _C128 = _np.dtype(_np.complex64), _np.dtype(_np.complex128)


# ---------------------------------------------------------------- host-side rules
def common_type(*dtypes):
    """NumPy's linalg _commonType on dtypes: the result (= compute) dtype. bool/int ->
    float64; float16 (and other unsupported inexact types) -> TypeError as NumPy."""
    is_complex = False
    double = False
    for dt in dtypes:
        dt = _np.dtype(dt)
        if dt.kind in "fc":
            if dt not in (_F32, _F64, _C64, _C128):
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
            if dt.kind == "c":
                is_complex = True
            if dt in (_F64, _C128):
                double = True
        else:
            double = True
    if is_complex:
        return _C128 if double else _C64
    return _F64 if double else _F32


def real_type(dt):
    return {_C64: _F32, _C128: _F64}.get(_np.dtype(dt), _np.dtype(dt))


def assert_stacked_2d(shape):
    if len(shape) < 2:
        raise LinAlgError(
            "%d-dimensional array given. Array must be at least two-dimensional" % len(shape))


def assert_stacked_square(shape):
    assert_stacked_2d(shape)
    if shape[-1] != shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")


def solve_shapes(a_shape, b_shape):
    """NumPy 2's solve rules: (batch shape, b is a vector). b of ndim 1 is (M,) (gufunc
    solve1), else (..., M, K) (gufunc solve)."""
    n = a_shape[-1]
    if len(b_shape) == 1:
        if b_shape[0] != n:
            raise ValueError(
                "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                f"signature (m,m),(m)->(m) (size {b_shape[0]} is different from {n})")
        return tuple(a_shape[:-2]), True
    if b_shape[-2] != n:
        raise ValueError(
            "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature (m,m),(m,n)->(m,n) (size {b_shape[-2]} is different from {n})")
    return tuple(_np.broadcast_shapes(tuple(a_shape[:-2]), tuple(b_shape[:-2]))), False


# ---------------------------------------------------------------- helpers
def _asarray(a):
    return a if isinstance(a, ndarray) else _core.asarray(a)


def _cast(a, dt):
    return a if a.dtype == dt else a.astype(dt)


def _swap(a):
    return _shape_ops.swapaxes(a, -1, -2)


def _batched_eye(batch, n, dt):
    e = _core.eye(n, dtype=dt)
    if not batch:
        return e
    out = _core.empty(tuple(batch) + (n, n), dtype=dt)
    out[...] = e
    return out


# ---------------------------------------------------------------- LU family
def det(a: ArrayLike) -> ndarray:
    """numpy.linalg.det, batched."""
    a = _asarray(a)
    assert_stacked_square(a.shape)
    t = common_type(a.dtype)
    return _core._linalg_det(_cast(a, t))


def slogdet(a: ArrayLike):
    """numpy.linalg.slogdet: SlogdetResult(sign, logabsdet); singular -> (0, -inf)."""
    a = _asarray(a)
    assert_stacked_square(a.shape)
    t = common_type(a.dtype)
    sign, logabs = _core._linalg_slogdet(_cast(a, t))
    return SlogdetResult(sign, logabs)


def inv(a: ArrayLike) -> ndarray:
    """numpy.linalg.inv, batched; LinAlgError('Singular matrix')."""
    a = _asarray(a)
    assert_stacked_square(a.shape)
    t = common_type(a.dtype)
    a = _cast(a, t)
    # NaN results for the matrices with a NaN, set on the device in C++ (no full-size
    # temporary).
    try:
        r = _core._linalg_inv(a, True, True)
    except LinAlgError:
        if _all_finite(a):
            raise
        # NaN/inf input: NumPy returns, it does not raise
        r = _core._linalg_inv(a, False, True)
    return r


def _all_finite(a):
    return bool(_ufuncs.isfinite(a).all())


def solve(a: ArrayLike, b: ArrayLike) -> ndarray:
    """numpy.linalg.solve with NumPy 2's rules for b: (M,) or (..., M, K)."""
    a = _asarray(a)
    assert_stacked_square(a.shape)
    b = _asarray(b)
    t = common_type(a.dtype, b.dtype)
    batch, vector = solve_shapes(a.shape, b.shape)
    n = a.shape[-1]
    a = _cast(a, t)
    if tuple(a.shape[:-2]) != batch:
        a = _shape_ops.broadcast_to(a, batch + (n, n))
    if vector:
        return _solve(a, _shape_ops.broadcast_to(b[:, None], batch + (n, 1)))[..., 0]
    if tuple(b.shape[:-2]) != batch:
        b = _shape_ops.broadcast_to(b, batch + tuple(b.shape[-2:]))
    return _solve(a, b)


def _solve(a, b):
    # The solutions of the matrices with a NaN are NaN, as LAPACK gives (cuSOLVER's
    # pivoting can step over a NaN and return finite values): set on the device in C++.
    try:
        return _core._linalg_solve(a, b, True)
    except LinAlgError:
        if _all_finite(a):
            raise
        # NaN/inf input: NumPy returns NaN/inf, it does not raise "Singular matrix".
        return _core.full(b.shape, _np.nan, dtype=a.dtype)


def matrix_power(a: ArrayLike, n) -> ndarray:
    """numpy.linalg.matrix_power (matmul by binary decomposition; inv for n < 0)."""
    a = _asarray(a)
    assert_stacked_square(a.shape)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        out = _core.empty_like(a)
        out[...] = _core.eye(a.shape[-2], dtype=a.dtype)
        return out
    if n < 0:
        a = inv(a)
        n = -n
    if n == 1:
        return a
    if n == 2:
        return _core.matmul(a, a)
    if n == 3:
        return _core.matmul(_core.matmul(a, a), a)
    z = result = None
    while n > 0:
        z = a if z is None else _core.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _core.matmul(result, z)
    return result


def tensorinv(a: ArrayLike, ind: int = 2) -> ndarray:
    """numpy.linalg.tensorinv."""
    a = _asarray(a)
    oldshape = a.shape
    prod = 1
    if ind > 0:
        invshape = oldshape[ind:] + oldshape[:ind]
        for k in oldshape[ind:]:
            prod *= k
    else:
        raise ValueError("Invalid ind argument.")
    a = a.reshape(prod, -1)
    ia = inv(a)
    return ia.reshape(*invshape)


def tensorsolve(a: ArrayLike, b: ArrayLike, axes=None) -> ndarray:
    """numpy.linalg.tensorsolve."""
    a = _asarray(a)
    b = _asarray(b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = 1
    for k in oldshape:
        prod *= k
    if a.size != prod ** 2:
        raise LinAlgError(
            "Input arrays must satisfy the requirement "
            "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    a = a.reshape(prod, prod)
    b = b.ravel()
    res = solve(a, b)
    return res.reshape(oldshape)


# ---------------------------------------------------------------- Cholesky, QR
def cholesky(a: ArrayLike, /, *, upper=False) -> ndarray:
    """numpy.linalg.cholesky (NumPy 2's upper=); reads only the lower (upper) triangle."""
    a = _asarray(a)
    assert_stacked_square(a.shape)
    t = common_type(a.dtype)
    return _core._linalg_cholesky(_cast(a, t), bool(upper))


def qr(a: ArrayLike, mode="reduced"):
    """numpy.linalg.qr: modes 'reduced', 'complete', 'r', 'raw' (h transposed as NumPy)."""
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            msg = ("The 'full' option is deprecated in favor of 'reduced'.\n"
                   "For backward compatibility let mode default.")
            warnings.warn(msg, DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    a = _asarray(a)
    assert_stacked_2d(a.shape)
    m, n = a.shape[-2:]
    t = common_type(a.dtype)
    a = _cast(a, t)
    if mode in ("reduced", "complete", "r"):
        # Small real matrices: one own kernel (Householder in shared memory, one block
        # per matrix) gives Q and R; None where it does not apply (GPUARR_QR_OWN_MAX_N).
        res = _core._linalg_qr_small(a, mode == "complete", mode != "r")
        if res is not None:
            return res if mode == "r" else QRResult(*res)
    h, tau = _core._linalg_qr_raw(a)
    mn = min(m, n)
    if mode == "r":
        return _shape_ops.triu(_swap(h)[..., :mn, :])
    if mode == "raw":
        return h, tau
    if mode == "economic":
        return _swap(h)
    mc = m if (mode == "complete" and m > n) else mn
    q = _core._linalg_qr_q(h, tau, mc)
    r = _shape_ops.triu(_swap(h)[..., :mc, :])
    return QRResult(q, r)


# ---------------------------------------------------------------- SVD family
def svd(a: ArrayLike, full_matrices=True, compute_uv=True, hermitian=False):
    """numpy.linalg.svd: SVDResult(U, S, Vh) or S; hermitian through eigh as NumPy."""
    a = _asarray(a)
    if hermitian:
        return _svd_hermitian(a, compute_uv)
    assert_stacked_2d(a.shape)
    t = common_type(a.dtype)
    m, n = a.shape[-2:]
    batch = tuple(a.shape[:-2])
    if min(m, n) == 0:
        s = _core.empty(batch + (0,), dtype=real_type(t))
        if not compute_uv:
            return s
        if full_matrices:
            u = _batched_eye(batch, m, t)
            vh = _batched_eye(batch, n, t)
        else:
            u = _core.empty(batch + (m, 0), dtype=t)
            vh = _core.empty(batch + (0, n), dtype=t)
        return SVDResult(u, s, vh)
    r = _core._linalg_svd(_cast(a, t), bool(full_matrices), bool(compute_uv))
    if not compute_uv:
        return r
    return SVDResult(*r)


def _svd_hermitian(a, compute_uv):
    # As NumPy: eigh, |w| sorted descending, the signs moved into vh.
    if compute_uv:
        s, u = _eigen.eigh(a)
        sgn = _ufuncs.copysign(1.0, s).astype(s.dtype)
        s = _ufuncs.abs(s)
        sidx = _sorting.argsort(s, axis=-1)[..., ::-1]
        sgn = _indexing.take_along_axis(sgn, sidx, axis=-1)
        s = _indexing.take_along_axis(s, sidx, axis=-1)
        u = _indexing.take_along_axis(u, sidx[..., None, :], axis=-1)
        vt = _ufuncs.conj(_swap(u * sgn[..., None, :]))
        return SVDResult(u, s, vt)
    s = _ufuncs.abs(_eigen.eigvalsh(a))
    return _sorting.sort(s, axis=-1)[..., ::-1]


def svdvals(x: ArrayLike, /) -> ndarray:
    """numpy.linalg.svdvals: singular values, descending."""
    return svd(x, compute_uv=False, hermitian=False)


class _NoValue:
    """The default of an argument whose absence differs from None (numpy's ``<no value>``)."""

    def __repr__(self):
        return "<no value>"


_NO_VALUE = _NoValue()


def pinv(a: ArrayLike, rcond=None, hermitian=False, *, rtol=_NO_VALUE) -> ndarray:
    """numpy.linalg.pinv (NumPy 2's rcond/rtol rules), batched, through the SVD."""
    a = _asarray(a)
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * _np.finfo(a.dtype).eps  # NumPy: integers refused
        else:
            rcond = rtol
    elif rtol is not _NO_VALUE:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if a.size == 0 and _np.prod(a.shape[-2:]) == 0:
        # NumPy returns an empty array of the input's own dtype here (before its SVD, which
        # would refuse a 1-d input or float16).
        m, n = a.shape[-2:]
        return _core.empty(tuple(a.shape[:-2]) + (n, m), dtype=a.dtype)
    assert_stacked_2d(a.shape)
    t = common_type(a.dtype)
    m, n = a.shape[-2:]
    if a.size == 0:
        return _core.empty(tuple(a.shape[:-2]) + (n, m), dtype=t)
    a = _ufuncs.conj(_cast(a, t))
    u, s, vt = svd(a, full_matrices=False, hermitian=hermitian)
    rc = rcond if isinstance(rcond, ndarray) else _core.asarray(_np.asarray(rcond))
    cutoff = rc[..., None] * _reductions.max(s, axis=-1, keepdims=True)
    large = s > cutoff
    sinv = _indexing.where(large, 1 / _indexing.where(large, s, 1), 0).astype(s.dtype)
    return _core.matmul(_swap(vt), sinv[..., None] * _swap(u))


def matrix_rank(A: ArrayLike, tol=None, hermitian=False, *, rtol=None) -> ndarray:
    """numpy.linalg.matrix_rank: a 0-d (or batch-shaped) int64 array."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = _asarray(A)
    if A.ndim < 2:
        return int(not bool(_reductions.all(A == 0)))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * _np.finfo(S.dtype).eps
        else:
            rtol = _asarray(rtol)[..., None]
        # NumPy's S.max(initial=0): an empty matrix has no singular values and rank 0.
        if S.shape[-1]:
            smax = _reductions.max(S, axis=-1, keepdims=True)
        else:
            smax = _core.zeros(S.shape[:-1] + (1,), dtype=S.dtype)
        tol = smax * rtol
    else:
        tol = _asarray(tol)[..., None]
    return _reductions.count_nonzero(S > tol, axis=-1)


def cond(x: ArrayLike, p=None) -> ndarray:
    """numpy.linalg.cond for every p (None/2/-2 through the SVD, else norm(x) * norm(inv(x)))."""
    x = _asarray(x)
    if x.size == 0 and _np.prod(x.shape[-2:]) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or p == 2 or p == -2:
        s = svd(x, compute_uv=False)
        if p == -2:
            r = s[..., -1] / s[..., 0]
        else:
            r = s[..., 0] / s[..., -1]
    else:
        assert_stacked_square(x.shape)
        t = common_type(x.dtype)
        invx = _core._linalg_inv(_cast(x, t), False)
        r = _la_norm(x, p) * _inverse_norm(invx, p)
        r = r.astype(real_type(t))
    # nan -> inf unless x itself had nans (NumPy).
    nan_mask = _ufuncs.isnan(r)
    if bool(_reductions.any(nan_mask)):
        nan_mask = nan_mask & ~_reductions.any(_ufuncs.isnan(x), axis=(-2, -1))
        r = _indexing.where(nan_mask, inf, r).astype(r.dtype)
    return r


def _la_norm(x, p):
    return _norms.norm(x, p, axis=(-2, -1))


def _inverse_norm(invx, p):
    """norm(inv(x), p) for cond. A singular x has an inverse with inf/NaN entries, whose
    SVD (the 'nuc' norm) cuSOLVER does not converge on, where NumPy's LAPACK gives NaN or
    raises, by version: such matrices get NaN here, which cond reports as inf."""
    if p != "nuc":
        return _la_norm(invx, p)
    finite = _reductions.all(_ufuncs.isfinite(invx), axis=(-2, -1))
    if bool(_reductions.all(finite)):
        return _la_norm(invx, p)
    safe = _indexing.where(finite[..., None, None], invx, 0).astype(invx.dtype)
    return _indexing.where(finite, _la_norm(safe, p), nan)


def lstsq(a: ArrayLike, b: ArrayLike, rcond=None):
    """numpy.linalg.lstsq: (x, residuals, rank, s) through the SVD; rcond=None is
    eps * max(M, N) of the compute dtype."""
    a = _asarray(a)
    b = _asarray(b)
    is_1d = b.ndim == 1
    if is_1d:
        b = b[:, None]
    for arr in (a, b):
        if arr.ndim != 2:
            raise LinAlgError(
                "%d-dimensional array given. Array must be two-dimensional" % arr.ndim)
    m, n = a.shape
    m2, n_rhs = b.shape
    if m != m2:
        raise LinAlgError("Incompatible dimensions")
    t = common_type(a.dtype, b.dtype)
    rt = real_type(t)
    if rcond is None:
        rcond = _np.finfo(t).eps * max(n, m)
    elif rcond < 0:  # LAPACK's gelsd: machine precision
        rcond = _np.finfo(t).eps
    a = _cast(a, t)
    b = _cast(b, t)
    k = min(m, n)
    if k == 0:
        x = _core.zeros((n, n_rhs), dtype=t)
        s = _core.empty((0,), dtype=rt)
        rank = 0
        if m > n:  # n == 0: the residual is all of b
            resids = _reductions.sum(_ufuncs.abs(b) ** 2, axis=0).astype(rt)
        else:
            resids = _core.empty((0,), dtype=rt)
        return (x[:, 0] if is_1d else x), resids, _np.int32(rank), s
    u, s, vh = svd(a, full_matrices=False)
    cutoff = float(rcond) * s[0]
    large = s > cutoff
    rank = int(_reductions.count_nonzero(large))
    sinv = _indexing.where(large, 1 / _indexing.where(large, s, 1), 0).astype(rt)
    ub = _core.matmul(_ufuncs.conj(_swap(u)), b)           # (k, K)
    x = _core.matmul(_ufuncs.conj(_swap(vh)), sinv[:, None] * ub)  # (n, K)
    x = x.astype(t)
    if rank == n and m > n:
        resids = _reductions.sum(_ufuncs.abs(b - _core.matmul(a, x)) ** 2, axis=0).astype(rt)
    else:
        resids = _core.empty((0,), dtype=rt)
    if is_1d:
        x = x[:, 0]
    # NumPy's rank is its LAPACK gufunc's int32 output.
    return x, resids, _np.int32(rank), s
