"""NumPy's public API against gpuarr's, name by name (host-only: hasattr, no device).

Every public name of ``numpy``, ``numpy.linalg``, ``numpy.fft``, ``numpy.random`` and of
``numpy.ndarray`` on the installed NumPy is in exactly one class: implemented (the matching
gpuarr namespace has it), not applicable (``not_applicable`` in numpy_inventory.toml, with a
reason), or not implemented yet (``known_missing`` there, the worklist). A name NumPy adds is
in none of them and fails the test; so does a worklist name that gpuarr now has (delete its
line) and a not-applicable name that gpuarr implements after all. A listed name that a later
NumPy drops stays listed, for the earlier NumPy versions gpuarr supports, with the version
that removed it (``removed_in``).
"""

import pathlib
import tomllib

import numpy as np
import pytest

import gpuarr
import gpuarr.fft
import gpuarr.linalg
import gpuarr.random

DATA_PATH = pathlib.Path(__file__).resolve().parent / "numpy_inventory.toml"
DATA = tomllib.loads(DATA_PATH.read_text())

# Inventory section -> (NumPy's namespace, gpuarr's).
NAMESPACES = {
    "numpy": (np, gpuarr),
    "numpy.linalg": (np.linalg, gpuarr.linalg),
    "numpy.fft": (np.fft, gpuarr.fft),
    "numpy.random": (np.random, gpuarr.random),
    "ndarray": (np.ndarray, gpuarr.ndarray),
}


_NUMPY_VERSION = tuple(int(p) for p in np.__version__.split(".")[:2])


def _version(text):
    return tuple(int(p) for p in text.split(".")[:2])


def _public_names(obj):
    return sorted(n for n in dir(obj) if not n.startswith("_"))


def _section(key):
    section = DATA.get(key, {})
    return list(section.get("known_missing", [])), dict(section.get("not_applicable", {}))


def _removed_in(key):
    """Listed names that later NumPy versions drop: name -> the version that removed it."""
    return dict(DATA.get(key, {}).get("removed_in", {}))


def _classify(key):
    """(implemented, not applicable, known missing, unclassified) names of one namespace."""
    numpy_ns, gpuarr_ns = NAMESPACES[key]
    missing, not_applicable = _section(key)
    classes = ([], [], [], [])
    for name in _public_names(numpy_ns):
        if hasattr(gpuarr_ns, name):
            classes[0].append(name)
        elif name in not_applicable:
            classes[1].append(name)
        elif name in missing:
            classes[2].append(name)
        else:
            classes[3].append(name)
    return classes


keys = pytest.mark.parametrize("key", list(NAMESPACES))


def test_the_data_file_has_exactly_the_namespaces():
    assert set(DATA) == set(NAMESPACES)
    for key, section in DATA.items():
        assert set(section) <= {"known_missing", "not_applicable", "removed_in"}, key


@keys
def test_every_numpy_name_is_classified(key):
    unclassified = _classify(key)[3]
    assert not unclassified, (
        f"{key}: NumPy names that gpuarr neither implements nor lists in {DATA_PATH.name} "
        f"(add each to known_missing, or to not_applicable with a reason): {unclassified}")


@keys
def test_known_missing_names_are_missing(key):
    missing, _ = _section(key)
    gpuarr_ns = NAMESPACES[key][1]
    landed = [n for n in missing if hasattr(gpuarr_ns, n)]
    assert not landed, (
        f"{key}: implemented now; delete these lines from known_missing in "
        f"{DATA_PATH.name}: {landed}")


@keys
def test_not_applicable_names_are_not_implemented(key):
    _, not_applicable = _section(key)
    gpuarr_ns = NAMESPACES[key][1]
    both = [n for n in not_applicable if hasattr(gpuarr_ns, n)]
    assert not both, f"{key}: listed as not applicable but implemented: {both}"


@keys
def test_entries_are_numpy_names_listed_once(key):
    missing, not_applicable = _section(key)
    # Names this NumPy dropped (removed_in, checked below) count as NumPy's.
    names = set(_public_names(NAMESPACES[key][0])) | set(_removed_in(key))
    assert not set(missing) - names, (
        f"{key}: not NumPy names (any more; if a NumPy version gpuarr supports still has "
        f"them, add them to removed_in): {set(missing) - names}")
    assert not set(not_applicable) - names, (
        f"{key}: not NumPy names (any more; if a NumPy version gpuarr supports still has "
        f"them, add them to removed_in): {set(not_applicable) - names}")
    assert missing == sorted(set(missing)), f"{key}: known_missing is not sorted and unique"
    assert not set(missing) & set(not_applicable), f"{key}: in both lists"


@keys
def test_removed_names_are_listed_and_gone_from_that_version_on(key):
    missing, not_applicable = _section(key)
    names = set(_public_names(NAMESPACES[key][0]))
    for name, version in _removed_in(key).items():
        assert name in missing or name in not_applicable, f"{key}: {name} is in neither list"
        present = _NUMPY_VERSION < _version(version)
        assert (name in names) == present, (
            f"{key}: NumPy {np.__version__} {'lacks' if present else 'has'} {name}, "
            f"which removed_in says NumPy {version} removed")


@keys
def test_not_applicable_reasons_are_one_line(key):
    _, not_applicable = _section(key)
    for name, reason in not_applicable.items():
        assert isinstance(reason, str) and reason.strip() and "\n" not in reason, name


def test_classify_sees_a_new_numpy_name(monkeypatch):
    monkeypatch.setattr(np.fft, "brand_new_transform", lambda a: a, raising=False)
    assert "brand_new_transform" in _classify("numpy.fft")[3]


def test_counts(capsys):
    totals = [0, 0, 0]
    rows = []
    for key in NAMESPACES:
        implemented, not_applicable, missing, unclassified = _classify(key)
        counts = (len(implemented), len(not_applicable), len(missing))
        rows.append(f"{key:14s} applicable {counts[0] + counts[2]:4d}  implemented "
                    f"{counts[0]:4d}  not applicable {counts[1]:4d}  known missing {counts[2]:4d}"
                    + (f"  unclassified {len(unclassified)}" if unclassified else ""))
        totals = [t + c for t, c in zip(totals, counts)]
    rows.append(f"{'total':14s} applicable {totals[0] + totals[2]:4d}  implemented "
                f"{totals[0]:4d}  not applicable {totals[1]:4d}  known missing {totals[2]:4d}")
    with capsys.disabled():
        print("\nNumPy API inventory (" + np.__version__ + "):\n" + "\n".join(rows))
    # Most of the applicable API is there (this fails if gpuarr's namespace stops importing
    # its modules, which would make every name look missing).
    assert totals[0] > 2 * totals[2]
