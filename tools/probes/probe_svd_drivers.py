"""cuSOLVER's SVD drivers through PyTorch (gesvd, gesvdj, gesvda), PyTorch's default
(svdvals) and pinv, against CuPy's svd and pinv (gesvd): best of five synchronised calls,
and each driver's reconstruction error ||U S V^H - A|| / ||A|| on a Gaussian matrix.
Needs PyTorch and CuPy; gpuarr is not imported.

    python -m tools.probes.probe_svd_drivers
"""
import time

import cupy as cp
import torch

SHAPES = (((512, 512), torch.float32), ((512, 256), torch.float32), ((512, 512), torch.float64),
          ((2048, 2048), torch.float32), ((1024, 32, 32), torch.float32))


def best_ms(f, reps=5):
    f()
    torch.cuda.synchronize()
    cp.cuda.Device().synchronize()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        torch.cuda.synchronize()
        cp.cuda.Device().synchronize()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3, r


def main():
    for shape, dtype in SHAPES:
        a = torch.randn(*shape, device="cuda", dtype=dtype)
        out = [f"{str(shape):16s} {str(dtype)[6:]:8s}"]
        for driver in ("gesvd", "gesvdj", "gesvda"):
            ms, (u, s, vh) = best_ms(lambda: torch.linalg.svd(a, full_matrices=False, driver=driver))
            err = (torch.linalg.norm(u @ torch.diag_embed(s).to(u.dtype) @ vh - a)
                   / torch.linalg.norm(a)).item()
            out.append(f"{driver} {ms:.2f} ms err {err:.1e}")
        out.append(f"svdvals {best_ms(lambda: torch.linalg.svdvals(a))[0]:.2f}")
        ca = cp.asarray(a.cpu().numpy())
        out.append(f"cupy svd {best_ms(lambda: cp.linalg.svd(ca, full_matrices=False))[0]:.2f}")
        if len(shape) == 2 and shape[0] == 512:
            out.append(f"cupy pinv {best_ms(lambda: cp.linalg.pinv(ca))[0]:.2f}")
            out.append(f"torch pinv {best_ms(lambda: torch.linalg.pinv(a))[0]:.2f}")
        print(" | ".join(out), flush=True)


if __name__ == "__main__":
    main()
