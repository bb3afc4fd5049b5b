"""``python -m gpuarr`` (configuration and self-test) and the one place the version is written."""

import os
import re
import subprocess
import sys
import tomllib

import gpuarr

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_python_m_gpuarr_reports_and_self_tests():
    env = dict(os.environ)
    parent = os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([parent] + [p for p in env.get("PYTHONPATH", "").split(
        os.pathsep) if p])
    p = subprocess.run([sys.executable, "-m", "gpuarr"], capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"gpuarr {gpuarr.__version__}" in p.stdout
    assert "GPUARR_" in p.stdout  # the settings
    if gpuarr.cuda.is_available():
        assert "Self-test passed." in p.stdout, p.stdout
        assert "WRONG" not in p.stdout and "Error" not in p.stdout.split("Self-test on")[1]
    else:
        assert "Self-test skipped: no CUDA device" in p.stdout


def test_self_test_counts_a_failure(monkeypatch, capsys):
    import gpuarr.__main__ as main_module

    if not gpuarr.cuda.is_available():
        monkeypatch.setattr(gpuarr.cuda, "is_available", lambda: True)
        monkeypatch.setattr(gpuarr.cuda, "Device", lambda: type("D", (), {"id": 0})())
    monkeypatch.setattr(main_module, "_checks",
                        lambda: iter([("wrong", lambda: ([1.0], [2.0])),
                                      ("raises", lambda: 1 / 0)]))
    assert main_module.self_test() == 2
    out = capsys.readouterr().out
    assert "WRONG RESULT" in out and "ZeroDivisionError" in out and "2 check(s) failed" in out


def test_version_is_written_once():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    meta = project["tool"]["scikit-build"]["metadata"]["version"]
    assert meta["input"] == "python/gpuarr/_version.py"
    with open(os.path.join(ROOT, meta["input"])) as f:
        written = re.search(r'__version__ = "([^"]+)"', f.read()).group(1)
    assert gpuarr.__version__ == written
