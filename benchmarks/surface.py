"""Group ``surface``: the public surface of gpuarr against CuPy (and PyTorch where it has
the op), one row per function or operator family at a latency size (1000 elements) and a
bandwidth size (16M elements or a 4096x4096 matrix), from the table in
``benchmarks/surface_table.py``. Not run by default: ``python -m benchmarks --only surface``
(all rows, a few minutes on an H100) or ``--only surface-FAMILY`` (one family, e.g.
``surface-scan``; ``--list`` names them).

Each row's inputs are built once on the host; every library gets its own copy on the
device, one checked call (against NumPy's result, or the row's own check), then the timed
calls; the libraries take turns row by row in one process. After the table comes the
group's summary: the number of rows, the geometric mean of gpuarr/CuPy (time over time:
below 1 is faster), the same per family, every row above 1.0 (worst first), and the rows
that gpuarr does not support or gets wrong.

A row whose function a library lacks (an attribute its module or arrays do not have, or
``NotImplementedError``) is reported as ``n/a``, not as a failure.
"""

from __future__ import annotations

import math
import types

import numpy as np

from benchmarks import surface_table as table
from benchmarks.harness import (LIB_LABELS, PRIMARY, REFERENCE, Unsupported, Workload,
                                register_group)

# Per library and row: 5 batches over about 0.12 s after 0.02 s of warm-up (the harness's
# default, 1.5 s, would take over 20 minutes for the whole table); rows of several
# milliseconds a call are timed as 3 whole runs.
CALL_TIMER = {"budget_s": 0.12, "warmup_s": 0.02, "batches": 5}
RUN_TIMER = {"runs": 3}


# --------------------------------------------------------------- host <-> device


def _converters(lib, xp):
    """(to_device, to_host) of ``lib``: NumPy arrays cross, other values (scalars, paths)
    pass unchanged; results come back as NumPy arrays, tuples of them for tuple results."""
    if lib == "numpy":
        to_dev, array_type = np.array, np.ndarray      # a copy: some rows write into it

        def one_to_host(x):
            return np.asarray(x)
    elif lib == "torch":
        to_dev, array_type = (lambda h: xp.as_tensor(h, device="cuda")), xp.Tensor

        def one_to_host(x):
            return x.detach().cpu().numpy() if isinstance(x, array_type) else np.asarray(x)
    else:  # gpuarr, CuPy
        to_dev, array_type = xp.asarray, xp.ndarray

        def one_to_host(x):
            return xp.asnumpy(x) if isinstance(x, array_type) else np.asarray(x)

    def to_device(h):
        return to_dev(h) if isinstance(h, np.ndarray) else h

    def to_host(x):
        if isinstance(x, (tuple, list)):
            return tuple(to_host(y) for y in x)
        return one_to_host(x)

    return to_device, to_host


# ----------------------------------------------------------- inputs and reference


class _RowCache:
    """The host inputs and NumPy's result of the row being run (one row at a time: the
    libraries take turns on a row before the next row starts)."""

    def __init__(self):
        self.name, self.inputs, self.expected = None, None, None

    def _switch(self, row):
        if self.name != row.name:
            self.name, self.inputs, self.expected = row.name, None, None

    def host_inputs(self, row):
        self._switch(row)
        if self.inputs is None:
            self.inputs = tuple(row.inputs())
        return self.inputs

    def numpy_args(self, row):
        """Fresh NumPy copies of the inputs, with the row's preparation (views)."""
        to_dev, _ = _converters("numpy", np)
        a = tuple(to_dev(h) for h in self.host_inputs(row))
        prep = row.prep.get("numpy")
        return tuple(prep(np, *a)) if prep else a

    def reference(self, row):
        self._switch(row)
        if self.expected is None:
            f = row.ref or row.calls["numpy"]
            _, to_host = _converters("numpy", np)
            self.expected = to_host(f(np, *self.numpy_args(row)))
        return self.expected


_CACHE = _RowCache()


def _lacks(e, xp):
    """Whether ``e`` (an AttributeError) says that ``xp`` lacks a name the row calls: the
    lookup failed on one of its modules, or in the table's own code (a method its arrays
    do not have), not somewhere inside the library."""
    obj = getattr(e, "obj", None)
    if isinstance(obj, types.ModuleType) and \
            obj.__name__.partition(".")[0] == xp.__name__.partition(".")[0]:
        return True
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_filename == table.__file__


def setup(row, lib, xp):
    """The setup function of ``row`` for ``lib``: inputs to the device, the row's
    preparation, one call checked against NumPy (``BenchmarkError`` when wrong,
    ``Unsupported`` when the library lacks the function); returns the timed callable."""
    to_dev, to_host = _converters(lib, xp)
    args = tuple(to_dev(h) for h in _CACHE.host_inputs(row))
    prep = row.prep.get(lib)
    if prep is not None:
        args = tuple(prep(xp, *args))
    call = row.calls[lib]
    label = LIB_LABELS.get(lib, lib)
    try:
        got = to_host(call(xp, *args))
    except NotImplementedError as e:
        raise Unsupported(f"{label}: {e}") from e
    except AttributeError as e:
        if _lacks(e, xp):
            raise Unsupported(f"{label} lacks {e.name or e}") from e
        raise

    def expected():
        return _CACHE.reference(row)

    if row.check is not None:
        row.check(_CACHE.numpy_args(row), got, expected, lib)
    else:
        table.compare(got, expected(), row.rtol, lib, row.name)
    return lambda: call(xp, *args)


def workload(row):
    w = Workload(row.name, kind=row.kind, note=f"{row.family}, {row.size}",
                 timer=RUN_TIMER if row.kind == "run" else CALL_TIMER)
    for lib in row.calls:
        if lib != "numpy":
            w.impl(lib)(lambda xp, lib=lib: setup(row, lib, xp))
    return w


# ---------------------------------------------------------------------- summary


def _geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def _fmt(v):
    return "-" if v is None else (f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}")


def summary(rows):
    """The text after the table: rows, geometric mean of gpuarr/CuPy overall and per
    family, the rows above 1.0 (worst first), and the rows gpuarr lacks or fails."""
    family = {r.name: r.family for r in table.ROWS}
    timed = [r for r in rows if r.get("ratio")]
    gm = _geomean([r["ratio"] for r in timed])
    lines = [f"surface summary: {len(rows)} rows, {len(timed)} timed on gpuarr and CuPy; "
             f"geometric mean gpuarr/CuPy {_fmt(gm)}x (time; below 1 is faster)"]
    by_family = {}
    for r in timed:
        by_family.setdefault(family.get(r["workload"], "?"), []).append(r["ratio"])
    if by_family:
        lines.append("per family (rows, geometric mean, worst):")
        order = {f: i for i, f in enumerate(table.FAMILIES)}
        for f in sorted(by_family, key=lambda f: order.get(f, len(order))):
            rs = by_family[f]
            lines.append(f"  {f:22s} {len(rs):4d}  {_geomean(rs):6.2f}x  {max(rs):6.2f}x")
    above = sorted((r for r in timed if r["ratio"] > 1.0), key=lambda r: -r["ratio"])
    lines.append(f"rows above 1.0x CuPy ({len(above)}, worst first):")
    for r in above:
        res = r["results"]
        lines.append(f"  {r['ratio']:7.2f}x  {r['workload']}  (gpuarr "
                     f"{_fmt(res[PRIMARY].get('value'))}, CuPy "
                     f"{_fmt(res[REFERENCE].get('value'))} {r['unit']})")
    for status, what in (("unsupported", "not supported by gpuarr"),
                         ("error", "gpuarr raised"), ("wrong", "gpuarr wrong")):
        names = [r["workload"] for r in rows
                 if r["results"].get(PRIMARY, {}).get("status") == status]
        if names:
            lines.append(f"{what} ({len(names)}): " + "; ".join(names))
    cupy_bad = [r["workload"] for r in rows
                if r["results"].get(REFERENCE, {}).get("status") in ("error", "wrong",
                                                                     "unsupported")]
    if cupy_bad:
        lines.append(f"no CuPy figure ({len(cupy_bad)}): " + "; ".join(cupy_bad))
    return "\n".join(lines)


WORKLOADS = [workload(r) for r in table.ROWS]

register_group("surface", WORKLOADS,
               "every public function family at latency and bandwidth sizes (a few minutes)",
               default=False, summary=summary)
for _family in table.FAMILIES:
    register_group(f"surface-{_family}",
                   [w for w, r in zip(WORKLOADS, table.ROWS) if r.family == _family],
                   f"the {_family} rows of surface", default=False, summary=summary)
