"""Set operations on 1-d arrays (numpy's arraysetops): isin, intersect1d, union1d, setdiff1d,
setxor1d. Composed from the device sort, unique and searchsorted: membership is a binary
search of each element in the sorted test values, so ``assume_unique`` is only a hint and
``kind`` selects nothing (the result is the same for every kind, as NumPy's is)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np

from gpuarr import _core, _shape_ops, _sorting, _ufuncs
from gpuarr._core import ndarray as _ndarray

if TYPE_CHECKING:
    from gpuarr._typing import ArrayLike, ndarray

__all__ = ["isin", "intersect1d", "union1d", "setdiff1d", "setxor1d"]


def _as(a):
    return a if isinstance(a, _ndarray) else _core.asarray(a)


def _check_kind(kind, *arrays):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if kind == "table" and not all(a.dtype.kind in "uib" for a in arrays):
        raise ValueError(
            "The 'table' method is only supported for boolean or integer arrays. "
            "Please select 'sort' or None for kind.")


def _membership(flat, test, invert):
    """For each element of the 1-d ``flat``: is it equal to some element of ``test``?"""
    test = test.reshape(-1)
    if test.shape[0] == 0 or flat.shape[0] == 0:
        return _core.full(flat.shape, bool(invert), dtype=_np.bool_)
    common = _np.result_type(flat.dtype, test.dtype)
    flat = flat.astype(common, copy=False)
    t = _sorting.sort(test.astype(common, copy=False))
    pos = _sorting.searchsorted(t, flat, "left")
    pos = _ufuncs.minimum(pos, t.shape[0] - 1)
    if invert:
        return _ufuncs.not_equal(t[pos], flat)
    return _ufuncs.equal(t[pos], flat)


def isin(element: ArrayLike, test_elements: ArrayLike, assume_unique: bool = False,
         invert: bool = False, *, kind: str | None = None) -> ndarray:
    """Whether each element of ``element`` is in ``test_elements`` (numpy.isin).

    Parameters
    ----------
    element : array_like
        Input array.
    test_elements : array_like
        The values to test each element against (flattened).
    assume_unique : bool, optional
        Accepted for NumPy's signature; the result does not depend on it.
    invert : bool, optional
        Whether to return the negated result.
    kind : {None, 'sort', 'table'}, optional
        Accepted for NumPy's signature (every kind gives NumPy's result); 'table' requires
        integer or boolean inputs, as NumPy's does.

    Returns
    -------
    ndarray
        Boolean array of ``element``'s shape.
    """
    element = _as(element)
    test_elements = _as(test_elements)
    _check_kind(kind, element, test_elements)
    return _membership(element.reshape(-1), test_elements, invert).reshape(element.shape)


def _ravel(a):
    return _as(a).reshape(-1)


def intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False,
                return_indices: bool = False):
    """The sorted unique values that are in both arrays (numpy.intersect1d).

    Parameters
    ----------
    ar1, ar2 : array_like
        Input arrays (flattened).
    assume_unique : bool, optional
        If True, the inputs are assumed unique (as in NumPy, duplicates then give
        unspecified results).
    return_indices : bool, optional
        If True, also return the indices of the first occurrences of the common values in
        ``ar1`` and ``ar2``.

    Returns
    -------
    intersect1d : ndarray
        Sorted 1-d array of common and unique elements.
    comm1, comm2 : ndarray
        The indices (only with ``return_indices``).
    """
    ar1 = _ravel(ar1)
    ar2 = _ravel(ar2)
    if not assume_unique:
        if return_indices:
            ar1, ind1 = _sorting.unique(ar1, return_index=True)
            ar2, ind2 = _sorting.unique(ar2, return_index=True)
        else:
            ar1 = _sorting.unique(ar1)
            ar2 = _sorting.unique(ar2)
    aux = _shape_ops.concatenate((ar1, ar2))
    if return_indices:
        order = _sorting.argsort(aux, kind="stable")
        aux = aux[order]
    else:
        aux = _sorting.sort(aux)
    mask = _ufuncs.equal(aux[1:], aux[:-1])
    common = aux[:-1][mask]
    if not return_indices:
        return common
    ar1_indices = order[:-1][mask]
    ar2_indices = order[1:][mask] - ar1.shape[0]
    if not assume_unique:
        ar1_indices = ind1[ar1_indices]
        ar2_indices = ind2[ar2_indices]
    return common, ar1_indices, ar2_indices


def union1d(ar1: ArrayLike, ar2: ArrayLike) -> ndarray:
    """The sorted unique values that are in either array (numpy.union1d).

    Parameters
    ----------
    ar1, ar2 : array_like
        Input arrays (flattened).

    Returns
    -------
    ndarray
        Unique, sorted union of the inputs.
    """
    return _sorting.unique(_shape_ops.concatenate((_ravel(ar1), _ravel(ar2))))


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> ndarray:
    """The unique values of ``ar1`` that are not in ``ar2`` (numpy.setdiff1d).

    Parameters
    ----------
    ar1, ar2 : array_like
        Input arrays (flattened).
    assume_unique : bool, optional
        If True, ``ar1`` is taken as unique and kept in its order (not sorted).

    Returns
    -------
    ndarray
        The values of ``ar1`` not in ``ar2``; sorted unless ``assume_unique``.
    """
    if assume_unique:
        ar1 = _ravel(ar1)
    else:
        ar1 = _sorting.unique(_as(ar1))
    return ar1[_membership(ar1, _as(ar2), True)]


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> ndarray:
    """The sorted unique values that are in exactly one of the arrays (numpy.setxor1d).

    Parameters
    ----------
    ar1, ar2 : array_like
        Input arrays (flattened).
    assume_unique : bool, optional
        If True, the inputs are assumed unique.

    Returns
    -------
    ndarray
        Sorted 1-d array of the values in only one input.
    """
    if not assume_unique:
        ar1 = _sorting.unique(_as(ar1))
        ar2 = _sorting.unique(_as(ar2))
    aux = _shape_ops.concatenate((_ravel(ar1), _ravel(ar2)))
    if aux.shape[0] == 0:
        return aux
    aux = _sorting.sort(aux)
    edge = _core.ones(1, dtype=_np.bool_)
    flag = _shape_ops.concatenate((edge, _ufuncs.not_equal(aux[1:], aux[:-1]), edge))
    return aux[_ufuncs.logical_and(flag[1:], flag[:-1])]
