#!/usr/bin/env bash
# The optional compiled build (issue 16): the hot, fully typed modules compiled with mypyc.
#
#   bash scripts/build_compiled.sh            # a platform wheel with them compiled, in build/compiled/
#   bash scripts/build_compiled.sh --inplace  # the same wheel's .so files put next to the modules of
#                                             # this checkout (Python imports them first): the whole
#                                             # suite then runs on them (bash scripts/test.sh)
#   bash scripts/build_compiled.sh --clean    # remove the in-place .so files: back to pure Python
#
# The wheel is built by hatchling with the mypyc build hook of pyproject.toml
# ([tool.hatch.build.targets.wheel.hooks.mypyc], off unless HATCH_BUILD_HOOK_ENABLE_MYPYC=1), in an
# isolated build environment (hatch-mypyc, mypy, setuptools and the runtime dependencies, from
# PyPI).  The pure-Python package (`pip install -e .`, or a wheel built without the variable) stays
# the default and needs no compiler.  This needs a C compiler and Python's headers: without them it
# says so and exits with status 3.  Edit a compiled module's .py after --inplace and you must build
# again (or --clean), since Python imports the .so first.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
case "$PY" in */*) PY=$(realpath -s "$PY") ;; esac  # (the build runs in a copy of the checkout, below)
OUT=build/compiled
# keep in step with the hook's `include` (pyproject.toml) and tests/test_compiled.py's HOT
MODULES=(
  auditor/model
  auditor/replay/betting
  auditor/replay/pots
  auditor/replay/cards
  auditor/replay/showdown
  auditor/replay/limits
  auditor/replay/stud
  auditor/replay/draw
  auditor/rules/stakes
  auditor/rules/studdraw
  auditor/rules/common
  auditor/rules/betting
  auditor/rules/hand
  auditor/rules/awards
  auditor/audit
  auditor/formats/assembler
  auditor/formats/money
  auditor/formats/vocab
  auditor/formats/pegline
  auditor/formats/peg
  auditor/formats/quick
  auditor/formats/partial
  auditor/formats/facts
  auditor/formats/chunk
  auditor/profiles
  auditor/handprint
  auditor/crosshand_rows
  auditor/times
  auditor/ingest
  auditor/pipeline
)
clean() {
  for m in "${MODULES[@]}"; do rm -f "$m".cpython-*.so; done
  rm -f ./*__mypyc.cpython-*.so auditor/*__mypyc.cpython-*.so
}
if [ "${1:-}" = "--clean" ]; then
  clean
  echo "compiled modules removed: the pure-Python package is in use"
  exit 0
fi
if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
  echo "no C compiler (${CC:-cc}): no compiled build; the pure-Python package stays in use" >&2
  exit 3
fi
if ! "$PY" -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  echo "no Python headers (Python.h): no compiled build; the pure-Python package stays in use" >&2
  exit 3
fi
rm -rf "$OUT"
mkdir -p "$OUT"
out=$(realpath "$OUT")
start=$(date +%s)
# The wheel is built from a copy of the checkout (its sources, without the virtual environments,
# caches and builds): hatch-mypyc hides pyproject.toml while mypy runs and builds its extension
# modules next to the sources, which a test run in this checkout at the same time (.ci/run runs the
# pure suite while the wheel builds) would see, and this checkout would otherwise import.
src=$(mktemp -d "${TMPDIR:-/tmp}/hhaudit-compiled-src.XXXXXX")
trap 'rm -rf "$src"' EXIT
tar -cf - --exclude=./.git --exclude='./.venv*' --exclude=./build --exclude='*/__pycache__' \
  --exclude='*.so' --exclude=./.mypy_cache --exclude=./.pytest_cache --exclude=./.ruff_cache \
  --exclude=./.hypothesis . | tar -xf - -C "$src"
(cd "$src" && HATCH_BUILD_HOOK_ENABLE_MYPYC=1 "$PY" -m build --wheel --outdir "$out" .) >"$OUT/build.log" 2>&1 || {
  tail -40 "$OUT/build.log" >&2
  echo "the compiled build failed (log: $OUT/build.log)" >&2
  exit 1
}
wheel=$(ls "$OUT"/hhaudit-*.whl)
echo "compiled wheel: $wheel ($(( $(date +%s) - start )) s)"
if [ "${1:-}" = "--inplace" ]; then
  "$PY" - "$wheel" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for name in z.namelist():
    if name.endswith(".so"):
        with z.open(name) as src, open(name, "wb") as dst:  # the shared runtime .so sits at the root
            dst.write(src.read())
        print("in place:", name)
PY
fi
