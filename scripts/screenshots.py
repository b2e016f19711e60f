"""Regenerate the README's screenshots in ``docs/img/`` (issue 14): the report dashboard, a hand
page's replayer and the explain page, each at 1366x900 (desktop) and 390x844 (phone), in Chromium
through Playwright.

    .venv/bin/python scripts/screenshots.py [--chromium /usr/bin/chromium] [--out docs/img]

The pages are rendered from the bundled fixtures (``fixtures/sites`` and ``fixtures/samples``) by
the ``hhaudit`` command itself; ``hhaudit serve``'s dispute page (``dispute``: the README's disputed
hand pasted into the form; ``dispute-result``: what Audit gives, the report's hand page with the
replayer) comes from ``hhaudit serve`` started on a free port for the run.  Every page adds itself
to :data:`SHOTS` with :func:`register`.  The files written are ``docs/img/<name>-<width>.png``.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = {"1366": {"width": 1366, "height": 900}, "390": {"width": 390, "height": 844}}
REPLAY_HAND = "250000000101"  # fixtures/samples/disputed_reraise.txt: a B001 at line 19


@dataclass(frozen=True)
class Shot:
    """A page to photograph: ``name`` gives ``docs/img/<name>-<width>.png``; ``url(work)`` returns
    the page's address once the page exists under the work folder (it may start a server);
    ``prepare(page)`` runs before the photograph (click, scroll)."""

    name: str
    url: Callable[[Path], str]
    prepare: Callable[[Any], None] | None = None


SHOTS: list[Shot] = []
CLEANUP: list[Callable[[], None]] = []  # run when every shot is taken (stops what a shot started)


def register(shot: Shot) -> None:
    """Add a page to photograph (the hook for ``hhaudit serve``'s dispute page)."""
    SHOTS.append(shot)


def hhaudit(*args: str) -> None:
    r = subprocess.run([sys.executable, "-m", "auditor.cli", *args], capture_output=True, text=True, check=False)
    if r.returncode not in (0, 1):
        raise SystemExit(f"hhaudit {' '.join(args)} failed:\n{r.stderr}")


def _report(work: Path) -> Path:
    out = work / "report"
    if not out.exists():
        src = work / "src"
        shutil.copytree(ROOT / "fixtures" / "sites", src / "sites")
        shutil.copytree(ROOT / "fixtures" / "samples", src / "samples")
        hhaudit("audit", str(src), "--html", str(out), "--fail-on", "none", "-q")
    return out


def _dashboard(work: Path) -> str:
    return (_report(work) / "index.html").as_uri()


def _replayer(work: Path) -> str:
    for p in sorted((_report(work) / "hands").glob("*.html")):
        if REPLAY_HAND in p.read_text("utf-8"):
            return p.as_uri() + "#" + "replay"
    raise SystemExit("no hand page for the disputed reraise")


def _explain(work: Path) -> str:
    out = work / "explain.html"
    hhaudit("explain", str(ROOT / "fixtures" / "samples" / "disputed_reraise.txt"), "--hand", REPLAY_HAND,
            "--html", str(out))  # fmt: skip
    return out.as_uri()


_SERVER: list[str] = []


def _serve(work: Path) -> str:
    """The base URL of ``hhaudit serve`` (started once, on a free port; stopped by :data:`CLEANUP`)."""
    if _SERVER:
        return _SERVER[0]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "auditor.cli", "serve", "--port", str(port), "--quiet"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)

    def stop() -> None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

    CLEANUP.append(stop)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        if proc.poll() is not None:
            raise SystemExit("hhaudit serve exited before it answered")
        try:
            urllib.request.urlopen(url + "/dispute", timeout=2).close()
            _SERVER.append(url)
            return url
        except OSError:
            time.sleep(0.1)
    raise SystemExit("hhaudit serve did not answer")


def _dispute(work: Path) -> str:
    return _serve(work) + "/dispute"


def _paste(page: Any) -> None:
    page.fill("#text", (ROOT / "fixtures" / "samples" / "disputed_reraise.txt").read_text("utf-8"))
    page.eval_on_selector("#text", "box => { box.scrollTop = 0; box.blur(); }")  # show the hand's first lines


def _paste_and_audit(page: Any) -> None:
    _paste(page)
    page.click("#audit")
    page.wait_for_selector("#hand-findings")


register(Shot("dashboard", _dashboard))
register(Shot("hand-replayer", _replayer))
register(Shot("explain", _explain))
register(Shot("dispute", _dispute, _paste))
register(Shot("dispute-result", _dispute, _paste_and_audit))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--out", default=str(ROOT / "docs" / "img"))
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        work = Path(tmp)
        b = p.chromium.launch(executable_path=args.chromium, headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--no-first-run"])  # fmt: skip
        try:
            take(b, work, out)
        finally:
            for stop in CLEANUP:
                stop()
            b.close()
    return 0


def take(b: Any, work: Path, out: Path) -> None:
    """Every registered shot at every width, with the browser ``b``."""
    for shot in SHOTS:
        url = shot.url(work)
        for label, vp in WIDTHS.items():
            page = b.new_page(viewport=vp)
            page.goto(url)
            page.wait_for_load_state()
            if shot.prepare:
                shot.prepare(page)
            target = out / f"{shot.name}-{label}.png"
            page.screenshot(path=str(target))
            print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
            page.close()


if __name__ == "__main__":
    raise SystemExit(main())
