"""Issue 11, input side: every reproduction of the fuzzing campaign that concerns reading sources.

Each test builds the hostile input (names chosen by strangers, cut or corrupted exports, special
files) and checks the contract: no traceback, exit status 0/1/2, every hand header counted,
``hands_seen == hands_parsed + hands_failed``, and a problem with one source is a finding on that
source while the run goes on.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import threading
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.findings import Finding
from auditor.ingest import MAX_HAND_CHARS, MAX_LINE_BYTES, Chunk, read_stream
from tests.conftest import FIXTURES

HAND = (FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt").read_text("utf-8").strip() + "\n\n\n"


def cli(*argv: str) -> tuple[int, str, str]:
    """Run ``hhaudit`` in-process; returns (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def split(data: bytes) -> tuple[int, list[str], str]:
    info, items = read_stream(io.BytesIO(data), "mem.txt", len(data))
    got = list(items)
    return sum(isinstance(c, Chunk) for c in got), [f.code for f in got if isinstance(f, Finding)], info.encoding


# ---------------------------------------------------------------------------------- hand headers counted


@pytest.mark.parametrize(
    ("data", "hands", "encoding"),
    [
        ((HAND * 40).encode() + (HAND * 40).replace("\n", "\r").encode(), 80, "utf-8"),
        ((HAND * 40).encode("utf-16") + (HAND * 40).encode(), 80, "utf-16-le+utf-8"),
        ((HAND * 40).encode("utf-16-be") + (HAND * 40).encode(), 80, "utf-16-be+utf-8"),
        ((HAND * 40).encode() + (HAND * 40).encode("utf-16"), 80, "utf-8+utf-16-le"),
        ((HAND * 40).encode() + (HAND * 40).encode("utf-16-be"), 80, "utf-8+utf-16-be"),
        (b"\x00" * 2048 + (HAND * 20).encode(), 20, "utf-8"),
        (b"\x00" * 2047 + (HAND * 20).encode("utf-16-le"), 20, "utf-16-le"),
        ((HAND * 3).replace("\n", "\r\n").encode() + (HAND * 3).replace("\n", "\r").encode(), 6, "utf-8"),
    ],
    ids=[
        "lf-then-cr",
        "utf16-then-utf8",
        "utf16be-then-utf8",
        "utf8-then-utf16",
        "utf8-then-utf16be",
        "leading-nuls",
        "nuls-then-utf16",
        "crlf-then-cr",
    ],
)
def test_every_hand_header_is_seen(data: bytes, hands: int, encoding: str) -> None:
    n, codes, enc = split(data)
    assert n == hands
    assert codes == []
    assert enc == encoding


def test_mixed_parts_audit_clean(tmp_path: Path) -> None:
    p = tmp_path / "mixed.txt"
    p.write_bytes((HAND * 40).encode("utf-16") + (HAND * 40).encode())
    code, out, _err = cli("audit", str(p), "--format", "json", "--select", "P")  # H001: the same hand 80 times
    s = json.loads(out)["summary"]
    assert code == 0 and s["hands_seen"] == s["hands_parsed"] == 80


# ---------------------------------------------------------------------------------- size caps


def test_a_long_line_in_a_hand_is_cut_with_p007() -> None:
    data = (HAND + "Dealt to x [" + "y" * (3 * MAX_LINE_BYTES) + "]\n" + HAND * 3).encode()
    n, codes, _ = split(data)
    assert n == 4 and codes == ["P007"]


def test_a_huge_hand_is_not_kept_and_fails(tmp_path: Path) -> None:
    body = "Dealt to x [Ah Kd]\n" * (MAX_HAND_CHARS // 19 + 10)
    p = tmp_path / "huge.txt"
    p.write_text(HAND + HAND.strip() + "\n" + body + "\n\n" + HAND)
    code, out, _err = cli("audit", str(p), "--format", "json")
    doc = json.loads(out)
    s = doc["summary"]
    assert code == 1
    assert s["hands_seen"] == 3 == s["hands_parsed"] + s["hands_failed"] and s["hands_failed"] == 1
    assert {"P001", "P007"} <= set(s["by_code"])


def test_a_huge_hand_is_read_in_bounded_memory() -> None:
    import tracemalloc

    data = HAND.strip().encode() + b"\n" + b"Dealt to x [Ah Kd]\n" * 300_000  # ~6 MB, one hand
    tracemalloc.start()
    n, codes, _ = split(data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert n == 1 and codes == ["P007"]
    assert peak - len(data) < 8 * 2**20


# ---------------------------------------------------------------------------------- sources


def _tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text(HAND)
    (src / "b-dangling.txt").symlink_to(tmp_path / "gone.txt")
    (src / "c-loop.txt").symlink_to(src / "c-loop.txt")
    (src / "d-zero.txt").symlink_to("/dev/zero")
    os.mkfifo(src / "e-fifo.txt")
    (src / "f.txt").write_text(HAND)
    return src


def test_failing_and_special_paths_are_findings_and_the_run_goes_on(tmp_path: Path) -> None:
    src = _tree(tmp_path)
    done: list[tuple[int, str, str]] = []
    t = threading.Thread(target=lambda: done.append(cli("audit", str(src), "--format", "json")), daemon=True)
    t.start()
    t.join(60)
    assert done, "audit blocked on a FIFO or /dev/zero"
    code, out, _err = done[0]
    doc = json.loads(out)
    assert code == 1
    assert doc["summary"]["hands_seen"] == doc["summary"]["hands_parsed"] == 2
    p008 = sorted(Path(f["path"]).name for f in doc["findings"] if f["code"] == "P008")
    assert p008 == ["b-dangling.txt", "c-loop.txt", "d-zero.txt", "e-fifo.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files without read permission")
def test_an_unreadable_file_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(HAND)
    (tmp_path / "b.txt").write_text(HAND)
    (tmp_path / "a.txt").chmod(0)
    code, out, _ = cli("audit", str(tmp_path), "--format", "json")
    doc = json.loads(out)
    assert code == 1 and [f["code"] for f in doc["findings"]] == ["P008"]
    assert doc["summary"]["hands_seen"] == 1


def test_a_missing_path_named_on_the_command_line_is_still_a_usage_error(tmp_path: Path) -> None:
    assert cli("audit", str(tmp_path / "missing.txt"))[0] == 2


def test_stdin_closed_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    code, out, _ = cli("audit", "-", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and [f["code"] for f in doc["findings"]] == ["P008"]


def test_a_process_substitution_pipe_is_read(tmp_path: Path) -> None:
    r, w = os.pipe()
    os.write(w, HAND.encode())
    os.close(w)
    try:
        code, out, _ = cli("audit", f"/dev/fd/{r}", "--format", "json")
    finally:
        os.close(r)
    assert code == 0 and json.loads(out)["summary"]["hands_parsed"] == 1


# ---------------------------------------------------------------------------------- names chosen by strangers

BAD_NAME = os.fsdecode(b"hand\xff\xfe.txt")


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "csv", "sarif"])
def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path: Path, fmt: str) -> None:
    (tmp_path / BAD_NAME).write_text(HAND.replace("dave: checks", "dave: winks"))
    out_file = tmp_path / "report.out"
    code, _out, err = cli("audit", str(tmp_path), "--format", fmt, "-o", str(out_file), "--fail-on", "none")
    assert code == 0, err
    text = out_file.read_text("utf-8").replace("\\\\", "\\")  # JSON doubles the backslash
    # SARIF percent-encodes its URIs: the escaped name's backslashes are %5C there
    assert "hand\\xff\\xfe.txt" in text.replace("%5C", "\\")


def test_a_file_name_that_is_not_utf8_in_html_and_parse(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / BAD_NAME).write_text(HAND.replace("dave: checks", "dave: winks"))
    code, _out, err = cli("audit", str(src), "--html", str(tmp_path / "html"), "--fail-on", "none")
    assert code == 0, err
    assert "hand\\xff\\xfe.txt" in (tmp_path / "html" / "index.html").read_text("utf-8")
    code, _out, err = cli("parse", str(src), "--out", str(tmp_path / "tables"))
    assert code == 0, err
