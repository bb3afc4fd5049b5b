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

import pytest

from conftest import GPU_AVAILABLE, NO_GPU_REASON

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NB_DIR = os.path.join(ROOT, "notebooks")
CELL_TIMEOUT_S = 300

# notebook -> modules it imports besides numpy and gpuarr
NOTEBOOKS = {
    "01_power_iteration.ipynb": [],
    "02_intro.ipynb": [],
    "03_distances.ipynb": ["matplotlib"],
    "04_convolution.ipynb": ["scipy", "matplotlib"],
    "05_eigen_autograd.ipynb": ["torch", "matplotlib"],
}


def _missing(modules):
    return [m for m in modules if importlib.util.find_spec(m) is None]


def test_notebook_files_match_generator(tmp_path):
    """The committed .ipynb files hold the cells that notebooks/_build.py writes (outputs
    and execution counts aside): edit _build.py, then run it."""
    pytest.importorskip("nbformat")
    spec = importlib.util.spec_from_file_location("nb_build", os.path.join(NB_DIR, "_build.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
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


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_notebook_runs(name, tmp_path, monkeypatch):
    if not GPU_AVAILABLE:
        pytest.skip(NO_GPU_REASON)
    missing = _missing(["nbclient", "nbformat", "ipykernel"])
    if missing:
        pytest.skip(f"Jupyter is not installed ({', '.join(missing)} missing): "
                    "pip install gpuarr[notebooks]")
    missing = _missing(NOTEBOOKS[name])
    if missing:
        pytest.skip(f"{name} needs {', '.join(missing)}")
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    # The kernel is a fresh process: it must import the same gpuarr as this test run.
    import gpuarr
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [pkg_parent] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")

    path = os.path.join(NB_DIR, name)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except CellExecutionError as e:
        # nbclient's message already holds the cell's source and the traceback.
        pytest.fail(f"{name} failed:\n{e}", pytrace=False)

    if os.environ.get("GPUARR_NOTEBOOKS_WRITE") == "1":
        nbformat.write(nb, path)
    # An error output would have raised above; check the notebook did produce output.
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert outputs, f"{name} produced no output"
    assert not any(o.get("output_type") == "error" for o in outputs)
