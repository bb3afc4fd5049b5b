#!/usr/bin/env bash
# Runs the Array API conformance suite (data-apis/array-api-tests) against gpuarr and writes a
# JSON report and a one-line summary.
#
#   tools/run_array_api_tests.sh [SUITE_DIR] [MAX_EXAMPLES] [EXTRA_PYTEST_ARGS...]
#   tools/run_array_api_tests.sh --summarize REPORT.json...   (one line for several runs)
#
# SUITE_DIR     the suite's working tree with its `array-api` spec submodule checked out
#               (default: .aat/array-api-tests in the repository, git-ignored)
# MAX_EXAMPLES  Hypothesis examples per test (default 200)
# EXTRA_PYTEST_ARGS  passed to pytest after the runner's own; test paths among them
#               (array_api_tests/test_x.py[::test_y]) replace the default `array_api_tests/`.
#
# Environment (all optional):
#   AAT_WHEELS      folder of the wheels the suite needs beyond pytest/xdist/hypothesis/numpy
#                   (ndindex, pytest-json-report, pytest-metadata; a newer hypothesis, with
#                   sortedcontainers, is used only when the installed one is older than the
#                   suite requires);
#                   default: SUITE_DIR/../wheels
#   AAT_REPORT_DIR  where reports go (default: SUITE_DIR/../reports)
#   AAT_WORKERS     pytest-xdist workers (default 8; 0 runs in one process)
#   AAT_TIME_LIMIT  seconds after which pytest is interrupted (SIGINT), so that it still
#                   writes its report (the tests not run yet are missing from it)
#   GPUARR_PYTHONPATH  folder holding the gpuarr package (default: the repository's python/,
#                   with its built _core; set it empty to use the installed gpuarr)
#   ARRAY_API_TESTS_MODULE (default gpuarr), ARRAY_API_TESTS_VERSION (default 2024.12)
#
# The suite reads xfails.txt / skips.txt from its folder when they exist; the measurement is
# made without them, so the runner refuses to start when either is there.
# Exit status: pytest's (0 all passed, 1 some failed), or 2 for a setup error.
set -uo pipefail

die() { echo "run_array_api_tests: $*" >&2; exit 2; }

summarize() {  # python interpreter, then report files
  local py=$1; shift
  "$py" - "$@" <<'EOF'
import json, sys
paths = sys.argv[1:]
counts, failing, commit, examples, labels = {}, [], set(), set(), set()
interrupted = collected = 0
for path in paths:
    with open(path) as f:
        report = json.load(f)
    for k, v in report.get("summary", {}).items():
        if isinstance(v, int):
            counts[k] = counts.get(k, 0) + v
    failing += [t["nodeid"] for t in report.get("tests", [])
                if t.get("outcome") in ("failed", "error")]
    meta = report.get("aat_runner", {})
    commit.add(meta.get("suite_commit", "unknown"))
    examples.add(str(meta.get("max_examples", "?")))
    labels.add(f"{meta.get('module', '?')} {meta.get('version', '?')}")
    interrupted += report.get("exitcode") == 2
    collected += report.get("summary", {}).get("collected", 0)
passed, failed = counts.get("passed", 0), counts.get("failed", 0)
rate = 100.0 * passed / (passed + failed) if passed + failed else 0.0
others = ", ".join(f"{counts[k]} {k}" for k in ("skipped", "xfailed", "xpassed", "error")
                   if counts.get(k))
line = (f"array-api-tests {'+'.join(sorted(commit))} {'+'.join(sorted(labels))} "
        f"max-examples={'+'.join(sorted(examples))}: "
        f"{passed} passed / {failed} failed ({rate:.1f}%)" + (f", {others}" if others else "")
        + f" of {collected} collected"
        + (f" [{len(paths)} reports]" if len(paths) > 1 else "")
        + (f" INTERRUPTED ({interrupted} of the runs stopped early)" if interrupted else ""))
base = paths[0][:-len(".json")] + ("" if len(paths) == 1 else ".combined")
with open(base + ".summary.txt", "w") as f:
    f.write(line + "\n")
with open(base + ".failures.txt", "w") as f:
    f.writelines(n + "\n" for n in sorted(failing))
print(line)
print(f"failing node ids: {base}.failures.txt")
EOF
}

if [ "${1:-}" = --summarize ]; then
  shift
  [ $# -gt 0 ] || die "--summarize needs report files"
  for f in "$@"; do [ -f "$f" ] || die "no report '$f'"; done
  summarize "${PYTHON:-python3}" "$@"
  exit $?
fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
suite=${1:-$repo/.aat/array-api-tests}
max_examples=${2:-200}
if [ $# -gt 0 ]; then shift; fi
if [ $# -gt 0 ]; then shift; fi

[ -d "$suite" ] || die "suite folder '$suite' does not exist. Put a working tree of
  data-apis/array-api-tests there (with its array-api submodule); see docs/array-api-tests.md"
suite=$(cd "$suite" && pwd)
[ -f "$suite/conftest.py" ] && [ -d "$suite/array_api_tests" ] \
  || die "'$suite' is not an array-api-tests working tree (no conftest.py / array_api_tests/)"
[ -d "$suite/array-api/src/array_api_stubs" ] \
  || die "'$suite/array-api' (the spec submodule) is empty: the suite reads the standard's
  signatures from array-api/src/array_api_stubs; check out data-apis/array-api at the commit
  the suite pins (git ls-tree <suite-commit> array-api)"
for f in xfails.txt skips.txt; do
  [ -e "$suite/$f" ] && die "'$suite/$f' exists; the measurement runs without xfails/skips files"
done
[[ "$max_examples" =~ ^[0-9]+$ ]] || die "MAX_EXAMPLES must be a number, got '$max_examples'"

wheels=${AAT_WHEELS:-$(dirname "$suite")/wheels}
[ -d "$wheels" ] || die "wheel folder '$wheels' does not exist (set AAT_WHEELS); fill it with
  pip download --no-deps --python-version 3.12 --only-binary=:all: -d '$wheels' \\
      ndindex==1.8 pytest-json-report pytest-metadata 'hypothesis>=6.151.0' sortedcontainers"

py=${PYTHON:-python3}
command -v "$py" >/dev/null || die "no '$py' on PATH (set PYTHON)"
gpuarr_path=${GPUARR_PYTHONPATH-$repo/python}
export ARRAY_API_TESTS_MODULE=${ARRAY_API_TESTS_MODULE:-gpuarr}
export ARRAY_API_TESTS_VERSION=${ARRAY_API_TESTS_VERSION:-2024.12}

# The carried wheels go into a private folder, in front of the interpreter's own packages.
target=$(mktemp -d "${TMPDIR:-/tmp}/aat-site.XXXXXX")
trap 'rm -rf "$target"' EXIT
need=(ndindex pytest_json_report pytest_metadata)
if ! "$py" - <<'EOF' 2>/dev/null
import hypothesis, sys
sys.exit(0 if tuple(map(int, hypothesis.__version__.split(".")[:2])) >= (6, 151) else 1)
EOF
then need+=(hypothesis sortedcontainers); fi
files=()
for n in "${need[@]}"; do
  w=$(ls "$wheels"/"$n"-*.whl 2>/dev/null | sort -V | tail -n 1)
  [ -n "$w" ] || die "no $n wheel in '$wheels' (pip download it there; see above)"
  files+=("$w")
done
# A wheel is a zip of an importable tree and its .dist-info (where pytest finds the plugins'
# entry points): unpacking it is installing it, and needs no pip on the machine.
"$py" -c 'import sys, zipfile
for w in sys.argv[2:]:
    zipfile.ZipFile(w).extractall(sys.argv[1])' "$target" "${files[@]}" \
  || die "could not unpack ${files[*]} into $target"

export PYTHONPATH="$target${gpuarr_path:+:$gpuarr_path}${PYTHONPATH:+:$PYTHONPATH}"
"$py" -c "import pytest, hypothesis, ndindex, pytest_jsonreport, numpy" \
  || die "the suite's dependencies do not import (pytest, hypothesis, numpy are expected installed)"
if [ "$ARRAY_API_TESTS_MODULE" = gpuarr ]; then
  "$py" -c "import gpuarr, gpuarr._core; gpuarr.zeros(1)" \
    || die "gpuarr does not import from '${gpuarr_path:-the installed packages}' or sees no GPU
  (is its _core built for $("$py" -V)? GPUARR_PYTHONPATH= uses an installed gpuarr)"
fi

workers=${AAT_WORKERS:-8}
xdist=()
if [ "$workers" != 0 ]; then
  "$py" -c "import xdist" 2>/dev/null || die "pytest-xdist is not installed (or set AAT_WORKERS=0)"
  xdist=(-n "$workers")
fi

targets=(array_api_tests/)
for a in "$@"; do
  case "$a" in array_api_tests/*) targets=(); break;; esac
done

report_dir=${AAT_REPORT_DIR:-$(dirname "$suite")/reports}
mkdir -p "$report_dir" || die "cannot create '$report_dir'"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
report="$report_dir/aat-$ARRAY_API_TESTS_MODULE-$max_examples-$stamp.json"
suite_commit=$(cat "$suite/SUITE_COMMIT" 2>/dev/null || git -C "$suite" rev-parse HEAD 2>/dev/null || echo unknown)

echo "array-api-tests $suite_commit: $ARRAY_API_TESTS_MODULE, version $ARRAY_API_TESTS_VERSION," \
     "--max-examples $max_examples, ${xdist[*]:-one process}"
limit=()
if [ -n "${AAT_TIME_LIMIT:-}" ]; then
  [[ "$AAT_TIME_LIMIT" =~ ^[0-9]+$ ]] || die "AAT_TIME_LIMIT must be a number of seconds"
  limit=(timeout -s INT -k 60 "$AAT_TIME_LIMIT")
fi
cd "$suite" || die "cannot enter '$suite'"
"${limit[@]}" "$py" -m pytest "${targets[@]}" --max-examples "$max_examples" --disable-deadline \
  "${xdist[@]}" -p no:cacheprovider --json-report --json-report-file="$report" \
  --json-report-omit=log "$@"
rc=$?

if [ -f "$report" ]; then
  # The runner's own facts go into the report, so that --summarize can name them.
  "$py" - "$report" "$suite_commit" "$max_examples" "$ARRAY_API_TESTS_MODULE" \
    "$ARRAY_API_TESTS_VERSION" <<'EOF'
import json, sys
path, commit, examples, module, version = sys.argv[1:6]
with open(path) as f:
    report = json.load(f)
report["aat_runner"] = {"suite_commit": commit, "max_examples": int(examples),
                        "module": module, "version": version}
with open(path, "w") as f:
    json.dump(report, f)
EOF
  summarize "$py" "$report"
  echo "report: $report"
else
  echo "run_array_api_tests: pytest wrote no report ($report); exit status $rc" >&2
fi
exit $rc
