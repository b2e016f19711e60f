"""The HTML report in a real browser: Playwright for Python driving Debian's Chromium, headless.

The README's test command installs Chromium (``apt-get install chromium``) and Playwright; these
tests skip, saying so, only where no Chromium binary exists.  Screenshots go to
``test-artifacts/`` (kept by CI as artifacts, ignored by git).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, ROOT

ARTIFACTS = ROOT / "test-artifacts"
XSS_1 = "<script>alert(1)</script>"
XSS_2 = '"><img src=x onerror=alert(1)>'


def chromium() -> str:
    for c in (os.environ.get("HHAUDIT_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
              shutil.which("chromium-browser")):  # fmt: skip
        if c and Path(c).exists():
            return c
    if os.environ.get("CI"):
        pytest.fail("no Chromium binary in CI: scripts/test.sh should have installed Debian's chromium")
    pytest.skip("no Chromium binary (the README's test command installs Debian's chromium)")


def hostile_hand() -> str:
    """The disputed-reraise sample with player names that are HTML/JS payloads."""
    text = (FIXTURES / "samples" / "disputed_reraise.txt").read_text("utf-8")
    return text.replace("Amir", XSS_1).replace("Bahar", XSS_2)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    (src / "hostile.txt").write_text(hostile_hand(), "utf-8")
    shutil.copytree(FIXTURES / "samples", src / "samples")
    out = tmp_path_factory.mktemp("report")
    cmd = [sys.executable, "-m", "auditor.cli", "audit", str(src), "--html", str(out), "--fail-on", "none"]
    r = subprocess.run(cmd,
                       capture_output=True, text=True, check=False)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    exe = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=exe,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )  # fmt: skip
        yield b
        b.close()


def shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


#: A phone's viewport: the pages must not scroll sideways at this width.
PHONE = {"width": 390, "height": 844}


def sideways(page) -> int:  # type: ignore[no-untyped-def]
    """How many pixels the open page is wider than the viewport (0: no sideways scroll)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def wide_pages(page, pages: list[Path]) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """The pages (name, excess width) that scroll sideways in ``page``'s viewport."""
    wide = []
    for p in pages:
        page.goto(p.as_uri())
        if sideways(page) > 0:
            wide.append((p.name, sideways(page)))
    return wide


def test_index_filter_follow_finding_rule_page(report: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto((report / "index.html").as_uri())
    assert page.title().startswith("Audit report")
    cards = page.locator(".card .big").all_inner_texts()
    assert cards[1] == "5"  # hands seen: hostile + 4 in samples
    rows = page.locator("#findings tbody tr")
    total = rows.count()
    assert total >= 4
    page.select_option("#filters select[data-col='0']", "B001")
    visible = [r for r in rows.all() if r.is_visible()]
    assert len(visible) == 2  # the sample and the hostile copy
    assert "of" in page.locator("#shown").inner_text()
    shot(page, "index-filtered-B001")
    # follow the finding to its hand page: the line is anchored and marked
    visible[0].locator("a.hand-link").click()
    page.wait_for_load_state()
    assert page.url.endswith("#L19")
    line = page.locator("#L19")
    assert "hit" in (line.get_attribute("class") or "")
    assert "B001" in line.inner_text()
    pots = page.locator("#pots tbody tr")
    assert pots.count() == 2
    assert "× 3" in pots.nth(0).inner_text()
    assert page.locator("#players tbody tr").count() == 4
    shot(page, "hand-page")
    # the rule page
    page.locator("#hand-findings a", has_text="B001").first.click()
    page.wait_for_load_state()
    assert "illegal-reraise" in page.locator("h1").inner_text()
    assert "re-opened" in page.locator("#rule-doc").inner_text()
    assert page.locator("pre.source").count() == 2  # a bad and a good example
    shot(page, "rule-page")
    assert dialogs == []


def test_sorting(report: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page()
    page.goto((report / "index.html").as_uri())
    page.locator("#findings th", has_text="Code").click()
    codes = page.locator("#findings tbody tr td:first-child").all_inner_texts()
    assert codes == sorted(codes)
    page.locator("#findings th", has_text="Code").click()
    assert page.locator("#findings tbody tr td:first-child").all_inner_texts() == sorted(codes, reverse=True)


def test_hostile_player_names_are_text_on_every_page(report: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    pages = [report / "index.html", *sorted((report / "hands").glob("*.html")),
             *sorted(report.glob("code-*.html")), *sorted(report.glob("site-*.html"))]  # fmt: skip
    seen_names = 0
    for p in pages:
        page.goto(p.as_uri())
        page.wait_for_load_state()
        assert page.locator("img[src='x']").count() == 0, p
        code = page.locator("script:not([type='application/json'])").all()
        assert all("alert" not in (s.inner_text() or "") for s in code), p
        # the replayer's data holds the names as JSON text, with no "<" left to close its element
        for s in page.locator("script[type='application/json']").all():
            raw = s.evaluate("e => e.textContent")
            assert "<" not in raw, p
        body = page.locator("body").inner_text()
        seen_names += body.count(XSS_1) + body.count(XSS_2)
    assert seen_names > 0, "the names are shown, as text"
    assert dialogs == []
    page.goto(next((report / "hands").glob("*.html")).as_uri())
    shot(page, "hostile-names")


def test_explain_page_is_self_contained(tmp_path: Path, browser) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "h.txt"
    src.write_text(hostile_hand(), "utf-8")
    out = tmp_path / "explain.html"
    r = subprocess.run([sys.executable, "-m", "auditor.cli", "explain", str(src), "--hand", "250000000101",
                        "--html", str(out)], capture_output=True, text=True, check=False)  # fmt: skip
    assert r.returncode == 1 and out.is_file()
    text = out.read_text("utf-8")
    assert "<link" not in text and "<style>" in text  # inline CSS, nothing to fetch
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(out.as_uri())
    assert requests == [out.as_uri()]
    assert page.locator("#pots tbody tr").count() == 2
    assert XSS_1 in page.locator("#players").inner_text()
    assert dialogs == [] and page.locator("img[src='x']").count() == 0
    shot(page, "explain-page")
