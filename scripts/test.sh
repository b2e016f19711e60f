#!/usr/bin/env bash
# The test command of the README (and of .ci/run): installs everything the tests need from this
# repository's own files into .venv, then runs the linters, the type checker and the test suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k golden`).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
# The browser tests drive Debian's Chromium (Playwright's own browser download is not used).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser tests" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
.venv/bin/ruff check auditor tests benchmarks scripts
.venv/bin/ruff format --check auditor tests benchmarks scripts
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
