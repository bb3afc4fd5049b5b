"""Host-only checks of the ``surface`` benchmark group (benchmarks/surface.py and its table,
benchmarks/surface_table.py), without a GPU: the table is well formed and covers the
families and dtypes it promises, every latency row runs end to end with NumPy standing in
for the device library (inputs, preparation, call, check), the checks catch wrong results,
a missing function is reported as unsupported, and the summary's arithmetic."""

import math
import os
import sys
import types

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks import harness, surface  # noqa: E402
from benchmarks import surface_table as table  # noqa: E402

ROWS = table.ROWS
LATENCY = [r for r in ROWS if r.size == "latency"]


def test_rows_are_well_formed():
    names = [r.name for r in ROWS]
    assert len(names) == len(set(names))
    keys = [w.key for w in surface.WORKLOADS]
    assert len(keys) == len(set(keys))
    assert 200 <= len(ROWS) <= 400     # the whole group must stay a few minutes long
    for r in ROWS:
        assert {"numpy", "gpuarr", "cupy"} <= set(r.calls), r.name
        assert set(r.calls) <= set(table.LIBS), r.name
        assert set(r.prep) <= set(table.LIBS), r.name
        assert r.family in table.FAMILIES and r.size in table.SIZES, r.name
        assert r.kind in ("call", "run"), r.name
        assert all(callable(f) for f in list(r.calls.values()) + list(r.prep.values()))


def test_families_sizes_and_dtypes_are_covered():
    families = {r.family for r in ROWS}
    assert families == set(table.FAMILIES)
    for f in table.FAMILIES:
        sizes = {r.size for r in ROWS if r.family == f}
        if f.startswith("linalg-"):
            assert sizes == {f.partition("-")[2]}, f
        else:
            assert {"latency", "bandwidth"} <= sizes, (f, sizes)
    ufunc_names = " ".join(r.name for r in ROWS if r.family.startswith("ufunc-"))
    for d in ("float16", "float32", "float64", "complex64", "complex128", "int8", "int16",
              "int32", "int64", "bool"):
        assert f" {d} " in ufunc_names, d
    assert any("strided" in r.name or "a.T" in r.name for r in ROWS if r.family.startswith("ufunc"))
    for f in ("reduction", "scan"):
        names = [r.name for r in ROWS if r.family == f]
        assert any("axis=0" in n for n in names) and any("axis=1" in n for n in names), f
    words = " ".join(r.name for r in ROWS)
    for op in ("sort", "argsort", "partition", "searchsorted", "unique", "take ", "put ",
               "compress", "where", "nonzero", "concatenate", "stack", "tile", "repeat", "pad",
               "transpose copy", "flip", "roll", "arange", "linspace", "eye", "tri ",
               "histogram", "bincount", "percentile", "cov ", "fft ", "fft2", "rfft",
               "save", "load", "standard_normal", "cumsum", "cumprod"):
        assert op in words, op


def test_workloads_have_the_libraries_and_the_timer():
    w = dict(zip((r.name for r in ROWS), surface.WORKLOADS))
    for r in ROWS:
        libs = set(w[r.name].impls)
        assert libs == set(r.calls) - {"numpy"}, r.name
        assert w[r.name].timer == (surface.RUN_TIMER if r.kind == "run" else surface.CALL_TIMER)
    assert any("torch" in r.calls for r in ROWS)


def test_registered_as_non_default_groups():
    g = harness.GROUPS["surface"]
    assert not g.default and len(g.workloads) == len(ROWS) and g.summary is surface.summary
    per_family = [harness.GROUPS[f"surface-{f}"] for f in table.FAMILIES]
    assert sum(len(x.workloads) for x in per_family) == len(ROWS)
    assert not any(x.default for x in per_family)


@pytest.mark.parametrize("row", LATENCY, ids=[r.name for r in LATENCY])
def test_latency_rows_run_with_numpy_as_the_library(row):
    fn = surface.setup(row, "numpy", np)
    fn()
    fn()        # the rows that write into their input can be called again


def _numpy_stand_in(name="gpuarr", drop=(), wrong=None):
    """A module named ``name`` with NumPy's functions, ``asarray``/``asnumpy``, without the
    names of ``drop``, and ``wrong`` (name, function) replacing one."""
    m = types.ModuleType(name)
    for k in dir(np):
        if not k.startswith("__") and k not in drop:
            setattr(m, k, getattr(np, k))
    m.asnumpy = np.asarray
    if wrong:
        setattr(m, *wrong)
    return m


def _row(name):
    return next(r for r in ROWS if r.name == name)


def test_a_missing_function_is_unsupported_not_an_error():
    lacking = _numpy_stand_in(drop=("partition",))
    with pytest.raises(harness.Unsupported, match="partition"):
        surface.setup(_row("partition float32 1000"), "gpuarr", lacking)
    fine = _numpy_stand_in()
    surface.setup(_row("partition float32 1000"), "gpuarr", fine)()

    def broken(*a, **k):
        return np.ones(3).frobnicate     # a bug inside the library stays an error

    with pytest.raises(AttributeError):
        surface.setup(_row("sum float32 1000"), "gpuarr", _numpy_stand_in(wrong=("sum", broken)))
    with pytest.raises(harness.Unsupported):
        surface.setup(_row("sum float32 1000"), "gpuarr",
                      _numpy_stand_in(wrong=("sum", lambda a: (_ for _ in ()).throw(
                          NotImplementedError("sum")))))


@pytest.mark.parametrize("name, wrong", [
    ("sum float32 1000", ("sum", lambda a: np.sum(a) + 1)),
    ("add int32 1000", ("add", lambda a, b: (a + b).astype(np.int64))),     # dtype
    ("argsort float32 1000", ("argsort", lambda a: np.arange(a.size))),
    ("partition float32 1000", ("partition", lambda a, k: a)),
    ("cumsum float32 1000", ("cumsum", lambda a: np.cumsum(a[::-1]))),
    ("histogram float32 1000, 10 bins", ("histogram", lambda a, b: np.histogram(a[1:], b))),
    ("fft complex64 1000", ("fft", None)),
])
def test_checks_catch_wrong_results(name, wrong):
    if name.startswith("fft"):
        fake = _numpy_stand_in()
        fake.fft = types.SimpleNamespace(fft=lambda a: np.fft.fft(a) * 1.01)
    else:
        fake = _numpy_stand_in(wrong=wrong)
    with pytest.raises(harness.BenchmarkError):
        surface.setup(_row(name), "gpuarr", fake)


def test_random_rows_check_moments():
    row = _row("standard_normal float64 1000")
    surface.setup(row, "numpy", np)
    shifted = {"numpy": lambda np_: (np_.random.default_rng(0),)}
    bad = table.Row(row.name + " shifted", row.family, row.size, row.inputs,
                    {"numpy": lambda xp, g: g.standard_normal(table.L) + 0.5},
                    shifted, ref=row.calls["numpy"], check=row.check)
    with pytest.raises(harness.BenchmarkError, match="mean"):
        surface.setup(bad, "numpy", np)


def _result_row(name, ga, cp, status="ok"):
    res = {"gpuarr": {"status": status, "value": ga}, "cupy": {"status": "ok", "value": cp}}
    ratio = ga / cp if status == "ok" else None
    return {"workload": name, "unit": "us/call", "results": res, "ratio": ratio}


def test_summary():
    rows = [_result_row("sum float32 1000", 4.0, 8.0),
            _result_row("cumsum float32 16M", 30.0, 10.0),
            _result_row("sort float32 16M", 11.0, 10.0),
            _result_row("partition float32 1000", None, 5.0, status="unsupported")]
    text = surface.summary(rows)
    assert "4 rows, 3 timed" in text
    gm = math.exp((math.log(0.5) + math.log(3.0) + math.log(1.1)) / 3)
    assert f"geometric mean gpuarr/CuPy {gm:.3g}x" in text
    above = text.split("rows above 1.0x CuPy (2, worst first):\n")[1].splitlines()
    assert above[0].split()[:2] == ["3.00x", "cumsum"]
    assert above[1].split()[:2] == ["1.10x", "sort"]
    assert "not supported by gpuarr (1): partition float32 1000" in text
    assert "reduction" in text and "scan" in text     # per family


def test_rows_run_through_the_harness_with_stand_ins():
    """A few latency rows through the harness's runner, NumPy stand-ins for gpuarr and
    CuPy: timed with the group's timer, ratios in the rows, the summary over them."""
    ga = _numpy_stand_in("gpuarr", drop=("partition",))
    ga._core = types.SimpleNamespace(_is_pending=lambda x: False, _launch_pending=None)
    cp = _numpy_stand_in("cupy")
    libs = {n: harness.Library(n, m, lambda: None, lambda: None, "0")
            for n, m in (("gpuarr", ga), ("cupy", cp))}
    names = ["sum float32 1000", "cumsum float32 1000", "partition float32 1000"]
    group = harness.Group("surface", [w for w in surface.WORKLOADS if w.name in names],
                          summary=surface.summary)
    rows = harness.run_groups([group], libs, lib_order=("gpuarr", "cupy"),
                              log=open(os.devnull, "w"))
    by = {r["workload"]: r for r in rows}
    for n in names[:2]:
        assert by[n]["ratio"] > 0
        assert len(by[n]["results"]["gpuarr"]["samples"]) == surface.CALL_TIMER["batches"]
    assert by[names[2]]["results"]["gpuarr"]["status"] == "unsupported"
    assert by[names[2]]["results"]["cupy"]["status"] == "ok"
    text = harness.group_summaries([group], rows)["surface"]
    assert text.startswith("surface summary: 3 rows, 2 timed")
    assert "not supported by gpuarr (1): partition float32 1000" in text
