"""The benchmark harness: libraries, timing, the group registry, the table, JSON and chart.

A *workload* has one setup function per library (``"gpuarr"``, ``"cupy"``, ``"torch"``).
Each setup function gets the library's module, builds its inputs, checks the result of one
call (raising ``BenchmarkError`` when it is wrong) and returns the zero-argument callable
that is timed. A *group* is a named list of workloads; modules of this package register
groups with ``register_group`` and ``python -m benchmarks --only GROUP`` runs them.

Two kinds of timing:

- ``call``: host overhead per call. Warm-up, then ``repeat`` (7) batches of up to 2000
  calls, each batch timed with ``time.perf_counter_ns`` between two device syncs; the
  result is the median per-call time in microseconds. Batches shrink for slow calls so
  that one library spends about ``CALL_BUDGET_S`` on a workload (down to 10 calls, or to
  one where a call takes 10 ms or more).
- ``run``: slow, whole runs (e.g. a fresh Python process): ``repeat`` (3) runs after the
  checked setup call, each between two device syncs; the median in milliseconds (or of
  the ``Seconds`` the callable returns, when it measures itself).
- ``transfer``: bandwidth. 2 warm-up runs, then ``repeat`` (5) runs, each a device sync,
  the call, a device sync; the result of a run is dropped outside the timed region. The
  result is the median of bytes / seconds / 1e9 (GB/s).
- ``throughput``: bandwidth of back-to-back calls (``call``'s batches; bytes over the median
  per-call time): the rate a kernel sustains in a loop, without one call's fixed launch and
  wait latency.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import datetime
import gc
import importlib
import itertools
import json
import math
import os
import pkgutil
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from typing import Callable

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(PACKAGE_DIR)
RESULTS_DIR = os.path.join(PACKAGE_DIR, "results")

LIB_ORDER = ("gpuarr", "cupy", "torch", "numpy")
LIB_LABELS = {"gpuarr": "gpuarr", "cupy": "CuPy", "torch": "PyTorch", "numpy": "NumPy"}
PRIMARY = "gpuarr"      # the library being judged
REFERENCE = "cupy"      # the ratio and the goals are against this one

CALL_BATCHES = 7
CALL_MAX_PER_BATCH = 2000
CALL_MIN_PER_BATCH = 10
# Calls at least this long (ns) take one call a batch: ten a batch spent a minute on
# PyTorch's 0.8 s batched eigvalsh, where one call's own noise is already small.
CALL_SLOW_NS = 10e6
CALL_BUDGET_S = 1.5     # timed batches of one library on one workload, about
CALL_WARMUP_S = 0.1
TRANSFER_RUNS = 5
TRANSFER_WARMUPS = 2

UNITS = {"call": "us/call", "transfer": "GB/s", "throughput": "GB/s", "run": "ms"}
BANDWIDTH_KINDS = ("transfer", "throughput")
RUNS = 3                # timed runs of a ``run`` workload (each a fresh process, say)


class BenchmarkError(Exception):
    """A workload computed a wrong result."""


class Unsupported(Exception):
    """A library lacks the function a workload calls: the row says so ("n/a") instead of
    failing the run."""


def check(condition, message):
    """Raises ``BenchmarkError(message)`` unless ``condition``."""
    if not condition:
        raise BenchmarkError(message)


# ----------------------------------------------------------------------------- goals


@dataclasses.dataclass(frozen=True)
class Goal:
    """The target of a workload. ``ratio_max``/``ratio_min`` bound gpuarr / CuPy (measured
    in the same run); ``abs_max``/``abs_min`` bound gpuarr's own figure in the workload's
    unit. A ratio goal is the verdict when CuPy ran; the absolute target stands in (marked
    "(abs)") when it did not."""

    text: str
    ratio_max: float | None = None
    ratio_min: float | None = None
    abs_max: float | None = None
    abs_min: float | None = None

    def has_ratio(self):
        return self.ratio_max is not None or self.ratio_min is not None

    def has_abs(self):
        return self.abs_max is not None or self.abs_min is not None

    def verdict(self, value, ref):
        if value is None:
            return "-"
        if self.has_ratio() and ref:
            r = value / ref
            ok = (self.ratio_max is None or r <= self.ratio_max) and (
                self.ratio_min is None or r >= self.ratio_min)
            return "PASS" if ok else "MISS"
        if self.has_abs():
            ok = (self.abs_max is None or value <= self.abs_max) and (
                self.abs_min is None or value >= self.abs_min)
            return ("PASS" if ok else "MISS") + (" (abs)" if self.has_ratio() else "")
        return "-"

    def lines(self, ref):
        """(value, label) of the goal lines to draw on a chart."""
        out = []
        if ref:
            for bound in (self.ratio_max, self.ratio_min):
                if bound is not None:
                    out.append((bound * ref, f"goal {bound:g}x CuPy"))
        for bound in (self.abs_max, self.abs_min):
            if bound is not None:
                out.append((bound, f"target {bound:g}"))
        return out


# ------------------------------------------------------------------- workloads, groups


class Workload:
    """One workload: a name, a kind (``call`` or ``transfer``), a goal, and one setup
    function per library, registered with the ``impl`` decorator::

        W = Workload("slice view", kind="call", goal=Goal("<= 0.33x CuPy", ratio_max=0.33))

        @W.impl("gpuarr")
        def _(ga):
            x = ga.zeros((100, 100))
            return lambda: x[1:10, ::2]
    """

    def __init__(self, name, kind="call", goal=None, nbytes=None, key=None, note="",
                 timer=None):
        if kind not in UNITS:
            raise ValueError(f"kind must be one of {sorted(UNITS)}")
        if kind in BANDWIDTH_KINDS and not nbytes:
            raise ValueError(f"a {kind} workload needs nbytes")
        self.name = name
        self.kind = kind
        self.unit = UNITS[kind]
        self.goal = goal
        self.nbytes = nbytes
        self.key = key or "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")
        self.note = note
        # Keyword arguments of the timing function (e.g. a smaller ``budget_s`` for a group
        # of hundreds of rows); ``--repeat`` still sets the number of batches or runs.
        self.timer = dict(timer or {})
        self.impls: dict[str, Callable] = {}

    def impl(self, lib):
        def register(fn):
            self.impls[lib] = fn
            return fn
        return register

    def only(self, *libs):
        """A copy that keeps the setup functions of ``libs`` only."""
        w = copy.copy(self)
        w.impls = {k: v for k, v in self.impls.items() if k in libs}
        return w

    @property
    def higher_is_better(self):
        return self.kind in BANDWIDTH_KINDS


@dataclasses.dataclass
class Group:
    name: str
    workloads: list
    description: str = ""
    default: bool = True    # run when no --only is given
    summary: Callable | None = None     # summary(rows of this group) -> text after the table


GROUPS: dict[str, Group] = {}


def register_group(name, workloads, description="", default=True, summary=None):
    """Registers (or replaces) the group ``name``; ``summary(rows)`` (the group's rows of
    the run) returns text printed after the table and kept in the JSON."""
    GROUPS[name] = Group(name, list(workloads), description, default, summary)
    return GROUPS[name]


def matching_workloads(groups, match):
    """``groups`` with only the workloads whose name contains one of the comma-separated
    texts of ``match``."""
    texts = [t for t in match.split(",") if t.strip()]
    return [dataclasses.replace(g, workloads=[w for w in g.workloads
                                              if any(t in w.name for t in texts)])
            for g in groups]


_SKIP_MODULES = {"harness"}


def load_group_modules():
    """Imports every module of this package but the harness (each registers its groups).
    A module that fails to import is reported on stderr and skipped."""
    import benchmarks
    for info in pkgutil.iter_modules(benchmarks.__path__):
        if info.name in _SKIP_MODULES or info.name.startswith("_"):
            continue
        try:
            importlib.import_module(f"benchmarks.{info.name}")
        except Exception as e:  # noqa: BLE001  (one broken module must not stop the rest)
            print(f"warning: benchmarks.{info.name} did not import and is skipped: "
                  f"{type(e).__name__}: {e}", file=sys.stderr)


# ------------------------------------------------------------------------- libraries


@dataclasses.dataclass
class Library:
    name: str
    module: object = None
    sync: Callable | None = None
    free: Callable | None = None
    version: str | None = None
    reason: str | None = None       # why it is unavailable

    @property
    def available(self):
        return self.module is not None

    @property
    def label(self):
        return LIB_LABELS.get(self.name, self.name)


def _load_gpuarr():
    import gpuarr as ga
    if not ga.cuda.is_available():
        return Library("gpuarr", version=ga.__version__,
                       reason=f"no CUDA device ({ga._core.no_device_reason()})")
    dev = ga.cuda.Device()
    pool = ga.get_default_memory_pool()
    return Library("gpuarr", ga, dev.synchronize, pool.free_all_blocks, ga.__version__)


def _load_cupy():
    import cupy as cp
    try:
        n = cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001
        return Library("cupy", version=cp.__version__, reason=f"no CUDA device ({e})")
    if n == 0:
        return Library("cupy", version=cp.__version__, reason="no CUDA device")
    dev = cp.cuda.Device()

    def free():
        cp.get_default_memory_pool().free_all_blocks()
        cp.get_default_pinned_memory_pool().free_all_blocks()

    return Library("cupy", cp, dev.synchronize, free, cp.__version__)


def _load_torch():
    import torch
    version = torch.__version__ + (f" (CUDA {torch.version.cuda})" if torch.version.cuda else "")
    if not torch.cuda.is_available():
        return Library("torch", version=version, reason="torch.cuda.is_available() is False")
    return Library("torch", torch, torch.cuda.synchronize, torch.cuda.empty_cache, version)


def _load_numpy():
    import numpy as np
    return Library("numpy", np, lambda: None, lambda: None, np.__version__)


LOADERS: dict[str, Callable[[], Library]] = {
    "gpuarr": _load_gpuarr,
    "cupy": _load_cupy,
    "torch": _load_torch,
    "numpy": _load_numpy,
}


def load_libraries(names):
    """{name: Library} for ``names``; a library that does not import is unavailable."""
    libs = {}
    for name in names:
        try:
            libs[name] = LOADERS[name]()
        except ImportError as e:
            libs[name] = Library(name, reason=f"not installed ({e})")
        except Exception as e:  # noqa: BLE001
            libs[name] = Library(name, reason=f"{type(e).__name__}: {e}")
    return libs


# ---------------------------------------------------------------------------- timing


@dataclasses.dataclass
class Measurement:
    value: float                # median: us/call or GB/s
    samples: list               # per batch (us/call) or per run (GB/s)
    calls_per_batch: int | None = None


def time_per_call(fn, sync, batches=CALL_BATCHES, max_calls=CALL_MAX_PER_BATCH,
                  budget_s=CALL_BUDGET_S, warmup_s=CALL_WARMUP_S, clock=time.perf_counter_ns):
    """Median per-call time of ``fn()`` in microseconds over ``batches`` batches, each
    between two ``sync()`` calls. The garbage collector is off while batches run (as in
    ``timeit``)."""
    # Warm-up, and an estimate of one call's time to size the batches.
    sync()
    t0 = clock()
    for _ in itertools.repeat(None, 5):
        fn()
    sync()
    est = max((clock() - t0) / 5, 1.0)
    n = int(min(max(warmup_s * 1e9 / est, 1), 5 * max_calls))
    t0 = clock()
    for _ in itertools.repeat(None, n):
        fn()
    sync()
    est = max((clock() - t0) / n, 1.0)
    min_calls = 1 if est >= CALL_SLOW_NS else CALL_MIN_PER_BATCH
    calls = int(min(max_calls, max(min_calls, budget_s * 1e9 / (batches * est))))

    gc.collect()
    gc_was_enabled = gc.isenabled()
    gc.disable()
    samples = []
    try:
        for _ in range(batches):
            sync()
            t0 = clock()
            for _ in itertools.repeat(None, calls):
                fn()
            sync()
            samples.append((clock() - t0) / calls / 1e3)
    finally:
        if gc_was_enabled:
            gc.enable()
    return Measurement(statistics.median(samples), samples, calls)


def _synced_runs(fn, sync, runs, warmups, clock, sample):
    """``sample(result, ns)`` of each of ``runs`` runs of ``fn()`` between two ``sync()``
    calls, after ``warmups`` untimed runs; each result is released outside the timed
    region."""
    for _ in range(warmups):
        sync()
        r = fn()
        sync()
        del r
    samples = []
    for _ in range(runs):
        sync()
        t0 = clock()
        r = fn()
        sync()
        t1 = clock()
        samples.append(sample(r, t1 - t0))
        del r
    return Measurement(statistics.median(samples), samples)


def time_transfer(fn, sync, nbytes, runs=TRANSFER_RUNS, warmups=TRANSFER_WARMUPS,
                  clock=time.perf_counter_ns):
    """Median bandwidth of ``fn()`` in GB/s (``nbytes`` / seconds / 1e9) over ``runs`` runs
    after ``warmups``."""
    return _synced_runs(fn, sync, runs, warmups, clock,
                        lambda r, ns: nbytes / max(ns, 1))  # bytes/ns == GB/s


def time_throughput(fn, sync, nbytes, **kw):
    """Bandwidth in GB/s of back-to-back calls: ``nbytes`` over the median per-call time of
    ``time_per_call`` (calls queued one after another, a sync per batch). This is the rate a
    kernel sustains in a loop, without the fixed launch-and-wait latency that one
    synchronised call (``time_transfer``) adds to each sample."""
    m = time_per_call(fn, sync, **kw)
    to_gbps = lambda us: nbytes / (us * 1e3)  # noqa: E731  bytes/ns == GB/s
    return Measurement(to_gbps(m.value), [to_gbps(u) for u in m.samples], m.calls_per_batch)


def time_runs(fn, sync, runs=RUNS, warmups=0, clock=time.perf_counter_ns):
    """Median wall time of whole runs of ``fn()`` in milliseconds, each between two
    ``sync()`` calls, after ``warmups`` untimed runs (none by default: the setup already
    ran one checked call, and a run that starts a process has nothing to warm up). A run
    that returns ``Seconds`` (timed inside a child process) counts that time instead."""
    return _synced_runs(fn, sync, runs, warmups, clock,
                        lambda r, ns: r * 1e3 if isinstance(r, Seconds) else ns / 1e6)


class Seconds(float):
    """A duration measured by the workload itself. When a ``run`` workload's callable
    returns one, ``time_runs`` records it instead of its own wall clock (e.g. the time of
    one call inside a child process, without the process start-up)."""


def fresh_python(code, check_output=None, reports_time=False, fresh_dirs=()):
    """A callable that runs ``python -c code`` in a new process (the same interpreter, and
    the same gpuarr: the parent folder of the imported package leads PYTHONPATH), for
    workloads of kind ``run`` that time start-up costs.

    It raises ``BenchmarkError`` when the child fails or its stdout (stripped; without its
    last word when ``reports_time``) differs from ``check_output``. With ``reports_time``
    the child prints the seconds it measured as the last word of its output, and the
    callable returns them as ``Seconds``. Each name of ``fresh_dirs`` is an environment
    variable set to a new, empty folder for every run (caches such as ``CUPY_CACHE_DIR``
    or ``CUDA_CACHE_PATH``: "empty caches")."""
    env = dict(os.environ)
    try:
        import gpuarr
        parent = os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))
        env["PYTHONPATH"] = os.pathsep.join(
            [parent] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    except ImportError:
        pass
    cmd = [sys.executable, "-c", code]

    def run():
        with tempfile.TemporaryDirectory(prefix="gpuarr-bench-") as td:
            run_env = dict(env)
            for i, name in enumerate(fresh_dirs):
                run_env[name] = os.path.join(td, str(i))
                os.makedirs(run_env[name])
            p = subprocess.run(cmd, env=run_env, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise BenchmarkError(f"exit {p.returncode}: {p.stderr.strip()[-500:]}")
        out = p.stdout.strip()
        seconds = None
        if reports_time:
            out, _, last = out.rpartition(" ")
            try:
                seconds = Seconds(float(last))
            except ValueError:
                raise BenchmarkError(f"the child printed no time: {p.stdout.strip()!r}") from None
            out = out.strip()
        if check_output is not None and out != check_output:
            raise BenchmarkError(f"printed {out!r}, expected {check_output!r}")
        return seconds

    return run


# --------------------------------------------------------------------------- running


def _fmt(v):
    if v is None:
        return "-"
    a = abs(v)
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def _computing_deferred_results(fn, ga):
    """``fn``, or, when its results are deferred arrays (gpuarr's fused elementwise chains
    run when first read), ``fn`` followed by launching the result's work: a result nobody
    reads would otherwise never be computed, and the timing would leave out work that CuPy
    and PyTorch do. Decided on one call, so that eager workloads keep their bare timing."""
    pending, launch = ga._core._is_pending, ga._core._launch_pending

    def results(r):
        return r if isinstance(r, (tuple, list)) else (r,)

    if not any(pending(x) for x in results(fn())):
        return fn

    def computed():
        r = fn()
        for x in results(r):
            launch(x)
        return r

    return computed


def run_workload(w, group, libs, repeat=None, lib_order=LIB_ORDER, log=sys.stderr):
    """Runs ``w`` for each library of ``lib_order``; returns the row (a JSON-able dict)."""
    results = {}
    for name in lib_order:
        lib = libs.get(name)
        if name not in w.impls:
            results[name] = {"status": "no workload"}
            continue
        if lib is None or not lib.available:
            results[name] = {"status": "unavailable",
                             "reason": lib.reason if lib else "not loaded"}
            continue
        t_start = time.perf_counter()
        fn = None
        try:
            fn = w.impls[name](lib.module)       # setup + one checked call
            if name == "gpuarr":
                fn = _computing_deferred_results(fn, lib.module)
            kw = dict(w.timer)
            if repeat:
                kw["batches" if w.kind in ("call", "throughput") else "runs"] = repeat
            if w.kind == "call":
                m = time_per_call(fn, lib.sync, **kw)
            elif w.kind == "throughput":
                m = time_throughput(fn, lib.sync, w.nbytes, **kw)
            elif w.kind == "run":
                m = time_runs(fn, lib.sync, **kw)
            else:
                m = time_transfer(fn, lib.sync, w.nbytes, **kw)
            results[name] = {"status": "ok", "value": m.value, "samples": m.samples,
                             "calls_per_batch": m.calls_per_batch}
        except BenchmarkError as e:
            results[name] = {"status": "wrong", "error": str(e)}
        except Unsupported as e:
            results[name] = {"status": "unsupported", "error": str(e)}
        except Exception as e:  # noqa: BLE001  (reported, and the run goes on)
            results[name] = {"status": "error", "error": f"{type(e).__name__}: {e}",
                             "traceback": traceback.format_exc()}
        finally:
            fn = None
            gc.collect()
            try:
                lib.sync()
                lib.free()
            except Exception:  # noqa: BLE001
                pass
        results[name]["seconds"] = round(time.perf_counter() - t_start, 3)

    value = results.get(PRIMARY, {}).get("value")
    ref = results.get(REFERENCE, {}).get("value")
    ratio = value / ref if value is not None and ref else None
    if results.get(PRIMARY, {}).get("status") in ("error", "wrong"):
        verdict = "ERR"
    else:
        verdict = w.goal.verdict(value, ref) if w.goal else "-"
    return {
        "group": group,
        "key": w.key,
        "workload": w.name,
        "kind": w.kind,
        "unit": w.unit,
        "nbytes": w.nbytes,
        "goal": w.goal.text if w.goal else "",
        "goal_spec": dataclasses.asdict(w.goal) if w.goal else None,
        "results": results,
        "ratio": ratio,
        "verdict": verdict,
    }


def _cell(res):
    st = res.get("status")
    if st == "ok":
        return _fmt(res["value"])
    return {"error": "ERR", "wrong": "WRONG", "unsupported": "n/a"}.get(st, "-")


def run_groups(groups, libs, repeat=None, lib_order=LIB_ORDER, log=sys.stderr,
               stop_after_s=None):
    """Runs the workloads of ``groups`` (Group objects); returns the rows. With
    ``stop_after_s``, no workload starts once that many seconds have passed: the rows
    done so far are returned (a sweep cut short by a time limit still writes them)."""
    todo = [(g.name, w) for g in groups for w in g.workloads]
    rows = []
    start = time.monotonic()
    for i, (gname, w) in enumerate(todo, 1):
        if stop_after_s is not None and time.monotonic() - start >= stop_after_s:
            print(f"stopped after {i - 1} of {len(todo)} workloads: --stop-after "
                  f"{stop_after_s:g} s", file=log, flush=True)
            break
        print(f"[{i}/{len(todo)}] {gname}: {w.name} ...", end="", file=log, flush=True)
        t0 = time.perf_counter()
        row = run_workload(w, gname, libs, repeat, lib_order, log)
        parts = [f"{LIB_LABELS.get(n, n)} {_cell(row['results'][n])}"
                 for n in lib_order if row["results"][n].get("status") != "no workload"]
        print(f" {'  '.join(parts)} {w.unit}  [{row['verdict']}]  "
              f"({time.perf_counter() - t0:.1f} s)", file=log, flush=True)
        for n in lib_order:
            res = row["results"][n]
            if res.get("status") in ("error", "wrong"):
                print(f"    {LIB_LABELS.get(n, n)}: {res['error']}", file=log)
                if res.get("traceback"):
                    print("    " + res["traceback"].rstrip().replace("\n", "\n    "), file=log)
        rows.append(row)
    return rows


# ----------------------------------------------------------------------------- table


def format_table(rows, lib_order=LIB_ORDER):
    header = (["workload"] + [LIB_LABELS.get(n, n) for n in lib_order]
              + ["unit", f"{LIB_LABELS[PRIMARY]}/{LIB_LABELS[REFERENCE]}", "goal", "status"])
    body = []
    for r in rows:
        body.append([r["workload"]] + [_cell(r["results"][n]) for n in lib_order]
                    + [r["unit"], "-" if r["ratio"] is None else f"{r['ratio']:.2f}x",
                       r["goal"] or "-", r["verdict"]])
    widths = [max(len(str(x[i])) for x in [header] + body) for i in range(len(header))]
    numeric = set(range(1, len(lib_order) + 1)) | {len(lib_order) + 2}

    def line(cells):
        return "  ".join(str(c).rjust(w) if i in numeric else str(c).ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(header), line(["-" * w for w in widths])] + [line(b) for b in body]
    return "\n".join(out)


def format_versions(meta):
    """One line: the library versions, CUDA runtime and driver, Python."""
    def cuda(v):
        return f"{v // 1000}.{(v % 1000) // 10}" if isinstance(v, int) and v > 0 else "?"
    parts = []
    for name, version in meta.get("versions", {}).items():
        parts.append(f"{LIB_LABELS.get(name, name)} {version or '-'}")
    parts.append(f"CUDA runtime {cuda(meta.get('cuda_runtime'))}")
    parts.append(f"driver (CUDA) {cuda(meta.get('cuda_driver'))}")
    if meta.get("nvidia_driver"):
        parts.append(f"NVIDIA driver {meta['nvidia_driver']}")
    parts.append(f"Python {meta.get('python')}")
    return "versions: " + ", ".join(parts)


def format_notes(rows, libs, lib_order=LIB_ORDER):
    notes = []
    for n in lib_order:
        lib = libs.get(n)
        if lib is not None and not lib.available:
            notes.append(f"{LIB_LABELS.get(n, n)}: {lib.reason}")
    for r in rows:
        for n in lib_order:
            res = r["results"][n]
            if res.get("status") in ("error", "wrong", "unsupported"):
                prefix = {"wrong": "WRONG RESULT: ", "unsupported": "not supported: "}
                notes.append(f"{r['workload']} / {LIB_LABELS.get(n, n)}: "
                             f"{prefix.get(res['status'], '')}{res['error']}")
    notes.append("us/call: lower is better; GB/s: higher is better (the ratio is "
                 "gpuarr/CuPy in the row's unit).")
    return "\n".join(notes)


def group_summaries(groups, rows):
    """{group name: text} of the groups of ``groups`` that have a summary, each given its
    own rows."""
    return {g.name: g.summary([r for r in rows if r["group"] == g.name])
            for g in groups if g.summary is not None}


# ------------------------------------------------------------------------ JSON, PNG


def _git(*args):
    try:
        p = subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True,
                           timeout=10)
    except Exception:  # noqa: BLE001
        return None
    return p.stdout.strip() if p.returncode == 0 else None


def _installed(name):
    """The installed version of a library that was not loaded (None if absent)."""
    import importlib.metadata as md
    candidates = [name]
    if name == "cupy":
        candidates = [d.metadata["Name"] for d in md.distributions()
                      if (d.metadata["Name"] or "").lower().startswith("cupy")]
    for c in candidates:
        try:
            return md.version(c)
        except Exception:  # noqa: BLE001
            continue
    return None


def collect_meta(libs):
    import numpy as np
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "host": platform.node(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "argv": sys.argv[1:],
        "gpu": None,
        "versions": {"numpy": np.__version__},
        "libraries": {},
        # GPUARR_GIT_COMMIT names the commit when the tree's own .git does not (a copy of the
        # working tree without .git, or with a stale one).
        "git_commit": os.environ.get("GPUARR_GIT_COMMIT") or _git("rev-parse", "HEAD"),
    }
    status = _git("status", "--porcelain", "--untracked-files=no")
    meta["git_dirty"] = None if status is None else bool(status)
    for name, lib in libs.items():
        meta["versions"][name] = lib.version or meta["versions"].get(name) or _installed(name)
        meta["libraries"][name] = {"available": lib.available, "reason": lib.reason}
    try:
        import gpuarr
        meta["versions"].setdefault("gpuarr", gpuarr.__version__)
        name = gpuarr.cuda.runtime.getDeviceProperties(0)["name"]
        meta["gpu"] = name.decode() if isinstance(name, bytes) else str(name)
        meta["cuda_runtime"] = gpuarr.cuda.runtime.runtimeGetVersion()
        meta["cuda_driver"] = gpuarr.cuda.runtime.driverGetVersion()
        meta["gpuarr_transfer_settings"] = gpuarr._core.transfer_settings()
    except Exception as e:  # noqa: BLE001
        meta.setdefault("meta_errors", []).append(f"{type(e).__name__}: {e}")
    try:  # the kernel driver's version, as nvidia-smi reports it (e.g. 580.159.04)
        p = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=20)
        if p.returncode == 0 and p.stdout.strip():
            meta["nvidia_driver"] = p.stdout.strip().splitlines()[0]
    except Exception:  # noqa: BLE001  (no nvidia-smi: the CUDA driver version stands)
        pass
    return meta


def _atomic_write(path, write):
    os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
    tmp = path + ".tmp"
    write(tmp)
    os.replace(tmp, path)


def write_json(path, meta, rows, **extra):
    doc = dict(meta, rows=rows, **extra)

    def write(tmp):
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1, default=str)
            f.write("\n")

    _atomic_write(path, write)


_COLORS = {"gpuarr": "#2a9d8f", "cupy": "#e76f51", "torch": "#6c757d", "numpy": "#4361ee"}


def write_png(path, meta, rows, lib_order=LIB_ORDER):
    """A bar chart, one panel per workload; False (and nothing written) without
    matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:  # noqa: BLE001
        return False
    if not rows:
        return False
    ncols = min(3, len(rows))
    nrows = math.ceil(len(rows) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols, 3.4 * nrows), squeeze=False)
    for ax, r in zip(axes.flat, rows):
        names = [n for n in lib_order if r["results"][n].get("status") != "no workload"]
        vals = [r["results"][n].get("value") or 0.0 for n in names]
        bars = ax.bar([LIB_LABELS.get(n, n) for n in names], vals,
                      color=[_COLORS.get(n, "#999999") for n in names])
        for b, n in zip(bars, names):
            ax.annotate(_cell(r["results"][n]), (b.get_x() + b.get_width() / 2, b.get_height()),
                        ha="center", va="bottom", fontsize=8)
        ref = r["results"].get(REFERENCE, {}).get("value")
        spec = r.get("goal_spec")
        if spec:
            for y, label in Goal(**spec).lines(ref):
                ax.axhline(y, color="#c1121f", linestyle="--", linewidth=1)
                ax.annotate(label, (1.0, y), xycoords=("axes fraction", "data"), ha="right",
                            va="bottom", fontsize=7, color="#c1121f")
        better = "higher is better" if r["kind"] in BANDWIDTH_KINDS else "lower is better"
        title = r["workload"] if len(r["workload"]) <= 50 else r["workload"][:48] + "..."
        ax.set_title(f"{title}\n[{r['verdict']}]", fontsize=9)
        ax.set_ylabel(f"{r['unit']} ({better})", fontsize=8)
        ax.tick_params(labelsize=8)
        ax.margins(y=0.15)
    for ax in list(axes.flat)[len(rows):]:
        ax.set_visible(False)
    fig.suptitle(f"gpuarr vs CuPy vs PyTorch - {meta.get('gpu') or '?'} - {meta.get('date')}",
                 fontsize=10)
    fig.tight_layout()
    _atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=110, format="png"))
    plt.close(fig)
    return True


# ---------------------------------------------------------------------- transfer sweep

# (GPUARR_TRANSFER_THREADS, GPUARR_STAGING_CHUNK_MB, GPUARR_STAGING_BUFFERS); the first is
# the default on a 16-core machine. One knob moves at a time, then one combination.
SWEEP_GRID = [
    (16, 32, 4),
    (8, 32, 4),
    (4, 32, 4),
    (16, 16, 4),
    (16, 64, 4),
    (16, 32, 3),
    (16, 32, 8),
    (8, 64, 8),
]
SWEEP_GROUP = "foundation-transfers"
SWEEP_KEYS = (("h2d_1gib", "H2D GB/s"), ("d2h_1gib", "D2H GB/s"))


def run_sweep(args, grid=SWEEP_GRID, log=sys.stderr):
    """Runs the group ``foundation-transfers`` (gpuarr only) in a fresh process per
    combination of the transfer settings (they are read once per process)."""
    if SWEEP_GROUP not in GROUPS:
        print(f"the group {SWEEP_GROUP} is not registered", file=sys.stderr)
        return 2
    entries = []
    for i, (threads, chunk_mb, buffers) in enumerate(grid, 1):
        env = dict(os.environ, GPUARR_TRANSFER_THREADS=str(threads),
                   GPUARR_STAGING_CHUNK_MB=str(chunk_mb), GPUARR_STAGING_BUFFERS=str(buffers),
                   PYTHONUNBUFFERED="1")
        label = f"threads={threads} chunk={chunk_mb}MB buffers={buffers}"
        print(f"[{i}/{len(grid)}] {label} ...", end="", file=log, flush=True)
        entry = {"threads": threads, "chunk_mb": chunk_mb, "buffers": buffers}
        with tempfile.TemporaryDirectory(prefix="gpuarr-sweep-") as td:
            jpath = os.path.join(td, "sweep.json")
            cmd = [sys.executable, "-m", "benchmarks", "--only", SWEEP_GROUP, "--libs", "gpuarr",
                   "--json", jpath, "--no-png"]
            if args.repeat:
                cmd += ["--repeat", str(args.repeat)]
            t0 = time.perf_counter()
            try:
                p = subprocess.run(cmd, env=env, cwd=REPO_ROOT, capture_output=True, text=True,
                                   timeout=600)
                doc = None
                if os.path.exists(jpath):
                    with open(jpath) as f:
                        doc = json.load(f)
                if doc is None:
                    entry["error"] = (f"exit {p.returncode}, no JSON; stderr: "
                                      f"{p.stderr.strip()[-800:]}")
                else:
                    entry["settings"] = doc.get("gpuarr_transfer_settings")
                    for row in doc["rows"]:
                        res = row["results"].get("gpuarr", {})
                        entry[row["key"]] = res.get("value")
                        entry[row["key"] + "_samples"] = res.get("samples")
                        if res.get("status") != "ok":
                            entry.setdefault("errors", []).append(
                                f"{row['key']}: {res.get('status')} {res.get('error', '')}")
            except subprocess.TimeoutExpired:
                entry["error"] = "timed out after 600 s"
        entry["seconds"] = round(time.perf_counter() - t0, 1)
        summary = "  ".join(f"{lab} {_fmt(entry.get(k))}" for k, lab in SWEEP_KEYS)
        print(f" {summary}  ({entry['seconds']} s)"
              + (f"  ERROR {entry['error']}" if "error" in entry else ""), file=log, flush=True)
        entries.append(entry)

    print(format_sweep_table(entries))
    import gpuarr
    meta = collect_meta({"gpuarr": Library("gpuarr", gpuarr, version=gpuarr.__version__)})
    path = args.json or os.path.join(RESULTS_DIR, "transfer-sweep.json")
    write_json(path, meta, [], sweep=entries)
    print(f"\nJSON: {path}")
    return 0 if all("error" not in e and "errors" not in e for e in entries) else 1


def format_sweep_table(entries):
    best = {k: max((e.get(k) or 0.0 for e in entries), default=0.0) for k, _ in SWEEP_KEYS}
    header = ["threads", "chunk MB", "buffers"] + [lab for _, lab in SWEEP_KEYS] + [
        "effective settings"]
    body = []
    for e in entries:
        s = e.get("settings") or {}
        eff = (f"{s.get('threads')}/{(s.get('chunk_bytes') or 0) >> 20}MB/{s.get('buffers')}"
               if s else "-")
        cells = [str(e["threads"]), str(e["chunk_mb"]), str(e["buffers"])]
        for k, _ in SWEEP_KEYS:
            v = e.get(k)
            cells.append(_fmt(v) + (" *" if v and v == best[k] else ""))
        body.append(cells + [eff])
    widths = [max(len(x[i]) for x in [header] + body) for i in range(len(header))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in [header] + body]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("(* best; effective settings = gpuarr._core.transfer_settings() in the child: "
                 "threads/chunk/buffers; goals: H2D >= 28, D2H >= 18 GB/s)")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ main


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Times gpuarr, CuPy and PyTorch on the same workloads in one process.")
    p.add_argument("--only", metavar="GROUP[,GROUP]",
                   help="groups to run (default: every default group; --list shows them)")
    p.add_argument("--match", metavar="TEXT[,TEXT]",
                   help="run only the workloads of those groups whose name contains one of "
                        "these texts (case-sensitive), e.g. 'add float64,isfinite'")
    p.add_argument("--libs", metavar="LIB[,LIB]", default=",".join(LIB_ORDER),
                   help="libraries to time (default: gpuarr,cupy,torch)")
    p.add_argument("--json", metavar="PATH",
                   help="JSON results (default: benchmarks/results/latest.json; with "
                        "--sweep-transfers: benchmarks/results/transfer-sweep.json)")
    p.add_argument("--png", metavar="PATH",
                   help="bar chart, needs matplotlib (default: benchmarks/results/latest.png)")
    p.add_argument("--no-png", action="store_true", help="write no chart")
    p.add_argument("--repeat", type=int, metavar="N",
                   help=f"timed batches per call workload (default {CALL_BATCHES}) and timed "
                        f"runs per transfer workload (default {TRANSFER_RUNS}) and per run "
                        f"workload (default {RUNS})")
    p.add_argument("--sweep-transfers", action="store_true",
                   help="instead of the groups: gpuarr's 1 GiB H2D/D2H in a fresh process per "
                        "combination of GPUARR_TRANSFER_THREADS / GPUARR_STAGING_CHUNK_MB / "
                        "GPUARR_STAGING_BUFFERS")
    p.add_argument("--stop-after", type=float, metavar="SECONDS",
                   help="start no workload after this many seconds; the results of the "
                        "workloads done are written (for runs under an outer time limit)")
    p.add_argument("--list", action="store_true", help="list the groups and exit")
    args = p.parse_args(argv)
    if args.stop_after is not None and args.stop_after <= 0:
        p.error("--stop-after must be > 0")
    if args.repeat is not None and args.repeat < 1:
        p.error("--repeat must be >= 1")
    return args


def main(argv=None):
    args = parse_args(argv)
    load_group_modules()

    if args.list:
        for g in GROUPS.values():
            flag = "" if g.default else "  (not run by default)"
            print(f"{g.name}: {len(g.workloads)} workloads{flag}"
                  + (f" - {g.description}" if g.description else ""))
        return 0

    if args.only:
        names = [s.strip() for s in args.only.split(",") if s.strip()]
        unknown = [n for n in names if n not in GROUPS]
        if unknown:
            print(f"unknown group(s): {', '.join(unknown)}; known: {', '.join(GROUPS)}",
                  file=sys.stderr)
            return 2
        groups = [GROUPS[n] for n in names]
    else:
        groups = [g for g in GROUPS.values() if g.default]
    if args.match:
        groups = matching_workloads(groups, args.match)
        if not any(g.workloads for g in groups):
            print(f"no workload of {', '.join(g.name for g in groups)} matches "
                  f"{args.match!r}", file=sys.stderr)
            return 2
    lib_order = tuple(n.strip() for n in args.libs.split(",") if n.strip())
    bad = [n for n in lib_order if n not in LOADERS]
    if bad:
        print(f"unknown librar(y/ies): {', '.join(bad)}; known: {', '.join(LOADERS)}",
              file=sys.stderr)
        return 2

    try:
        import gpuarr
    except Exception as e:  # noqa: BLE001
        print(f"cannot import gpuarr: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    if not gpuarr.cuda.is_available():
        print(f"no CUDA device is available ({gpuarr._core.no_device_reason()}); "
              "nothing to benchmark.")
        return 0

    if args.sweep_transfers:
        return run_sweep(args)

    needed = [n for n in lib_order if any(n in w.impls for g in groups for w in g.workloads)]
    libs = load_libraries(needed)
    for n in lib_order:
        libs.setdefault(n, Library(n, reason="no workload in the selected groups"))
    for n in needed:
        lib = libs[n]
        print(f"{lib.label}: " + (lib.version or "?" if lib.available
                                  else f"unavailable: {lib.reason}"), file=sys.stderr)

    rows = run_groups(groups, libs, args.repeat, lib_order, stop_after_s=args.stop_after)
    meta = collect_meta({n: libs[n] for n in lib_order})
    print()
    print(f"{meta.get('gpu')}  {meta['date']}  commit {(meta.get('git_commit') or '?')[:12]}"
          + (" (dirty)" if meta.get("git_dirty") else ""))
    print(format_versions(meta))
    print(format_table(rows, lib_order))
    print(format_notes(rows, libs, lib_order))
    summaries = group_summaries(groups, rows)
    for text in summaries.values():
        print()
        print(text)

    json_path = args.json or os.path.join(RESULTS_DIR, "latest.json")
    write_json(json_path, meta, rows, **({"summaries": summaries} if summaries else {}))
    print(f"\nJSON: {json_path}")
    if not args.no_png:
        png_path = args.png or os.path.join(RESULTS_DIR, "latest.png")
        if write_png(png_path, meta, rows, lib_order):
            print(f"PNG: {png_path}")
    failed = any(r["results"][n].get("status") in ("error", "wrong")
                 for r in rows for n in lib_order)
    return 1 if failed else 0
