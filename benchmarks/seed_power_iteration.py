"""Group ``seed-power-iteration``: seed 000's device power iteration on a 4096x4096 float64
matrix already on the device: 20 rounds of (matvec, Rayleigh quotient, residual norm,
normalise, residual formatted on the host) then 9 (matvec, normalise), and the final
Rayleigh quotient: 201 matvecs. Floor: 201 reads of the 134 MB matrix, about 9 ms."""

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group

DIM = 4096
ROUNDS, CHECK_EVERY = 20, 10


def _matrix():
    # Positive entries: a dominant eigenvalue near DIM/2 (Perron), far from the others, so
    # the estimate can be checked; the timing does not depend on convergence (no early exit).
    return np.random.default_rng(42).random((DIM, DIM))


def _power_iteration(A, ones, norm, to_text):
    x = ones(A.shape[0])
    lines = []
    for _ in range(ROUNDS):
        y = A @ x
        lam = (x @ y) / (x @ x)
        res = norm(y - lam * x)
        x = y / norm(y)
        lines.append(to_text(res))
        for _ in range(CHECK_EVERY - 1):
            y = A @ x
            x = y / norm(y)
    return (x @ (A @ x)) / (x @ x), lines


def _make(lib_asarray, ones, norm, to_text, to_float, what):
    h = _matrix()
    A = lib_asarray(h)
    lam, _ = _power_iteration(A, ones, norm, to_text)
    # The dominant eigenvalue of a positive matrix: check A x = lam x on the host.
    lam = to_float(lam)
    x = np.ones(DIM)
    for _ in range(50):
        x = h @ x
        x /= np.linalg.norm(x)
    ref = float(x @ (h @ x))
    check(abs(lam - ref) <= 1e-8 * abs(ref), f"{what}: eigenvalue {lam} differs from {ref}")
    return lambda: _power_iteration(A, ones, norm, to_text)


POWER = Workload(
    "seed 000 power iteration 4096 f64 (201 matvecs)", key="power_iteration_4096", kind="call",
    goal=Goal("<= 13 ms (CuPy 31)", abs_max=13000.0),
    note="A on the device; residual printed (one small read) every 10 steps")


@POWER.impl("gpuarr")
def _power_gpuarr(ga):
    return _make(ga.asarray, lambda n: ga.ones(n), ga.linalg.norm, lambda r: f"{r:.3e}",
                 float, "gpuarr")


@POWER.impl("cupy")
def _power_cupy(cp):
    return _make(cp.asarray, lambda n: cp.ones(n), cp.linalg.norm,
                 lambda r: f"{cp.asnumpy(r):.3e}", float, "cupy")


@POWER.impl("torch")
def _power_torch(torch):
    return _make(lambda h: torch.as_tensor(h, device="cuda"),
                 lambda n: torch.ones(n, dtype=torch.float64, device="cuda"),
                 torch.linalg.norm, lambda r: f"{r.item():.3e}", lambda t: t.item(), "torch")


register_group("seed-power-iteration", [POWER], "seed 000's device power iteration")
