"""SVD of one matrix as a polar decomposition (QDWH: QR- then Cholesky-based iterations)
followed by eigh of the Hermitian factor, against the library's gesvd-based svd: time and
accuracy (reconstruction error, singular values against float64 LAPACK's, orthogonality).
The same code runs on NumPy/SciPy (accuracy on the host) and on CuPy (time on the GPU).

    python -m tools.probes.probe_qdwh_svd [numpy|cupy] [sizes...]

QDWH: Nakatsukasa, Bai and Gygi, "Optimizing Halley's iteration for computing the matrix
polar decomposition" (SIAM J. Matrix Anal. Appl. 31, 2010); the QR/Cholesky switch at
c = 100 and the dynamically weighted coefficients as there.
"""
import math
import sys
import time

import numpy as np


def backend(name):
    if name == "cupy":
        import cupy as xp
        from cupyx.scipy.linalg import solve_triangular

        def sync():
            xp.cuda.Device().synchronize()
    else:
        xp = np
        from scipy.linalg import solve_triangular

        def sync():
            pass
    return xp, solve_triangular, sync


def qdwh_polar(xp, solve_triangular, a, max_iter=12):
    """The unitary polar factor U of a (m >= n) and the number of iterations: a = U H."""
    m, n = a.shape
    real = a.real.dtype
    eps = float(np.finfo(real).eps)
    # ||a||_2 <= sqrt(||a||_1 ||a||_inf): the scaled matrix has singular values <= 1.
    alpha = float(xp.sqrt(xp.abs(a).sum(axis=0).max() * xp.abs(a).sum(axis=1).max()))
    u = a / alpha
    lower = eps  # a lower bound of sigma_min(u); too small only costs iterations
    eye = xp.eye(n, dtype=a.dtype)
    tol = np.cbrt(5 * eps)
    settled = 0
    for it in range(1, max_iter + 1):
        l2 = lower * lower
        dd = np.cbrt(4 * (1 / l2 - 1) / l2)
        sqd = np.sqrt(1 + dd)
        ca = sqd + np.sqrt(8 - 4 * dd + 8 * (2 - l2) / (l2 * sqd)) / 2
        cb = (ca - 1) ** 2 / 4
        cc = ca + cb - 1
        lower = lower * (ca + cb * l2) / (1 + cc * l2)
        # Python floats: the coefficients must not promote the iterate to float64.
        ca, cb, cc = float(ca), float(cb), float(cc)
        prev = u
        if cc > 100:
            q, _ = xp.linalg.qr(xp.concatenate([math.sqrt(cc) * u, eye]))
            u = (cb / cc) * u + ((ca - cb / cc) / math.sqrt(cc)) * (q[:m] @ q[m:].conj().T)
        else:
            # u (I + c u^H u)^-1 through the Cholesky factor L: two triangular solves.
            z = eye + cc * (u.conj().T @ u)
            lo = xp.linalg.cholesky(z)
            y = solve_triangular(lo, u.conj().T, lower=True)
            y = solve_triangular(lo.conj().T, y, lower=False)
            u = (cb / cc) * u + (ca - cb / cc) * y.conj().T
        if abs(1 - lower) < 10 * eps:
            # Converged singular values stay put; those of a rank-deficient matrix (of
            # the order of eps) only drift, so two iterations after the bound reached 1 end.
            settled += 1
            if settled > 2 or float(xp.linalg.norm(u - prev)) < tol:
                break
    return u, it


def qdwh_svd(xp, solve_triangular, a):
    """u, s, vh of a (thin), s descending."""
    m, n = a.shape
    if m < n:
        u, s, vh = qdwh_svd(xp, solve_triangular, a.conj().T)
        return vh.conj().T, s, u.conj().T
    up, iters = qdwh_polar(xp, solve_triangular, a)
    assert up.dtype == a.dtype, up.dtype
    h = up.conj().T @ a
    h = (h + h.conj().T) / 2
    w, v = xp.linalg.eigh(h)
    w, v = w[::-1], v[:, ::-1]
    # A negative eigenvalue (rank-deficient a, of the order of eps ||a||): its singular
    # value is |w| with the left vector's sign flipped.
    sign = xp.where(w < 0, -1, 1).astype(a.dtype)
    u = (up @ v) * sign
    s = xp.abs(w)
    # Rank-deficient a: the polar factor maps the null space to 0, so u's last columns are
    # not orthonormal; a QR completes them (and keeps the others up to sign).
    eps = float(np.finfo(a.real.dtype).eps)
    if float(s[-1]) <= n * eps * float(s[0]):
        q, r = xp.linalg.qr(u)
        u = q * xp.where(xp.diagonal(r).real < 0, -1, 1).astype(a.dtype)
    return u, s, v.conj().T, iters


def matrices(n, m, dtype, rng):
    g = rng.standard_normal((m, n))
    graded = g * np.logspace(0, -6, m)[:, None]
    q1, _ = np.linalg.qr(rng.standard_normal((m, n)))
    q2, _ = np.linalg.qr(rng.standard_normal((n, n)))
    s = np.ones(n)
    s[n // 2:] = 0  # rank n / 2
    deficient = (q1 * s) @ q2.T
    return {"gaussian": g.astype(dtype), "graded": graded.astype(dtype),
            "rank n/2": deficient.astype(dtype)}


def main(argv):
    name = argv[1] if len(argv) > 1 else "numpy"
    sizes = [int(x) for x in argv[2:]] or [256, 512]
    xp, solve_triangular, sync = backend(name)
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        eps = np.finfo(dtype).eps
        for n in sizes:
            for m in (n, 2 * n):
                for label, host in matrices(n, m, dtype, rng).items():
                    a = xp.asarray(host)
                    s_ref = np.linalg.svd(host.astype(np.float64), compute_uv=False)
                    row = [f"{np.dtype(dtype).name} {m}x{n} {label:9s}"]
                    for method in ("gesvd", "qdwh"):
                        f = ((lambda: xp.linalg.svd(a, full_matrices=False)) if method == "gesvd"
                             else (lambda: qdwh_svd(xp, solve_triangular, a)))
                        r = f()
                        sync()
                        t0 = time.perf_counter()
                        r = f()
                        sync()
                        ms = (time.perf_counter() - t0) * 1e3
                        u, s, vh = (np.asarray(x.get() if hasattr(x, "get") else x) for x in r[:3])
                        rec = np.linalg.norm((u * s) @ vh - host) / np.linalg.norm(host)
                        ds = np.abs(s.astype(np.float64) - s_ref).max() / s_ref[0]
                        orth = max(np.abs(u.T @ u - np.eye(n)).max(), np.abs(vh @ vh.T - np.eye(n)).max())
                        extra = f" {r[3]} it" if method == "qdwh" else ""
                        row.append(f"{method} {ms:8.2f} ms rec {rec / eps:6.1f} eps ds {ds / eps:6.1f} eps "
                                   f"orth {orth / eps:6.1f} eps{extra}")
                    print(" | ".join(row), flush=True)


if __name__ == "__main__":
    main(sys.argv)
