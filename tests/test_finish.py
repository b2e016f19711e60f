"""The end of a large ``hhaudit audit`` run in the re-executed process (issue 16, auditor/finish.py):
the auditing process hands its report over to a fresh interpreter that runs the cross-hand query,
and what the user gets (standard output, standard error, the ``-o`` file, the exit status) is the
same bytes as a run that ends in one process."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from auditor import finish
from auditor.output import FORMATS, Options, RunSummary, formatter
from auditor.pipeline import audit
from tests.conftest import FIXTURES, ROOT

CONTINUITY = FIXTURES / "continuity"
SAMPLES = FIXTURES / "samples"


def _findings() -> list[object]:
    """Findings of many kinds: cross-hand (T), betting, parse, file-level (no line), with data."""
    _s, fs = audit([str(CONTINUITY), str(SAMPLES)], select="ALL,T001")
    assert {f.code[0] for f in fs} >= {"T", "B", "P"}
    return fs  # type: ignore[return-value]


class _Stream(io.StringIO):
    """A report stream that keeps its text after ``End.close`` closes it."""

    def close(self) -> None:
        pass


def _end(name: str, out: io.StringIO, statistics: bool) -> finish.End:
    opts = Options(statistics=statistics, argv=["hhaudit", "audit", "x"], root=str(ROOT))
    summary = RunSummary(files=3, hands_seen=40, hands_parsed=39, hands_failed=1)
    keep = finish.Keep(summary, frozenset({"B001", "T001", "P002"}), [("*.txt", frozenset({"P002"}))], ROOT, set())
    return finish.End(formatter(name, out, opts), opts, summary, keep, True, None, False, False, out)


@pytest.mark.parametrize(
    ("name", "statistics"), [(n, False) for n in FORMATS] + [(n, True) for n in ("text", "json", "jsonl")]
)
def test_a_report_handed_over_midway_is_the_same_bytes(name: str, statistics: bool) -> None:
    """Every format (``--statistics`` where it applies), the formatter pickled with its state after
    some findings (its stream and CSV writers named, not copied) and finished on another stream,
    gives what one formatter gives."""
    fs = _findings()
    whole = _Stream()
    ref = _end(name, whole, statistics)
    ref.write(fs)  # type: ignore[arg-type]
    ref.summary.by_code.update(f.code for f in fs)  # type: ignore[attr-defined]
    ref_code = ref.close()

    first, second = _Stream(), _Stream()
    end = _end(name, first, statistics)
    half = len(fs) // 2
    end.write(fs[:half])  # type: ignore[arg-type]
    buf = io.BytesIO()
    finish._Pickler(buf, first).dump(end)
    buf.seek(0)
    again: finish.End = finish._Unpickler(buf, second).load()
    assert again.out is second and again.keep.summary is again.summary
    assert getattr(again.fmt, "opt", again.opts) is again.opts
    again.write(fs[half:])  # type: ignore[arg-type]
    again.summary.by_code.update(f.code for f in fs)  # type: ignore[attr-defined]
    assert again.close() == ref_code
    assert first.getvalue() + second.getvalue() == whole.getvalue()
    assert again.worst == ref.worst


def test_only_a_real_output_stream_is_handed_over(tmp_path: Path) -> None:
    out = io.StringIO()
    assert not finish.can_hand_over(_end("text", out, False))
    with open(tmp_path / "r.txt", "w") as f:
        assert finish.can_hand_over(_end("text", f, False)) == (os.name == "posix")  # type: ignore[arg-type]


#: Runs ``hhaudit`` as the script does (``main()`` with no arguments), with the cross-hand stage
#: made to leave every run of two or more hands to the end (``IN_PROCESS = 0``) and ``os.execve``
#: wrapped to say that the process was replaced.
_DRIVER = """
import os, sys
import auditor.crosshand_audit as X
if os.environ["TEST_IN_PROCESS"] == "0":
    X.ROWS_PER_BATCH, X.IN_PROCESS = 2, 0
real = os.execve
def execve(path, args, env):
    os.write(2, b"EXECVE " + " ".join(args[1:3]).encode() + b"\\n")
    real(path, args, env)
os.execve = execve
from auditor import cli
sys.argv = ["hhaudit", *sys.argv[1:]]
sys.exit(cli.main())
"""


def _run(tmp: Path, args: list[str], in_process: int, stdin: bytes | None = None) -> tuple[int, bytes, bytes]:
    env = {**os.environ, "TMPDIR": str(tmp), "TEST_IN_PROCESS": str(in_process), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _DRIVER, *args], input=stdin, capture_output=True, env=env,
                          cwd=ROOT, check=False)  # fmt: skip
    return done.returncode, done.stdout, done.stderr


CASES = {
    "text": ["--select", "ALL,T001"],
    "json": ["--format", "json", "--select", "ALL,T001"],
    "jsonl-statistics": ["--format", "jsonl", "--statistics"],
    "sarif": ["--format", "sarif"],
    "csv-quiet": ["--format", "csv", "--quiet", "--select", "T,B"],
    "junit-fail-on-warning": ["--format", "junit", "--fail-on", "warning"],
    "github-fail-on-none": ["--format", "github", "--fail-on", "none", "--ignore", "T002"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_large_run_hands_over_and_prints_the_same(tmp_path: Path, case: str) -> None:
    """The whole command: standard output, standard error and the exit status are the bytes of a
    run checked in one process; the process was replaced once; no temporary folder is left."""
    args = ["audit", str(CONTINUITY), str(SAMPLES), *CASES[case]]
    big, small = tmp_path / "big", tmp_path / "small"
    big.mkdir(), small.mkdir()
    rc, out, err = _run(big, args, in_process=0)
    assert err.count(b"EXECVE -m auditor.finish") == 1, err
    want = _run(small, args, in_process=1)
    assert b"EXECVE" not in want[2]
    assert (rc, out, err.replace(err[: err.index(b"\n") + 1], b"", 1)) == want
    assert not list(big.iterdir()) and not list(small.iterdir())  # the query's folder removed


def test_output_file_and_standard_input_are_handed_over(tmp_path: Path) -> None:
    """``-o FILE`` (its descriptor kept across the exec) and hands read from standard input."""
    data = b"".join(p.read_bytes() + b"\n\n" for p in sorted(CONTINUITY.rglob("*.txt")))
    got, want = tmp_path / "got.json", tmp_path / "want.json"
    rc, out, err = _run(tmp_path, ["audit", "-", "--format", "json", "-o", str(got)], 0, stdin=data)
    assert b"EXECVE" in err and out == b""
    rc2, out2, _err = _run(tmp_path, ["audit", "-", "--format", "json", "-o", str(want)], 1, stdin=data)
    assert (rc, out, got.read_bytes()) == (rc2, out2, want.read_bytes())
    report = json.loads(got.read_text("utf-8"))
    assert report["summary"]["hands_seen"] > 10 and any(f["code"].startswith("T") for f in report["findings"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["got.json", "want.json"]


def test_a_library_call_never_replaces_the_process(tmp_path: Path) -> None:
    """``main([...])`` (a test, a caller's program) runs the query in a child process as before."""
    code = (
        "import os, sys\n"
        "import auditor.crosshand_audit as X\n"
        "X.ROWS_PER_BATCH, X.IN_PROCESS = 2, 0\n"
        "def no(*a): raise AssertionError('execve')\n"
        "os.execve = no\n"
        "from auditor import cli\n"
        "rc = cli.main(sys.argv[1:])\n"
        "print('RC', rc)\n"
    )
    args = ["audit", str(CONTINUITY), "--format", "json", "-o", str(tmp_path / "r.json")]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=False)  # fmt: skip
    assert done.stdout.strip() == "RC 1", done.stderr
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["hands_seen"] > 10


def test_the_finisher_removes_its_folder_when_it_fails(tmp_path: Path) -> None:
    d = tmp_path / "q"
    d.mkdir()
    (d / finish.STATE_FILE).write_bytes(b"not a pickle")
    with pytest.raises(Exception):  # noqa: B017 (whatever the error: the folder goes)
        finish.main([str(d)])
    assert not d.exists()
