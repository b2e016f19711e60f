"""Bounded memory (issue 16): ``parse`` writes its parts by size, not by a count of hands."""

from __future__ import annotations

import io
from pathlib import Path

import polars as pl

from auditor.audit import AuditRun, audit_hand
from auditor.findings import Finding
from auditor.formats import Chunk, parse_chunk
from auditor.ingest import read_stream
from auditor.model import Hand
from auditor.pipeline import Summary, iter_parsed
from auditor.rules.hand import DuplicateIds
from auditor.seenstore import SeenStore
from auditor.tables import ROW_BYTES, read_tables, write_tables
from tests.conftest import FIXTURES


def _items() -> list[tuple[Hand | None, list[Finding]]]:
    files = sorted(str(p) for p in (FIXTURES / "sites" / "pokerstars").glob("*.txt"))
    return list(iter_parsed(files, Summary(), rules=None))


def test_parse_parts_by_size_same_tables(tmp_path: Path) -> None:
    items = _items()
    hands = sum(1 for h, _ in items if h is not None)
    assert hands >= 5
    one = write_tables(items, str(tmp_path / "one"))
    # a part of about two hands' rows: the hands are written in several parts
    many = write_tables(items, str(tmp_path / "many"), part_bytes=60 * ROW_BYTES)
    assert one == many == hands
    parts = list((tmp_path / "many" / "events").glob("*.parquet"))
    assert len(list((tmp_path / "one" / "events").glob("*.parquet"))) == 1
    assert len(parts) > 2
    a, b = read_tables(str(tmp_path / "one")), read_tables(str(tmp_path / "many"))
    for name in ("hands", "seats", "events"):
        assert a[name].equals(b[name]), name
        assert isinstance(a[name], pl.DataFrame)
    assert (tmp_path / "one" / "findings.jsonl").read_text() == (tmp_path / "many" / "findings.jsonl").read_text()


def _run_findings(chunks: list[Chunk], seen: SeenStore) -> list[dict[str, object]]:
    run = AuditRun(dups=DuplicateIds(seen))
    return [f.as_dict() for c in chunks for f in run.process(c).findings]


def test_duplicate_ids_same_findings_on_disk(tmp_path: Path) -> None:
    """H001 and H005 are the same whether the run keeps its hands in memory or on disk."""
    text = (FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt").read_text(encoding="utf-8")
    others = "\n\n".join(
        p.read_text(encoding="utf-8") for p in sorted((FIXTURES / "sites" / "pokerstars").glob("*.txt"))
    )
    edited = text.replace("alice: bets $0.40", "alice: bets $0.50")
    assert edited != text
    data = "\n\n".join([others, text, edited, text]).encode()
    chunks = [c for c in read_stream(io.BytesIO(data), "night.txt", len(data))[1] if isinstance(c, Chunk)]
    assert len(chunks) > 6
    in_memory = _run_findings(chunks, SeenStore())
    store = SeenStore(spill_at=2, directory=str(tmp_path))
    on_disk = _run_findings(chunks, store)
    assert store.on_disk
    codes = [f["code"] for f in in_memory]
    assert "H001" in codes and "H005" in codes
    assert on_disk == in_memory
    assert len(store) > 2
    assert list(tmp_path.iterdir())
    store.close()
    assert not list(tmp_path.iterdir())  # the temporary database is deleted


def test_duplicate_ids_one_lookup_a_hand(tmp_path: Path) -> None:
    """``AuditRun.process`` asks the store once a hand (on disk, a query each), and finds what the
    two calls a caller can make (``copy_of``, then ``check`` after the audit) find."""
    text = (FIXTURES / "sites" / "pokerstars" / "cash_nlhe_basic.txt").read_text(encoding="utf-8")
    edited = text.replace("alice: bets $0.40", "alice: bets $0.50")
    data = "\n\n".join([text, edited, text, edited]).encode()
    chunks = [c for c in read_stream(io.BytesIO(data), "night.txt", len(data))[1] if isinstance(c, Chunk)]

    class Counting(SeenStore):
        gets = 0

        def get(self, key: tuple[str, str]) -> tuple[str, int, bytes] | None:
            Counting.gets += 1
            return super().get(key)

    got = _run_findings(chunks, Counting(spill_at=1, directory=str(tmp_path)))
    assert Counting.gets == len(chunks) == 4
    dups = DuplicateIds(SeenStore())
    want: list[dict[str, object]] = []
    for c in chunks:
        hand = parse_chunk(c)[0]
        assert hand is not None
        copy = dups.copy_of(hand, c.lines)
        if copy is not None:
            want.append(copy.as_dict())
            continue
        want += [f.as_dict() for f in dups.check(hand, audit_hand(hand).trace, c.lines)]
    assert [f for f in got if f["code"] in ("H001", "H005")] == want
    assert [f["code"] for f in want] == ["H001", "H005", "H001"]  # (each record against the first of its id)
