#!/usr/bin/env bash
# Builds the documentation site into docs/_build/html, with every warning an error and every
# cross-reference checked (-n, nitpicky: a reference to a name without a page is an error;
# docs/conf.py lists what is deliberately left unlinked, and why).
# Installs nothing: it needs gpuarr importable (the source tree's python/ with a built
# _core, or an installed gpuarr with GPUARR_DOCS_INSTALLED=1) and the "docs" extra
# (python -m pip install ".[docs]"). No GPU is needed; the notebooks are rendered with
# their committed outputs, not executed.
# Usage: tools/build_docs.sh [extra sphinx-build arguments, e.g. -E for a full rebuild]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
exec "$PYTHON" -m sphinx -W --keep-going -n -b html "$@" docs docs/_build/html
