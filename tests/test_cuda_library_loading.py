"""cuBLAS, cuSOLVER, cuFFT and NVRTC are loaded on first use, not linked: ``import gpuarr``
maps none of them, each is found in NVIDIA's pip wheel layout (``nvidia/cu13/lib`` under a
``sys.path`` entry) before the system's search, and one that cannot be found raises
``gpuarr.cuda.LibraryLoadError`` naming the file, its use and the pip package.

Everything but the last test runs without a GPU (dlopen and the libraries' version queries
need none); each case runs in a fresh interpreter, since a loaded library stays loaded."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

import gpuarr
from conftest import gpu_test

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIBRARIES = ("cublas", "cusolver", "cufft", "nvrtc")
# The file names the four libraries are looked for under (their sonames' stems).
STEMS = {"cublas": "libcublas.so.", "cusolver": "libcusolver.so.", "cufft": "libcufft.so.",
         "nvrtc": "libnvrtc.so."}
PACKAGES = {"cublas": "nvidia-cublas", "cusolver": "nvidia-cusolver", "cufft": "nvidia-cufft",
            "nvrtc": "nvidia-cuda-nvrtc"}
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(gpuarr.__file__)))


def run_python(code, extra_path=()):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [*map(str, extra_path), PACKAGE_PARENT]
        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


MAPPED = """
def mapped():
    with open("/proc/self/maps") as f:
        return sorted({line.split()[-1] for line in f if "/" in line})
"""


def _system_libraries():
    """{name: path} of the four libraries as this machine's search finds them, or a skip."""
    out = run_python("""
        import json
        import gpuarr
        paths, errors = {}, {}
        for name in ("cublas", "cusolver", "cufft", "nvrtc"):
            try:
                paths[name] = gpuarr._core._load_cuda_library(name)
            except gpuarr.cuda.LibraryLoadError as e:
                errors[name] = str(e)
        print(json.dumps([paths, errors]))
    """)
    paths, errors = out
    if errors:
        pytest.skip(f"CUDA libraries missing on this machine: {errors}")
    return paths


def _extension():
    return pathlib.Path(gpuarr._core.__file__)


def test_generated_stubs_are_current():
    import importlib.util
    path = ROOT / "tools" / "generate_cuda_library_stubs.py"
    spec = importlib.util.spec_from_file_location("generate_cuda_library_stubs", path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    include = tool.cuda_include_dir()
    if include is None:
        pytest.skip("no CUDA toolkit headers to generate the stubs from")
    if shutil.which(os.environ.get("CXX") or "c++") is None:
        pytest.skip("no C++ compiler to preprocess the CUDA headers")
    assert tool.TARGET.read_text() == tool.generate(include), \
        "run python tools/generate_cuda_library_stubs.py"


def test_extension_links_none_of_them():
    if shutil.which("readelf") is None:
        pytest.skip("no readelf")
    dynamic = subprocess.run(["readelf", "-d", "-W", str(_extension())], capture_output=True,
                             text=True, check=True).stdout
    needed = [line for line in dynamic.splitlines() if "(NEEDED)" in line]
    assert needed
    for stem in STEMS.values():
        assert not [line for line in needed if stem in line], needed
    # Every library function gpuarr calls is defined in the extension (generated stubs).
    symbols = subprocess.run(["readelf", "--dyn-syms", "-W", str(_extension())],
                             capture_output=True, text=True, check=True).stdout
    undefined = [line.split()[-1] for line in symbols.splitlines()
                 if " UND " in line and line.split()[-1].startswith(LIBRARIES)]
    assert undefined == []


def test_import_loads_none_of_them():
    out = run_python(MAPPED + textwrap.dedent("""
        import json
        import gpuarr
        print(json.dumps([mapped(), gpuarr.cuda.library_paths()]))
    """))
    maps, paths = out
    loaded = [m for m in maps if any(stem in os.path.basename(m) for stem in STEMS.values())]
    assert loaded == []
    assert paths == dict.fromkeys(LIBRARIES)


def test_each_loads_on_first_use():
    out = run_python(MAPPED + textwrap.dedent("""
        import json
        import gpuarr
        steps = []
        for name in ("cublas", "cusolver", "cufft", "nvrtc"):
            try:
                path = gpuarr._core._load_cuda_library(name)
            except gpuarr.cuda.LibraryLoadError as e:
                path = "missing: " + str(e)
            steps.append([name, path, gpuarr.cuda.library_paths(), mapped()])
        print(json.dumps(steps))
    """))
    for i, (name, path, paths, maps) in enumerate(out):
        if path.startswith("missing: "):
            pytest.skip(path)
        assert os.path.basename(path).startswith(STEMS[name])
        assert paths[name] == path
        # Loaded one by one: the libraries after this one are not loaded yet.
        assert all(paths[later] is None for later, *_ in out[i + 1:])
        assert os.path.realpath(path) in {os.path.realpath(m) for m in maps}


def test_versions_are_read_from_the_loaded_libraries():
    out = run_python("""
        import json
        import gpuarr
        print(json.dumps([gpuarr._core._library_versions(), gpuarr.cuda.library_paths()]))
    """)
    versions, paths = out
    for name in LIBRARIES:
        assert (versions[name] > 0) == (paths[name] is not None), (name, versions, paths)


@pytest.mark.parametrize("layout", ["nvidia/cu{major}/lib", "nvidia/{name}/lib"])
def test_pip_wheel_layout_comes_first(tmp_path, layout):
    system = _system_libraries()
    site = tmp_path / "site-packages"
    wheel_dirs = {"cublas": "cublas", "cusolver": "cusolver", "cufft": "cufft",
                  "nvrtc": "cuda_nvrtc"}
    major = int(os.path.basename(system["nvrtc"]).split(".so.")[1])
    expected = {}
    for name, path in system.items():
        lib = site / layout.format(major=major, name=wheel_dirs[name])
        lib.mkdir(parents=True, exist_ok=True)
        # The library's whole directory, as a wheel brings its dependencies along
        # (cuBLASLt, nvJitLink, cuSPARSE).
        source = pathlib.Path(path).parent
        for f in source.iterdir():
            if f.name.startswith("lib") and ".so" in f.name and not (lib / f.name).exists():
                (lib / f.name).symlink_to(f.resolve())
        expected[name] = str(lib / os.path.basename(path))
    out = run_python("""
        import json
        import gpuarr
        print(json.dumps(gpuarr.cuda.library_paths(load=True)))
    """, extra_path=[site])
    assert out == expected


def _missing(code, search_dir):
    return run_python(f"""
        import json
        import gpuarr
        from gpuarr import _core
        _core._set_cuda_library_search([{str(search_dir)!r}], system=False, toolkit=False)
        out = {{}}
        {textwrap.indent(textwrap.dedent(code), " " * 8).strip()}
        print(json.dumps(out))
    """)


def test_missing_library_says_what_where_and_how(tmp_path):
    empty = tmp_path / "empty-site"
    (empty / "nvidia" / "cu13" / "lib").mkdir(parents=True)
    out = _missing("""
        for name in ("cublas", "cusolver", "cufft", "nvrtc"):
            try:
                _core._load_cuda_library(name)
                out[name] = None
            except gpuarr.cuda.LibraryLoadError as e:
                out[name] = [str(e), isinstance(e, gpuarr.cuda.CUDARuntimeError),
                             isinstance(e, RuntimeError)]
        try:
            gpuarr.cuda.library_paths(load=True)
        except gpuarr.cuda.LibraryLoadError as e:
            out["library_paths"] = str(e)
        out["paths"] = gpuarr.cuda.library_paths()
        import io
        text = io.StringIO()
        gpuarr.show_config(file=text)  # never raises
        out["show_config"] = text.getvalue()
    """, empty)
    for name in LIBRARIES:
        message, is_cuda_error, is_runtime_error = out[name]
        assert is_cuda_error and is_runtime_error
        assert " could not be loaded; gpuarr uses it for " in message, message
        assert f"({STEMS[name]}" in message
        assert f'pip install "{PACKAGES[name]}==' in message
        assert "or install the CUDA 13 toolkit" in message
        assert str(empty) in message
        assert "LD_LIBRARY_PATH" not in message  # the system's search was turned off
    assert out["library_paths"] == out["cublas"][0]
    assert out["paths"] == dict.fromkeys(LIBRARIES)
    assert "Libraries: cuBLAS not found" in out["show_config"]


def test_unloadable_file_is_reported(tmp_path):
    lib = tmp_path / "site" / "nvidia" / "cu13" / "lib"
    lib.mkdir(parents=True)
    broken = lib / "libcufft.so.12"
    broken.write_text("not a shared library")
    out = _missing("""
        try:
            _core._load_cuda_library("cufft")
        except gpuarr.cuda.LibraryLoadError as e:
            out["error"] = str(e)
    """, tmp_path / "site")
    assert f"Found but not loadable: {broken} (" in out["error"], out["error"]


def test_failure_is_not_remembered(tmp_path):
    _system_libraries()
    out = _missing("""
        try:
            _core._load_cuda_library("nvrtc")
        except gpuarr.cuda.LibraryLoadError:
            out["first"] = "failed"
        _core._set_cuda_library_search([], system=True, toolkit=True)
        out["second"] = _core._load_cuda_library("nvrtc")
    """, tmp_path)
    assert out["first"] == "failed"
    assert os.path.basename(out["second"]).startswith(STEMS["nvrtc"])


def test_build_toolkit_is_the_last_resort(tmp_path):
    out = _missing("""
        _core._set_cuda_library_search([], system=False, toolkit=True)
        try:
            out["path"] = _core._load_cuda_library("nvrtc")
        except gpuarr.cuda.LibraryLoadError as e:
            out["error"] = str(e)
    """, tmp_path)
    if "error" in out:  # an installed wheel on a machine without the build's toolkit
        pytest.skip(f"the toolkit gpuarr was built with is not here: {out['error']}")
    assert os.path.basename(out["path"]).startswith(STEMS["nvrtc"])


def test_unknown_library_name():
    with pytest.raises(ValueError, match="no CUDA library named 'cudnn'"):
        gpuarr._core._load_cuda_library("cudnn")


@gpu_test
def test_each_library_works_in_a_fresh_process():
    out = run_python("""
        import json
        import numpy as np
        import gpuarr
        before = gpuarr.cuda.library_paths()
        rng = np.random.default_rng(0)
        h = rng.standard_normal((64, 64)) + 64 * np.eye(64)
        a = gpuarr.asarray(h)
        x = gpuarr.sin(a)  # elementwise: built-in kernel, no library
        after_elementwise = gpuarr.cuda.library_paths()
        from gpuarr import _config
        with _config.override(GPUARR_LU_ROUTE="cusolver"):  # Xgetrf, not our own LU
            solved = gpuarr.asnumpy(gpuarr.linalg.solve(a, a[:, 0]))
        checks = {
            "cublas": np.allclose(gpuarr.asnumpy(a @ a), h @ h),
            "cusolver": np.allclose(solved, np.linalg.solve(h, h[:, 0])),
            "cufft": np.allclose(gpuarr.asnumpy(gpuarr.fft.fft(a)), np.fft.fft(h)),
            "nvrtc": np.allclose(gpuarr.asnumpy(gpuarr.fuse(lambda u: u * u + 1.0)(x)),
                                 np.sin(h) ** 2 + 1.0),
        }
        print(json.dumps([before, after_elementwise, checks, gpuarr.cuda.library_paths()]))
    """)
    before, after_elementwise, checks, paths = out
    print("library paths:", paths)
    assert before == dict.fromkeys(LIBRARIES)
    assert after_elementwise == dict.fromkeys(LIBRARIES)
    assert checks == dict.fromkeys(LIBRARIES, True)
    for name in LIBRARIES:
        assert paths[name] and os.path.exists(paths[name]), paths


def test_nvrtc_builtins_come_from_nvrtcs_directory(tmp_path):
    """NVRTC dlopens its builtins library by soname, which the system's search finds only in
    a toolkit registered with ld.so: gpuarr loads the copy beside the NVRTC it loaded (a
    wheel's), so that NVRTC neither fails without a toolkit nor mixes in the toolkit's."""
    system = _system_libraries()
    source = pathlib.Path(system["nvrtc"]).resolve().parent
    builtins = sorted(f.name for f in source.iterdir()
                      if re.fullmatch(r"libnvrtc-builtins\.so\.[0-9.]+", f.name))
    if not builtins:
        pytest.skip(f"no libnvrtc-builtins.so.* beside {system['nvrtc']}")
    soname = min(builtins, key=lambda n: n.count("."))
    major = int(os.path.basename(system["nvrtc"]).split(".so.")[1])
    lib = tmp_path / "site-packages" / f"nvidia/cu{major}/lib"
    lib.mkdir(parents=True)
    nvrtc = os.path.basename(system["nvrtc"])
    shutil.copy(pathlib.Path(system["nvrtc"]).resolve(), lib / nvrtc)
    shutil.copy((source / soname).resolve(), lib / soname)
    out = run_python(MAPPED + """
import json
import gpuarr
paths = gpuarr.cuda.library_paths(load=True)
print(json.dumps([paths["nvrtc"], [m for m in mapped() if "nvrtc-builtins" in m]]))
""", extra_path=[tmp_path / "site-packages"])
    assert out == [str(lib / nvrtc), [str(lib / soname)]]
