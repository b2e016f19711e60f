"""`--help` of every command, checked against tests/golden/help/ (rewrite with --update-golden).

The help is rendered at a fixed width (COLUMNS=100) so the goldens do not depend on the terminal.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from auditor.cli import main
from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "golden" / "help"
COMMANDS = ["", "audit", "parse", "explain", "batch", "report", "serve", "rules", "profiles", "config", "formats"]


def help_text(cmd: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as e:
        main([cmd, "--help"] if cmd else ["--help"])
    assert e.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_matches_golden(
    cmd: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, update_golden: bool
) -> None:
    text = help_text(cmd, capsys, monkeypatch)
    path: Path = GOLDEN / f"{cmd or 'hhaudit'}.txt"
    if update_golden or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("cmd", COMMANDS)
def test_help_reads_well(cmd: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = help_text(cmd, capsys, monkeypatch)
    assert all(len(line) <= 100 for line in text.splitlines())
    assert "%(" not in text and "SUPPRESS" not in text
    # every option has a help text: an option line alone is followed by an indented description
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^  (-\S.*)$", line)
        if m and "  " not in m.group(1).strip():
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            assert nxt.startswith(" " * 6), f"{cmd}: option without help: {line!r}"
