"""The import graph of the gpuarr package, read from its source with ``ast`` (host-only; the
extension is never imported).

Rules:
- A submodule imports ``gpuarr._core`` and sibling modules (``from gpuarr import _shape_ops``,
  ``from gpuarr.linalg import _eigen``, ``from gpuarr._core import ndarray``), never the
  ``gpuarr`` facade: no ``import gpuarr`` (in any spelling that binds the name ``gpuarr``)
  and no ``from gpuarr import <name>`` unless <name> is a module of the package. The facade
  is half-initialised while its submodules are imported, and its names are re-exports.
- gpuarr modules are imported at module level, never inside a function or class (an import
  there dodges a cycle instead of removing it).
- The module-level imports between gpuarr modules form a DAG.
- No module imports NumPy's private modules (``numpy._core``, ``numpy.lib._..._impl``,
  ``numpy.linalg._linalg``; ``numpy.core`` is the deprecated alias of ``numpy._core``) or
  reaches them through attributes (``np._core.x``, ``np.lib._function_base_impl``).
"""

import ast
import importlib
import pathlib

import pytest

PACKAGE_DIR = pathlib.Path(__file__).resolve().parent.parent / "python" / "gpuarr"
PACKAGE = "gpuarr"


def _module_name(path):
    rel = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE_DIR.rglob("*.py"))}
# The extension is a module of the package too (built, not in the source tree).
KNOWN = set(MODULES) | {PACKAGE + "._core"}


def _is_package(name):
    return MODULES.get(name) is not None and MODULES[name].name == "__init__.py"


def _resolve(module, node):
    """The absolute module name of an ImportFrom in ``module``."""
    if node.level == 0:
        return node.module
    base = module.split(".")
    if not _is_package(module):
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module):
    """(node, imported module names, bound facade?, at module level?) for each import."""
    tree = ast.parse(MODULES[module].read_text(), filename=str(MODULES[module]))
    out = []

    def visit(node, nested):
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                 ast.ClassDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    out.append((child, alias.name, [alias.name], nested))
            elif isinstance(child, ast.ImportFrom):
                src = _resolve(module, child)
                targets = []
                for alias in child.names:
                    sub = f"{src}.{alias.name}"
                    targets.append(sub if sub in KNOWN else src)
                out.append((child, src, targets, nested))
            visit(child, inner)

    visit(tree, False)
    return tree, out


def _where(module, node):
    return f"{MODULES[module].relative_to(PACKAGE_DIR.parent)}:{node.lineno}"


def test_the_package_is_found():
    assert PACKAGE in MODULES and f"{PACKAGE}._ufuncs" in MODULES and len(MODULES) > 20


# ``python -m gpuarr`` runs gpuarr.__main__ as a program once the package is initialised, and
# no module imports it: it is a user of the facade, not a part of it.
ENTRY_POINT = PACKAGE + ".__main__"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m not in (PACKAGE, ENTRY_POINT)))
def test_submodule_does_not_import_the_facade(module):
    _, imports = _imports(module)
    bad = []
    for node, src, targets, _ in imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                binds = alias.asname or alias.name.split(".")[0]
                if alias.name.split(".")[0] == PACKAGE and (alias.asname is None or
                                                             alias.name == PACKAGE):
                    bad.append(f"{_where(module, node)}: import {alias.name}"
                               + (f" as {alias.asname}" if alias.asname else "")
                               + f" (binds the facade as {binds!r})")
        elif src == PACKAGE:
            for alias in node.names:
                if f"{PACKAGE}.{alias.name}" not in KNOWN:
                    bad.append(f"{_where(module, node)}: from {PACKAGE} import {alias.name} "
                               "(a facade name, not a module)")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_gpuarr_modules_are_imported_at_module_level(module):
    _, imports = _imports(module)
    bad = [f"{_where(module, node)}: {ast.unparse(node)}"
           for node, src, targets, nested in imports
           if nested and (src == PACKAGE or src.startswith(PACKAGE + "."))]
    assert not bad, "imports of gpuarr modules inside a function or class:\n" + "\n".join(bad)


def _graph():
    graph = {}
    for module in MODULES:
        deps = set()
        for _, src, targets, nested in _imports(module)[1]:
            if nested:
                continue
            deps.update(t for t in targets if t in KNOWN and t != module)
        graph[module] = deps
    return graph


def test_import_graph_is_a_dag():
    graph = _graph()
    state = {}
    stack = []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == "open":
                cycle = stack[stack.index(d):] + [d]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if d not in state:
                visit(d)
        stack.pop()
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_graph_reader_sees_edges():
    graph = _graph()
    assert f"{PACKAGE}._core" in graph[f"{PACKAGE}._ufuncs"]
    assert f"{PACKAGE}.linalg._eigen" in graph[f"{PACKAGE}.linalg._solvers"]


def _numpy_private(dotted):
    parts = dotted.split(".")
    if parts[0] != "numpy":
        return False
    return any(p.startswith("_") and not p.startswith("__") for p in parts[1:]) or \
        (len(parts) > 1 and parts[1] == "core")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_numpy_private_modules(module):
    tree, imports = _imports(module)
    bad = []
    aliases = set()
    for node, src, targets, _ in imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _numpy_private(alias.name):
                    bad.append(f"{_where(module, node)}: import {alias.name}")
                if alias.name == "numpy":
                    aliases.add(alias.asname or "numpy")
        elif src and (_numpy_private(src) or any(
                _numpy_private(f"{src}.{a.name}") for a in node.names if src == "numpy")):
            bad.append(f"{_where(module, node)}: {ast.unparse(node)}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain = []
            n = node
            while isinstance(n, ast.Attribute):
                chain.append(n.attr)
                n = n.value
            if isinstance(n, ast.Name) and n.id in aliases:
                dotted = "numpy." + ".".join(reversed(chain))
                if _numpy_private(dotted):
                    bad.append(f"{_where(module, node)}: {ast.unparse(node)}")
    assert not bad, "NumPy private modules:\n" + "\n".join(sorted(set(bad)))


def test_numpy_private_rule():
    assert _numpy_private("numpy._core.multiarray")
    assert _numpy_private("numpy.lib._function_base_impl")
    assert _numpy_private("numpy.core")
    assert not _numpy_private("numpy.lib.array_utils")
    assert not _numpy_private("numpy.__version__")
    assert not _numpy_private("numpy.linalg")


def _names_bound_to(tree, module, name):
    """Names a module binds to gpuarr._core.<name> (``from gpuarr._core import ndarray as _n``)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _resolve(module, node) == f"{PACKAGE}._core":
            bound.update(a.asname or a.name for a in node.names if a.name == name)
    return bound


@pytest.mark.parametrize("module", sorted(m for m in MODULES
                                          if m != f"{PACKAGE}._ndarray_methods"))
def test_ndarray_methods_are_attached_in_one_module(module):
    """ndarray's (and ufunc's) Python-level methods come from the table in _ndarray_methods:
    no other module assigns attributes on those classes."""
    tree, _ = _imports(module)
    classes = _names_bound_to(tree, module, "ndarray") | _names_bound_to(tree, module, "ufunc")

    def is_class(node):
        if isinstance(node, ast.Name):
            return node.id in classes
        return (isinstance(node, ast.Attribute) and node.attr in ("ndarray", "ufunc") and
                isinstance(node.value, ast.Name) and node.value.id == "_core")

    bad = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        bad += [f"{_where(module, node)}: {ast.unparse(t)}" for t in targets
                if isinstance(t, ast.Attribute) and is_class(t.value)]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "setattr" and node.args and is_class(node.args[0]):
            bad.append(f"{_where(module, node)}: {ast.unparse(node)}")
    assert not bad, "attributes set on ndarray/ufunc outside _ndarray_methods:\n" + \
        "\n".join(bad)


@pytest.mark.parametrize("name", ["gpuarr", "gpuarr.linalg", "gpuarr.fft", "gpuarr.random"])
def test_all_names_each_public_name_once(name):
    # The reference site and `from gpuarr import *` read __all__: a name listed twice is a
    # module's list added twice.
    names = importlib.import_module(name).__all__
    repeated = sorted({n for n in names if names.count(n) > 1})
    assert not repeated, repeated
