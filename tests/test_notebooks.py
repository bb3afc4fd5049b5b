"""Executes the notebooks of ``notebooks/`` top to bottom (nbclient + ipykernel).

Each notebook asserts its own numbers against NumPy/SciPy/PyTorch, so a notebook that runs
to the end passes. Skipped with a reason where there is no CUDA device, no Jupyter
(nbclient, ipykernel), or a library a notebook needs (SciPy, matplotlib, PyTorch).

Set ``GPUARR_NOTEBOOKS_WRITE=1`` to write the executed notebooks (with their outputs) back
into ``notebooks/``; that is how the committed outputs are produced.
"""

import importlib.util
import json
import os
import tomllib

import pytest

from conftest import GPU_AVAILABLE, NO_GPU_REASON

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NB_DIR = os.path.join(ROOT, "notebooks")
CELL_TIMEOUT_S = 300


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# The headless runner (tools/run_notebooks.py) holds what each notebook imports besides
# numpy and gpuarr, and executes them for both.
runner = _load("run_notebooks", os.path.join(ROOT, "tools", "run_notebooks.py"))
NOTEBOOKS = runner.NEEDS


def test_notebook_files_match_generator(tmp_path):
    """The committed .ipynb files hold the cells that notebooks/_build.py writes (outputs
    and execution counts aside): edit _build.py, then run it."""
    pytest.importorskip("nbformat")
    mod = _load("nb_build", os.path.join(NB_DIR, "_build.py"))
    assert sorted(mod.NOTEBOOKS) == sorted(NOTEBOOKS)
    mod.build(str(tmp_path))
    for name in NOTEBOOKS:
        with open(os.path.join(NB_DIR, name)) as f:
            committed = json.load(f)
        with open(tmp_path / name) as f:
            fresh = json.load(f)
        def sources(nb):
            return [(c["cell_type"], "".join(c["source"])) for c in nb["cells"]]
        assert sources(committed) == sources(fresh), (
            f"{name} differs from what notebooks/_build.py generates; run it")
        assert committed["metadata"]["kernelspec"]["name"] == "python3"


def test_runner_without_a_device_says_so_in_one_line(monkeypatch, capsys):
    """python tools/run_notebooks.py on a machine without a GPU: one line, exit status 1,
    no kernel started (the first cell's check would end in a traceback)."""
    import gpuarr

    monkeypatch.setattr(gpuarr.cuda, "is_available", lambda: False)
    assert runner.main([]) == 1
    assert capsys.readouterr().out == runner.NO_GPU + "\n"


def test_runner_install_hints_name_extras_that_exist():
    assert runner.install_hint(["torch"]) == 'pip install "gpuarr[torch]"'
    assert runner.install_hint(["nbclient", "ipykernel"]) == 'pip install "gpuarr[notebooks]"'
    assert runner.install_hint(["torch", "matplotlib"]) == 'pip install "gpuarr[notebooks,torch]"'
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    # PyTorch (gigabytes of its own CUDA libraries) comes only with the torch extra.
    assert [r for r in extras["torch"] if r.startswith("torch")]
    assert not [r for r in extras["notebooks"] if r.startswith("torch")]
    needed = set(runner.JUPYTER) | {m for mods in NOTEBOOKS.values() for m in mods} - {"torch"}
    listed = {r.split(">")[0].split("=")[0].split("[")[0] for r in extras["notebooks"]}
    assert needed <= listed


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_notebook_runs(name, tmp_path, monkeypatch):
    if not GPU_AVAILABLE:
        pytest.skip(NO_GPU_REASON)
    missing = runner.missing(runner.JUPYTER)
    if missing:
        pytest.skip(f"Jupyter is not installed ({', '.join(missing)} missing): "
                    f"{runner.install_hint(missing)}")
    missing = runner.missing(NOTEBOOKS[name])
    if missing:
        pytest.skip(f"{name} needs {', '.join(missing)}: {runner.install_hint(missing)}")
    import nbformat
    from nbclient.exceptions import CellExecutionError

    for key, value in runner.kernel_env().items():
        monkeypatch.setenv(key, value)
    path = os.path.join(NB_DIR, name)
    try:
        nb = runner.execute(path, tmp_path, CELL_TIMEOUT_S)
    except CellExecutionError as e:
        # nbclient's message already holds the cell's source and the traceback.
        pytest.fail(f"{name} failed:\n{e}", pytrace=False)

    if os.environ.get("GPUARR_NOTEBOOKS_WRITE") == "1":
        nbformat.write(nb, path)
    # An error output would have raised above; check the notebook did produce output.
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert outputs, f"{name} produced no output"
    assert not any(o.get("output_type") == "error" for o in outputs)
