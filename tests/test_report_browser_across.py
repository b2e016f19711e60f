"""Cross-hand findings (T-codes) in the HTML report, in Chromium: the index counts them (a card
linking to their list, the by-code table and its filter), each links to its own hand's page, both
hands' pages show an "Across hands" section that names and links the other hand, and no page
scrolls sideways on a phone (390 px)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.test_report_browser import PHONE, browser, shot, sideways, wide_pages  # noqa: F401  (browser: the shared Chromium fixture)
from tests.test_report_browser_dashboard import hhaudit

SESSIONS = FIXTURES / "continuity"


@pytest.fixture(scope="module")
def across_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ratholing session (T002), two tables of a tournament (T007), and a hand with findings of
    its own in the same run (the samples)."""
    src = tmp_path_factory.mktemp("src")
    shutil.copy(SESSIONS / "T002" / "bad.txt", src / "rathole.txt")
    shutil.copy(SESSIONS / "T007" / "bad.txt", src / "two-tables.txt")
    shutil.copytree(FIXTURES / "samples", src / "samples")
    out = tmp_path_factory.mktemp("out") / "report"
    r = hhaudit("audit", str(src), "--html", str(out), "--fail-on", "none", "-q")
    assert r.returncode == 0, r.stderr
    return out


def test_index_counts_and_lists_the_cross_hand_findings(across_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((across_report / "index.html").as_uri())
    card = page.locator("#card-across-hands")
    assert card.count() == 1
    assert page.locator(".card", has=card).locator(".big").inner_text() == "2"
    by_code = page.locator("#by-code").inner_text()
    assert "T002 stack-shrank-while-seated" in by_code and "T007 behind-blind-schedule" in by_code
    card.click()
    assert page.url.endswith("across-1.html")
    rows = page.locator("table tbody tr")
    assert rows.count() == 2
    text = rows.all_inner_texts()
    assert any("T002" in t and "260000000003" in t for t in text)
    assert any("T007" in t and "260000002008" in t for t in text)
    shot(page, "across-list")
    page.close()


def _follow(page, code: str) -> None:  # type: ignore[no-untyped-def]
    row = page.locator("table tbody tr", has_text=code)
    row.locator("a[href*='hands/']").first.click()


@pytest.mark.parametrize(("code", "later", "earlier"), [("T002", "260000000003", "260000000002"),
                                                         ("T007", "260000002008", "260000001005")])  # fmt: skip
def test_both_hands_show_the_finding_and_link_each_other(  # type: ignore[no-untyped-def]
    across_report: Path,
    browser,  # noqa: F811
    code: str,
    later: str,
    earlier: str,
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((across_report / "across-1.html").as_uri())
    _follow(page, code)
    assert page.locator("h1").inner_text().startswith(f"Hand {later}") or later in page.locator("h1").inner_text()
    item = page.locator("#across-findings .across-item", has_text=code)
    assert item.count() == 1
    assert "this hand is the later one" in item.inner_text()
    if code == "T002":
        assert "Cy: ended hand 260000000002 with $100.00 · starts hand 260000000003 with $50.00" in item.inner_text()
    else:
        assert "big blind: 30 in hand 260000001005 · 20 in hand 260000002008" in item.inner_text()
    item.locator("a.other-hand").click()
    assert earlier in page.locator("h1").inner_text()
    back = page.locator("#across-findings .across-item", has_text=code)
    assert "this hand is the earlier one" in back.inner_text()
    back.locator("a.other-hand").click()
    assert later in page.locator("h1").inner_text()
    shot(page, f"across-{code}")
    page.close()


def test_no_page_of_the_cross_hand_report_scrolls_sideways(across_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    pages = [across_report / "index.html", across_report / "across-1.html",
             *sorted((across_report / "hands").glob("*.html"))]  # fmt: skip
    assert wide_pages(page, pages) == []
    page.goto((across_report / "across-1.html").as_uri())
    _follow(page, "T002")
    shot(page, "across-hand-390")
    page.close()
