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
# Defaults as written in the source (dtype=float, dtype=np.float64) instead of their
# repr (<class 'float'>, <object object>), which is not Python: the signature parser fell back
# to splitting on punctuation, and genfromtxt's deletechars default became a reference.
autodoc_preserve_defaults = True

# Cross-references, checked by the nitpicky build (tools/build_docs.sh passes -n): every
# reference must resolve to a page of this site or be ignored here, with the reason.
# Parameter and return types link to the reference (numpydoc turns each word of a type into
# a reference); a gpuarr name that has no page is a warning, so a defect of the docstring.
numpydoc_xref_param_type = True
numpydoc_xref_aliases = {
    # gpuarr's own classes, named as NumPy's docstrings name NumPy's.
    "ndarray": "gpuarr.ndarray",
    "ndarrays": "gpuarr.ndarray",
    "array": "gpuarr.ndarray",
    "ufunc": "gpuarr.ufunc",
    "Generator": "gpuarr.random.Generator",
    "RandomState": "gpuarr.random.RandomState",
    # NumPy's objects that gpuarr re-exports have no page here (the namespace pages list them
    # under "Taken from NumPy"): they stay unlinked through nitpick_ignore_regex below.
    "dtype": "numpy.dtype",
    "np.ndarray": "numpy.ndarray",
    "np.random.RandomState": "numpy.random.RandomState",
    "np.inf": "numpy.inf",
    "np.nan": "numpy.nan",
    "numpy": "numpy",
}
# There is no intersphinx (the build runs offline and must not depend on python.org or
# numpy.org), so neither NumPy's docstring vocabulary nor Python's and NumPy's own objects can
# be linked. numpydoc's default aliases point into those inventories (python:, numpy:): every
# word of the vocabulary is therefore plain text (also overriding those defaults), and
# references to NumPy, Python's standard library, PyTorch or Dask are not checked.
numpydoc_xref_ignore = {
    # words of NumPy's docstring vocabulary that are not objects
    "optional", "default", "of", "or", "and", "a", "them", "nested", "NumPy",
    "array_like", "array-like", "buffer_like", "scalar", "scalars", "arrays", "floating",
    "sequence", "iterable", "generator", "callable", "callables", "file", "ints", "bools",
    "shape", "N", "D",  # as in "array_like, shape (2, 2)" and "(N, D) array_like"
    # Python's built-in types and constants (unlinked: no Python inventory offline)
    "int", "float", "complex", "bool", "boolean", "str", "string", "bytes", "tuple", "list",
    "dict", "slice", "object", "type", "None", "True", "False",
}
numpydoc_xref_aliases.update({word: word for word in numpydoc_xref_ignore})
nitpick_ignore_regex = [
    ("py:.*", r"(numpy|torch|dask|pathlib)(\..*)?"),
]

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


def _untyped_signature(app, what, name, obj, options, signature, return_annotation):
    """pybind11 writes typed signatures into the docstring ("copy(self: gpuarr._core.ndarray,
    order: object = 'C') -> object"), which autodoc uses as they are: the types (mostly
    "object", also C++ names such as gpuarr::Event) are dropped, as autodoc_typehints = "none"
    does for Python functions, and so is a method's self."""
    if not signature or not signature.startswith("("):
        return None
    params = [_untyped_param(p) for p in _split_params(signature[1:-1])]
    if what in ("method", "class") and params and params[0] == "self":
        params = params[1:] if params[1:2] != ["/"] else params[2:]
    return "(" + ", ".join(params) + ")", ""


def _top_level(text):
    """(index, character) of the characters of ``text`` outside quotes and brackets."""
    depth, quote, escaped = 0, None, False
    for i, c in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "([{<":
            depth += 1
        elif c in ")]}>" and depth:
            depth -= 1
        elif depth == 0:
            yield i, c


def _split_params(text):
    """The parameters of an argument list, split at the commas outside brackets and quotes."""
    cuts = [i for i, c in _top_level(text) if c == ","]
    parts = [text[a + 1:b].strip() for a, b in zip([-1] + cuts, cuts + [len(text)])]
    return parts if parts[-1] else parts[:-1]


def _untyped_param(param):
    """ "order: object = 'C'" -> "order='C'"; "x: object" -> "x"; "*" and "/" unchanged."""
    colon = None
    for i, c in _top_level(param):
        if c == ":" and colon is None:
            colon = i
        elif c == "=":
            if colon is None:
                return param
            return param[:colon].strip() + "=" + param[i + 1:].strip()
    return param if colon is None else param[:colon].strip()


def _shallow_navigation(app, pagename, templatename, context, doctree):
    """furo's sidebar renders the whole table of contents into every page; with a page per
    function and method that was most of the build's time (every page held ~800 links).
    The sidebar goes down to the namespace pages, whose tables link every name."""
    toctree = context.get("toctree")
    if toctree is not None:
        context["toctree"] = lambda **kwargs: toctree(**{**kwargs, "maxdepth": 2})


def setup(app):
    app.connect("autodoc-process-docstring", _plain_ufunc_docstring)
    app.connect("autodoc-process-signature", _untyped_signature)
    app.connect("html-page-context", _shallow_navigation, priority=400)  # before furo's (500)
