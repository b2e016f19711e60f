"""A format hhaudit recognises but does not read (a card with ``status = "recognised"``): every
file of it gets a P003 that names the site (``this file holds <Site> hands ...``), never the
generic "no hand history" one, and no hand is read from it by another format's grammar.

Every corpus folder is read now, so the mechanism is proved with a card registered from a
temporary directory, as a room that hhaudit learns of before it has a reader would be."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from auditor.cli import main
from auditor.formats import REGISTRY

CARD = """\
name = "oldroom"
title = "Old Room XML export"
status = "recognised"
recognise = '^\\s*<OldRoomHand id="\\d+"'
"""


@pytest.fixture
def oldroom(tmp_path: Path) -> Iterator[Path]:
    d = tmp_path / "cards"
    d.mkdir()
    (d / "oldroom.toml").write_text(CARD, "utf-8")
    REGISTRY.add_directory(d)
    try:
        yield d
    finally:
        REGISTRY.remove_directory(d)


def test_every_file_gets_a_named_p003(oldroom: Path, tmp_path: Path) -> None:
    src = tmp_path / "exports"
    src.mkdir()
    (src / "a.xml").write_text('<OldRoomHand id="1">\n  <Seat n="1"/>\n</OldRoomHand>\n', "utf-8")
    (src / "b.xml").write_text('\ufeff<OldRoomHand id="2">\n</OldRoomHand>\n', "utf-8")
    fmt = REGISTRY.get("oldroom")
    assert fmt is not None and not fmt.supported
    out = tmp_path / "report.jsonl"
    main(["audit", str(src), "--isolated", "--format", "jsonl", "-o", str(out), "--exit-zero", "--no-progress", "-q"])
    findings = [json.loads(line) for line in out.read_text("utf-8").splitlines() if line.strip()]
    findings = [f for f in findings if f.get("code")]
    assert sorted(Path(f["path"]).name for f in findings if f["code"] == "P003") == ["a.xml", "b.xml"]
    assert all(f["message"].startswith(f"this file holds {fmt.title} hands") for f in findings)


def test_formats_shows_the_card_patterns(oldroom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["formats", "888poker"]) == 0
    assert "lead_in: header__gameno" in capsys.readouterr().out
    assert main(["formats", "oldroom"]) == 0
    out = capsys.readouterr().out
    assert "(recognised)" in out and "hands start with: " in out
