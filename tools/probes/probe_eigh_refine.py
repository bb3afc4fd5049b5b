"""Could a float32 eigh refined in float64
(Ogita and Aishima's iteration, GEMM-bound) beat cuSOLVER's float64 Xsyevd? Prototyped in
PyTorch on four spectra (random, clusters, graded, low rank):

    python -m tools.probes.probe_eigh_refine [n]

Measured on the H100: the float32 eigh
alone takes 94 ms against 127 for float64, and each refinement step 13-14 ms, so two steps
already cost 120 ms; random spectra needed three. Not pursued.
"""
import sys
import time


def main():
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    dev = "cuda"
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096

    def tms(f, reps=3):
        f(); torch.cuda.synchronize()
        best = 1e9
        for _ in range(reps):
            t = time.perf_counter(); f(); torch.cuda.synchronize(); best = min(best, time.perf_counter() - t)
        return best * 1e3

    def norm2_est(M, iters=8):
        v = torch.randn(M.shape[0], 1, dtype=M.dtype, device=M.device)
        for _ in range(iters):
            v = M @ (M.T @ v); v = v / v.norm()
        return (M @ v).norm() * 1.1

    def refine(A, X, iters, est="power", verbose=False):
        I = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
        normA = None
        for it in range(iters):
            AX = A @ X
            R = I - X.T @ X
            S = X.T @ AX
            lam = torch.diagonal(S) / (1 - torch.diagonal(R))
            if normA is None: normA = lam.abs().max()
            Soff = S - torch.diag(lam)
            if est == "power":
                delta = 2 * (norm2_est(Soff) + normA * norm2_est(R))
            else:
                delta = 2 * (Soff.norm() + normA * R.norm())
            diff = lam[None, :] - lam[:, None]
            E = torch.where(diff.abs() > delta, (S + lam[None, :] * R) / diff, R / 2)
            X = X + X @ E
            if verbose:
                print(f"   it {it}: delta/normA {float(delta/normA):.2e}  unresolved pairs {int(((diff.abs() <= delta).sum() - n) // 2)}")
        AX = A @ X
        lam = (X * AX).sum(0) / (X * X).sum(0)
        lam, p = torch.sort(lam)
        return lam, X[:, p], AX[:, p]

    def quality(A, w, V):
        normA = w.abs().max()
        res = (A @ V - V * w).abs().max() / normA
        orth = (V.T @ V - torch.eye(A.shape[0], dtype=A.dtype, device=A.device)).abs().max()
        return float(res), float(orth)

    def matrices():
        g = torch.Generator(device=dev).manual_seed(0)
        B = torch.randn(n, n, device=dev, dtype=torch.float64, generator=g)
        yield "random", (B + B.T) / 2
        Q, _ = torch.linalg.qr(torch.randn(n, n, device=dev, dtype=torch.float64, generator=g))
        lam = torch.linspace(-1, 1, n, device=dev, dtype=torch.float64)
        lam[100:120] = 0.5; lam[200:210] = 0.25 + 1e-10 * torch.arange(10, device=dev)
        yield "clusters", (Q * lam) @ Q.T
        lam = torch.logspace(-12, 0, n, device=dev, dtype=torch.float64)
        yield "graded", (Q * lam) @ Q.T
        lam = torch.zeros(n, device=dev, dtype=torch.float64); lam[-10:] = torch.arange(1, 11, device=dev)
        yield "lowrank", (Q * lam) @ Q.T

    for name, A in matrices():
        A = (A + A.T) / 2
        t64 = tms(lambda: torch.linalg.eigh(A))
        w64, V64 = torch.linalg.eigh(A)
        A32 = A.float()
        t32 = tms(lambda: torch.linalg.eigh(A32))
        w32, V32 = torch.linalg.eigh(A32)
        print(f"{name}: torch eigh f64 {t64:.1f} ms, f32 {t32:.1f} ms; f64 quality res/orth {quality(A, w64, V64)}")
        for iters in (1, 2, 3):
            for est in ("power", "fro"):
                X0 = V32.double()
                tr = tms(lambda: refine(A, X0, iters, est))
                w, V, _ = refine(A, X0, iters, est, verbose=(iters == 3 and est == "power"))
                print(f"  refine {iters} {est}: {tr:.1f} ms (+f32 {t32:.1f} = {tr+t32:.1f}); res/orth {quality(A, w, V)}; max|w-w64|/normA {float((w-w64).abs().max()/w64.abs().max()):.2e}")
    try:
        import cupy as cp
        A = next(matrices())[1]
        Ac = cp.asarray(A.cpu().numpy())
        def ce(): cp.linalg.eigh(Ac); cp.cuda.Device().synchronize()
        ce()
        t = min((lambda t0: (ce(), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(3))
        print(f"cupy eigh f64 {t*1e3:.1f} ms")
        Ac32 = Ac.astype(cp.float32)
        def ce32(): cp.linalg.eigh(Ac32); cp.cuda.Device().synchronize()
        ce32()
        t = min((lambda t0: (ce32(), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(3))
        print(f"cupy eigh f32 {t*1e3:.1f} ms")
    except Exception as e:
        print("cupy:", e)



if __name__ == "__main__":
    main()
