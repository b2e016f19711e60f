"""A table's timeline in a browser, on a phone (390 px): in the store report (the "Table timelines"
row opens the table's page) and in ``hhaudit serve --store`` (the same, and a hand opens its page).
Every hand is listed in order with its seats' stacks, the T002 hand is marked and names its player,
and the page never scrolls sideways.  Chromium through Playwright; skips, saying so, where no
Chromium exists."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_report_browser import PHONE, browser, shot, sideways  # noqa: F401  (browser: the shared Chromium fixture)
from tests.test_timeline import two_night_store


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_night_store(tmp_path_factory.mktemp("timeline-browser"))


def _check_timeline(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_selector("#timeline")
    hands = page.locator("#timeline > li.tl-hand")
    assert hands.count() == 6
    flagged = page.locator("#timeline > li.tl-flagged")
    assert flagged.count() == 1
    assert "260000000003" in flagged.inner_text() and "T002" in flagged.inner_text()
    named = flagged.locator(".tl-seat.tl-named")
    assert named.count() == 1 and "Cy" in named.inner_text() and "50.00" in named.inner_text()
    assert "100.00 → 99.50" in hands.first.inner_text()
    assert "T002 1" in page.inner_text("#timeline-summary")
    assert sideways(page) <= 1


def test_store_report_timeline_on_a_phone(store: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    out = store.parent / "report"
    r = subprocess.run([sys.executable, "-m", "auditor.cli", "report", "--store", str(store), "--html", str(out)],
                       capture_output=True, text=True, check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    page = browser.new_page(viewport=PHONE)
    page.goto((out / "index.html").as_uri())
    page.locator("#timelines-table a", has_text="Altair").click()
    _check_timeline(page)
    shot(page, "store-timeline-390")
    page.locator("a", has_text="Table timelines").first.click()
    page.wait_for_selector("#timelines-table")
    page.close()


def test_serve_timeline_on_a_phone(store: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from tests.test_serve_browser import start, stop

    proc, url = start("--store", str(store))
    try:
        page = browser.new_page(viewport=PHONE)
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(url + "/store")
        page.locator("#timelines-table a", has_text="Altair").click()
        _check_timeline(page)
        shot(page, "serve-timeline-390")
        page.locator("#timeline > li.tl-flagged a", has_text="260000000003").click()
        page.wait_for_load_state()
        assert "260000000003" in page.inner_text("body")
        assert sideways(page) <= 1
        assert errors == []  # no CSP violation
        page.close()
    finally:
        stop(proc)
