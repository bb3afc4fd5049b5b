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
