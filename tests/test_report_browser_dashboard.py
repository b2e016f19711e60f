"""The report as a dashboard and the hand replayer, in Chromium (issue 14, parts 1 and 2): CSS
renders, no page scrolls sideways on a phone, filters are said, search, keyboard sorting, and the
replayer steps to the offending action (and reads without JavaScript)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.test_report_browser import PHONE, browser, shot, sideways, wide_pages  # noqa: F401  (browser: the shared Chromium fixture)

DESKTOP = {"width": 1366, "height": 900}


def hhaudit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "auditor.cli", *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def sites_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every site fixture and the samples, in one report."""
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(FIXTURES / "sites", src / "sites")
    shutil.copytree(FIXTURES / "samples", src / "samples")
    out = tmp_path_factory.mktemp("out") / "report"
    r = hhaudit("audit", str(src), "--html", str(out), "--fail-on", "none", "-q")
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def explain_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("explain") / "explain.html"
    r = hhaudit(
        "explain", str(FIXTURES / "samples" / "disputed_reraise.txt"), "--hand", "250000000101", "--html", str(out)
    )
    assert r.returncode == 1 and out.is_file(), r.stderr
    return out


def _reraise_page(report: Path) -> Path:
    for p in sorted((report / "hands").glob("*.html")):
        if "250000000101" in p.read_text("utf-8"):
            return p
    raise AssertionError("no page for the disputed reraise")


def test_explain_page_css_renders_and_fits_a_phone(explain_html: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    for vp in (DESKTOP, PHONE):
        page = browser.new_page(viewport=vp)
        page.goto(explain_html.as_uri())
        font = page.evaluate("() => getComputedStyle(document.body).fontFamily")
        assert "Times" not in font and "system-ui" in font
        assert (
            page.evaluate("() => getComputedStyle(document.querySelector('th')).backgroundColor") != "rgba(0, 0, 0, 0)"
        )
        assert sideways(page) <= 0, vp
        shot(page, f"explain-{vp['width']}")
        page.close()


def test_no_page_scrolls_sideways_on_a_phone(sites_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    pages = [sites_report / "index.html", *sorted(sites_report.glob("code-*.html"))[:3],
             *sorted(sites_report.glob("file-*.html"))[:3], *sorted((sites_report / "hands").glob("*.html")),
             sites_report / "rules" / "B001.html"]  # fmt: skip
    assert wide_pages(page, pages) == []
    page.goto((sites_report / "index.html").as_uri())
    shot(page, "dashboard-390")


def test_every_finding_is_in_the_report(tmp_path: Path) -> None:
    """Findings without a line (a file that is not a hand history) are listed too: counts add up."""
    out = tmp_path / "r"
    r = hhaudit("audit", str(FIXTURES / "samples"), "--html", str(out), "--format", "json", "--fail-on", "none")
    found = json.loads(r.stdout)["findings"]
    text = (out / "index.html").read_text("utf-8")
    rows = sum(p.read_text("utf-8").count("<tr data-code=") for p in [out / "index.html", *out.glob("findings-*.html")])
    assert rows == len(found)
    assert f'<div class="big">{len(found):,}</div><div class="muted">findings</div>' in text
    assert "/" not in text.split("paths relative to")[1].split("</p>")[0].split("</span>")[0].rsplit("/", 1)[-1]


def test_filtered_report_says_so(tmp_path: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    src = FIXTURES / "samples"
    base = tmp_path / "base.json"
    hhaudit("audit", str(src), "--format", "json", "-o", str(base), "--fail-on", "none", "--select", "B")
    out = tmp_path / "r"
    r = hhaudit("audit", str(src), "--html", str(out), "--fail-on", "none", "--ignore", "P002",
                "--baseline", str(base))  # fmt: skip
    assert r.returncode == 0, r.stderr
    page = browser.new_page(viewport=DESKTOP)
    page.goto((out / "index.html").as_uri())
    banner = page.locator("#filters-applied").inner_text()
    assert "Filtered report" in banner and "--ignore P002" in banner and "baseline" in banner
    assert "hidden" in banner and page.locator("#filters-applied").is_visible()
    assert "hidden by filters" in page.locator(".cards").first.inner_text()
    shot(page, "dashboard-filtered")


def test_search_finds_a_hand_by_id_and_by_player(sites_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport=DESKTOP)
    page.goto((sites_report / "index.html").as_uri())
    box = page.locator("#q")
    assert box.is_visible()
    box.fill("250000000101")
    hits = page.locator("#search-results li")
    assert hits.count() >= 1 and "250000000101" in hits.first.inner_text()
    box.fill("Bahar")  # a player of that hand
    assert any("250000000101" in t for t in page.locator("#search-results li").all_inner_texts())
    box.fill("B001")
    assert "B001" in page.locator("#search-results li").first.inner_text()
    page.locator("#search-results li a").first.click()
    page.wait_for_load_state()
    assert "/hands/" in page.url


def test_tables_sort_from_the_keyboard(sites_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport=DESKTOP)
    page.goto((sites_report / "index.html").as_uri())
    th = page.locator("#findings th", has_text="Code")
    assert th.get_attribute("aria-sort") == "none"
    th.locator("button").focus()
    page.keyboard.press("Enter")
    assert th.get_attribute("aria-sort") == "ascending"
    codes = page.locator("#findings tbody tr td:first-child").all_inner_texts()
    assert codes == sorted(codes)
    page.keyboard.press("Space")
    assert th.get_attribute("aria-sort") == "descending"
    assert page.locator("#findings tbody tr td:first-child").all_inner_texts() == sorted(codes, reverse=True)


def test_replayer_steps_to_the_offending_action(sites_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport=DESKTOP)
    page.goto(_reraise_page(sites_report).as_uri())
    rp = page.locator(".replayer")
    assert rp.locator(".controls").is_visible()
    rp.locator("button[data-go=first]").click()
    assert "posts small blind" in rp.locator("[data-action]").inner_text()
    assert "at-finding" not in (rp.get_attribute("class") or "")
    steps = 0
    while "at-finding" not in (rp.get_attribute("class") or ""):
        rp.locator("button[data-go=next]").click()
        steps += 1
        assert steps < 40
    assert rp.locator("[data-line]").inner_text() == "19"
    assert "Amir" in rp.locator("[data-actor]").inner_text()
    assert "B001" in rp.locator("[data-notes]").inner_text()
    assert rp.locator("tr.current").get_attribute("data-step") == rp.locator("tr.offending").first.get_attribute(
        "data-step"
    )
    # Bahar went all in for $1.50 on the flop: her seat shows those chips in front of her, none behind
    seat = rp.locator("li.seat", has_text="Bahar").inner_text()
    assert "$1.50" in seat and "$0.00" in seat
    rp.locator("button[data-go=next]").click()
    assert "at-finding" not in (rp.get_attribute("class") or "")
    rp.locator("button[data-go=prev]").click()
    assert "B001" in rp.locator("[data-notes]").inner_text()
    rp.locator("button[data-go=last]").click()
    rp.locator("button[data-go=finding]").click()
    assert rp.locator("[data-line]").inner_text() == "19"
    # the four-colour deck: shown cards carry their suit class and symbol
    assert rp.locator(".seat-cards .suit-h, .seat-cards .suit-d, .seat-cards .suit-s, .seat-cards .suit-c").count() >= 4
    assert "♠" in rp.inner_text() or "♥" in rp.inner_text()
    shot(page, "replayer-1366")


def test_replayer_reads_without_javascript(sites_report: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    ctx = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = ctx.new_page()
    page.goto(_reraise_page(sites_report).as_uri())
    rp = page.locator(".replayer")
    assert not rp.locator(".controls").is_visible()
    assert "B001" in rp.locator(".step-now").inner_text()  # the page opens at the offending action
    assert rp.locator("tr.offending").count() == 1 and "B001" in rp.locator("tr.offending").inner_text()
    assert rp.locator("table.replay tbody tr").count() >= 10  # every action, street by street
    assert not page.locator("#search").is_visible()
    ctx.close()


def test_explain_page_replayer_works_standalone(explain_html: Path, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto(explain_html.as_uri())
    assert requests == [explain_html.as_uri()]
    rp = page.locator(".replayer")
    rp.locator("button[data-go=first]").click()
    rp.locator("button[data-go=finding]").click()
    assert "B001" in rp.locator("[data-notes]").inner_text()
    page.emulate_media(media="print")
    assert not rp.locator(".controls").is_visible()
    assert page.evaluate("() => getComputedStyle(document.querySelector('header.top')).backgroundColor") in (
        "rgba(0, 0, 0, 0)", "transparent")  # fmt: skip
