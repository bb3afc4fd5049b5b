"""NumPy's legacy polynomial functions (poly, roots, polyval, polyfit, polyadd, polysub,
polymul, polydiv, polyder, polyint) and the poly1d class, on the device, with NumPy's
algorithms: Horner's rule in ufuncs, least squares through linalg.lstsq, roots as the
eigenvalues of the companion matrix, products by convolution.

Coefficients are 1-d arrays, highest power first. The recurrences over coefficients
(poly's product of linear factors, polydiv's long division) take one small step per
coefficient, as NumPy's do: their length is the polynomial's degree."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as _np

from gpuarr import (
    _array_edit, _convolve, _core, _creation, _grid_creation, _indexing, _products,
    _reductions, _shape_ops, _sorting, _ufuncs,
)
from gpuarr._array_utils import mintypecode
from gpuarr._core import ndarray as _ndarray
from gpuarr.linalg import _eigen, _solvers

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["poly", "roots", "polyint", "polyder", "polyfit", "polyval", "polyadd", "polysub",
           "polymul", "polydiv", "poly1d"]


def _as(a):
    if isinstance(a, poly1d):
        return a.coeffs
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _atleast_1d(a):
    return _shape_ops.atleast_1d(_as(a))


def _iterable_argument(a, name):
    """``a`` as an array; scalars and 0-d arrays are refused with a TypeError, as NumPy's
    dispatch of poly and roots refuses them (it iterates over the argument)."""
    a = _as(a)
    if a.ndim == 0:
        raise TypeError(f"{name}() argument must be an iterable, not a 0-d array or scalar")
    return a


def poly(seq_of_zeros: ArrayLike) -> ndarray | float:
    """The coefficients of the monic polynomial with the given roots (numpy.poly).

    Parameters
    ----------
    seq_of_zeros : array_like
        The roots (1-d), or a non-empty square matrix whose characteristic polynomial is
        wanted.

    Returns
    -------
    ndarray or float
        The coefficients, highest power first (real when complex roots come in conjugate
        pairs); 1.0 for no roots.
    """
    zeros = _iterable_argument(seq_of_zeros, "poly")
    sh = zeros.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        zeros = _eigen.eigvals(zeros)
    elif len(sh) == 1:
        zeros = zeros.astype(_np.dtype(mintypecode(zeros.dtype.char)))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if len(zeros) == 0:
        return 1.0
    dt = zeros.dtype
    a = _core.ones((1,), dtype=dt)
    pad = _core.zeros((1,), dtype=dt)
    for zero in zeros:
        # a convolved with [1, -zero]: a[i] - zero * a[i-1]
        a = _ufuncs.subtract(_shape_ops.concatenate((a, pad)),
                             _ufuncs.multiply(zero, _shape_ops.concatenate((pad, a))))
    if a.dtype.kind == "c":
        # complex roots in conjugate pairs give a real polynomial
        r = zeros.astype(_np.complex128)
        if bool(_reductions.all(_ufuncs.equal(_sorting.sort(r),
                                              _sorting.sort(_ufuncs.conjugate(r))))):
            a = _ufuncs.real(a).copy()
    return a


def roots(p: ArrayLike) -> ndarray:
    """The roots of a polynomial (numpy.roots): the eigenvalues of its companion matrix.

    Parameters
    ----------
    p : array_like
        Rank-1 coefficients, highest power first.

    Returns
    -------
    ndarray
        The roots (complex unless all are real); empty for a constant polynomial.
    """
    p = _iterable_argument(p, "roots")
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    non_zero = _indexing.flatnonzero(p)
    if len(non_zero) == 0:
        return _core.zeros((0,))
    first, last = (int(i) for i in _core.asnumpy(non_zero[[0, -1]]))
    trailing_zeros = len(p) - last - 1
    p = p[first:last + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(float)
    n = len(p)
    if n > 1:
        companion = _shape_ops.diag(_core.ones((n - 2,), p.dtype), -1)
        companion[0, :] = _ufuncs.divide(_ufuncs.negative(p[1:]), p[0])
        r = _eigen.eigvals(companion)
        if r.dtype.kind == "c" and p.dtype.kind == "f" and not r.imag.any():
            # The roots of a real polynomial stay real when all are: NumPy's eigvals did
            # so before 2.5, and from 2.5 on (eigvals always complex) roots does it.
            r = r.real
    else:
        r = _core.zeros((0,))
    return _shape_ops.hstack((r, _core.zeros(trailing_zeros, r.dtype)))


def polyint(p: ArrayLike, m: int = 1, k: ArrayLike | None = None) -> ndarray:
    """The ``m``-th antiderivative of a polynomial (numpy.polyint).

    Parameters
    ----------
    p : array_like or poly1d
        Coefficients, highest power first.
    m : int, optional
        The order of the antiderivative.
    k : scalar or array_like, optional
        The integration constants, the one of the first integration first (zeros by
        default; a scalar is used for every integration).

    Returns
    -------
    ndarray or poly1d
        The antiderivative's coefficients (a poly1d for a poly1d ``p``).
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = _core.zeros(m, float)
    k = _atleast_1d(k)
    if len(k) == 1 and m > 1:
        k = _ufuncs.multiply(k[0], _core.ones(m, float))
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    p = p.coeffs if truepoly else _as(p)
    if m == 0:
        return poly1d(p) if truepoly else p
    y = _shape_ops.concatenate(
        (_ufuncs.true_divide(p, _creation.arange(len(p), 0, -1)), k[:1]))
    val = polyint(y, m - 1, k=k[1:])
    return poly1d(val) if truepoly else val


def polyder(p: ArrayLike, m: int = 1) -> ndarray:
    """The ``m``-th derivative of a polynomial (numpy.polyder).

    Parameters
    ----------
    p : array_like or poly1d
        Coefficients, highest power first.
    m : int, optional
        The order of the derivative.

    Returns
    -------
    ndarray or poly1d
        The derivative's coefficients (a poly1d for a poly1d ``p``).
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    p = p.coeffs if truepoly else _as(p)
    n = len(p) - 1
    y = _ufuncs.multiply(p[:-1], _creation.arange(n, 0, -1))
    val = p if m == 0 else polyder(y, m - 1)
    return poly1d(val) if truepoly else val


def polyfit(x: ArrayLike, y: ArrayLike, deg: int, rcond: float | None = None,
            full: bool = False, w: ArrayLike | None = None, cov: bool | str = False) -> Any:
    """The least-squares polynomial fit of degree ``deg`` (numpy.polyfit), solved by
    linalg.lstsq on the column-scaled Vandermonde matrix.

    Parameters
    ----------
    x : array_like
        1-d sample abscissas.
    y : array_like
        1-d samples, or 2-d with one data set per column.
    deg : int
        The degree of the fitting polynomial.
    rcond : float, optional
        Relative cutoff of small singular values (``len(x) * eps`` by default).
    full : bool, optional
        Also return lstsq's diagnostics.
    w : array_like, optional
        Weights of the samples' residuals.
    cov : bool or 'unscaled', optional
        Also return the coefficients' covariance matrix.

    Returns
    -------
    p : ndarray
        Coefficients, highest power first (one column per data set).
    residuals, rank, singular_values, rcond : ndarray, int, ndarray, float
        With ``full=True``, as numpy.polyfit.
    V : ndarray
        With ``cov``, the covariance matrix of the coefficients.
    """
    order = int(deg) + 1
    x = _ufuncs.add(_as(x), 0.0)
    y = _ufuncs.add(_as(y), 0.0)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * _np.finfo(x.dtype).eps
    lhs = _grid_creation.vander(x, order)
    rhs = y
    if w is not None:
        w = _ufuncs.add(_as(w), 0.0)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = _ufuncs.multiply(lhs, w[:, None])
        rhs = _ufuncs.multiply(rhs, w[:, None] if rhs.ndim == 2 else w)
    scale = _ufuncs.sqrt(_reductions.sum(_ufuncs.multiply(lhs, lhs), axis=0))
    lhs = _ufuncs.true_divide(lhs, scale)
    c, resids, rank, s = _solvers.lstsq(lhs, rhs, rcond)
    c = _ufuncs.true_divide(c.T, scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        vbase = _solvers.inv(_products.dot(lhs.T, lhs))
        vbase = _ufuncs.true_divide(vbase, _products.outer(scale, scale))
        if cov == "unscaled":
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError("the number of data points must exceed order to scale the "
                                 "covariance matrix")
            fac = _ufuncs.true_divide(resids, len(x) - order)
        if y.ndim == 1:
            return c, _ufuncs.multiply(vbase, fac)
        return c, _ufuncs.multiply(vbase[:, :, None], fac)
    return c


def polyval(p: ArrayLike, x: ArrayLike) -> ndarray:
    """A polynomial evaluated at ``x`` by Horner's rule (numpy.polyval).

    Parameters
    ----------
    p : array_like or poly1d
        Coefficients, highest power first.
    x : array_like or poly1d
        The points (a poly1d ``x`` gives the composition ``p(x)``).

    Returns
    -------
    ndarray or poly1d
        ``p[0] * x**(N-1) + ... + p[N-1]``, in the dtype NumPy's rule gives.
    """
    p = _as(p)
    if isinstance(x, poly1d):
        y = 0
        for pv in p:
            y = y * x + pv
        return y
    x = _as(x)
    y = _core.zeros(x.shape, dtype=x.dtype)
    for pv in p:
        y = _ufuncs.add(_ufuncs.multiply(y, x), pv)
    return y


def _padded_op(op, a1, a2):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1 = _atleast_1d(a1)
    a2 = _atleast_1d(a2)
    diff = len(a2) - len(a1)
    if diff > 0:
        a1 = _shape_ops.concatenate((_core.zeros(diff, a1.dtype), a1))
    elif diff < 0:
        a2 = _shape_ops.concatenate((_core.zeros(-diff, a2.dtype), a2))
    val = op(a1, a2)
    return poly1d(val) if truepoly else val


def polyadd(a1: ArrayLike, a2: ArrayLike) -> ndarray:
    """The sum of two polynomials (numpy.polyadd).

    Parameters
    ----------
    a1, a2 : array_like or poly1d
        Coefficients, highest power first.

    Returns
    -------
    ndarray or poly1d
        The sum's coefficients (a poly1d when an input is one).
    """
    return _padded_op(_ufuncs.add, a1, a2)


def polysub(a1: ArrayLike, a2: ArrayLike) -> ndarray:
    """The difference of two polynomials, ``a1 - a2`` (numpy.polysub).

    Parameters
    ----------
    a1, a2 : array_like or poly1d
        Coefficients, highest power first.

    Returns
    -------
    ndarray or poly1d
        The difference's coefficients (a poly1d when an input is one).
    """
    return _padded_op(_ufuncs.subtract, a1, a2)


def polymul(a1: ArrayLike, a2: ArrayLike) -> ndarray:
    """The product of two polynomials, by convolution (numpy.polymul).

    Parameters
    ----------
    a1, a2 : array_like or poly1d
        Coefficients, highest power first.

    Returns
    -------
    ndarray or poly1d
        The product's coefficients (a poly1d when an input is one).
    """
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    val = _convolve.convolve(poly1d(a1).coeffs, poly1d(a2).coeffs)
    return poly1d(val) if truepoly else val


def polydiv(u: ArrayLike, v: ArrayLike) -> tuple:
    """The quotient and remainder of polynomial division (numpy.polydiv).

    Parameters
    ----------
    u : array_like or poly1d
        The dividend's coefficients, highest power first.
    v : array_like or poly1d
        The divisor's coefficients.

    Returns
    -------
    q, r : ndarray or poly1d
        The quotient and the remainder (leading coefficients within 1e-8 of zero removed).
    """
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = _ufuncs.add(_atleast_1d(u), 0.0)
    v = _ufuncs.add(_atleast_1d(v), 0.0)
    for c in (u, v):
        if len(c) == 0:  # NumPy reads u[0] + v[0] for the result dtype
            raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    dt = _np.result_type(u.dtype, v.dtype)
    m = len(u) - 1
    n = len(v) - 1
    scale = _ufuncs.true_divide(1.0, v[0])
    q = _core.zeros((max(m - n + 1, 1),), dt)
    r = u.astype(dt)
    for k in range(m - n + 1):
        d = _ufuncs.multiply(scale, r[k])
        q[k] = d
        r[k:k + n + 1] -= _ufuncs.multiply(d, v)
    # NumPy drops leading remainder terms while allclose(r[0], 0, rtol=1e-14), that is
    # |r[0]| <= 1e-8, keeping at least one: one host read of the (degree-long) test.
    close = _core.asnumpy(_ufuncs.less_equal(_ufuncs.absolute(r), 1e-8))
    lead = 0
    while lead < len(close) - 1 and close[lead]:
        lead += 1
    r = r[lead:]
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


class poly1d:
    """A one-dimensional polynomial with device coefficients (numpy.poly1d).

    Parameters
    ----------
    c_or_r : array_like or poly1d
        Coefficients, highest power first, or the roots when ``r`` is True.
    r : bool, optional
        Whether ``c_or_r`` holds the roots.
    variable : str, optional
        The variable's name in the printed form ('x').

    Attributes
    ----------
    coeffs, c, coef, coefficients : ndarray
        The coefficients (leading zeros removed).
    order, o : int
        The degree.
    roots, r : ndarray
        The roots.
    variable : str
        The variable's name.
    """

    __hash__ = None

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c_or_r = _atleast_1d(c_or_r)
        if c_or_r.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c_or_r = _array_edit.trim_zeros(c_or_r, trim="f")
        if len(c_or_r) == 0:
            c_or_r = _core.zeros((1,), dtype=c_or_r.dtype)
        self._coeffs = c_or_r
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self) -> ndarray:
        """The coefficients, highest power first."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        # allows in-place updates such as p.coeffs *= 2
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    @property
    def variable(self) -> str:
        """The variable's name in the printed form."""
        return self._variable

    @property
    def order(self) -> int:
        """The degree of the polynomial."""
        return len(self._coeffs) - 1

    @property
    def roots(self) -> ndarray:
        """The roots of the polynomial."""
        return roots(self._coeffs)

    r = roots
    c = coef = coefficients = coeffs
    o = order

    def __repr__(self) -> str:
        return f"poly1d({repr(self.coeffs)[6:-1]})"

    def __str__(self) -> str:
        # NumPy's layout of the printed polynomial, from a host copy of the coefficients.
        return str(_np.poly1d(_core.asnumpy(self.coeffs), variable=self.variable))

    def __len__(self) -> int:
        return self.order

    def __call__(self, val: Any) -> Any:
        return polyval(self.coeffs, val)

    def __neg__(self) -> poly1d:
        return poly1d(_ufuncs.negative(self.coeffs))

    def __pos__(self) -> poly1d:
        return self

    def __mul__(self, other: Any) -> poly1d:
        if _np.isscalar(other):
            return poly1d(_ufuncs.multiply(self.coeffs, other))
        return poly1d(polymul(self.coeffs, poly1d(other).coeffs))

    def __rmul__(self, other: Any) -> poly1d:
        if _np.isscalar(other):
            return poly1d(_ufuncs.multiply(other, self.coeffs))
        return poly1d(polymul(self.coeffs, poly1d(other).coeffs))

    def __add__(self, other: Any) -> poly1d:
        return poly1d(polyadd(self.coeffs, poly1d(other).coeffs))

    __radd__ = __add__

    def __pow__(self, val: Any) -> poly1d:
        if not _np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = [1]
        for _ in range(val):
            res = polymul(self.coeffs, res)
        return poly1d(res)

    def __sub__(self, other: Any) -> poly1d:
        return poly1d(polysub(self.coeffs, poly1d(other).coeffs))

    def __rsub__(self, other: Any) -> poly1d:
        return poly1d(polysub(poly1d(other).coeffs, self.coeffs))

    def __truediv__(self, other: Any) -> Any:
        if _np.isscalar(other):
            return poly1d(_ufuncs.true_divide(self.coeffs, other))
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other: Any) -> Any:
        if _np.isscalar(other):
            return poly1d(_ufuncs.true_divide(other, self.coeffs))
        return polydiv(poly1d(other), self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, poly1d):
            return NotImplemented
        if self.coeffs.shape != other.coeffs.shape:
            return False
        return bool(_reductions.all(_ufuncs.equal(self.coeffs, other.coeffs)))

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val: int) -> Any:
        if val > self.order or val < 0:
            return self.coeffs.dtype.type(0)
        return self.coeffs[self.order - val]

    def __setitem__(self, key: int, val: Any) -> None:
        ind = self.order - key
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            zr = _core.zeros(key - self.order, self.coeffs.dtype)
            self._coeffs = _shape_ops.concatenate((zr, self.coeffs))
            ind = 0
        self._coeffs[ind] = val

    def __iter__(self):
        return iter(self.coeffs)

    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        """The ``m``-th antiderivative, with integration constants ``k`` (see polyint)."""
        return poly1d(polyint(self.coeffs, m=m, k=k))

    def deriv(self, m: int = 1) -> poly1d:
        """The ``m``-th derivative (see polyder)."""
        return poly1d(polyder(self.coeffs, m=m))
