"""Host time of gpuarr.torch.kth_eigvalh against what it replaces in seed 004's step.

    python -m tools.probes.probe_kth_host [rounds]

On 4 matrices of 8x8 (GPU time negligible, so every figure is host time per call; us,
median of interleaved rounds of 2000 calls): forward + backward (autograd.grad) of
kth_eigvalh, of the no-eigensolver step's stand-in `A[..., k, k] * 1.0`, and of a Python
autograd Function that only zero-fills its output and gradient (the interop group's
do-nothing row: PyTorch's own floor for any such helper); then the
parts of kth_eigvalh's forward and backward one by one.
"""

import sys

from benchmarks.interop import _zeros_function
from tools.probes.probe_rounds import interleaved_medians, print_medians
from tools.probes.probe_train_step import kth_with_pytorch_backward


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    import torch

    import gpuarr.torch as gt
    from gpuarr import _core

    batch, n, k = 4, 8, 3
    A = torch.randn(batch, n, n, device="cuda")
    A = (A + A.mT).requires_grad_()
    Ad = A.detach()
    g = torch.ones(batch, device="cuda")
    w0, q0 = gt._kth_eigenpair(Ad, k, True, True)
    stream = gt._stream_handle(A.get_device())

    nothing = _zeros_function(torch)
    kth_pytorch_backward = kth_with_pytorch_backward(torch, gt)

    def grad_of(f):
        def run():
            torch.autograd.grad(f(), A, g)
        return run

    cases = {
        "A[..., k, k] * 1.0: forward + grad": grad_of(lambda: A[..., k, k] * 1.0),
        "do-nothing Function: forward + grad": grad_of(lambda: nothing(A, k)),
        "kth_eigvalh: forward + grad": grad_of(lambda: gt.kth_eigvalh(A, k)),
        "kth_eigvalh, PyTorch-ops backward: forward + grad":
            grad_of(lambda: kth_pytorch_backward(A, k)),
        "A[..., k, k] * 1.0: forward": lambda: A[..., k, k] * 1.0,
        "do-nothing Function: forward": lambda: nothing(A, k),
        "kth_eigvalh: forward": lambda: gt.kth_eigvalh(A, k),
        "KthEigvalhFunction.apply: forward": lambda: gt.KthEigvalhFunction.apply(A, k, True),
        "_kth_eigenpair (tensors + launch)": lambda: gt._kth_eigenpair(Ad, k, True, True),
        "_core._kth_eigenpair_raw alone": lambda: _core._kth_eigenpair_raw(
            Ad.data_ptr(), w0.data_ptr(), q0.data_ptr(), batch, n, k, "float32", True, stream,
            0),
        "_kth_gradient (tensor + launch)": lambda: gt._kth_gradient(q0, g),
        "torch.empty((4,), device=cuda)": lambda: torch.empty((batch,), device="cuda"),
        "_stream_handle": lambda: gt._stream_handle(A.get_device()),
        "torch.cuda.current_stream().cuda_stream":
            lambda: torch.cuda.current_stream(A.device).cuda_stream,
    }
    sync = torch.cuda.synchronize
    samples = interleaved_medians({name: (f, sync) for name, f in cases.items()}, rounds,
                                  2000, 200)
    print_medians(samples, width=52, digits=1)


if __name__ == "__main__":
    main()
