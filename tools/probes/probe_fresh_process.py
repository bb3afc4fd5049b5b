"""Where a fresh process's first gpuarr result spends its time (the `fresh_process` row:
import, CUDA context, first op, read back), in child processes: the stages timed inside the
child, the whole wall time seen by the parent, and the largest imports by
`python -X importtime`. Compares CuPy's import and first op when it is installed.

    python -m tools.probes.probe_fresh_process [runs]
"""
import os
import statistics
import subprocess
import sys
import time

CHILD = r'''
import time
t0 = time.perf_counter()
import numpy
t1 = time.perf_counter()
import gpuarr as ga
t2 = time.perf_counter()
x = ga.ones(1)
t3 = time.perf_counter()
y = x + x
v = y.item()
t4 = time.perf_counter()
assert v == 2.0
print("%.1f %.1f %.1f %.1f" % ((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t4 - t3) * 1e3))
'''

CUPY_CHILD = r'''
import time
t0 = time.perf_counter()
import numpy
t1 = time.perf_counter()
import cupy as cp
t2 = time.perf_counter()
x = cp.ones(1)
t3 = time.perf_counter()
v = (x + x).item()
t4 = time.perf_counter()
print("%.1f %.1f %.1f %.1f" % ((t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t4 - t3) * 1e3))
'''

STAGES = ("import numpy", "import lib", "ones(1): context + alloc", "x + x, item()")


def run(code, runs):
    walls, stages = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        walls.append((time.perf_counter() - t0) * 1e3)
        if p.returncode:
            print(p.stderr[-1500:])
            return None
        stages.append([float(v) for v in p.stdout.split()])
    return walls, stages


def report(name, result):
    walls, stages = result
    print(f"{name}: whole process {statistics.median(walls):.0f} ms (median of {len(walls)}; "
          f"runs {' '.join(f'{w:.0f}' for w in walls)})")
    for i, s in enumerate(STAGES):
        print(f"  {s:28s} {statistics.median(st[i] for st in stages):7.1f} ms")
    inside = statistics.median(sum(st) for st in stages)
    print(f"  {'interpreter start + exit':28s} {statistics.median(walls) - inside:7.1f} ms")


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    r = run(CHILD, runs)
    if r:
        report("gpuarr", r)
    try:
        import cupy  # noqa: F401
        r = run(CUPY_CHILD, runs)
        if r:
            report("cupy", r)
    except ImportError:
        pass
    p = subprocess.run([sys.executable, "-X", "importtime", "-c", "import gpuarr"],
                       capture_output=True, text=True, env=dict(os.environ))
    rows = []
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            parts = line.split("|")
            try:
                rows.append((int(parts[0].split(":")[1]), int(parts[1]), parts[2].rstrip()))
            except ValueError:
                continue
    print("largest self times of `import gpuarr` (us self, us cumulative, module):")
    for self_us, cum_us, name in sorted(rows, reverse=True)[:15]:
        print(f"  {self_us:8d} {cum_us:9d} {name}")


if __name__ == "__main__":
    main()
