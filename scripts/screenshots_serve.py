"""Screenshots of ``hhaudit serve``'s dispute page for the README and docs/ (1366x900 and 390x844).

Starts ``hhaudit serve`` on a free port, opens the dispute page in Debian's Chromium (Playwright),
takes the empty page, then pastes the README's disputed hand and takes the result.  Another script
(``scripts/screenshots.py``) can call :func:`take` with its own browser.

    .venv/bin/python scripts/screenshots_serve.py            # writes docs/img/serve-dispute-*.png
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SIZES = [(1366, 900), (390, 844)]
HAND = ROOT / "fixtures" / "samples" / "disputed_reraise.txt"


def take(browser: Any, base_url: str, out: Path) -> list[Path]:
    """The dispute page, empty and with its result, at each of :data:`SIZES`; returns the files."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for w, h in SIZES:
        page = browser.new_page(viewport={"width": w, "height": h})
        page.goto(base_url + "/dispute")
        page.fill("#text", HAND.read_text("utf-8"))
        written.append(out / f"serve-dispute-{w}x{h}.png")
        page.screenshot(path=str(written[-1]))
        page.click("#audit")
        page.wait_for_selector("#hand-findings")
        written.append(out / f"serve-dispute-result-{w}x{h}.png")
        page.screenshot(path=str(written[-1]))
        page.close()
    return written


def main() -> int:
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "auditor.cli", "serve", "--port", str(port), "--quiet"]
    proc = subprocess.Popen(cmd, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "/dispute", timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                  args=["--no-sandbox", "--disable-gpu"])  # fmt: skip
            for f in take(b, url, ROOT / "docs" / "img"):
                print(f.relative_to(ROOT))
            b.close()
    finally:
        proc.terminate()
        proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
