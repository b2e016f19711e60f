#!/usr/bin/env bash
# The test command of the README (and of .ci/run): installs everything the tests need from this
# repository's own files into .venv, then runs the linters, the type checker and the test suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh -k golden`; `-n 0` for one process).
#
# The tests run on every core with pytest-xdist (`-n logical --dist worksteal`: each worker starts with
# a contiguous share of the tests, so a module's fixtures are mostly made once, and an idle worker
# takes half of the other's remaining queue); HHAUDIT_TEST_WORKERS sets the number of workers.
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
# the whole repository, as `ruff check .` and `ruff format --check .` see it (the Python blocks of
# the Markdown files too)
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m pytest -n "${HHAUDIT_TEST_WORKERS:-logical}" --dist worksteal "$@"
