"""What the first det of
a process spends, in child processes: the default route, the cuSOLVER route
(GPUARR_LU_ROUTE=cusolver), after a first matmul 512 (cuBLAS GEMM kernels loaded), after a
first solve 64, and with CUDA_MODULE_LOADING=EAGER. On the H100 the
blocked LU's cuBLAS GEMM + trsm cost ~85 ms on first use, which is why n <= 512 runs one
kernel (docs/decisions.md).

    python -m tools.probes.probe_first_det
"""
import os
import subprocess
import sys

CHILD = r'''
import time, sys
import numpy as np
import gpuarr as ga
pre = sys.argv[1]
a = ga.asarray(((np.random.default_rng(20).uniform(-1, 1, (512, 512)) + 512 * np.eye(512)) / 512).astype(np.float32))
ga.cuda.Device().synchronize()
if pre == "matmul":
    t0 = time.perf_counter(); (a @ a); ga.cuda.Device().synchronize(); print("  first matmul 512: %.1f ms" % ((time.perf_counter() - t0) * 1e3))
if pre == "trsm":
    t0 = time.perf_counter(); ga.linalg.solve(ga.eye(64, dtype=ga.float32), ga.ones((64, 64), dtype=ga.float32)); ga.cuda.Device().synchronize(); print("  first solve 64: %.1f ms" % ((time.perf_counter() - t0) * 1e3))
t0 = time.perf_counter(); d = float(ga.linalg.det(a)); t1 = time.perf_counter()
print("  first det: %.1f ms" % ((t1 - t0) * 1e3))
t0 = time.perf_counter(); d = float(ga.linalg.det(a)); t1 = time.perf_counter()
print("  second det: %.2f ms" % ((t1 - t0) * 1e3))
'''


def main():
    for env, pre in [({}, "none"), ({}, "none"), ({"GPUARR_LU_ROUTE": "cusolver"}, "none"), ({}, "matmul"), ({}, "trsm"), ({"CUDA_MODULE_LOADING": "EAGER"}, "none")]:
        e = dict(os.environ); e.update(env)
        print(env, pre, flush=True)
        out = subprocess.run([sys.executable, "-c", CHILD, pre], env=e, capture_output=True, text=True)
        print(out.stdout + out.stderr[-500:], flush=True)


if __name__ == "__main__":
    main()
