#!/usr/bin/env bash
# Optional speed-up (issue 16): compile the hot, fully typed modules with mypyc, in place.
#
#   bash scripts/build_compiled.sh          # build: .so files next to the modules, imported instead of them
#   bash scripts/build_compiled.sh --clean  # remove them: back to the pure-Python package
#
# The pure-Python package (`pip install -e .`) stays the default and needs no compiler; this
# script needs a C compiler and Python's headers, and mypyc (installed with mypy by '.[test]').
# The compiled modules behave exactly as the Python ones (tests/test_fast_path.py and the whole
# suite pass on both); edit a compiled module's .py and you must build again (or --clean), since
# Python imports the .so first.
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES=(auditor/replay/betting.py auditor/replay/pots.py)
clean() {
  for m in "${MODULES[@]}"; do rm -f "${m%.py}".cpython-*.so; done
  rm -f ./*__mypyc.cpython-*.so
}
if [ "${1:-}" = "--clean" ]; then
  clean
  echo "compiled modules removed: the pure-Python package is in use"
  exit 0
fi
if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
  echo "no C compiler: the pure-Python package stays in use" >&2
  exit 1
fi
clean
# mypyc builds through setuptools, which would read this project's pyproject.toml (a hatchling
# project): build from a copy of the package alone, then copy the extension modules back.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r auditor "$tmp"/
(cd "$tmp" && MYPYC_OPT_LEVEL=${MYPYC_OPT_LEVEL:-3} "$OLDPWD/.venv/bin/mypyc" --strict "${MODULES[@]}" >/dev/null)
for m in "${MODULES[@]}"; do cp "$tmp/${m%.py}".cpython-*.so "$(dirname "$m")"/; done
cp "$tmp"/*__mypyc.cpython-*.so .
echo "compiled: ${MODULES[*]}"
