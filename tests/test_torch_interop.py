"""gpuarr.torch: to_torch/from_torch (zero-copy, stream-correct) and the autograd
eigvalsh / eigh / kth_eigvalh computed by gpuarr.linalg: gradcheck in float64, values and
gradients against torch.linalg, batching, float32, CPU fallback."""

import subprocess
import sys

import numpy as np
import pytest

import gpuarr
from conftest import GPU_MODULE

pytestmark = GPU_MODULE

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("PyTorch has no CUDA", allow_module_level=True)
import gpuarr.torch as gt  # noqa: E402

needs_eigh = pytest.mark.skipif(
    not (hasattr(gpuarr.linalg, "eigh") and hasattr(gpuarr.linalg, "eigvalsh")),
    reason="gpuarr.linalg.eigh/eigvalsh come with the linalg-eigen area")


def _sym(X):
    return (X + X.mT) / 2


def _rand_sym(*shape, dtype=torch.float64, device="cuda", seed=0):
    g = torch.Generator(device="cpu").manual_seed(seed)
    X = torch.randn(*shape, generator=g, dtype=dtype)
    return _sym(X).to(device)


def test_to_from_torch_zero_copy():
    d = gpuarr.arange(12.0).reshape(3, 4)
    t = gt.to_torch(d)
    assert t.data_ptr() == d.data.ptr and t.is_cuda and t.dtype == torch.float64
    t[0, 0] = 99.0
    assert float(d[0, 0]) == 99.0
    p = torch.nn.Parameter(torch.ones(5, device="cuda"))
    a = gt.from_torch(p)  # detached: no error for requires_grad
    assert a.data.ptr == p.data_ptr()
    with pytest.raises(TypeError):
        gt.to_torch(np.zeros(3))
    with pytest.raises(TypeError):
        gt.from_torch(np.zeros(3))
    with pytest.raises(BufferError):
        gt.from_torch(torch.ones(3))


def test_gpuarr_torch_is_lazy():
    code = ("import sys, gpuarr; assert 'torch' not in sys.modules; "
            "import gpuarr.torch; assert 'torch' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


@needs_eigh
@pytest.mark.parametrize("batch", [(), (3,), (2, 2)])
@pytest.mark.parametrize("lower", [True, False])
def test_values_match_torch(batch, lower):
    A = _rand_sym(*batch, 6, 6)
    A_tri = A.clone()
    # Garbage in the unread triangle: results must only depend on the chosen one.
    if lower:
        A_tri.copy_(torch.tril(A) + torch.triu(torch.full_like(A, 7.0), 1))
    else:
        A_tri.copy_(torch.triu(A) + torch.tril(torch.full_like(A, 7.0), -1))
    uplo = "L" if lower else "U"
    w_ref = torch.linalg.eigvalsh(A_tri, UPLO=uplo)
    torch.testing.assert_close(gt.eigvalsh(A_tri, lower=lower), w_ref)
    w, V = gt.eigh(A_tri, lower=lower)
    torch.testing.assert_close(w, w_ref)
    torch.testing.assert_close(V @ torch.diag_embed(w) @ V.mT, A)
    torch.testing.assert_close(gt.kth_eigvalh(A_tri, 2, lower=lower), w_ref[..., 2])
    torch.testing.assert_close(gt.kth_eigvalh(A_tri, -1, lower=lower), w_ref[..., -1])


@needs_eigh
def test_gradcheck_eigvalsh():
    A = _rand_sym(2, 5, 5).requires_grad_()
    assert torch.autograd.gradcheck(lambda X: gt.eigvalsh(_sym(X)), (A,))


@needs_eigh
def test_gradcheck_eigh():
    A = _rand_sym(2, 4, 4, seed=1).requires_grad_()

    def f(X):
        w, V = gt.eigh(_sym(X))
        # Sign-invariant functions of the eigenvectors (the sign is arbitrary).
        return w, (V * V), V[..., 0:1] @ V[..., 0:1].mT

    assert torch.autograd.gradcheck(f, (A,))


@needs_eigh
@pytest.mark.parametrize("k", [0, 2, -1])
def test_gradcheck_kth_eigvalh(k):
    A = _rand_sym(3, 5, 5, seed=2).requires_grad_()
    assert torch.autograd.gradcheck(lambda X: gt.kth_eigvalh(_sym(X), k), (A,))


@needs_eigh
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_gradients_match_torch(dtype):
    A0 = _rand_sym(4, 7, 7, dtype=dtype, seed=3)
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == torch.float32 else {}
    g = torch.randn(4, 7, dtype=dtype, device="cuda")

    A1 = A0.clone().requires_grad_()
    (gt.eigvalsh(A1) * g).sum().backward()
    A2 = A0.clone().requires_grad_()
    (torch.linalg.eigvalsh(A2) * g).sum().backward()
    torch.testing.assert_close(A1.grad, A2.grad, **tol)

    A1 = A0.clone().requires_grad_()
    gt.kth_eigvalh(A1, 3).sum().backward()
    A2 = A0.clone().requires_grad_()
    torch.linalg.eigvalsh(A2)[..., 3].sum().backward()
    torch.testing.assert_close(A1.grad, A2.grad, **tol)

    A1 = A0.clone().requires_grad_()
    w, V = gt.eigh(A1)
    ((V[..., :, 0] ** 2 * g).sum() + (w * g).sum()).backward()
    A2 = A0.clone().requires_grad_()
    w, V = torch.linalg.eigh(A2)
    ((V[..., :, 0] ** 2 * g).sum() + (w * g).sum()).backward()
    torch.testing.assert_close(A1.grad, A2.grad, **tol)


@needs_eigh
def test_no_grad_path_and_seed_example():
    A = _rand_sym(8, 45, 45, dtype=torch.float32)
    with torch.no_grad():
        w = gt.kth_eigvalh(A, 22)
    torch.testing.assert_close(w, torch.linalg.eigvalsh(A)[..., 22], rtol=1e-4, atol=1e-4)
    # The seed's 5x5 check: gradient of the middle eigenvalue is q q^T.
    mat = torch.nn.Parameter(torch.linspace(-5, 5, 25, device="cuda").reshape(5, 5))
    gt.kth_eigvalh(mat, 2).backward()
    _, Q = torch.linalg.eigh(mat.detach())
    q = Q[:, 2:3]
    torch.testing.assert_close(mat.grad, q @ q.T, rtol=1e-4, atol=1e-5)


def test_cpu_fallback():
    A = _rand_sym(2, 4, 4, device="cpu").requires_grad_()
    w = gt.kth_eigvalh(A, 1)
    w.sum().backward()
    torch.testing.assert_close(w, torch.linalg.eigvalsh(A.detach())[..., 1])
    assert A.grad is not None
    w, V = gt.eigh(A.detach())
    assert not w.is_cuda
    with pytest.raises(IndexError):
        gt.kth_eigvalh(A, 4)
    with pytest.raises(RuntimeError):
        gt.eigvalsh(torch.ones(3, 4, device="cuda"))


@needs_eigh
def test_streams_respected():
    s = torch.cuda.Stream()
    A = _rand_sym(16, 32, 32, dtype=torch.float32)
    with torch.cuda.stream(s):
        B = A * 2.0  # pending on s
        w = gt.eigvalsh(B)
        ref = torch.linalg.eigvalsh(B)
    s.synchronize()
    torch.testing.assert_close(w, ref, rtol=1e-4, atol=1e-4)


# The k-th eigenpair kernel behind kth_eigvalh (real matrices in shared memory).

def _pair_or_fail(A, k, lower=True, need_vector=True):
    pair = gt._kth_eigenpair(A, k, lower, need_vector)
    assert pair is not None, "the k-th eigenpair kernel did not take these matrices"
    return pair


def _check_pair(A, k, w, q, lower=True, rtol=None):
    """w against torch.linalg, q unit with a small residual and, for a simple eigenvalue,
    the same projector q q' as torch.linalg's eigenvector."""
    uplo = "L" if lower else "U"
    A64 = A.double()
    w_ref, V_ref = torch.linalg.eigh(A64, UPLO=uplo)
    S = torch.tril(A64) + torch.tril(A64, -1).mT if lower else torch.triu(A64) + torch.triu(A64, 1).mT
    scale = w_ref.abs().amax(dim=-1).clamp_min(1e-300)
    eps = torch.finfo(A.dtype).eps
    n = A.shape[-1]
    tol = rtol if rtol is not None else 50 * n * eps
    assert torch.all((w.double() - w_ref[..., k]).abs() <= tol * scale), (w, w_ref[..., k])
    if q is None:
        return
    q64 = q.double()
    torch.testing.assert_close(q64.norm(dim=-1), torch.ones_like(scale), rtol=tol, atol=tol)
    resid = (S @ q64.unsqueeze(-1)).squeeze(-1) - w_ref[..., k, None] * q64
    assert torch.all(resid.norm(dim=-1) <= tol * scale * 10), resid.norm(dim=-1)
    # Where w_k is well separated, q q' is torch.linalg's projector.
    gaps = torch.stack([
        (w_ref[..., k] - w_ref[..., k - 1]) if k > 0 else torch.full_like(scale, float("inf")),
        (w_ref[..., k + 1] - w_ref[..., k]) if k + 1 < n else torch.full_like(scale, float("inf")),
    ]).amin(dim=0)
    simple = gaps > 1e3 * tol * scale
    vref = V_ref[..., :, k]
    overlap = (q64 * vref).sum(-1).abs()
    assert torch.all(overlap[simple] > 1 - 1e2 * tol / (gaps[simple] / scale[simple]).clamp_max(1)), overlap


@needs_eigh
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("n", [1, 2, 3, 17, 45, 100])
def test_kth_eigenpair_kernel_against_torch(dtype, n):
    A = _rand_sym(3, n, n, dtype=dtype, seed=n)
    for k in sorted({0, n // 2, n - 1}):
        w, q = _pair_or_fail(A, k)
        assert w.shape == (3,) and q.shape == (3, n) and w.dtype == dtype and q.dtype == dtype
        _check_pair(A, k, w, q)
        w_only, none = _pair_or_fail(A, k, need_vector=False)
        assert none is None
        torch.testing.assert_close(w_only, w, rtol=0, atol=0)


@needs_eigh
@pytest.mark.parametrize("lower", [True, False])
def test_kth_eigenpair_kernel_reads_one_triangle_of_any_layout(lower):
    A = _rand_sym(2, 2, 9, 9, seed=5)
    garbage = torch.full_like(A, 1e3)
    A_tri = torch.tril(A) + torch.triu(garbage, 1) if lower else torch.triu(A) + torch.tril(garbage, -1)
    w, q = _pair_or_fail(A_tri, 4, lower)
    assert w.shape == (2, 2) and q.shape == (2, 2, 9)
    _check_pair(A_tri, 4, w, q, lower)
    # A transposed (non-contiguous) view of the other triangle is the same matrix.
    view = A_tri.mT
    assert not view.is_contiguous()
    w2, q2 = _pair_or_fail(view, 4, not lower)
    torch.testing.assert_close(w2, w)
    torch.testing.assert_close(torch.einsum("...i,...j->...ij", q2, q2),
                               torch.einsum("...i,...j->...ij", q, q))


@needs_eigh
def test_kth_eigenpair_kernel_repeated_eigenvalues_and_scales():
    n = 12
    Q, _ = torch.linalg.qr(torch.randn(n, n, dtype=torch.float64, device="cuda"))
    lam = torch.tensor([-3.0] * 4 + [0.0] * 3 + [1.0, 2.0, 2.0, 2.0, 5.0], dtype=torch.float64,
                       device="cuda")
    A = (Q * lam) @ Q.mT
    A = (A + A.mT) / 2
    for k in range(n):  # inside clusters q is some unit vector of the eigenspace
        w, q = _pair_or_fail(A, k)
        _check_pair(A, k, w, q)
    eye = torch.eye(7, device="cuda").expand(3, 7, 7)
    w, q = _pair_or_fail(eye, 3)
    torch.testing.assert_close(w, torch.ones(3, device="cuda"))
    _check_pair(eye, 3, w, q)
    zeros = torch.zeros(2, 5, 5, device="cuda")
    w, q = _pair_or_fail(zeros, 1)
    # (bisection ends within the Sturm guard of 0, as eigvalsh's kernel does)
    assert torch.all(w.abs() <= 4 * torch.finfo(torch.float32).tiny)
    assert torch.allclose(q.norm(dim=-1), torch.ones(2, device="cuda"))
    for s in (1e-30, 1e30):  # scaled by a power of two inside: no overflow or underflow
        A32 = (_rand_sym(2, 10, 10, dtype=torch.float32, seed=9) * s)
        w, q = _pair_or_fail(A32, 6)
        _check_pair(A32, 6, w, q)


@needs_eigh
def test_kth_eigenpair_kernel_nonfinite_empty_and_fallback():
    A = _rand_sym(3, 6, 6, dtype=torch.float32)
    A[1, 2, 1] = float("nan")
    w, q = _pair_or_fail(A, 2)
    assert torch.isnan(w[1]) and torch.isnan(q[1]).all()
    assert torch.isfinite(w[[0, 2]]).all() and torch.isfinite(q[[0, 2]]).all()
    w, q = _pair_or_fail(torch.zeros(0, 5, 5, device="cuda"), 1)
    assert w.shape == (0,) and q.shape == (0, 5)
    # Too large for shared memory, complex, half: None, and kth_eigvalh takes eigh's path.
    big = _rand_sym(1, 400, 400, dtype=torch.float32, seed=4)
    assert gt._kth_eigenpair(big, 10, True, True) is None
    big.requires_grad_()
    w = gt.kth_eigvalh(big, 10)
    w.sum().backward()
    ref = torch.linalg.eigvalsh(big.detach().double())[..., 10]
    torch.testing.assert_close(w.double(), ref, rtol=1e-4, atol=1e-3)
    assert gt._kth_eigenpair(A.to(torch.complex64), 1, True, True) is None


@needs_eigh
def test_kth_eigenpair_kernel_on_torch_stream():
    s = torch.cuda.Stream()
    A = _rand_sym(64, 45, 45, dtype=torch.float32, seed=11)
    with torch.cuda.stream(s):
        torch.cuda._sleep(1_000_000)  # the producer is still running when the kernel is enqueued
        B = A * 2.0
        w = gt.kth_eigvalh(B, 22)
    s.synchronize()
    torch.testing.assert_close(w, torch.linalg.eigvalsh(B)[..., 22], rtol=1e-4, atol=1e-4)


@needs_eigh
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_kth_eigvalh_step_captured_in_a_cuda_graph(dtype):
    """kth_eigvalh launches on PyTorch's current stream with no host synchronisation and no
    allocation of its own, so a step (forward and backward) can be captured by
    torch.cuda.graph; every replay on new data gives torch.linalg's value and gradient."""
    n, k, batch = 45, 22, 16
    P = torch.nn.Parameter(_rand_sym(batch, n, n, dtype=dtype, seed=21))
    static_x = torch.zeros(batch, n, n, dtype=dtype, device="cuda")
    weights = torch.linspace(-1, 1, batch, dtype=dtype, device="cuda")

    def step():
        w = gt.kth_eigvalh(P + static_x, k)
        (w * weights).sum().backward()
        return w

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up off the capture, as PyTorch's docs do
        for _ in range(2):
            P.grad = None
            step()
    torch.cuda.current_stream().wait_stream(side)
    P.grad = None
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_w = step()
    static_grad = P.grad

    for seed in (30, 31, 32):
        static_x.copy_(_rand_sym(batch, n, n, dtype=dtype, seed=seed))
        graph.replay()
        torch.cuda.synchronize()
        M = (P + static_x).detach()
        w_ref, V_ref = torch.linalg.eigh(M)
        tol = 1e-4 if dtype == torch.float32 else 1e-10
        torch.testing.assert_close(static_w, w_ref[..., k], rtol=tol, atol=tol)
        q = V_ref[..., :, k]
        grad_ref = q.unsqueeze(-1) * q.unsqueeze(-2) * weights[:, None, None]
        torch.testing.assert_close(static_grad, grad_ref, rtol=10 * tol, atol=10 * tol)


def _outer_times(q, g):
    return q.unsqueeze(-1) * q.unsqueeze(-2) * g.to(q.dtype)[..., None, None]


@needs_eigh
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("batch", [(), (0,), (3,), (2, 3)])
@pytest.mark.parametrize("n", [1, 5, 45])
def test_kth_gradient_kernel_is_the_pytorch_formula(dtype, batch, n):
    gen = torch.Generator(device="cpu").manual_seed(n + len(batch))
    q = torch.randn((*batch, n), generator=gen, dtype=dtype).cuda()
    g = torch.randn(tuple(batch), generator=gen, dtype=dtype).cuda()
    gA = gt._kth_gradient(q, g)
    assert gA.shape == (*batch, n, n) and gA.dtype == dtype
    torch.testing.assert_close(gA, _outer_times(q, g), rtol=0, atol=0)  # bit for bit
    # zero-stride (from a sum's backward), strided and other-dtype upstream gradients
    if g.numel() > 0:
        for g_other in (torch.ones((), dtype=dtype, device="cuda").expand(batch),
                        torch.randn((*batch, 2), generator=gen, dtype=dtype).cuda()[..., 1],
                        g.to(torch.float64 if dtype == torch.float32 else torch.float32)):
            torch.testing.assert_close(gt._kth_gradient(q, g_other), _outer_times(q, g_other),
                                       rtol=0, atol=0)
    assert gt._kth_gradient(q.to(torch.complex64), g) is None


@needs_eigh
def test_kth_eigvalh_backward_uses_the_kernel_and_create_graph_the_formula(monkeypatch):
    A = _rand_sym(4, 9, 9, seed=41).requires_grad_()
    g = torch.randn(4, dtype=torch.float64, device="cuda", requires_grad=True)
    calls = []
    kernel = gt._kth_gradient
    monkeypatch.setattr(gt, "_kth_gradient", lambda q, gw: calls.append(1) or kernel(q, gw))
    w = gt.kth_eigvalh(A, 3)
    (gA,) = torch.autograd.grad(w, A, g.detach())
    assert calls == [1]
    q = torch.linalg.eigh(A.detach())[1][..., :, 3]
    torch.testing.assert_close(gA, _outer_times(q, g.detach()))
    # create_graph: the gradient stays differentiable in g (d<gA, M>/dg = q' M q)
    M = torch.randn(4, 9, 9, dtype=torch.float64, device="cuda")
    w = gt.kth_eigvalh(A, 3)
    (gA,) = torch.autograd.grad(w, A, g, create_graph=True)
    assert calls == [1] and gA.requires_grad
    (gg,) = torch.autograd.grad((gA * M).sum(), g)
    torch.testing.assert_close(gg, torch.einsum("bi,bij,bj->b", q, M, q))


@needs_eigh
def test_kth_gradient_kernel_past_two_to_the_31_elements():
    """Above 2^31 elements the kernel indexes in 64 bits: check matrices on both sides of
    the boundary (about 8.6 GB of float32 gradient)."""
    n = 45
    batch = 2**31 // (n * n) + 2
    if torch.cuda.mem_get_info()[0] < 12 * 2**30:
        pytest.skip("needs 12 GiB of free GPU memory")
    gen = torch.Generator(device="cpu").manual_seed(7)
    q = torch.randn((3, n), generator=gen).cuda().repeat(batch // 3 + 1, 1)[:batch]
    g = torch.randn((batch,), generator=gen).cuda()
    gA = gt._kth_gradient(q, g)
    boundary = 2**31 // (n * n)
    for rows in (slice(0, 2), slice(boundary - 2, boundary + 2), slice(batch - 2, batch)):
        torch.testing.assert_close(gA[rows], _outer_times(q[rows], g[rows]), rtol=0, atol=0)
    del gA
