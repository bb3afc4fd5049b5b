"""numpy.pad (every mode but a callable), packbits and unpackbits against NumPy, on the
device and (host-side) with NumPy standing in for the device."""

import numpy as np
import pytest

import gpuarr as ga
from _numpy_composed import check, same_outcome, xp  # noqa: F401  (xp is a fixture)
from conftest import dtype_id, random_array

PAD_DTYPES = [np.dtype(n) for n in ("bool", "int8", "uint16", "int64", "float32", "float64",
                                    "complex128")]
WIDTHS = [0, 1, 3, (2, 5), ((1, 0), (0, 4)), ((7, 2), (3, 9)), np.array([[1, 2], [3, 1]])]


def _modes(dtype):
    modes = [("constant", {}), ("constant", {"constant_values": 7}),
             ("constant", {"constant_values": ((1, 2), (3, 4))}), ("edge", {}), ("wrap", {}),
             ("reflect", {}), ("symmetric", {}), ("reflect", {"reflect_type": "odd"}),
             ("symmetric", {"reflect_type": "odd"}), ("maximum", {}), ("minimum", {}),
             ("maximum", {"stat_length": 2}), ("minimum", {"stat_length": ((1, 3), (2, 1))}),
             ("empty", {})]
    if np.dtype(dtype).kind != "b":
        modes += [("linear_ramp", {}), ("linear_ramp", {"end_values": (5, -3)}),
                  ("mean", {}), ("mean", {"stat_length": 3})]
    if np.dtype(dtype).kind in "iuf":  # gpuarr.median of complex values is not supported
        modes += [("median", {}), ("median", {"stat_length": (1, 2)})]
    return modes


@pytest.mark.parametrize("dtype", PAD_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", [(5, 4), (1, 3), (2, 1)], ids=str)
def test_pad_modes(xp, rng, dtype, shape):
    if np.dtype(dtype).kind in "iu":
        h = rng.integers(0, 100, shape).astype(dtype)  # exact means and ramps
    else:
        h = random_array(rng, shape, dtype)
    d = xp.dev(h)
    for width in WIDTHS:
        dw = width
        for mode, kwargs in _modes(dtype):
            for hh, dd in ((h, d), (h.T[::-1], d.T[::-1])):
                with np.errstate(all="ignore"):
                    kind_e = None
                    try:
                        expected = np.pad(hh, width, mode, **kwargs)
                    except Exception as e:  # noqa: BLE001
                        kind_e = e
                if kind_e is not None:
                    with pytest.raises(type(kind_e)):
                        ga.pad(dd, dw, mode, **kwargs)
                    continue
                got = ga.pad(dd, dw, mode, **kwargs)
                if mode == "empty":
                    assert got.shape == expected.shape and got.dtype == expected.dtype
                    continue
                tol = 1e-5 if np.dtype(dtype) == np.float32 else 1e-12
                check(xp, got, expected, rtol=0 if np.dtype(dtype).kind in "biu" else tol,
                      atol=0 if np.dtype(dtype).kind in "biu" else tol)


def test_pad_other_shapes_and_errors(xp, rng):
    h3 = rng.standard_normal((2, 3, 4))
    d3 = xp.dev(h3)
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap", "mean", "linear_ramp"):
        same_outcome(xp, lambda: np.pad(h3, ((1, 2), (0, 3), (5, 1)), mode),
                     lambda: ga.pad(d3, ((1, 2), (0, 3), (5, 1)), mode), rtol=1e-12, atol=1e-12)
        same_outcome(xp, lambda: np.pad(h3[0, 0, 0], 2, mode), lambda: ga.pad(d3[0, 0, 0], 2,
                                                                              mode))
    h1 = np.arange(5.0)
    d1 = xp.dev(h1)
    empty = np.zeros((0, 3))
    cases = [
        (h1, 2.5, "constant", {}), (h1, -1, "constant", {}), (h1, 2, "bogus", {}),
        (h1, 2, "edge", {"constant_values": 1}), (h1, ((1, 2), (3, 4)), "constant", {}),
        (h1, 2, "maximum", {"stat_length": 0}), (h1, 2, "mean", {"stat_length": 0}),
        (empty, 1, "edge", {}), (empty, ((0, 0), (1, 1)), "edge", {}), (empty, 2, "constant", {}),
        (h1, 12, "reflect", {}), (h1, 12, "symmetric", {}), (h1, 12, "wrap", {}),
        (h1, (0, 11), "wrap", {}), (h1, 2, "median", {"stat_length": -1}),
    ]
    for h, width, mode, kwargs in cases:
        same_outcome(xp, lambda: np.pad(h, width, mode, **kwargs),
                     lambda: ga.pad(xp.dev(h) if h is not h1 else d1, width, mode, **kwargs))


def test_pad_constant_value_casts_and_large(xp, rng):
    # One constant: small results fill whole then copy the array in, large ones fill the
    # pad areas only; both cast the value as NumPy's assignment does (or refuse it alike).
    small = rng.integers(0, 100, (4, 5)).astype(np.uint8)
    for value in (7, 2.7, -1, 300, np.nan, 1 + 2j):
        with np.errstate(all="ignore"):
            same_outcome(xp, lambda: np.pad(small, 2, constant_values=value),
                         lambda: ga.pad(xp.dev(small), 2, constant_values=value))
    big = rng.standard_normal((1030, 1025)).astype(np.float32)
    same_outcome(xp, lambda: np.pad(big, ((1, 2), (3, 0)), constant_values=5),
                 lambda: ga.pad(xp.dev(big), ((1, 2), (3, 0)), constant_values=5))


@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "float64",
                                   "complex128"])
@pytest.mark.parametrize("mode,kwargs", [("constant", {"constant_values": 1}), ("edge", {}),
                                         ("reflect", {}), ("symmetric", {}), ("wrap", {}),
                                         ("reflect", {"reflect_type": "odd"})], ids=str)
def test_pad_in_one_pass(xp, rng, dtype, mode, kwargs):
    # A constant or an index-mapping mode writes the result in one pass: rows narrower and
    # wider than a thread's elements, pads wider than the source, unpadded dims that merge
    # (or cannot: a strided source), reversed and broadcast sources, an empty source, 1-d
    # to 4-d; F-ordered sources keep F order (the axis-by-axis path), as 'odd' reflections.
    h = random_array(rng, (3, 4, 37), dtype)
    d = xp.dev(h)
    cases = [
        (slice(None), ((1, 2), (0, 0), (3, 1))), (slice(None), ((0, 0), (0, 0), (1, 0))),
        (slice(None), ((2, 0), (0, 0), (0, 0))), (np.s_[:, ::2, ::-1], ((0, 1), (0, 0), (2, 2))),
        (np.s_[:, :, :2], ((1, 1), (1, 1), (1, 1))), (np.s_[1, :, :], ((5, 0), (0, 7))),
        (np.s_[0, 0, :], ((0, 40),)), (np.s_[:, :1, :0], ((1, 1), (2, 2), (3, 3))),
        (np.s_[:, :1, :3], ((4, 7), (3, 2), (9, 8))),
    ]
    with np.errstate(all="ignore"):
        for key, width in cases:
            same_outcome(xp, lambda: np.pad(h[key], width, mode, **kwargs),
                         lambda: ga.pad(d[key], width, mode, **kwargs))
        b = np.broadcast_to(h[:, :1, :], (3, 5, 37))
        db = (ga if xp.gpu else np).broadcast_to(d[:, :1, :], (3, 5, 37))
        same_outcome(xp, lambda: np.pad(b, 1, mode, **kwargs),
                     lambda: ga.pad(db, 1, mode, **kwargs))
        h4 = random_array(rng, (2, 3, 2, 5), dtype)
        w4 = ((1, 0), (0, 2), (1, 1), (0, 3))
        same_outcome(xp, lambda: np.pad(h4, w4, mode, **kwargs),
                     lambda: ga.pad(xp.dev(h4), w4, mode, **kwargs))
        f = np.asfortranarray(h[0])
        same_outcome(xp, lambda: np.pad(f, 2, mode, **kwargs),
                     lambda: ga.pad(xp.dev(f), 2, mode, **kwargs))
        for src in (f, h[1, ::-1]):
            want, got = np.pad(src, 2, mode, **kwargs), ga.pad(xp.dev(src), 2, mode, **kwargs)
            assert got.flags.c_contiguous == want.flags.c_contiguous
            assert got.flags.f_contiguous == want.flags.f_contiguous


def _pad_with(vector, pad_width, iaxis, kwargs):
    # numpy.pad's documented example of a callable mode (writes through the vector view)
    pad_value = kwargs.get("padder", 10)
    vector[:pad_width[0]] = pad_value
    if pad_width[1]:
        vector[-pad_width[1]:] = pad_value


@pytest.mark.parametrize("shape,width", [((6,), 2), ((3, 4), ((1, 2), (0, 3))),
                                         ((2, 3, 2), 1), ((0, 3), 1), ((), 0)], ids=str)
def test_pad_callable_mode(xp, rng, shape, width):
    h = rng.integers(-5, 5, shape).astype(np.float32)
    d = xp.dev(h)
    same_outcome(xp, lambda: np.pad(h, width, _pad_with),
                 lambda: ga.pad(d, width, _pad_with))
    same_outcome(xp, lambda: np.pad(h, width, _pad_with, padder=-1),
                 lambda: ga.pad(d, width, _pad_with, padder=-1))


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.float32], ids=dtype_id)
@pytest.mark.parametrize("shape", [(0,), (1,), (13,), (16,), (3, 10), (2, 3, 9), ()], ids=str)
def test_packbits(xp, rng, dtype, shape):
    h = rng.integers(0, 3, shape).astype(dtype)
    d = xp.dev(h)
    for axis in [None] + list(range(-len(shape), len(shape))) + [len(shape)]:
        for bitorder in ("big", "little"):
            same_outcome(xp, lambda: np.packbits(h, axis=axis, bitorder=bitorder),
                         lambda: ga.packbits(d, axis=axis, bitorder=bitorder))
    if len(shape) >= 2:
        same_outcome(xp, lambda: np.packbits(h.T[::-1], axis=0),
                     lambda: ga.packbits(d.T[::-1], axis=0))
    same_outcome(xp, lambda: np.packbits(h, bitorder="middle"),
                 lambda: ga.packbits(d, bitorder="middle"))


@pytest.mark.parametrize("shape", [(0,), (1,), (5,), (3, 4), (2, 3, 2), ()], ids=str)
def test_unpackbits(xp, rng, shape):
    h = rng.integers(0, 256, shape).astype(np.uint8)
    d = xp.dev(h)
    for axis in [None] + list(range(-len(shape), len(shape))) + [len(shape)]:
        for count in (None, 0, 3, 8, 21, -1, -5, -100):
            if h.size == 0 and count:
                continue  # NumPy leaves the padding of an empty input uninitialised
            for bitorder in ("big", "little"):
                same_outcome(xp, lambda: np.unpackbits(h, axis=axis, count=count,
                                                       bitorder=bitorder),
                             lambda: ga.unpackbits(d, axis=axis, count=count,
                                                   bitorder=bitorder))
    if len(shape) >= 2:
        same_outcome(xp, lambda: np.unpackbits(h.T[::-1], axis=1),
                     lambda: ga.unpackbits(d.T[::-1], axis=1))
    same_outcome(xp, lambda: np.unpackbits(h.astype(np.int8)),
                 lambda: ga.unpackbits(xp.dev(h.astype(np.int8))))
    same_outcome(xp, lambda: np.packbits(h.astype(np.float64)),
                 lambda: ga.packbits(xp.dev(h.astype(np.float64))))
