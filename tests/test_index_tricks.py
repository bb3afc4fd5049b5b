"""Index tricks against NumPy: ix_, r_, c_, mgrid, ogrid, s_, index_exp, the diagonal,
triangle and mask index functions, ravel_multi_index and unravel_index.

Each case runs twice: on the device (skipped without one) and with NumPy standing in for
the operations the functions are built from (``_numpy_standin``), which checks their
argument rules, dtypes and order of operations on any machine, bit for bit."""

import numpy as np
import pytest

import _numpy_standin
from _numpy_standin import check, check_same_outcome, mode, to_host  # noqa: F401 (mode: a fixture)
import gpuarr
from conftest import assert_same_exception, outcome


# --- ix_ ------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ([0, 1], [2, 4]),
    ([1, 3, 0],),
    ([True, False, True], [2, 0]),
    ([], [1, 2]),
    (np.array([1, 2], np.int32), np.array([0], np.uint8), [0, 0, 1]),
    (),
], ids=["two", "one", "bool", "empty", "dtypes", "none"])
def test_ix_(mode, args):
    check(mode, gpuarr.ix_(*args), np.ix_(*args))


def test_ix_indexes_the_cross_product(mode):
    a = np.arange(30).reshape(5, 6)
    rows, cols = gpuarr.ix_([0, 3, 4], [True, False, True, True, False, False])
    er, ec = np.ix_([0, 3, 4], [True, False, True, True, False, False])
    check(mode, (rows, cols), (er, ec))
    np.testing.assert_array_equal(a[to_host(mode, rows), to_host(mode, cols)], a[er, ec])


def test_ix_rejects_nd_sequences(mode):
    check_same_outcome(mode, lambda: gpuarr.ix_([[0, 1]]), lambda: np.ix_([[0, 1]]))


# --- r_ and c_ ------------------------------------------------------------------------------


R_KEYS = [
    np.s_[1:4, 0, [7, 8]],
    np.s_[0:1:5j],
    np.s_[-1:1:6j, [0.5], 0],
    np.s_[[1, 2, 3], [4, 5, 6]],
    np.s_[[1.5], 2],
    np.s_[np.array([1, 2], np.int8), 3],
    np.s_[np.array([1, 2], np.int8), 300],
    np.s_[np.array([1.0], np.float32), 2.5],
    np.s_["0,2", [1, 2, 3], [4, 5, 6]],
    np.s_["1,2", [1, 2, 3], [4, 5, 6]],
    np.s_["0,2,0", [1, 2, 3], [4, 5, 6]],
    np.s_["1,3,1", [1, 2], [3, 4]],
    np.s_["-1", np.ones((2, 2)), np.zeros((2, 1))],
    np.s_[5:1:-1],
    np.s_[:3],
    np.s_[np.ones((2, 3)), np.zeros((1, 3))],
]


@pytest.mark.parametrize("key", R_KEYS, ids=range(len(R_KEYS)))
def test_r_(mode, key):
    check_same_outcome(mode, lambda: gpuarr.r_[key], lambda: np.r_[key])


C_KEYS = [
    np.s_[[1, 2, 3], [4, 5, 6]],
    np.s_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])],
    np.s_[0:3, [1.5, 2, 3]],
    np.s_[np.ones((3, 2)), [7, 8, 9]],
]


@pytest.mark.parametrize("key", C_KEYS, ids=range(len(C_KEYS)))
def test_c_(mode, key):
    check_same_outcome(mode, lambda: gpuarr.c_[key], lambda: np.c_[key])


@pytest.mark.parametrize("key", [
    np.s_[1, "0,2"],  # a directive that is not first
    np.s_["x", [1]],
    np.s_["1,x", [1]],
    np.s_[[[1]], [1, 2]],  # mismatched dimensions in concatenate
], ids=["late-directive", "unknown", "unknown-pair", "shapes"])
def test_r_errors_are_numpys(mode, key):
    check_same_outcome(mode, lambda: gpuarr.r_[key], lambda: np.r_[key])


def test_r_has_no_matrix_directives():
    with pytest.raises(ValueError, match="matrix"):
        gpuarr.r_["r", [1, 2]]
    with pytest.raises(ValueError, match="matrix"):
        gpuarr.r_["1 2; 3 4"]


def test_concatenators_have_numpys_len():
    assert len(gpuarr.r_) == len(np.r_) == 0
    assert len(gpuarr.c_) == len(np.c_) == 0


# --- mgrid and ogrid ------------------------------------------------------------------------


GRID_KEYS = [
    np.s_[0:5],
    np.s_[2:9:3],
    np.s_[-1:1:5j],
    np.s_[0:1:1j],
    np.s_[0.5:2.5:0.5],
    np.s_[5:0],
    np.s_[0:4, 0:5],
    np.s_[0:4:2, -2:3],
    np.s_[-1:1:3j, 0:2:5j],
    np.s_[0:3, 0.0:1.0:0.25],
    np.s_[0:2, 0:3, 1:4:2],
    np.s_[np.int8(0):np.int8(3), 0:2],
    np.s_[0:np.float32(2):np.float32(0.5)],
    np.s_[:3],
]


@pytest.mark.parametrize("key", GRID_KEYS, ids=range(len(GRID_KEYS)))
def test_mgrid(mode, key):
    check_same_outcome(mode, lambda: gpuarr.mgrid[key], lambda: np.mgrid[key])


@pytest.mark.parametrize("key", GRID_KEYS, ids=range(len(GRID_KEYS)))
def test_ogrid(mode, key):
    check_same_outcome(mode, lambda: gpuarr.ogrid[key], lambda: np.ogrid[key])


def test_mgrid_negative_size_is_numpys_error(mode):
    check_same_outcome(mode, lambda: gpuarr.mgrid[5:0, 0:2], lambda: np.mgrid[5:0, 0:2])


def test_index_expressions_are_numpys():
    assert gpuarr.s_[1:3, ..., None] == np.s_[1:3, ..., None]
    assert gpuarr.index_exp[2] == np.index_exp[2] == (2,)


# --- diagonal, triangle and mask indices ------------------------------------------------------


@pytest.mark.parametrize("n,ndim", [(0, 2), (1, 2), (4, 2), (3, 3), (5, 1)])
def test_diag_indices(mode, n, ndim):
    check(mode, gpuarr.diag_indices(n, ndim), np.diag_indices(n, ndim))


@pytest.mark.parametrize("shape", [(3, 3), (2, 2, 2), (0, 0), (3, 4), (3,), ()])
def test_diag_indices_from(mode, shape):
    host = np.zeros(shape)
    arr = host if mode == "standin" else gpuarr.asarray(host)
    check_same_outcome(mode, lambda: gpuarr.diag_indices_from(arr),
                       lambda: np.diag_indices_from(host))


TRI_CASES = [(n, k, m) for n in (0, 1, 4) for k in (-5, -1, 0, 2, 6) for m in (None, 0, 3, 6)]


@pytest.mark.parametrize("n,k,m", TRI_CASES)
def test_tril_triu_indices(mode, n, k, m):
    check(mode, gpuarr.tril_indices(n, k, m), np.tril_indices(n, k, m))
    check(mode, gpuarr.triu_indices(n, k, m), np.triu_indices(n, k, m))


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 2), (0, 3), (4,), (2, 2, 2)])
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_tril_triu_indices_from(mode, shape, k):
    host = np.zeros(shape)
    arr = host if mode == "standin" else gpuarr.asarray(host)
    check_same_outcome(mode, lambda: gpuarr.tril_indices_from(arr, k),
                       lambda: np.tril_indices_from(host, k))
    check_same_outcome(mode, lambda: gpuarr.triu_indices_from(arr, k=k),
                       lambda: np.triu_indices_from(host, k=k))


def test_triangle_indices_select_the_triangle(mode):
    a = np.arange(20.0).reshape(4, 5)
    rows, cols = (to_host(mode, x) for x in gpuarr.triu_indices(4, 1, 5))
    np.testing.assert_array_equal(a[rows, cols], a[np.triu_indices(4, 1, 5)])


@pytest.mark.parametrize("func", ["triu", "tril"])
@pytest.mark.parametrize("n,k", [(3, 0), (4, 1), (4, -2), (0, 0)])
def test_mask_indices(mode, func, n, k):
    check(mode, gpuarr.mask_indices(n, getattr(gpuarr, func), k),
          np.mask_indices(n, getattr(np, func), k))


# --- ravel_multi_index and unravel_index ----------------------------------------------------


@pytest.mark.parametrize("dims", [(3, 4), (2, 3, 5), (7,), (1, 1), (4, 1, 3)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_unravel_roundtrip(mode, rng, dims, order):
    size = int(np.prod(dims))
    flat = rng.integers(0, size, (3, 4))
    check(mode, gpuarr.unravel_index(flat, dims, order=order),
          np.unravel_index(flat, dims, order=order))
    coords = np.unravel_index(flat, dims, order=order)
    check(mode, gpuarr.ravel_multi_index(coords, dims, order=order),
          np.ravel_multi_index(coords, dims, order=order))


@pytest.mark.parametrize("mode_arg", ["wrap", "clip", ("clip", "wrap")])
def test_ravel_multi_index_modes(mode, rng, mode_arg):
    coords = (rng.integers(-7, 7, 10), rng.integers(-9, 9, 10))
    check(mode, gpuarr.ravel_multi_index(coords, (3, 4), mode=mode_arg),
          np.ravel_multi_index(coords, (3, 4), mode=mode_arg))


@pytest.mark.parametrize("coords,dims", [
    (([1, 2], [3, 0]), (3, 4)),
    (([[1], [2]], [0, 1, 3]), (3, 4)),  # broadcast
    ((1, 2), (3, 4)),  # scalars: a 0-d result
    ((np.array([1], np.uint8), np.array([2], np.int16)), (3, 4)),
    ((np.array([True, False]), [1, 2]), (2, 3)),
    ((np.array([], np.int64), np.array([], np.int64)), (0, 4)),
], ids=["lists", "broadcast", "scalars", "small-ints", "bool", "empty-dims"])
def test_ravel_multi_index_inputs(mode, coords, dims):
    check(mode, gpuarr.ravel_multi_index(coords, dims), np.ravel_multi_index(coords, dims))


# (id, call, same message): the broadcast error's wording is the broadcasting layer's.
MULTI_INDEX_ERRORS = [
    ("ravel-high", lambda m: m.ravel_multi_index(([1], [5]), (3, 4)), True),
    ("ravel-negative", lambda m: m.ravel_multi_index(([1], [-1]), (3, 4)), True),
    ("ravel-negative-dim", lambda m: m.ravel_multi_index(([1], [1]), (3, -4)), True),
    ("ravel-length", lambda m: m.ravel_multi_index(([1],), (3, 4)), True),
    ("ravel-mode", lambda m: m.ravel_multi_index(([1], [5]), (3, 4), mode="nope"), True),
    ("ravel-modes", lambda m: m.ravel_multi_index(([1], [5]), (3, 4), mode=("clip",)), True),
    ("ravel-order", lambda m: m.ravel_multi_index(([1], [5]), (3, 4), order="K"), True),
    ("ravel-float", lambda m: m.ravel_multi_index((np.array([1.0]), [1]), (3, 4)), True),
    ("ravel-huge", lambda m: m.ravel_multi_index(([1], [1]), (2 ** 40, 2 ** 40)), True),
    ("ravel-wrap-empty", lambda m: m.ravel_multi_index(([1], [1]), (0, 4), mode="wrap"), True),
    ("ravel-broadcast", lambda m: m.ravel_multi_index(([0, 1], [0, 1, 2]), (3, 4)), False),
    ("unravel-high", lambda m: m.unravel_index([5, 12], (3, 4)), True),
    ("unravel-negative", lambda m: m.unravel_index(-1, (3, 4)), True),
    ("unravel-float", lambda m: m.unravel_index([1.0], (3, 4)), True),
    ("unravel-empty-list", lambda m: m.unravel_index([], (3, 4)), True),
    ("unravel-order", lambda m: m.unravel_index([1], (3, 4), order="A"), True),
    ("unravel-0d", lambda m: m.unravel_index([0], ()), True),
    ("unravel-zero-dim", lambda m: m.unravel_index([1], (3, 0)), True),
]


@pytest.mark.parametrize("call,message", [c[1:] for c in MULTI_INDEX_ERRORS],
                         ids=[c[0] for c in MULTI_INDEX_ERRORS])
def test_multi_index_errors_are_numpys(mode, call, message):
    g_kind, g_val, _ = outcome(call, gpuarr)
    e_kind, e_val, _ = outcome(call, np)
    assert e_kind == "raise"  # every case here is an error in NumPy
    assert g_kind == "raise", f"NumPy raised {e_val!r}; gpuarr returned {g_val!r}"
    assert_same_exception(g_val, e_val, message=message)


@pytest.mark.parametrize("indices,shape", [
    (5, (3, 4)),
    ([0, 11, 7], (3, 4)),
    (np.array([[1, 2], [3, 4]], np.int32), (5,)),
    (np.array([True, False]), (2, 2)),
    (np.array([3], np.uint8), 6),
    (np.array([], np.intp), (3, 0)),
    (np.array([], np.intp), (2, 3)),
], ids=["scalar", "list", "2d", "bool", "int-shape", "empty-zero-dims", "empty"])
def test_unravel_index_inputs(mode, indices, shape):
    check(mode, gpuarr.unravel_index(indices, shape), np.unravel_index(indices, shape))
