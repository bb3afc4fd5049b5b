"""Host-only checks of the benchmark runner (benchmarks/harness.py): the NumPy library, the
``run`` kind with a fresh process, the table, the versions line and the JSON, without a GPU;
and the baseline table generated from benchmarks/results/ (make_table)."""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks import harness  # noqa: E402


def test_numpy_library_and_tables(tmp_path):
    from benchmarks.foundation import SUM_ROUNDTRIP
    libs = harness.load_libraries(["numpy"])
    assert libs["numpy"].available
    fresh = harness.Workload("fresh python", kind="run", goal=harness.Goal("<= 10 s", abs_max=1e4))
    fresh.impl("numpy")(lambda np_: harness.fresh_python("print(1 + 1)", check_output="2"))
    wrong = harness.Workload("wrong output", kind="run")
    wrong.impl("numpy")(lambda np_: harness.fresh_python("print(3)", check_output="2"))
    log = open(os.devnull, "w")
    rows = harness.run_groups(
        [harness.Group("g", [SUM_ROUNDTRIP, fresh, wrong])], libs, repeat=2,
        log=log)
    by_key = {r["key"]: r for r in rows}
    ok = by_key["sum_roundtrip"]["results"]["numpy"]
    assert ok["status"] == "ok" and ok["value"] > 0 and len(ok["samples"]) == 2
    run = by_key["fresh_python"]["results"]["numpy"]
    assert run["status"] == "ok" and by_key["fresh_python"]["unit"] == "ms"
    assert 1.0 < run["value"] < 1e4
    assert by_key["fresh_python"]["verdict"] == "-"   # only gpuarr's figure is judged
    bad = by_key["wrong_output"]["results"]["numpy"]
    assert bad["status"] == "wrong" and "expected '2'" in bad["error"]
    assert by_key["sum_roundtrip"]["results"]["gpuarr"]["status"] == "unavailable"

    table = harness.format_table(rows)
    assert "NumPy" in table.splitlines()[0] and "WRONG" in table
    meta = harness.collect_meta({n: libs.get(n, harness.Library(n)) for n in harness.LIB_ORDER})
    line = harness.format_versions(meta)
    assert line.startswith("versions: ") and "NumPy" in line and "CUDA runtime" in line
    path = tmp_path / "r.json"
    harness.write_json(str(path), meta, rows)
    doc = json.loads(path.read_text())
    for key in ("date", "gpu", "versions", "git_commit", "python", "rows"):
        assert key in doc
    assert doc["versions"]["numpy"]


def test_cli_lists_groups(capsys):
    assert harness.main(["--list"]) == 0
    out = capsys.readouterr().out
    for group in ("foundation", "products"):
        assert group in out


def test_match_keeps_the_workloads_named_by_any_text(capsys):
    harness.load_group_modules()
    group = harness.GROUPS["surface-creation"]
    names = [w.name for w in group.workloads]
    kept = harness.matching_workloads([group], "arange,linspace float64")
    assert [w.name for w in kept[0].workloads] == [
        n for n in names if "arange" in n or "linspace float64" in n]
    assert kept[0].workloads and len(kept[0].workloads) < len(names)
    assert group.workloads and len(group.workloads) == len(names)  # the registry is untouched
    assert harness.main(["--only", "surface-creation", "--match", "no such row"]) == 2
    assert "matches 'no such row'" in capsys.readouterr().err


@pytest.mark.parametrize("v, text", [(13000, "13.0"), (12060, "12.6"), (None, "?")])
def test_cuda_version_text(v, text):
    assert f"CUDA runtime {text}" in harness.format_versions({"cuda_runtime": v, "versions": {}})


def test_fresh_python_reported_time_and_fresh_dirs():
    code = ("import os, sys; d = os.environ['MY_CACHE']; "
            "assert os.path.isdir(d) and not os.listdir(d); "
            "open(os.path.join(d, 'x'), 'w').close(); print('ok', 0.25)")
    fn = harness.fresh_python(code, check_output="ok", reports_time=True,
                              fresh_dirs=("MY_CACHE",))
    for _ in range(2):   # the second run gets a new, empty folder again
        r = fn()
        assert isinstance(r, harness.Seconds) and r == 0.25
    m = harness.time_runs(fn, lambda: None, runs=3)
    assert m.value == 250.0 and m.samples == [250.0] * 3
    with pytest.raises(harness.BenchmarkError, match="no time"):
        harness.fresh_python("print('ok')", reports_time=True)()
    with pytest.raises(harness.BenchmarkError, match="exit 3"):
        harness.fresh_python("raise SystemExit(3)")()


def _result_doc(date, group, cupy_ok):
    res = {"gpuarr": {"status": "ok", "value": 1.0},
           "cupy": {"status": "ok", "value": 2.0} if cupy_ok else {"status": "unavailable"}}
    return {"date": date, "gpu": "G", "versions": {}, "git_commit": date,
            "rows": [{"group": group, "key": "k", "workload": f"w {date}", "unit": "us/call",
                      "results": res, "ratio": 0.5 if cupy_ok else None, "goal": None,
                      "verdict": "-"}]}


def test_baseline_table_takes_the_newest_run_with_cupy_per_group(tmp_path):
    from benchmarks.results import make_table
    for name, doc in {"a.json": _result_doc("2026-01-01", "g", True),
                      "b.json": _result_doc("2026-01-03", "g", False),   # gpuarr only
                      "c.json": _result_doc("2026-01-02", "g", True),
                      "d.json": _result_doc("2026-01-01", "h", True)}.items():
        (tmp_path / name).write_text(json.dumps(doc))
    selection = make_table.load_kind(str(tmp_path))
    assert {g: doc["_file"] for g, doc, _rows in selection} == {"g": "c.json", "h": "d.json"}
    table = make_table.table(selection)
    assert "| g | w 2026-01-02 | 1.00 | 2.00 | - | us | 0.50x | - |" in table


def test_a_newer_partial_run_replaces_its_rows_only(tmp_path):
    """A run of some rows (--match) serves those rows; the others stay the whole run's, and
    the sources list both files for the group."""
    from benchmarks.results import make_table
    whole = _result_doc("2026-01-01", "g", True)
    whole["rows"].append(dict(whole["rows"][0], key="k2", workload="w2 whole"))
    partial = _result_doc("2026-01-02", "g", True)
    partial["argv"] = ["--only", "g", "--match", "w"]
    partial["rows"][0]["results"]["gpuarr"]["value"] = 0.5
    older = _result_doc("2025-12-31", "g", True)
    older["argv"] = ["--match", "w"]
    for name, doc in {"a.json": whole, "b.json": partial, "c.json": older}.items():
        (tmp_path / name).write_text(json.dumps(doc))
    selection = make_table.load_kind(str(tmp_path))
    [(group, doc, rows)] = selection
    assert doc["_file"] == "a.json"
    assert [(r["workload"], r["_source"]["_file"]) for r in rows] == [
        ("w 2026-01-02", "b.json"), ("w2 whole", "a.json")]
    table = make_table.table(selection)
    assert "| g | w 2026-01-02 | 0.50 | 2.00 |" in table and "| g | w2 whole |" in table
    src = make_table.sources(selection)
    assert "`a.json`" in src and "`b.json`" in src and "`c.json`" not in src


def test_a_group_with_a_summary_is_summarised_in_the_repository_readme(tmp_path):
    from benchmarks.results import make_table
    doc = _result_doc("2026-01-01", "sweep", True)
    doc["summaries"] = {"sweep": "sweep summary: 1 rows\nrows above 1.0x CuPy (1, worst first):\n"
                                 "    2.00x  w 2026-01-01"}
    (tmp_path / "a.json").write_text(json.dumps(doc))
    (tmp_path / "b.json").write_text(json.dumps(_result_doc("2026-01-01", "g", True)))
    selection = make_table.load_kind(str(tmp_path))
    texts = make_table.summaries(selection)
    assert list(texts) == ["sweep"]
    short = make_table.table(selection, summarized=texts) + make_table._summary_blocks(texts, True)
    assert "| g |" in short and "| sweep |" not in short
    assert "sweep summary: 1 rows" in short and "2.00x  w" not in short
    assert "rows above 1.0x CuPy (1, worst first): listed in benchmarks/results/README.md" in short
    full = make_table.table(selection) + make_table._summary_blocks(texts)
    assert "| sweep |" in full and "2.00x  w 2026-01-01" in full


def test_baseline_tables_are_current():
    """benchmarks/results/README.md and the README's table match the kept JSON files
    (after changing them: python -m benchmarks.results.make_table)."""
    from benchmarks.results import make_table
    assert make_table.main(["--check"]) == 0


def test_timer_options_unsupported_rows_and_group_summaries():
    libs = harness.load_libraries(["numpy"])
    fast = harness.Workload("fast", timer={"budget_s": 0.01, "warmup_s": 0.0, "batches": 3})
    fast.impl("numpy")(lambda np_: (lambda: np_.zeros(3)))
    lacking = harness.Workload("lacking")

    @lacking.impl("numpy")
    def _(np_):
        raise harness.Unsupported("numpy has no frobnicate")

    log = open(os.devnull, "w")
    groups = [harness.Group("g", [fast, lacking],
                            summary=lambda rows: f"{len(rows)} rows: "
                            + ",".join(r["key"] for r in rows)),
              harness.Group("h", [], summary=None)]
    rows = harness.run_groups(groups, libs, log=log)
    by_key = {r["key"]: r for r in rows}
    assert len(by_key["fast"]["results"]["numpy"]["samples"]) == 3
    rows_repeat = harness.run_groups(groups[:1], libs, repeat=2, log=log)
    assert len(rows_repeat[0]["results"]["numpy"]["samples"]) == 2   # --repeat wins
    res = by_key["lacking"]["results"]["numpy"]
    assert res["status"] == "unsupported" and "frobnicate" in res["error"]
    lines = harness.format_table(rows, ("numpy",)).splitlines()
    assert "n/a" in [ln for ln in lines if ln.startswith("lacking")][0]
    assert "lacking / NumPy: not supported: numpy has no frobnicate" in harness.format_notes(
        rows, libs, ("numpy",))
    assert harness.group_summaries(groups, rows) == {"g": "2 rows: fast,lacking"}
    # --stop-after: a spent time limit runs no more workloads and returns the rows done.
    assert harness.run_groups(groups, libs, log=log, stop_after_s=0) == []
    assert len(harness.run_groups(groups, libs, log=log, stop_after_s=60.0)) == 2
    with pytest.raises(SystemExit):
        harness.parse_args(["--stop-after", "0"])


@pytest.mark.parametrize("call_ns, budget_s, per_batch",
                         [(0.5e9, 1.5, 1), (30e6, 1.5, 7), (30e6, 0.1, 1), (2e6, 0.1, 10),
                          (1e3, 1.5, 2000)])
def test_batches_shrink_to_one_call_for_slow_calls(call_ns, budget_s, per_batch):
    # A fake clock that each call advances by call_ns. Batches hold what the budget allows:
    # at least ten calls below 10 ms a call, at least one from there (a 0.5 s call took
    # ten a batch, 35 s for one library, where the budget is 1.5 s).
    now = [0]

    def clock():
        return int(now[0])

    def fn():
        now[0] += call_ns

    m = harness.time_per_call(fn, lambda: None, budget_s=budget_s, clock=clock)
    assert m.calls_per_batch == per_batch
    assert len(m.samples) == harness.CALL_BATCHES
    assert m.value == pytest.approx(call_ns / 1e3)
