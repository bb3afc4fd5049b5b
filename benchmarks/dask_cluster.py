"""Dask on one and several GPUs: gpuarr chunks against CuPy chunks on a dask-cuda cluster.

    python -m benchmarks.dask_cluster [--libs gpuarr,cupy] [--workers 1,2] [--json PATH]

For each cluster size (a ``LocalCUDACluster`` of one worker per GPU, TCP comms, so that
chunks move between workers through host memory with each library's ``dask`` serializer)
and each library (selected as Dask's array backend), three workloads, each timed from
submission until every result chunk is in worker memory (``persist`` + ``wait``), the inputs
already persisted:

- ``matmul``: a 16384^2 float32 matmul in 4096^2 chunks, result persisted on the workers;
- ``standardize``: ``((x - x.mean(0)) / x.std(0)).sum()`` over 2^30 float32 (32768^2 in
  4096 x 32768 row blocks), the scalar brought to the client;
- ``gram``: ``y.T @ y`` of a 32768 x 8192 float32 array stored in row blocks and rechunked
  to 1024-wide column blocks first (every element moves; task-based rechunk, as distributed's
  P2P rechunk takes host buffers only), result persisted.

A task is done when its function returns, before its kernels have run: each timing ends
with every worker's device synchronised.

Each figure is the median of ``--repeat`` runs after one warm-up run (JIT compiles, cuBLAS
handles, plans). Dask, distributed and dask-cuda are needed (``pip install gpuarr[dask]
dask-cuda``); this module is not one of ``python -m benchmarks``' groups because it starts
clusters of several processes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

WORKLOADS = ("matmul", "standardize", "gram")


def _inputs(da, name):
    rng = da.random.default_rng(0)
    if name == "matmul":
        x = rng.random((16384, 16384), dtype="float32", chunks=4096)
        y = rng.random((16384, 16384), dtype="float32", chunks=4096)
        return (x, y)
    if name == "standardize":
        return (rng.random((32768, 32768), dtype="float32", chunks=(4096, 32768)),)
    return (rng.random((32768, 8192), dtype="float32", chunks=(4096, 8192)),)


def _workload(name, inputs):
    if name == "matmul":
        x, y = inputs
        return x @ y
    if name == "standardize":
        (x,) = inputs
        return ((x - x.mean(axis=0)) / x.std(axis=0)).sum()
    (x,) = inputs
    y = x.rechunk((32768, 1024))
    return y.T @ y


def _check(lib, name, result, inputs, client):
    """A cheap correctness check of one result against NumPy on a corner of the inputs."""
    import numpy as np

    def host(a):
        a = client.compute(a).result()
        return a.get() if hasattr(a, "get") else np.asarray(a)

    if name == "matmul":
        x, y = inputs
        got = host(result[:64, :64])
        expected = host(x[:64, :]).astype(np.float64) @ host(y[:, :64]).astype(np.float64)
        np.testing.assert_allclose(got, expected, rtol=1e-3, err_msg=f"{lib} {name}")
    elif name == "standardize":
        got = float(host(result))
        # Standardized columns sum to zero up to rounding: |sum| << n.
        assert abs(got) < 1e-3 * 2**30, (lib, name, got)
    else:
        (x,) = inputs
        got = host(result[:8, :8])
        xs = host(x[:, :8]).astype(np.float64)
        np.testing.assert_allclose(got, xs.T @ xs, rtol=1e-3, err_msg=f"{lib} {name}")


def _register_gpuarr():
    # The dask serializers on every worker before gpuarr chunks travel.
    import gpuarr.dask  # noqa: F401
    return True


def _same(block):
    return block


def _synchronize(lib):
    # A task is done when its function returns, which is before its kernels finish: each
    # timing ends with every worker's device idle.
    if lib == "gpuarr":
        import gpuarr
        gpuarr.cuda.Device().synchronize()
    else:
        import cupy
        cupy.cuda.runtime.deviceSynchronize()
    return True


def _time(client, wait, lib, name, inputs, repeat):
    # The same graph twice has the same keys, and the scheduler would hand back the result
    # still in memory: each run reads the inputs through aliases of its own (one task per
    # chunk that returns the chunk), so every key downstream is new. (dask's
    # graph_manipulation.clone loses the inputs of a rechunk.)
    samples = []
    for i in range(repeat + 1):
        aliases = tuple(a.map_blocks(_same, dtype=a.dtype, meta=a._meta,
                                     name=f"run-{i}-{a.name}") for a in inputs)
        t0 = time.perf_counter()
        r = _workload(name, aliases)
        if name == "standardize":
            r = client.compute(r)
            r.result()
        else:
            r = r.persist()
            wait(r)
        client.run(_synchronize, lib)
        t = time.perf_counter() - t0
        del r
        if i:
            samples.append(t)
    return statistics.median(samples), samples


def run(libs, worker_counts, repeat):
    import dask
    import dask.array as da
    from dask_cuda import LocalCUDACluster
    from distributed import Client, wait

    rows = []
    for n in worker_counts:
        devices = ",".join(str(i) for i in range(n))
        with LocalCUDACluster(n_workers=n, CUDA_VISIBLE_DEVICES=devices, protocol="tcp",
                              threads_per_worker=1, silence_logs=40) as cluster, \
                Client(cluster) as client:
            for lib in libs:
                if lib == "gpuarr":
                    client.run(_register_gpuarr)
                    _register_gpuarr()
                for name in WORKLOADS:
                    # Distributed's P2P rechunk (Dask's choice for large rechunks) sends
                    # shards as host buffers: device chunks rechunk through tasks.
                    with dask.config.set({"array.backend": lib,
                                          "array.rechunk.method": "tasks"}):
                        inputs = client.persist(_inputs(da, name))
                        wait(inputs)
                        client.run(_synchronize, lib)
                        median, samples = _time(client, wait, lib, name, inputs, repeat)
                        _check(lib, name, _workload(name, inputs), inputs, client)
                    rows.append({"workers": n, "lib": lib, "workload": name,
                                 "seconds": median, "samples": samples})
                    print(f"{n} GPU(s) {lib:7s} {name:12s} {median * 1e3:9.1f} ms", flush=True)
                    client.cancel(inputs)
                    del inputs
                client.run(lambda: __import__("gc").collect())
    return rows


def table(rows):
    """Markdown: one row per workload, gpuarr and CuPy per cluster size, the ratios."""
    by = {(r["workers"], r["lib"], r["workload"]): r["seconds"] for r in rows}
    counts = sorted({r["workers"] for r in rows})
    libs = [lib for lib in ("gpuarr", "cupy") if any(r["lib"] == lib for r in rows)]
    head = ["workload"] + [f"{lib} {n} GPU" for n in counts for lib in libs]
    if "cupy" in libs and "gpuarr" in libs:
        head += [f"gpuarr/CuPy {n} GPU" for n in counts]
    if len(counts) > 1:
        head += [f"{lib} {counts[-1]}/{counts[0]} GPU" for lib in libs]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for w in WORKLOADS:
        cells = [w]
        cells += [f"{by[(n, lib, w)] * 1e3:.0f} ms" if (n, lib, w) in by else "-"
                  for n in counts for lib in libs]
        if "cupy" in libs and "gpuarr" in libs:
            cells += [f"{by[(n, 'gpuarr', w)] / by[(n, 'cupy', w)]:.2f}"
                      if (n, "gpuarr", w) in by and (n, "cupy", w) in by else "-" for n in counts]
        if len(counts) > 1:
            cells += [f"{by[(counts[-1], lib, w)] / by[(counts[0], lib, w)]:.2f}"
                      if (counts[-1], lib, w) in by and (counts[0], lib, w) in by else "-"
                      for lib in libs]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--libs", default="gpuarr,cupy")
    p.add_argument("--workers", default="1,2")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--json", help="write every sample and the versions here")
    args = p.parse_args(argv)
    libs = args.libs.split(",")
    rows = run(libs, [int(n) for n in args.workers.split(",")], args.repeat)
    print(table(rows))
    if args.json:
        import dask
        import distributed
        import dask_cuda
        versions = {"python": platform.python_version(), "dask": dask.__version__,
                    "distributed": distributed.__version__, "dask_cuda": dask_cuda.__version__}
        for lib in libs:
            versions[lib] = __import__(lib).__version__
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "versions": versions,
                       "visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES")}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
