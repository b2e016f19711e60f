"""Cross-hand findings in the HTML report, without a browser: which pages are written, what they
say, and that a hand with findings of its own keeps one page holding both (the browser test,
tests/test_report_browser_across.py, follows the links)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import FIXTURES

SESSIONS = FIXTURES / "continuity"


def _report(tmp: Path, *sources: Path, extra: tuple[str, ...] = ()) -> Path:
    out = tmp / "report"
    cmd = [sys.executable, "-m", "auditor.cli", "audit", *map(str, sources), "--html", str(out), "--fail-on", "none",
           "-q", *extra]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    return out


def _pages(out: Path) -> dict[str, str]:
    """Hand id -> page text."""
    got = {}
    for p in (out / "hands").glob("*.html"):
        text = p.read_text("utf-8")
        m = re.search(r"<h1>Hand (\d+)", text)
        assert m, p
        assert m.group(1) not in got, f"two pages for hand {m.group(1)}"
        got[m.group(1)] = text
    return got


def test_a_hand_with_its_own_findings_keeps_one_page_with_both(tmp_path: Path) -> None:
    hands = (SESSIONS / "T002" / "bad.txt").read_text("utf-8").split("\n\n\n\n")
    hands[2] = hands[2].replace("Total pot $1 | Rake $0", "Total pot $2 | Rake $0")  # A002 on hand 3 itself
    src = tmp_path / "s.txt"
    src.write_text("\n\n\n\n".join(hands), "utf-8")
    pages = _pages(_report(tmp_path, src))
    assert sorted(pages) == ["260000000002", "260000000003"]
    later, earlier = pages["260000000003"], pages["260000000002"]
    assert "A002" in later and 'id="across"' in later and "this hand is the later one" in later
    assert "this hand is the earlier one" in earlier and "A002" not in earlier
    assert "Cy: ended hand 260000000002 with $100.00 · starts hand 260000000003 with $50.00" in later


def test_clean_runs_write_no_hand_page(tmp_path: Path) -> None:
    out = _report(tmp_path, SESSIONS / "T002" / "good.txt")
    assert _pages(out) == {}
    assert "across-1.html" not in (out / "index.html").read_text("utf-8")
    assert not (out / "across-1.html").exists()


def test_gaps_selected_are_shown_on_both_hands(tmp_path: Path) -> None:
    out = _report(tmp_path, SESSIONS / "T001" / "bad.txt", extra=("--extend-select", "T001"))
    pages = _pages(out)
    assert sorted(pages) == ["260000000002", "260000000003"]
    assert "continuity not followed between hand 260000000002 and hand 260000000003 (time)" in pages["260000000003"]
    index = (out / "index.html").read_text("utf-8")
    assert 'href="across-1.html"' in index and 'href="hands/' in index
