"""Writes the reference's source pages from the package itself, before Sphinx reads them.

Each namespace page lists the names in that namespace's ``__all__`` (a namespace without
one: its public ``dir``), grouped by what each object is; autosummary then writes one page
per name from its docstring. The configuration table comes from the ``GPUARR_*`` registry
(``gpuarr._core._config_names``/``_config_info``, readable without a GPU). Nothing here is
a list of names to keep up to date by hand: a new function appears in the reference on the
next build.
"""

import importlib
import inspect
import os
import shutil
import types

# The namespaces of the reference, in the order of its table of contents. Each page's title
# is the module's name; its introduction is the module's docstring.
NAMESPACES = [
    "gpuarr",
    "gpuarr.linalg",
    "gpuarr.fft",
    "gpuarr.random",
    "gpuarr.signal",
    "gpuarr.cuda",
    "gpuarr.cuda.runtime",
    "gpuarr.profiler",
    "gpuarr.emath",
    "gpuarr.torch",
]

# Optional dependencies that a namespace imports: stood in for by Sphinx's mock modules when
# they are not installed, so that the reference never depends on them (conf.py gives the
# same list to autodoc as autodoc_mock_imports).
MOCKED_IMPORTS = ["torch"]

# The headings of a namespace page, in order: (heading, autosummary template; None: the
# default for the kind of object, which docs/_templates/autosummary/ overrides for classes).
_GROUPS = [
    ("Submodules", None),
    ("Classes", None),
    ("Functions", None),
    ("Universal functions", "autosummary/ufunc.rst"),
    ("Exceptions", None),
    ("Objects", "autosummary/data.rst"),
    ("Constants", "autosummary/data.rst"),
]


def _public_names(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    seen = []
    for name in names:  # keep the first occurrence: some __all__ lists repeat names
        if name not in seen:
            seen.append(name)
    return seen


def _origin(obj):
    return getattr(obj, "__module__", None) or type(obj).__module__ or ""


def _group(obj, ufunc_type):
    if isinstance(obj, types.ModuleType):
        return "Submodules"
    if ufunc_type is not None and isinstance(obj, ufunc_type):
        return "Universal functions"
    if isinstance(obj, type):
        return "Exceptions" if issubclass(obj, BaseException) else "Classes"
    if callable(obj):
        return "Functions"
    if isinstance(obj, (int, float, complex, bool)):
        return "Constants"
    return "Objects"


def _namespace_page(modname, ufunc_type):
    from sphinx.ext.autodoc.mock import mock

    try:
        with mock(MOCKED_IMPORTS):
            module = importlib.import_module(modname)
    except ImportError as e:
        return None, f"{modname}: not importable here ({e})"
    groups = {g: [] for g, _ in _GROUPS}
    from_numpy = []
    for name in _public_names(module):
        obj = getattr(module, name)
        if isinstance(obj, types.ModuleType):
            if obj.__name__.startswith("gpuarr."):
                groups["Submodules"].append(obj.__name__)
            else:
                from_numpy.append((name, obj.__name__))
            continue
        origin = _origin(obj)
        if origin.split(".")[0] == "numpy" and not (
                ufunc_type is not None and isinstance(obj, ufunc_type)):
            from_numpy.append((name, f"{origin}.{getattr(obj, '__name__', name)}"))
            continue
        groups[_group(obj, ufunc_type)].append(name)

    title = f"``{modname}``"
    lines = [title, "=" * len(title), "", f".. automodule:: {modname}", "   :no-members:", "",
             f".. currentmodule:: {modname}", ""]
    for heading, template in _GROUPS:
        names = sorted(groups[heading], key=str.lower)
        if not names:
            continue
        lines += [heading, "-" * len(heading), ""]
        if heading == "Submodules":
            lines += [f"- :doc:`{n} <{n}>`" for n in names] + [""]
            continue
        lines += [".. autosummary::", "   :toctree: generated", "   :nosignatures:"]
        if template:
            lines.append(f"   :template: {template}")
        lines += [""] + [f"   {n}" for n in names] + [""]
    if from_numpy:
        heading = "Taken from NumPy"
        lines += [heading, "-" * len(heading), "",
                  "These names are NumPy's own objects (scalar types, dtype helpers, printing "
                  "options, index helpers), re-exported so that code written for NumPy or "
                  "CuPy finds them here; NumPy's reference documents them.", "",
                  ".. list-table::", "   :header-rows: 1", "",
                  f"   * - ``{modname}``", "     - NumPy's object"]
        for name, target in sorted(from_numpy, key=lambda t: t[0].lower()):
            lines += [f"   * - ``{name}``", f"     - ``{target}``"]
        lines.append("")
    return "\n".join(lines), None


def _config_table():
    from gpuarr import _core

    rows = ["| Variable | Type | Default | Meaning |", "|---|---|---|---|"]
    for name in _core._config_names():
        type_text, default, meaning = _core._config_info(name)
        meaning = meaning.replace("|", "\\|")
        rows.append(f"| `{name}` | {type_text} | `{default}` | {meaning} |")
    return "\n".join(rows) + "\n"


# NumPy's namespaces in the inventory (tests/numpy_inventory.toml) -> gpuarr's.
_INVENTORY_NAMESPACES = [
    ("numpy", "gpuarr"),
    ("numpy.linalg", "gpuarr.linalg"),
    ("numpy.fft", "gpuarr.fft"),
    ("numpy.random", "gpuarr.random"),
    ("ndarray", "gpuarr.ndarray"),
]


def _resolve(dotted):
    import numpy

    if dotted == "ndarray":
        return numpy.ndarray
    if dotted == "gpuarr.ndarray":
        import gpuarr
        return gpuarr.ndarray
    return importlib.import_module(dotted)


def _comparison_page(root):
    """NumPy's public names against gpuarr's, from the inventory that the test suite checks
    (tests/test_numpy_inventory.py): a name is implemented when gpuarr's namespace has it,
    else the inventory says why not (not applicable) or that it is still to do."""
    import tomllib

    import numpy

    with open(os.path.join(root, "tests", "numpy_inventory.toml"), "rb") as f:
        data = tomllib.load(f)
    lines = ["# NumPy names in gpuarr", "",
             f"Every public name of NumPy {numpy.__version__}'s main namespaces, and whether "
             "gpuarr has it. Generated at each documentation build from the inventory "
             "`tests/numpy_inventory.toml`, which `tests/test_numpy_inventory.py` holds to the "
             "installed NumPy: *yes* means the gpuarr namespace has the name; *not applicable* "
             "gives the reason; *not yet* is the worklist.", ""]
    for key, ga_name in _INVENTORY_NAMESPACES:
        np_ns, ga_ns = _resolve(key), _resolve(ga_name)
        section = data.get(key, {})
        missing = set(section.get("known_missing", []))
        reasons = dict(section.get("not_applicable", {}))
        names = sorted(n for n in dir(np_ns) if not n.startswith("_"))
        counts = {"yes": 0, "not applicable": 0, "not yet": 0}
        rows = []
        for name in names:
            if hasattr(ga_ns, name):
                status, why = "yes", ""
            elif name in reasons:
                status, why = "not applicable", reasons[name]
            elif name in missing:
                status, why = "not yet", ""
            else:
                status, why = "not yet", "not classified by the inventory"
            counts[status] += 1
            why = why.replace("|", "\\|")
            rows.append(f"| `{name}` | {status} | {why} |")
        title = "numpy.ndarray" if key == "ndarray" else key
        lines += [f"## `{title}` and `{ga_name}`", "",
                  f"{counts['yes']} of {len(names)} names in gpuarr, "
                  f"{counts['not applicable']} not applicable, {counts['not yet']} not yet.", "",
                  "| NumPy name | gpuarr | why not |", "|---|---|---|"] + rows + [""]
    return "\n".join(lines)


def write_sources(docs_dir):
    """Writes docs/_generated/: the reference pages, the configuration table and copies of
    the notebooks (rendered with their committed outputs; never executed by the build)."""
    out = os.path.join(docs_dir, "_generated")
    # Regenerated on every build, so that a removed name leaves no page behind.
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)

    import gpuarr

    ufunc_type = getattr(gpuarr, "ufunc", None)
    toc, skipped = [], []
    for modname in NAMESPACES:
        text, why = _namespace_page(modname, ufunc_type)
        if text is None:
            skipped.append(why)
            continue
        with open(os.path.join(out, f"{modname}.rst"), "w") as f:
            f.write(text)
        toc.append(modname)

    index = ["API reference", "=============", "",
             "One page per public namespace, generated from the package's ``__all__`` lists "
             "and its docstrings on every documentation build.", "",
             ".. toctree::", "   :maxdepth: 1", ""] + [f"   {m}" for m in toc] + [""]
    if skipped:
        index += ["Not documented by this build:", ""] + [f"- {s}" for s in skipped] + [""]
    with open(os.path.join(out, "reference.rst"), "w") as f:
        f.write("\n".join(index))

    with open(os.path.join(out, "numpy_comparison.md"), "w") as f:
        f.write(_comparison_page(os.path.dirname(docs_dir)))

    with open(os.path.join(out, "config_table.md"), "w") as f:
        f.write(_config_table())

    nb_src = os.path.join(os.path.dirname(docs_dir), "notebooks")
    nb_out = os.path.join(out, "notebooks")
    os.makedirs(nb_out)
    for name in sorted(os.listdir(nb_src)):
        if name.endswith(".ipynb"):
            shutil.copy(os.path.join(nb_src, name), nb_out)
