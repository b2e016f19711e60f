"""Decoding and splitting: every encoding the corpus uses, line endings, text outside hands."""

from __future__ import annotations

import codecs
import io
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from auditor import rules  # noqa: F401
from auditor.findings import Finding
from auditor.ingest import Chunk, read_stream
from auditor.pipeline import audit
from tests.conftest import FIXTURES

HAND = (FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt").read_text("utf-8")
EURO = (FIXTURES / "sites" / "pokerstars" / "run_it_twice.txt").read_text("utf-8")


def split(data: bytes) -> tuple[list[Chunk], list[Finding], str]:
    info, items = read_stream(io.BytesIO(data), "mem.txt", len(data))
    got = list(items)
    return [c for c in got if isinstance(c, Chunk)], [f for f in got if isinstance(f, Finding)], info.encoding


TWO = HAND + "\n\n\n" + EURO


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (TWO.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + TWO.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 * 2 + TWO.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF16_LE + TWO.encode("utf-16-le"), "utf-16-le"),
        (codecs.BOM_UTF16_BE + TWO.encode("utf-16-be"), "utf-16-be"),
        (TWO.encode("utf-16-le"), "utf-16-le"),
        (TWO.encode("utf-16-be"), "utf-16-be"),
        (TWO.encode("cp1252"), "cp1252"),
        (TWO.replace("\n", "\r\n").encode("utf-8"), "utf-8"),
        (TWO.replace("\n", "\r").encode("utf-8"), "utf-8"),
    ],
    ids=["utf8", "bom", "double-bom", "utf16le-bom", "utf16be-bom", "utf16le", "utf16be", "cp1252", "crlf", "cr"],
)
def test_encodings_and_line_endings(data: bytes, encoding: str) -> None:
    chunks, findings, enc = split(data)
    assert enc == encoding
    assert findings == []
    assert [c.first_line for c in chunks] == [1, HAND.count("\n") + 4]
    assert chunks[0].lines == tuple(HAND.splitlines())
    assert "€" in chunks[1].text


def test_utf16_with_stray_nuls_and_bom_per_hand() -> None:
    text = HAND + "\n\ufeff" + EURO
    data = text.encode("utf-16-le") + b"\x00\x00"
    chunks, findings, _ = split(data)
    assert len(chunks) == 2 and findings == []
    assert chunks[1].lines[0].startswith("PokerStars Hand #250000000005")


def test_invalid_utf8_in_the_first_block_falls_back_to_cp1252() -> None:
    data = HAND.encode("utf-8").replace(b"Seat 2: bob", b"Seat 2: b\xc3\x28b")
    chunks, findings, enc = split(data)
    assert enc == "cp1252" and findings == []
    assert chunks[0].lines[3] == "Seat 2: b\u00c3(b ($12.40 in chips)"


def test_cp1252_undefined_byte_is_p004() -> None:
    data = EURO.encode("cp1252").replace(b"kim", b"k\x81m", 1)
    _chunks, findings, enc = split(data)
    assert enc == "cp1252"
    assert [(f.code, f.line, f.column) for f in findings] == [("P004", 3, 10)]


def test_invalid_utf8_after_sniff_window_is_p004() -> None:
    big = (HAND + "\n\n") * 200  # > 64 KiB of valid UTF-8 first
    data = big.encode("utf-8") + HAND.encode("utf-8").replace(b"Seat 2: bob", b"Seat 2: b\xffb")
    chunks, findings, enc = split(data)
    assert enc == "utf-8"
    p004 = [f for f in findings if f.code == "P004"]
    # "Seat 2: bob" appears on the seat line and the summary line of the last hand
    assert [f.line for f in p004] == [big.count("\n") + 4, big.count("\n") + 26]
    assert len(chunks) == 201


def test_text_outside_hands_and_empty_files(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "other.txt").write_text("<hands><hand/></hands>\n")
    (tmp_path / "junk_first.txt").write_text("exported by some tool\n\n" + HAND)
    summary, findings = audit([str(tmp_path)])
    by = {(Path(f.path).name, f.code) for f in findings}
    assert ("empty.txt", "P003") in by
    assert ("other.txt", "P003") in by
    assert ("junk_first.txt", "P003") in by
    assert summary.hands_seen == summary.hands_parsed == 1


def test_a_file_that_starts_inside_a_hand_is_p005_and_its_hands_are_audited(tmp_path: Path) -> None:
    # the tail of a hand cut off before the file (its header is in another file): P005 at line 1,
    # not P003 (the file is a hand history of a format hhaudit reads); other stray text stays P003
    tail = "\n".join(HAND.splitlines()[-6:])
    (tmp_path / "cut_start.txt").write_text(tail + "\n\n" + HAND)
    summary, findings = audit([str(tmp_path)])
    assert [(f.code, f.line) for f in findings if f.code in ("P003", "P005")] == [("P005", 1)]
    assert summary.hands_seen == summary.hands_parsed == 1


def test_truncated_and_garbled_hands_do_not_stop_the_file() -> None:
    cut = "\n".join(HAND.splitlines()[:14])
    garbled = HAND.replace("Table 'Andromeda IV' 6-max Seat #2 is the button", "Tabel ???")
    data = (cut + "\n\n" + garbled + "\n\n" + EURO).encode("utf-8")
    summary, findings = audit_bytes(data)
    assert summary.hands_seen == 3
    assert summary.hands_parsed == 2 and summary.hands_failed == 1
    codes = sorted(f.code for f in findings)
    assert codes == ["P001", "P005"]
    p001 = next(f for f in findings if f.code == "P001")
    assert p001.line == 17 and p001.column == 1 and "table" in p001.message


def audit_bytes(data: bytes):  # type: ignore[no-untyped-def]
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".txt") as f:
        f.write(data)
        f.flush()
        return audit([f.name])


class _Endless(io.RawIOBase):
    """A stream of ``n`` copies of a hand, produced on the fly (never held in memory)."""

    def __init__(self, hand: bytes, n: int) -> None:
        self.hand, self.left, self.buf = hand + b"\n\n", n, b""

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[no-untyped-def]
        while len(self.buf) < len(b) and self.left:
            self.buf += self.hand * min(self.left, 256)
            self.left -= min(self.left, 256)
        n = min(len(b), len(self.buf))
        b[:n] = self.buf[:n]
        self.buf = self.buf[n:]
        return n


def _peak(n: int) -> tuple[int, int]:
    stream = io.BufferedReader(_Endless(HAND.encode(), n), buffer_size=1 << 20)
    tracemalloc.start()
    _, items = read_stream(stream, "big.txt")  # type: ignore[arg-type]
    count = sum(1 for c in items if isinstance(c, Chunk))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return count, peak


def test_memory_does_not_grow_with_input() -> None:
    small_n, small_peak = _peak(2_000)
    big_n, big_peak = _peak(16_000)  # ~14 MB of text
    assert (small_n, big_n) == (2_000, 16_000)
    assert big_peak < 12 * 2**20
    assert big_peak < small_peak * 1.5 + 2**20


def _lines(n: int) -> Iterator[str]:
    yield from (f"line {i}" for i in range(n))


def test_a_file_without_line_breaks_is_read_in_bounded_pieces() -> None:
    data = b"x" * (5 << 20)  # 5 MiB, no newline
    tracemalloc.start()
    _info, items = read_stream(io.BytesIO(data), "flat.txt", len(data))
    got = list(items)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [f.code for f in got if isinstance(f, Finding)] == ["P003"]
    assert peak < 24 * 2**20
