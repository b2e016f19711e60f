"""Regenerate the README's screenshots in ``docs/img/`` (issue 14): the report dashboard, a hand
page's replayer and the explain page, each at 1366x900 (desktop) and 390x844 (phone), in Chromium
through Playwright.

    .venv/bin/python scripts/screenshots.py [--chromium /usr/bin/chromium] [--out docs/img]

The pages are rendered from the bundled fixtures (``fixtures/sites`` and ``fixtures/samples``) by
the ``hhaudit`` command itself.  Other pages add themselves to :data:`SHOTS` (see
:func:`register`): ``hhaudit serve``'s dispute page is meant to register ``dispute`` there.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
    prepare: Callable[[object], None] | None = None


SHOTS: list[Shot] = []


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


register(Shot("dashboard", _dashboard))
register(Shot("hand-replayer", _replayer))
register(Shot("explain", _explain))


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
        b.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
