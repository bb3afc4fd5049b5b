"""PyTorch interop: zero-copy conversions and autograd functions computed by gpuarr.

``import gpuarr`` never imports PyTorch; this submodule does (``import gpuarr.torch``).

- ``to_torch(a)`` / ``from_torch(t)``: the same device memory seen by the other library
  (DLPack); stream-correct: the consumer's current stream waits for the producer's (an
  event, no host synchronization).
- ``eigvalsh(A, lower=True)``, ``eigh(A, lower=True)``, ``kth_eigvalh(A, k, lower=True)``:
  ``torch.autograd.Function``s whose forward runs gpuarr's batched symmetric/Hermitian
  eigensolver (``gpuarr.linalg.eigh`` / ``eigvalsh``) on CUDA tensors without copies, and
  whose backward is plain PyTorch. CPU tensors fall back to ``torch.linalg``. Batched over
  leading dimensions; float32 and float64 (complex Hermitian input works the same way).

CUDA graphs: ``kth_eigvalh`` on real float32/float64 matrices that its kernel takes (those
that fit in shared memory) launches on PyTorch's current stream with no host synchronisation
and no memory of its own, so a training step that uses it can be captured with
``torch.cuda.graph`` and replayed. ``eigh``, ``eigvalsh`` and ``kth_eigvalh``'s fallback
read cuSOLVER's status back to the host and cannot be captured.

Only the ``lower`` (or upper) triangle of ``A`` is read, as in ``torch.linalg.eigh``; the
gradient returned is, as PyTorch's, the symmetric matrix of the formulas below (so a
gradcheck must feed a symmetrized input).

Degenerate eigenvalues: the eigenvalue gradient ``V diag(gw) V^H`` (and ``q q^H`` of
``kth_eigvalh``) stays finite there and is an element of the Clarke subdifferential for
``kth_eigvalh`` (any unit eigenvector of the repeated eigenvalue gives one). Eigenvectors
of a repeated eigenvalue are not unique, and the eigenvector gradient of ``eigh`` divides
by ``w_j - w_i``: it is inf/NaN when eigenvalues coincide and the loss depends on the
eigenvectors, exactly as ``torch.linalg.eigh``'s.
"""

import torch as _torch

from gpuarr import _core, _interop
from gpuarr import linalg as _linalg

__all__ = ["to_torch", "from_torch", "eigvalsh", "eigh", "kth_eigvalh",
           "EigvalshFunction", "EighFunction", "KthEigvalhFunction"]


def to_torch(a):
    """A ``torch.Tensor`` sharing the gpuarr array's memory (zero-copy, DLPack). The
    tensor keeps the memory alive; writes on either side are visible on the other."""
    if not isinstance(a, _core.ndarray):
        raise TypeError(f"to_torch expects a gpuarr.ndarray, got {type(a).__name__}")
    return _torch.from_dlpack(a)


def from_torch(t):
    """A gpuarr array sharing a CUDA tensor's memory (zero-copy, DLPack; the tensor is
    detached from autograd first). CPU tensors raise ``BufferError`` (use
    ``gpuarr.asarray(t.numpy())`` to copy)."""
    if not isinstance(t, _torch.Tensor):
        raise TypeError(f"from_torch expects a torch.Tensor, got {type(t).__name__}")
    if t.requires_grad:
        t = t.detach()
    if t.is_cuda:
        # Straight to the C++ import (the hot path of the autograd functions).
        return _core._dlpack_import_object(t, t.get_device())
    return _interop.from_dlpack(t)


def _uplo(lower):
    return "L" if lower else "U"


class _on_device_of:
    """Makes the tensor's CUDA device gpuarr's current device while gpuarr computes."""

    __slots__ = ("_index", "_previous")

    def __init__(self, t):
        self._index = t.device.index if t.device.index is not None else _torch.cuda.current_device()
        self._previous = None

    def __enter__(self):
        current = _core.get_device()
        if current != self._index:
            self._previous = current
            _core.set_device(self._index)

    def __exit__(self, *exc):
        if self._previous is not None:
            _core.set_device(self._previous)


def _gpu_eigh(A, lower):
    with _on_device_of(A):
        w, v = _linalg.eigh(from_torch(A), UPLO=_uplo(lower))
        return to_torch(w), to_torch(v)


def _gpu_eigvalsh(A, lower):
    with _on_device_of(A):
        return to_torch(_linalg.eigvalsh(from_torch(A), UPLO=_uplo(lower)))


_KTH_DTYPES = {_torch.float32: "float32", _torch.float64: "float64"}

# The raw handle of PyTorch's current stream without building a torch.cuda.Stream object
# (Triton reads it the same way); the public call where a PyTorch lacks it.
_current_raw_stream = getattr(_torch._C, "_cuda_getCurrentRawStream", None)


def _stream_handle(index):
    """PyTorch's current stream on CUDA device `index` (an int, as ``get_device()`` gives)."""
    if _current_raw_stream is not None:
        return _current_raw_stream(index)
    return _torch.cuda.current_stream(index).cuda_stream


def _kth_eigenpair(A, k, lower, need_vector):
    """``(w_k, q_k or None)`` of real ``A`` by gpuarr's k-th eigenpair kernel, launched on
    PyTorch's current stream straight into new PyTorch tensors (no conversions, no events);
    None where the kernel does not take ``A`` (the caller uses eigh)."""
    dtype = _KTH_DTYPES.get(A.dtype)
    n = A.shape[-1]
    if dtype is None or n == 0:
        return None
    # Only the pointer is read, so A needs no detach; grad mode is off inside forward.
    # (new_empty and get_device: this runs in every training step, and they cost less
    # host time than torch.empty(..., dtype=, device=) and a torch.device.)
    a = A if A.is_contiguous() else A.contiguous()
    index = a.get_device()
    w = a.new_empty(a.shape[:-2])
    q = a.new_empty(a.shape[:-1]) if need_vector else None
    launched = _core._kth_eigenpair_raw(
        a.data_ptr(), w.data_ptr(), q.data_ptr() if need_vector else 0, w.numel(), n, k,
        dtype, lower, _stream_handle(index), index)
    return (w, q) if launched else None


def _kth_gradient(q, g):
    """``g q q^T`` per matrix by one kernel of gpuarr on PyTorch's stream, for q from the
    k-th eigenpair kernel (real, contiguous); None where the kernel does not take them."""
    dtype = _KTH_DTYPES.get(q.dtype)
    if dtype is None:
        return None
    if g.dtype != q.dtype:
        g = g.to(q.dtype)
    if not g.is_contiguous():
        g = g.contiguous()
    n = q.shape[-1]
    index = q.get_device()
    gA = q.new_empty(q.shape + (n,))
    launched = _core._kth_gradient_raw(q.data_ptr(), g.data_ptr(), gA.data_ptr(), g.numel(),
                                        n, dtype, _stream_handle(index), index)
    return gA if launched else None


def _check_square(A, name):
    if A.dim() < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{tuple(A.shape[-2:]) if A.dim() >= 2 else tuple(A.shape)} "
                           f"matrices")


class EigvalshFunction(_torch.autograd.Function):
    """Eigenvalues (ascending) of symmetric/Hermitian matrices; gradient
    ``V diag(gw) V^H``."""

    @staticmethod
    def forward(ctx, A, lower=True):
        if ctx.needs_input_grad[0]:
            w, V = _gpu_eigh(A, lower)
            ctx.save_for_backward(V)
        else:
            w = _gpu_eigvalsh(A, lower)
        return w

    @staticmethod
    def backward(ctx, gw):
        (V,) = ctx.saved_tensors
        gA = (V * gw.to(V.dtype).unsqueeze(-2)) @ V.mH
        return gA, None


class EighFunction(_torch.autograd.Function):
    """Eigenvalues and eigenvectors (columns) of symmetric/Hermitian matrices; the backward
    is PyTorch's formula for ``linalg.eigh``:
    ``gA = V (diag(gw) + (skew(V^H gV)) / E) V^H`` with ``E_ij = w_j - w_i`` (i != j)."""

    @staticmethod
    def forward(ctx, A, lower=True):
        w, V = _gpu_eigh(A, lower)
        ctx.save_for_backward(w, V)
        return w, V

    @staticmethod
    def backward(ctx, gw, gV):
        w, V = ctx.saved_tensors
        if gV is None:
            if gw is None:
                return None, None
            return (V * gw.to(V.dtype).unsqueeze(-2)) @ V.mH, None
        VhgV = V.mH @ gV
        VhgV = 0.5 * (VhgV - VhgV.mH)
        E = w.unsqueeze(-2) - w.unsqueeze(-1)
        E.diagonal(dim1=-2, dim2=-1).fill_(1)
        inner = VhgV / E
        diag = inner.diagonal(dim1=-2, dim2=-1)
        if gw is None:
            diag.zero_()
        else:
            diag.copy_(gw)
        return V @ inner @ V.mH, None


class KthEigvalhFunction(_torch.autograd.Function):
    """The k-th (ascending) eigenvalue and, when a gradient is needed, only its eigenvector q
    (gradient ``q q^H * g``): for real matrices that fit in shared memory (on an H100:
    float32 n <= 325, float64 n <= 225) one kernel computes just that pair, on PyTorch's
    stream; otherwise eigh / eigvalsh. A repeated eigenvalue gets some unit vector of its
    eigenspace (its gradient is not unique; torch.linalg's differs likewise). After the
    kernel, the backward is one more kernel of gpuarr (PyTorch ops under create_graph)."""

    @staticmethod
    def forward(ctx, A, k, lower=True):
        k = k % A.shape[-1]
        need_vector = ctx.needs_input_grad[0]
        pair = _kth_eigenpair(A, k, lower, need_vector)
        ctx.from_kernel = pair is not None
        if pair is not None:
            w, q = pair
            if need_vector:
                ctx.save_for_backward(q)
            return w
        if need_vector:
            w, V = _gpu_eigh(A, lower)
            ctx.save_for_backward(V[..., :, k].clone())
        else:
            w = _gpu_eigvalsh(A, lower)
        return w[..., k].clone()

    @staticmethod
    def backward(ctx, g):
        (q,) = ctx.saved_tensors
        # With create_graph (grad mode on here) the gradient must itself be differentiable
        # in g, so it is built from PyTorch ops; otherwise one kernel of ours forms it.
        if ctx.from_kernel and not _torch.is_grad_enabled():
            gA = _kth_gradient(q, g)
            if gA is not None:
                return gA, None, None
        gA = q.unsqueeze(-1) * q.conj().unsqueeze(-2) * g.to(q.dtype)[..., None, None]
        return gA, None, None


def eigvalsh(A, lower=True):
    """Eigenvalues of symmetric/Hermitian ``A`` (batched), differentiable; gpuarr on CUDA
    tensors, ``torch.linalg.eigvalsh`` on CPU tensors."""
    _check_square(A, "eigvalsh")
    if not A.is_cuda:
        return _torch.linalg.eigvalsh(A, UPLO=_uplo(lower))
    return EigvalshFunction.apply(A, lower)


def eigh(A, lower=True):
    """``(w, V)`` of symmetric/Hermitian ``A`` (batched), differentiable; gpuarr on CUDA
    tensors, ``torch.linalg.eigh`` on CPU tensors."""
    _check_square(A, "eigh")
    if not A.is_cuda:
        return _torch.linalg.eigh(A, UPLO=_uplo(lower))
    return EighFunction.apply(A, lower)


def kth_eigvalh(A, k, lower=True):
    """The k-th smallest eigenvalue (``w[..., k]``; negative k counts from the largest) of
    symmetric/Hermitian ``A`` (batched), differentiable with gradient ``q_k q_k^H``; gpuarr
    on CUDA tensors, ``torch.linalg.eigvalsh`` on CPU tensors."""
    _check_square(A, "kth_eigvalh")
    n = A.shape[-1]
    if not -n <= k < n:
        raise IndexError(f"kth_eigvalh: k={k} is out of range for {n}x{n} matrices")
    if not A.is_cuda:
        return _torch.linalg.eigvalsh(A, UPLO=_uplo(lower))[..., k]
    return KthEigvalhFunction.apply(A, k, lower)
