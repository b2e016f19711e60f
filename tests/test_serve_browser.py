"""``hhaudit serve`` in a real browser: the command started as a user starts it (uvicorn on a free
port), driven by Playwright in Debian's Chromium.  Skips, saying so, where no Chromium exists."""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from auditor.batch.runner import Options, run_batch
from tests.conftest import FIXTURES, ROOT
from tests.test_report_browser import browser, chromium, shot  # noqa: F401  (fixtures)

B001 = FIXTURES / "rules" / "B001" / "bad.txt"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(*args: str) -> tuple[subprocess.Popen[bytes], str]:
    """``hhaudit serve ARGS`` on a free port; returns the process and its base URL once it answers."""
    port = free_port()
    cmd = [sys.executable, "-m", "auditor.cli", "serve", "--port", str(port), "--quiet", *args]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        if proc.poll() is not None:
            raise AssertionError(f"hhaudit serve exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            with urllib.request.urlopen(url + "/dispute", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("hhaudit serve did not answer")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(FIXTURES / "samples", src / "samples")
    shutil.copytree(FIXTURES / "rules" / "B001", src / "B001")
    st = tmp_path_factory.mktemp("store")
    run_batch(Options(sources=[str(src)], store=str(st), night="2026-11-29", progress="log"), io.StringIO(),
              io.StringIO())  # fmt: skip
    return st


@pytest.fixture(scope="module")
def server(store: Path) -> Iterator[str]:
    chromium()  # skip before starting anything when there is no browser
    proc, url = start("--store", str(store))
    try:
        yield url
    finally:
        stop(proc)


def watch(page) -> list[str]:  # type: ignore[no-untyped-def]
    """Console errors (a CSP violation is one) and requests to anywhere but the app."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: None if r.url.startswith("http://127.0.0.1") else problems.append(r.url))
    return problems


def no_sideways_scroll(page) -> None:  # type: ignore[no-untyped-def]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), page.url


@pytest.mark.parametrize("width,height", [(1366, 900), (390, 844)])
def test_paste_a_hand_and_see_its_b001(server: str, browser, width: int, height: int) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": height})
    problems = watch(page)
    page.goto(server + "/dispute")
    font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert "Times" not in font
    no_sideways_scroll(page)
    page.fill("#text", B001.read_text("utf-8"))
    page.select_option("#profile", "tda")
    page.click("#audit")
    page.wait_for_selector("#hand-findings")
    findings = page.inner_text("#hand-findings")
    assert "B001" in findings and "illegal-reraise" in findings
    assert page.is_visible("#pots")
    no_sideways_scroll(page)
    step_to_the_offending_action(page, "16", "A")  # fixtures/rules/B001/bad.txt: A re-raises at line 16
    no_sideways_scroll(page)
    shot(page, f"serve-dispute-result-{width}")
    assert problems == []  # the replayer ran under serve's CSP: no violation, no request elsewhere
    page.close()


def step_to_the_offending_action(page, line: str, actor: str) -> None:  # type: ignore[no-untyped-def]
    """The report's replayer on a serve page: its script ran (the controls show), it steps from the
    first action forward to the offending one, and "Go to the finding" returns there."""
    rp = page.locator(".replayer")
    assert rp.locator(".controls").is_visible(), "replayer.js did not run (CSP? missing /static/replayer.js?)"
    rp.locator("button[data-go=first]").click()
    assert "at-finding" not in (rp.get_attribute("class") or "")
    steps = 0
    while "at-finding" not in (rp.get_attribute("class") or ""):
        rp.locator("button[data-go=next]").click()
        steps += 1
        assert steps < 60
    assert rp.locator("[data-line]").inner_text() == line
    assert actor in rp.locator("[data-actor]").inner_text()
    assert "B001" in rp.locator("[data-notes]").inner_text()
    current = rp.locator("tr.current")
    assert current.get_attribute("data-step") == rp.locator("tr.offending").first.get_attribute("data-step")
    rp.locator("button[data-go=last]").click()
    assert "at-finding" not in (rp.get_attribute("class") or "")
    rp.locator("button[data-go=finding]").click()
    assert rp.locator("[data-line]").inner_text() == line


def test_bad_input_in_the_browser(server: str, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(server + "/dispute")
    page.fill("#text", "this is not a hand history")
    page.click("#audit")
    assert "No hand history was found" in page.inner_text("#error")
    page.close()


def test_search_the_store_by_hand_id_and_player(server: str, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    problems = watch(page)
    page.goto(server + "/")
    assert "2026-11-29" in page.inner_text("#by-night")
    page.fill("#serve-q", "250000000101")
    page.press("#serve-q", "Enter")
    page.wait_for_selector("#results")
    assert "matched by hand id" in page.inner_text("#count")
    page.click("#results a")
    page.wait_for_selector("#hand-findings")
    assert "B001" in page.inner_text("#hand-findings")
    assert "unchanged since it was audited" in page.inner_text("#note")
    page.fill("#serve-q", "Bahar")
    page.press("#serve-q", "Enter")
    page.wait_for_selector("#results")
    assert "matched by player" in page.inner_text("#count")
    assert "250000000101" in page.inner_text("#results")
    assert problems == []
    page.close()


def test_no_serve_page_scrolls_sideways_at_390(server: str, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Every kind of page serve has, on a phone: the dispute form, a submission of several hands,
    a pasted hand (the report's hand page with the replayer), the store overview, findings, search
    (by id, player, file, code), a store hand (read again from its file), a rule page, an error."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    problems = watch(page)
    page.goto(server + "/dispute")
    page.click("#samples button[value='mixed_export.txt']")
    page.wait_for_selector("#hands")
    submission = page.url
    page.click("#hands a")
    page.wait_for_selector("#hand-findings")
    pasted_hand = page.url
    page.goto(server + "/store/search?q=250000000101")
    page.click("#results a")
    page.wait_for_selector("#hand-findings")
    step_to_the_offending_action(page, "19", "Amir")
    store_hand = page.url
    urls = ["/dispute", submission, pasted_hand, "/", "/store/findings", "/store/findings?code=B001",
            "/store/search?q=Bahar", "/store/search?q=250000000101", "/store/search?q=mixed", "/store/search?q=B001",
            "/store/search?q=nobody-at-all", store_hand, "/rules/B001.html"]  # fmt: skip
    for url in urls:
        r = page.goto(url if url.startswith("http") else server + url)
        assert r is not None and r.status == 200, url
        no_sideways_scroll(page)
    r = page.goto(server + "/store/hand/nosuchkey-0000000000000000/0")
    assert r is not None and r.status == 404
    no_sideways_scroll(page)
    assert problems == [] or all("404" in p for p in problems), problems
    page.close()


def test_path_outside_the_store_is_refused_in_the_browser(server: str, browser) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = browser.new_page()
    for url in ("/store/hand/..%2F..%2Fetc%2Fpasswd/0", "/static/..%2F..%2Fpyproject.toml"):
        r = page.goto(server + url)
        assert r is not None and r.status == 404
        assert "root:" not in page.content() and "[project]" not in page.content()
    page.close()


def test_non_loopback_bind_without_token_refuses_to_start() -> None:
    env = {k: v for k, v in os.environ.items() if k != "HHAUDIT_SERVE_TOKEN"}
    cmd = [sys.executable, "-m", "auditor.cli", "serve", "--host", "0.0.0.0", "--port", str(free_port())]
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2
    assert "refusing to listen on 0.0.0.0" in r.stderr and "--token" in r.stderr
