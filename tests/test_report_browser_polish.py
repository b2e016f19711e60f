"""Issue 14, part 4: the static report without JavaScript says how to search, and the store
report's trend matrices fit a phone (they scroll inside their own box; the page never scrolls
sideways at 390 px).  Chromium through Playwright; skips, saying so, where no Chromium exists."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from auditor.batch.runner import Options, run_batch
from tests.conftest import FIXTURES
from tests.test_report_browser import PHONE, browser, shot, sideways  # noqa: F401  (browser: the shared Chromium fixture)

NIGHTS = [f"2026-11-{d:02d}" for d in range(20, 28)]


def hhaudit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "auditor.cli", *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def samples_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(FIXTURES / "samples", src / "samples")
    out = tmp_path_factory.mktemp("out") / "report"
    r = hhaudit("audit", str(src), "--html", str(out), "--fail-on", "none", "-q")
    assert r.returncode == 0, r.stderr
    return out


def multi_night_store(root: Path) -> Path:
    """A store of eight nights, each auditing new copies of the samples and of B001's bad hand (so
    every night has hands and findings, and the trend matrices have eight night columns)."""
    st = root / "store"
    for night in NIGHTS:
        src = root / "src" / night
        shutil.copytree(FIXTURES / "samples", src / "samples")
        shutil.copytree(FIXTURES / "rules" / "B001", src / "B001")
        run_batch(Options(sources=[str(src)], store=str(st), night=night, progress="log"), io.StringIO(),
                  io.StringIO())  # fmt: skip
    return st


@pytest.fixture(scope="module")
def nights_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return multi_night_store(tmp_path_factory.mktemp("nights"))


@pytest.fixture(scope="module")
def store_report(nights_store: Path) -> Path:
    st = nights_store
    out = st.parent / "report"
    r = hhaudit("report", "--store", str(st), "--html", str(out))
    assert r.returncode == 0, r.stderr
    return out / "index.html"


def test_search_box_says_it_needs_javascript(samples_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    ctx = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = ctx.new_page()
    page.goto((samples_report / "index.html").as_uri())
    assert not page.locator("#search").is_visible()
    note = page.locator("#search-noscript")
    assert note.is_visible() and "needs JavaScript" in note.inner_text()
    assert sideways(page) <= 1
    ctx.close()
    page = browser.new_page(viewport=PHONE)
    page.goto((samples_report / "index.html").as_uri())
    assert page.locator("#search").is_visible()
    assert page.locator("#search-noscript").count() == 0 or not page.locator("#search-noscript").is_visible()
    page.close()


def test_store_report_trend_matrices_fit_a_phone(store_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    page.goto(store_report.as_uri())
    for tid in ("trend-nights", "trend-sites", "trend-codes"):
        table = page.locator(f"#{tid}")
        assert table.locator("tbody tr").count() >= 1, tid
        box = page.evaluate(f"() => document.getElementById('{tid}').parentElement.className")
        assert "scroll" in box, tid  # a wide matrix scrolls in its own box ...
    assert page.locator("#trend-codes thead th").count() == len(NIGHTS) + 2
    assert sideways(page) <= 1  # ... and the page does not
    shot(page, "store-report-390")
    page.close()


def test_serve_overview_matrices_fit_a_phone(nights_store: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """The same matrices on ``hhaudit serve --store``'s overview: eight night columns scroll in
    their box, the page does not; a table's timeline row opens that table's findings."""
    from tests.test_serve_browser import start, stop

    proc, url = start("--store", str(nights_store))
    try:
        page = browser.new_page(viewport=PHONE)
        page.goto(url + "/store")
        assert page.locator("#trend-codes thead th").count() == len(NIGHTS) + 2
        assert page.locator("#trend-tables tbody tr").count() >= 3
        assert sideways(page) <= 1
        shot(page, "serve-store-390")
        page.locator("#trend-tables a", has_text="Izar III").click()
        page.wait_for_selector("#findings-list")
        assert "table = Izar III" in page.inner_text("#count")
        assert page.locator("#findings-list tbody tr").count() == len(NIGHTS)
        assert sideways(page) <= 1
        page.close()
    finally:
        stop(proc)
