"""Sphinx configuration of gpuarr's documentation (build: tools/build_docs.sh)."""

import os
import sys

DOCS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(DOCS)
# The source tree's package (with its built _core), unless an installed gpuarr is asked for.
if not os.environ.get("GPUARR_DOCS_INSTALLED"):
    sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(DOCS, "_ext"))

import gpuarr  # noqa: E402
import gpuarr_api  # noqa: E402

gpuarr_api.write_sources(DOCS)

project = "gpuarr"
author = "the gpuarr developers"
copyright = "the gpuarr developers (BSD-3-Clause)"
version = release = gpuarr.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_nb",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "_templates", "**.ipynb_checkpoints",
                    "_generated/config_table.md"]  # included by user/configuration.md
templates_path = ["_templates"]

# The reference: one page per name (autosummary), NumPy-style docstrings (numpydoc).
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {}
autodoc_mock_imports = gpuarr_api.MOCKED_IMPORTS  # gpuarr.torch without PyTorch installed
autodoc_typehints = "none"  # pybind11's signatures say "object" for every argument
numpydoc_show_class_members = False  # the class template lists methods and attributes
numpydoc_class_members_toctree = False
numpydoc_validation_checks = set()
add_module_names = False

# The notebooks are shown with the outputs committed with them; the build never runs them
# (no GPU is needed to build the documentation).
nb_execution_mode = "off"
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

html_theme = "furo"
html_title = f"gpuarr {release}"


def _plain_ufunc_docstring(app, what, name, obj, options, lines):
    """The ufunc table's docstrings (cpp/ops/ufunc_*.cu) are plain text, not reStructuredText:
    shown literally, so that ``|x1|`` reads as an absolute value, not a substitution."""
    if isinstance(obj, gpuarr.ufunc):
        lines[:] = [line.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*")
                    .replace("`", "\\`") for line in lines]


def _shallow_navigation(app, pagename, templatename, context, doctree):
    """furo's sidebar renders the whole table of contents into every page; with a page per
    function and method that was most of the build's time (every page held ~800 links).
    The sidebar goes down to the namespace pages, whose tables link every name."""
    toctree = context.get("toctree")
    if toctree is not None:
        context["toctree"] = lambda **kwargs: toctree(**{**kwargs, "maxdepth": 2})


def setup(app):
    app.connect("autodoc-process-docstring", _plain_ufunc_docstring)
    app.connect("html-page-context", _shallow_navigation, priority=400)  # before furo's (500)
