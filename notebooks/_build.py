"""Writes the five notebooks of this folder from the cell lists below.

    python notebooks/_build.py            # rewrites notebooks/*.ipynb (outputs cleared)

The cells live here as Python strings so that a change reads as a normal diff; the .ipynb
files are generated (commit both). Executed outputs are added later by running the
notebooks on a GPU machine (see tests/test_notebooks.py and the README).
"""

import os
import sys
import textwrap

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = os.path.dirname(os.path.abspath(__file__))


def md(text):
    return new_markdown_cell(textwrap.dedent(text).strip("\n"))


def code(text):
    return new_code_cell(textwrap.dedent(text).strip("\n"))


# Shared first code cell: imports, a GPU check and a timing helper that syncs the device.
SETUP = code('''
    import time
    import numpy as np
    import gpuarr as ga

    assert ga.cuda.is_available(), "this notebook needs a CUDA GPU"
    print(ga.cuda.Device(), "- gpuarr", ga.__version__, "- NumPy", np.__version__)

    def sync():
        ga.cuda.Device().synchronize()

    def median_time(fn, repeat=5, warmup=1, device=True):
        """Median wall time of fn() in seconds; the device is synchronized around each run."""
        for _ in range(warmup):
            fn()
        if device:
            sync()
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            if device:
                sync()
            times.append(time.perf_counter() - t0)
        return float(np.median(times))
''')


# --------------------------------------------------------------------------- 01

NB01 = [
    md('''
    # 01 - Power iteration: host memory, device memory and the copies between them

    Port of seed 000. We estimate the dominant eigenvalue of a dense diagonalizable matrix
    with [power iteration](https://en.wikipedia.org/wiki/Power_iteration), once with NumPy on
    the CPU and once with gpuarr on the GPU, and learn along the way:

    - how data moves: `ga.asarray(h)` copies host to device, `ga.asnumpy(d)` copies back;
    - that gpuarr never converts a device array to NumPy behind your back;
    - why device-side random numbers differ from NumPy's even with the same seed;
    - that `ga.linalg.eigvals` gives a reference on the GPU;
    - how problem size decides whether the GPU pays off.

    The seed used a 4096 x 4096 matrix; we use 2048 so the CPU reference (`np.linalg.eigvals`)
    stays within a few seconds. Change `dim` to 4096 to see the gap widen.
    '''),
    SETUP,
    code('''
    import os, tempfile
    from dataclasses import dataclass

    @dataclass
    class PowerIterationConfig:
        dim: int = 2048                 # rows and columns of the square matrix
        dominance: float = 0.1          # gap between the top eigenvalue (1) and the others
        max_steps: int = 400            # upper bound on iterations
        check_frequency: int = 10       # checkpoint + residual every this many steps
        progress: bool = True           # print the residual at each checkpoint
        residual_threshold: float = 1e-10

    workdir = tempfile.mkdtemp(prefix="gpuarr-nb01-")   # checkpoints go here
    '''),
    md('''
    ## The matrix, made on the host

    We choose the eigenvalues ourselves: one eigenvalue equal to 1 and the rest drawn from
    `[0, 1 - dominance)`, then conjugate the diagonal matrix with a random invertible `P`.
    The dominant eigenvalue is therefore exactly 1.
    '''),
    code('''
    def generate_host(cfg=PowerIterationConfig()):
        np.random.seed(42)
        weak = np.random.random(cfg.dim - 1) * (1.0 - cfg.dominance)
        lam = np.random.permutation(np.concatenate(([1.0], weak)))
        P = np.random.random((cfg.dim, cfg.dim))
        D = np.diag(np.random.permutation(lam))
        return (P @ D) @ np.linalg.inv(P)

    A_host = generate_host()
    with np.printoptions(precision=4):
        print(A_host)
    '''),
    md('''
    ## Power iteration with NumPy

    Start from a vector of ones; every `check_frequency` steps compute the Rayleigh quotient,
    the residual `||A x - lam x||`, save a checkpoint to disk and stop early once the residual
    is small enough.
    '''),
    code('''
    def estimate_host(A, cfg=PowerIterationConfig()):
        x = np.ones(A.shape[0], dtype=np.float64)
        for i in range(0, cfg.max_steps, cfg.check_frequency):
            y = A @ x
            lam = (x @ y) / (x @ x)                 # Rayleigh quotient
            res = np.linalg.norm(y - lam * x)
            x = y / np.linalg.norm(y)
            if cfg.progress and i % 50 == 0:
                print(f"step {i}: residual = {res:.3e}")
            np.savetxt(os.path.join(workdir, f"host_{i}.txt"), x)
            if res < cfg.residual_threshold:
                break
            for _ in range(cfg.check_frequency - 1):
                y = A @ x
                x = y / np.linalg.norm(y)
        return (x.T @ (A @ x)) / (x.T @ x)

    lam_est_host = estimate_host(A_host).item()
    print(lam_est_host)
    '''),
    md('''
    ## The same loop on the GPU

    Only three things change: the matrix is copied to the device once with `ga.asarray`, the
    arrays are created with `ga.ones`, and the checkpoint is copied back with `ga.asnumpy`
    before NumPy writes it. `res` is a 0-d device array: formatting it in an f-string or
    comparing it with a float reads one number back from the device, nothing more.

    Had we written `A @ x` with the host matrix `A` and the device vector `x`, gpuarr would
    refuse to mix them silently (see the cell after this one).
    '''),
    code('''
    def estimate_device(A, cfg=PowerIterationConfig()):
        A_gpu = ga.asarray(A)        # host -> device if A is a NumPy array, no copy otherwise
        x = ga.ones(A_gpu.shape[0], dtype=np.float64)
        for i in range(0, cfg.max_steps, cfg.check_frequency):
            y = A_gpu @ x
            lam = (x @ y) / (x @ x)
            res = ga.linalg.norm(y - lam * x)
            x = y / ga.linalg.norm(y)
            if cfg.progress and i % 50 == 0:
                print(f"step {i}: residual = {res:.3e}")
            np.savetxt(os.path.join(workdir, f"device_{i}.txt"), ga.asnumpy(x))
            if res < cfg.residual_threshold:
                break
            for _ in range(cfg.check_frequency - 1):
                y = A_gpu @ x
                x = y / ga.linalg.norm(y)
        return ga.asnumpy((x.T @ (A_gpu @ x)) / (x.T @ x))

    lam_est_device = estimate_device(A_host).item()
    print(lam_est_device)
    '''),
    code('''
    # The two runs took the same path: compare every checkpoint they wrote.
    # (Both stop at the first residual below the threshold; compare the steps both wrote.)
    files = os.listdir(workdir)
    steps = sorted(int(f[5:-4]) for f in files if f.startswith("host_") and "device_" + f[5:] in files)
    assert len(steps) >= 10, steps
    for i in steps:
        h = np.loadtxt(os.path.join(workdir, f"host_{i}.txt"))
        d = np.loadtxt(os.path.join(workdir, f"device_{i}.txt"))
        np.testing.assert_allclose(d, h, rtol=1e-6, atol=1e-9)
    print(f"{len(steps)} checkpoints agree between host and device")

    # Mixing memory spaces is an error, not a hidden copy.
    try:
        np.asarray(ga.ones(3))
    except TypeError as e:
        print("TypeError:", e)
    else:
        raise AssertionError("implicit device -> host conversion should fail")
    '''),
    md('''
    ## Generating the matrix on the device

    `ga.random` runs a parallel generator (cuRAND) on the GPU. It is seeded the same way but is
    a different algorithm from NumPy's Mersenne Twister, so `ga.random.seed(42)` does **not**
    reproduce `np.random.seed(42)`: we get another matrix with the same construction, and the
    same dominant eigenvalue 1. Note that `ga.concatenate` wants device arrays (no implicit
    uploads), hence `ga.asarray([1.0])`.
    '''),
    code('''
    def generate_device(cfg=PowerIterationConfig()):
        ga.random.seed(42)
        weak = ga.random.random(cfg.dim - 1) * (1.0 - cfg.dominance)
        lam = ga.random.permutation(ga.concatenate((ga.asarray([1.0]), weak)))
        P = ga.random.random((cfg.dim, cfg.dim))
        D = ga.diag(ga.random.permutation(lam))
        return (P @ D) @ ga.linalg.inv(P)

    A_device = generate_device()
    with np.printoptions(precision=4):
        print("A_host:\\n", A_host[:2, :4])
        print("A_device:\\n", A_device[:2, :4])
    assert not np.allclose(ga.asnumpy(A_device[:4, :4]), A_host[:4, :4])

    lam_est_device_generation = estimate_device(A_device).item()
    print(lam_est_device_generation)
    np.testing.assert_allclose(lam_est_device_generation, 1.0, rtol=1e-6)
    '''),
    md('''
    ## Reference: all the eigenvalues

    `np.linalg.eigvals` on the CPU and `ga.linalg.eigvals` on the GPU (CuPy long lacked it;
    gpuarr has it). The largest real part is the dominant eigenvalue.
    '''),
    code('''
    lam_ref = np.linalg.eigvals(A_host).real.max()
    lam_ref_gpu = float(ga.linalg.eigvals(ga.asarray(A_host)).real.max())

    print(f"power iteration (host)   = {lam_est_host:.12f}")
    print(f"power iteration (device) = {lam_est_device:.12f}")
    print(f"np.linalg.eigvals        = {lam_ref:.12f}")
    print(f"ga.linalg.eigvals        = {lam_ref_gpu:.12f}")
    rel_err_host = abs(lam_est_host - lam_ref) / abs(lam_ref)
    rel_err_device = abs(lam_est_device - lam_ref) / abs(lam_ref)
    print(f"relative error host {rel_err_host:.2e}, device {rel_err_device:.2e}")

    np.testing.assert_allclose(lam_est_host, lam_ref, rtol=1e-6)
    np.testing.assert_allclose(lam_est_device, lam_ref, rtol=1e-6)
    np.testing.assert_allclose(lam_ref_gpu, lam_ref, rtol=1e-7)
    np.testing.assert_allclose(lam_est_device, lam_est_host, rtol=1e-9)
    '''),
    md('''
    ## Timings

    Device timings synchronize the GPU before stopping the clock. The device figure includes
    the 32 MiB upload of `A` and the checkpoints copied back every 10 steps.
    '''),
    code('''
    quiet = PowerIterationConfig(progress=False)
    t_host = median_time(lambda: estimate_host(A_host, quiet), repeat=1, warmup=0, device=False)
    t_dev = median_time(lambda: estimate_device(A_host, quiet), repeat=5)
    A_gpu = ga.asarray(A_host)
    t_dev_resident = median_time(lambda: estimate_device(A_gpu, quiet), repeat=5)
    t0 = time.perf_counter(); np.linalg.eigvals(A_host); t_ref = time.perf_counter() - t0
    t_ref_gpu = median_time(lambda: ga.linalg.eigvals(A_gpu), repeat=2)

    print(f"power iteration, NumPy                     {t_host * 1e3:9.1f} ms")
    print(f"power iteration, gpuarr (with upload)      {t_dev * 1e3:9.1f} ms")
    print(f"power iteration, gpuarr (A already there)  {t_dev_resident * 1e3:9.1f} ms")
    print(f"np.linalg.eigvals                          {t_ref * 1e3:9.1f} ms")
    print(f"ga.linalg.eigvals                          {t_ref_gpu * 1e3:9.1f} ms")
    '''),
    code('''
    import shutil
    shutil.rmtree(workdir)
    '''),
]


# --------------------------------------------------------------------------- 02

NB02 = [
    md('''
    # 02 - A first tour: NumPy vs gpuarr

    Port of seed 001. What carries over from NumPy unchanged, what the GPU changes
    (asynchronous execution, transfers, launch overhead), and the tools gpuarr gives for it:
    `fuse`, `profiler.benchmark`, streams and events.
    '''),
    SETUP,
    md('''
    ## Same code, different module

    A QR decomposition of a 512 x 512 matrix with NumPy and with gpuarr. GPU calls return as
    soon as the work is queued, so a timing must wait for the device (`sync()` above calls
    `ga.cuda.Device().synchronize()`); ordinary code does not need to.
    '''),
    code('''
    size = 512
    A_np = np.random.randn(size, size)
    A = ga.random.randn(size, size)
    Q, R = ga.linalg.qr(A)

    # Check the factorization itself: Q orthonormal, R upper triangular, Q R = A.
    Qh, Rh, Ah = ga.asnumpy(Q), ga.asnumpy(R), ga.asnumpy(A)
    np.testing.assert_allclose(Qh @ Rh, Ah, atol=1e-10)
    np.testing.assert_allclose(Qh.T @ Qh, np.eye(size), atol=1e-10)
    assert np.allclose(np.tril(Rh, -1), 0)

    print(f"np.linalg.qr  {median_time(lambda: np.linalg.qr(A_np), device=False) * 1e3:8.2f} ms")
    print(f"ga.linalg.qr  {median_time(lambda: ga.linalg.qr(A)) * 1e3:8.2f} ms")
    '''),
    md('''
    ## Host and device arrays

    `ga.asarray` copies a NumPy array to the GPU; `ga.asnumpy` (or `.get()`) copies back.
    '''),
    code('''
    A_cpu = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    A_gpu = ga.asarray(A_cpu)
    print(type(A_cpu).__name__, "->", type(A_gpu).__module__ + "." + type(A_gpu).__name__)
    A_gpu = ga.square(A_gpu)
    back = ga.asnumpy(A_gpu)
    print(back)
    np.testing.assert_array_equal(back, np.square(A_cpu))
    assert back.dtype == np.int32
    '''),
    md('''
    The two kinds of array are never converted into each other silently: asking NumPy for
    a host array from device memory is a `TypeError` that tells you what to call instead.
    Either stay on one side (`ga.square(A_gpu)` or `np.square(A_cpu)`) or copy explicitly.
    '''),
    code('''
    try:
        np.asarray(A_gpu)
    except TypeError as e:
        print("TypeError:", e)
    else:
        raise AssertionError("expected a TypeError")
    '''),
    md('''
    ## Matrix multiplication: where the GPU shines

    4096 x 4096 float32. The first gpuarr call is run before the clock starts only to keep
    the comparison fair with CuPy's habit; gpuarr has no first-call compilation (next section).
    '''),
    code('''
    size = 4096
    t0 = time.perf_counter()
    A_cpu = np.random.uniform(low=-1.0, high=1.0, size=(size, size)).astype(np.float32)
    B_cpu = np.random.uniform(low=-1.0, high=1.0, size=(size, size)).astype(np.float32)
    C_cpu = np.matmul(A_cpu, B_cpu)
    t_np = time.perf_counter() - t0

    A_gpu = ga.random.uniform(low=-1.0, high=1.0, size=(size, size)).astype(ga.float32)
    B_gpu = ga.random.uniform(low=-1.0, high=1.0, size=(size, size)).astype(ga.float32)
    t_ga = median_time(lambda: ga.matmul(A_gpu, B_gpu))
    C_gpu = ga.matmul(A_gpu, B_gpu)
    print(f"NumPy (random + matmul): {t_np:.3f} s   gpuarr matmul: {t_ga * 1e3:.2f} ms")

    # Check against NumPy on the same inputs (a few rows keep the host work small).
    ref = ga.asnumpy(A_gpu[:64]).astype(np.float64) @ ga.asnumpy(B_gpu).astype(np.float64)
    np.testing.assert_allclose(ga.asnumpy(C_gpu[:64]), ref, rtol=1e-4, atol=1e-3)
    del A_cpu, B_cpu, C_cpu, A_gpu, B_gpu, C_gpu
    '''),
    md('''
    ## First-call cost

    CuPy compiles many kernels the first time they are used (the seed saw 1.5 s for the first
    `det`). gpuarr's built-in kernels are compiled ahead of time, so the first call costs
    about what the others cost. The matrix is `I + 0.1 N / sqrt(n)` so that its determinant
    stays within float32 range.
    '''),
    code('''
    size = 512
    first_times = []
    for _ in range(5):
        A = ga.eye(size, dtype=ga.float32) + ga.random.randn(size, size).astype(ga.float32) * (0.1 / size**0.5)
        t0 = time.perf_counter()
        d = ga.linalg.det(A)
        sync()
        first_times.append(time.perf_counter() - t0)
        print(f"{first_times[-1] * 1e3:.3f} ms")
    np.testing.assert_allclose(float(d), np.linalg.det(ga.asnumpy(A).astype(np.float64)), rtol=1e-3)
    '''),
    md('''
    ## Launch overhead against problem size

    Every GPU call costs a few microseconds of host work and a kernel launch. For small
    problems that dominates, for large ones it vanishes: QR over sizes 64 to 2048.
    '''),
    code('''
    rows = []
    for size in [64, 128, 256, 512, 1024, 2048]:
        A_h = np.random.uniform(-1.0, 1.0, (size, size)).astype(np.float32)
        A_d = ga.asarray(A_h)
        t_np = median_time(lambda: np.linalg.qr(A_h), repeat=3, device=False)
        t_ga = median_time(lambda: ga.linalg.qr(A_d), repeat=3)
        rows.append((size, t_np, t_ga))
    print(f"{'size':>6} {'NumPy ms':>10} {'gpuarr ms':>10} {'speedup':>8}")
    for size, t_np, t_ga in rows:
        print(f"{size:>6} {t_np * 1e3:10.3f} {t_ga * 1e3:10.3f} {t_np / t_ga:8.1f}")
    '''),
    md('''
    ## Kernel fusion

    `(x - y) * (x - y)` is three kernels and two temporaries when run op by op. `@ga.fuse`
    traces the function once per argument types and generates a single kernel.
    `ga.profiler.benchmark` reports CPU time (host cost per call) and GPU time (CUDA events).
    '''),
    code('''
    def squared_diff(x, y):
        return (x - y) * (x - y)

    @ga.fuse
    def fused_squared_diff(x, y):
        return (x - y) * (x - y)

    size = 10000
    x = ga.arange(size)
    y = ga.arange(size)[::-1]
    expected = squared_diff(np.arange(size), np.arange(size)[::-1])
    np.testing.assert_array_equal(ga.asnumpy(squared_diff(x, y)), expected)
    np.testing.assert_array_equal(ga.asnumpy(fused_squared_diff(x, y)), expected)

    print(ga.profiler.benchmark(squared_diff, (x, y), n_repeat=1000))
    print(ga.profiler.benchmark(fused_squared_diff, (x, y), n_repeat=1000))
    del x, y
    '''),
    md('''
    ## The cost of moving data

    A dot product of two long float32 vectors: generated on the device, it takes well under
    a millisecond; generated on the host and copied over, the copy dominates.
    '''),
    code('''
    size = int(5e7)
    A_cpu = np.random.rand(size).astype(np.float32)
    B_cpu = np.random.rand(size).astype(np.float32)
    ref = np.dot(A_cpu.astype(np.float64), B_cpu.astype(np.float64))

    t_np = median_time(lambda: np.dot(A_cpu, B_cpu), repeat=3, device=False)

    A_dev, B_dev = ga.asarray(A_cpu), ga.asarray(B_cpu)
    t_dev = median_time(lambda: ga.dot(A_dev, B_dev), repeat=5)

    def with_transfer():
        return ga.dot(ga.asarray(A_cpu), ga.asarray(B_cpu))
    t_transfer = median_time(with_transfer, repeat=3)

    np.testing.assert_allclose(float(ga.dot(A_dev, B_dev)), ref, rtol=1e-4)
    np.testing.assert_allclose(float(with_transfer()), ref, rtol=1e-4)
    print(f"NumPy dot                  {t_np * 1e3:8.2f} ms")
    print(f"gpuarr dot, data on device {t_dev * 1e3:8.2f} ms  ({t_np / t_dev:.0f}x)")
    print(f"gpuarr dot, with 2 uploads {t_transfer * 1e3:8.2f} ms  ({t_np / t_transfer:.1f}x)")
    del A_cpu, B_cpu, A_dev, B_dev
    '''),
    md('''
    ## Streams and events

    Work is queued on the *current stream*; by default that is the null (legacy default)
    stream. With `with stream:` operations go to another stream, and independent streams may
    run concurrently. An `Event` recorded on a stream completes when the work queued before it
    does; `ga.cuda.get_elapsed_time(e1, e2)` gives the GPU time between two events.
    '''),
    code('''
    print(ga.cuda.get_current_stream())
    size = 6000
    # Diagonally dominant, so the inverse is well conditioned and easy to check.
    A_gpu = ga.random.rand(size, size).astype(ga.float32) + size * ga.eye(size, dtype=ga.float32)
    I = ga.eye(size, dtype=ga.float32)

    ga.linalg.inv(A_gpu); sync()   # warm-up (cuSOLVER workspace)
    t0 = time.perf_counter()
    C1 = ga.linalg.inv(A_gpu)
    C2 = ga.linalg.inv(A_gpu)
    ga.cuda.Stream.null.synchronize()
    t_seq = time.perf_counter() - t0
    print(f"two inv on one stream:  {t_seq * 1e3:.1f} ms")
    del C1, C2
    '''),
    code('''
    stream1, stream2 = ga.cuda.Stream(), ga.cuda.Stream()
    start1, event1 = ga.cuda.Event(), ga.cuda.Event()
    start2, event2 = ga.cuda.Event(), ga.cuda.Event()

    t0 = time.perf_counter()
    with stream1:
        start1.record(stream1)
        C1 = ga.linalg.inv(A_gpu)
        event1.record(stream1)
    with stream2:
        start2.record(stream2)
        C2 = ga.linalg.inv(A_gpu)
        event2.record(stream2)
    event1.synchronize()
    event2.synchronize()
    t_streams = time.perf_counter() - t0
    print(f"two inv on two streams: {t_streams * 1e3:.1f} ms "
          f"(GPU time per stream: {ga.cuda.get_elapsed_time(start1, event1):.1f} and "
          f"{ga.cuda.get_elapsed_time(start2, event2):.1f} ms)")

    for C in (C1, C2):
        err = float(ga.linalg.norm(A_gpu @ C - I)) / size**0.5
        assert err < 1e-4, err
    np.testing.assert_allclose(ga.asnumpy(C1[:100]), ga.asnumpy(C2[:100]), rtol=1e-5, atol=1e-9)
    del C1, C2, A_gpu, I
    '''),
    md('''
    ## What to remember

    1. gpuarr follows NumPy's names and semantics: most code ports by changing `np` to `ga`.
    2. Large, dense work (matmul, factorizations) gains the most.
    3. Launch overhead and host-device copies are the two costs to watch; keep data on the
       device, and fuse chains of small elementwise operations.
    4. Execution is asynchronous: synchronize (or read a result back) before stopping a clock.
    5. Streams and events give control over ordering and concurrency.
    '''),
]


# --------------------------------------------------------------------------- 03

NB03 = [
    md('''
    # 03 - Distance matrices on the GPU, in float32 and float16

    Port of seed 002. A few array basics, then the pairwise Euclidean distances between two
    sets of 10000 28x28 images via `|q|^2 - 2 q.p + |p|^2`, with `einsum` and one matrix
    product; then two ways to keep the memory footprint down: lower precision and chunking.

    The seed used MNIST; to need no download we make digit-like images here (ten stroke
    templates, shifted, scaled and noised), save them as `.npy` files in a temporary folder
    and load them from there, with NumPy and with `ga.load`.
    '''),
    SETUP,
    code('''
    print(ga.arange(4).reshape(2, 2))
    print(ga.zeros((3, 3)).astype(ga.float32))
    h = ga.ones((3, 3)).astype(ga.float16)
    print(h, h.dtype)
    assert h.dtype == np.float16
    '''),
    md('''
    ## Making a data set

    Each "digit" is a template drawn from a few line segments and arcs on a 28x28 grid; each
    image is a template moved by up to 3 pixels, scaled in brightness, plus noise, clipped to
    `[0, 1]` like normalized MNIST pixels.
    '''),
    code('''
    import os, tempfile

    def make_templates(rng):
        yy, xx = np.mgrid[0:28, 0:28]
        templates = []
        for _ in range(10):
            img = np.zeros((28, 28))
            for _ in range(rng.integers(2, 5)):
                # a thick segment between two random points
                (y0, x0), (y1, x1) = rng.uniform(6, 22, (2, 2))
                t = np.clip(((yy - y0) * (y1 - y0) + (xx - x0) * (x1 - x0))
                            / max((y1 - y0)**2 + (x1 - x0)**2, 1e-9), 0, 1)
                d2 = (yy - y0 - t * (y1 - y0))**2 + (xx - x0 - t * (x1 - x0))**2
                img = np.maximum(img, np.exp(-d2 / 2.0))
            templates.append(img)
        return np.stack(templates)

    def make_digits(n, rng, templates):
        labels = rng.integers(0, 10, n)
        shifts = rng.integers(-3, 4, (n, 2))
        out = np.empty((n, 28, 28))
        for i in range(n):
            out[i] = np.roll(templates[labels[i]], tuple(shifts[i]), axis=(0, 1))
        out *= rng.uniform(0.7, 1.0, (n, 1, 1))
        out += rng.normal(0.0, 0.1, out.shape)
        return np.clip(out, 0.0, 1.0).reshape(n, 784).astype(np.float32)

    size = 10000
    rng = np.random.default_rng(2)
    templates = make_templates(rng)
    datadir = tempfile.mkdtemp(prefix="gpuarr-nb03-")
    np.save(os.path.join(datadir, f"digits1_{size}.npy"), make_digits(size, rng, templates))
    np.save(os.path.join(datadir, f"digits2_{size}.npy"), make_digits(size, rng, templates))
    print(sorted(os.listdir(datadir)))
    '''),
    code('''
    import matplotlib.pyplot as plt
    sample = np.load(os.path.join(datadir, f"digits1_{size}.npy"), mmap_mode="r")[:8]
    fig, axes = plt.subplots(1, 8, figsize=(6, 1), dpi=72)
    for ax, img in zip(axes, sample):
        ax.imshow(img.reshape(28, 28), cmap="gray")
        ax.axis("off")
    plt.show()
    '''),
    md('''
    ## NumPy, float32
    '''),
    code('''
    p = np.load(os.path.join(datadir, f"digits1_{size}.npy")).astype(np.float32)
    q = np.load(os.path.join(datadir, f"digits2_{size}.npy")).astype(np.float32)
    assert p.shape == q.shape == (size, 784)

    def distances(xp, p, q):
        return xp.sqrt(xp.einsum('ij,ij->i', q, q)[:, xp.newaxis] - 2 * q @ p.T
                       + xp.einsum('ij,ij->i', p, p))

    t0 = time.perf_counter()
    dist_np = distances(np, p, q)
    t_np = time.perf_counter() - t0
    print(f"NumPy: {t_np:.3f} s for {size}x{size}")
    print(dist_np[0, :5])
    assert np.isfinite(dist_np).all()
    '''),
    md('''
    ## gpuarr, float32 and float16

    `ga.load` reads the `.npy` file straight into device memory. The function `distances` is
    the same code, called with the module `ga` instead of `np`.
    '''),
    code('''
    p32 = ga.load(os.path.join(datadir, f"digits1_{size}.npy"))
    q32 = ga.load(os.path.join(datadir, f"digits2_{size}.npy"))
    assert isinstance(p32, ga.ndarray) and p32.dtype == np.float32
    dist32 = distances(ga, p32, q32)
    t32 = median_time(lambda: distances(ga, p32, q32))
    print(f"gpuarr float32: {t32 * 1e3:.2f} ms ({t_np / t32:.0f}x NumPy)")
    print(dist32[0, :5])
    np.testing.assert_allclose(ga.asnumpy(dist32), dist_np, rtol=1e-4, atol=2e-3)
    '''),
    code('''
    p16, q16 = p32.astype(ga.float16), q32.astype(ga.float16)
    dist16 = distances(ga, p16, q16)
    t16 = median_time(lambda: distances(ga, p16, q16))
    print(f"gpuarr float16: {t16 * 1e3:.2f} ms, half the memory of float32")
    print(dist16[0, :5])
    assert dist16.dtype == np.float16

    # float16 has 11 significant bits: compare with NumPy on the same rounded inputs.
    ref16 = distances(np, ga.asnumpy(p16).astype(np.float32), ga.asnumpy(q16).astype(np.float32))
    err = np.abs(ga.asnumpy(dist16).astype(np.float32) - ref16)
    print(f"float16 error: median {np.median(err):.4f}, max {err.max():.4f}")
    assert np.isfinite(err).all() and np.median(err) < 0.05 and err.max() < 0.5
    '''),
    md('''
    ## Chunking with `split`

    GPU memory is smaller than host memory. A 10000x10000 float32 result is 400 MB; when
    it does not fit, compute it in row blocks. `split` cuts an array into equal parts
    (views, no copies):
    '''),
    code('''
    x = ga.arange(36).reshape(9, 4)
    parts = ga.split(x, 3)
    for part in parts:
        print(part)
    for a, b in zip(parts, np.split(np.arange(36).reshape(9, 4), 3)):
        np.testing.assert_array_equal(ga.asnumpy(a), b)
    '''),
    code('''
    def distances_chunked(p, q, n_chunks):
        pp = ga.einsum('ij,ij->i', p, p)
        out = ga.empty((q.shape[0], p.shape[0]), dtype=p.dtype)
        row = 0
        for qc in ga.split(q, n_chunks):
            qq = ga.einsum('ij,ij->i', qc, qc)[:, ga.newaxis]
            out[row:row + qc.shape[0]] = ga.sqrt(qq - 2 * qc @ p.T + pp)
            row += qc.shape[0]
        return out

    dist_chunked = distances_chunked(p32, q32, 10)
    np.testing.assert_allclose(ga.asnumpy(dist_chunked), ga.asnumpy(dist32), rtol=1e-5, atol=1e-4)
    print(f"chunked, 10 blocks: {median_time(lambda: distances_chunked(p32, q32, 10)) * 1e3:.2f} ms")
    del dist32, dist16, dist_chunked
    '''),
    md('''
    ## A quadratic form, step by step

    `x^T Q x + c^T x` computed at once, and in pieces that free each operand as soon as it is
    no longer needed.
    '''),
    code('''
    rng = np.random.default_rng(0)
    x_h, Q_h, c_h = rng.random(20), rng.random((20, 20)), np.arange(20)
    expected = x_h @ Q_h @ x_h + c_h @ x_h

    x, Q, c = ga.asarray(x_h), ga.asarray(Q_h), ga.asarray(c_h)
    whole = x @ Q @ x + c @ x

    result = x @ Q
    del Q
    result = result @ x
    result += c @ x
    del c, x
    print(float(whole), float(result), expected)
    np.testing.assert_allclose(float(whole), expected, rtol=1e-12)
    np.testing.assert_allclose(float(result), expected, rtol=1e-12)
    '''),
    code('''
    import shutil
    shutil.rmtree(datadir)
    '''),
]


# --------------------------------------------------------------------------- 04

NB04 = [
    md('''
    # 04 - 2-D convolution: SciPy on the CPU, gpuarr on the GPU

    Port of seed 003. We blur an image of isolated points with a Gaussian, first with
    `scipy.signal.convolve2d`, then with `gpuarr.signal.convolve2d`, compare results and
    timings (with and without the copies), and see NumPy functions run on device arrays.
    '''),
    SETUP,
    code('''
    import matplotlib.pyplot as plt

    primary_unit = np.zeros((16, 16))
    primary_unit[8, 8] = 1
    deltas = np.tile(primary_unit, (128, 128))
    print(deltas.shape)

    fig, ax = plt.subplots(figsize=(2.5, 2.5), dpi=72)
    ax.imshow(deltas[:32, :32])
    ax.set_title("top-left corner")
    plt.show()
    '''),
    md('''
    ## The Gaussian

    $G(x, y) \\propto e^{-(x^2 + y^2) / (2\\sigma^2)}$ sampled on a 15x15 grid over
    $[-2, 2]^2$. Convolving with it replaces each pixel by a weighted mean of its neighbours.
    '''),
    code('''
    x, y = np.meshgrid(np.linspace(-2, 2, 15), np.linspace(-2, 2, 15))
    dst = np.sqrt(x * x + y * y)
    sigma, muu = 1.0, 0.0
    gauss = np.exp(-((dst - muu) ** 2 / (2.0 * sigma ** 2)))

    fig, ax = plt.subplots(figsize=(2.5, 2.5), dpi=72)
    ax.imshow(gauss)
    plt.show()
    '''),
    md('''
    The same two arrays can be built directly on the device with the same functions:
    '''),
    code('''
    unit_gpu = ga.zeros((16, 16))
    unit_gpu[8, 8] = 1
    deltas_built_on_gpu = ga.tile(unit_gpu, (128, 128))
    xg, yg = ga.meshgrid(ga.linspace(-2, 2, 15), ga.linspace(-2, 2, 15))
    gauss_built_on_gpu = ga.exp(-(ga.sqrt(xg * xg + yg * yg) ** 2 / 2.0))
    np.testing.assert_array_equal(ga.asnumpy(deltas_built_on_gpu), deltas)
    np.testing.assert_allclose(ga.asnumpy(gauss_built_on_gpu), gauss, rtol=1e-14)
    '''),
    md('''
    ## SciPy on the CPU
    '''),
    code('''
    from scipy.signal import convolve2d as convolve2d_cpu

    t0 = time.perf_counter()
    convolved_image_using_CPU = convolve2d_cpu(deltas, gauss)
    t_cpu = time.perf_counter() - t0
    print(f"SciPy convolve2d: {t_cpu:.2f} s, output {convolved_image_using_CPU.shape}")

    fig, ax = plt.subplots(figsize=(2.5, 2.5), dpi=72)
    ax.imshow(convolved_image_using_CPU[:32, :32])
    plt.show()
    '''),
    md('''
    ## gpuarr on the GPU

    The inputs are copied to the device first; the call has the same form as SciPy's.
    '''),
    code('''
    from gpuarr.signal import convolve2d as convolve2d_gpu

    deltas_gpu = ga.asarray(deltas)
    gauss_gpu = ga.asarray(gauss)
    convolved_image_using_GPU = convolve2d_gpu(deltas_gpu, gauss_gpu)
    t_gpu = median_time(lambda: convolve2d_gpu(deltas_gpu, gauss_gpu), repeat=20)
    print(f"gpuarr convolve2d: {t_gpu * 1e3:.3f} ms, {t_cpu / t_gpu:.0f}x SciPy")
    np.testing.assert_allclose(ga.asnumpy(convolved_image_using_GPU), convolved_image_using_CPU,
                               rtol=1e-12, atol=1e-12)
    '''),
    md('''
    ### Shortcut attempt: NumPy arrays straight into the GPU function

    NumPy arrays live in host memory, which the kernels cannot read. gpuarr refuses instead of
    copying behind your back:
    '''),
    code('''
    try:
        convolve2d_gpu(deltas, gauss)
    except TypeError as e:
        print("TypeError:", e)
    else:
        raise AssertionError("expected a TypeError for NumPy inputs")
    '''),
    md('''
    ## Comparing the results across memory spaces

    `np.allclose` with one device and one host argument dispatches to gpuarr (through
    `__array_function__`), which moves the host operand to the device and returns a device
    boolean.
    '''),
    code('''
    same = np.allclose(convolved_image_using_GPU, convolved_image_using_CPU)
    print(repr(same))
    assert isinstance(same, ga.ndarray) and bool(same)
    '''),
    md('''
    ## A fairer comparison: include the copies

    Upload both inputs, convolve, download the 16 MB result.
    '''),
    code('''
    def transfer_compute_transferback():
        d = ga.asarray(deltas)
        g = ga.asarray(gauss)
        return ga.asnumpy(convolve2d_gpu(d, g))

    np.testing.assert_allclose(transfer_compute_transferback(), convolved_image_using_CPU,
                               rtol=1e-12, atol=1e-12)
    t_round = median_time(transfer_compute_transferback, repeat=10)
    print(f"with transfers: {t_round * 1e3:.2f} ms, {t_cpu / t_round:.0f}x SciPy "
          f"(compute only: {t_cpu / t_gpu:.0f}x)")
    '''),
    md('''
    ## A bigger image

    8192 x 8192 (512 MB in float64). The deltas are 16 pixels apart and the kernel is 15
    wide, so the blurred spots never overlap; the top-left 512x512 corner of the output only
    depends on the top-left 512x512 corner of the input, which SciPy can check quickly.
    '''),
    code('''
    tiles = 512                                       # 512 tiles of 16 pixels: 8192
    big_gpu = ga.tile(ga.asarray(primary_unit), (tiles, tiles))
    big_out = convolve2d_gpu(big_gpu, gauss_gpu)
    assert big_out.shape == (16 * tiles + 14, 16 * tiles + 14)
    t_big = median_time(lambda: convolve2d_gpu(big_gpu, gauss_gpu), repeat=5)
    print(f"gpuarr convolve2d {16 * tiles}^2 by 15^2: {t_big * 1e3:.2f} ms")
    corner = convolve2d_cpu(deltas[:512, :512], gauss)[:512, :512]
    np.testing.assert_allclose(ga.asnumpy(big_out[:512, :512]), corner, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(float(big_out.sum()), tiles * tiles * gauss.sum(), rtol=1e-9)
    del big_gpu, big_out
    '''),
    md('''
    ## NumPy functions on device arrays

    SciPy routines convert their inputs with `np.asarray`, which a device array refuses (no
    implicit download):
    '''),
    code('''
    try:
        convolve2d_cpu(deltas_gpu, gauss_gpu)
    except TypeError as e:
        print("TypeError:", e)
    else:
        raise AssertionError("expected a TypeError")
    '''),
    md('''
    NumPy's own functions are different: they check their arguments for
    `__array_function__`, and gpuarr implements it, so `np.convolve` on device arrays runs
    gpuarr's convolution on the GPU and returns a device array. We flatten the image to 1-D
    with `ravel` and take the Gaussian's diagonal as a 1-D kernel.
    '''),
    code('''
    deltas_1d = deltas.ravel()
    gauss_1d = gauss.diagonal()
    out_cpu = np.convolve(deltas_1d, gauss_1d)
    t_np1d = median_time(lambda: np.convolve(deltas_1d, gauss_1d), repeat=3, device=False)

    deltas_1d_gpu = ga.asarray(deltas_1d)
    gauss_1d_gpu = ga.asarray(gauss_1d)
    out_gpu = np.convolve(deltas_1d_gpu, gauss_1d_gpu)
    assert isinstance(out_gpu, ga.ndarray), type(out_gpu)
    np.testing.assert_allclose(ga.asnumpy(out_gpu), out_cpu, rtol=1e-12, atol=1e-12)
    t_ga1d = median_time(lambda: np.convolve(deltas_1d_gpu, gauss_1d_gpu), repeat=20)
    print(f"np.convolve, NumPy arrays: {t_np1d * 1e3:.2f} ms; device arrays: "
          f"{t_ga1d * 1e3:.3f} ms ({t_np1d / t_ga1d:.0f}x)")
    '''),
]


# --------------------------------------------------------------------------- 05

NB05 = [
    md('''
    # 05 - Fast batched eigenvalues for a PyTorch model

    Port of seed 004. PyTorch's batched `eigvalsh` on CUDA is slow for matrices above about
    32x32. gpuarr's is fast, and DLPack lets both libraries share the same GPU memory without
    copies. We check the exchange, derive the gradient of the k-th eigenvalue, wrap it in a
    `torch.autograd.Function` (and compare with the ready-made `gpuarr.torch.kth_eigvalh`),
    then train the seed's `MultivariateSpectral` model on a synthetic regression problem.

    Needs PyTorch with CUDA, which the `notebooks` extra does not install:
    `pip install "gpuarr[notebooks,torch]"`.
    '''),
    SETUP,
    code('''
    import math
    import torch
    from torch import nn
    import gpuarr.torch  # noqa: F401  (the PyTorch helpers; importing it needs torch)

    assert torch.cuda.is_available()
    torch.manual_seed(0)
    print("PyTorch", torch.__version__)
    '''),
    md('''
    ## Warm-up: 500 symmetric 100x100 matrices

    `eigvalsh` reads only one triangle (the lower one by default), so any square matrix will
    do. NumPy on the CPU, PyTorch on the GPU, and gpuarr on the same GPU tensor.
    '''),
    code('''
    mats = torch.randn(500, 100, 100, device="cuda")
    w_torch = torch.linalg.eigvalsh(mats); torch.cuda.synchronize()   # warm-up

    t0 = time.perf_counter(); w_np = np.linalg.eigvalsh(mats.cpu().numpy()); t_np = time.perf_counter() - t0
    t0 = time.perf_counter(); w_torch = torch.linalg.eigvalsh(mats); torch.cuda.synchronize()
    t_torch = time.perf_counter() - t0

    mats_ga = ga.from_dlpack(mats)           # zero-copy view of the PyTorch tensor
    w_ga = ga.linalg.eigvalsh(mats_ga)
    t_ga = median_time(lambda: ga.linalg.eigvalsh(mats_ga), repeat=10)

    print(f"NumPy (CPU) {t_np * 1e3:8.1f} ms   sum {w_np.sum():.4f}")
    print(f"PyTorch     {t_torch * 1e3:8.1f} ms   sum {w_torch.sum().item():.4f}")
    print(f"gpuarr      {t_ga * 1e3:8.2f} ms   sum {float(w_ga.sum()):.4f}")
    np.testing.assert_allclose(ga.asnumpy(w_ga), w_torch.cpu().numpy(), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(ga.asnumpy(w_ga), w_np, rtol=1e-4, atol=1e-3)
    '''),
    md('''
    ## DLPack: one buffer, two libraries

    `ga.from_dlpack(tensor)` and `torch.from_dlpack(array)` wrap the other library's memory.
    The data pointers are equal, and a write through one is seen by the other.
    '''),
    code('''
    ptr_ga = mats_ga.data.ptr
    assert ptr_ga == mats.data_ptr(), (hex(ptr_ga), hex(mats.data_ptr()))

    w_back = torch.from_dlpack(w_ga)         # gpuarr -> PyTorch, also zero-copy
    assert w_back.data_ptr() == w_ga.data.ptr
    assert w_back.device.type == "cuda" and w_back.shape == (500, 100)

    probe = torch.zeros(4, device="cuda")
    probe_ga = ga.from_dlpack(probe)
    probe_ga[1] = 7.0                        # written by gpuarr ...
    sync()                                   # (gpuarr's stream; PyTorch reads on its own)
    assert probe[1].item() == 7.0            # ... read by PyTorch
    print("shared:", probe.tolist())
    print(f"sum via PyTorch {w_back.sum().item():.4f}, via gpuarr {float(w_ga.sum()):.4f}")
    '''),
    md('''
    ## The gradient of the k-th eigenvalue

    For a symmetric $X$ whose k-th eigenvalue $\\lambda_k$ is simple, with unit eigenvector
    $q_k$, $\\nabla_X \\lambda_k(X) = q_k q_k^T$. When the eigenvalue is repeated the function
    has a kink, and $q_k q_k^T$ for any unit eigenvector of that eigenvalue is still an element
    of the Clarke subdifferential, a valid choice for back-propagation (as any slope in
    $[0, 1]$ is for ReLU at 0). Check on a 5x5 matrix against PyTorch's autograd:
    '''),
    code('''
    mat = torch.linspace(-5, 5, 25).reshape(5, 5)
    w, Q = torch.linalg.eigh(mat)
    i = 2
    grad_formula = Q[:, i].view(-1, 1) @ Q[:, i].view(1, -1)

    mat_param = nn.Parameter(torch.linspace(-5, 5, 25).reshape(5, 5))
    torch.linalg.eigvalsh(mat_param)[i].backward()
    print(grad_formula)
    torch.testing.assert_close(mat_param.grad, grad_formula, rtol=1e-5, atol=1e-6)
    '''),
    md('''
    ## A k-th-eigenvalue autograd function on gpuarr

    Forward: the eigenvalues by gpuarr (only `eigvalsh` when no gradient is needed; `eigh`
    otherwise, keeping just the k-th eigenvector). Backward: $g\\, q_k q_k^T$. The tensors
    cross between the libraries with DLPack, so nothing is copied.
    '''),
    code('''
    class GpuarrKthEigval(torch.autograd.Function):
        @staticmethod
        def forward(ctx, A, k, lower=True):
            A_ga = ga.from_dlpack(A.detach().contiguous())
            uplo = "L" if lower else "U"
            if ctx.needs_input_grad[0]:
                w_ga, Q_ga = ga.linalg.eigh(A_ga, UPLO=uplo)
                w, Q = torch.from_dlpack(w_ga), torch.from_dlpack(Q_ga)
                ctx.save_for_backward(Q[..., k].unsqueeze(-1))
            else:
                w = torch.from_dlpack(ga.linalg.eigvalsh(A_ga, UPLO=uplo))
            return w[..., k]

        @staticmethod
        def backward(ctx, grad_w):
            (q,) = ctx.saved_tensors                     # (..., n, 1)
            grad_A = (q * grad_w.to(q.dtype)[..., None, None]) @ q.transpose(-1, -2)
            return grad_A, None, None

    def my_kth_eigvalh(A, k, *, lower=True):
        if A.is_cuda:
            return GpuarrKthEigval.apply(A, k, lower)
        return torch.linalg.eigvalsh(A, UPLO="L" if lower else "U")[..., k]

    for fn in (my_kth_eigvalh, ga.torch.kth_eigvalh):
        p = nn.Parameter(torch.linspace(-5, 5, 25, device="cuda").reshape(5, 5))
        fn(p, 2).backward()
        torch.testing.assert_close(p.grad.cpu(), grad_formula, rtol=1e-4, atol=1e-5)

    # Batched, float64: values and gradients against torch.linalg.
    A = torch.randn(64, 12, 12, device="cuda", dtype=torch.float64)
    A = nn.Parameter(A + A.transpose(-1, -2))
    B = nn.Parameter(A.detach().clone())
    ga.torch.kth_eigvalh(A, 5).sum().backward()
    torch.linalg.eigvalsh(B)[..., 5].sum().backward()
    torch.testing.assert_close(A.grad, B.grad, rtol=1e-7, atol=1e-9)
    print("gradients agree")
    '''),
    md('''
    ## The model

    $f(x; \\mu, A_{1:n}) = \\lambda_k\\big(\\operatorname{diag}(\\mu) + \\sum_i x_i A_i\\big)$,
    with a non-decreasing vector $\\mu$ (a first value plus a cumulative sum of softplus
    increments) and learned matrices $A_i$ (only their lower triangles matter).
    `MultivariateSpectralTorch` is the same model computing the eigenvalue with
    `torch.linalg.eigvalsh`.
    '''),
    code('''
    class Nondecreasing(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.first = nn.Parameter(torch.tensor(-1.0))
            self.steps = nn.Parameter(torch.full((dim - 1,), -2.0))

        def forward(self):
            inc = nn.functional.softplus(self.steps)
            return torch.cat([self.first.view(1), self.first + torch.cumsum(inc, 0)])

    class MultivariateSpectral(nn.Module):
        def __init__(self, *, num_features, dim, eigval_idx):
            super().__init__()
            self.eigval_idx = eigval_idx
            self.mu = Nondecreasing(dim)
            self.A = nn.Parameter(torch.randn(num_features, dim, dim) / (math.sqrt(dim) * num_features))

        def forward(self, x):
            nf, dim = self.A.shape[:2]
            feature_mat = (x @ self.A.view(nf, dim * dim)).view(-1, dim, dim)
            bias_mat = torch.diagflat(self.mu()).expand_as(feature_mat)
            return self._compute_eigval(bias_mat + feature_mat)

        def _compute_eigval(self, mat):
            return ga.torch.kth_eigvalh(mat, self.eigval_idx)

    class MultivariateSpectralTorch(MultivariateSpectral):
        def _compute_eigval(self, mat):
            return torch.linalg.eigvalsh(mat)[..., self.eigval_idx]
    '''),
    md('''
    ## A synthetic regression set

    8 features, a smooth nonlinear target with noise, standardized; 8192 training and 2048
    test rows, all on the GPU.
    '''),
    code('''
    num_features = 8
    def make_set(n, g):
        X = torch.randn(n, num_features, generator=g)
        y = (torch.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.3 * X[:, 3].abs()
             - 0.2 * X[:, 4] ** 2 + 0.4 * X[:, 5] + 0.1 * torch.randn(n, generator=g))
        return X, y
    g = torch.Generator().manual_seed(4)
    X_train, y_train = make_set(8192, g)
    X_test, y_test = make_set(2048, g)
    y_mean, y_std = y_train.mean(), y_train.std()
    X_train, X_test = X_train.cuda(), X_test.cuda()
    y_train, y_test = ((y_train - y_mean) / y_std).cuda(), ((y_test - y_mean) / y_std).cuda()
    print(X_train.shape, y_train.shape, f"test variance {y_test.var().item():.3f}")
    '''),
    md('''
    ## Same model, two eigenvalue routines

    Copy the weights into the `torch.linalg` variant and check that predictions and gradients
    match, then time one training step (forward, backward, Adam) on a batch of 256.
    '''),
    code('''
    dim = 45
    torch.manual_seed(0)
    model = MultivariateSpectral(num_features=num_features, dim=dim, eigval_idx=dim // 2).cuda()
    model_t = MultivariateSpectralTorch(num_features=num_features, dim=dim, eigval_idx=dim // 2).cuda()
    model_t.load_state_dict(model.state_dict())

    xb, yb = X_train[:256], y_train[:256]
    loss_fn = nn.MSELoss()
    loss_ga = loss_fn(model(xb), yb); loss_ga.backward()
    loss_t = loss_fn(model_t(xb), yb); loss_t.backward()
    torch.testing.assert_close(loss_ga, loss_t, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(model.A.grad, model_t.A.grad, rtol=1e-3, atol=1e-5)

    def step_timer(m, n_steps):
        opt = torch.optim.Adam(m.parameters(), lr=1e-3)
        def step():
            opt.zero_grad()
            loss_fn(m(xb), yb).backward()
            opt.step()
        step(); torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n_steps):
            step()
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) / n_steps

    t_step_ga = step_timer(model, 50)
    t_step_t = step_timer(model_t, 5)
    print(f"training step, gpuarr kth_eigvalh:     {t_step_ga * 1e3:8.2f} ms")
    print(f"training step, torch.linalg.eigvalsh:  {t_step_t * 1e3:8.2f} ms  ({t_step_t / t_step_ga:.0f}x slower)")
    '''),
    md('''
    ## Training with a live loss plot

    A fresh model, Adam, mini-batches of 256; the plot is redrawn after each epoch.
    '''),
    code('''
    import matplotlib.pyplot as plt
    from IPython.display import clear_output, display

    def evaluate(m, X, y):
        with torch.no_grad():
            return loss_fn(m(X), y).item()

    def train(m, n_epochs, lr, batch=256, plot=True):
        opt = torch.optim.Adam(m.parameters(), lr=lr)
        history = {"train": [], "test": []}
        g = torch.Generator(device="cuda").manual_seed(0)
        for epoch in range(n_epochs):
            perm = torch.randperm(X_train.shape[0], device="cuda", generator=g)
            total = 0.0
            for s in range(0, X_train.shape[0], batch):
                idx = perm[s:s + batch]
                opt.zero_grad()
                loss = loss_fn(m(X_train[idx]), y_train[idx])
                loss.backward()
                opt.step()
                total += loss.item() * idx.shape[0]
            history["train"].append(total / X_train.shape[0])
            history["test"].append(evaluate(m, X_test, y_test))
            if plot:
                fig, ax = plt.subplots(figsize=(5, 3), dpi=72)
                ax.plot(history["train"], label="train")
                ax.plot(history["test"], label="test")
                ax.set_xlabel("epoch"); ax.set_ylabel("MSE (standardized)"); ax.set_yscale("log")
                ax.set_title(f"epoch {epoch + 1}/{n_epochs}: test MSE {history['test'][-1]:.3f}")
                ax.legend()
                clear_output(wait=True)
                display(fig)
                plt.close(fig)
        return history

    torch.manual_seed(1)
    model = MultivariateSpectral(num_features=num_features, dim=dim, eigval_idx=dim // 2).cuda()
    initial = evaluate(model, X_test, y_test)
    t0 = time.perf_counter()
    history = train(model, n_epochs=40, lr=3e-3)
    t_train = time.perf_counter() - t0
    '''),
    code('''
    print(f"40 epochs ({40 * 8192 // 256} steps) in {t_train:.1f} s; "
          f"test MSE {initial:.3f} -> {history['test'][-1]:.3f}")
    # Better than predicting the mean (MSE about 1 on standardized targets), and improving.
    assert history["test"][-1] < 0.5 * initial
    assert history["test"][-1] < 0.8
    '''),
    md('''
    ## Summary

    - `ga.from_dlpack` / `torch.from_dlpack` share GPU memory both ways with no copy.
    - The gradient of a simple eigenvalue is $q_k q_k^T$; wrapping gpuarr's `eigh` in a
      `torch.autograd.Function` takes a dozen lines, and `gpuarr.torch.kth_eigvalh` is that
      function ready-made.
    - With it, a training step of the spectral model costs milliseconds instead of the
      hundreds that `torch.linalg.eigvalsh` needs for 45x45 batches.
    '''),
]


NOTEBOOKS = {
    "01_power_iteration.ipynb": NB01,
    "02_intro.ipynb": NB02,
    "03_distances.ipynb": NB03,
    "04_convolution.ipynb": NB04,
    "05_eigen_autograd.ipynb": NB05,
}


def build(outdir=HERE):
    for name, cells in NOTEBOOKS.items():
        nb = new_notebook(cells=cells, metadata={
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        })
        for i, cell in enumerate(nb.cells):     # stable ids keep regenerated files diffable
            cell["id"] = f"cell-{i:02d}"
        nbformat.validate(nb)
        path = os.path.join(outdir, name)
        with open(path, "w") as f:
            nbformat.write(nb, f)
        print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    build(sys.argv[1] if len(sys.argv) > 1 else HERE)
