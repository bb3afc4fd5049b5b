"""gpuarr's configuration: every GPUARR_* environment variable the library reads (the
registry in cpp/runtime/config.cpp), and what a bug report needs to know about the build,
the CUDA libraries and the devices.

``show_config()`` prints it, ``get_config()`` returns it as a dict; both work without a
GPU and never raise. ``override(...)`` changes settings for the duration of a ``with``
block (tests use it instead of the process environment).
"""

import contextlib
import os
import sys

import numpy as _np

from gpuarr import _core

__all__ = ["show_config", "get_config"]


def _settings():
    settings = {}
    for name in _core._config_names():
        type_text, default, meaning = _core._config_info(name)
        try:
            value, source = _core._config_value(name)
        except ValueError as e:  # a bad value in the environment: reported, not raised
            value, source = None, f"invalid environment value ({e})"
        settings[name] = {"value": value, "default": default, "source": source,
                          "type": type_text, "meaning": meaning}
    return settings


def _git_commit():
    """The commit of the source tree gpuarr is imported from, when it is a git checkout."""
    import subprocess  # only for bug reports: kept off `import gpuarr`'s path

    here = os.path.dirname(os.path.abspath(__file__))
    try:
        r = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True,
                           text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return (r.stdout.strip() or None) if r.returncode == 0 else None


def _version():
    mod = sys.modules.get("gpuarr")  # the package, imported by the time anyone asks
    v = getattr(mod, "__version__", None)
    if v:
        return v
    try:
        from importlib.metadata import version
        return version("gpuarr")
    except Exception:  # not installed (a source tree on sys.path)
        return None


def _version_text(v, layout):
    """A CUDA-style integer version as text. "mm": 1000 * major + 10 * minor (runtime,
    driver, NVRTC: 13000 -> 13.0); "mmp": 10000 * major + 100 * minor + patch (cuBLAS,
    cuSOLVER: 130100 -> 13.1.0); "cufft": 1000 * major + 100 * minor + patch."""
    if not v:
        return None
    if layout == "mm":
        return f"{v // 1000}.{(v % 1000) // 10}"
    if layout == "mmp":
        return f"{v // 10000}.{(v % 10000) // 100}.{v % 100}"
    return f"{v // 1000}.{(v % 1000) // 100}.{v % 100}"


def _libraries():
    try:
        v = _core._library_versions()  # loads cuBLAS, cuSOLVER, cuFFT and NVRTC
        files = _core._cuda_library_paths()
    except Exception as e:  # noqa: BLE001  (a report must not fail)
        return {"error": str(e)}

    def version(name, layout):
        if files[name] is None:
            return "not found"
        return _version_text(v[name], layout)

    return {
        "cuda_runtime": _version_text(v["runtime"], "mm"),
        "cuda_driver": _version_text(v["driver"], "mm"),
        "cublas": version("cublas", "mmp"),
        "cusolver": version("cusolver", "mmp"),
        "cufft": version("cufft", "cufft"),
        "nvrtc": version("nvrtc", "mm"),
        "files": dict(files),
    }


def _devices():
    try:
        n = _core.device_count()
    except Exception as e:  # noqa: BLE001
        return [], f"device query failed: {e}"
    if n == 0:
        return [], _core.no_device_reason()
    devices = []
    for i in range(n):
        try:
            p = _core.device_properties(i)
            name = p["name"].decode(errors="replace") if isinstance(p["name"], bytes) else p["name"]
            routing = _core._routing_thresholds(10 * p["major"] + p["minor"])
            devices.append({"id": i, "name": name,
                            "compute_capability": f"{p['major']}.{p['minor']}",
                            "routing_thresholds": (
                                "measured on this architecture" if routing["measured"] else
                                f"not measured here: {routing['measured_on']}'s figures "
                                "(docs/routing.md)"),
                            "memory_bytes": int(p["totalGlobalMem"]),
                            "multiprocessors": int(p["multiProcessorCount"])})
        except Exception as e:  # noqa: BLE001
            devices.append({"id": i, "error": str(e)})
    return devices, None


def get_config():
    """Everything ``show_config()`` prints, as a dict: ``settings`` (name -> value, default,
    source, type, meaning), ``gpuarr`` (version, git commit), ``build``, ``python``,
    ``numpy``, ``libraries`` (CUDA runtime, driver, cuBLAS, cuSOLVER, cuFFT, NVRTC versions,
    and under ``files`` the file each library was loaded from) and
    ``devices`` (empty with ``no_device_reason`` when there is no CUDA device)."""
    try:
        build = dict(_core._build_info())
    except Exception as e:  # noqa: BLE001
        build = {"error": str(e)}
    devices, no_device = _devices()
    import platform  # only for bug reports: kept off `import gpuarr`'s path

    return {
        "gpuarr": {"version": _version(), "git_commit": _git_commit(),
                   "path": os.path.dirname(os.path.abspath(__file__))},
        "build": build,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "numpy": _np.__version__,
        "libraries": _libraries(),
        "devices": devices,
        "no_device_reason": no_device,
        "settings": _settings(),
    }


def show_config(file=None):
    """Prints gpuarr's configuration: version, build, Python/NumPy, the CUDA libraries, the
    devices and every GPUARR_* setting with its value, default and where it came from
    (``default``, ``environment`` or ``override``). Works without a GPU."""
    c = get_config()
    out = file if file is not None else sys.stdout
    g, b, lib = c["gpuarr"], c["build"], c["libraries"]

    def line(text=""):
        print(text, file=out)

    commit = f" (git {g['git_commit'][:12]})" if g["git_commit"] else ""
    line(f"gpuarr {g['version'] or 'unknown version'}{commit}  {g['path']}")
    line(f"Python {c['python']}, NumPy {c['numpy']}, {c['platform']}")
    if "error" in b:
        line(f"Build: unknown ({b['error']})")
    else:
        line(f"Build: CUDA toolkit {b['cuda_toolkit'] or '?'}, architectures "
             f"{b['cuda_architectures'] or '?'}, {b['build_type'] or '?'}, "
             f"C++ {b['cxx_compiler']}, pybind11 {b['pybind11']}")
    if "error" in lib:
        line(f"CUDA libraries: unknown ({lib['error']})")
    else:
        line(f"CUDA runtime {lib['cuda_runtime'] or '?'}, driver "
             f"{lib['cuda_driver'] or 'none'}")
        line(f"Libraries: cuBLAS {lib['cublas'] or '?'}, cuSOLVER {lib['cusolver'] or '?'}, "
             f"cuFFT {lib['cufft'] or '?'}, NVRTC {lib['nvrtc'] or '?'}")
        missing = "not found: gpuarr.cuda.library_paths(load=True) says where gpuarr looked"
        for name, path in lib["files"].items():
            line(f"  {name + ':':<9} {path or missing}")
    if c["devices"]:
        line("Devices:")
        for d in c["devices"]:
            if "error" in d:
                line(f"  {d['id']}: {d['error']}")
            else:
                line(f"  {d['id']}: {d['name']}, compute capability {d['compute_capability']}, "
                     f"{d['memory_bytes'] / 2**30:.1f} GiB, {d['multiprocessors']} SMs; "
                     f"routing thresholds {d['routing_thresholds']}")
    else:
        line(f"Devices: no CUDA device ({c['no_device_reason']})")
    line("Settings (GPUARR_* environment variables):")
    width = max((len(n) for n in c["settings"]), default=0)
    for name, s in c["settings"].items():
        value = "?" if s["value"] is None else (s["value"] or '""')
        default = s["default"] or '""'
        line(f"  {name:<{width}} = {value}  [{s['source']}; default {default}; {s['type']}]")
        line(f"  {'':<{width}}   {s['meaning']}")


def _text(value):
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


@contextlib.contextmanager
def override(**settings):
    """Sets GPUARR_* settings for the duration of a ``with`` block, as if the environment had
    held these values (``override(GPUARR_LU_ROUTE="cusolver")``); restores the previous
    values on exit. A bad value raises ValueError naming the variable. Only settings read at
    each use take effect after their first use (see cpp/runtime/config.cpp)."""
    pushed = []
    try:
        for name, value in settings.items():
            _core._config_push(name, _text(value))
            pushed.append(name)
        yield
    finally:
        for name in reversed(pushed):
            _core._config_pop(name)
