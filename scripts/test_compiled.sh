#!/usr/bin/env bash
# The test suite on the mypyc-compiled modules (scripts/build_compiled.sh), then back to pure
# Python.  Extra arguments go to pytest (default: the whole suite); e.g. the replay and the
# fast path only:  bash scripts/test_compiled.sh tests/test_fast_path.py tests/test_vectors_betting.py
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build_compiled.sh
trap 'bash scripts/build_compiled.sh --clean >/dev/null' EXIT
.venv/bin/python - <<'PY'
import auditor.replay.betting as b, auditor.replay.pots as p
assert b.__file__.endswith(".so") and p.__file__.endswith(".so"), (b.__file__, p.__file__)
print("testing the compiled modules:", b.__file__, p.__file__)
PY
# One test counts replays by monkeypatching Replay.run, which a compiled class does not allow: it
# tests the instrumentation, not the behaviour, and is left to the pure-Python run.
.venv/bin/python -m pytest -q --deselect tests/test_audit_step.py::test_each_command_replays_each_hand_once "$@"
