"""Runs the notebooks of ``notebooks/`` headless, top to bottom (nbclient + ipykernel).

    python tools/run_notebooks.py                      # the five notebooks, in order
    python tools/run_notebooks.py notebooks/02_intro.ipynb
    python tools/run_notebooks.py --timeout 900        # seconds per cell (default 600)

What the notebooks need is checked before any kernel starts, so that a missing piece is one
line instead of a traceback out of the first cell: a CUDA device and Jupyter's headless
runner (exit status 1 without them), and each notebook's own imports (a notebook that lacks
one, such as PyTorch for 05, is skipped with the command that installs it). Each notebook
asserts its own numbers; one that stops with an error is reported with the cell and its
traceback, and the exit status is 1.

``tests/test_notebooks.py`` executes the notebooks through the functions here.
"""

import argparse
import importlib.util
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NB_DIR = os.path.join(ROOT, "notebooks")
CELL_TIMEOUT_S = 600

# notebook -> modules it imports besides numpy and gpuarr
NEEDS = {
    "01_power_iteration.ipynb": [],
    "02_intro.ipynb": [],
    "03_distances.ipynb": ["matplotlib"],
    "04_convolution.ipynb": ["scipy", "matplotlib"],
    "05_eigen_autograd.ipynb": ["torch", "matplotlib"],
}
JUPYTER = ["nbclient", "nbformat", "ipykernel"]
NO_GPU = "no CUDA device: the notebooks need a GPU (gpuarr.cuda.is_available() is False)"


def missing(modules):
    return [m for m in modules if importlib.util.find_spec(m) is None]


def install_hint(modules):
    """The pip command that installs ``modules`` (PyTorch has an extra of its own)."""
    extras = sorted({"torch" if m == "torch" else "notebooks" for m in modules})
    return f'pip install "gpuarr[{",".join(extras)}]"'


def kernel_env():
    """Environment variables for the kernels: a kernel is a fresh process and must import
    the same gpuarr as this one (an in-tree PYTHONPATH=python included), and draw its
    figures inline."""
    import gpuarr

    parent = os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {"PYTHONPATH": os.pathsep.join([parent] + rest),
            "MPLBACKEND": "module://matplotlib_inline.backend_inline"}


def execute(path, workdir, timeout=CELL_TIMEOUT_S):
    """Executes the notebook at ``path`` with ``workdir`` as its working directory and
    returns it with its outputs; raises nbclient's CellExecutionError when a cell fails.
    The caller sets kernel_env() in the environment first."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(workdir)}}).execute()
    return nb


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*",
                        help="notebook files (default: the five of notebooks/)")
    parser.add_argument("--timeout", type=int, default=CELL_TIMEOUT_S,
                        help="seconds a cell may run (default %(default)s)")
    args = parser.parse_args(argv)
    paths = args.notebooks or [os.path.join(NB_DIR, name) for name in NEEDS]

    try:
        import gpuarr
    except ImportError as e:
        print(f"gpuarr cannot be imported ({e}): install it first (see the README)")
        return 1
    if not gpuarr.cuda.is_available():
        print(NO_GPU)
        return 1
    lacking = missing(JUPYTER)
    if lacking:
        print(f"Jupyter's headless runner is not installed ({', '.join(lacking)} missing): "
              f"{install_hint(lacking)}")
        return 1
    from nbclient.exceptions import CellExecutionError

    os.environ.update(kernel_env())
    failed = []
    with tempfile.TemporaryDirectory(prefix="gpuarr-notebooks-") as workdir:
        for path in paths:
            name = os.path.basename(path)
            lacking = missing(NEEDS.get(name, []))
            if lacking:
                print(f"{name}: skipped, needs {', '.join(lacking)}: {install_hint(lacking)}")
                continue
            # A line of its own: the kernel's own messages go to the same terminal.
            print(f"{name}: running", flush=True)
            start = time.perf_counter()
            try:
                execute(path, workdir, args.timeout)
            except CellExecutionError as e:
                # nbclient's message holds the cell's source and its traceback.
                print(f"{name}: FAILED\n{e}", flush=True)
                failed.append(name)
                continue
            print(f"{name}: ok ({time.perf_counter() - start:.0f} s)", flush=True)
    if failed:
        print(f"{len(failed)} notebook(s) failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
