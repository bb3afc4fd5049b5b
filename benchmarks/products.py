"""Group ``products``: dot of 1e8 float32, matmul 4096 float32, the seed distance matrix
(float32 and float16), and the 4096 float64 matvec of the power iteration, gpuarr vs CuPy
vs PyTorch. Goals are gpuarr's H100 targets in microseconds."""

import numpy as np

from benchmarks.harness import Goal, Workload, check, register_group

N_DOT = 100_000_000
N_MM = 4096
Q_ROWS, FEAT = 10_000, 784


def _host(shape, dtype, seed):
    return np.random.default_rng(seed).uniform(-1, 1, size=shape).astype(dtype)


def _close(got, expected, rtol, what):
    got = np.asarray(got, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
    check(np.allclose(got, expected, rtol=rtol, atol=rtol * scale, equal_nan=True),
          f"{what}: result differs from NumPy's")


# -- dot 1e8 float32 ------------------------------------------------------------------

DOT = Workload("dot of two 1e8 float32", key="dot_1e8_f32", kind="call",
               goal=Goal("<= 330 us (floor 280: 800 MB read)", abs_max=330.0),
               note="1-D . 1-D: the row-dot kernel, result stays on the device")


def _dot_inputs():
    return _host(N_DOT, np.float32, 1), _host(N_DOT, np.float32, 2)


def _dot_impl(to_dev, dot, to_host):
    a, b = _dot_inputs()
    da, db = to_dev(a), to_dev(b)
    expected = np.dot(a[:1_000_000].astype(np.float64), b[:1_000_000].astype(np.float64))
    _close(to_host(dot(da[:1_000_000], db[:1_000_000])), expected, 1e-3, "dot")
    return lambda: dot(da, db)


@DOT.impl("gpuarr")
def _dot_gpuarr(ga):
    return _dot_impl(ga.asarray, ga.dot, ga.asnumpy)


@DOT.impl("cupy")
def _dot_cupy(cp):
    return _dot_impl(cp.asarray, cp.dot, cp.asnumpy)


@DOT.impl("torch")
def _dot_torch(torch):
    return _dot_impl(lambda h: torch.as_tensor(h, device="cuda"), torch.dot,
                     lambda t: t.cpu().numpy())


# -- matmul 4096 float32 ----------------------------------------------------------------

MATMUL = Workload("matmul 4096x4096 float32", key="matmul_4096_f32", kind="call",
                  goal=Goal("<= 1.03x CuPy (2.77 ms)", ratio_max=1.03, abs_max=2850.0),
                  note="cuBLAS sgemm, default math mode (no TF32)")


def _mm_impl(to_dev, to_host):
    a, b = _host((N_MM, N_MM), np.float32, 3), _host((N_MM, N_MM), np.float32, 4)
    da, db = to_dev(a), to_dev(b)
    got = to_host(da[:64] @ db)
    _close(got, a[:64].astype(np.float64) @ b.astype(np.float64), 1e-3, "matmul")
    return lambda: da @ db


@MATMUL.impl("gpuarr")
def _mm_gpuarr(ga):
    return _mm_impl(ga.asarray, ga.asnumpy)


@MATMUL.impl("cupy")
def _mm_cupy(cp):
    return _mm_impl(cp.asarray, cp.asnumpy)


@MATMUL.impl("torch")
def _mm_torch(torch):
    torch.backends.cuda.matmul.allow_tf32 = False
    return _mm_impl(lambda h: torch.as_tensor(h, device="cuda"), lambda t: t.cpu().numpy())


# -- seed 002 distance matrix -----------------------------------------------------------

def _distance_workload(dtype, goal_us):
    name = np.dtype(dtype).name
    w = Workload(f"distance matrix 10000x784 {name}", key=f"distance_{name}", kind="call",
                 goal=Goal(f"<= {goal_us / 1000:g} ms", abs_max=goal_us),
                 note="sqrt(einsum('ij,ij->i',q,q)[:,None] - 2*q@p.T + einsum('ij,ij->i',p,p))")

    def impl(xp, to_dev, to_host, sqrt):
        q, p = _host((Q_ROWS, FEAT), dtype, 5), _host((Q_ROWS, FEAT), dtype, 6)
        dq, dp = to_dev(q), to_dev(p)

        def fn():
            qq = xp.einsum("ij,ij->i", dq, dq)
            pp = xp.einsum("ij,ij->i", dp, dp)
            # As seed 002 writes it: `2*q@p.T` is `(2*q) @ p.T` (same precedence, left to
            # right), so the doubling is a pass over q, not over the 10000^2 product.
            return sqrt(qq[:, None] - 2 * dq @ dp.T + pp)

        r = to_host(fn()[:50, :50])
        q64, p64 = q[:50].astype(np.float64), p[:50].astype(np.float64)
        ref = np.sqrt(np.maximum((q64 * q64).sum(1)[:, None] - 2 * q64 @ p64.T + (p64 * p64).sum(1), 0))
        _close(np.nan_to_num(r), ref, 2e-2 if name == "float16" else 1e-3, "distance")
        return fn

    @w.impl("gpuarr")
    def _g(ga):
        return impl(ga, ga.asarray, ga.asnumpy, ga.sqrt)

    @w.impl("cupy")
    def _c(cp):
        return impl(cp, cp.asarray, cp.asnumpy, cp.sqrt)

    @w.impl("torch")
    def _t(torch):
        return impl(torch, lambda h: torch.as_tensor(h, device="cuda"),
                    lambda t: t.float().cpu().numpy(), torch.sqrt)

    return w


DIST32 = _distance_workload(np.float32, 4000.0)
DIST16 = _distance_workload(np.float16, 2500.0)


# -- seed 000 matvec ----------------------------------------------------------------------

MATVEC = Workload("matvec 4096x4096 float64 (A @ x)", key="matvec_4096_f64", kind="call",
                  goal=Goal("<= 64 us (201 of them + norms <= 13 ms)", abs_max=64.0),
                  note="cublasDgemv at bandwidth (134 MB read)")


def _mv_impl(to_dev, to_host):
    a, x = _host((N_MM, N_MM), np.float64, 7), _host(N_MM, np.float64, 8)
    da, dx = to_dev(a), to_dev(x)
    _close(to_host(da @ dx), a @ x, 1e-9, "matvec")
    return lambda: da @ dx


@MATVEC.impl("gpuarr")
def _mv_gpuarr(ga):
    return _mv_impl(ga.asarray, ga.asnumpy)


@MATVEC.impl("cupy")
def _mv_cupy(cp):
    return _mv_impl(cp.asarray, cp.asnumpy)


@MATVEC.impl("torch")
def _mv_torch(torch):
    return _mv_impl(lambda h: torch.as_tensor(h, device="cuda"), lambda t: t.cpu().numpy())


register_group("products", [DOT, MATMUL, DIST32, DIST16, MATVEC],
               "cuBLAS products, row dots and einsum")
