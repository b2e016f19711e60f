"""The HTML audit report: plain view models built in Python, rendered by Jinja2 templates.

Templates live in ``reports/templates`` (shipped in the wheel as ``auditor/reports``); they only
loop over view-model fields — every number and every sentence is computed here.  Autoescaping is
always on and undefined names are errors: player names are attacker-controlled text.

Layout of a report directory::

    index.html                 what was audited, counts by code / severity / site, findings (page 1)
    findings-<n>.html          further pages of the findings table (500 rows a page)
    code-<CODE>-<n>.html       the findings of one code; site-<site>-<n>.html: of one site
    hands/<n>.html             one page per hand with findings: source, replay, pots, findings
    rules/<CODE>.html          one page per rule: documentation, a bad and a good example
    static/report.css, report.js
"""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2


@dataclass(frozen=True)
class Page:
    """What ``base.html.j2`` reads: the title, a subtitle, the prefix from the page to the report
    root (None for a standalone page) and the CSS to inline (None: link ``static/report.css``)."""

    title: str
    subtitle: str
    root: str | None = ""
    inline_css: str | None = None


def reports_dir() -> Path:
    """Where the templates and static assets are: inside the installed package, or the checkout."""
    packaged = resources.files("auditor") / "reports"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent.parent / "reports"


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(reports_dir() / "templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(template: str, **context: Any) -> str:
    """Render a template; a ``view`` with a ``page`` also provides the base template's ``page``."""
    if "view" in context and "page" not in context:
        context["page"] = context["view"].page
    return _env().get_template(template).render(**context)


_ENV: jinja2.Environment | None = None


def _env() -> jinja2.Environment:
    global _ENV
    if _ENV is None:
        _ENV = environment()
    return _ENV


def write(path: Path, text: str) -> None:
    """Write atomically (a temporary file, then rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def copy_static(out: Path) -> None:
    static = reports_dir() / "static"
    (out / "static").mkdir(parents=True, exist_ok=True)
    for f in static.iterdir():
        shutil.copyfile(f, out / "static" / f.name)


def inline_css() -> str:
    return (reports_dir() / "static" / "report.css").read_text("utf-8")


def sha256_of(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
