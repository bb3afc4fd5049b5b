"""Deferred elementwise arithmetic (cpp/ops/lazy_elementwise.hpp, runtime/deferred_work.hpp).

On large float32/float64 arrays, ``+ - * /``, sqrt, negative, square and absolute return a
pending array; chains fold into one pass that runs when the result is first needed. The
results must be bit-identical to eager evaluation (each operation rounded on its own), and
every way of reaching memory must see them: reads of the result, later writes to an input,
stream switches, synchronization, events, export. Each test lowers the size threshold so
that small arrays exercise the path, and checks that the path was taken.
"""

import numpy as np
import pytest

import gpuarr
from gpuarr import _core

from conftest import GPU_MODULE, assert_bits_equal, assert_layout_equal

pytestmark = GPU_MODULE

FLOATS = [np.float32, np.float64]


@pytest.fixture
def lazy():
    """Deferral on for arrays of any size (the default starts at 2**20 elements)."""
    old = _core._set_lazy_min_size(1)
    yield
    _core._set_lazy_min_size(old)


def eager(fn):
    """``fn()`` with deferral off, as a NumPy array."""
    old = _core._set_lazy_min_size(0)
    try:
        return fn().get()
    finally:
        _core._set_lazy_min_size(old)


def host(rng, shape, dtype, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def pending(a):
    return _core._is_pending(a)


# --- results ------------------------------------------------------------------------------

EXPRESSIONS = {
    # The seed's distance matrix: row and column broadcasts around a full operand.
    "distance": lambda xp, q, g, p: xp.sqrt(q[:, None] - g + p),
    "mixed": lambda xp, q, g, p: (g * 3.0 - q[:, None]) / (p + 5.0),
    "unary": lambda xp, q, g, p: xp.absolute(-xp.square(g - p)) + q[:, None],
    "reflected": lambda xp, q, g, p: 1.5 - g * 2 + p / q[:, None],
    "ufuncs": lambda xp, q, g, p: xp.add(xp.multiply(g, g), xp.negative(p)),
}


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
@pytest.mark.parametrize("shape", [(64, 96), (33, 37), (5, 131), (1, 256)])
def test_chain_is_one_pending_result_bitwise_equal_to_eager(lazy, rng, dtype, name, shape):
    expr = EXPRESSIONS[name]
    hs = (host(rng, shape[0], dtype, 0.5, 2), host(rng, shape, dtype),
          host(rng, shape[1], dtype, 0.5, 2))
    ds = [gpuarr.asarray(h) for h in hs]
    r = expr(gpuarr, *ds)
    assert pending(r), "the chain was not deferred"
    want = eager(lambda: expr(gpuarr, *ds))
    got = r.get()
    assert not pending(r)
    assert_bits_equal(got, want)
    with np.errstate(all="ignore"):
        ref = expr(np, *hs)
    assert ref.dtype == dtype
    np.testing.assert_allclose(got, ref, rtol=1e-6 if dtype == np.float32 else 1e-15)
    assert_layout_equal(r, ref)


SPECIAL_EXPRESSIONS = [
    lambda xp, x, y: xp.sqrt(x) / y - x * y,
    lambda xp, x, y: xp.absolute(x - y) + xp.square(-x),
]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("k", range(len(SPECIAL_EXPRESSIONS)))
def test_special_values_round_as_eager(lazy, dtype, k):
    expr = SPECIAL_EXPRESSIONS[k]
    with np.errstate(all="ignore"):
        vals = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-40, 3e38, 5e-324],
                        dtype=dtype)
    a = np.resize(vals, (40, 64))
    b = np.resize(vals[::-1], (40, 64))
    da, db = gpuarr.asarray(a), gpuarr.asarray(b)
    r = expr(gpuarr, da, db)
    assert pending(r)
    got = r.get()
    want = eager(lambda: expr(gpuarr, da, db))
    # The bits of every element but NaNs (rounding, -0.0, infinities, subnormals), and NaN
    # where eager has NaN: which NaN an operation on two NaNs returns (its sign, its payload)
    # IEEE 754 leaves open (6.2.3), and on the GPU it follows the operand order of the
    # instruction nvcc emits, which differs between the eager and the deferred a - b.
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    assert_bits_equal(np.where(nan, 0, got), np.where(nan, 0, want))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, expr(np, a, b))


ONE_OPERATION = {
    "add": lambda xp, x, y: x + y,
    "subtract scalar": lambda xp, x, y: 0.75 - x,
    "multiply row broadcast": lambda xp, x, y: x * y[0],
    "divide column broadcast": lambda xp, x, y: x / y[:, :1],
    "add strided reversed": lambda xp, x, y: x[::2, ::-3] + y[::2, ::3],
    "subtract unaligned": lambda xp, x, y: x[:, 1:] - x[:, :-1],
    "sqrt": lambda xp, x, y: xp.sqrt(y),
    "negative reversed": lambda xp, x, y: xp.negative(x[::-1]),
    "square": lambda xp, x, y: xp.square(x),
    "absolute strided": lambda xp, x, y: xp.absolute(y[:, 1::2]),
}


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", sorted(ONE_OPERATION))
@pytest.mark.parametrize("shape", [(40, 96), (33, 37), (1, 1024), (5, 256), (6, 130)])
def test_one_operation_runs_as_its_eager_loop(lazy, rng, dtype, name, shape):
    # A pending result that is still one operation when it runs takes the ufunc's own loop
    # where its operands are contiguous and aligned, or rows of at least 128 elements start
    # 16-byte aligned in every operand not broadcast along them ((5, 256); (6, 130)'s rows
    # are not all aligned), the fused pass elsewhere: the same bits as eager either way.
    expr = ONE_OPERATION[name]
    hx, hy = host(rng, shape, dtype), host(rng, shape, dtype, 0.25, 2)
    dx, dy = gpuarr.asarray(hx), gpuarr.asarray(hy)
    r = expr(gpuarr, dx, dy)
    # (33, 37) strided leaves rows shorter than the fused pass takes: those run eagerly.
    assert pending(r) or (shape == (33, 37) and r.shape[-1] < 32), "not deferred"
    got = r.get()
    assert_bits_equal(got, eager(lambda: expr(gpuarr, dx, dy)))
    with np.errstate(all="ignore"):
        ref = expr(np, hx, hy)
    assert ref.dtype == dtype
    np.testing.assert_array_equal(got, ref)


def test_scalars_stay_weak(lazy, rng):
    x = gpuarr.asarray(host(rng, (16, 64), np.float32))
    r = 2.5 * x - 1
    assert pending(r) and r.dtype == np.float32
    np.testing.assert_array_equal(r.get(), (np.float32(2.5) * x.get()) - np.float32(1))


def test_strided_and_reversed_operands(lazy, rng):
    h = host(rng, (70, 90), np.float64)
    d = gpuarr.asarray(h)
    a, b = d[::2, 1::2], d[-1::-2, ::-2]          # non-contiguous, negative strides
    r = a * b + d[1::2, ::2]
    assert pending(r)
    np.testing.assert_array_equal(r.get(), h[::2, 1::2] * h[-1::-2, ::-2] + h[1::2, ::2])
    t = d[:, :64].T                          # same shape as the result, F-order: eager keeps K
    hx = h[:, :64].T
    r2 = t + 1.0
    assert not pending(r2)
    assert_layout_equal(r2, hx + 1.0)


def transposed(rng, shape, dtype, reverse=False):
    """A host array of `shape` contiguous along its second-to-last dim (a C-order array with
    its last two dims swapped; the other of them reversed when `reverse`), and its device
    view."""
    h = host(rng, shape[:-2] + (shape[-1], shape[-2]), dtype)
    d = gpuarr.asarray(h)
    if reverse:
        h, d = h[..., ::-1, :], d[..., ::-1, :]
    return np.swapaxes(h, -1, -2), gpuarr.swapaxes(d, -1, -2)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(64, 96), (33, 70), (100, 37), (2, 3, 40, 65), (32, 32)])
def test_operands_contiguous_along_another_dim(lazy, rng, dtype, shape):
    """a.T + b: operands contiguous along the result's second-to-last dim go through
    shared-memory tiles (tiles cut by the edges, a batch, two such operands, one reversed,
    beside full, broadcast and constant operands); three such operands take the rows. (An
    expression whose first operation has only such operands and broadcasts keeps their
    order, as NumPy's, and runs eagerly.)"""
    ht, t = transposed(rng, shape, dtype)
    hu, u = transposed(rng, shape, dtype, reverse=True)
    hv, v = transposed(rng, shape, dtype)
    hg = host(rng, shape, dtype)
    g = gpuarr.asarray(hg)
    hq = host(rng, shape[:-1] + (1,), dtype)
    q = gpuarr.asarray(hq)
    cases = [
        (lambda xp, t, u, v, g, q: t + g),
        (lambda xp, t, u, v, g, q: (t * 2.0 - g) / (u + 3.0)),
        (lambda xp, t, u, v, g, q: xp.sqrt(xp.absolute(g - q)) + t),
        (lambda xp, t, u, v, g, q: -u * g + xp.square(t)),
        (lambda xp, t, u, v, g, q: t + u + v - g),
    ]
    for k, f in enumerate(cases):
        r = f(gpuarr, t, u, v, g, q)
        assert pending(r), k
        want = f(np, ht, hu, hv, hg, hq)
        np.testing.assert_array_equal(r.get(), want, err_msg=f"case {k}")
        assert_bits_equal(r.get(), eager(lambda: f(gpuarr, t, u, v, g, q)))


def test_unaligned_view_and_three_dims(lazy, rng):
    h = host(rng, (3 * 5 * 67 + 1,), np.float32)
    d = gpuarr.asarray(h)
    a = d[1:].reshape(3, 5, 67)              # 4-byte aligned only
    w = gpuarr.asarray(host(rng, (5, 1), np.float32))
    r = a / (w + 3.0) - a
    assert pending(r)
    ha = h[1:].reshape(3, 5, 67)
    hw = w.get()
    np.testing.assert_array_equal(r.get(), ha / (hw + np.float32(3)) - ha)


def test_too_many_leaves_still_correct(lazy, rng):
    hs = [host(rng, (8, 64), np.float64) for _ in range(12)]
    ds = [gpuarr.asarray(h) for h in hs]
    r, want = ds[0], hs[0]
    for d, h in zip(ds[1:], hs[1:]):
        r, want = r + d, want + h
    np.testing.assert_array_equal(r.get(), want)


def test_small_arrays_run_eagerly_by_default(rng):
    old = _core._set_lazy_min_size(2**20)    # the default (the suite may run with another)
    try:
        x = gpuarr.asarray(host(rng, (100,), np.float32))
        assert not pending(x + x)
        y = gpuarr.asarray(host(rng, (1024, 1024), np.float32))
        assert pending(y + y)
    finally:
        _core._set_lazy_min_size(old)


@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.complex64, np.bool_])
def test_other_dtypes_run_eagerly(lazy, dtype):
    x = gpuarr.ones((8, 64), dtype=dtype)
    assert not pending(x * x)


def test_mixed_dtypes_run_eagerly(lazy, rng):
    x = gpuarr.asarray(host(rng, (8, 64), np.float32))
    y = gpuarr.asarray(host(rng, (8, 64), np.float64))
    r = x + y
    assert not pending(r) and r.dtype == np.float64


# --- every way to reach memory sees the results --------------------------------------


def test_later_writes_to_inputs_do_not_reach_a_pending_result(lazy, rng):
    ha, hb = host(rng, (32, 64), np.float32), host(rng, (32, 64), np.float32)
    a, b = gpuarr.asarray(ha), gpuarr.asarray(hb)
    t1 = a - b
    a += 1                                   # in-place operator
    t2 = a * b
    a[0, :] = 100                            # setitem
    t3 = b + b
    gpuarr.multiply(a, 0, out=b)             # out=
    t4 = a[::2] / 3.0
    a[::2] = 0                               # a view of the input
    np.testing.assert_array_equal(t1.get(), ha - hb)
    ha1 = ha + np.float32(1)
    np.testing.assert_array_equal(t2.get(), ha1 * hb)
    np.testing.assert_array_equal(t3.get(), hb + hb)
    ha1[0, :] = 100
    np.testing.assert_array_equal(t4.get(), ha1[::2] / np.float32(3))


def test_views_and_kept_intermediates(lazy, rng):
    ha, hb = host(rng, (32, 64), np.float64), host(rng, (32, 64), np.float64)
    a, b = gpuarr.asarray(ha), gpuarr.asarray(hb)
    t = a + b
    v = t[::2, 1:]                           # a view of a pending result: read as a leaf
    u = v * 2.0
    w = t * t                                # folds t's expression
    assert pending(u) and pending(w) and pending(t)
    np.testing.assert_array_equal(u.get(), (ha + hb)[::2, 1:] * 2.0)
    np.testing.assert_array_equal(w.get(), (ha + hb) * (ha + hb))
    np.testing.assert_array_equal(t.get(), ha + hb)
    t2 = a - b
    u2 = t2 * 3.0
    del t2                                   # the folded intermediate dies unread
    np.testing.assert_array_equal(u2.get(), (ha - hb) * 3.0)


def test_reductions_and_products_read_pending_results(lazy, rng):
    ha, hb = host(rng, (48, 64), np.float64), host(rng, (64, 40), np.float64)
    a, b = gpuarr.asarray(ha), gpuarr.asarray(hb)
    t = a * 2.0 - 1.0
    np.testing.assert_allclose(float(t.sum()), (ha * 2.0 - 1.0).sum(), rtol=1e-12)
    u = a * 0.5
    np.testing.assert_allclose((u @ b).get(), (ha * 0.5) @ hb, rtol=1e-12)
    c = a + 1.0
    np.testing.assert_array_equal(gpuarr.asnumpy(c.astype(np.float32)), (ha + 1.0).astype(np.float32))


def test_synchronize_and_events_launch_pending_work(lazy, rng):
    a = gpuarr.asarray(host(rng, (16, 64), np.float32))
    t = a + a
    gpuarr.cuda.Device().synchronize()
    assert not pending(t)
    t = a + a
    gpuarr.cuda.get_current_stream().synchronize()
    assert not pending(t)
    t = a + a
    e = gpuarr.cuda.Event()
    e.record()
    assert not pending(t)
    e.synchronize()
    np.testing.assert_array_equal(t.get(), a.get() + a.get())


def test_stream_switch_launches_on_the_deferring_stream(lazy, rng):
    ha = host(rng, (256, 512), np.float32)
    a = gpuarr.asarray(ha)
    s = gpuarr.cuda.Stream(non_blocking=True)
    with s:
        t = gpuarr.sqrt(a * a + 1.0)
        assert pending(t)
    assert not pending(t)                    # launched on `s` before the switch back
    s.synchronize()
    np.testing.assert_array_equal(t.get(), np.sqrt(ha * ha + np.float32(1)))


def test_exported_memory_is_never_read_later(lazy, rng):
    a = gpuarr.asarray(host(rng, (16, 64), np.float32))
    b = gpuarr.asarray(host(rng, (16, 64), np.float32))
    c = gpuarr.asarray(host(rng, (16, 64), np.float32))
    t = a + b
    _ = t.__cuda_array_interface__           # exporting a pending result launches it
    assert not pending(t)
    _ = a.__cuda_array_interface__
    assert not pending(a + b)                # a may now change outside gpuarr's order
    _ = b.data
    assert not pending(b * 2.0)
    capsule = c.__dlpack__()
    del capsule
    assert not pending(c - 1.0)


def test_imported_memory_is_never_read_later(lazy):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA device")
    src = torch.arange(16 * 64, dtype=torch.float32, device="cuda").reshape(16, 64)
    d = gpuarr.from_dlpack(src)
    t = d * 2.0
    assert not pending(t)
    src.add_(1)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(t.get(), np.arange(16 * 64, dtype=np.float32).reshape(16, 64) * 2)


def test_to_torch_sees_the_result(lazy, rng):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA device")
    ha = host(rng, (16, 64), np.float32)
    t = gpuarr.asarray(ha) * 3.0
    assert pending(t)
    tt = torch.from_dlpack(t)
    np.testing.assert_array_equal(tt.cpu().numpy(), ha * np.float32(3))


def test_dropped_results_never_run(lazy, rng):
    a = gpuarr.asarray(host(rng, (16, 64), np.float64))
    for _ in range(100):
        a + a * 2.0                          # never read: never launched, nothing leaks
    r = a * 2.0
    np.testing.assert_array_equal(r.get(), a.get() * 2.0)
