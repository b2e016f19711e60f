"""Bounded memory (issue 16): ``parse`` writes its parts by size, not by a count of hands."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from auditor.findings import Finding
from auditor.model import Hand
from auditor.pipeline import Summary, iter_parsed
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
