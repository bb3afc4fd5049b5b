"""Where the time of seed 004's training step goes (goal: <= 1.0 ms per step).

    python -m tools.probes.probe_train_step [rounds]
    python -m tools.probes.probe_train_step --no-gpuarr [rounds]
    python -m tools.probes.probe_train_step --paired [rounds]

Times, interleaved round by round in one process (us per call, median over rounds; each
round 200 calls then one synchronize): the whole step with gpuarr.torch.kth_eigvalh, the
model's forward alone (with and without grad), the step's parts without any eigensolver,
the step and kth_eigvalh forward + backward with the gradient kernel and with PyTorch ops,
gpuarr's eigh alone, the DLPack conversions it makes, and the step with an eigensolver that
costs only the eigenvalues-only kernel's GPU time; then the GPU kernel time per step
(torch.profiler) with and without the eigensolver. `--no-gpuarr`: PyTorch's own step in a
process without gpuarr. `--paired`: kth_eigvalh's step against the do-nothing autograd
Function's step and PyTorch's own, difference and ratio round by round.
"""

import contextlib
import sys
import time

from benchmarks.interop import BATCH, DIM, K, NUM_FEATURES, _model_classes
from tools.probes.probe_rounds import interleaved_medians, per_call, print_medians


def _model_and_step(torch, kth):
    """Seed 004's model with `kth` for the k-th eigenvalue, Adam, a fixed batch, the loss,
    and the training step."""
    Model = _model_classes(torch)
    torch.manual_seed(0)
    model = Model(num_features=NUM_FEATURES, dim=DIM, eigval_idx=K, kth=kth).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(BATCH, NUM_FEATURES, device="cuda")
    y = torch.randn(BATCH, device="cuda")
    crit = torch.nn.MSELoss()

    def step():
        opt.zero_grad(set_to_none=True)
        crit(model(x), y).backward()
        opt.step()

    return model, opt, x, y, crit, step


def kth_with_pytorch_backward(torch, gt):
    """kth_eigvalh with its backward as PyTorch ops (what it ran before its gradient
    kernel), for comparisons."""

    class KthPyTorchBackward(gt.KthEigvalhFunction):
        @staticmethod
        def backward(ctx, g):
            ctx.from_kernel = False
            return gt.KthEigvalhFunction.backward(ctx, g)

    def kth(A, k):
        gt._check_square(A, "kth_eigvalh")
        return KthPyTorchBackward.apply(A, k, True)

    return kth


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    import torch

    import gpuarr as ga
    import gpuarr.torch as gt

    sync = torch.cuda.synchronize
    model, opt, x, y, crit, step = _model_and_step(torch, gt.kth_eigvalh)

    def forward_no_grad():
        with torch.no_grad():
            model(x)

    def forward_and_loss():
        crit(model(x), y)

    def step_without_eigen():
        # the same graph up to the matrices, then a scalar of them, backward and Adam
        opt.zero_grad(set_to_none=True)
        nf, dim = model.A.shape[:2]
        feature_mat = (x @ model.A.view(nf, dim * dim)).view(-1, dim, dim)
        bias_mat = torch.diagflat(model.mu()).expand_as(feature_mat)
        mats = bias_mat + feature_mat
        loss = crit(mats[:, K, K], y)
        loss.backward()
        opt.step()

    class ValuesOnlyKth(torch.autograd.Function):
        # gpuarr's eigenvalues-only kernel for w_k and a stand-in unit vector for q_k: the
        # GPU cost of a k-th-eigenpair kernel, to see how much of the step the eigensolver's
        # GPU time sets (the gradient is wrong; only the time matters).
        @staticmethod
        def forward(ctx, mats, k):
            w = gt.to_torch(ga.linalg.eigvalsh(gt.from_torch(mats.detach())))
            q = mats.detach()[..., :, k]
            ctx.save_for_backward(q / q.norm(dim=-1, keepdim=True))
            return w[..., k].clone()

        @staticmethod
        def backward(ctx, gw):
            (q,) = ctx.saved_tensors
            return q.unsqueeze(-1) * q.unsqueeze(-2) * gw[..., None, None], None

    # the same model, Adam, batch and seed as the step, with another k-th eigenvalue helper
    step_values_only = _model_and_step(torch, ValuesOnlyKth.apply)[-1]
    kth_pytorch_backward = kth_with_pytorch_backward(torch, gt)
    step_pytorch_backward = _model_and_step(torch, kth_pytorch_backward)[-1]

    A = torch.randn(BATCH, DIM, DIM, device="cuda")
    A = (A + A.mT).requires_grad_()
    g = torch.ones(BATCH, device="cuda")

    def kth_forward():
        gt.kth_eigvalh(A, K)

    def kth_forward_backward():
        w = gt.kth_eigvalh(A, K)
        (gA,) = torch.autograd.grad(w, A, g)

    Ad = A.detach()
    Ag = gt.from_torch(Ad)

    def kth_forward_backward_pytorch_ops():
        w = kth_pytorch_backward(A, K)
        (gA,) = torch.autograd.grad(w, A, g)

    def gpuarr_eigh():
        ga.linalg.eigh(Ag)

    def conversions():
        a = gt.from_torch(Ad)
        gt.to_torch(a)

    def adam_only():
        opt.step()

    cases = {
        "whole step (kth_eigvalh)": step,
        "forward, no grad": forward_no_grad,
        "forward + loss, with grad, no backward": forward_and_loss,
        "step without eigensolver ([:, k, k])": step_without_eigen,
        "step, eigenvalues-only kernel + stand-in q": step_values_only,
        "Adam step alone": adam_only,
        "kth_eigvalh forward (grad needed)": kth_forward,
        "whole step, kth backward as PyTorch ops": step_pytorch_backward,
        "kth_eigvalh forward + backward": kth_forward_backward,
        "kth_eigvalh forward + backward as PyTorch ops": kth_forward_backward_pytorch_ops,
        "gpuarr.linalg.eigh 256x45x45 alone": gpuarr_eigh,
        "from_torch + to_torch": conversions,
    }
    step()  # gradients exist for the Adam-only case
    step_pytorch_backward()
    samples = interleaved_medians({k: (f, sync) for k, f in cases.items()}, rounds, 200, 50)
    t, c = time.perf_counter(), time.process_time()
    for _ in range(500):
        step()
    sync()
    wall, cpu = (time.perf_counter() - t) / 500 * 1e6, (time.process_time() - c) / 500 * 1e6
    print(f"whole step: wall {wall:.1f} us, process CPU {cpu:.1f} us per step")
    from torch.profiler import ProfilerActivity, profile
    for name, f in (("whole step", step), ("step without eigensolver", step_without_eigen)):
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(20):
                f()
            sync()
        busy = sum(e.self_device_time_total for e in prof.key_averages()) / 20
        print(f"{name}: GPU kernel time {busy:.1f} us per step")
    print_medians(samples, digits=1)

def floor_without_gpuarr(rounds):
    """The no-eigensolver step in a process that never imports gpuarr: whether gpuarr's
    presence (its context setup, its threads) changes PyTorch's own cost."""
    import torch
    assert "gpuarr" not in sys.modules
    step = _model_and_step(torch, lambda A, k: A[..., k, k] * 1.0)[-1]
    samples = interleaved_medians({"step without eigensolver, no gpuarr in the process":
                                   (step, torch.cuda.synchronize)}, rounds, 200, 50)
    assert "gpuarr" not in sys.modules
    print_medians(samples, digits=1)


@contextlib.contextmanager
def kth_launches_stubbed(on=True):
    """While on, kth_eigvalh's two kernel launches are a stub that launches nothing, so a
    step measures kth_eigvalh's host work alone."""
    from gpuarr import _core
    launches = (_core._kth_eigenpair_raw, _core._kth_gradient_raw)
    if on:
        _core._kth_eigenpair_raw = _core._kth_gradient_raw = lambda *a: True
    try:
        yield
    finally:
        _core._kth_eigenpair_raw, _core._kth_gradient_raw = launches


def paired_rounds(cases, rounds, measure, warm_steps=20):
    """cases: name -> (step, stub kth_eigvalh's launches). Warms every step up, then runs
    `rounds` rounds in which each case is measured once by `measure(step)` (-> {metric: value
    per step}). Returns name -> the list of those dicts, one per round."""
    for step, stub in cases.values():
        with kth_launches_stubbed(stub):
            for _ in range(warm_steps):
                step()
    samples = {name: [] for name in cases}
    for _ in range(rounds):
        for name, (step, stub) in cases.items():
            with kth_launches_stubbed(stub):
                samples[name].append(measure(step))
    return samples


def print_paired(samples, base, heading):
    """Per case and metric: the median over rounds and, in brackets, the medians over rounds
    of the difference and of the ratio to case `base` in the same round (the host's drift
    cancels)."""
    import statistics
    keys = list(samples[base][0])
    print(heading)
    print(f"  {'':50s}" + "".join(f"{k:>34s}" for k in keys))
    for name, v in samples.items():
        cells = []
        for k in keys:
            med = statistics.median(s[k] for s in v)
            diff = statistics.median(s[k] - b[k] for s, b in zip(v, samples[base]))
            ratio = statistics.median(s[k] / b[k] for s, b in zip(v, samples[base]))
            cells.append(f"{med:12.1f} ({diff:+9.1f}, {ratio:6.3f}x)")
        print(f"  {name:50s}" + "".join(f"{c:>34s}" for c in cells))


def paired(rounds):
    """The step with kth_eigvalh against the same step with a do-nothing autograd Function
    (the issue's floor for any such helper) and PyTorch's own step (the stand-in
    A[..., k, k]), interleaved round by round with the differences and ratios taken per
    round, so that the host's drift between rounds cancels; also kth_eigvalh with no kernel
    launched (its host work alone) and with its backward as PyTorch ops."""
    import torch

    import gpuarr.torch as gt
    from benchmarks.interop import _zeros_function

    floor = "do-nothing autograd Function"
    cases = {
        floor: (_model_and_step(torch, _zeros_function(torch))[-1], False),
        "PyTorch's own step (A[..., k, k] * 1.0)":
            (_model_and_step(torch, lambda A, k: A[..., k, k] * 1.0)[-1], False),
        "kth_eigvalh": (_model_and_step(torch, gt.kth_eigvalh)[-1], False),
        "kth_eigvalh, no kernel launched (host work only)":
            (_model_and_step(torch, gt.kth_eigvalh)[-1], True),
        "kth_eigvalh, backward as PyTorch ops":
            (_model_and_step(torch, kth_with_pytorch_backward(torch, gt))[-1], False),
    }
    calls, sync = 100, torch.cuda.synchronize
    samples = paired_rounds(cases, rounds, lambda step: {"us": per_call(step, sync, calls)})
    print_paired(samples, floor, f"us per step, {rounds} interleaved rounds of {calls} steps: "
                 f"median, and (the medians over rounds of the difference and ratio to the "
                 f"do-nothing Function's step)")


if __name__ == "__main__":
    if "--paired" in sys.argv:
        sys.argv.remove("--paired")
        paired(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
    elif "--no-gpuarr" in sys.argv:
        sys.argv.remove("--no-gpuarr")
        floor_without_gpuarr(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
    else:
        main()
