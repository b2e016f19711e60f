#!/usr/bin/env bash
# The compiled leg of CI (issue 16): build the mypyc wheel (scripts/build_compiled.sh), install it
# into its own virtual environment (.venv-compiled, the dependencies read from .venv), and run a fast but
# meaningful part of the suite against the *installed, compiled* package: the goldens, the betting
# and pot vectors and seeds, stud/draw, the fast-path identity, the model classes (native, frozen, pickled),
# the cross-hand rows, the reading of the input (decoding, splitting, hostile bytes), the finisher (which
# pickles the run's summary), the partial records, corpus-expected on a few corpus
# folders, and tests/test_compiled.py, which fails unless the hot modules were loaded from .so files
# of the installed wheel.  Extra arguments replace that selection (e.g. `tests` for everything).
#
# Without a C compiler or Python's headers it says so and exits 0: the pure-Python package (tested
# by scripts/test.sh) is what such a machine installs.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || { echo "run scripts/test.sh first (it makes .venv)" >&2; exit 2; }
set +e
bash scripts/build_compiled.sh
status=$?
set -e
if [ "$status" = 3 ]; then
  echo "compiled leg SKIPPED: no C compiler or Python headers on this machine (the pure-Python package was tested)"
  exit 0
fi
[ "$status" = 0 ] || exit "$status"
wheel=$(ls build/compiled/hhaudit-*.whl)
start=$(date +%s)
# A virtual environment holding the compiled wheel alone: its dependencies (runtime and test) are
# the ones scripts/test.sh installed into .venv, read through a path entry (.venv's .pth files, the
# editable install of this checkout among them, are not processed), so nothing is installed twice.
rm -rf .venv-compiled
.venv/bin/python -m venv --without-pip .venv-compiled
purelib=$(.venv-compiled/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
.venv/bin/python -c 'import site; print("\n".join(p for p in site.getsitepackages() if "site-packages" in p))' \
  >"$purelib/_hhaudit_deps.pth"
.venv/bin/python -m pip --python .venv-compiled/bin/python install -q --disable-pip-version-check --no-deps \
  --no-index "$wheel"
echo "installed in .venv-compiled ($(( $(date +%s) - start )) s)"
if [ "$#" -eq 0 ]; then
  set -- -n "${HHAUDIT_TEST_WORKERS:-logical}" --dist worksteal \
    tests/test_compiled.py tests/test_fastinit.py tests/test_golden.py tests/test_vectors_betting.py tests/test_vectors_pots.py \
    tests/test_seeds_betting.py tests/test_seeds_pots.py tests/test_studdraw.py tests/test_fast_path.py \
    tests/test_crosshand_rows_fast.py tests/test_ingest.py tests/test_ingest_dispatch.py tests/test_hostile_input.py \
    tests/test_finish.py tests/test_replay_steps.py tests/test_pots_layers.py tests/test_replay_fastpath.py tests/test_partial_records.py \
    "tests/test_corpus_expected.py::test_serious_findings_are_exactly_the_listed_ones[pokerstars]" \
    "tests/test_corpus_expected.py::test_serious_findings_are_exactly_the_listed_ones[ggpoker]" \
    "tests/test_corpus_expected.py::test_serious_findings_are_exactly_the_listed_ones[winamax]"
fi
# The installed package, not this checkout's: `python -P` (no working directory first on sys.path)
# with the tests' root appended after site-packages (the xdist workers get the same sys.path).
HHAUDIT_EXPECT_COMPILED=1 .venv-compiled/bin/python -P -m pytest -q -p no:cacheprovider --import-mode=append "$@"
